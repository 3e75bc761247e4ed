"""Every rule and worked example of the seeds on responsibility payment
(責任払い / 包牌), by name, through the JSON interface."""

from __future__ import annotations

from typing import Any

import pytest

from tenbou.api import score, settle
from tenbou.errors import InvalidHandError, RequestError, TenbouError

# Seat 1 wins (non-dealer, East round); seat 0 is the dealer.
DAISANGEN = {
    "rules": "tenhou", "dealer": 0, "winner": 1, "hand": "23m55p", "win_tile": "4m",
    "melds": [{"type": "pon", "tiles": "555z", "from": 2},
              {"type": "pon", "tiles": "666z", "from": 0},
              {"type": "pon", "tiles": "777z", "from": 3}],
}  # fmt: skip


def pays(result: dict[str, Any]) -> list[tuple[int | None, int, str]]:
    return [(p["from"], p["points"], p["kind"]) for p in result["payments"]]


# -- 役満の包が成立した場合の支払い: 大三元の包 ----------------------------------------------


def test_daisangen_pao_tsumo_liable_pays_all() -> None:
    r = score(DAISANGEN)
    assert r["pao"] == [{"yaku": "daisangen", "seat": 3, "rule": "pao_yaku", "meld": 2}]
    assert pays(r) == [(3, 32000, "pao")]
    assert r["deltas"] == [0, 32000, 0, -32000]  # 支払い免除: the other two pay nothing


def test_daisangen_pao_ron_by_another_player_half_each() -> None:
    r = score(dict(DAISANGEN, **{"from": 2}))
    assert pays(r) == [(3, 16000, "pao"), (2, 16000, "hand")]
    assert r["deltas"] == [0, 32000, -16000, -16000]


def test_daisangen_pao_ron_by_the_liable_player_who_pays_all() -> None:
    r = score(dict(DAISANGEN, **{"from": 3}))
    assert pays(r) == [(3, 32000, "hand")] and r["pao"][0]["seat"] == 3
    assert r["deltas"] == [0, 32000, 0, -32000]


def test_daisangen_by_daiminkan_is_pao_too() -> None:
    req = dict(
        DAISANGEN,
        hand="23m55p",
        melds=[*DAISANGEN["melds"][:2], {"type": "daiminkan", "tiles": "7777z", "from": 2}],
    )
    assert score(req)["pao"][0]["seat"] == 2


def test_a_kakan_keeps_the_pon_liability() -> None:
    melds = [*DAISANGEN["melds"][:2], {"type": "kakan", "tiles": "7777z", "from": 3}]
    assert score(dict(DAISANGEN, melds=melds))["pao"][0]["seat"] == 3


def test_an_ankan_of_the_third_dragon_makes_nobody_liable() -> None:
    melds = [*DAISANGEN["melds"][:2], {"type": "ankan", "tiles": "7777z"}]
    r = score(dict(DAISANGEN, melds=melds))
    assert r["pao"] == [] and r["deltas"] == [-16000, 32000, -8000, -8000]


def test_concealed_dragon_triplets_do_not_count() -> None:
    # two dragons concealed, the third called: no discard "made" daisangen
    r = score(
        {
            "rules": "tenhou",
            "dealer": 0,
            "winner": 1,
            "hand": "23m55p555666z",
            "win_tile": "4m",
            "melds": [{"type": "pon", "tiles": "777z", "from": 3}],
        }
    )
    assert r["yaku"][0]["id"] == "daisangen" and r["pao"] == []


# -- 大四喜の確定, and 大四喜の包に字一色が複合しているケース (親) ----------------------------------

DAISUUSHII_TSUUIISOU = {
    "dealer": 0, "winner": 0, "hand": "5z", "win_tile": "5z",
    "melds": [{"type": "pon", "tiles": "111z", "from": 1},
              {"type": "pon", "tiles": "222z", "from": 3},
              {"type": "pon", "tiles": "333z", "from": 2},
              {"type": "pon", "tiles": "444z", "from": 2}],
}  # fmt: skip
SEED_PRINCIPLE = {"preset": "tenhou", "overrides": {"pao_scope": "pao_yakuman_only"}}


def test_daisuushii_is_certain_at_the_fourth_wind_set() -> None:
    r = score(dict(DAISUUSHII_TSUUIISOU, rules="tenhou"))
    assert [y["id"] for y in r["yaku"]] == ["daisuushii", "tsuuiisou"]
    assert r["pao"] == [{"yaku": "daisuushii", "seat": 2, "rule": "pao_yaku", "meld": 3}]


def test_seed_composite_tsumo_liable_64000_others_16000() -> None:
    r = score(dict(DAISUUSHII_TSUUIISOU, rules=SEED_PRINCIPLE))
    assert r["deltas"] == [96000, -16000, -64000, -16000]
    assert (2, 48000, "pao") in pays(r)  # daisuushii in full, then tsuuiisou as a tsumo


def test_seed_composite_ron_by_the_liable_player_96000() -> None:
    r = score(dict(DAISUUSHII_TSUUIISOU, rules=SEED_PRINCIPLE, **{"from": 2}))
    assert r["deltas"] == [96000, 0, -96000, 0]


def test_seed_composite_ron_by_a_third_player_24000_and_72000() -> None:
    r = score(dict(DAISUUSHII_TSUUIISOU, rules=SEED_PRINCIPLE, **{"from": 1}))
    assert r["deltas"] == [96000, -72000, -24000, 0]
    assert sorted(pays(r)) == [(1, 24000, "hand"), (1, 48000, "hand"), (2, 24000, "pao")]


def test_tenhou_whole_hand_composite() -> None:
    # Tenhou: the liable player answers for the whole hand, composites included
    tsumo = score(dict(DAISUUSHII_TSUUIISOU, rules="tenhou"))
    assert tsumo["deltas"] == [96000, 0, -96000, 0]
    ron = score(dict(DAISUUSHII_TSUUIISOU, rules="tenhou", **{"from": 1}))
    assert ron["deltas"] == [96000, -48000, -48000, 0]


def test_single_yakuman_rules_give_the_pao_yakuman_precedence() -> None:
    # 役満の複合を認めず…シングル役満: 自模和には1人払い、栄和には折半
    rules = {"preset": "tenhou", "overrides": {"yakuman_stacking": False, "pao_scope": "pao_yakuman_only"}}
    assert score(dict(DAISUUSHII_TSUUIISOU, rules=rules))["deltas"] == [48000, 0, -48000, 0]
    assert score(dict(DAISUUSHII_TSUUIISOU, rules=rules, **{"from": 1}))["deltas"] == [
        48000,
        -24000,
        -24000,
        0,
    ]


def test_double_daisuushii_is_not_counted_twice_in_the_pao_part() -> None:
    # Mahjong Soul: daisuushii is a double yakuman and only the pao'd yakuman is liable
    r = score(dict(DAISUUSHII_TSUUIISOU, rules="mahjongsoul"))
    assert [(y["id"], y["yakuman"]) for y in r["yaku"]] == [("daisuushii", 2), ("tsuuiisou", 1)]
    assert (2, 96000, "pao") in pays(r) and r["deltas"] == [144000, -16000, -112000, -16000]


# -- 四槓子の確定 ----------------------------------------------------------------------------

SUUKANTSU = {
    "dealer": 0, "winner": 1, "hand": "1p", "win_tile": "1p",
    "melds": [{"type": "daiminkan", "tiles": "3333p", "from": 3},
              {"type": "ankan", "tiles": "5505p"},
              {"type": "ankan", "tiles": "1111z"},
              {"type": "daiminkan", "tiles": "2222p", "from": 2}],
}  # fmt: skip


def test_suukantsu_pao_where_the_rules_have_it() -> None:
    r = score(dict(SUUKANTSU, rules="ron2"))
    assert r["pao"] == [{"yaku": "suukantsu", "seat": 2, "rule": "pao_yaku", "meld": 3}]
    assert r["deltas"] == [0, 32000, -32000, 0]


def test_no_suukantsu_pao_on_tenhou() -> None:
    # 四槓子は…包を適用しないルールになっていることがある (Tenhou abolished it in 2007)
    r = score(dict(SUUKANTSU, rules="tenhou"))
    assert r["pao"] == [] and r["deltas"] == [-16000, 32000, -8000, -8000]


def test_the_fourth_kan_must_be_the_daiminkan() -> None:
    melds = [SUUKANTSU["melds"][3], *SUUKANTSU["melds"][:3]]  # the daiminkan came first
    assert score(dict(SUUKANTSU, rules="ron2", melds=melds))["pao"] == []


#: a pon of 6z later added to (kakan), two ankans, and the daiminkan of 2p from seat 2
KAKAN_LAST = dict(
    SUUKANTSU,
    rules="ron2",
    melds=[{"type": "kakan", "tiles": "6666z", "from": 3}, *SUUKANTSU["melds"][1:]],
)


def test_the_fourth_kan_is_the_fourth_declared() -> None:
    # by the call order the daiminkan is the fourth kan; declared last, the kakan is
    assert score(KAKAN_LAST)["pao"][0]["seat"] == 2
    assert score(dict(KAKAN_LAST, kan_order=[0, 1, 2, 3]))["pao"][0]["seat"] == 2
    r = score(dict(KAKAN_LAST, kan_order=[1, 2, 3, 0]))
    assert r["pao"] == [] and r["deltas"] == [-16000, 32000, -8000, -8000]


@pytest.mark.parametrize(
    ("kan_order", "message"),
    [
        ("1230", "kan_order: expected a list of indices of the kans in melds, not '1230'"),
        ([1, 2, 3], r"\[1, 2, 3\] must list each kan of melds once \(kans: melds \[0, 1, 2, 3\]\)"),
        ([0, 1, 2, 3, 3], "must list each kan of melds once"),
        ([0, 1, 2, True], "expected a list of indices"),
        ([0, 2, 1, 3], r"melds\[2\] comes before melds\[1\], which was declared before melds\[2\]"),
    ],
)
def test_kan_order_is_refused_unless_it_can_have_happened(kan_order: object, message: str) -> None:
    with pytest.raises(RequestError, match=message):
        score(dict(KAKAN_LAST, kan_order=kan_order))


# 「大明槓された瞬間に四槓子の振り込みと見なされるルールもある」: suukantsu_pao_timing = "fourth_kan"

FOURTH_KAN_RULES = {"preset": "ron2", "overrides": {"suukantsu_pao_timing": "fourth_kan"}}
#: seat 1 holds 222p (and 5p) beside three kans; seat 2 discards the fourth 2p, and seat 1 kans it
FOURTH_KAN = {
    "rules": FOURTH_KAN_RULES, "dealer": 0, "winner": 1, "from": 2, "hand": "2225p", "win_tile": "2p",
    "fourth_kan": True,
    "melds": [{"type": "ankan", "tiles": "1111m"}, {"type": "ankan", "tiles": "3333p"},
              {"type": "daiminkan", "tiles": "4444s", "from": 3}],
}  # fmt: skip


def test_the_fourth_kan_is_a_suukantsu_dealt_in() -> None:
    r = score(dict(FOURTH_KAN, honba=2, riichi_sticks=1))
    assert [y["id"] for y in r["yaku"]] == ["suukantsu"] and r["limit"] == "yakuman" and r["fourth_kan"]
    assert r["pao"] == [{"yaku": "suukantsu", "seat": 2, "rule": "pao_yaku"}]
    # paid as a ron by the discarder, honba and sticks to the kanning player
    assert pays(r) == [(2, 32000, "hand"), (2, 600, "honba"), (None, 1000, "riichi_sticks")]
    assert r["deltas"] == [0, 33600, -32600, 0]


def test_the_dealers_fourth_kan_is_worth_the_dealers_yakuman() -> None:
    r = settle(
        {
            "rules": FOURTH_KAN_RULES,
            "dealer": 1,
            "honba": 1,
            "wins": [{**FOURTH_KAN, "rules": FOURTH_KAN_RULES, "dealer": 1}],
        }
    )
    assert r["deltas"] == [0, 48300, -48300, 0] and r["next"] == {"dealer": 1, "honba": 2, "riichi_sticks": 0}


def test_a_double_suukantsu_is_dealt_in_double() -> None:
    rules = {
        "preset": "ron2",
        "overrides": {"suukantsu_pao_timing": "fourth_kan", "double_yakuman": ["suukantsu"]},
    }
    assert score(dict(FOURTH_KAN, rules=rules))["deltas"] == [0, 64000, -64000, 0]


def test_under_win_timing_there_is_no_fourth_kan_deal_in() -> None:
    with pytest.raises(
        InvalidHandError, match='suukantsu_pao_timing = "fourth_kan" with suukantsu in pao_yaku'
    ):
        score(dict(FOURTH_KAN, rules="ron2"))
    # nor without suukantsu pao
    rules = {"preset": "tenhou", "overrides": {"suukantsu_pao_timing": "fourth_kan"}}
    with pytest.raises(InvalidHandError, match="do not make the fourth kan a suukantsu dealt in"):
        score(dict(FOURTH_KAN, rules=rules))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"from": None}, r"the fourth kan is a daiminkan of a discard \(give 'from'\)"),
        ({"houtei": True}, "fourth_kan and houtei cannot both hold"),
        ({"hand": "2255p"}, "takes three 2p from the hand, which holds 2"),
        ({"hand": "5p", "melds": [*FOURTH_KAN["melds"], {"type": "pon", "tiles": "999m", "from": 0}]},
         "the hand has 3 kans in 4 melds"),
        ({"hand": "2225p666z", "melds": FOURTH_KAN["melds"][:2]}, "the hand has 2 kans in 2 melds"),
        ({"fourth_kan": 1}, "fourth_kan: expected true or false, not 1"),
    ],
)  # fmt: skip
def test_a_fourth_kan_that_cannot_be_is_refused(change: dict[str, Any], message: str) -> None:
    with pytest.raises(TenbouError, match=message):
        score({**FOURTH_KAN, **change})


def test_a_ron_of_the_same_discard_comes_before_the_fourth_kan() -> None:
    ron = {"winner": 3, "from": 2, "hand": "123m456p789s23s55s", "win_tile": "4s"}
    win = {k: v for k, v in FOURTH_KAN.items() if k != "rules"}
    with pytest.raises(InvalidHandError, match="the fourth kan's suukantsu ends the hand alone"):
        settle({"rules": FOURTH_KAN_RULES, "wins": [win, ron]})


def test_under_fourth_kan_timing_no_win_follows_a_fourth_daiminkan() -> None:
    # the daiminkan of 2p made the fourth kan: the hand ended there, it cannot win later
    with pytest.raises(InvalidHandError, match=r"the daiminkan of melds\[3\] made the fourth kan"):
        score(dict(SUUKANTSU, rules=FOURTH_KAN_RULES))
    # a fourth kan that is no daiminkan is no deal-in: the suukantsu wins as usual, nobody liable
    melds = [SUUKANTSU["melds"][3], *SUUKANTSU["melds"][:3]]
    r = score(dict(SUUKANTSU, rules=FOURTH_KAN_RULES, melds=melds))
    assert r["pao"] == [] and r["deltas"] == [-16000, 32000, -8000, -8000]


# -- ローカル役満に対する包: 四連刻, 一色四順 ----------------------------------------------------

SUURENKOU_RULES = {"preset": "sega_mj4"}


@pytest.mark.parametrize("end", ["111s", "555s"])
def test_suurenkou_pao_at_either_end(end: str) -> None:
    melds = [
        {"type": "pon", "tiles": "222s", "from": 3},
        {"type": "pon", "tiles": "333s", "from": 0},
        {"type": "pon", "tiles": "444s", "from": 3},
        {"type": "pon", "tiles": end, "from": 2},
    ]
    r = score(
        {"rules": SUURENKOU_RULES, "dealer": 0, "winner": 1, "hand": "9p", "win_tile": "9p", "melds": melds}
    )
    assert r["yaku"][0]["id"] == "suurenkou" and r["pao"][0]["seat"] == 2 and r["deltas"][2] == -32000


def test_isshoku_yonjun_only_the_left_player_can_be_liable() -> None:
    rules = {
        "preset": "tenhou",
        "overrides": {"local_yaku": ["isshoku_yonjun"], "pao_yaku": ["isshoku_yonjun"]},
    }
    melds = [{"type": "chi", "tiles": "345p", "from": 0}] * 3 + [{"type": "chi", "tiles": "340p", "from": 0}]
    r = score(
        {"rules": rules, "dealer": 0, "winner": 1, "hand": "9s", "win_tile": "9s", "from": 2, "melds": melds}
    )
    assert r["pao"][0] == {"yaku": "isshoku_yonjun", "seat": 0, "rule": "pao_yaku", "meld": 3}
    assert r["deltas"] == [-16000, 32000, -16000, 0]


# -- 包が適用されない役満, and 全国麻雀段位審査会 -------------------------------------------------

TSUUIISOU = {
    "dealer": 0, "winner": 1, "hand": "7z", "win_tile": "7z",
    "melds": [{"type": "pon", "tiles": "111z", "from": 3}, {"type": "pon", "tiles": "555z", "from": 2},
              {"type": "pon", "tiles": "333z", "from": 0}, {"type": "pon", "tiles": "444z", "from": 2}],
}  # fmt: skip


def test_tsuuiisou_carries_no_pao_in_principle() -> None:
    assert score(dict(TSUUIISOU, rules="tenhou"))["pao"] == []


def test_dan_shinsakai_tsuuiisou_pao_at_the_fourth_honour_pon() -> None:
    r = score(dict(TSUUIISOU, rules="dan_shinsakai"))
    assert {"yaku": "tsuuiisou", "seat": 2, "rule": "pao_yaku", "meld": 3} in r["pao"]


def test_dan_shinsakai_chinroutou_and_ryuuiisou() -> None:
    melds = [
        {"type": "pon", "tiles": "111m", "from": 3},
        {"type": "pon", "tiles": "999p", "from": 2},
        {"type": "pon", "tiles": "111s", "from": 0},
        {"type": "pon", "tiles": "999m", "from": 3},
    ]
    r = score(
        {"rules": "dan_shinsakai", "dealer": 0, "winner": 1, "hand": "9s", "win_tile": "9s", "melds": melds}
    )
    assert r["pao"] == [{"yaku": "chinroutou", "seat": 3, "rule": "pao_yaku", "meld": 3}]
    melds = [
        {"type": "chi", "tiles": "234s", "from": 0},
        {"type": "pon", "tiles": "666s", "from": 2},
        {"type": "pon", "tiles": "888s", "from": 3},
        {"type": "pon", "tiles": "666z", "from": 2},
    ]
    r = score(
        {"rules": "dan_shinsakai", "dealer": 0, "winner": 1, "hand": "2s", "win_tile": "2s", "melds": melds}
    )
    assert r["pao"] == [{"yaku": "ryuuiisou", "seat": 2, "rule": "pao_yaku", "meld": 3}]


def test_the_old_rule_every_open_yakuman_liable_is_expressible() -> None:
    rules = {
        "preset": "tenhou",
        "overrides": {
            "pao_yaku": ["daisangen", "daisuushii", "suukantsu", "tsuuiisou", "chinroutou", "ryuuiisou"]
        },
    }
    assert score(dict(TSUUIISOU, rules=rules))["pao"][0]["yaku"] == "tsuuiisou"


def test_no_pao_rule_sets() -> None:
    for preset in ("tonpuusou", "npm", "saikouisen", "kyougi101", "hangame3"):
        if preset == "hangame3":
            continue  # three players: the daisangen hand below has a chi-free four-player layout
        r = score(dict(DAISANGEN, rules=preset))
        assert r["pao"] == [], preset


# -- 大明槓の包 -----------------------------------------------------------------------------

RINSHAN_HATSU = {
    "dealer": 0, "winner": 1, "hand": "234567m999m1z", "win_tile": "1z", "rinshan": True,
    "melds": [{"type": "daiminkan", "tiles": "6666z", "from": 3}],
}  # fmt: skip


def test_daiminkan_rinshan_is_a_tsumo_by_default() -> None:
    r = score(dict(RINSHAN_HATSU, rules="tenhou"))
    assert r["limit"] == "mangan" and r["pao"] == [] and r["deltas"] == [-4000, 8000, -2000, -2000]


def test_daiminkan_pao_the_kan_giver_pays_the_mangan_alone() -> None:
    r = score(dict(RINSHAN_HATSU, rules="ron2"))
    assert r["pao"] == [{"yaku": "rinshan", "seat": 3, "rule": "daiminkan_pao", "meld": 0}]
    assert r["deltas"] == [0, 8000, 0, -8000]
    # honba as a ron by the kan giver
    assert score(dict(RINSHAN_HATSU, rules="ron2", honba=2))["deltas"] == [0, 8600, 0, -8600]


def test_daiminkan_pao_from_furiten_dealer_baiman() -> None:
    # 南3局 親: yakuhai + honitsu + rinshan + dora 4 = baiman, paid alone by the player whose dora was kanned
    req = {
        "rules": "ron2",
        "dealer": 0,
        "winner": 0,
        "round_wind": "S",
        "hand": "345678m666z9m",
        "win_tile": "9m",
        "rinshan": True,
        "dora_indicators": ["1m"],
        "melds": [{"type": "daiminkan", "tiles": "2222m", "from": 2}],
    }
    r = score(req)
    assert r["limit"] == "baiman" and r["deltas"] == [24000, 0, -24000, 0]


def test_daiminkan_pao_through_an_ankan_chain_haku() -> None:
    # 『白 HAKU』: 5s daiminkan, the rinshan 4s kanned in secret, the next rinshan tile wins suukantsu
    req = {
        "rules": "ron2",
        "dealer": 0,
        "winner": 1,
        "hand": "7s",
        "win_tile": "7s",
        "rinshan": True,
        "rinshan_kan_from": 2,
        "melds": [
            {"type": "ankan", "tiles": "2222s"},
            {"type": "ankan", "tiles": "3333s"},
            {"type": "daiminkan", "tiles": "5505s", "from": 2},
            {"type": "ankan", "tiles": "4444s"},
        ],
    }
    r = score(req)
    assert [y["id"] for y in r["yaku"]] == ["suukantsu"]
    assert {"yaku": "rinshan", "seat": 2, "rule": "daiminkan_pao", "meld": 2} in r["pao"]
    assert r["deltas"] == [0, 32000, -32000, 0]


def test_rinshan_kan_from_must_name_a_daiminkan() -> None:
    with pytest.raises(RequestError, match="no daiminkan called from seat 2"):
        score(dict(RINSHAN_HATSU, rules="ron2", rinshan_kan_from=2))


# -- honba under pao --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pao_honba", "ron_deltas", "tsumo_deltas"),
    [
        ("liable", [0, 32600, -16000, -16600], [0, 32600, 0, -32600]),
        ("discarder", [0, 32600, -16600, -16000], [0, 32600, 0, -32600]),
        ("split", [0, 32600, -16300, -16300], [0, 32600, 0, -32600]),
        ("normal", [0, 32600, -16600, -16000], [-200, 32600, -200, -32200]),
        ("rest", [0, 32600, -16600, -16000], [0, 32600, 0, -32600]),
    ],
)
def test_pao_honba(pao_honba: str, ron_deltas: list[int], tsumo_deltas: list[int]) -> None:
    rules = {"preset": "tenhou", "overrides": {"pao_honba": pao_honba}}
    assert score(dict(DAISANGEN, rules=rules, honba=2, **{"from": 2}))["deltas"] == ron_deltas
    assert score(dict(DAISANGEN, rules=rules, honba=2))["deltas"] == tsumo_deltas


def test_hangame4_honba_as_a_normal_win_and_wareme_after_pao() -> None:
    r = score(dict(DAISANGEN, rules="hangame4", honba=1))
    assert r["deltas"] == [-100, 32300, -100, -32100]
    # wareme seat 3 (the liable player): the pao payment is doubled, honba are not
    r = score(dict(DAISANGEN, rules="hangame4", honba=1, wareme=3))
    assert r["deltas"] == [-100, 64300, -100, -64100]


def test_hangame4_chips_are_not_touched_by_pao() -> None:
    r = score(dict(DAISANGEN, rules="hangame4", **{"from": 2}))
    assert r["chips"] == [0, 5, -5, 0]  # the discarder pays the yakuman chips, not the liable player


# -- several liable players, the dealer liable, double ron with pao --------------------------


def test_two_liable_players_each_pay_their_own_yakuman() -> None:
    melds = [
        {"type": "daiminkan", "tiles": "5555z", "from": 3},
        {"type": "daiminkan", "tiles": "6666z", "from": 3},
        {"type": "daiminkan", "tiles": "7777z", "from": 2},
        {"type": "daiminkan", "tiles": "1111m", "from": 0},
    ]
    req = {"rules": "ron2", "dealer": 0, "winner": 1, "hand": "9p", "win_tile": "9p", "melds": melds}
    r = score(req)
    assert sorted((p["yaku"], p["seat"]) for p in r["pao"]) == [("daisangen", 2), ("suukantsu", 0)]
    assert r["deltas"] == [-32000, 64000, -32000, 0]
    r = score(dict(req, **{"from": 3}))
    assert r["deltas"] == [-16000, 64000, -16000, -32000]


def test_the_dealer_liable() -> None:
    melds = [DAISANGEN["melds"][0], DAISANGEN["melds"][2], {"type": "pon", "tiles": "666z", "from": 0}]
    r = score(dict(DAISANGEN, melds=melds))
    assert r["pao"][0]["seat"] == 0 and r["deltas"] == [-32000, 32000, 0, 0]


def test_double_ron_with_pao() -> None:
    req = {"rules": "tenhou", "dealer": 0, "honba": 1, "riichi_sticks": 1, "wins": [
        dict({k: v for k, v in DAISANGEN.items() if k != "rules"}, **{"from": 2}),
        {"winner": 3, "from": 2, "hand": "123m456p789s23s55s", "win_tile": "4s", "riichi": True},
    ]}  # fmt: skip
    out = settle(req)
    # seat 3 is nearest the discarder (seat 2): paid first, takes honba and the stick
    assert [r["winner"] for r in out["results"]] == [3, 1]
    assert out["results"][1]["pao"][0]["seat"] == 3
    assert out["deltas"] == [0, 32000, -18300, -12700]
    assert sum(out["deltas"]) == 1000


def test_pao_honba_rest_goes_with_the_part_pao_does_not_cover() -> None:
    """majiang-core: the honba go with the rest of the hand. Dealer daisuushii + tsuuiisou by tsumo,
    only daisuushii pao'd: the tsuuiisou part is a normal tsumo, so are the honba (100 each per
    honba); with nothing left beside the pao'd yakuman the liable player pays them; on a ron, the
    discarder."""
    rules = {"preset": "tenhou", "overrides": {"pao_scope": "pao_yakuman_only", "pao_honba": "rest"}}
    tsumo = score(dict(DAISUUSHII_TSUUIISOU, rules=rules, honba=1))
    assert tsumo["deltas"] == [96300, -16100, -64100, -16100]
    ron = score(dict(DAISUUSHII_TSUUIISOU, rules=rules, honba=1, **{"from": 1}))
    assert ron["deltas"] == [96300, -72300, -24000, 0]
    whole = {"preset": "tenhou", "overrides": {"pao_honba": "rest"}}
    assert score(dict(DAISUUSHII_TSUUIISOU, rules=whole, honba=1))["deltas"] == [96300, 0, -96300, 0]
