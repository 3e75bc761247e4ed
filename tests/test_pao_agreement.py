"""The engine and the JSON façade work out liabilities in one place (``tenbou.pao.win_liabilities``):
every win the engine settles, replayed as the request it writes with its own ``pao`` left out, is
given the same liabilities (yaku, liable seat, rule and meld) by ``tenbou.api`` inferring them from
the request's facts: the melds in call order, the kans in the order declared (``kan_order``), the
daiminkan a rinshan chain began with (``rinshan_kan_from``).

Self-played games under a rule set where every pao yakuman carries liability, on a wall stacked so
that dragon and wind sets are called; the scripted pao cases of tests/test_round.py go through
:func:`tests.helpers.assert_round_agrees` too; the real-record corpus (slow)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from tenbou.errors import TenbouError
from tenbou.events import Ankan, Daiminkan, Event, Hora, Kakan, Pon
from tenbou.game import Game
from tenbou.round import Round
from tenbou.rules import PAO_YAKU, Rules, get_rules
from tenbou.selfplay import GreedyAgent, Table
from tenbou.tiles import Tile, parse_tiles

from .helpers import api_liabilities, assert_api_agrees, assert_round_agrees

#: ロン2 (suukantsu pao, daiminkan pao) with every yakuman that can carry pao
PAO_RULES = get_rules("ron2").replace(
    pao_yaku=frozenset(PAO_YAKU), local_yaku=frozenset({"suurenkou", "isshoku_yonjun"})
)
#: tiles dealt to a seat before the rest of its hand: dragons, winds, fives to call
STACK = {1: "556677z", 2: "1122334z", 3: "5550s"}


class _Stacked(random.Random):
    """Shuffles the wall, then deals each seat of ``STACK`` its tiles first."""

    def shuffle(self, x: Any, *args: Any) -> None:
        super().shuffle(x)
        rest: list[Tile] = list(x)
        stacked = {seat: parse_tiles(text) for seat, text in STACK.items()}
        for tiles in stacked.values():
            for t in tiles:
                rest.remove(t)
        out, rest = rest[:14], rest[14:]
        for seat in range(4):
            mine = list(stacked.get(seat, ()))
            out += mine + rest[: 13 - len(mine)]
            rest = rest[13 - len(mine) :]
        x[:] = out + rest


class _Collector(GreedyAgent):
    """Wins, kans and pons whenever it can; otherwise plays as the greedy bot."""

    def __call__(self, rnd: Round, seat: int, actions: Sequence[Event]) -> Event | None:
        for kinds in ((Hora,), (Ankan, Kakan, Daiminkan), (Pon,)):
            for a in actions:
                if isinstance(a, kinds):
                    return a
        return super().__call__(rnd, seat, actions)


def play_stacked(rules: Rules, seed: int) -> Game:
    agents: list[Any] = [_Collector(random.Random(seed * 7 + i), call_rate=0.0) for i in range(4)]
    table = Table(rules, seed, 4, "tonpuu", agents)
    table.rng = _Stacked(seed)
    table.play()
    return table.game


def test_self_played_wins_get_the_same_liabilities_from_the_api() -> None:
    liable = wins = 0
    for seed in range(60):
        game = play_stacked(PAO_RULES, seed)
        for hand in game.hands:
            wins += len(hand.settlement["results"])
            liable += assert_api_agrees(PAO_RULES, hand.request, hand.settlement["results"])
    # the check is not empty: the stacked wall makes dragon and wind sets called (8 pao in 206 wins)
    assert wins > 150 and liable >= 5


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
    from tenbou.io.convert import read_records

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
