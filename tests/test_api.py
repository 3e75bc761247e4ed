"""The JSON façade: the documented example, field validation, error objects."""

from __future__ import annotations

import copy
import gc
import re
from typing import Any

import pytest

from tenbou.api import score, settle
from tenbou.errors import InvalidHandError, NotationError, RequestError, RuleError, TenbouError

DAISANGEN: dict[str, Any] = {
    "rules": "tenhou",
    "players": 4,
    "dealer": 0,
    "round_wind": "E",
    "winner": 1,
    "from": 3,
    "hand": "23m55p",
    "melds": [
        {"type": "pon", "tiles": "555z", "from": 2},
        {"type": "pon", "tiles": "666z", "from": 0},
        {"type": "pon", "tiles": "777z", "from": 3},
    ],
    "win_tile": "4m",
    "riichi": False, "double_riichi": False, "ippatsu": False,
    "rinshan": False, "chankan": False, "haitei": False, "houtei": False,
    "tenhou": False, "chiihou": False, "renhou": False,
    "dora_indicators": ["1p"], "ura_indicators": [], "kita": 0,
    "honba": 0, "riichi_sticks": 0,
}  # fmt: skip


def test_documented_example_hand_fields() -> None:
    out = score(DAISANGEN)
    assert out["han"] == 13 and out["fu"] == 40 and out["limit"] == "yakuman" and out["base_points"] == 8000
    assert out["yaku"] == [
        {"id": "daisangen", "name": "Daisangen", "name_ja": "大三元", "han": 13, "yakuman": 1}
    ]
    assert out["fu_breakdown"] == [
        {"reason": "base", "fu": 20},
        {"reason": "open_honor_pon", "fu": 4},
        {"reason": "open_honor_pon", "fu": 4},
        {"reason": "open_honor_pon", "fu": 4},
    ]
    assert sum(out["deltas"]) == 0 and out["deltas"][1] == 32000


def test_defaults() -> None:
    out = score({"winner": 1, "from": 2, "hand": "123m456p789s23s55s", "win_tile": "4s"})
    assert [y["id"] for y in out["yaku"]] == ["pinfu"] and out["deltas"] == [0, 1000, -1000, 0]


def test_indicators_are_a_list_not_a_string() -> None:
    req = {
        "winner": 1,
        "from": 2,
        "hand": "123m456p789s23s55s",
        "win_tile": "4s",
        "dora_indicators": ["3s", "2s"],
    }
    assert [y["han"] for y in score(req)["yaku"] if y["id"] == "dora"] == [2]
    for field in ("dora_indicators", "ura_indicators"):
        with pytest.raises(RequestError, match=f"{field}: expected a list of tiles"):
            score({**req, "riichi": True, field: "3s2s"})
        with pytest.raises(RequestError, match=f"{field}: expected a list of tiles"):
            score({**req, "riichi": True, field: "3s"})


def test_honba_sticks_payments() -> None:
    req = dict(DAISANGEN, honba=1, riichi_sticks=1)
    out = score(req)
    kinds = [(p["from"], p["to"], p["points"], p["kind"]) for p in out["payments"]]
    assert (None, 1, 1000, "riichi_sticks") in kinds and (3, 1, 300, "honba") in kinds
    assert sum(out["deltas"]) == 1000


@pytest.mark.parametrize(
    ("change", "error", "fragment"),
    [
        ({"hand": "23m5x"}, NotationError, "hand: unexpected character 'x'"),
        ({"hand": 235}, RequestError, "hand: expected tiles"),
        ({"win_tile": "45m"}, NotationError, "win_tile: expected one tile"),
        ({"melds": "555z"}, RequestError, "melds: expected a list"),
        ({"melds": [{"type": "pong", "tiles": "555z", "from": 2}]}, RequestError, "melds[0].type"),
        (
            {"melds": [{"type": "pon", "tiles": "556z", "from": 2}]},
            NotationError,
            "melds[0]: a pon needs three",
        ),
        ({"melds": [{"type": "pon", "tiles": "555z", "from": "2"}]}, RequestError, "melds[0].from"),
        ({"melds": [{"type": "pon", "tiles": "555z", "from": 2, "x": 1}]}, RequestError, "unknown field 'x'"),
        ({"riichi": "yes"}, RequestError, "riichi: expected true or false"),
        ({"round_wind": "East"}, RequestError, "round_wind"),
        ({"rules": "tenho"}, RuleError, "did you mean 'tenhou'"),
        ({"rules": {"preset": "tenhou", "overrides": {"kirage": True}}}, RuleError, "did you mean 'kiriage'"),
        (
            {"rules": {"preset": "tenhou", "overrides": {"kiriage": "yes"}}},
            RuleError,
            "must be true or false",
        ),
        ({"honba": -1}, RequestError, "honba: expected an integer 0..999, not -1"),
        ({"winner": None}, RequestError, "winner: missing"),
        ({"from": 1}, InvalidHandError, "from=1 is the winner's own seat"),
        ({"dora_indicators": ["1p", "8z"]}, NotationError, "dora_indicators[1]"),
        ({"colour": "red"}, RequestError, "unknown field 'colour'"),
    ],
)
def test_bad_requests_name_the_field(change: dict[str, Any], error: type[TenbouError], fragment: str) -> None:
    req = copy.deepcopy(DAISANGEN)
    req.update(change)
    with pytest.raises(error) as e:
        score(req)
    assert fragment in str(e.value)
    assert e.value.to_dict()["error"]["code"] == e.value.code


def test_request_must_be_an_object() -> None:
    with pytest.raises(RequestError):
        score([1, 2])  # type: ignore[arg-type]


def test_missing_hand() -> None:
    req = {"winner": 1, "win_tile": "4s"}
    with pytest.raises(RequestError, match="hand: missing"):
        score(req)


def test_flag_order_matches_situation_fields() -> None:
    from tenbou.api.request import _FLAGS
    from tenbou.core.hand import Situation

    flags = tuple(f for f in Situation._fields if type(getattr(Situation(), f)) is bool)
    assert flags == _FLAGS


def test_field_sets_match_the_field_list() -> None:
    from tenbou.api import request as api

    assert len(api._FIELDS) == len(set(api._FIELDS)) == len(api._SCORE_KEYS)
    assert api._SCORE_KEYS == set(api._FIELDS) == api._WIN_KEYS | {"honba", "riichi_sticks", "wareme"}
    assert set(api._FLAGS) < api._WIN_KEYS


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("melds", "pon:555z@2", "melds: expected a list"),
        ("melds", {}, "melds: expected a list"),
        ("kita", None, "kita: missing"),
        ("honba", -1, "honba: expected an integer 0..999, not -1"),
        ("riichi_sticks", True, "riichi_sticks: expected an integer"),
        ("tenhou", 1, "tenhou: expected true or false, not 1"),
        ("round_wind", None, "round_wind: None is not one of"),
        ("wareme", 7, "wareme: expected a seat 0..3"),
    ],
)
def test_bad_field_values_name_the_field(field: str, value: object, message: str) -> None:
    req = {"winner": 1, "from": 0, "hand": "234m456678p5578s", "win_tile": "9s", "riichi": True, field: value}
    with pytest.raises(RequestError, match=message):
        score(req)


def test_a_table_field_is_unknown_in_a_win_of_settle() -> None:
    from tenbou.api import parse_win_request

    win = {"winner": 1, "from": 0, "hand": "234m456678p5578s", "win_tile": "9s", "riichi": True}
    assert parse_win_request(win)[1].winner == 1
    with pytest.raises(RequestError, match="unknown field 'honba'"):
        parse_win_request({**win, "honba": 1})


def test_riichi_sticks_worth_nothing_are_still_listed() -> None:
    out = score(
        {"rules": {"preset": "tenhou", "overrides": {"riichi_stick_points": 0}}, "winner": 1, "from": 0,
         "hand": "234m456678p5578s", "win_tile": "9s", "riichi": True, "riichi_sticks": 2}
    )  # fmt: skip
    assert out["payments"][-1] == {"from": None, "to": 1, "points": 0, "kind": "riichi_sticks"}


def test_a_wareme_error_comes_after_the_hand_is_judged() -> None:
    req = {"winner": 1, "from": 2, "hand": "123m456p789s23s55s", "win_tile": "4s", "players": 0, "wareme": 2}
    with pytest.raises(TenbouError, match="players: these rules are played by 4 or 3 players, not 0"):
        score(req)


# -- numbers: each in its documented range (docs/json-api.md, "Numbers") -----------------------------------

PINFU_RON = {"winner": 1, "from": 0, "hand": "234m456678p5578s", "win_tile": "9s", "riichi": True}


@pytest.mark.parametrize(
    ("field", "low", "high"), [("honba", 0, 999), ("riichi_sticks", 0, 999), ("kita", 0, 4)]
)
def test_a_count_has_a_range(field: str, low: int, high: int) -> None:
    sanma = {"rules": "tenhou", "players": 3, "winner": 1, "hand": "111m123p789s23s55s", "win_tile": "4s"}
    base = sanma if field == "kita" else PINFU_RON
    assert score({**base, field: high})["deltas"]
    for bad in (low - 1, high + 1, 10**30, -(10**9)):
        with pytest.raises(RequestError, match=f"{field}: expected an integer {low}\\.\\.{high}, not "):
            score({**base, field: bad})
    if field != "kita":
        with pytest.raises(RequestError, match=f"{field}: expected an integer 0\\.\\.999, not "):
            settle({field: 10**9, "draw": {"kind": "abortive"}})


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"winner": 4}, "winner: expected a seat 0..3, not 4"),
        ({"winner": -1}, "winner: expected a seat 0..3, not -1"),
        ({"winner": 10**5000}, "winner: expected a seat 0..3, not <an integer of 5001 digits>"),
        ({"dealer": 4}, "dealer: expected a seat 0..3, not 4"),
        ({"from": 7}, "from: expected the discarder's seat 0..3 or null for a tsumo, not 7"),
        ({"players": 5}, "players: these rules are played by 4 or 3 players, not 5"),
        ({"players": 3, "winner": 3}, "winner: expected a seat 0..2, not 3"),
        ({"melds": [{"type": "ankan", "tiles": "1111z"}] * 5}, "melds: at most 4 melds, not 5"),
    ],
)
def test_seats_and_players_are_in_range(change: dict[str, Any], message: str) -> None:
    with pytest.raises(RequestError) as e:
        score({**PINFU_RON, **change})
    assert str(e.value) == message


def test_explicit_pao_names_each_yakuman_once() -> None:
    with pytest.raises(RequestError, match=re.escape("pao[1].yaku: 'daisangen' is named twice")):
        score({**DAISANGEN, "pao": [{"yaku": "daisangen", "seat": 3}, {"yaku": "daisangen", "seat": 2}]})
    with pytest.raises(RequestError, match=re.escape("pao[1].yaku: 'daisangen' is named twice")):
        score({**DAISANGEN, "pao": [{"yaku": "daisangen", "seat": 3}] * 2})
    with pytest.raises(RequestError, match=re.escape("pao[0].yaku: ['daisangen'] is not a yakuman")):
        score({**DAISANGEN, "pao": [{"yaku": ["daisangen"], "seat": 3}]})
    assert score({**DAISANGEN, "pao": [{"yaku": "daisangen", "seat": 2}]})["pao"][0]["seat"] == 2


def test_wareme_only_under_rules_with_wareme() -> None:
    with pytest.raises(RequestError, match=re.escape("wareme: these rules play without wareme")):
        score({**PINFU_RON, "wareme": 2})
    with pytest.raises(RequestError, match=re.escape("wareme: these rules play without wareme")):
        settle({"wareme": 2, "wins": [PINFU_RON]})
    assert score({**PINFU_RON, "rules": "hangame4", "wareme": 2})["deltas"]
    assert score({**PINFU_RON, "wareme": None})["deltas"]  # null: no wareme seat


def test_settle_refuses_too_many_wins_and_a_win_that_disagrees() -> None:
    ron = {k: v for k, v in PINFU_RON.items() if k != "winner"}
    with pytest.raises(RequestError, match=re.escape("wins: at most 3 wins ") + ".*" + re.escape(", not 4")):
        settle({"wins": [{**ron, "winner": w} for w in (1, 2, 3, 1)]})
    with pytest.raises(RequestError, match=re.escape("wins: at most 2 wins")):
        settle({"players": 3, "wins": [{**ron, "winner": w} for w in (1, 2, 1)]})
    # a win's rules, players, dealer or round wind must be the request's (or its default)
    with pytest.raises(
        RequestError, match=re.escape("wins[0].rules: 'mleague' differs from the request's 'tenhou'")
    ):
        settle({"wins": [{**PINFU_RON, "rules": "mleague"}]})
    with pytest.raises(RequestError, match=re.escape("wins[0].dealer: False differs from the request's 0")):
        settle({"dealer": 0, "wins": [{**PINFU_RON, "dealer": False}]})
    with pytest.raises(
        RequestError, match=re.escape("wins[0].round_wind: 'S' differs from the request's 'E' (its default")
    ):
        settle({"wins": [{**PINFU_RON, "round_wind": "S"}]})
    same = settle({"rules": "tenhou", "dealer": 0, "wins": [{**PINFU_RON, "rules": "tenhou", "dealer": 0}]})
    assert same == settle({"wins": [PINFU_RON]})


def test_a_draw_reason_is_an_abortive_draw() -> None:
    with pytest.raises(RequestError, match=re.escape("draw.reason: 'sleepy' is not one of kyuushu_kyuuhai")):
        settle({"draw": {"kind": "abortive", "reason": "sleepy"}})
    with pytest.raises(RequestError, match=re.escape("draw.reason: only an abortive draw has a reason")):
        settle({"draw": {"kind": "exhaustive", "reason": "kyuushu_kyuuhai"}})
    assert settle({"draw": {"kind": "abortive", "reason": "sanchahou"}})["reason"] == "sanchahou"


def test_messages_stay_short_whatever_the_input() -> None:
    deep: Any = []
    for _ in range(100_000):
        deep = [deep]
    for change in ({"hand": deep}, {"colour" * 10_000: 1}, {"round_wind": "E" * 10**6}, {"melds": [deep]}):
        with pytest.raises(TenbouError) as e:
            score({**PINFU_RON, **change})
        assert len(str(e.value)) < 300


def test_a_refused_hand_gives_score_hand_s_error_and_leaves_no_cycle() -> None:
    # api.score raises the refusal itself (scored_or_refused): the same code and message as
    # score_hand's, and the error is not held by its own traceback (no garbage left for the collector)
    from tenbou.api import parse_win_request
    from tenbou.core.scoring import score_hand

    from .handgen import generate

    refused = 0
    gc.collect()
    gc.disable()
    try:
        for req in generate(7, 400):
            try:
                score(req)
                continue
            except InvalidHandError as e:
                got = (e.code, str(e))
            refused += 1
            with pytest.raises(InvalidHandError) as raised:
                score_hand(*parse_win_request({k: v for k, v in req.items() if k not in _TABLE_KEYS}))
            assert (raised.value.code, str(raised.value)) == got
            del raised
        assert gc.collect() == 0
    finally:
        gc.enable()
    assert refused >= 20  # (the generator's hands without yaku and not winning are among them)


_TABLE_KEYS = ("honba", "riichi_sticks")  # settlement fields, not the hand's
