"""One or more hands per yaku, with the han it is worth, and the exclusions
between yaku (a yakuman replaces every other yaku; chinitsu is not honitsu...)."""

from __future__ import annotations

import pytest

from tenbou.core.yaku import YAKU, YAKU_BY_ID
from tenbou.errors import InvalidHandError
from tenbou.rules import LOCAL_YAKU, YAKUMAN_IDS

from .helpers import TENHOU, han_of, ids, sc

RON = {"winner": 1, "discarder": 2}  # seat 1 = South, non-dealer, East round
TSUMO = {"winner": 1}

P = "123m456p789s23s55s +4s"  # a plain pinfu shape

CASES = [
    # (hand, situation, expected {yaku: han})
    (P, {**RON, "riichi": True}, {"riichi": 1, "pinfu": 1}),
    (P, {**RON, "double_riichi": True}, {"double_riichi": 2, "pinfu": 1}),
    (P, {**RON, "riichi": True, "ippatsu": True}, {"riichi": 1, "ippatsu": 1, "pinfu": 1}),
    (P, TSUMO, {"menzen_tsumo": 1, "pinfu": 1}),
    ("234m456p678s23s55s +4s", RON, {"tanyao": 1, "pinfu": 1}),
    ("234m456p5s +5s chi:234s@0 pon:888m@3", RON, {"tanyao": 1}),
    ("112233m567p23s55s +4s", RON, {"iipeikou": 1, "pinfu": 1}),
    ("123m456p789s1112z +2z", RON, {"round_wind": 1}),
    (P, {**TSUMO, "haitei": True}, {"menzen_tsumo": 1, "pinfu": 1, "haitei": 1}),
    (P, {**RON, "houtei": True}, {"pinfu": 1, "houtei": 1}),
    (P, {**RON, "chankan": True}, {"pinfu": 1, "chankan": 1}),
    ("123m456p2345s +5s ankan:9999s", {**TSUMO, "rinshan": True}, {"menzen_tsumo": 1, "rinshan": 1}),
    ("123m123p123s789s5s +5s", RON, {"sanshoku": 2}),
    ("123m456p5s +5s chi:123s@0 chi:123p@0", RON, {"sanshoku": 1}),
    ("123456789m1235p +5p", RON, {"ittsu": 2}),
    ("123789m123p1z +1z pon:777z@3", RON, {"chanta": 1, "chun": 1}),
    ("123m789m123p789s1z +1z", {**RON, "riichi": True}, {"riichi": 1, "chanta": 2}),
    ("1133m5577p99s112z +2z", RON, {"chiitoitsu": 2}),
    ("2m +2m pon:444p@3 pon:666s@0 pon:999m@3 pon:333p@0", RON, {"toitoi": 2}),
    ("2m +2m pon:444p@3 pon:666s@0 pon:888m@3 pon:333p@0", RON, {"toitoi": 2, "tanyao": 1}),
    ("111m333p555s789s9p +9p", RON, {"sanankou": 2}),
    ("9p +9p kan:1111m@3 ankan:3333p kan:5055s@0 chi:789s@0", RON, {"sankantsu": 2, "aka_dora": 1}),
    ("111m111p111s789s9p +9p", RON, {"sanankou": 2, "sanshoku_doukou": 2, "junchan": 3}),
    ("12m555666z77z456p +3m", RON, {"haku": 1, "hatsu": 1, "shousangen": 2}),
    ("12m555666z77z789p +3m", RON, {"haku": 1, "hatsu": 1, "shousangen": 2, "chanta": 2}),
    ("11m999p11s +1s pon:111z@3 pon:999m@0", RON, {"toitoi": 2, "honroutou": 2, "round_wind": 1}),
    ("1199m1199p1199s1z +1z", RON, {"chiitoitsu": 2, "honroutou": 2}),
    ("112233m223344p5s +5s", RON, {"ryanpeikou": 3}),
    ("123789m123789p1s +1s", RON, {"junchan": 3}),
    ("123m789m1239s +9s pon:111p@3", RON, {"junchan": 2}),
    ("12345678m11z +9m pon:777z@3", RON, {"chun": 1, "ittsu": 1, "honitsu": 2}),
    ("12345678m55m333z +9m", {**RON, "riichi": True}, {"riichi": 1, "ittsu": 2, "honitsu": 3}),
    ("456m678m55m99m +9m chi:123m@0", RON, {"chinitsu": 5}),
]


@pytest.mark.parametrize(("hand", "situation", "expected"), CASES)
def test_yaku(hand: str, situation: dict[str, object], expected: dict[str, int]) -> None:
    assert han_of(sc(hand, **situation)) == expected  # type: ignore[arg-type]


YAKUMAN_CASES = [
    ("19m19p19s1234566z +7z", RON, ["kokushi"]),
    ("19m19p19s1234567z +9s", RON, ["kokushi_13"]),
    ("111m333p555s777s9p +9p", TSUMO, ["suuankou_tanki"]),
    ("111m333p555s77s99p +9p", TSUMO, ["suuankou"]),
    ("12m99s +3m pon:555z@3 pon:666z@0 pon:777z@3", RON, ["daisangen"]),
    ("12m44z +3m pon:111z@3 pon:222z@0 pon:333z@3", RON, ["shousuushii"]),
    ("5p +5p pon:111z@3 pon:222z@0 pon:333z@3 pon:444z@0", RON, ["daisuushii"]),
    ("1122334455667z +7z", RON, ["tsuuiisou"]),
    ("1m +1m pon:999m@3 pon:111p@0 pon:999p@3 pon:111s@0", RON, ["chinroutou"]),
    ("223344s666s88s66z +6z", RON, ["ryuuiisou"]),
    ("1112345678999m +5m", RON, ["junsei_chuuren"]),
    ("1112345678899m +9m", RON, ["chuuren"]),
    ("1m +1m kan:2222m@3 kan:3333p@0 ankan:4444s kan:5555z@3", RON, ["suukantsu"]),
    (P, {"winner": 0, "tenhou": True}, ["tenhou"]),
    (P, {"winner": 1, "chiihou": True}, ["chiihou"]),
]


@pytest.mark.parametrize(("hand", "situation", "expected"), YAKUMAN_CASES)
def test_yakuman(hand: str, situation: dict[str, object], expected: list[str]) -> None:
    hs = sc(hand, **situation)  # type: ignore[arg-type]
    assert ids(hs) == expected
    assert hs.han == 13 * len(expected) and hs.base_points == 8000 * len(expected)


def test_yakuman_replaces_every_other_yaku_and_dora() -> None:
    hs = sc("111m333p555s777s9p +9p", riichi=True, winner=1, dora_indicators="9m")
    assert ids(hs) == ["suuankou_tanki"] and hs.han == 13


def test_composite_yakuman_stack_or_not() -> None:
    hand = "1z +1z pon:555z@3 pon:666z@0 pon:777z@3 pon:222z@0"
    hs = sc(hand, winner=1, discarder=3)
    assert ids(hs) == ["daisangen", "tsuuiisou"] and hs.yakuman == 2 and hs.base_points == 16000
    single = sc(hand, TENHOU.replace(yakuman_stacking=False), winner=1, discarder=3)
    assert single.yakuman == 1 and single.base_points == 8000


def test_double_yakuman_by_rule() -> None:
    rules = TENHOU.replace(double_yakuman=frozenset({"kokushi_13", "suuankou_tanki", "daisuushii"}))
    hs = sc("1m9m1p9p1s9s1234567z +9s", rules, **RON)
    assert [(y.id, y.yakuman, y.han) for y in hs.yaku] == [("kokushi_13", 2, 26)] and hs.base_points == 16000
    assert sc("1m9m1p9p1s9s1234567z +9s", **RON).yakuman == 1  # Tenhou: single


def test_yakuman_cap() -> None:
    rules = TENHOU.replace(double_yakuman=frozenset({"daisuushii"}), yakuman_cap=2)
    hs = sc("5z +5z pon:111z@3 pon:222z@0 pon:333z@3 pon:444z@0", rules, **RON)
    assert ids(hs) == ["daisuushii", "tsuuiisou"] and hs.yakuman == 2


def test_open_tanyao_by_rule() -> None:
    hand = "234m456p5s +5s chi:234s@0 pon:888m@3"
    assert ids(sc(hand, **RON)) == ["tanyao"]
    with pytest.raises(InvalidHandError) as e:
        sc(hand, TENHOU.replace(open_tanyao=False), **RON)
    assert e.value.code == "no_yaku"


def test_chinitsu_is_not_honitsu_and_junchan_is_not_chanta() -> None:
    h = han_of(sc("1112223456789m +9m", **RON))
    assert "chinitsu" in h and "honitsu" not in h
    h = han_of(sc("123789m123789p1s +1s", **RON))
    assert "junchan" in h and "chanta" not in h


def test_ryanpeikou_is_not_iipeikou_nor_chiitoitsu() -> None:
    assert ids(sc("112233m223344p5s +5s", **RON)) == ["ryanpeikou"]


def test_local_yaku_only_when_played() -> None:
    with_local = TENHOU.replace(local_yaku=frozenset(LOCAL_YAKU))
    assert ids(sc("111222333444m5m +5m", with_local, **TSUMO)) == ["suuankou_tanki", "suurenkou"]
    assert ids(sc("111222333444m5m +5m", **TSUMO)) == ["suuankou_tanki"]


def test_suurenkou_open() -> None:
    rules = TENHOU.replace(local_yaku=frozenset({"suurenkou"}))
    hand = "5p +5p pon:333s@3 pon:444s@0 pon:555s@3 pon:666s@0"
    assert ids(sc(hand, rules, **RON)) == ["suurenkou"]
    assert "suurenkou" not in ids(sc(hand, **RON))


def test_isshoku_yonjun_open() -> None:
    rules = TENHOU.replace(local_yaku=frozenset({"isshoku_yonjun"}))
    hand = "5p +5p chi:345s@0 chi:345s@0 chi:345s@0 chi:340s@0"
    assert ids(sc(hand, rules, **RON)) == ["isshoku_yonjun"]
    assert ids(sc(hand, **RON)) == ["tanyao", "aka_dora"]


@pytest.mark.parametrize("mode", ["mangan", "baiman", "yakuman"])
def test_renhou_by_rule(mode: str) -> None:
    rules = TENHOU.replace(renhou=mode)
    hs = sc(P, rules, winner=1, discarder=0, renhou=True)
    expected = {"mangan": 2000, "baiman": 4000, "yakuman": 8000}[mode]
    assert hs.base_points == expected
    assert ids(hs) == (["renhou_yakuman"] if mode == "yakuman" else ["renhou"])
    # Tenhou has no renhou: the same hand is an ordinary pinfu.
    assert ids(sc(P, winner=1, discarder=0, renhou=True)) == ["pinfu"]


def test_renhou_mangan_gives_way_to_a_better_hand() -> None:
    rules = TENHOU.replace(renhou="mangan")
    hs = sc("2233445566778m +8m", rules, winner=1, discarder=0, renhou=True)
    assert "chinitsu" in ids(hs) and "renhou" not in ids(hs) and hs.han >= 6


def test_every_yaku_record_is_complete() -> None:
    assert len({y.id for y in YAKU}) == len(YAKU)
    assert {y.id for y in YAKU if y.yakuman} == set(YAKUMAN_IDS)
    for y in YAKU:
        assert y.name and y.name_ja and y.han_closed > 0
        assert y.han_open is None or y.han_open <= y.han_closed
    assert YAKU_BY_ID["dora"].tenhou_id == 52
