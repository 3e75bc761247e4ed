"""The built-in bots of ``tenbou match``: ``random``, ``greedy`` and ``efficient``.

Each is an agent of the self-play table (:data:`tenbou.engine.table.Agent`): given the round, its
seat and the legal actions (:meth:`~tenbou.engine.round.Round.legal_actions`), it picks one, or
``None`` to pass. They see the round as the referee does, but decide only by what their seat may
know: their hand, the rivers, the melds and the dora indicators.

- ``random`` (:class:`~tenbou.engine.table.RandomAgent`): wins when it can, calls and declares
  riichi now and then, discards at random.
- ``greedy`` (:class:`~tenbou.engine.table.GreedyAgent`): keeps the discard that leaves the most
  waits, or the best-connected tiles; calls value tiles.
- ``efficient`` (:class:`EfficientAgent`): tile efficiency, the way a beginner is taught to
  play: the discard that leaves the lowest shanten, then the most tiles that lower it (ukeire,
  counting the copies still unseen); riichi as soon as it is tenpai; pon of a value tile
  (dragons, its seat wind, the round wind) when it lowers the shanten; always wins. No defence.

>>> from tenbou.engine.table import play_game
>>> from tenbou.rules import get_rules
>>> agents = [builtin_agent("efficient", seed=1, seat=s) for s in range(4)]
>>> events = play_game(get_rules("tenhou"), seed=3, length="tonpuu", agents=agents)
>>> type(events[-1]).__name__
'EndGame'
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..core.shape import shanten, waits
from ..core.tiles import DRAGONS, HONORS, TERMINALS_AND_HONORS
from ..engine.events import Ankan, Dahai, Event, Hora, Nukidora, Pon, Reach, Ryukyoku
from ..engine.round import Round
from ..engine.table import Agent, GreedyAgent, RandomAgent

__all__ = ["BUILTIN_BOTS", "EfficientAgent", "TsumogiriAgent", "builtin_agent", "derived_seed"]

#: the built-in bots by name
BUILTIN_BOTS = ("random", "greedy", "efficient")


def derived_seed(*parts: object) -> int:
    """A 64-bit seed from a match's seed and what it is for (a game, a hand's wall, a bot), the
    same on every machine and every run (not Python's ``hash``, which varies by process).

    >>> derived_seed(7, "wall", 0, "E", 1, 0) == derived_seed(7, "wall", 0, "E", 1, 0)
    True
    """
    text = "\x1f".join(str(p) for p in parts).encode("utf-8")
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def builtin_agent(name: str, seed: int, seat: int) -> Agent:
    """A built-in bot by name (:data:`BUILTIN_BOTS`), its choices drawn from ``seed`` and its seat."""
    rng = random.Random(derived_seed(seed, "bot", name, seat))
    if name == "random":
        return RandomAgent(rng)
    if name == "greedy":
        return GreedyAgent(rng)
    if name == "efficient":
        return EfficientAgent(rng)
    raise ValueError(f"no built-in bot {name!r} (one of {', '.join(BUILTIN_BOTS)})")


@dataclass
class TsumogiriAgent:
    """Discards the tile it draws (or its first discard after a call), never calls or wins: the
    seat of a bot that committed a game's ``max_faults`` chombos plays so to the end (as mjai.app's
    base ``Bot`` does)."""

    def __call__(self, rnd: Round, seat: int, actions: Sequence[Event]) -> Event | None:
        discards = [a for a in actions if isinstance(a, Dahai)]
        if not discards:
            return None
        return next((d for d in discards if d.tsumogiri), discards[0])


@dataclass
class EfficientAgent:
    """Plays for tile efficiency (see the module docstring); ties are broken by the tile's use
    (honours and terminals go first) and then by ``rng``."""

    rng: random.Random
    #: shanten at or above which nine terminals are declared (the hand is far from a win)
    kyuushu_shanten: int = 3

    def __call__(self, rnd: Round, seat: int, actions: Sequence[Event]) -> Event | None:
        wins = [a for a in actions if isinstance(a, Hora)]
        if wins:
            return wins[0]
        discards = [a for a in actions if isinstance(a, Dahai)]
        if not discards:
            return self._react(rnd, seat, actions)
        st = rnd.seats[seat]
        counts = st.kinds()
        closed = st.closed
        nuki = next((a for a in actions if isinstance(a, Nukidora)), None)
        if nuki is not None:
            return nuki  # a North set aside is a dora for nothing
        if any(isinstance(a, Ryukyoku) for a in actions) and shanten(counts, closed) >= self.kyuushu_shanten:
            return next(a for a in actions if isinstance(a, Ryukyoku))
        reach = next((a for a in actions if isinstance(a, Reach)), None)
        if reach is not None:
            return reach
        unseen = _unseen(rnd, seat)
        best = self._best_discard(discards, counts, closed, rnd.players, unseen)
        for kan in (a for a in actions if isinstance(a, Ankan)):
            after = list(counts)
            after[kan.consumed[0].kind] -= 4
            if shanten(after, closed) <= best[0]:
                return kan
        return best[1]

    def _best_discard(
        self, discards: Sequence[Dahai], counts: list[int], closed: bool, players: int, unseen: list[int]
    ) -> tuple[int, Dahai]:
        """The discard leaving the lowest shanten, then the most ukeire; with its shanten."""
        by_kind: dict[int, list[Dahai]] = {}
        for d in discards:
            by_kind.setdefault(d.pai.kind, []).append(d)
        after: dict[int, int] = {}
        for k in by_kind:
            counts[k] -= 1
            after[k] = shanten(counts, closed)
            counts[k] += 1
        low = min(after.values())
        scored: list[tuple[tuple[int, int], int]] = []
        for k in by_kind:
            if after[k] != low:
                continue
            counts[k] -= 1
            accept = _ukeire(counts, closed, low, players, unseen)
            counts[k] += 1
            scored.append(((accept, _use(counts, k)), k))
        top = max(key for key, _ in scored)
        kinds = [k for key, k in scored if key == top]
        choice = by_kind[kinds[0] if len(kinds) == 1 else self.rng.choice(kinds)]
        # the drawn tile itself where it is one of them (keeps the hand's tiles as they were)
        return low, next((d for d in choice if d.tsumogiri), choice[0])

    def _react(self, rnd: Round, seat: int, actions: Sequence[Event]) -> Event | None:
        """On another's discard: pon a value tile when that lowers the shanten; else pass."""
        st = rnd.seats[seat]
        if st.riichi:
            return None
        value = {*DRAGONS, 27 + (seat - rnd.dealer) % rnd.players, 27 + rnd.round_wind.index}
        for pon in (a for a in actions if isinstance(a, Pon) and a.pai.kind in value):
            counts = st.kinds()
            now = shanten(counts, st.closed)
            counts[pon.pai.kind] -= 2
            best = 99
            for k in range(34):
                if counts[k]:
                    counts[k] -= 1
                    best = min(best, shanten(counts, False))
                    counts[k] += 1
            if best < now:
                return pon
        return None


def _unseen(rnd: Round, seat: int) -> list[int]:
    """The copies of each kind the seat has not seen: four, less its hand, the rivers (a called
    discard counted in its meld), every meld and the dora indicators."""
    left = [4] * 34
    for t in rnd.seats[seat].hand:
        left[t.kind] -= 1
    for st in rnd.seats:
        for d in st.discards:
            if not d.called:
                left[d.tile.kind] -= 1
        for m in st.melds:
            for t in m.tiles:
                left[t.kind] -= 1
    for t in rnd.dora_markers:
        left[t.kind] -= 1
    return [max(0, n) for n in left]


def _ukeire(counts: list[int], closed: bool, current: int, players: int, unseen: list[int]) -> int:
    """How many unseen tiles lower the shanten of the hand ``counts`` (13 tiles less 3 a meld)."""
    if current == 0:
        return sum(unseen[k] for k in waits(counts, closed, players))
    orphans = closed and sum(1 for k in TERMINALS_AND_HONORS if counts[k]) >= 8
    total = 0
    for k in range(34):
        if not unseen[k] or not (_near(counts, k) or (orphans and k in TERMINALS_AND_HONORS)):
            continue
        counts[k] += 1
        if shanten(counts, closed) < current:
            total += unseen[k]
        counts[k] -= 1
    return total


def _near(counts: list[int], k: int) -> bool:
    """Whether a tile of kind ``k`` could join the hand's tiles: one of its kind, or (a suit's) a
    neighbour within two. (Other kinds lower the shanten only towards thirteen orphans, which the
    caller adds for a hand of eight terminals and honours or more.)"""
    if counts[k]:
        return True
    if k in HONORS:
        return False
    n = k % 9
    return any(0 <= n + d <= 8 and counts[k + d] for d in (-2, -1, 1, 2))


def _use(counts: list[int], k: int) -> int:
    """How little a tile of kind ``k`` does for the hand (higher: discard it first): honours and
    terminals, then the tiles with fewer neighbours."""
    if k in HONORS:
        return 3 - counts[k]
    n = k % 9
    near = sum(counts[k + d] for d in (-2, -1, 1, 2) if 0 <= n + d <= 8)
    return (2 if n in (0, 8) else 0) - near
