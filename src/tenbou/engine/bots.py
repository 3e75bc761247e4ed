"""The bots of self-play: agents that choose one of the legal actions a round offers a seat.

An agent is any callable ``agent(round, seat, actions)`` returning one of ``actions`` (the events
:meth:`~tenbou.engine.round.Round.legal_actions` listed) or None to pass (after a draw, None
discards the first tile offered). Two come with tenbou: :class:`RandomAgent`, which plays at random
(the agent of ``play_game`` and of the benchmarks), and :class:`GreedyAgent`, which plays towards a
win. Both draw from the ``random.Random`` they are given, in an order that is part of their
behaviour: a seeded game is the same game in every version (tests/test_selfplay.py pins some).
Both may be subclassed in Python, in the compiled build too (tests/stacked.py does).

>>> import random
>>> from tenbou.engine.table import Table
>>> from tenbou.rules import get_rules
>>> agents = [GreedyAgent(random.Random(i)) for i in range(4)]
>>> type(Table(get_rules("tenhou"), 3, length="tonpuu", agents=agents).play()[-1]).__name__
'EndGame'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..core._native import mypyc_attr
from ..core.shape import waits
from .events import Ankan, Chi, Dahai, Daiminkan, Event, Hora, Kakan, Nukidora, Pon, Reach, Ryukyoku
from .round import Round

__all__ = ["Agent", "GreedyAgent", "RandomAgent"]

Agent = Callable[[Round, int, Sequence[Event]], Event | None]


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass
class RandomAgent:
    """Picks among the legal actions at random: always wins when it can, calls
    and declares riichi now and then, otherwise discards at random."""

    rng: random.Random
    call_rate: float = 0.25
    riichi_rate: float = 0.6
    kan_rate: float = 0.5

    def __call__(self, rnd: Round, seat: int, actions: Sequence[Event]) -> Event | None:
        # (the actions sorted in one pass; the choices, and the random numbers drawn for them, are
        # as they always were: the first win; nine terminals half the time; a kan, riichi, a call at
        # their rates; else a discard)
        win: Event | None = None
        abort: Event | None = None
        reach: Event | None = None
        kans: list[Event] = []
        calls: list[Event] = []
        discards: list[Event] = []
        for a in actions:
            if isinstance(a, Dahai):
                discards.append(a)
            elif isinstance(a, (Pon, Chi, Daiminkan)):
                calls.append(a)
            elif isinstance(a, Hora):
                if win is None:
                    win = a
            elif isinstance(a, Reach):
                if reach is None:
                    reach = a
            elif isinstance(a, (Ankan, Kakan, Nukidora)):
                kans.append(a)
            elif isinstance(a, Ryukyoku) and abort is None:
                abort = a
        if win is not None:
            return win
        rng = self.rng
        if abort is not None and rng.random() < 0.5:
            return abort
        if kans and rng.random() < self.kan_rate:
            return rng.choice(kans)
        if reach is not None and rng.random() < self.riichi_rate:
            return reach
        if calls:
            return rng.choice(calls) if rng.random() < self.call_rate else None
        return rng.choice(discards) if discards else None


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass
class GreedyAgent:
    """Plays towards a win: keeps the discard that leaves the most waits (or,
    short of tenpai, the best-connected tiles), declares riichi, calls value
    tiles and sometimes other tiles, kans now and then, always wins."""

    rng: random.Random
    call_rate: float = 0.08
    kan_rate: float = 0.5

    def __call__(self, rnd: Round, seat: int, actions: Sequence[Event]) -> Event | None:
        wins = [a for a in actions if isinstance(a, Hora)]
        if wins:
            return wins[0]
        st = rnd.seats[seat]
        kans = [a for a in actions if isinstance(a, (Ankan, Kakan, Nukidora))]
        if kans and self.rng.random() < self.kan_rate:
            return self.rng.choice(kans)
        if any(isinstance(a, Reach) for a in actions) and self.rng.random() < 0.85:
            return next(a for a in actions if isinstance(a, Reach))
        calls = [a for a in actions if isinstance(a, (Pon, Chi, Daiminkan))]
        if calls:
            value = {31, 32, 33, 27 + (seat - rnd.dealer) % rnd.players, 27 + rnd.round_wind.index}
            good = [c for c in calls if isinstance(c, (Pon, Daiminkan)) and c.pai.kind in value]
            if good:
                return good[0]
            return self.rng.choice(calls) if self.rng.random() < self.call_rate else None
        discards = [a for a in actions if isinstance(a, Dahai)]
        if not discards:
            return None
        counts = st.kinds()
        best: list[Event] = []
        best_key: tuple[int, float] | None = None
        for d in discards:
            assert isinstance(d, Dahai)
            k = d.pai.kind
            counts[k] -= 1
            ready = len(waits(counts, closed=not st.melds, players=rnd.players))
            counts[k] += 1
            key = (ready, -_connectivity(counts, k))
            if best_key is None or key > best_key:
                best, best_key = [d], key
            elif key == best_key:
                best.append(d)
        return self.rng.choice(best)


def _connectivity(counts: list[int], k: int) -> float:
    """How much a tile works with the rest of the hand (pairs, neighbours)."""
    same = counts[k] - 1
    if k >= 27:
        return 2.0 * same
    n = k % 9
    near = sum(counts[k + d] for d in (-1, 1) if 0 <= n + d <= 8)
    far = sum(counts[k + d] for d in (-2, 2) if 0 <= n + d <= 8)
    edge = 0.25 if n in (0, 8) else 0.0
    return 2.0 * same + 1.5 * near + 0.75 * far - edge
