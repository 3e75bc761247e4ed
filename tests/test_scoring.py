"""Fu with its breakdown, limits, the choice between readings, and the
refusal of impossible or contradictory hands."""

from __future__ import annotations

import contextlib

import pytest

from tenbou.core.scoring import Limit, base_points
from tenbou.core.yaku import Form, Wait
from tenbou.errors import InvalidHandError

from .helpers import TENHOU, ids, sc

RON = {"winner": 1, "discarder": 2}


def reasons(hs: object) -> list[tuple[str, int]]:
    return [(i.reason, i.fu) for i in hs.fu_breakdown]  # type: ignore[attr-defined]


def test_pinfu_tsumo_is_20_fu_without_tsumo_fu() -> None:
    hs = sc("123m456p789s23s55s +4s", winner=1)
    assert hs.fu == 20 and reasons(hs) == [("base", 20)]


def test_pinfu_ron_is_30() -> None:
    hs = sc("123m456p789s23s55s +4s", **RON)
    assert hs.fu == 30 and reasons(hs) == [("base", 20), ("menzen_ron", 10)]


def test_open_pinfu_shape_ron_is_30() -> None:
    hs = sc("234m456p23s55s +4s chi:678s@0", **RON)
    assert hs.fu == 30 and ("open_pinfu", 10) in reasons(hs) and ids(hs) == ["tanyao"]
    # on a tsumo the 2 fu of the tsumo already make 22 -> 30
    hs = sc("234m456p23s55s +4s chi:678s@0", winner=1)
    assert hs.fu == 30 and ("tsumo", 2) in reasons(hs) and ("open_pinfu", 10) not in reasons(hs)


def test_chiitoitsu_is_25() -> None:
    hs = sc("1133m5577p99s112z +2z", winner=1)
    assert (hs.fu, reasons(hs)) == (25, [("chiitoitsu", 25)])
    assert hs.reading.form is Form.CHIITOITSU


def test_kokushi_fu_is_not_counted() -> None:
    hs = sc("19m19p19s1234566z +7z", **RON)
    assert (hs.fu, hs.fu_breakdown) == (0, ())


@pytest.mark.parametrize(
    ("hand", "item"),
    [
        ("123m456p789s13s55s +2s", ("kanchan_wait", 2)),
        ("123m456p789s12s55s +3s", ("penchan_wait", 2)),
        ("123m456p789s123s5s +5s", ("tanki_wait", 2)),
        ("222m456p789s123s5s +5s", ("closed_simple_pon", 4)),
        ("111m456p789s123s5s +5s", ("closed_terminal_pon", 8)),
        ("5s +5s pon:222m@0 chi:456p@0 chi:789s@0 chi:123s@0", ("open_simple_pon", 2)),
        ("5s +5s pon:999p@0 chi:456p@0 chi:789s@0 chi:123s@0", ("open_terminal_pon", 4)),
        ("5s +5s kan:2222m@0 chi:456p@0 chi:789s@0 chi:123s@0", ("open_simple_kan", 8)),
        ("5s +5s kan:9999m@3 chi:456p@0 chi:789s@0 chi:123s@0", ("open_terminal_kan", 16)),
        ("456p789s123s5s +5s ankan:2222m", ("closed_simple_kan", 16)),
        ("456p789s123s5s +5s ankan:1111z", ("closed_honor_kan", 32)),
    ],
)
def test_fu_items(hand: str, item: tuple[str, int]) -> None:
    hs = sc(hand, **RON, houtei=True)  # houtei: a yaku that leaves the fu alone
    assert item in reasons(hs)


def test_ron_on_a_shanpon_makes_the_triplet_open() -> None:
    hs = sc("123m456p789s11s99p +1s", **RON, riichi=True)
    assert ("open_terminal_pon", 4) in reasons(hs) and ("closed_terminal_pon", 8) not in reasons(hs)
    tsumo = sc("123m456p789s11s99p +1s", winner=1, riichi=True)
    assert ("closed_terminal_pon", 8) in reasons(tsumo)


def test_reading_with_the_most_fu_is_chosen_when_han_tie() -> None:
    # 2344m + 4m: 234 + 44 tanki (2 fu) or 23+4 ryanmen with 44 pair; the triplet 111p rules out pinfu,
    # so both are riichi + tsumo, and the tanki reading's 32 fu -> 40 beats 30.
    hs = sc("111p456p2344m678s +4m", winner=1, riichi=True)
    assert ids(hs) == ["riichi", "menzen_tsumo"]
    assert hs.fu == 40 and hs.reading.wait is Wait.TANKI


def test_pinfu_preferred_over_a_fu_reading_when_worth_more() -> None:
    # 2344m + 4m read as ryanmen gives pinfu (2 han 30 fu) - better than the tanki (1 han 40 fu).
    hs = sc("123s456p789s2344m +4m", **RON, riichi=True)
    assert ids(hs) == ["riichi", "pinfu"] and hs.reading.wait is Wait.RYANMEN


def test_ties_prefer_more_han_then_more_fu() -> None:
    # 111222333m: three concealed triplets (sanankou) or three runs (iipeikou); with three dora and a red
    # five both readings are haneman, and the one with more han (7 against 6) is reported - as Tenhou does.
    hs = sc("111222333m406p5s +5s", **RON, riichi=True, dora_indicators="9m")
    assert hs.limit is Limit.HANEMAN and hs.han == 7 and "sanankou" in ids(hs)


def test_rinshan_tsumo_fu_by_rule() -> None:
    hand = "123m456p23s11s +4s ankan:9999p"
    assert ("tsumo", 2) in reasons(sc(hand, winner=1, rinshan=True))
    no_fu = TENHOU.replace(rinshan_tsumo_fu=False)
    assert ("tsumo", 2) not in reasons(sc(hand, no_fu, winner=1, rinshan=True))


@pytest.mark.parametrize(
    ("han", "fu", "base", "limit"),
    [
        (1, 30, 240, None),
        (2, 25, 400, None),
        (3, 30, 960, None),
        (3, 60, 1920, None),
        (3, 70, 2000, Limit.MANGAN),
        (4, 30, 1920, None),
        (4, 40, 2000, Limit.MANGAN),
        (5, 30, 2000, Limit.MANGAN),
        (6, 30, 3000, Limit.HANEMAN),
        (7, 30, 3000, Limit.HANEMAN),
        (8, 30, 4000, Limit.BAIMAN),
        (10, 30, 4000, Limit.BAIMAN),
        (11, 30, 6000, Limit.SANBAIMAN),
        (12, 30, 6000, Limit.SANBAIMAN),
        (13, 30, 8000, Limit.KAZOE_YAKUMAN),
        (26, 30, 8000, Limit.KAZOE_YAKUMAN),
        (1, 110, 880, None),
        (2, 110, 1760, None),
    ],
)
def test_base_points(han: int, fu: int, base: int, limit: Limit | None) -> None:
    assert base_points(han, fu, TENHOU) == (base, limit)


def test_kiriage_and_kazoe_by_rule() -> None:
    kiriage = TENHOU.replace(kiriage=True)
    assert base_points(4, 30, kiriage) == (2000, Limit.MANGAN)
    assert base_points(3, 60, kiriage) == (2000, Limit.MANGAN)
    assert base_points(13, 30, TENHOU.replace(kazoe="sanbaiman")) == (6000, Limit.SANBAIMAN)


#: riichi pinfu tanyao dora (4 han 30 fu) by ron; riichi tsumo tanyao dora on a tanki (4 han 30 fu) by tsumo
_KIRIAGE_RON = {"hand": "234m34p234678s55s", "win_tile": "5p", "from": 2}
_KIRIAGE_TSUMO = {"hand": "234m456p234678s5p", "win_tile": "5p"}


@pytest.mark.parametrize(
    ("dealer", "win", "deltas"),
    [
        (0, _KIRIAGE_RON, [0, 7700, -7700, 0]),  # 「30符6飜の子は7,700」
        (0, _KIRIAGE_TSUMO, [-3900, 7900, -2000, -2000]),  # 2,000-3,900
        (1, _KIRIAGE_RON, [0, 12000, -12000, 0]),  # 「親の11,600は切り上げ満貫」
        (1, _KIRIAGE_TSUMO, [-4000, 12000, -4000, -4000]),  # 3,900 all rounded up to 4,000 all
    ],
)
def test_saikouisen_rounds_up_only_the_dealers_11600(
    dealer: int, win: dict[str, object], deltas: list[int]
) -> None:
    from tenbou.api import score

    req = {"dealer": dealer, "winner": 1, "riichi": True, "dora_indicators": ["1m"], **win}
    r = score({"rules": "saikouisen", **req})
    assert (r["han"], r["fu"], r["deltas"]) == (4, 30, deltas)
    assert r["limit"] == ("mangan" if dealer == 1 else None)
    # the same hand with kiriage for everyone: the non-dealer's hand is a mangan too
    r = score({"rules": {"preset": "saikouisen", "overrides": {"kiriage_dealer_only": False}}, **req})
    assert r["limit"] == "mangan" and r["points"] == (12000 if dealer == 1 else 8000)


def test_kiriage_dealer_only_acts_only_with_kiriage() -> None:
    rules = TENHOU.replace(kiriage_dealer_only=True)
    assert base_points(4, 30, rules) == base_points(4, 30, rules, dealer=True) == (1920, None)
    assert base_points(3, 60, rules.replace(kiriage=True), dealer=True) == (2000, Limit.MANGAN)
    assert base_points(3, 60, rules.replace(kiriage=True)) == (1920, None)


def test_kazoe_yakuman_hand() -> None:
    # riichi tsumo chinitsu chiitoitsu/ryanpeikou tanyao + dora: 13 han or more without a yakuman
    hs = sc("2233445566778m +8m", winner=1, riichi=True, dora_indicators="7m")
    assert hs.han >= 13 and hs.limit is Limit.KAZOE_YAKUMAN and hs.base_points == 8000 and hs.yakuman == 0


# -- refusals -----------------------------------------------------------------------------------

BAD = [
    ({"winner": 1, "discarder": 1}, "winner's own seat"),
    ({"winner": 4}, "winner=4 is not a seat"),
    ({"winner": 1, "discarder": 2, "ippatsu": True}, "ippatsu: needs riichi"),
    ({"winner": 1, "rinshan": True}, "rinshan: the hand declared no kan"),
    ({"winner": 1, "discarder": 2, "rinshan": True}, "rinshan: a rinshan win is a tsumo"),
    ({"winner": 1, "chankan": True}, "chankan: robbing a kan is a ron"),
    ({"winner": 1, "discarder": 2, "haitei": True}, "haitei"),
    ({"winner": 1, "houtei": True}, "houtei"),
    ({"winner": 1, "tenhou": True}, "tenhou: only the dealer"),
    ({"winner": 0, "chiihou": True}, "chiihou: only a non-dealer"),
    ({"winner": 1, "renhou": True}, "renhou: only a non-dealer's ron"),
    (
        {"winner": 1, "discarder": 2, "dora_indicators": "1m", "ura_indicators": "1m"},
        "only revealed for a riichi",
    ),
    (
        {"winner": 1, "discarder": 2, "riichi": True, "ura_indicators": "1m2m"},
        "ura_indicators: 2 given for 0",
    ),
    ({"winner": 1, "discarder": 2, "riichi": True, "dora_indicators": "111222m"}, "at most 5"),
    ({"winner": 1, "discarder": 2, "riichi": True, "dora_indicators": "4s4s"}, "4s: 5 copies"),
    ({"winner": 1, "discarder": 2, "kita": 1}, "kita"),
    ({"winner": 0, "tenhou": True, "riichi": True}, "tenhou: riichi cannot be declared"),
]


@pytest.mark.parametrize(("situation", "fragment"), BAD)
def test_contradictions_are_refused(situation: dict[str, object], fragment: str) -> None:
    with pytest.raises(InvalidHandError) as e:
        sc("123m456p789s23s44s +4s", **situation)  # type: ignore[arg-type]
    assert fragment in str(e.value)


@pytest.mark.parametrize(
    ("hand", "situation", "fragment"),
    [
        ("123m456p2s +2s pon:777z@1 chi:789s@3", {"winner": 1, "discarder": 2}, "winner's own seat"),
        (
            "123m456p2s +2s pon:777z@2 chi:789s@3",
            {"winner": 1, "discarder": 2},
            "only called from the player on the left",
        ),
        (
            "123m456p2s +2s pon:777z@2 chi:789s@0",
            {"winner": 1, "discarder": 2, "riichi": True},
            "cannot be in riichi",
        ),
        ("123m456p2s +2s pon:777z@2 chi:789s@0", {"winner": 1, "discarder": 2, "tenhou": True}, "no call"),
        ("123m456p0s +0s pon:777z@2 chi:789s@0", {"winner": 1, "discarder": 2}, "0s: 2 red copies"),
        (
            "123m456p2s +2s pon:777z@2 chi:789s@0",
            {"winner": 1, "discarder": 2, "players": 3},
            "no chi with three",
        ),
    ],
)
def test_impossible_melds_and_tiles(hand: str, situation: dict[str, object], fragment: str) -> None:
    with pytest.raises(InvalidHandError) as e:
        sc(hand, **situation)  # type: ignore[arg-type]
    assert fragment in str(e.value)


def test_red_fives_by_rule() -> None:
    with pytest.raises(InvalidHandError, match="without red fives"):
        sc("123m406p789s23s55s +4s", TENHOU.replace(red_fives=0), winner=1, discarder=2)
    hs = sc("123m406p789s23s55s +4s", winner=1, discarder=2)
    assert ("aka_dora", 1) in [(y.id, y.han) for y in hs.yaku]
    two_red_pins = TENHOU.replace(red_fives=4)
    hs = sc("123m456p789s23s00p +4s", two_red_pins, winner=1, discarder=2)
    assert ("aka_dora", 2) in [(y.id, y.han) for y in hs.yaku]
    with pytest.raises(InvalidHandError, match="0p: 2 red copies"):
        sc("123m456p789s23s00p +4s", winner=1, discarder=2)


def test_not_winning_and_no_yaku_codes() -> None:
    with pytest.raises(InvalidHandError) as e:
        sc("123m456p789s23s46s +4s", winner=1, discarder=2)
    assert e.value.code == "not_winning"
    for dora in ((), "4s"):  # dora alone are not a yaku
        with pytest.raises(InvalidHandError) as e:
            sc("123m456p23s55s +1s chi:789s@0", winner=1, discarder=2, dora_indicators=dora)
        assert e.value.code == "no_yaku"


def test_three_players_kita_and_manzu() -> None:
    hs = sc(
        "111m123p789s23s55s +4s", players=3, winner=1, discarder=2, riichi=True, kita=2, dora_indicators="3z"
    )
    got = {y.id: y.han for y in hs.yaku}
    assert got["kita"] == 2 and got["dora"] == 2  # North is dora: each kita counts as dora as well
    with pytest.raises(InvalidHandError, match="no 2m-8m"):
        sc("234m123p789s23s55s +4s", players=3, winner=1, discarder=2, riichi=True)
    with pytest.raises(InvalidHandError, match="played by 4 players"):
        sc(
            "111m123p789s23s55s +4s",
            TENHOU.replace(players=(4,)),
            players=3,
            winner=1,
            discarder=2,
            riichi=True,
        )


def test_a_true_yakuman_beats_kazoe_of_equal_points() -> None:
    # 222 333 444p 777p + 6p tanki: suuankou tanki, or 234p x3 = riichi tanyao iipeikou chinitsu + 6 dora
    hs = sc(
        "2223334446777p +6p", winner=1, discarder=2, riichi=True, dora_indicators="1p", ura_indicators="6p"
    )
    assert ids(hs) == ["suuankou_tanki"] and hs.limit is Limit.YAKUMAN and hs.han == 13


def test_the_hand_level_key_holds_only_the_form_of_a_readings_features() -> None:
    # _hand_level caches the yaku asked once per hand by its features and the form; a hand-level
    # yaku needing a reading's feature (runs, peikou, the wait...) would make the key differ between
    # readings of one hand, and the cache would give one reading's answer to another
    from tenbou import scoring, yaku

    reading_bits = yaku.READING_FEATURES
    every_r = [getattr(yaku, name) for name in dir(yaku) if name.startswith("R_")]
    assert len(every_r) >= 14 and all(bit & reading_bits == bit for bit in every_r)
    every_f = [getattr(yaku, name) for name in dir(yaku) if name.startswith("F_")]
    assert len(every_f) >= 20 and not any(bit & reading_bits for bit in every_f)
    assert scoring._HAND_KEY & reading_bits == scoring._FORMS & reading_bits
    assert scoring._HAND_KEY & scoring._FORMS == scoring._FORMS


def test_the_yaku_asked_for_different_features_share_one_pair_a_yaku() -> None:
    # the asked yaku kept by features point at one (predicate, counted) pair a yaku and kind of hand,
    # the pairs of _askable: scoring a stream of hands keeps no pairs of its own
    from tenbou import scoring
    from tenbou.api import score
    from tenbou.errors import TenbouError

    from .handgen import generate

    for h in generate(7, 300):
        with contextlib.suppress(TenbouError):
            score(h)
    for per_reading, kept in enumerate((scoring._HAND_PLAIN, scoring._READING_PLAIN)):
        assert len(kept) >= 20
        pairs = {
            closed: {id(a) for group in scoring._askable(frozenset(), per_reading, closed) for _, a in group}
            for closed in (False, True)
        }
        for features, (yakuman, regular) in kept.items():
            expected = pairs[bool(features & scoring.F_CLOSED)]
            assert {id(asked) for asked in (*yakuman, *regular)} <= expected
            # and they are the pairs worth asking with those features, as made afresh
            wanted = [
                [asked for needs, asked in group if needs & features == needs]
                for group in scoring._askable(frozenset(), per_reading, bool(features & scoring.F_CLOSED))
            ]
            assert [list(yakuman), list(regular)] == wanted
