"""One game of a match: bots at a table, refereed by the engine, a chombo for every fault.

:func:`play_one` plays a :class:`GameSpec` on the self-play table
(:class:`~tenbou.engine.table.Table`, which deals from a shuffled wall, asks each seat among its
legal actions and puts every event through the engine) and returns what happened, as JSON-ready
data: the record (mjai JSON Lines, tenhou.net/6 where asked), the final points and ranks, and each
seat's counts. A built-in bot is an agent of the table; a bot given as a command is a process
(:class:`~tenbou.match.process.BotProcess`) told the game in the mjai.app protocol
(:mod:`tenbou.match.protocol`): started once per game, ``start_game`` first, then at each of its
choices the events since its last answer, ``end_kyoku`` after each hand and ``end_game`` at the
end.

A fault at a choice (:data:`~tenbou.match.protocol.FAULT_KINDS`) is a chombo: the hand stops with
a ``ryukyoku`` of reason ``chombo`` naming the seat, the rules' ``chombo`` settles it, the bot is
stopped and started afresh (``start_game`` again) for its next choice, and the hand is dealt again.
A fault outside a hand (at ``start_game``, ``end_kyoku``, ``end_game``) is counted and the bot
restarted, with no chombo (no hand is in play). A seat whose bot commits ``max_faults`` chombos in
a game is played to its end by :class:`~tenbou.match.bots.TsumogiriAgent`, so that a bot that can
never answer cannot stop the game.

Walls: each hand's wall is shuffled by a seed of the game's and the hand's (round wind, hand
number, honba, and how many times it was dealt again after a chombo), so that a game's seed
decides every wall, and the same hand gets the same wall whoever sits where (``--duplicate``).
"""

from __future__ import annotations

import json
import random
import shlex
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..engine.events import (
    Chi,
    Daiminkan,
    EndGame,
    EndKyoku,
    Event,
    Pon,
    ReachAccepted,
    Ryukyoku,
    StartGame,
    StartKyoku,
    event_to_json,
    events_to_lines,
)
from ..engine.game import Game
from ..engine.round import Round
from ..engine.table import Agent, Table
from ..io.mjai import mjai_records
from ..rules import rules_from_request
from .bots import BUILTIN_BOTS, TsumogiriAgent, builtin_agent, derived_seed
from .process import BotProcess
from .protocol import BotError, message, read_answer

__all__ = ["ChomboError", "GameSpec", "play_one"]

#: how many times the decision timeout a bot has for a message that starts a game or a hand
START_FACTOR: Final = 5


@dataclass(frozen=True, slots=True)
class GameSpec:
    """A game to play: its number in the match, its seed, the bot of each seat (a built-in name or
    a command line) and its name in the record, the rules (a JSON rules value, the game's length
    among them), the decision timeout (seconds), the chombos after which a seat's bot sits out, and
    whether to write tenhou.net/6 too."""

    index: int
    seed: int
    bots: tuple[str, ...]
    names: tuple[str, ...]
    rules: Any
    timeout: float = 2.0
    max_faults: int = 10
    tenhou6: bool = False


class ChomboError(Exception):
    """A seat's fault at a choice: the hand stops with its chombo."""

    def __init__(self, seat: int, fault: BotError) -> None:
        super().__init__(f"seat {seat}: {fault}")
        self.seat = seat
        self.fault = fault


class _Seat:
    """What the referee keeps of a seat through a game: its agent, its bot's process, what it was
    last told, and its faults."""

    def __init__(self, seat: int, bot: str, spec: GameSpec, table_events: list[Event]) -> None:
        self.seat = seat
        self.bot = bot
        self.events = table_events
        self.timeout = spec.timeout
        self.faults: dict[str, int] = {}
        self.chombos = 0
        self.replaced = False
        self.told = 0  # the index of the first event the bot has not been told
        self.process: BotProcess | None = None
        self.agent: Agent
        if bot in BUILTIN_BOTS:
            self.agent = builtin_agent(bot, spec.seed, seat)
        else:
            self.process = BotProcess(shlex.split(bot), seat)
            self.agent = self.decide
        self.names = spec.names

    # -- the protocol ---------------------------------------------------------------------------

    def decide(self, rnd: Round, seat: int, actions: Sequence[Event]) -> Event | None:
        """The bot's choice among ``actions``: told the events since its last answer."""
        process = self.process
        assert process is not None
        try:
            if not process.running:
                self._start()
            batch = self.events[self.told :]
            self.told = len(self.events)
            slow = bool(batch) and isinstance(batch[0], StartKyoku)
            line = process.ask(message(batch, seat), self.timeout * (START_FACTOR if slow else 1))
            return read_answer(line, seat, actions)
        except BotError as fault:
            self._fault(fault)
            raise ChomboError(seat, fault) from None

    def notify(self, obj: dict[str, Any]) -> None:
        """A lone message (``end_kyoku``, ``end_game``): its answer is read and left; a bot not
        running (stopped after a fault) hears of the game again with ``start_game``."""
        process = self.process
        if process is None or not process.running:
            return
        try:
            process.ask(json.dumps([obj], separators=(",", ":")), self.timeout)
        except BotError as fault:
            self._fault(fault)

    def begin(self) -> None:
        """The game begins: the bot is started and told ``start_game``."""
        if self.process is not None:
            try:
                self._start()
            except BotError as fault:
                self._fault(fault)

    def _start(self) -> None:
        process = self.process
        assert process is not None
        process.start()
        start = event_to_json(StartGame(self.names))
        start["id"] = self.seat
        process.ask(
            json.dumps([start], ensure_ascii=False, separators=(",", ":")), self.timeout * START_FACTOR
        )

    def _fault(self, fault: BotError) -> None:
        self.faults[fault.kind] = self.faults.get(fault.kind, 0) + 1
        if self.process is not None:
            self.process.stop()
            self.process.note(f"seat {self.seat} stopped: {fault}")

    def finish(self) -> str | None:
        """The game is over: the bot told so and stopped; what it wrote on standard error (the end
        of it, :data:`~tenbou.match.process.MAX_STDERR` bytes at most)."""
        self.notify({"type": "end_game"})
        if self.process is None:
            return None
        self.process.stop(polite=True)
        return self.process.stderr_text()


class _Match:
    """A game at the table: the seats, the hands dealt again, the chombos."""

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        rules = rules_from_request(spec.rules)
        players = len(spec.bots)
        self.table = Table(rules, spec.seed, players, check=self._seen)
        self.seats = [_Seat(s, bot, spec, self.table.events) for s, bot in enumerate(spec.bots)]
        self.table.agents = [seat.agent for seat in self.seats]
        self.redeals: dict[tuple[str, int, int], int] = {}

    def _seen(self, table: Table) -> None:
        """Each event as the table emits it: a hand's start is where the bots' next message
        begins; its end is told to each."""
        event = table.events[-1]
        if isinstance(event, StartKyoku):
            for seat in self.seats:
                seat.told = len(table.events) - 1
        elif isinstance(event, EndKyoku):
            for seat in self.seats:
                seat.notify({"type": "end_kyoku"})

    def play(self) -> None:
        table = self.table
        game = table.game
        table.emit(StartGame(self.spec.names))
        for seat in self.seats:
            seat.begin()
        while not (game.ended or game.may_end):
            wind, kyoku, honba, *_ = game.expected_start()
            key = (wind.value, kyoku, honba)
            table.rng = random.Random(derived_seed(self.spec.seed, "wall", *key, self.redeals.get(key, 0)))
            try:
                table.play_hand()
            except ChomboError as fault:
                self.redeals[key] = self.redeals.get(key, 0) + 1
                self._chombo(fault.seat)
        table.emit(EndGame())

    def _chombo(self, offender: int) -> None:
        """Stop the hand with ``offender``'s chombo (its settled deltas written into it)."""
        table = self.table
        table.emit(Ryukyoku(reason="chombo", actor=offender))
        at = len(table.events) - 1
        table.emit(EndKyoku())
        table.events[at] = Ryukyoku(reason="chombo", deltas=table.game.hands[-1].deltas, actor=offender)
        seat = self.seats[offender]
        seat.chombos += 1
        if seat.chombos >= self.spec.max_faults and not seat.replaced:
            seat.replaced = True
            table.agents[offender] = TsumogiriAgent()


def play_one(spec: GameSpec) -> dict[str, Any]:
    """Play the game ``spec`` and return what happened (see the module docstring): ``index``,
    ``seed``, ``bots`` and ``names`` by seat, ``points``, ``ranks`` (1 first, by seat),
    ``final_scores`` (with uma, oka and chombo penalties), ``hands`` (those that counted),
    ``seats`` (each seat's counts), ``mjai`` (the record), ``tenhou6`` (or ``None``), ``stderr``
    (each external bot's, else ``None``) and ``seconds``."""
    began = time.monotonic()
    match = _Match(spec)
    try:
        match.play()
    finally:
        stderr = [seat.finish() for seat in match.seats]
    table = match.table
    final = table.game.final
    assert final is not None
    lines = events_to_lines(table.events)
    start = json.loads(lines[0])
    start["tenbou_rules"] = spec.rules
    lines[0] = json.dumps(start, ensure_ascii=False, separators=(",", ":"))
    mjai = "\n".join(lines) + "\n"
    tenhou6 = None
    if spec.tenhou6:
        from ..verify import write_records

        tenhou6 = write_records(mjai_records(mjai, f"game {spec.index}"), "tenhou6").decode("utf-8")
    ranks = [0] * len(spec.bots)
    for place, seat in enumerate(final.ranking):
        ranks[seat] = place + 1
    return {
        "index": spec.index,
        "seed": spec.seed,
        "bots": list(spec.bots),
        "names": list(spec.names),
        "points": list(final.points),
        "ranks": ranks,
        "final_scores": list(final.final_scores),
        "hands": sum(1 for h in table.game.hands if h.kind != "chombo"),
        "seats": _counts(table.game, table.events, match.seats),
        "mjai": mjai,
        "tenhou6": tenhou6,
        "stderr": stderr,
        "seconds": time.monotonic() - began,
    }


def _counts(game: Game, events: Sequence[Event], seats: Sequence[_Seat]) -> list[dict[str, Any]]:
    """Each seat's counts over the hands that counted: wins, deal-ins, riichi, hands with a call,
    pao (as the liable seat); and its chombos, faults by kind, whether it sat the end out."""
    n = len(seats)
    out: list[dict[str, Any]] = []
    for s in seats:
        counts: dict[str, Any] = dict.fromkeys(("wins", "deal_ins", "riichi", "calls", "pao"), 0)
        counts.update(chombos=s.chombos, faults=dict(sorted(s.faults.items())), replaced=s.replaced)
        out.append(counts)
    hand = -1
    called: set[int] = set()
    riichi: list[int] = []
    for ev in events:
        if isinstance(ev, StartKyoku):
            hand += 1
            called, riichi = set(), []
        elif isinstance(ev, Chi | Pon | Daiminkan):
            called.add(ev.actor)
        elif isinstance(ev, ReachAccepted):
            riichi.append(ev.actor)
        elif isinstance(ev, EndKyoku) and hand < len(game.hands):
            record = game.hands[hand]
            if record.kind == "chombo":
                continue
            for seat in called:
                out[seat]["calls"] += 1
            for seat in riichi:
                out[seat]["riichi"] += 1
            dealt_in: set[int] = set()
            outcome = record.outcome
            assert outcome is not None  # (the engine's hands keep their typed settlement)
            for result in outcome.results:
                win = result.score.situation
                out[win.winner]["wins"] += 1
                if win.discarder is not None and win.discarder != win.winner:
                    dealt_in.add(win.discarder)
                for liability in result.pao:
                    if 0 <= liability.seat < n:
                        out[liability.seat]["pao"] += 1
            for seat in dealt_in:
                out[seat]["deal_ins"] += 1
    return out
