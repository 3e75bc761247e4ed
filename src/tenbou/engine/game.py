"""A whole game fed by events: scores carried over, renchan and honba, the end
of the game and the final ranking with uma and oka.

:class:`Game` reads ``start_game``, then each hand's events (given to a
:class:`~tenbou.engine.round.Round`), and ``end_game``. It knows what the next
``start_kyoku`` must say (dealer, round wind, hand number, honba, sticks,
scores) and checks it; it ends the game by the rules (``length``, ``tobi``,
``west_round``, ``agari_yame``, ``tenpai_yame``) and ranks the players with ``uma`` and the
oka (the return points above the start points, to the top), the riichi sticks
left on the table going to the top or being lost (``leftover_sticks``). A hand stopped by a
chombo does not count: the same hand is dealt again (the game ends there only when somebody has
fallen below zero under ``tobi``), and under ``chombo = "final_score"`` each chombo takes
``chombo_points`` from its offender's final score.

>>> from tenbou.rules import get_rules
>>> g = Game(get_rules("tenhou"))
>>> g.expected_start()
(<Wind.EAST: 'E'>, 1, 0, 0, 0, (25000, 25000, 25000, 25000))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeAlias, TypeVar

from ..core._native import mypyc_attr
from ..core.tiles import Wind
from ..core.values import DataRecord, Record
from ..errors import IllegalEventError
from ..rules import Rules
from ..settle.payment import PaymentKind, Settlement, chombo_penalties
from ..settle.results import settlement_to_dict
from .events import EndGame, EndKyoku, Event, StartGame, StartKyoku, event_name
from .plans import RoundPlan
from .referee import Problems, Referee
from .round import Round, RoundResult, start_problems

__all__ = ["FinalResult", "Game", "HandRecord"]


class HandRecord(Record):
    """One hand as it ended: where it was played (``game_hand``, its index in the game; the round
    wind, hand number and honba), how it ended (``kind``: ``win``, ``exhaustive_draw`` or
    ``abortive_draw``) and what it paid: ``deltas``, and ``outcome``, the typed settlement (who won,
    each win's score, liabilities and payments, the next hand: a
    :class:`~tenbou.settle.payment.Settlement`). :attr:`settlement` is its JSON, ``settle``'s
    output of docs/json-api.md, made when first asked for. ``request`` is the settle request that
    reproduces the hand (``None`` for a draw played event by event), ``recorded_deltas`` the score
    changes the record gave it (``None`` where it gave none).

    A hand record pickled by tenbou 0.1 kept the JSON alone: it loads with ``outcome`` ``None``
    and the JSON as its :attr:`settlement`.

    >>> from tenbou.api import settle_request
    >>> draw = settle_request({"draw": {"kind": "exhaustive", "tenpai": [2]}})
    >>> hr = HandRecord(0, Wind.EAST, 1, 0, draw.kind, draw.deltas, draw, None, None)
    >>> hr.outcome.next.dealer, hr.settlement["next"]["dealer"], hr.match
    (1, 1, None)
    """

    _fields = (
        "game_hand", "round_wind", "number", "honba", "kind", "deltas", "outcome", "request",
        "recorded_deltas",
    )  # fmt: skip
    __slots__ = (*_fields, "_settlement")

    def __init__(
        self,
        game_hand: int,
        round_wind: Wind,
        number: int,
        honba: int,
        kind: str,
        deltas: tuple[int, ...],
        outcome: Settlement | dict[str, Any],
        request: dict[str, Any] | None,
        recorded_deltas: tuple[int, ...] | None,
    ) -> None:
        typed: Settlement | None = None
        kept: dict[str, Any] | None = None
        if isinstance(outcome, dict):  # (a hand record of tenbou 0.1: the settlement's JSON)
            kept = outcome
        else:
            typed = outcome
        self.game_hand: Final = game_hand
        self.round_wind: Final = round_wind
        self.number: Final = number
        self.honba: Final = honba
        self.kind: Final = kind
        self.deltas: Final = deltas
        self.outcome: Final = typed
        self.request: Final = request
        self.recorded_deltas: Final = recorded_deltas
        #: the JSON of the settlement, once made (or all a record of tenbou 0.1 holds)
        self._settlement: dict[str, Any] | None = kept

    def _values(self) -> tuple[object, ...]:
        # (what pickles and copies rebuild a record from, and what it compares by: the typed
        # settlement, or the JSON that a record of tenbou 0.1 holds in its place)
        outcome: object = self._settlement if self.outcome is None else self.outcome
        return (
            self.game_hand, self.round_wind, self.number, self.honba, self.kind, self.deltas, outcome,
            self.request, self.recorded_deltas,
        )  # fmt: skip

    def _replace(self: _Hand, **changes: Any) -> _Hand:
        values = dict(zip(self._fields, self._values(), strict=True))
        values.update(changes)
        return super()._replace(**values)

    @property
    def settlement(self) -> dict[str, Any]:
        """The hand's settlement as JSON: ``settle``'s output of docs/json-api.md (payments by kind,
        deltas, the next hand, the liable seats of each win), made when first asked for."""
        made = self._settlement
        if made is None:
            assert self.outcome is not None
            made = self._settlement = settlement_to_dict(self.outcome)
        return made

    @property
    def offender(self) -> int | None:
        """The seat whose chombo stopped the hand (``None`` for any other hand end)."""
        if self.outcome is not None:
            return self.outcome.offender
        offender = self.settlement.get("offender")
        return offender if isinstance(offender, int) else None

    @property
    def match(self) -> bool | None:
        """Whether tenbou's deltas equal the record's (``None`` where the record has none)."""
        return None if self.recorded_deltas is None else tuple(self.recorded_deltas) == self.deltas

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "hand": self.game_hand,
            "round": self.round_wind.value,
            "number": self.number,
            "honba": self.honba,
            "kind": self.kind,
            "deltas": list(self.deltas),
            "results": self.settlement["results"],
        }
        offender = self.offender
        if offender is not None:  # a chombo stopped the hand: whose
            out["offender"] = offender
        if self.recorded_deltas is not None:
            out["recorded_deltas"] = list(self.recorded_deltas)
            out["match"] = self.match
        return out


_Hand = TypeVar("_Hand", bound=HandRecord)


@dataclass(frozen=True, slots=True)
class FinalResult(DataRecord):
    """The end of the game: final points per seat, the ranking (seats, first
    to last) and the final scores with uma and oka, in thousands."""

    points: tuple[int, ...]
    ranking: tuple[int, ...]
    final_scores: tuple[float, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "points": list(self.points),
            "ranking": list(self.ranking),
            "final_scores": list(self.final_scores),
        }


_GAME_EVENTS = frozenset({StartGame, StartKyoku, EndGame})
#: what checking an event of the game finds for its apply: the plan of an event of a hand
#: (:mod:`tenbou.engine.plans`), the end of the game for ``end_game``, nothing for the starts
GamePlan: TypeAlias = RoundPlan | FinalResult


@mypyc_attr(allow_interpreted_subclasses=True)
class Game(Referee):
    """A game followed event by event (see the module docstring)."""

    def __init__(
        self,
        rules: Rules,
        players: int | None = None,
        *,
        length: str | None = None,
        strict: bool = True,
        check_starts: bool = True,
    ) -> None:
        self.rules = rules
        self.players = players or rules.players[0]
        if self.players not in rules.players:
            raise IllegalEventError(
                f"these rules are played by {' or '.join(map(str, rules.players))} players"
            )
        self.length = length or rules.length
        self.strict = strict
        self.check_starts = check_starts
        start = rules.start_points if self.players == 4 else rules.sanma_start_points
        self.start_points = start
        self.scores = [start] * self.players
        self.dealer = 0
        self.wind_index = 0
        self.kyoku = 1
        self.honba = 0
        self.kyotaku = 0
        self.round: Round | None = None
        self.hands: list[HandRecord] = []
        self.ended = False
        #: the game may end after the last hand or go on (an optional yame): both are accepted
        self.may_end = False
        #: the game's end_game came where its rules play on (a record cut short, or ended by hand)
        self.ended_early = False
        self.final: FinalResult | None = None
        self.errors: list[str] = []
        self.index = 0
        self.started = False

    def expected_start(self) -> tuple[Wind, int, int, int, int, tuple[int, ...]]:
        """(round wind, hand number, honba, riichi sticks, dealer, scores) of the next hand."""
        return (
            Wind.of_index(self.wind_index),
            self.kyoku,
            self.honba,
            self.kyotaku,
            self.dealer,
            tuple(self.scores),
        )

    def apply_checked(self, event: Event, plan: GamePlan) -> None:
        if isinstance(plan, FinalResult):  # (end_game's plan, and only its)
            self.ended_early = not (self.ended or self.may_end)
            self._finish(plan)
            return
        cls = type(event)
        if cls in _GAME_EVENTS:
            if isinstance(event, StartGame):
                self.started = True
            elif isinstance(event, StartKyoku):
                self._start(event)
            return
        assert self.round is not None
        self.round.apply_checked(event, plan)
        if cls is EndKyoku:
            self._end_hand()

    def check_event(self, event: Event, p: Problems) -> GamePlan:
        """The game's own checks, then the round's for an event of a hand."""
        rnd = self.round
        if self.final is not None:
            p.hard(f"{event_name(event)} after end_game")
        if rnd is not None and type(event) not in _GAME_EVENTS:
            return rnd.check_event(event, p)
        if isinstance(event, StartGame):
            if self.started:
                p.hard("start_game twice")
            if rnd is not None:
                p.hard("start_game after the first hand")
            return None
        if isinstance(event, StartKyoku):
            if self.ended:
                p.hard("start_kyoku after the game has ended")
            if rnd is not None and not rnd.closed:
                p.hard(
                    "start_kyoku before the previous hand ended (no end_kyoku)"
                    if rnd.result is not None
                    else "start_kyoku before the previous hand ended (no hora or ryukyoku)"
                )
            for problem, hard in start_problems(self.rules, event, self.players):
                if hard:
                    p.hard(problem)
                p.soft(problem)
            if self.check_starts and self.hands:
                expected = self.expected_start()
                got = (event.bakaze, event.kyoku, event.honba, event.kyotaku, event.oya, tuple(event.scores))
                if got != expected:
                    names = ("round wind", "hand number", "honba", "riichi sticks", "dealer", "scores")
                    diffs = [
                        f"{n} {g!r} (expected {e!r})"
                        for n, g, e in zip(names, got, expected, strict=True)
                        if g != e
                    ]
                    p.soft("start_kyoku: " + ", ".join(diffs))
            return None
        if isinstance(event, EndGame):
            if rnd is not None and rnd.result is None:
                p.hard("end_game inside a hand")
            if rnd is not None and not rnd.closed:
                p.hard("end_game before the hand's end_kyoku")
            final = self._final()
            if event.scores is not None:
                if len(event.scores) != self.players:
                    p.hard(f"end_game.scores: {len(event.scores)} scores for {self.players} players")
                if tuple(event.scores) != final.points:
                    p.soft(f"end_game: scores {list(event.scores)} differ from tenbou's {list(final.points)}")
            return final
        if rnd is None:
            p.hard(f"{event_name(event)} before start_kyoku (an event of a hand)")
        return rnd.check_event(event, p)

    def _start(self, ev: StartKyoku) -> None:
        self.round = Round(self.rules, ev, strict=self.strict, index=self.index)
        self.dealer, self.kyoku, self.honba, self.kyotaku = ev.oya, ev.kyoku, ev.honba, ev.kyotaku
        self.wind_index = ev.bakaze.index
        self.scores = list(ev.scores)

    def _end_hand(self) -> None:
        rnd = self.round
        assert rnd is not None
        result: RoundResult | None = rnd.result
        if result is None:
            return
        self._record(result.settlement, [s.score for s in rnd.seats], result.request, result.recorded_deltas)

    def record_settlement(
        self, settlement: Settlement, request: dict[str, Any] | None = None, *, riichi: Sequence[int] = ()
    ) -> HandRecord:
        """Record the end of a hand settled outside an event stream (a score sheet: a
        :func:`~tenbou.api.settle_request` of the hand's end), as an ``end_kyoku`` records a
        hand played event by event: the scores (less a riichi stick from each seat of
        ``riichi``, the players who declared riichi in this hand), the next dealer, honba and
        sticks, the end of the game by the rules and, when it ends, :attr:`final`.

        The settlement must be of the hand the game expects: its dealer, and the riichi sticks
        it paid out or carried must be those on the table (:meth:`expected_start`'s, plus one
        for each seat of ``riichi``); with ``request`` (the settle request, kept in the hand's
        :class:`HandRecord`) its ``dealer``, ``round_wind``, ``honba`` and ``riichi_sticks``
        too. Anything else raises :class:`~tenbou.errors.IllegalEventError`, the game
        unchanged.

        >>> from tenbou.api import settle_request
        >>> from tenbou.rules import get_rules
        >>> g = Game(get_rules("tenhou"))
        >>> draw = {"dealer": 0, "riichi_sticks": 1, "draw": {"kind": "exhaustive", "tenpai": [2]}}
        >>> g.record_settlement(settle_request(draw), draw, riichi=[2]).deltas
        (-1000, -1000, 3000, -1000)
        >>> g.scores, g.expected_start()[:5]
        ([24000, 24000, 27000, 24000], (<Wind.EAST: 'E'>, 2, 1, 1, 1))
        """
        n = self.players
        if self.started and self.round is not None and not self.round.closed:
            raise IllegalEventError("a hand is being played event by event (no end_kyoku yet)")
        if self.ended or self.final is not None:
            raise IllegalEventError("the game has ended: no more hands")
        if len(settlement.deltas) != n:
            raise IllegalEventError(f"the settlement is for {len(settlement.deltas)} players, not {n}")
        declared = list(riichi)
        for seat in declared:
            if type(seat) is not int or not 0 <= seat < n:
                raise IllegalEventError(f"riichi: {seat!r} is not a seat 0..{n - 1}")
        if len(set(declared)) != len(declared):
            raise IllegalEventError("riichi: a seat is listed twice")
        for result in settlement.results:
            s = result.score.situation
            if (s.riichi or s.double_riichi) and s.winner not in declared:
                raise IllegalEventError(f"riichi: the winner {s.winner} won with riichi but is not listed")
        stick = self.rules.riichi_stick_points
        expected_sticks = self.kyotaku + len(declared)
        paid = sum(p.points for p in settlement.payments if p.kind is PaymentKind.RIICHI_STICKS)
        sticks = settlement.next.riichi_sticks + (paid // stick if stick else 0)
        dealers = {r.score.situation.dealer for r in settlement.results}
        if settlement.kind != "win" and settlement.next.dealer not in (self.dealer, (self.dealer + 1) % n):
            dealers.add(-1)
        problems = []
        if dealers - {self.dealer}:
            problems.append(f"dealer: the hand's dealer is seat {self.dealer}")
        if stick and sticks != expected_sticks:
            problems.append(
                f"riichi_sticks: {expected_sticks} on the table ({self.kyotaku} carried, "
                f"{len(declared)} declared in this hand), not {sticks}"
            )
        if request is not None:
            wind, _, honba, _, dealer, _ = self.expected_start()
            given = (
                ("dealer", request.get("dealer", 0), dealer),
                ("round_wind", request.get("round_wind", "E"), wind.value),
                ("honba", request.get("honba", 0), honba),
                ("riichi_sticks", request.get("riichi_sticks", 0), expected_sticks),
            )
            problems.extend(
                f"{name}: {want!r} in this hand, not {got!r}" for name, got, want in given if got != want
            )
        if problems:
            raise IllegalEventError("not the hand the game expects: " + "; ".join(dict.fromkeys(problems)))
        scores = list(self.scores)
        for seat in declared:
            scores[seat] -= stick
        scores = [a + b for a, b in zip(scores, settlement.deltas, strict=True)]
        record = self._record(settlement, scores, request, None)
        if self.ended:
            self._finish(self._final())
        return record

    def _record(
        self,
        st: Settlement,
        scores: list[int],
        request: dict[str, Any] | None,
        recorded_deltas: tuple[int, ...] | None,
    ) -> HandRecord:
        """The end of a hand, however it was played: its record, the scores after it, the next
        dealer, honba and sticks, and whether the game ends (:meth:`_over`)."""
        record = HandRecord(
            game_hand=len(self.hands),
            round_wind=Wind.of_index(self.wind_index),
            number=self.kyoku,
            honba=self.honba,
            kind=st.kind,
            deltas=st.deltas,
            outcome=st,
            request=request,
            recorded_deltas=recorded_deltas,
        )
        self.hands.append(record)
        self.scores = scores
        nxt = st.next
        dealer_keeps = nxt.dealer == self.dealer
        self.honba, self.kyotaku = nxt.honba, nxt.riichi_sticks
        over = self._over(st.kind, dealer_keeps)
        self.may_end = over is None
        if over:
            self.ended = True
            return record
        if not dealer_keeps:
            self.dealer = nxt.dealer
            self.kyoku += 1
            if self.kyoku > self.players:
                self.kyoku = 1
                self.wind_index += 1
        return record

    def _over(self, kind: str, dealer_keeps: bool) -> bool | None:
        """Whether the game ends after the hand just played (``kind`` as in a
        settlement): ``True``, ``False``, or ``None`` where it may end or go on
        (``tenpai_yame = "optional"``)."""
        n = self.players
        return_points = self.rules.return_points if n == 4 else self.rules.sanma_return_points
        if self.rules.tobi and min(self.scores) < 0:
            return True
        if kind == "chombo":  # the hand does not count: it is dealt again
            return False
        last = 0 if self.length == "tonpuu" else 1
        extension = self.wind_index > last
        if not extension and not (self.wind_index == last and self.kyoku == n):
            return False  # before all-last
        top = max(self.scores)
        # the game can end here: somebody has the return points, or there is no extension to play
        can_end = top >= return_points or not (self.rules.west_round or extension)
        if dealer_keeps:  # only the dealer's win or tenpai while first ends it (yame)
            if not can_end or self._ranking()[0] != self.dealer:
                return False
            if kind == "win":
                return self.rules.agari_yame
            if kind == "exhaustive_draw":
                yame = self.rules.tenpai_yame
                return None if yame == "optional" else yame == "auto"
            return False  # an abortive draw: the dealer plays on
        if extension:  # sudden death, and the extension's last hand ends it
            return can_end or self.kyoku == n
        return can_end

    def _ranking(self) -> list[int]:
        """Seats by points, ties to the seat nearer the first dealer (seat 0)."""
        return sorted(range(self.players), key=lambda s: (-self.scores[s], s))

    def _final(self) -> FinalResult:
        """The end of the game if it ended now: leftover sticks, the ranking, uma and oka."""
        n = self.players
        points = list(self.scores)
        ranking = self._ranking()
        if self.kyotaku and self.rules.leftover_sticks == "to_top":
            points[ranking[0]] += self.kyotaku * self.rules.riichi_stick_points
        return_points = self.rules.return_points if n == 4 else self.rules.sanma_return_points
        uma = self.rules.uma if n == 4 else self.rules.sanma_uma
        oka = (return_points - self.start_points) * n / 1000
        chombos = [0] * n
        for hand in self.hands:
            offender = hand.offender
            if hand.kind == "chombo" and offender is not None and 0 <= offender < n:
                chombos[offender] += 1
        penalties = chombo_penalties(self.rules, chombos)
        final = [0.0] * n
        for rank, seat in enumerate(ranking):
            final[seat] = round(
                (points[seat] - return_points) / 1000
                + uma[rank]
                + (oka if rank == 0 else 0)
                + penalties[seat],
                1,
            )
        return FinalResult(tuple(points), tuple(ranking), tuple(final))

    def _finish(self, final: FinalResult) -> None:
        if self.kyotaku and self.rules.leftover_sticks == "to_top":
            self.kyotaku = 0
        self.final = final
        self.ended = True
