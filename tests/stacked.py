"""Self-play on a stacked wall: the tiles a test needs dealt to a seat, or put where the kans draw
their replacement tiles, and bots that call everything they can, so that rare ends (pao, the fourth
kan's suukantsu) come up in a few games."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tenbou.core.tiles import Tile, parse_tiles
from tenbou.engine.events import Ankan, Daiminkan, Event, Hora, Kakan, Pon, Reach
from tenbou.engine.round import Round
from tenbou.engine.table import GreedyAgent, Table
from tenbou.rules import Rules


class Stacked(random.Random):
    """Shuffles the wall, then deals each seat of ``hands`` its tiles first and puts ``rinshan`` at
    the head of the dead wall (the replacement tiles of the first kans)."""

    def __init__(self, seed: int, hands: dict[int, str], rinshan: str = "") -> None:
        super().__init__(seed)
        self.hands = hands
        self.rinshan = rinshan

    def shuffle(self, x: Any, *args: Any) -> None:
        super().shuffle(x)
        rest: list[Tile] = list(x)
        stacked = {seat: parse_tiles(text) for seat, text in self.hands.items()}
        rinshan = list(parse_tiles(self.rinshan))
        for t in [*rinshan, *(t for tiles in stacked.values() for t in tiles)]:
            rest.remove(t)
        out, rest = rinshan + rest[: 14 - len(rinshan)], rest[14 - len(rinshan) :]
        for seat in range(4):
            mine = list(stacked.get(seat, ()))
            out += mine + rest[: 13 - len(mine)]
            rest = rest[13 - len(mine) :]
        x[:] = out + rest


@dataclass
class Collector(GreedyAgent):
    """Wins, kans and pons whenever it can; otherwise plays as the greedy bot (without riichi, which
    would keep it from calling, unless ``riichi``)."""

    riichi: bool = True

    def __call__(self, rnd: Round, seat: int, actions: Sequence[Event]) -> Event | None:
        for kinds in ((Hora,), (Ankan, Kakan, Daiminkan), (Pon,)):
            for a in actions:
                if isinstance(a, kinds):
                    return a
        if not self.riichi:
            actions = [a for a in actions if not isinstance(a, Reach)]
        return super().__call__(rnd, seat, actions)


def play_stacked(rules: Rules, seed: int, stacked: Stacked, riichi: bool = True) -> Table:
    """A tonpuu game of four :class:`Collector` bots on the ``stacked`` wall (``table.events``, the
    record; ``table.game``, the game followed)."""
    agents: list[Any] = [
        Collector(random.Random(seed * 7 + i), call_rate=0.0, riichi=riichi) for i in range(4)
    ]
    table = Table(rules, seed, 4, "tonpuu", agents)
    table.rng = stacked
    table.play()
    return table
