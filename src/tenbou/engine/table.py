"""Self-play: a table that deals from a real shuffled wall, asks agents what to
do among the legal actions, and writes the game as events.

Every event goes through a :class:`~tenbou.engine.game.Game` (which validates it), so
a game played here is a legal game by tenbou's own referee. Used by the tests
(thousands of games with fixed seeds, invariants after every event) and as a
way to produce mjai records.

>>> events = play_game(get_rules("tenhou"), seed=1, length="tonpuu")
>>> type(events[0]).__name__, type(events[-1]).__name__
('StartGame', 'EndGame')
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from ..core._native import mypyc_attr
from ..core.tiles import Tile, tile_set
from ..errors import TenbouError
from ..rules import Rules, get_rules
from .bots import Agent, GreedyAgent, RandomAgent
from .draws import ABORT_REASONS
from .events import (
    Ankan,
    Chi,
    Dahai,
    Daiminkan,
    Dora,
    EndGame,
    EndKyoku,
    Event,
    Hora,
    Kakan,
    Nukidora,
    Pon,
    Reach,
    ReachAccepted,
    Ryukyoku,
    StartGame,
    StartKyoku,
    Tsumo,
)
from .game import Game
from .round import Round

__all__ = ["Agent", "GreedyAgent", "RandomAgent", "Table", "play_game", "wall_tiles"]


def wall_tiles(rules: Rules, players: int) -> list[Tile]:
    """Every tile of the set: 136 (or 108 without 2m-8m for three players), red fives by ``red_fives``."""
    plain, red = tile_set(rules.red_fives, players)
    out: list[Tile] = []
    for k in range(34):
        if red[k]:
            out.extend([Tile(k, True)] * red[k])
        out.extend([Tile(k)] * plain[k])
    return out


@mypyc_attr(allow_interpreted_subclasses=True)  # (a user's table may extend it)
@dataclass
class Table:
    """A game in play: the wall, the referee (:class:`Game`), the agents and the log."""

    rules: Rules
    seed: int
    players: int = 4
    length: str | None = None
    agents: list[Agent] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    check: Callable[[Table], None] | None = None

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.game = Game(self.rules, self.players, length=self.length)
        if not self.agents:
            self.agents = [RandomAgent(random.Random(self.seed * 31 + i)) for i in range(self.players)]
        self.live: list[Tile] = []
        self.dead: list[Tile] = []
        self.rinshan_drawn = 0
        self.dora_shown = 0

    def emit(self, event: Event) -> None:
        self.game.apply(event, len(self.events))
        self.events.append(event)
        if self.check is not None:
            self.check(self)

    @property
    def round(self) -> Round:
        assert self.game.round is not None
        return self.game.round

    def play(self) -> list[Event]:
        self.emit(StartGame(tuple(f"bot{i}" for i in range(self.players))))
        while not (self.game.ended or self.game.may_end):  # an optional yame: the dealer stops
            self.play_hand()
        self.emit(EndGame())
        return self.events

    # -- one hand ---------------------------------------------------------------------------------

    def play_hand(self) -> None:
        n = self.players
        tiles = wall_tiles(self.rules, n)
        self.rng.shuffle(tiles)
        self.dead, self.live = tiles[:14], tiles[14:]
        self.rinshan_drawn = 0
        self.dora_shown = 1
        hands = [self.live[13 * i : 13 * i + 13] for i in range(n)]
        self.live = self.live[13 * n :]
        wind, kyoku, honba, sticks, dealer, scores = self.game.expected_start()
        self.emit(
            StartKyoku(
                wind, self._indicator(0), kyoku, honba, sticks, dealer, scores, tuple(map(tuple, hands))
            )
        )
        actor = dealer
        rinshan = False
        owed_dora = 0  # open-kan dora to show after the kan player's discard
        while True:
            if rinshan:
                i = self.rinshan_drawn
                tile = self.dead[i] if i < 4 else self.dead[14 + i - 4]
                self.rinshan_drawn += 1
                if self.live:  # the dead wall takes the last live tile to keep fourteen
                    self.dead.append(self.live.pop())
            else:
                tile = self.live.pop(0)
            self.emit(Tsumo(actor, tile))
            rinshan = False
            # -- the drawer acts
            ended, next_actor, rinshan, owed_dora = self._act(actor, owed_dora)
            if ended:
                break
            if next_actor is not None:
                actor = next_actor
        self.emit(EndKyoku())
        self._record_deltas()

    def _record_deltas(self) -> None:
        """Write the settled score changes into the hand's hora/ryukyoku events,
        as a server's record carries them."""
        hand = self.game.hands[-1] if self.game.hands else None
        if hand is None:
            return
        # (the typed settlement the engine keeps for the hand it just played: its JSON is made only
        # when asked for)
        outcome = hand.outcome
        assert outcome is not None
        per_winner = {w.score.situation.winner: w.deltas for w in outcome.results}
        for i in range(len(self.events) - 1, -1, -1):
            ev = self.events[i]
            if isinstance(ev, StartKyoku):
                break
            if isinstance(ev, Hora):
                self.events[i] = Hora(ev.actor, ev.target, ev.pai, ev.ura_markers, per_winner.get(ev.actor))
            elif isinstance(ev, Ryukyoku):
                self.events[i] = Ryukyoku(ev.reason, ev.tenpais, hand.deltas)

    def _indicator(self, i: int) -> Tile:
        return self.dead[4 + 2 * i]

    def _ura(self, count: int) -> tuple[Tile, ...]:
        return tuple(self.dead[5 + 2 * i] for i in range(count))

    def _show_dora(self) -> None:
        if self.rules.kan_dora and self.dora_shown < 5:
            self.emit(Dora(self._indicator(self.dora_shown)))
            self.dora_shown += 1

    def _hora(self, ev: Hora) -> Hora:
        seat = ev.actor
        ura = self._ura(self.dora_shown) if self.round.seats[seat].riichi_accepted else None
        return Hora(ev.actor, ev.target, ev.pai, ura)

    def _act(self, actor: int, owed_dora: int) -> tuple[bool, int | None, bool, int]:
        """The drawer's turn, then the others' reactions. Returns (hand over,
        next drawer, whether the next draw is from the dead wall, dora owed)."""
        rnd = self.round
        agent = self.agents[actor]
        while True:
            actions = rnd.legal_actions(actor)
            choice = agent(rnd, actor, actions)
            if choice is None:
                choice = next(a for a in actions if isinstance(a, Dahai))
            if isinstance(choice, Hora):
                self.emit(self._hora(choice))
                return True, None, False, owed_dora
            if isinstance(choice, Ryukyoku):
                self.emit(choice)
                return True, None, False, owed_dora
            if isinstance(choice, Reach):
                self.emit(choice)
                continue
            if isinstance(choice, (Ankan, Kakan)):
                if owed_dora:
                    self._show_dora()
                    owed_dora = 0
                self.emit(choice)
                if isinstance(choice, Kakan):
                    robbers = self._robbers(actor)
                    if robbers:
                        for h in robbers:
                            self.emit(self._hora(h))
                        return True, None, False, owed_dora
                if isinstance(choice, Ankan) or self.rules.kan_dora_timing == "immediate":
                    self._show_dora()
                else:
                    owed_dora += 1
                if isinstance(choice, Ankan) and self.rules.kokushi_ankan_chankan:
                    robbers = self._robbers(actor)
                    if robbers:
                        for h in robbers:
                            self.emit(self._hora(h))
                        return True, None, False, owed_dora
                return False, actor, True, owed_dora
            if isinstance(choice, Nukidora):
                self.emit(choice)
                robbers = self._robbers(actor)
                if robbers:
                    for h in robbers:
                        self.emit(self._hora(h))
                    return True, None, False, owed_dora
                return False, actor, True, owed_dora
            assert isinstance(choice, Dahai)
            declared = rnd.seats[actor].riichi and not rnd.seats[actor].riichi_accepted
            self.emit(choice)
            if owed_dora:
                for _ in range(owed_dora):
                    self._show_dora()
                owed_dora = 0
            return self._react(actor, declared)

    def _robbers(self, actor: int) -> list[Hora]:
        out = []
        for seat in self._order_after(actor):
            acts = self.round.legal_actions(seat)
            wins = [a for a in acts if isinstance(a, Hora)]
            if wins and self.agents[seat](self.round, seat, acts) is not None:
                out.append(wins[0])
        return out

    def _order_after(self, seat: int) -> list[int]:
        return [(seat + i) % self.players for i in range(1, self.players)]

    def _react(self, discarder: int, declared: bool) -> tuple[bool, int | None, bool, int]:
        rnd = self.round
        wins: list[Hora] = []
        calls: list[Event] = []
        for seat in self._order_after(discarder):
            acts = rnd.legal_actions(seat)
            if not acts:
                continue
            choice = self.agents[seat](rnd, seat, acts)
            if isinstance(choice, Hora):
                wins.append(choice)
            elif choice is not None:
                calls.append(choice)
        if wins:
            # a ron comes before a call: the fourth kan's deal-in (a hora too) ends the hand alone
            rons = [h for h in wins if h.pai is None or not rnd.fourth_kan_deal_in(h.actor, h.pai)]
            wins = rons or wins[:1]
            if len(wins) >= 3 and self.rules.multiple_ron == "double":
                self.emit(Ryukyoku(reason="sanchaho"))  # a triple ron aborts the hand
            else:
                for h in wins[:1] if self.rules.multiple_ron == "atamahane" else wins:
                    self.emit(self._hora(h))
            return True, None, False, 0
        if declared:
            self.emit(ReachAccepted(discarder))
            if "suucha_riichi" in self.rules.abortive_draws and rnd.abort_holds("suucha_riichi"):
                self.emit(Ryukyoku(reason="suuchariichi"))
                return True, None, False, 0
        reason = self._abort_after_discard()
        if reason is not None:
            self.emit(Ryukyoku(reason=reason))
            return True, None, False, 0
        if not rnd.live_wall:
            self.emit(Ryukyoku(reason="fanpai"))
            return True, None, False, 0
        calls.sort(key=lambda c: 0 if isinstance(c, (Pon, Daiminkan)) else 1)
        if calls:
            call = calls[0]
            self.emit(call)
            assert isinstance(call, (Chi, Pon, Daiminkan))
            if isinstance(call, Daiminkan):
                owed = 0
                if self.rules.kan_dora_timing == "immediate":
                    self._show_dora()
                else:
                    owed = 1
                return False, call.actor, True, owed
            # the caller discards without drawing
            ended, nxt, rinshan, owed = self._act(call.actor, 0)
            if ended:
                return True, None, False, owed
            return False, nxt, rinshan, owed
        return False, (discarder + 1) % self.players, False, 0

    def _abort_after_discard(self) -> str | None:
        """The mjai reason of an abortive draw the discard just made brings, where the rules play it."""
        for reason in ("suukaikan", "suufon_renda"):
            if reason in self.rules.abortive_draws and self.round.abort_holds(reason):
                return ABORT_REASONS[reason]
        return None


def play_game(
    rules: Rules | None = None,
    seed: int = 0,
    players: int = 4,
    length: str | None = None,
    agents: list[Agent] | None = None,
    check: Callable[[Table], None] | None = None,
) -> list[Event]:
    """Play one whole game with random agents (or ``agents``) and return its events."""
    table = Table(rules or get_rules("tenhou"), seed, players, length, agents or [], check=check)
    try:
        return table.play()
    except TenbouError as e:
        raise type(e)(f"self-play seed {seed}: {e}", e.code) from None
