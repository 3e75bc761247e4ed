"""The round engine, event by event: a game for each pao case of the seeds,
validation of impossible events, legal actions."""

from __future__ import annotations

import pytest

from tenbou.core.tiles import Tile
from tenbou.engine.events import Dahai, Daiminkan, Hora, Pon, Reach, Tsumo
from tenbou.engine.round import Round
from tenbou.errors import IllegalEventError
from tenbou.rules import get_rules

from .helpers import assert_round_agrees
from .script import events, play, start

DAISANGEN = ["123456789m6z123p", "23m55p556677z1s9s8p", "5z147m258p369s123z", "7z147m208p369s124z"]
CALLS = "0t9p 0d6z 1p6z 1d1s 2t9m 2d5z 1p5z 1d9s 2t8m 2d8m 3t6m 3d7z 1p7z 1d8p 2t7p 2d7p 3t6p 3d6p"


def result(rnd: Round) -> tuple[list[int], list[tuple[str, int]]]:
    assert rnd.result is not None
    assert_round_agrees(rnd)  # the JSON façade infers the same liabilities from the round's request
    st = rnd.result.settlement
    pao = [(p.yaku, p.seat) for r in st.results for p in r.pao]
    return list(st.deltas), pao


def test_daisangen_pao_by_tsumo() -> None:
    rnd = play(DAISANGEN, CALLS + " 0t5s 0d5s 1t4m 1h")
    assert result(rnd) == ([0, 32000, 0, -32000], [("daisangen", 3)])


def test_daisangen_pao_by_ron_from_another_player() -> None:
    rnd = play(DAISANGEN, CALLS + " 0t4m 0d4m 1h0")
    assert result(rnd) == ([-16000, 32000, 0, -16000], [("daisangen", 3)])


def test_daisuushii_pao_at_the_fourth_wind() -> None:
    hands = ["1z4z123456789m12p", "11223344z5p1s9s8p9p", "2z5p147m258p369s56z", "3z147m208p369s567z"]
    script = (
        "0t9p 0d1z 1p1z 1d1s 2t9m 2d2z 1p2z 1d9s 2t8m 2d8m 3t6m 3d3z 1p3z 1d8p 2t7p 2d7p 3t6p 3d6p "
        "0t5s 0d4z 1p4z 1d9p 2t5s 2d5p 1h2"
    )
    assert result(play(hands, script)) == ([-16000, 32000, -16000, 0], [("daisuushii", 0)])


SUUKANTSU = ["23456789m13469p", "1111m2222p333s44s", "3s258m47p568s1236z", "4s369m58p79s12347z"]


def test_suukantsu_pao_and_daiminkan_pao_ron2() -> None:
    script = (
        "0t9m 0d9m 1t4s 1a1m D1z 1t5z 1a2p D2z 1t9m 1d9m 2t8m 2d3s 1k3s 1t8m 1d8m D3z "
        "2t7m 2d7m 3t6m 3d4s 1k4s 1t5z 1h"
    )
    rnd = play(SUUKANTSU, script, "ron2")
    deltas, pao = result(rnd)
    assert deltas == [0, 32000, 0, -32000]
    assert ("suukantsu", 3) in pao and ("rinshan", 3) in pao


def test_no_suukantsu_pao_on_tenhou() -> None:
    script = (
        "0t9m 0d9m 1t4s 1a1m D1z 1t5z 1a2p D2z 1t9m 1d9m 2t8m 2d3s 1k3s 1t8m 1d8m D3z "
        "2t7m 2d7m 3t6m 3d4s 1k4s 1t5z 1h"
    )
    assert result(play(SUUKANTSU, script, "tenhou")) == ([-16000, 32000, -8000, -8000], [])


# 「大明槓された瞬間に四槓子の振り込みと見なされるルールもある」 (seed 000): suukantsu_pao_timing

FOURTH_KAN_RULES = get_rules("ron2").replace(suukantsu_pao_timing="fourth_kan")
#: seat 1 kans 1s, 2s and 3s in secret, drawing 5p, 5p and 0p; seat 2 discards the fourth 5p,
#: on which seat 3 (123456789m 34p 99s: pinfu) could win too
FOURTH_KAN = ["123456789m123p4p", "111122223333s5z", "456789p456789m6z", "123456789m34p99s"]
KANS = "0t9s 0d9s 1t7z 1a1s 1t5p 1a2s 1t5p 1a3s 1t0p 1d7z 2t8s 2d5p"


@pytest.mark.parametrize("end", ["1h2", "1k5p"])  # the hora tenbou writes, or the daiminkan itself
def test_the_fourth_kan_ends_the_hand_as_a_suukantsu_dealt_in(end: str) -> None:
    rnd = play(FOURTH_KAN, f"{KANS} {end}", FOURTH_KAN_RULES, honba=1, kyotaku=1)
    assert result(rnd) == ([0, 33300, -32300, 0], [("suukantsu", 2)])
    assert rnd.result is not None and rnd.result.request is not None
    win = rnd.result.request["wins"][0]
    assert (win["hand"], win["win_tile"], win["from"], win["fourth_kan"]) == ("550p5z", "5p", 2, True)


def test_the_fourth_kan_is_offered_as_a_hora() -> None:
    rnd = Round(FOURTH_KAN_RULES, start(FOURTH_KAN))
    events(rnd, KANS)
    acts = rnd.legal_actions(1)
    assert Hora(1, 2, Tile.parse("5p")) in acts and not [a for a in acts if isinstance(a, Daiminkan)]
    # under the default timing it is a kan like any other, and the hand goes on
    rnd = Round(get_rules("ron2"), start(FOURTH_KAN))
    events(rnd, KANS)
    acts = rnd.legal_actions(1)
    assert [a for a in acts if isinstance(a, Daiminkan)] and not [a for a in acts if isinstance(a, Hora)]
    events(rnd, "1k5p 1t9p")
    assert rnd.result is None and len(rnd.seats[1].kans) == 4


def test_a_ron_of_the_same_discard_comes_before_the_fourth_kan() -> None:
    rnd = Round(FOURTH_KAN_RULES, start(FOURTH_KAN))
    events(rnd, f"{KANS} 3h2")
    with pytest.raises(IllegalEventError, match="a ron of the same discard comes first"):
        rnd.apply(Hora(1, 2, Tile.parse("5p")), 99)
    # and nothing but end_kyoku follows the fourth kan
    rnd = Round(FOURTH_KAN_RULES, start(FOURTH_KAN))
    events(rnd, f"{KANS} 1k5p")
    with pytest.raises(IllegalEventError, match="after the hand has ended"):
        rnd.apply(Hora(3, 2, Tile.parse("5p")), 99)


def test_suurenkou_pao_sega_mj4() -> None:
    hands = ["2s5s123456789m12p", "22s33s44s55s8p9p1m9m7z", "3s147m258p369p123z", "4s147m258p3678p12z"]
    script = (
        "0t9p 0d2s 1p2s 1d1m 2t8m 2d3s 1p3s 1d9m 2t7m 2d7m 3t6m 3d4s 1p4s 1d7z 2t6m 2d6m 3t5m 3d5m "
        "0t4m 0d5s 1p5s 1d8p 2t9p 2d9p 1h2"
    )
    deltas, pao = result(play(hands, script, "sega_mj4"))
    assert pao == [("suurenkou", 0)] and deltas == [-16000, 32000, -16000, 0]


def test_isshoku_yonjun_pao_only_the_left_player() -> None:
    rules = get_rules("tenhou").replace(local_yaku=frozenset({"isshoku_yonjun"}),
                                        pao_yaku=frozenset({"isshoku_yonjun"}))  # fmt: skip
    hands = ["5p123456789m123z", "33334444p9s1m9m6z7z", "147m258s369s1234z", "147m258s368s6712z"]
    script = (
        "0t2p 0d2p 1c2p34p 1d1m 2t8m 2d8m 3t7m 3d7m 0t2p 0d2p 1c2p34p 1d9m 2t6m 2d6m 3t5m 3d5m "
        "0t2p 0d2p 1c2p34p 1d6z 2t4m 2d4m 3t3m 3d3m 0t2p 0d2p 1c2p34p 1d7z 2t9s 2d9s 1h2"
    )
    deltas, pao = result(play(hands, script, rules))
    assert pao == [("isshoku_yonjun", 0)] and deltas == [-16000, 32000, -16000, 0]


RINSHAN = ["123456789m1239p", "333s777z11m456p23p", "3s258m47p568s2346z", "369m58p79s124566z"]


@pytest.mark.parametrize(
    ("preset", "deltas"), [("tenhou", [-2300, 4700, -1200, -1200]), ("ron2", [0, 4500, -4500, 0])]
)
def test_daiminkan_rinshan_after_an_ankan(preset: str, deltas: list[int]) -> None:
    script = "0t9m 0d9m 1t8s 1d8s 2t8m 2d3s 1k3s 1t7z 1a7z D1z 1t1p 1h"
    got, pao = result(play(RINSHAN, script, preset))
    assert got == deltas
    assert pao == ([("rinshan", 2)] if preset == "ron2" else [])


FURITEN = ["123456789m1239p", "333s67s11m456p789p", "3s258m47p568s2346z", "369m58p79s124566z"]


def test_daiminkan_pao_ignores_furiten_on_ron2() -> None:
    script = "0t9m 0d9m 1t5s 1d5s 2t8m 2d3s 1k3s 1t8s 1h"
    assert result(play(FURITEN, script, "ron2")) == ([0, 1000, -1000, 0], [("rinshan", 2)])
    strict = get_rules("ron2").replace(daiminkan_pao_furiten=False)
    assert result(play(FURITEN, script, strict)) == ([-500, 1100, -300, -300], [])


# -- validation ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("script", "fragment"),
    [
        ("0t9p 0d5s", "does not hold it"),
        ("0t9p 0d9p 2t1m", "out of turn"),
        ("0t9p 0d9p 1t1m 1r 1d1m", "not tenpai"),
        ("0t9p 0d9p 1h0", "not a winning hand"),
        ("1t9p", "out of turn"),
        ("0t9p 0d9p 1t2m 1d2m 1t3m", "tsumo by seat 1 out of turn"),
    ],
)
def test_illegal_events_name_the_index_and_why(script: str, fragment: str) -> None:
    with pytest.raises(IllegalEventError) as e:
        play(DAISANGEN, script)
    assert fragment in str(e.value) and str(e.value).startswith("event ")


def test_pon_of_an_honour_held_once() -> None:
    rnd = Round(get_rules("tenhou"), start(DAISANGEN))
    events(rnd, "0t9p 0d6z")
    with pytest.raises(IllegalEventError, match="seat 2 does not hold 66z"):
        rnd.apply(Pon(2, 0, Tile.parse("6z"), (Tile.parse("6z"), Tile.parse("6z"))), 3)


def test_call_after_riichi_and_ron_in_furiten() -> None:
    hands = ["123456789m1239p", "123m456p789s13s55z", "147m258p369s1234z", "147m258p369s1245z"]
    rnd = Round(get_rules("tenhou"), start(hands))
    events(rnd, "0t9m 0d9m 1t6z 1r 1d6z 1R 2t1p 2d1p 3t5z 3d5z")
    with pytest.raises(IllegalEventError, match="in riichi and cannot call"):
        rnd.apply(Pon(1, 3, Tile.parse("5z"), (Tile.parse("5z"), Tile.parse("5z"))), 99)
    # seat 1 waits on 2s (13s kanchan): 2s discarded by itself earlier makes it furiten
    hands = ["123456789m1239p", "123m456p789s13s55z", "147m258p369s1234z", "147m258s369s1245z"]
    rnd = Round(get_rules("tenhou"), start(hands))
    events(rnd, "0t9m 0d9m 1t2s 1d2s 2t2s 2d2s")
    with pytest.raises(IllegalEventError, match="furiten"):
        rnd.apply(Hora(1, 2), 99)


def test_lenient_mode_records_and_goes_on() -> None:
    rnd = Round(get_rules("tenhou"), start(DAISANGEN), strict=False)
    events(rnd, "0t9p 0d5s 1t1m")
    assert rnd.errors and "event 2" in rnd.errors[0]


# -- legal actions -------------------------------------------------------------------------------


def test_legal_actions_after_a_discard() -> None:
    rnd = Round(get_rules("tenhou"), start(DAISANGEN))
    events(rnd, "0t9p 0d6z")
    acts = rnd.legal_actions(1)
    assert any(isinstance(a, Pon) for a in acts)
    assert rnd.legal_actions(2) == []


def test_legal_actions_riichi_and_tsumo() -> None:
    hands = ["123456789m1239p", "123m456p789s13s55z", "147m258p369s1234z", "147m258p369s1245z"]
    rnd = Round(get_rules("tenhou"), start(hands))
    events(rnd, "0t9m 0d9m 1t6z")
    acts = rnd.legal_actions(1)
    assert Reach(1) in acts and Dahai(1, Tile.parse("6z"), True) in acts
    events(rnd, "1r")
    discards = [a for a in rnd.legal_actions(1) if isinstance(a, Dahai)]
    assert [str(a.pai) for a in discards] == ["6z"]  # only tenpai-keeping discards
    events(rnd, "1d6z 1R 2t1p 2d1p 3t1p 3d1p 0t1p 0d1p")
    rnd.apply(Tsumo(1, Tile.parse("2s")), 100)
    assert Hora(1, 1, Tile.parse("2s")) in rnd.legal_actions(1)


CHANKAN_HANDS = ["123m456m789p67s11p", "8s147m258p369s123z", "147m258p369s1234z", "88s147m258p369p12z"]
CHANKAN_RIICHI = "0t9m 0d9m 1t1z 1d8s 3p8s 3d1z 0t9p 0r 0d9p 0R 1t5z 1d5z 2t6z 2d6z 3t8s 3K8s"


def test_robbing_a_kakan_keeps_ippatsu() -> None:
    """The robbed kan never stands, so the riichi player's ippatsu survives (as Tenhou records:
    2018010702gm-00a9-0000-5dd4f9b4 E2-0, yaku 一発 with 槍槓)."""
    rnd = play(CHANKAN_HANDS, CHANKAN_RIICHI + " 0h3")
    assert rnd.result is not None
    win = rnd.result.settlement.results[0].score
    assert [y.yaku.id for y in win.yaku] == ["riichi", "ippatsu", "pinfu", "chankan"]
    assert result(rnd)[0] == [12600, 0, 0, -11600]


def test_a_kakan_that_stands_ends_ippatsu() -> None:
    rnd = Round(get_rules("tenhou"), start(CHANKAN_HANDS))
    events(rnd, CHANKAN_RIICHI)
    assert rnd.seats[0].ippatsu  # the kan may still be robbed
    events(rnd, "3t5z")  # the replacement draw: nobody robbed it
    assert not rnd.seats[0].ippatsu
