"""Damaged records are clean errors, and one bad file never stops a run.

Generated input: structure mutants of every format (:mod:`tests.mutants`: truncation, dropped, doubled
and swapped elements and lines, wrong JSON types per field, out-of-range tiles and seats, numbers of
5,000 digits) go through ``verify`` and ``convert``: no traceback ever, and no error a last-resort
guard had to catch (every one is the readers' own check, naming the field). A few hundred in the
fast suite, thousands over the corpus in the slow one. Then the cases the issue names, each by name;
a run over good and bad files together (the bad ones reported, the good ones verified, the summary
printed, exit status 2); the exit statuses; and a gzip bomb beside a good record, refused within a
512 MB address space while the good record is still verified.
"""

from __future__ import annotations

import json
import random
import resource
import subprocess
import sys
import zlib
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tenbou.cli import main
from tenbou.errors import LogFormatError
from tenbou.io.read import parse_records
from tenbou.io.source import inflate, parse_size
from tenbou.verify.convert import write_records
from tenbou.verify.run import verify_data, verify_paths

from .conftest import CORPUS
from .mutants import UNEXPECTED, check, mutate, sources
from .test_convert import selfplay
from .test_io_tenhou import HAND

ROOT = Path(__file__).resolve().parents[1]


@cache
def _sources(corpus: bool) -> dict[str, list[tuple[str, bytes]]]:
    return sources(CORPUS if corpus and CORPUS.is_dir() else None, per_format=3)


def _case(fmt: str, seed: int) -> str | None:
    recs = _sources(False)[fmt]
    name, data = recs[seed % len(recs)]
    rng = random.Random(seed)
    what, mutant = mutate(data, fmt, rng)
    problem = check(mutant, f"{name}#{seed}", convert_to=(rng.choice(("mjlog", "tenhou6", "mjai")),))
    return None if problem is None else f"{fmt} {name} seed {seed} ({what}):\n{problem}"


@pytest.mark.parametrize("fmt", ["mjlog", "tenhou6", "mjai"])
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1))
def test_mutants_never_crash(fmt: str, seed: int) -> None:
    """Each mutant gives lines (verify) and bytes or a clean error (convert), nothing else."""
    problem = _case(fmt, seed)
    assert problem is None, problem


@pytest.mark.slow
def test_mutants_never_crash_thousands() -> None:
    """Thousands of mutants of fixtures, self-play and corpus records in every format, converted to
    every format."""
    counts: dict[str, int] = {}
    problems: list[str] = []
    for fmt, recs in _sources(True).items():
        for name, data in recs:
            for seed in range(500):
                rng = random.Random(seed)
                what, mutant = mutate(data, fmt, rng)
                problem = check(
                    mutant, f"{name}#{seed}", convert_to=(("mjlog", "tenhou6", "mjai")[seed % 3],)
                )
                counts[fmt] = counts.get(fmt, 0) + 1
                if problem is not None:
                    problems.append(f"{fmt} {name} seed {seed} ({what}):\n{problem}")
    # (each format's records: fixtures and self-play, 1,000 mutants or more, and where the corpus is
    # there (``../shared/corpus``; absent, it is left out) three of its records more: 2,500 or more)
    least = 2500 if CORPUS.is_dir() else 1000
    assert all(n >= least for n in counts.values()), counts
    assert not problems, f"{len(problems)} of {sum(counts.values())} mutants:\n" + "\n".join(problems[:5])


# -- the cases of the issue, by name -------------------------------------------------------------------


def _lines(data: bytes) -> list[dict[str, Any]]:
    return [json.loads(x) for x in data.decode().splitlines()]


def _mjai(lines: list[dict[str, Any]]) -> bytes:
    return ("\n".join(json.dumps(x) for x in lines) + "\n").encode()


@cache
def _game() -> bytes:
    return selfplay(7)


def _edit(change: Any) -> bytes:
    lines = _lines(_game())
    change(lines)
    return _mjai(lines)


def _first(lines: list[dict[str, Any]], kind: str) -> int:
    return next(i for i, x in enumerate(lines) if x["type"] == kind)


def _refused(data: bytes, match: str) -> None:
    with pytest.raises(LogFormatError, match=match) as e:
        parse_records(data, "x")
    assert e.value.__cause__ is None and UNEXPECTED not in str(e.value)  # a reader's own check


def test_tenhou6_log_not_a_list() -> None:
    _refused(b'{"log": 5}', r"x: 'log' must be a list of rounds, not 5")


def test_mjai_scores_empty_and_huge_actor() -> None:
    def empty(lines: list[dict[str, Any]]) -> None:
        lines[_first(lines, "start_kyoku")]["scores"] = []

    def huge(lines: list[dict[str, Any]]) -> None:
        lines[_first(lines, "dahai")]["actor"] = 10**19

    def huger(lines: list[dict[str, Any]]) -> None:
        lines[_first(lines, "dahai")]["actor"] = 10**20  # (the strict reader's limit: 20 digits)

    def twice(lines: list[dict[str, Any]]) -> None:
        lines[_first(lines, "dahai")]["actor"] = "ACTOR_TWICE"

    _refused(_edit(empty), r"x:2: scores holds 0 values, not one per seat \(4\)")
    _refused(_edit(huge), r"x:\d+: actor 10000000000000000000 is not a seat 0\.\.3")
    _refused(_edit(huger), r"x:\d+: an integer of 21 digits \(at most 20\)")
    # a key given twice: the line is refused, not read with one of the two
    _refused(
        _edit(twice).replace(b'"actor": "ACTOR_TWICE"', b'"actor": 3, "actor": 0'),
        r"x:\d+: the key 'actor' is given twice in one object",
    )


@pytest.mark.parametrize("actor", [5, -1, 4])
@pytest.mark.parametrize("fmt", ["mjlog", "tenhou6", "mjai"])
def test_convert_refuses_a_tsumo_of_no_seat(actor: int, fmt: str, capsys: pytest.CaptureFixture[str]) -> None:
    def bad(lines: list[dict[str, Any]]) -> None:
        lines[_first(lines, "tsumo")]["actor"] = actor

    data = _edit(bad)
    with pytest.raises(LogFormatError, match=rf"x:\d+: actor {actor} is not a seat 0\.\.3"):
        write_records(parse_records(data, "x"), fmt)


def _doubled_start(lines: list[dict[str, Any]]) -> None:
    i = _first(lines, "start_kyoku")
    lines.insert(i, dict(lines[i]))


def _swapped_end(lines: list[dict[str, Any]]) -> None:
    i = _first(lines, "end_kyoku")
    lines[i - 1], lines[i] = lines[i], lines[i - 1]


@pytest.mark.parametrize("fmt", ["mjlog", "tenhou6", "mjai"])
@pytest.mark.parametrize(
    ("change", "match"),
    [
        (_doubled_start, r"hand 0 \(E1-0\): the engine refuses the record: the hand has no end"),
        (_swapped_end, r"hand 0 \(E1-0\): the engine refuses the record: event \d+: end_kyoku before"),
    ],
)
def test_convert_refuses_what_replay_refuses(change: Any, match: str, fmt: str) -> None:
    with pytest.raises(LogFormatError, match=match):
        write_records(parse_records(_edit(change), "x"), fmt)


def test_sanma_bits_with_four_hands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """GO says three players (0x10) while INIT deals four hands: refused, and convert exits 2."""
    bad = HAND.replace(b'type="169"', b'type="185"').replace(b'ten="384,206,196,214"', b'ten="384,206,196,0"')
    _refused(bad, r"<INIT> in round 1: hai3 deals 13 tiles to seat 3, but the GO type says 3 players")
    path = tmp_path / "sanma.xml"
    path.write_bytes(bad)
    assert main(["convert", str(path), "--to", "mjai"]) == 2
    assert "hai3 deals 13 tiles" in capsys.readouterr().err


def test_an_event_before_start_kyoku_does_not_stop_the_run(tmp_path: Path) -> None:
    lines = _lines(_game())
    lines.insert(1, {"type": "dahai", "actor": 0, "pai": "1m", "tsumogiri": False})
    (tmp_path / "a_bad.jsonl").write_bytes(_mjai(lines))
    (tmp_path / "b_good.xml").write_bytes(HAND)
    out = [line for r in verify_paths([str(tmp_path)]) for line in r["lines"]]
    assert out[0]["skipped"].startswith("unreadable: ")
    assert "dahai comes before the game's first start_kyoku" in out[0]["error"]["message"]
    assert out[1]["match"] is True


def test_a_missing_end_kyoku_is_a_defective_hand() -> None:
    """8 hands played, one end_kyoku deleted: 8 hand lines, the one without its end a mismatch."""
    whole = verify_data(_game(), "g")["lines"]

    def drop(lines: list[dict[str, Any]]) -> None:
        del lines[_first(lines, "end_kyoku")]

    cut = verify_data(_edit(drop), "g")["lines"]
    assert len(cut) == len(whole) and all(line["match"] for line in whole)
    assert cut[0]["match"] is False and [m["kind"] for m in cut[0]["mismatches"]] == ["illegal_event"]
    assert "the hand has no end: the next start_kyoku" in cut[0]["mismatches"][0]["detail"]
    assert all(line["match"] for line in cut[1:])


def test_a_doubled_start_kyoku_is_a_defective_hand() -> None:
    lines = verify_data(_edit(_doubled_start), "g")["lines"]
    whole = verify_data(_game(), "g")["lines"]
    assert len(lines) == len(whole) + 1
    assert lines[0]["match"] is False and lines[0]["mismatches"][0]["kind"] == "illegal_event"
    assert all(line["match"] for line in lines[1:])


def test_events_after_end_kyoku() -> None:
    def doubled_end(lines: list[dict[str, Any]]) -> None:
        i = _first(lines, "end_kyoku")
        lines.insert(i, dict(lines[i]))

    lines = verify_data(_edit(doubled_end), "g")["lines"]
    assert lines[0]["match"] is False and "end_kyoku after the hand's end_kyoku" in lines[0]["error"]


# -- a run over good and bad files ---------------------------------------------------------------------


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "a_log5.json").write_bytes(b'{"title": ["", ""], "name": [], "rule": {}, "log": 5}')
    (folder / "b_hand.xml").write_bytes(HAND)
    (folder / "c_rules.jsonl").write_bytes(
        _game().replace(b'"type":"start_game"', b'"type":"start_game","tenbou_rules":"nope"', 1)
    )
    (folder / "d_cut.xml.gz").write_bytes(zlib.compress(HAND, wbits=31)[:-9])
    (folder / "e_self.jsonl").write_bytes(_game())
    return folder


def test_a_bad_file_never_stops_the_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _folder(tmp_path)
    status = main(["verify", str(folder), "--json", "--quiet"])
    out = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert status == 2
    by_file: dict[str, list[dict[str, Any]]] = {}
    for line in out[:-1]:
        by_file.setdefault(Path(line["source"]).name, []).append(line)
    assert list(by_file) == ["a_log5.json", "b_hand.xml", "c_rules.jsonl", "d_cut.xml.gz", "e_self.jsonl"]
    for name, why in [
        ("a_log5.json", "'log' must be a list of rounds, not 5"),
        ("c_rules.jsonl", "unknown rules preset 'nope'"),
        ("d_cut.xml.gz", "gzip data is cut short"),
    ]:
        (line,) = by_file[name]
        assert why in line["error"]["message"] and line["error"]["code"] in ("log_format", "rule"), line
    assert by_file["b_hand.xml"][0]["match"] is True
    assert all(line["match"] for line in by_file["e_self.jsonl"])
    summary = out[-1]["summary"]
    assert summary["errors"] == 3 and summary["skipped"] == 3 and summary["mismatched"] == 0
    assert summary["hands"] == 1 + len(by_file["e_self.jsonl"])


def test_exit_statuses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.xml"
    good.write_bytes(HAND)
    differs = tmp_path / "differs.xml"
    differs.write_bytes(HAND.replace(b'ba="0,1"', b'ba="1,1"'))
    notes = tmp_path / "notes.txt"
    notes.write_text("not a record")
    assert main(["verify", str(good), "--quiet"]) == 0
    assert main(["verify", str(good), str(differs), "--quiet"]) == 1
    assert main(["verify", str(differs), str(notes), "--quiet"]) == 2  # an error wins over a mismatch
    assert main(["verify", str(tmp_path / "missing.xml"), "--quiet"]) == 2
    assert main(["verify", str(good), "--max-size", "0", "--quiet"]) == 2
    assert main(["verify", str(good), "--max-size", "100", "--quiet"]) == 2
    text = capsys.readouterr()
    assert "holds more than 100 bytes (the limit; see --max-size)" in text.err
    with pytest.raises(SystemExit) as e:
        main(["verify"])
    assert e.value.code == 2


# -- bounded decompression -----------------------------------------------------------------------------


def test_inflate_limits() -> None:
    member = zlib.compress(b"<mjloggm/>" * 1000, wbits=31)
    assert inflate(member * 3, "m") == b"<mjloggm/>" * 3000  # every member of a multi-member file
    with pytest.raises(LogFormatError, match="inflates to more than 25,000 bytes"):
        inflate(member * 3, "m", max_bytes=25_000)
    with pytest.raises(LogFormatError, match="not gzip"):
        inflate(member + b"trailing", "m")
    assert parse_size("1G") == 1 << 30


def test_detection_reads_the_inflated_bytes() -> None:
    """A gzip file of any format is told apart by what it holds (inflated once)."""
    for data in (HAND, _game()):
        assert len(parse_records(zlib.compress(data, wbits=31), "g")) == 1


_BOMB_RUN = """
import json, resource, sys
from tenbou.cli import main
status = main(["verify", *sys.argv[1:], "--json", "--quiet"])
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"status": status, "peak_kb": peak}))
"""


def _bomb(path: Path, gib: int = 1) -> None:
    """A gzip file of ``gib`` GiB of zeros (64 MiB members): about a megabyte on disk."""
    c = zlib.compressobj(9, zlib.DEFLATED, 31)
    member = c.compress(bytes(64 << 20)) + c.flush()
    path.write_bytes(member * (16 * gib))


def test_gzip_bomb_beside_a_good_record(tmp_path: Path) -> None:
    bomb = tmp_path / "a_bomb.xml.gz"
    _bomb(bomb)
    good = tmp_path / "b_good.xml"
    good.write_bytes(HAND)

    def limit() -> None:  # a 512 MB address space: inflating the bomb whole would fail
        resource.setrlimit(resource.RLIMIT_AS, (512 << 20, 512 << 20))

    run = subprocess.run(
        [sys.executable, "-c", _BOMB_RUN, str(bomb), str(good)],
        capture_output=True,
        text=True,
        preexec_fn=limit,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"},
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    lines = [json.loads(x) for x in run.stdout.splitlines()]
    assert "inflates to more than 67,108,864 bytes" in lines[0]["error"]["message"]
    assert lines[1]["match"] is True and lines[2]["summary"]["matched"] == 1
    end = lines[-1]
    assert end["status"] == 2 and end["peak_kb"] < 512 * 1024


def test_gzip_inside_gzip_is_refused() -> None:
    twice = zlib.compress(zlib.compress(HAND, wbits=31), wbits=31)
    _refused(twice, "gzip data inside gzip data")
