"""A round (kyoku) followed event by event: its state, validation, and its end.

:class:`Round` takes the events of one hand (from ``start_kyoku`` to
``end_kyoku``) and keeps everything a referee needs: hands, rivers, melds in
call order, the live and dead wall, dora indicators, riichi and ippatsu,
furiten (permanent, temporary and riichi), kuikae, the first go-around,
haitei and houtei, rinshan draws and the daiminkan they follow, chankan, the
abortive draws, and the exhaustive draw with tenpai and nagashi; under
``suukantsu_pao_timing = "fourth_kan"``, the daiminkan that makes a player's
fourth kan ends the hand as a suukantsu dealt in by the discarder. Every tile
that comes into sight (the hands dealt, draws, dora and ura indicators) is
counted against the set the rules play with.

Each event goes through two steps. :meth:`Round.check` judges it against the
state and changes nothing; only an event it finds legal is applied. So an
event is all or nothing: one that cannot happen raises
:class:`~tenbou.errors.IllegalEventError` naming the event's index and why,
and the round is exactly as it was before it (the next legal event still
applies). With ``strict=False`` an event that breaks a rule of play but can
still be carried out (out of turn, furiten, kuikae, a wrong tsumogiri mark,
an abortive draw whose condition does not hold) is applied and the reason
recorded in ``errors``; one that cannot be carried out (a tile the player
does not hold, a seat that does not exist) is recorded and left out.

A win is scored from the round's own state (every situational flag, the pao the
calls made, the daiminkan a rinshan win follows) and settled by
:func:`tenbou.settle.payment.settle_wins`, as a request is; the round also writes the
request that reproduces it (:attr:`RoundResult.request`, for ``tenbou settle``).

:meth:`Round.legal_actions` lists what a seat may do now, as events.

The round is written in modules of one concern each, which this one ties together: the state and
the questions asked of it (:mod:`tenbou.engine.state`, :class:`~tenbou.engine.state.RoundState`, the
base of :class:`Round`), the typed plans a check hands its apply (:mod:`tenbou.engine.plans`), the
checks (:mod:`tenbou.engine.checks`), the wins (:mod:`tenbou.engine.win`: a hora's check, score, pao
and settlement), the draws (:mod:`tenbou.engine.draws`), the effects of the events
(:mod:`tenbou.engine.effects`) and the legal actions (:mod:`tenbou.engine.legal`). Here
:meth:`Round.check_event` sends each event type to its check and returns its plan, and
:meth:`Round.apply_checked` carries out that plan.

>>> from tenbou.engine.events import Ankan, StartKyoku, Tsumo, Dahai
>>> from tenbou.rules import get_rules
>>> from tenbou.core.tiles import Tile, Wind, parse_tiles
>>> hands = [parse_tiles("123456789m1230p"), parse_tiles("2223334445556p"), parse_tiles("111222333s1237z"),
...          parse_tiles("19m19s1234566z19p")]
>>> r = Round(get_rules("tenhou"), StartKyoku(Wind.EAST, Tile.parse("9s"), 1, 0, 0, 0, (25000,) * 4,
...           tuple(tuple(h[:13]) for h in hands)))
>>> r.apply(Tsumo(0, Tile.parse("9p")))
>>> [str(a.pai) for a in r.legal_actions(0) if isinstance(a, Dahai)][:3]
['1m', '2m', '3m']
>>> r.check(Ankan(0, parse_tiles("1111m")))
['ankan: seat 0 does not hold 1111m (hand 123456789m12309p)']
"""

from __future__ import annotations

from ..core._native import mypyc_attr
from ..settle.payment import Settlement
from .checks import (
    check_ankan,
    check_call,
    check_dahai,
    check_dora,
    check_end_kyoku,
    check_kakan,
    check_nukidora,
    check_reach,
    check_reach_accepted,
    check_tsumo,
    out_of_place,
)
from .draws import ABORT_REASONS, check_ryukyoku
from .draws import abort_holds as _abort_holds
from .effects import (
    apply_ankan,
    apply_call,
    apply_dahai,
    apply_dora,
    apply_end_kyoku,
    apply_hora,
    apply_kakan,
    apply_nukidora,
    apply_reach,
    apply_reach_accepted,
    apply_ryukyoku,
    apply_tsumo,
)
from .events import (
    Ankan,
    Chi,
    Dahai,
    Daiminkan,
    Dora,
    EndKyoku,
    Event,
    Hora,
    Kakan,
    Nukidora,
    Pon,
    Reach,
    ReachAccepted,
    Ryukyoku,
    StartKyoku,
    Tsumo,
    event_name,
)
from .legal import legal_actions as _legal_actions
from .plans import CallPlan, KakanPlan, RoundPlan, WinPlan
from .referee import Problems
from .state import Discard, Phase, RoundResult, RoundState, SeatState, check_start, start_problems
from .win import check_hora

#: (Discard, Phase, RoundResult, SeatState, check_start and start_problems live in engine/state.py,
#: ABORT_REASONS in engine/draws.py: they are named here too, where code and pickles made before
#: find them)
__all__ = [
    "ABORT_REASONS",
    "Discard",
    "Phase",
    "Round",
    "RoundResult",
    "SeatState",
    "check_start",
    "start_problems",
]


#: the name a hora's plan had (engine/plans.py's WinPlan; a pickle of a game stopped after a hora
#: names it)
_Win = WinPlan


@mypyc_attr(allow_interpreted_subclasses=True)
class Round(RoundState):
    """One hand, fed event by event (see the module docstring)."""

    def abort_holds(self, reason: str) -> bool:
        """Whether the condition of an abortive draw (tenbou's name, as in ``abortive_draws``)
        holds now, whether or not the rules play it (:func:`tenbou.engine.draws.abort_holds`)."""
        return _abort_holds(self, reason)

    # -- checking events (pure: nothing here changes the round) -----------------------------------

    def check_event(self, event: Event, p: Problems) -> RoundPlan:
        """Judge ``event`` against the round (pure: nothing here changes it) and return its plan
        (:mod:`tenbou.engine.plans`): each event type to its check, the frequent first."""
        cls = type(event)
        if (
            self.closed
            or (self.phase is Phase.ENDED and cls is not EndKyoku)
            or (self.horas and cls is not Hora and cls is not EndKyoku)
        ):
            out_of_place(self, event, p)
        if isinstance(event, Tsumo):
            check_tsumo(self, event, p)
        elif isinstance(event, Dahai):
            check_dahai(self, event, p)
        elif isinstance(event, (Chi, Pon, Daiminkan)):
            return check_call(self, event, p)
        elif isinstance(event, Reach):
            check_reach(self, event, p)
        elif isinstance(event, ReachAccepted):
            check_reach_accepted(self, event, p)
        elif isinstance(event, Hora):
            return check_hora(self, event, p)
        elif isinstance(event, EndKyoku):
            check_end_kyoku(self, event, p)
        elif isinstance(event, Ryukyoku):
            return check_ryukyoku(self, event, p)
        elif isinstance(event, Dora):
            check_dora(self, event, p)
        elif isinstance(event, Kakan):
            return check_kakan(self, event, p)
        elif isinstance(event, Ankan):
            check_ankan(self, event, p)
        elif isinstance(event, Nukidora):
            check_nukidora(self, event, p)
        elif isinstance(event, StartKyoku):
            p.hard("start_kyoku inside a hand")
        else:
            out_of_place(self, event, p)  # start_game, end_game
        return None

    # -- applying events (only after their check) ---------------------------------------------------

    def apply_checked(self, event: Event, plan: RoundPlan) -> None:
        """Carry out an event :meth:`check_event` has passed, by its plan (and nothing else)."""
        if isinstance(event, Tsumo):
            apply_tsumo(self, event)
        elif isinstance(event, Dahai):
            apply_dahai(self, event)
        elif isinstance(event, (Chi, Pon, Daiminkan)):
            assert isinstance(plan, CallPlan)
            apply_call(self, event, plan)
        elif isinstance(event, Reach):
            apply_reach(self, event)
        elif isinstance(event, ReachAccepted):
            apply_reach_accepted(self, event)
        elif isinstance(event, Hora):
            assert isinstance(plan, WinPlan)
            apply_hora(self, event, plan)
        elif isinstance(event, EndKyoku):
            apply_end_kyoku(self, event)
        elif isinstance(event, Ryukyoku):
            assert isinstance(plan, Settlement)
            apply_ryukyoku(self, event, plan)
        elif isinstance(event, Dora):
            apply_dora(self, event)
        elif isinstance(event, Kakan):
            assert isinstance(plan, KakanPlan)
            apply_kakan(self, event, plan)
        elif isinstance(event, Ankan):
            apply_ankan(self, event)
        elif isinstance(event, Nukidora):
            apply_nukidora(self, event)
        else:
            raise AssertionError(f"{event_name(event)} has no apply (its check refuses it)")

    # -- legal actions --------------------------------------------------------------------------

    def legal_actions(self, seat: int) -> list[Event]:
        """What ``seat`` may do now, as events: discards, riichi, kans, kita,
        a tsumo win or nine-terminals abort after a draw; ron, pon, chi and
        daiminkan on another's discard; ron on a kan to rob. Passing is always
        possible when something is offered and is not listed
        (:func:`tenbou.engine.legal.legal_actions`)."""
        return _legal_actions(self, seat)
