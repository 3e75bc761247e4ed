"""The JSON façade: the documented example, field validation, error objects."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tenbou.api import score
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


def test_indicators_as_a_string() -> None:
    req = {"winner": 1, "from": 2, "hand": "123m456p789s23s55s", "win_tile": "4s", "dora_indicators": "3s2s"}
    assert [y["han"] for y in score(req)["yaku"] if y["id"] == "dora"] == [2]


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
        ({"honba": -1}, RequestError, "honba: must not be negative"),
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
    from tenbou.api import _FLAGS
    from tenbou.hand import Situation

    assert Situation._fields[5 : 5 + len(_FLAGS)] == _FLAGS


def test_field_positions_match_the_field_list() -> None:
    from tenbou import api

    positions = {
        "rules": api._F_RULES, "players": api._F_PLAYERS, "dealer": api._F_DEALER,
        "round_wind": api._F_ROUND_WIND, "winner": api._F_WINNER, "from": api._F_FROM,
        "hand": api._F_HAND, "melds": api._F_MELDS, "win_tile": api._F_WIN_TILE,
        "dora_indicators": api._F_DORA, "ura_indicators": api._F_URA, "kita": api._F_KITA,
        "pao": api._F_PAO, "rinshan_kan_from": api._F_KAN_FROM, "riichi": api._F_FLAG0,
        "honba": api._F_HONBA, "riichi_sticks": api._F_STICKS, "wareme": api._F_WAREME,
    }  # fmt: skip
    assert {name: api._FIELDS.index(name) for name in positions} == positions
    assert api._FIELDS[api._F_FLAG0 : api._F_FLAG0 + len(api._FLAGS)] == api._FLAGS
    assert api._FIELDS[api._WIN_COUNT :] == ("honba", "riichi_sticks", "wareme")
    assert len(api._FIELDS) == api._SCORE_COUNT == len(set(api._FIELDS))


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("melds", "pon:555z@2", "melds: expected a list"),
        ("melds", {}, "melds: expected a list"),
        ("kita", None, "kita: missing"),
        ("honba", -1, "honba: must not be negative"),
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
    with pytest.raises(TenbouError, match="players=0"):
        score(req)
