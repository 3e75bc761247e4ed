"""tenbou convert: mjlog, tenhou.net/6 and mjai to each other; what is written replays identically."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from tenbou.cli import main
from tenbou.engine.events import events_to_lines
from tenbou.engine.table import GreedyAgent, play_game
from tenbou.errors import LogFormatError
from tenbou.io.mjai import mjai_records
from tenbou.io.read import FORMATS, detect_format, parse_records, read_records
from tenbou.rules import get_rules
from tenbou.verify.convert import write_records
from tenbou.verify.verifier import verify_record

from .test_io_tenhou import HAND

CORPUS = Path(__file__).resolve().parents[1] / ".." / "shared" / "corpus"


def replayed(data: bytes, source: str = "x") -> list[dict[str, Any]]:
    """The verify lines of a record, without the fields that name the file."""
    out = []
    for rec in parse_records(data, source):
        for line in verify_record(rec):
            line = {k: v for k, v in line.items() if k != "source"}
            for m in line.get("mismatches", []):
                m.pop("replay", None)
            out.append(line)
    return out


def selfplay(seed: int, length: str = "tonpuu") -> bytes:
    agents = [GreedyAgent(random.Random(seed * 4 + i), call_rate=0.3) for i in range(4)]
    events = play_game(get_rules("tenhou"), seed=seed, length=length, agents=agents)
    return ("\n".join(events_to_lines(events)) + "\n").encode()


@pytest.mark.parametrize("fmt", FORMATS)
def test_inline_hand_round_trips(fmt: str) -> None:
    base = replayed(HAND)
    data = write_records(parse_records(HAND, "hand.xml"), fmt)
    assert detect_format(data) == fmt
    assert replayed(data) == base
    for back in FORMATS:
        assert replayed(write_records(parse_records(data, "again"), back)) == base


@pytest.mark.parametrize("seed", [98, 7])
def test_selfplay_round_trips(seed: int) -> None:
    """mjai -> mjlog -> mjai and mjai -> tenhou.net/6 -> mjai: the win details the mjai record
    lacks come from the engine, the rules travel in the files."""
    original = selfplay(seed)
    rec = mjai_records(
        original.decode(), "self.jsonl", {"preset": "tenhou", "overrides": {"length": "tonpuu"}}
    )[0]
    base = [{k: v for k, v in line.items() if k != "source"} for line in verify_record(rec)]
    assert base and all(line.get("match") is True for line in base)
    for fmt in ("mjlog", "tenhou6"):
        data = write_records([rec], fmt)
        again = parse_records(data, "x")
        assert again[0].rules == rec.rules
        mjai = write_records(again, "mjai")
        assert replayed(mjai) == replayed(data) == base


#: 「大明槓された瞬間に四槓子の振り込みと見なされるルールもある」 (seed 000), the rules a record names
FOURTH_KAN_RULES = {"preset": "ron2", "overrides": {"suukantsu_pao_timing": "fourth_kan", "length": "tonpuu"}}


def fourth_kan_game(seed: int) -> list[str]:
    """mjai lines of a game whose hands end at a fourth kan (seat 1 is dealt three kans' tiles and
    draws three 6z from the dead wall; seat 2 holds the fourth), as the engine writes them: a hora."""
    from tenbou.rules import rules_from_request

    from .stacked import Stacked, play_stacked

    stacked = Stacked(seed, {1: "111122223333s5z", 2: "6z"}, rinshan="666z")
    table = play_stacked(rules_from_request(FOURTH_KAN_RULES), seed, stacked, riichi=False)
    lines = events_to_lines(table.events)
    lines[0] = json.dumps({**json.loads(lines[0]), "tenbou_rules": FOURTH_KAN_RULES})
    return lines


def as_daiminkan(lines: list[str]) -> list[str]:
    """The same game written the other way: each fourth kan as the daiminkan (no deltas, then)."""
    out = []
    for line in lines:
        obj = json.loads(line)
        if obj["type"] == "hora" and obj["actor"] != obj["target"] and obj["pai"] == "F":
            obj = {"type": "daiminkan", "actor": obj["actor"], "target": obj["target"], "pai": "F",
                   "consumed": ["F", "F", "F"]}  # fmt: skip
        out.append(json.dumps(obj))
    return out


@pytest.mark.parametrize("seed", [0, 3])
def test_a_fourth_kan_round_trips_as_a_hora(seed: int) -> None:
    lines = fourth_kan_game(seed)
    data = ("\n".join(lines) + "\n").encode()
    base = replayed(data)
    ends = [r for line in base for r in line["results"] if r.get("fourth_kan")]
    assert ends and all(line["match"] for line in base)
    assert all(r["pao"] == [{"yaku": "suukantsu", "seat": r["from"], "rule": "pao_yaku"}] for r in ends)
    for fmt in FORMATS:
        written = write_records(parse_records(data, "x.jsonl"), fmt)
        assert replayed(written) == base, fmt
    # written as the daiminkan, the record is read (its fourth kans unchecked: no deltas) and
    # converted to the hora, which every format holds
    kans = ("\n".join(as_daiminkan(lines)) + "\n").encode()
    assert kans != data
    read = replayed(kans)
    assert [line["results"] for line in read] == [line["results"] for line in base]
    assert all(line.get("unchecked") for line in read if any(r.get("fourth_kan") for r in line["results"]))
    mjai = write_records(parse_records(kans, "kans.jsonl"), "mjai")
    assert b'"type":"daiminkan","actor":1,"target":2,"pai":"F"' not in mjai
    assert replayed(mjai) == base
    for fmt in ("mjlog", "tenhou6"):
        assert replayed(write_records(parse_records(kans, "kans.jsonl"), fmt)) == base, fmt


def test_cli_replays_verifies_and_converts_a_fourth_kan(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "kans.jsonl"
    src.write_text("\n".join(as_daiminkan(fourth_kan_game(0))) + "\n")
    assert main(["replay", "--json", str(src)]) == 0
    hands = [json.loads(x) for x in capsys.readouterr().out.splitlines()][:-1]
    assert hands[0]["results"][0]["fourth_kan"] and hands[0]["deltas"] == [0, 32000, -32000, 0]
    assert main(["replay", str(src)]) == 0
    assert (
        "seat 1 fourth kan 2 32000 (suukantsu) pao:suukantsu@2; [+0 +32000 -32000 +0]"
        in capsys.readouterr().out
    )
    out = tmp_path / "kans.mjlog"
    assert main(["convert", str(src), "--to", "mjlog", "-o", str(out)]) == 0
    assert b'fromWho="2" paoWho="2"' in out.read_bytes()
    capsys.readouterr()
    assert main(["verify", "--json", str(out)]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert lines[0]["match"] and lines[0]["results"][0]["fourth_kan"]
    assert lines[-1]["summary"]["mismatched"] == 0


def test_several_games_need_mjai() -> None:
    games = parse_records(HAND, "a") + parse_records(HAND, "b")
    assert len(parse_records(write_records(games, "mjai"), "two.jsonl")) == 2
    with pytest.raises(LogFormatError, match="holds one game"):
        write_records(games, "mjlog")


def test_detect_refuses_other_files() -> None:
    with pytest.raises(LogFormatError, match=r"notes\.txt: not a game record"):
        detect_format(b"hello", "notes.txt")


def test_cli_convert(tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    src = tmp_path / "hand.xml"
    src.write_bytes(HAND)
    out = tmp_path / "hand.json"
    assert main(["convert", str(src), "--to", "tenhou6", "-o", str(out)]) == 0
    assert json.loads(out.read_text(encoding="utf-8"))["log"][0][0] == [2, 0, 0]
    assert main(["convert", str(out), "--to", "mjai"]) == 0
    lines = capsysbinary.readouterr().out.decode().splitlines()
    assert json.loads(lines[0])["type"] == "start_game" and json.loads(lines[-1])["type"] == "end_game"
    bad = tmp_path / "bad.txt"
    bad.write_text("not a record")
    assert main(["convert", str(bad), "--to", "mjai"]) == 2


def _corpus_files() -> list[Path]:
    dirs = [CORPUS / "mjlog", CORPUS / "tenhou6"]
    return sorted(p for d in dirs if d.is_dir() for p in d.rglob("*") if p.is_file())


def _round_trip(paths: list[Path]) -> tuple[int, list[str]]:
    checked = 0
    problems: list[str] = []
    for path in paths:
        games = [g for g in read_records(path) if g.skip is None and g.hands]
        if not games:
            continue
        base = replayed(write_records(games, "mjai"))
        for fmt in FORMATS:
            for game in games:
                data = write_records([game], fmt)
                want = [line for line in base if line["game"] == game.index]
                got = [{**line, "game": game.index} for line in replayed(data)]
                if got != want:
                    problems.append(f"{path} game {game.index} via {fmt}")
        checked += len(games)
    return checked, problems


def test_corpus_subset_round_trips() -> None:
    files = [p for p in _corpus_files() if "pao" in p.name or "doubleron" in p.name][:8]
    if not files:
        pytest.skip("no corpus")
    checked, problems = _round_trip(files)
    assert checked and not problems, problems


@pytest.mark.slow
def test_corpus_round_trips() -> None:
    """Every game of the corpus, written in each format and read back, replays as the original."""
    files = _corpus_files()
    if not files:
        pytest.skip("no corpus")
    checked, problems = _round_trip(files)
    print(
        f"files={len(files)} games={checked}, each written as {', '.join(FORMATS)}: problems={len(problems)}"
    )
    assert not problems, "\n".join(problems[:20])


@pytest.mark.parametrize("fmt", FORMATS)
def test_rules_tenbou_does_not_model_are_never_relabelled(
    tmp_path: Path, fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A chip room (GO 0x200) is refused, in every format: written under a preset it would say
    that its game was played under rules it was not played under."""
    from .test_io_tenhou import _draws

    chips = tmp_path / "chips.xml"
    chips.write_bytes(_draws("", "250,0,250,0,250,0,250,0").replace(b'type="169"', b'type="553"'))
    out = tmp_path / f"out.{fmt}"
    assert main(["convert", str(chips), "--to", fmt, "-o", str(out)]) == 2
    assert not out.exists()
    assert "chips.xml: game 0 is not converted: unmodelled rules" in capsys.readouterr().err
    with pytest.raises(LogFormatError, match="is not converted: unmodelled rules"):
        write_records(read_records(chips), fmt)


def test_cli_convert_per_kyoku(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from .alterations import enrich_mjai

    src = tmp_path / "self.jsonl"
    src.write_bytes(enrich_mjai(selfplay(7), rules={"preset": "tenhou", "overrides": {"length": "tonpuu"}}))
    out = tmp_path / "self.json"
    assert main(["convert", str(src), "--to", "tenhou6", "--per-kyoku", "-o", str(out)]) == 0
    objs = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert len(objs) > 1 and all(len(o["log"]) == 1 for o in objs) and "sc" in objs[-1]
    assert [line["deltas"] for line in replayed(out.read_bytes())] == [
        line["deltas"] for line in replayed(selfplay(7))
    ]
    assert main(["convert", str(src), "--to", "mjai", "--per-kyoku"]) == 2
    assert "--per-kyoku writes tenhou.net/6" in capsys.readouterr().err


def test_tenhou6_out_is_what_tenhou_writes() -> None:
    """Tenhou's own tenhou.net/6 JSON of six games (tenhou.net/5/mjlog2json, as the mjlog2json
    project stores it beside the mjlog): converting the mjlog gives the same rounds — sorted
    hands, takes and discards, the win entries with their value texts, yaku and pao seat — the
    same names, final points and results, and the same rule fields."""
    mjlogs = CORPUS / "mjlog" / "tsubakisakura__mjlog2json" / "data"
    jsons = CORPUS / "tenhou6" / "tsubakisakura__mjlog2json" / "data"
    if not mjlogs.is_dir() or not jsons.is_dir():
        pytest.skip("no corpus")
    pairs = [(p, jsons / (p.stem + ".json")) for p in sorted(mjlogs.glob("*.xml"))]
    assert len(pairs) == 6
    for xml, tenhou in pairs:
        ours = json.loads(write_records(read_records(xml), "tenhou6"))
        theirs = json.loads(tenhou.read_text(encoding="utf-8"))
        assert ours["log"] == theirs["log"], xml.name
        assert (ours["name"], ours["sc"]) == (theirs["name"], theirs["sc"]), xml.name
        assert {k: v for k, v in ours["rule"].items() if k in theirs["rule"]} == theirs["rule"], xml.name
