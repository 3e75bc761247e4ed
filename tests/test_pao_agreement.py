"""The engine and the JSON façade work out liabilities in one place (``tenbou.settle.pao.win_liabilities``):
every win the engine settles, replayed as the request it writes with its own ``pao`` left out, is
given the same liabilities (yaku, liable seat, rule and meld) by ``tenbou.api`` inferring them from
the request's facts: the melds in call order, the kans in the order declared (``kan_order``), the
daiminkan a rinshan chain began with (``rinshan_kan_from``).

Self-played games under a rule set where every pao yakuman carries liability, on a wall stacked so
that dragon and wind sets are called; the scripted pao cases of tests/test_round.py go through
:func:`tests.helpers.assert_round_agrees` too; the real-record corpus (slow)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tenbou.engine.game import Game
from tenbou.errors import TenbouError
from tenbou.rules import PAO_YAKU, get_rules

from .helpers import api_liabilities, assert_api_agrees, assert_round_agrees
from .stacked import Stacked, play_stacked

#: ロン2 (suukantsu pao, daiminkan pao) with every yakuman that can carry pao
PAO_RULES = get_rules("ron2").replace(
    pao_yaku=frozenset(PAO_YAKU), local_yaku=frozenset({"suurenkou", "isshoku_yonjun"})
)
#: tiles dealt to a seat before the rest of its hand: dragons, winds, fives to call
STACK = {1: "556677z", 2: "1122334z", 3: "5550s"}


def test_self_played_wins_get_the_same_liabilities_from_the_api() -> None:
    liable = wins = 0
    for seed in range(60):
        game = play_stacked(PAO_RULES, seed, Stacked(seed, STACK)).game
        for hand in game.hands:
            wins += len(hand.settlement["results"])
            liable += assert_api_agrees(PAO_RULES, hand.request, hand.settlement["results"])
    # the check is not empty: the stacked wall makes dragon and wind sets called (8 pao in 206 wins)
    assert wins > 150 and liable >= 5


#: 「大明槓された瞬間に四槓子の振り込みと見なされるルールもある」 (seed 000)
FOURTH_KAN_RULES = get_rules("ron2").replace(suukantsu_pao_timing="fourth_kan")


def test_self_played_fourth_kans_get_the_same_liabilities_from_the_api() -> None:
    """Seat 1 is dealt three kans' tiles and draws three 6z from the dead wall; seat 2 holds the
    fourth 6z: the greedy bot discards it, and seat 1's daiminkan deals the suukantsu in."""
    deal_ins = 0
    for seed in range(20):
        stacked = Stacked(seed, {1: "111122223333s5z", 2: "6z"}, rinshan="666z")
        game = play_stacked(FOURTH_KAN_RULES, seed, stacked, riichi=False).game
        for hand in game.hands:
            assert_api_agrees(FOURTH_KAN_RULES, hand.request, hand.settlement["results"])
            for r in hand.settlement["results"]:
                if r.get("fourth_kan"):
                    deal_ins += 1
                    assert r["pao"] == [{"yaku": "suukantsu", "seat": r["from"], "rule": "pao_yaku"}]
                    assert r["points"] == (48000 if r["dealer"] else 32000)
    assert deal_ins >= 10  # 14 of the 26 hands played


def test_a_kakan_declared_last_is_the_fourth_kan() -> None:
    """Called after the 3s daiminkan, the 7z pon becomes the fourth kan only when it is added to:
    no suukantsu pao (the daiminkan made the third kan). By the call order alone the daiminkan would
    be the fourth kan; the engine's request says ``kan_order``, and the façade agrees."""
    from .script import play

    hands = ["7z456789m345678p", "111m222p333s77z5z9s", "3s456789s112233z", "111999p444666z8s"]
    script = (
        "0t1s 0d7z 1p7z 1d9s 2t2s 2d2s 3t2s 3d2s 0t2s 0d2s 1t1m 1a1m 1t2p 1a2p 1t3p 1d3p 2t8m 2d3s "
        "1k3s 1t7z 1K7z 1t5z 1h"
    )
    rnd = play(hands, script, "ron2")
    assert rnd.result is not None and rnd.result.request is not None
    win = rnd.result.request["wins"][0]
    assert win["kan_order"] == [1, 2, 3, 0]
    # daiminkan pao across the chain (ron2: daiminkan_pao_chain), no suukantsu pao
    assert [str(p) for r in rnd.result.settlement.results for p in r.pao] == ["rinshan: seat 2 (melds[3])"]
    assert_round_agrees(rnd)
    # without the order the façade reads the daiminkan as the fourth kan
    request = {**rnd.result.request, "wins": [{k: v for k, v in win.items() if k != "kan_order"}]}
    assert [p["yaku"] for p in api_liabilities(rnd.rules, request)[0]] == ["suukantsu", "rinshan"]


CORPUS = Path(__file__).resolve().parents[1] / ".." / "shared" / "corpus"


@pytest.mark.slow
def test_the_corpus_wins_get_the_same_liabilities_from_the_api() -> None:
    from tenbou.io.read import read_records

    files = sorted(p for d in ("mjlog", "tenhou6") for p in (CORPUS / d).glob("**/*") if p.is_file())
    if not files:
        pytest.skip(f"no record corpus at {CORPUS}")
    liable = 0
    for path in files:
        for rec in read_records(path):
            if rec.skip is not None:
                continue
            rules = rec.get_rules()
            game = Game(rules, rec.players, strict=False, check_starts=False)
            for i, ev in enumerate(rec.events):
                try:
                    game.apply(ev, i)
                except TenbouError:  # a defective record: the hands before this one are checked
                    break
            for hand in game.hands:
                liable += assert_api_agrees(rules, hand.request, hand.settlement["results"])
    assert liable >= 7  # the corpus's pao hands
