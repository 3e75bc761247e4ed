"""tenbou verify: the JSON lines of docs/json-api.md, mismatches with requests that reproduce them,
exit statuses, and the same result in one process, over --jobs 2, and on a Dask LocalCluster."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from tenbou.api import score, settle
from tenbou.cli import main
from tenbou.io.mjai import mjai_records
from tenbou.verify.report import format_mismatch
from tenbou.verify.run import verify_paths
from tenbou.verify.summaries import summarize
from tenbou.verify.verifier import verify_record

from .test_convert import selfplay
from .test_io_tenhou import HAND, _draws

CORPUS = Path(__file__).resolve().parents[1] / ".." / "shared" / "corpus"
_CONTRACT = ("source", "game", "hand", "round", "number", "honba", "kind", "deltas", "results")


def _tampered(data: bytes, old: bytes, new: bytes) -> bytes:
    assert old in data
    return data.replace(old, new)


def _records(tmp_path: Path) -> Path:
    """A folder of records: a matching mjlog hand, a tampered copy, a chip room, a self-play game,
    and a note that is not a record."""
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "a_hand.xml").write_bytes(HAND)
    # Tenhou's record of the win says 8000 and 1000 more from seat 3: not what tenbou pays
    (folder / "b_tampered.xml").write_bytes(
        _tampered(HAND, b'ten="40,7700,0"', b'ten="40,8000,0"').replace(
            b'sc="384,0,206,0,186,87,214,-77"', b'sc="384,0,206,0,186,97,214,-87"'
        )
    )
    (folder / "c_chips.xml").write_bytes(
        _draws("", "250,0,250,0,250,0,250,0").replace(b'type="169"', b'type="553"')
    )
    (folder / "d_self.jsonl").write_bytes(selfplay(7))
    (folder / "e_notes.txt").write_text("not a record")
    return folder


def test_contract_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _records(tmp_path)
    status = main(["verify", str(folder), "--json", "--quiet"])
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert status == 1  # the tampered hand
    hands = [x for x in lines if "kind" in x]
    for line in hands:
        assert all(k in line for k in _CONTRACT)
        assert "recorded_deltas" in line and isinstance(line["match"], bool)
    skipped = [x for x in lines if "skipped" in x]
    assert {Path(x["source"]).name for x in skipped} == {"c_chips.xml", "e_notes.txt"}
    assert all(set(x) <= {"source", "game", "skipped"} for x in skipped)
    summary = lines[-1]["summary"]
    assert {k: summary[k] for k in ("hands", "matched", "mismatched", "skipped")} == {
        "hands": len(hands),
        "matched": len(hands) - 1,
        "mismatched": 1,
        "skipped": 2,
    }
    assert summary["mismatches"] == {"points": 1, "deltas": 1}
    assert summary["skipped_reasons"] == {"not a record": 1, "unmodelled rules": 1}


def test_mismatch_requests_reproduce(tmp_path: Path) -> None:
    folder = _records(tmp_path)
    lines = [line for r in verify_paths([str(folder / "b_tampered.xml")]) for line in r["lines"]]
    line = lines[0]
    assert line["match"] is False and line["recorded_deltas"] == [0, 0, 9700, -8700]
    by_kind = {m["kind"]: m for m in line["mismatches"]}
    assert score(by_kind["points"]["score"])["points"] == 7700  # tenbou's value, as reported
    assert settle(by_kind["deltas"]["settle"])["deltas"] == line["deltas"] == [0, 0, 8700, -7700]
    text = format_mismatch(line)
    assert "MISMATCH" in text and "tenbou score --json -" in text and "tenbou settle --json -" in text


def test_human_output_and_statuses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _records(tmp_path)
    assert main(["verify", str(folder / "a_hand.xml"), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "matched 1, mismatched 0" in out and "games 1, hands 1" in out
    assert main(["verify", str(folder / "b_tampered.xml")]) == 1
    captured = capsys.readouterr()
    assert "MISMATCH" in captured.out and "hands/s" in captured.err  # the progress bar is on stderr
    assert main(["verify", str(folder / "e_notes.txt"), "--quiet"]) == 2  # named, and not a record
    assert "not a game record" in capsys.readouterr().err
    assert main(["verify", str(folder / "missing.xml"), "--quiet", "--json"]) == 2


def test_mjai_rules_option(tmp_path: Path) -> None:
    path = tmp_path / "self.jsonl"
    path.write_bytes(selfplay(7))
    rec = mjai_records(path.read_text(), str(path), "mahjongsoul")[0]
    assert rec.rules == "mahjongsoul"
    lines = [line for r in verify_paths([str(path)], rules="mahjongsoul") for line in r["lines"]]
    assert lines and all(line["match"] for line in lines)


def test_illegal_event_is_a_mismatch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # seat 2 discards a tile it does not hold
    bad = _tampered(HAND, b"<V8/><F74/>", b"<V8/><F120/>")
    from tenbou.io.tenhou import mjlog_records

    rec = mjlog_records(bad, "bad.xml")[0]
    lines = verify_record(rec)
    assert lines[0]["match"] is False and lines[0]["mismatches"][0]["kind"] == "illegal_event"
    replay = lines[0]["mismatches"][0]["replay"]
    # the hand's events to the one refused, after a start_game naming the record's rules
    assert json.loads(replay[0]) == {"type": "start_game", "tenbou_rules": rec.rules}
    assert replay[1].startswith('{"type":"start_kyoku"')
    code, out, err = _replayed(replay, tmp_path, capsys)
    assert code == 2 and out == "" and "does not hold" in one_line(err)


def one_line(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("tenbou: error: "), err
    return lines[0]


def _summary_and_lines(paths: list[str], **kw: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = [line for r in verify_paths(paths, **kw) for line in r["lines"]]
    return summarize(lines), lines


def _subset() -> list[str]:
    files = sorted(
        str(p)
        for d in (CORPUS / "mjlog", CORPUS / "tenhou6")
        if d.is_dir()
        for p in d.rglob("*")
        if p.is_file() and ("pao" in p.name or "doubleron" in p.name or "nagashi" in p.name)
    )
    return files[:12]


def test_jobs_give_the_same_result(tmp_path: Path) -> None:
    paths = _subset() or [str(_records(tmp_path))]
    one = _summary_and_lines(paths)
    two = _summary_and_lines(paths, jobs=2)
    assert one == two and one[0]["summary"]["hands"] > 0


@pytest.mark.slow
@pytest.mark.skipif(
    importlib.util.find_spec("distributed") is None, reason="dask[distributed] is not installed"
)
def test_dask_local_cluster_gives_the_same_result(tmp_path: Path) -> None:
    paths = _subset() or [str(_records(tmp_path))]
    one = _summary_and_lines(paths)
    on_dask = _summary_and_lines(paths, dask="local", jobs=2)
    assert one == on_dask and one[0]["summary"]["hands"] > 0


@pytest.mark.slow
def test_jobs_on_the_whole_corpus() -> None:
    dirs = [str(d) for d in (CORPUS / "mjlog", CORPUS / "tenhou6") if d.is_dir()]
    if not dirs:
        pytest.skip("no corpus")
    one = _summary_and_lines(dirs)
    two = _summary_and_lines(dirs, jobs=2)
    print(one[0])
    assert one == two


def test_a_record_that_ends_too_early_is_a_game_end_mismatch() -> None:
    """A self-play game cut after its first hand, with an end_game whose scores follow that hand:
    tenbou plays on, so the early end is reported."""
    lines = selfplay(7).decode().splitlines()
    cut = next(i for i, line in enumerate(lines) if json.loads(line)["type"] == "end_kyoku")
    following = next(json.loads(line) for line in lines[cut:] if json.loads(line)["type"] == "start_kyoku")
    text = "\n".join([*lines[: cut + 1], json.dumps({"type": "end_game", "scores": following["scores"]})])
    out = verify_record(mjai_records(text, "cut.jsonl")[0])
    assert [m["kind"] for m in out[-1]["mismatches"]] == ["game_end"]
    assert out[-1]["mismatches"][0]["detail"] == "the record ends the game here; tenbou plays on"


def _replayed(replay: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``tenbou replay`` of a mismatch's mjai lines: (exit status, stdout, stderr)."""
    f = tmp_path / "hand.jsonl"
    f.write_text("\n".join(replay) + "\n")
    code = main(["replay", str(f)])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_game_end_reproduces_with_a_replay_of_the_hand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A settle request cannot show the end of a game: a game_end mismatch carries the hand's mjai
    lines (with a start_game naming the record's rules), the human output prints that replay as
    its reproduction, and ``tenbou replay`` of them shows the end, either way round."""
    # the record ends the game after its first hand; tenbou plays on
    lines = selfplay(7).decode().splitlines()
    cut = next(i for i, line in enumerate(lines) if json.loads(line)["type"] == "end_kyoku")
    following = next(json.loads(line) for line in lines[cut:] if json.loads(line)["type"] == "start_kyoku")
    text = "\n".join([*lines[: cut + 1], json.dumps({"type": "end_game", "scores": following["scores"]})])
    (line,) = verify_record(mjai_records(text, "cut.jsonl", "mleague")[0])
    (m,) = line["mismatches"]
    assert m["kind"] == "game_end" and "settle" in m  # the hand's settle request, kept
    assert json.loads(m["replay"][0]) == {"type": "start_game", "tenbou_rules": "mleague"}
    assert [json.loads(x)["type"] for x in m["replay"][1:]] == [
        json.loads(x)["type"] for x in lines[1 : cut + 1]
    ] + ["end_game"]
    shown = format_mismatch(line)
    assert f"reproduce: tenbou replay HAND.jsonl with these {len(m['replay'])} mjai lines:" in shown
    assert "tenbou settle" not in shown and shown.endswith(m["replay"][-1])
    code, out, err = _replayed(m["replay"], tmp_path, capsys)
    assert code == 0 and err == ""
    assert (
        "game 0: the record ends the game here; under its rules it goes on (next hand "
        f"{following['bakaze']}{following['kyoku']}-{following['honba']}, dealer seat {following['oya']})"
        in out
    )

    # tenbou ends the game (East-only rules) after East 4; the record (a hanchan) plays on
    text = selfplay(3, length="hanchan").decode()
    tonpuu = {"preset": "tenhou", "overrides": {"length": "tonpuu"}}
    lines_out = verify_record(mjai_records(text, "hanchan.jsonl", tonpuu)[0])
    ((line, m),) = [(x, m) for x in lines_out for m in x.get("mismatches", []) if m["kind"] == "game_end"]
    assert m["detail"] == "tenbou ends the game after this hand; the record plays on"
    assert json.loads(m["replay"][0])["tenbou_rules"] == tonpuu
    assert [json.loads(x)["type"] for x in m["replay"][-2:]] == ["end_kyoku", "start_kyoku"]
    assert "tenbou replay HAND.jsonl" in format_mismatch(line)
    code, out, err = _replayed(m["replay"], tmp_path, capsys)
    assert code == 2 and out == ""
    assert err.startswith("tenbou: error: ") and "start_kyoku after the game has ended" in err
    # the same hand without the next start_kyoku replays cleanly: the refusal is the game's end
    code, out, err = _replayed(m["replay"][:-1], tmp_path, capsys)
    assert code == 0 and err == "" and out.startswith("game 0 E4-")


def test_expect_defects(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A listed defect that shows exactly its mismatches is a known defect (exit 0); a listed hand
    that matches, or shows other mismatches, exits 1; a malformed list exits 2."""
    folder = _records(tmp_path)
    (folder / "e_notes.txt").unlink()
    (folder / "c_chips.xml").unlink()
    defects = tmp_path / "defects.tsv"

    def verify(*extra: str) -> tuple[int, str, str]:
        code = main(["verify", str(folder), "--quiet", *extra])
        out = capsys.readouterr()
        return code, out.out, out.err

    assert verify()[0] == 1  # b_tampered.xml differs
    defects.write_text("# the tampered copy\nrecords/b_tampered.xml\t0\tpoints,deltas\ttampered by hand\n")
    code, out, _ = verify("--expect-defects", str(defects))
    assert code == 0 and "known defect" in out and "tampered by hand" in out
    assert "mismatched 0; known defects 1" in out
    code, out, _ = verify("--json", "--expect-defects", str(defects))
    summary = json.loads(out.splitlines()[-1])["summary"]
    assert code == 0 and (summary["mismatched"], summary["known_defects"]) == (0, 1)
    defects.write_text("records/b_tampered.xml\t0\tpoints\tthe wrong kinds\n")
    code, _, err = verify("--expect-defects", str(defects))
    assert code == 1 and "listed as a known defect (points) but it shows other mismatches" in err
    defects.write_text("records/a_hand.xml\t0\tpoints\tnot defective at all\n")
    code, _, err = verify("--expect-defects", str(defects))
    assert code == 1 and "a_hand.xml hand 0" in err
    for bad in ("records/a_hand.xml\t0\tpoints\n", "x\tone\tpoints\twhy\n", "x\t0\tnot_a_kind\twhy\n"):
        defects.write_text(bad)
        code, out, err = verify("--expect-defects", str(defects))
        assert code == 2 and "PATH<TAB>HAND<TAB>KINDS<TAB>REASON" in out + err
    assert verify("--expect-defects", str(tmp_path / "missing.tsv"))[0] == 2


def _replay_record() -> str:
    """mjai lines of four games: two self-play games with every hand's deltas, the second with one
    hand's deltas changed and one hand's left out; a game without a hand; and a game cut short."""
    first = selfplay(2).decode().splitlines()
    second = selfplay(5).decode().splitlines()
    ends = [i for i, line in enumerate(second) if '"hora"' in line or '"ryukyoku"' in line]
    changed = json.loads(second[ends[0]])
    changed["deltas"] = [d + 100 * (1 - 2 * (i % 2)) for i, d in enumerate(changed["deltas"])]
    second[ends[0]] = json.dumps(changed)
    unstated = json.loads(second[ends[1]])
    del unstated["deltas"]
    second[ends[1]] = json.dumps(unstated)
    empty = ['{"type":"start_game"}', '{"type":"end_game"}']
    cut = first[: next(i for i, line in enumerate(first) if '"dahai"' in line) + 1]
    return "\n".join([*first, *second, *empty, *cut]) + "\n"


def test_the_replay_summary_line_keeps_its_keys_and_counts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``tenbou replay --json``'s closing line (docs/json-api.md), byte for byte: a game without a
    hand counts as a game, a hand whose record gives no deltas as unchecked, a game not replayed as
    skipped."""
    from tenbou.verify.replay import ReplayedGame, replay_games, summary

    f = tmp_path / "games.jsonl"
    f.write_text(_replay_record())
    code = main(["replay", "--json", str(f)])
    assert code == 1
    assert capsys.readouterr().out.splitlines()[-1] == (
        '{"summary": {"games": 4, "hands": 11, "wins": 8, "matched": 9, "mismatched": 1, "unchecked": 1, '
        '"skipped": 0}}'
    )
    games = [
        g
        for rec in mjai_records(f.read_text(), "games.jsonl", "tenhou")
        for g in replay_games(rec.events, rec.get_rules())
    ]
    failed = ReplayedGame(None, "not replayed", 3)
    assert json.dumps(summary([*games, failed], skipped=2)) == (
        '{"summary": {"games": 4, "hands": 11, "wins": 8, "matched": 9, "mismatched": 1, "unchecked": 1, '
        '"skipped": 3}}'
    )
