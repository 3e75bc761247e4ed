"""Settlement: multiple ron, draws, nagashi, next dealer, wareme, chips, errors,
and conservation of points over random settlements."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tenbou.api import settle
from tenbou.errors import InvalidHandError, RequestError, TenbouError

from .strategies import winning_hands

PINFU = {"hand": "123m456p789s23s55s", "win_tile": "4s", "riichi": True}  # riichi pinfu: 2000 / 2900 dealer
TANYAO = {"hand": "234m456p678s23s55s", "win_tile": "4s"}  # tanyao pinfu: 2000


def ron(winner: int, discarder: int, hand: dict[str, Any] = PINFU) -> dict[str, Any]:
    return {"winner": winner, "from": discarder, **hand}


def req(rules: Any = "tenhou", **kw: Any) -> dict[str, Any]:
    return {"rules": rules, "dealer": 0, **kw}


# -- multiple ron --------------------------------------------------------------------------------


def test_double_ron_nearest_takes_honba_and_sticks() -> None:
    out = settle(req(honba=2, riichi_sticks=1, wins=[ron(1, 3), ron(2, 3)]))
    assert out["kind"] == "win"
    assert [r["winner"] for r in out["results"]] == [1, 2]  # seat 1 is first after the discarder 3
    assert out["results"][0]["deltas"] == [
        0,
        3600,
        0,
        -2600,
    ]  # 2000 + 600 from seat 3, the stick from the table
    assert out["results"][1]["deltas"] == [0, 0, 2000, -2000]
    assert out["deltas"] == [0, 3600, 2000, -4600] and sum(out["deltas"]) == 1000
    assert out["next"] == {"dealer": 1, "honba": 0, "riichi_sticks": 0}


def test_double_ron_with_the_dealer_keeps_the_deal() -> None:
    out = settle(req(honba=1, wins=[ron(0, 2), ron(1, 2)]))
    assert out["next"] == {"dealer": 0, "honba": 2, "riichi_sticks": 0}


def test_multiple_ron_honba_to_each_winner() -> None:
    rules = {"preset": "tenhou", "overrides": {"multiple_ron_honba": "each"}}
    out = settle(req(rules, honba=1, riichi_sticks=2, wins=[ron(1, 3), ron(2, 3)]))
    assert out["results"][0]["deltas"] == [0, 4300, 0, -2300]
    assert out["results"][1]["deltas"] == [0, 0, 2300, -2300]


def test_atamahane_pays_the_nearest_only() -> None:
    out = settle(req("mleague", honba=1, wins=[ron(2, 3), ron(1, 3)]))
    assert [r["winner"] for r in out["results"]] == [1]
    assert out["skipped"] == [{"winner": 2, "reason": "atamahane"}]
    assert out["deltas"] == [0, 2300, 0, -2300]


def test_triple_ron_aborts_under_double_and_is_paid_under_triple() -> None:
    wins = [ron(1, 0), ron(2, 0), ron(3, 0)]
    out = settle(req(honba=1, riichi_sticks=2, wins=wins))
    assert out["kind"] == "abortive_draw" and out["reason"] == "sanchahou" and out["deltas"] == [0, 0, 0, 0]
    assert out["next"] == {"dealer": 0, "honba": 2, "riichi_sticks": 2}
    out = settle(req("mahjongsoul", honba=1, riichi_sticks=2, wins=wins))
    assert out["kind"] == "win" and len(out["results"]) == 3
    assert out["deltas"] == [-6300, 4300, 2000, 2000]


def test_bad_multiple_wins() -> None:
    with pytest.raises(InvalidHandError, match="same discard"):
        settle(req(wins=[ron(1, 3), ron(2, 0)]))
    with pytest.raises(InvalidHandError, match="a tsumo cannot share"):
        settle(req(wins=[ron(1, 3), {"winner": 2, **PINFU}]))
    with pytest.raises(InvalidHandError, match="only once"):
        settle(req(wins=[ron(1, 3), ron(1, 3)]))


# -- draws ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tenpai", "deltas", "dealer_next"),
    [
        ([], [0, 0, 0, 0], 1),
        ([2], [-1000, -1000, 3000, -1000], 1),
        ([0, 2], [1500, -1500, 1500, -1500], 0),
        ([0, 1, 3], [1000, 1000, -3000, 1000], 0),
        ([0, 1, 2, 3], [0, 0, 0, 0], 0),
    ],
)
def test_exhaustive_draw_noten_payments(tenpai: list[int], deltas: list[int], dealer_next: int) -> None:
    out = settle(req(honba=1, riichi_sticks=1, draw={"kind": "exhaustive", "tenpai": tenpai}))
    assert out["kind"] == "exhaustive_draw" and out["deltas"] == deltas
    assert out["next"] == {"dealer": dealer_next, "honba": 2, "riichi_sticks": 1}


def test_three_player_noten() -> None:
    out = settle(
        {"rules": "tenhou", "players": 3, "dealer": 0, "draw": {"kind": "exhaustive", "tenpai": [1]}}
    )
    assert out["deltas"] == [-1000, 2000, -1000]


def test_agari_renchan_rules_pass_the_deal_on_a_draw() -> None:
    out = settle(req("kyougi101", draw={"kind": "exhaustive", "tenpai": [0]}))
    assert out["next"]["dealer"] == 1
    out = settle(req("kyougi101", draw={"kind": "abortive", "reason": "kyuushu_kyuuhai"}))
    assert out["next"]["dealer"] == 1


def test_abortive_draw() -> None:
    out = settle(req(honba=3, riichi_sticks=2, draw={"kind": "abortive", "reason": "suufon_renda"}))
    assert out == {
        "kind": "abortive_draw",
        "results": [],
        "payments": [],
        "deltas": [0, 0, 0, 0],
        "next": {"dealer": 0, "honba": 4, "riichi_sticks": 2},
        "reason": "suufon_renda",
    }


def test_nagashi_mangan_paid_as_a_tsumo_mangan() -> None:
    out = settle(req(honba=2, riichi_sticks=1, draw={"kind": "exhaustive", "tenpai": [0], "nagashi": [2]}))
    # Tenhou: instead of the tenpai payments; no honba; the stick stays; the dealer was tenpai and stays
    assert out["deltas"] == [-4000, -2000, 8000, -2000]
    assert out["next"] == {"dealer": 0, "honba": 3, "riichi_sticks": 1}
    out = settle(req(honba=0, draw={"kind": "exhaustive", "tenpai": [], "nagashi": [0]}))
    assert out["deltas"] == [12000, -4000, -4000, -4000]


def test_nagashi_counted_as_a_win() -> None:
    out = settle(req("sega_mj4", honba=1, riichi_sticks=1, draw={"kind": "exhaustive", "nagashi": [2]}))
    assert out["deltas"] == [-4100, -2100, 9300, -2100]
    assert out["next"]["riichi_sticks"] == 0


def test_no_nagashi_rules_refuse_it() -> None:
    with pytest.raises(RequestError, match="without nagashi"):
        settle(req("mleague", draw={"kind": "exhaustive", "nagashi": [2]}))


# -- wareme, chips -----------------------------------------------------------------------------


def test_wareme_doubles_payments_to_and_from_the_seat() -> None:
    out = settle(req("hangame4", wareme=3, wins=[ron(1, 3)]))
    assert out["deltas"] == [0, 4000, 0, -4000]
    out = settle(req("hangame4", wareme=2, wins=[ron(1, 3)]))
    assert out["deltas"] == [0, 2000, 0, -2000]
    tsumo = settle(req("hangame4", wareme=2, wins=[{"winner": 1, **PINFU}]))
    assert tsumo["deltas"][2] == 2 * tsumo["deltas"][3]


def test_chips_reported_apart() -> None:
    hand = {"hand": "123m406p789s23s55s", "win_tile": "4s", "riichi": True, "ippatsu": True}
    out = settle(req("hangame4", wins=[{"winner": 1, **hand}]))
    assert out["chips"] == [-2, 6, -2, -2]  # red five + ippatsu, from each player on a tsumo
    assert "chips" not in settle(req(wins=[{"winner": 1, **hand}]))


# -- request errors ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"wins": [], "draw": None}, "exactly one of"),
        ({"wins": []}, "non-empty list"),
        ({"draw": {"kind": "exhaustive"}, "wins": [ron(1, 3)]}, "exactly one of"),
        ({"draw": {"kind": "ryuukyoku"}}, "draw.kind"),
        ({"draw": {"kind": "exhaustive", "tenpai": [4]}}, "draw.tenpai[0]"),
        ({"draw": {"kind": "exhaustive", "tenpai": [1, 1]}}, "listed twice"),
        ({"draw": {"kind": "abortive", "tenpai": [1]}}, "no tenpai"),
        ({"draw": {"kind": "exhaustive", "extra": 1}}, "unknown field 'extra'"),
        ({"wins": [dict(ron(1, 3), honba=2)]}, "give it once"),
        ({"wins": [dict(ron(1, 3), dealer=2)]}, "differs"),
        ({"wins": [dict(ron(1, 3), hand="123m")]}, "wins[0]: hand"),
        ({"wins": [ron(1, 3)], "wareme": 7}, "wareme"),
        ({"wins": [ron(1, 3)], "colour": 1}, "unknown field 'colour'"),
        ({"wins": [ron(1, 3)], "players": 5}, "players"),
    ],
)
def test_bad_settle_requests(change: dict[str, Any], fragment: str) -> None:
    r = req(**{k: v for k, v in change.items() if v is not None})
    if change.get("draw", 1) is None:
        r["draw"] = {"kind": "abortive"}
    with pytest.raises(TenbouError) as e:
        settle(r)
    assert fragment in str(e.value)


def test_pao_request_field() -> None:
    hand = {"hand": "23m55p", "win_tile": "4m", "melds": [
        {"type": "pon", "tiles": "555z", "from": 2}, {"type": "pon", "tiles": "666z", "from": 0},
        {"type": "pon", "tiles": "777z", "from": 3}]}  # fmt: skip
    out = settle(req(wins=[{"winner": 1, **hand, "pao": [{"yaku": "daisangen", "seat": 2}]}]))
    assert out["results"][0]["pao"] == [{"yaku": "daisangen", "seat": 2, "rule": "explicit"}]
    assert out["deltas"] == [0, 32000, -32000, 0]
    out = settle(req(wins=[{"winner": 1, **hand, "pao": []}]))  # an empty list: no liability
    assert out["results"][0]["pao"] == [] and out["deltas"] == [-16000, 32000, -8000, -8000]
    for bad, fragment in (
        ([{"yaku": "tsuuiisou", "seat": 2}], "not a yakuman of this hand"),
        ([{"yaku": "daisangen", "seat": 1}], "cannot be liable"),
        ([{"yaku": "daisangen"}], "'yaku' and 'seat'"),
        ({"yaku": "daisangen", "seat": 2}, "expected a list"),
    ):
        with pytest.raises(RequestError, match=fragment):
            settle(req(wins=[{"winner": 1, **hand, "pao": bad}]))


# -- conservation --------------------------------------------------------------------------------


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(winning_hands(), min_size=1, max_size=3),
    st.integers(0, 5),
    st.integers(0, 4),
    st.sampled_from(["tenhou", "mahjongsoul", "hangame4", "ron2", "ema2016", "mleague", "sega_mj4"]),
)
def test_deltas_sum_to_minus_the_change_of_sticks(
    hands: list[Any], honba: int, sticks: int, preset: str
) -> None:
    discarder = hands[0][1].discarder
    wins = []
    for hand, s in hands:
        win = {
            "winner": s.winner,
            "from": discarder if len(hands) > 1 else s.discarder,
            **hand.request_fields(),
        }
        if s.riichi and hand.is_closed:
            win["riichi"] = True
        wins.append(win)
    request = {
        "rules": preset,
        "dealer": hands[0][1].dealer,
        "honba": honba,
        "riichi_sticks": sticks,
        "wins": wins,
    }
    try:
        out = settle(copy.deepcopy(request))
    except TenbouError:
        return
    left = out["next"]["riichi_sticks"]
    assert sum(out["deltas"]) == (sticks - left) * 1000
    for r in out["results"]:
        assert (
            sum(p["points"] for p in r["payments"] if p["from"] is not None)
            == sum(d for d in r["deltas"] if d < 0) * -1
        )
