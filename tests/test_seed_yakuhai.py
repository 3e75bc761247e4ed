"""Every example of the 役牌 (yakuhai) seed, by name.

Seats: dealer 0 unless said; a seat's wind is (seat - dealer) mod 4.
"""

from __future__ import annotations

import pytest

from tenbou.core.scoring import FuItem, Limit
from tenbou.settle.payment import deltas, win_payments

from .helpers import TENHOU, han_of, ids, sc


# 概要: dragons always; seat and round wind when they match; each set counts one han.
@pytest.mark.parametrize(("dragon", "yaku"), [("5z", "haku"), ("6z", "hatsu"), ("7z", "chun")])
def test_each_dragon_set_is_one_han(dragon: str, yaku: str) -> None:
    hs = sc(f"123m456p78s55s +9s pon:{dragon * 3}@3", winner=1, discarder=3)
    assert han_of(hs) == {yaku: 1}


# (例)門前のケース: East is a value tile only in the East round or for the East seat; both -> 2 han.
def test_closed_east_triplet_round_and_seat() -> None:
    hand = "123m456p789s1z1z1z5s +5s"
    # East round, seat South (winner 1, dealer 0): round wind only.
    assert han_of(sc(hand, winner=1, discarder=2, round_wind="E")) == {"round_wind": 1}
    # South round, seat East (the dealer): seat wind only.
    assert han_of(sc(hand, winner=0, discarder=2, round_wind="S")) == {"seat_wind": 1}
    # East round, East seat: ダブ東, counted as two entries, 2 han.
    assert han_of(sc(hand, winner=0, discarder=2, round_wind="E")) == {"seat_wind": 1, "round_wind": 1}


def test_guest_wind_is_no_yaku() -> None:
    # South round, seat West: East is a guest wind (オタ風) - no yaku, so no win.
    from tenbou.errors import InvalidHandError

    with pytest.raises(InvalidHandError) as e:
        sc("123m456p789s1z1z1z5s +5s", winner=2, dealer=0, discarder=1, round_wind="S")
    assert e.value.code == "no_yaku"


def test_double_south_in_the_south_round() -> None:
    # ダブ南: the South seat in the South round.
    hs = sc("123m456p789s2z2z2z5s +5s", winner=1, dealer=0, discarder=2, round_wind="S")
    assert han_of(hs) == {"seat_wind": 1, "round_wind": 1}


# (例)副露したケース: the dragon may be called, or concealed beside other calls.
def test_called_dragon_and_concealed_dragon_with_other_calls() -> None:
    called = sc("234m55p78s +9s pon:777z@2 chi:456p@0", winner=1, discarder=2)
    concealed = sc("777z55p78s +9s chi:234m@0 chi:456p@0", winner=1, discarder=2)
    assert han_of(called) == {"chun": 1} == han_of(concealed)


# (例)役牌が槓子になっているケース (西家): ankan 60 fu tsumo, 70 fu ron; minkan 40 fu both.
def test_dragon_ankan_fu() -> None:
    hand = "234m678p5578s +9s ankan:7777z"
    tsumo, ron = sc(hand, winner=2), sc(hand, winner=2, discarder=1)
    assert (tsumo.fu, ron.fu) == (60, 70)
    assert FuItem("closed_honor_kan", 32) in tsumo.fu_breakdown
    assert han_of(tsumo) == {"menzen_tsumo": 1, "chun": 1}


def test_dragon_minkan_fu() -> None:
    hand = "234m678p5578s +9s kan:7777z@1"
    assert (sc(hand, winner=2).fu, sc(hand, winner=2, discarder=1).fu) == (40, 40)


# (例)役牌が槓子になっていなくても符ハネするケース (南場北家)
def test_shanpon_of_two_value_tiles_32_fu_rounds_to_40() -> None:
    # 20 + closed honour triplet 8 + value pair 2 + tsumo 2 = 32 -> 40 fu;
    # menzen tsumo + the triplet's yakuhai = 2 han.
    for win in ("7z", "2z"):
        hs = sc(f"123m456p789s2277z +{win}", winner=3, dealer=0, round_wind="S")
        assert (hs.han, hs.fu) == (2, 40)
        assert sum(i.fu for i in hs.fu_breakdown) == 32
        assert {i.reason for i in hs.fu_breakdown} >= {"base", "tsumo", "closed_honor_pon"}


def test_tanki_on_round_wind_with_seat_wind_and_guest_wind_pons() -> None:
    # 20 + open honour pon 4 x 2 + value pair 2 + tanki 2 = 32 -> 40 fu, 1 han (seat wind North only).
    for discarder in (None, 1):
        hs = sc(
            "123m456p2z +2z pon:444z@2 pon:333z@1", winner=3, dealer=0, discarder=discarder, round_wind="S"
        )
        assert (hs.han, hs.fu) == (1, 40), discarder
        assert ids(hs) == ["seat_wind"]


# (例)役牌同士の複合: East round; round wind + chun = 2 han; for the dealer ダブ東 + chun = 3 han.
def test_yakuhai_combine() -> None:
    hand = "123m456p1z1z1z7z7z7z5s +5s"
    assert sum(han_of(sc(hand, winner=1, discarder=2)).values()) == 2
    assert sum(han_of(sc(hand, winner=0, discarder=2)).values()) == 3


# (例)役牌同士は最大で4翻まで
def test_double_east_hatsu_chun_pons_are_4_han_and_mangan_by_fu() -> None:
    hs = sc("23m55p +4m pon:111z@1 pon:666z@2 pon:777z@3", winner=0, dealer=0, discarder=2)
    assert han_of(hs) == {"seat_wind": 1, "round_wind": 1, "hatsu": 1, "chun": 1}
    assert hs.fu == 40 and sum(i.fu for i in hs.fu_breakdown) == 32  # 12 fu from three pons
    assert hs.limit is Limit.MANGAN and hs.base_points == 2000
    assert deltas(win_payments(hs), 4) == [12000, 0, -12000, 0]


def test_four_value_triplets_bring_honitsu_and_toitoi() -> None:
    # East round, South seat: East (round) + South (seat) + hatsu + chun + tanki on a number pair.
    hs = sc("5p +5p pon:111z@0 pon:222z@2 pon:666z@3 pon:777z@0", winner=1, dealer=0, discarder=3)
    assert han_of(hs) == {
        "hatsu": 1,
        "chun": 1,
        "seat_wind": 1,
        "round_wind": 1,
        "toitoi": 2,
        "honitsu": 2,
    }
    assert hs.han == 8 and hs.limit is Limit.BAIMAN


def test_five_yakuhai_only_with_north_as_a_value_tile_in_three_player() -> None:
    rules = TENHOU.replace(north_yakuhai=True)
    hs = sc(
        "5p +5p pon:111z@1 pon:444z@2 pon:666z@1 pon:777z@2",
        rules,
        players=3,
        winner=0,
        dealer=0,
        discarder=1,
    )
    assert han_of(hs)["north_yakuhai"] == 1
    assert (
        sum(
            v
            for k, v in han_of(hs).items()
            if k in {"seat_wind", "round_wind", "hatsu", "chun", "north_yakuhai"}
        )
        == 5
    )
    plain = sc(
        "5p +5p pon:111z@1 pon:444z@2 pon:666z@1 pon:777z@2", players=3, winner=0, dealer=0, discarder=1
    )
    assert "north_yakuhai" not in han_of(plain)


# 符計算 table: double-wind pair 2 or 4 fu; other value pair 2; non-value pair 0.
@pytest.mark.parametrize(("fu_rule", "fu"), [(2, 2), (4, 4)])
def test_double_wind_pair_fu(fu_rule: int, fu: int) -> None:
    rules = TENHOU.replace(double_wind_pair_fu=fu_rule)
    hs = sc("123m456p789s345s1z +1z", rules, winner=0, discarder=1, riichi=True)
    assert FuItem("double_wind_pair", fu) in hs.fu_breakdown


def test_value_pair_kills_pinfu() -> None:
    # 平和 shape with a dragon pair: no pinfu (and 2 fu for the pair).
    hs = sc("123m456p234s78s77z +9s", winner=1, discarder=2, riichi=True)
    assert "pinfu" not in ids(hs)
    assert FuItem("dragon_pair", 2) in hs.fu_breakdown
    plain = sc("123m456p234s78s11s +9s", winner=1, discarder=2, riichi=True)
    assert "pinfu" in ids(plain)


# (例)ドラの役牌を刻子・槓子にしたケース
def test_dora_round_wind_pon_is_four_han() -> None:
    # East round, dora indicator North -> East is dora: pon of East = round wind 1 + dora 3.
    hs = sc("234m456p678s5s +5s pon:111z@0", winner=1, dealer=0, discarder=0, dora_indicators="4z")
    assert han_of(hs) == {"round_wind": 1, "dora": 3} and hs.han == 4


def test_dora_double_south_ankan_is_haneman() -> None:
    # South round, South seat, indicator East -> South is dora: ankan = double wind 2 + dora 4 = 6 han.
    hs = sc(
        "234m456p67s55s +8s ankan:2222z",
        winner=1,
        dealer=0,
        discarder=3,
        round_wind="S",
        dora_indicators="1z",
    )
    assert han_of(hs) == {"seat_wind": 1, "round_wind": 1, "dora": 4}
    assert hs.limit is Limit.HANEMAN
