"""mjai JSON Lines records (tenbou.io.mjai): games, rules hints, hand ends, the writer."""

from __future__ import annotations

import json

import pytest

from tenbou.errors import LogFormatError
from tenbou.events import EndGame, StartGame
from tenbou.io.mjai import mjai_records, write_mjai
from tenbou.io.tenhou import mjlog_records

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
