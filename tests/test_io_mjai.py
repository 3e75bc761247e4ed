"""mjai JSON Lines records (tenbou.io.mjai): games, rules hints, hand ends, the writer."""

from __future__ import annotations

import json

import pytest

from tenbou.engine.events import EndGame, StartGame
from tenbou.errors import LogFormatError
from tenbou.io.mjai import mjai_records, write_mjai
from tenbou.io.read import parse_records
from tenbou.io.tenhou import mjlog_records
from tenbou.verify.convert import write_records
from tenbou.verify.run import verify_data
from tenbou.verify.summaries import summarize

from .test_convert import selfplay
from .test_io_tenhou import HAND


def test_rules_from_start_game() -> None:
    def rules(start: dict[str, object], default: object = "tenhou") -> object:
        text = json.dumps({"type": "start_game", **start}) + '\n{"type":"end_game"}'
        return mjai_records(text, "x", default)[0].rules  # type: ignore[arg-type]

    assert rules({}) == "tenhou"
    assert rules({"aka_flag": True, "kyoku_first": 0}) == "tenhou"
    assert rules({"kyoku_first": 4}) == {"preset": "tenhou", "overrides": {"length": "tonpuu"}}
    assert rules({"aka_flag": False}, "mahjongsoul") == {
        "preset": "mahjongsoul",
        "overrides": {"red_fives": 0},
    }
    assert rules({"tenbou_rules": "mleague", "aka_flag": False}) == "mleague"


def test_games_and_hands() -> None:
    text = selfplay(7).decode() + selfplay(8).decode()
    games = mjai_records(text, "two.jsonl")
    assert len(games) == 2 and [g.index for g in games] == [0, 1]
    for g in games:
        assert isinstance(g.events[0], StartGame) and isinstance(g.events[-1], EndGame)
        assert len(g.hands) == len(g.starts) and all(h.deltas is not None for h in g.hands)


def test_hand_end_from_deltas() -> None:
    rec = mjlog_records(HAND, "hand.xml")[0]
    again = mjai_records(write_mjai([rec]).decode(), "hand.jsonl")[0]
    end = again.hands[0]
    assert end.kind == "win" and end.deltas == (0, 0, 8700, -7700)
    assert end.wins[0].winner == 2 and end.wins[0].yaku is None  # mjai does not say: the engine fills it in


def test_writer_start_game() -> None:
    rec = mjlog_records(HAND, "hand.xml")[0]
    lines = write_mjai([rec]).decode().splitlines()
    start = json.loads(lines[0])
    assert start == {
        "type": "start_game",
        "names": ["A", "B", "C", "D"],
        "kyoku_first": 0,
        "aka_flag": True,
        "tenbou_rules": "tenhou",
    }
    assert json.loads(lines[-1]) == {"type": "end_game"}


def test_errors_name_the_line() -> None:
    with pytest.raises(LogFormatError, match=r"x\.jsonl:2: not JSON"):
        mjai_records('{"type":"start_game"}\n{oops', "x.jsonl")
    with pytest.raises(LogFormatError, match=r"x\.jsonl:1: unknown mjai event type 'nope'"):
        mjai_records('{"type":"nope"}', "x.jsonl")
    with pytest.raises(LogFormatError, match="no mjai event"):
        mjai_records("\n", "x.jsonl")


def test_a_line_is_read_by_the_one_strict_json_reader() -> None:
    """A key given twice is refused (json.loads keeps the last silently: here a dahai by seat 0
    that the line also says is seat 3's), as are NaN and over-long integers, naming the line."""
    lines = selfplay(7).decode().splitlines()
    dahai = next(i for i, line in enumerate(lines) if '"type":"dahai"' in line)
    for bad, words in (
        (lines[dahai].replace('"actor":', '"actor":3,"actor":', 1), "the key 'actor' is given twice"),
        (lines[dahai].replace("}", ',"x":NaN}'), "NaN is not JSON"),
        (lines[dahai].replace("}", ',"x":' + "9" * 21 + "}"), "an integer of 21 digits"),
    ):
        text = "\n".join([*lines[:dahai], bad, *lines[dahai + 1 :]])
        with pytest.raises(LogFormatError, match=rf"^game\.jsonl:{dahai + 1}: .*{words}"):
            mjai_records(text, "game.jsonl")
        with pytest.raises(LogFormatError, match=words):
            parse_records(text.encode(), "game.jsonl")
    assert mjai_records('{"type":"start_game","names":["a","b","c","d"]}\n{"type":"end_game"}', "ok")


#: Mortal's libriichi ``Event`` (``libriichi/src/mjai/event.rs``): each type's fields, required or
#: optional, as (name, kind, required); kinds: seat, tile, tiles:N, ints:4, int, bool, names
_MORTAL: dict[str, tuple[tuple[str, str, bool], ...]] = {
    "start_game": (("names", "names", False),),
    "start_kyoku": (
        ("bakaze", "wind", True), ("dora_marker", "tile", True), ("kyoku", "kyoku", True),
        ("honba", "int", True), ("kyotaku", "int", True), ("oya", "seat", True), ("scores", "ints:4", True),
        ("tehais", "hands", True),
    ),
    "tsumo": (("actor", "seat", True), ("pai", "tile", True)),
    "dahai": (("actor", "seat", True), ("pai", "tile", True), ("tsumogiri", "bool", True)),
    **{
        call: (("actor", "seat", True), ("target", "seat", True), ("pai", "tile", True),
               ("consumed", f"tiles:{n}", True))
        for call, n in (("chi", 2), ("pon", 2), ("daiminkan", 3))
    },
    "kakan": (("actor", "seat", True), ("pai", "tile", True), ("consumed", "tiles:3", True)),
    "ankan": (("actor", "seat", True), ("consumed", "tiles:4", True)),
    "dora": (("dora_marker", "tile", True),),
    "reach": (("actor", "seat", True),),
    "reach_accepted": (("actor", "seat", True),),
    "hora": (("actor", "seat", True), ("target", "seat", True), ("deltas", "ints:4", False),
             ("ura_markers", "tiles", False)),
    "ryukyoku": (("deltas", "ints:4", False),),
    "end_kyoku": (),
    "end_game": (),
}  # fmt: skip
_MORTAL_TILES = {f"{n}{s}" for s in "mps" for n in range(1, 10)} | {"5mr", "5pr", "5sr"} | set("ESWNPFC")


def _mortal_problems(obj: dict[str, object]) -> list[str]:
    """What Mortal's deserializer would refuse in one event (it reads past fields it does not know)."""
    kind = obj.get("type")
    if kind not in _MORTAL:
        return [f"type {kind!r}"]
    out = []
    for name, what, required in _MORTAL[str(kind)]:
        if name not in obj:
            if required:
                out.append(f"{kind}: no {name}")
            continue
        v = obj[name]
        ok = {
            "seat": lambda v: type(v) is int and 0 <= v <= 3,
            "int": lambda v: type(v) is int and 0 <= v <= 255,
            "kyoku": lambda v: type(v) is int and 1 <= v <= 4,
            "bool": lambda v: type(v) is bool,
            "wind": lambda v: v in ("E", "S", "W", "N"),
            "tile": lambda v: v in _MORTAL_TILES,
            "tiles": lambda v: isinstance(v, list) and all(t in _MORTAL_TILES for t in v),
            "ints:4": lambda v: isinstance(v, list) and len(v) == 4 and all(type(x) is int for x in v),
            "names": lambda v: isinstance(v, list) and len(v) == 4 and all(isinstance(x, str) for x in v),
            "hands": lambda v: (
                isinstance(v, list)
                and len(v) == 4
                and all(
                    isinstance(h, list) and len(h) == 13 and all(t in _MORTAL_TILES for t in h) for h in v
                )
            ),
        }.get(what.split(":")[0] if what.startswith("tiles:") else what)
        if what.startswith("tiles:"):
            n = int(what.split(":")[1])
            good = isinstance(v, list) and len(v) == n and all(t in _MORTAL_TILES for t in v)
        else:
            assert ok is not None, what
            good = ok(v)
        if not good:
            out.append(f"{kind}.{name}: {v!r}")
    return out


def test_written_mjai_is_mortal_strict() -> None:
    """What tenbou writes is what Mortal reads: every event of Mortal's ``Event``, each required
    field there and of its type, in Mortal's names, whatever dialect the record was read from."""
    from .dialects import akochan_log, manue_log

    records = {
        "self-play": selfplay(7),
        "mjlog": HAND,
        "akochan": akochan_log(),
        "mjai server": manue_log(),
    }
    for name, data in records.items():
        games = parse_records(data, f"{name}.log")
        written = write_records(games, "mjai")
        lines = [json.loads(x) for x in written.decode().splitlines()]
        problems = [p for x in lines for p in _mortal_problems(x)]
        assert not problems, (name, problems[:5])
        text = written.decode()
        for dialect in ('"uradora_marker', '"kita"', '"fan"', '"hora_points"', "suchareach"):
            assert dialect not in text, (name, dialect)
        ends = [x for x in lines if x["type"] in ("hora", "ryukyoku")]
        assert ends and all("deltas" in x for x in ends), name  # akochan's scores alone: their changes
        back = summarize(verify_data(written, "back.jsonl")["lines"])["summary"]
        assert back["mismatched"] == 0 and back["matched"] == back["hands"], (name, back)


def test_the_liable_seat_is_written() -> None:
    from .dialects import pao_record

    written = write_records(parse_records(pao_record(), "pao.jsonl"), "mjai")
    hora = next(json.loads(x) for x in written.decode().splitlines() if '"hora"' in x)
    assert hora["pao"] == 3 and hora["deltas"] == [0, 32000, 0, -32000]


def test_the_mortal_check_refuses_what_mortal_refuses() -> None:
    assert _mortal_problems({"type": "kita", "actor": 0, "pai": "N"}) == ["type 'kita'"]
    assert _mortal_problems({"type": "dahai", "actor": 0, "pai": "1m"}) == ["dahai: no tsumogiri"]
    assert _mortal_problems({"type": "start_game", "names": []}) == ["start_game.names: []"]
    assert _mortal_problems({"type": "hora", "actor": 0, "target": 4}) == ["hora.target: 4"]
    assert _mortal_problems({"type": "pon", "actor": 0, "target": 1, "pai": "C", "consumed": ["C"]}) == [
        "pon.consumed: ['C']"
    ]
