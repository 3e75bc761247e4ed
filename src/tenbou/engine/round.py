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

from collections.abc import Sequence

from ..core._native import mypyc_attr
from ..core.hand import Meld, MeldType
from ..core.tiles import Tile
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
from .state import (
    Discard,
    Phase,
    RoundResult,
    RoundState,
    SeatState,
    check_start,
    first_go_around,
    kuikae,
    start_problems,
)
from .win import check_hora

#: (Discard, Phase, RoundResult, SeatState, check_start and start_problems live in engine/state.py;
#: they are named here too, where code and pickles made before find them)
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


#: the name a hora's plan had (a pickle of a game stopped after a hora names it)
_Win = WinPlan


@mypyc_attr(allow_interpreted_subclasses=True)
class Round(RoundState):
    """One hand, fed event by event (see the module docstring)."""

    def _settle_passed(self, seat: int) -> None:
        """The seat's hand is about to change (its own call, kan or kita): the wins it passed are
        judged against the waits it had, and kept as flags."""
        st = self.seats[seat]
        if st.passed or st.passed_in_riichi:
            w = set(self.waits(seat))
            if w & st.passed:
                st.temp_furiten = True
            if w & st.passed_in_riichi:
                st.riichi_furiten = True
            st.passed = set()
            st.passed_in_riichi = set()

    def _take(self, seat: int, tiles: Sequence[Tile]) -> None:
        hand = self.seats[seat].hand
        for t in tiles:
            hand.remove(t)

    # -- the abortive draws -----------------------------------------------------------------------

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
            self._apply_tsumo(event)
        elif isinstance(event, Dahai):
            self._apply_dahai(event)
        elif isinstance(event, (Chi, Pon, Daiminkan)):
            assert isinstance(plan, CallPlan)
            self._apply_call(event, plan)
        elif isinstance(event, Reach):
            self._apply_reach(event)
        elif isinstance(event, ReachAccepted):
            self._apply_reach_accepted(event)
        elif isinstance(event, Hora):
            assert isinstance(plan, WinPlan)
            self._apply_hora(event, plan)
        elif isinstance(event, EndKyoku):
            self._apply_end_kyoku(event)
        elif isinstance(event, Ryukyoku):
            assert isinstance(plan, Settlement)
            self._apply_ryukyoku(event, plan)
        elif isinstance(event, Dora):
            self._apply_dora(event)
        elif isinstance(event, Kakan):
            assert isinstance(plan, KakanPlan)
            self._apply_kakan(event, plan)
        elif isinstance(event, Ankan):
            self._apply_ankan(event)
        elif isinstance(event, Nukidora):
            self._apply_nukidora(event)
        else:
            raise AssertionError(f"{event_name(event)} has no apply (its check refuses it)")

    def _pass_tile(self, who: int, tile: Tile, caller: int | None = None) -> None:
        """The tile in play passes (or is called by ``caller``): the others have passed it, which
        makes temporary (and, in riichi, permanent) furiten for those it would have completed."""
        kind = tile.kind
        for seat in range(self.players):
            if seat != who and seat != caller:
                st = self.seats[seat]
                st.passed.add(kind)
                if st.riichi_accepted:
                    st.passed_in_riichi.add(kind)

    def _close_react(self) -> None:
        """A discard (or a kan to rob) passes."""
        if self.phase is Phase.REACT and self.last_discard is not None:
            self._pass_tile(*self.last_discard)
        elif self.phase is Phase.CHANKAN and self.kan_tile is not None:
            self._pass_tile(self.kan_tile[0], self.kan_tile[1])

    def _apply_tsumo(self, ev: Tsumo) -> None:
        seat = ev.actor
        if self.phase is Phase.REACT:
            self._close_react()
        elif self.phase is Phase.CHANKAN:
            self._close_react()
            self.kan_tile = None
            for s in self.seats:  # nobody robbed the kan: it stands, and ends every ippatsu
                s.ippatsu = False
        self.tiles.count([ev.pai])
        self.live_wall -= 1
        st = self.seats[seat]
        st.hand.append(ev.pai)
        st.drawn = ev.pai
        st.rinshan = self.rinshan_pending
        if not self.rinshan_pending:
            self.chain_from = None
            self.chain_broken = False
        self.rinshan_pending = False
        st.has_drawn = True
        st.temp_furiten = False  # passing a win binds only until one's next turn (riichi furiten stays)
        st.passed = set()
        self.phase = Phase.ACT
        self.actor = seat

    def _apply_dahai(self, ev: Dahai) -> None:
        seat = ev.actor
        st = self.seats[seat]
        declaring = st.declaring
        st.hand.remove(ev.pai)
        if declaring:
            st.double_riichi = first_go_around(self) and not st.discards
        elif st.riichi_accepted:
            st.ippatsu = False
        st.discards.append(Discard(ev.pai, ev.tsumogiri, riichi=declaring))
        st.kuikae = frozenset()
        st.drawn = None
        self.discards_made += 1
        self.last_discard = (seat, ev.pai)
        self.phase = Phase.REACT
        self.actor = seat

    def _apply_call(self, ev: Chi | Pon | Daiminkan, plan: CallPlan) -> None:
        meld, furiten, deal_in = plan.meld, plan.caller_furiten, plan.deal_in
        if deal_in is not None:  # the fourth kan's suukantsu, dealt in: the hand ends (end_kyoku next)
            self.pending = deal_in
            self.phase = Phase.ENDED
            return
        seat, target = ev.actor, ev.target
        kind = meld.type
        st = self.seats[seat]
        self._settle_passed(seat)
        self._take(seat, ev.consumed)
        self._pass_tile(target, ev.pai, seat)
        self.seats[target].discards[-1].called = True
        st.melds.append(meld)
        self.calls_made = True
        for s in self.seats:
            s.ippatsu = False
        if kind is MeldType.DAIMINKAN:
            st.kans.append((len(st.melds) - 1, kind))
            self._declare_kan(seat)
            self.chain_from = target
            self.chain_broken = False
            self.chain_furiten = furiten
            self.phase = Phase.DRAW
        else:
            st.kuikae = kuikae(self, meld)
            self.phase = Phase.ACT
        self.actor = seat
        self.last_discard = None

    def _declare_kan(self, seat: int) -> None:
        self.kans_declared += 1
        self.rinshan_pending = True
        kan_players = {i for i, s in enumerate(self.seats) if s.kans}
        if self.kans_declared == 4 and len(kan_players) > 1:
            self.suukaikan_pending = True

    def _apply_kakan(self, ev: Kakan, plan: KakanPlan) -> None:
        seat, i = ev.actor, plan.pon_index
        st = self.seats[seat]
        self._settle_passed(seat)
        self._take(seat, [ev.pai])
        pon = st.melds[i]
        st.melds[i] = Meld(MeldType.KAKAN, (*pon.tiles, ev.pai), pon.from_seat, pon.called)
        st.kans.append((i, MeldType.KAKAN))
        self.calls_made = True
        # ippatsu ends when the kan stands (at the replacement draw): whoever robs it keeps theirs
        self._declare_kan(seat)
        self.chain_broken = self.chain_from is not None
        self.kan_tile = (seat, ev.pai, "kakan")
        self.phase = Phase.CHANKAN
        self.actor = seat
        st.drawn = None

    def _apply_ankan(self, ev: Ankan) -> None:
        seat = ev.actor
        st = self.seats[seat]
        self._settle_passed(seat)
        self._take(seat, ev.consumed)
        st.melds.append(Meld(MeldType.ANKAN, ev.consumed))
        st.kans.append((len(st.melds) - 1, MeldType.ANKAN))
        self.calls_made = True
        self._declare_kan(seat)
        self.chain_broken = self.chain_from is not None
        st.drawn = None
        if self.rules.kokushi_ankan_chankan:  # ippatsu ends at the replacement draw, as for a kakan
            self.kan_tile = (seat, ev.consumed[0], "ankan")
            self.phase = Phase.CHANKAN
        else:
            for s in self.seats:
                s.ippatsu = False
            self.phase = Phase.DRAW
        self.actor = seat

    def _apply_nukidora(self, ev: Nukidora) -> None:
        seat = ev.actor
        st = self.seats[seat]
        self._settle_passed(seat)
        self._take(seat, [ev.pai])
        st.kita += 1
        st.drawn = None
        for s in self.seats:
            s.ippatsu = False
        self.calls_made = True
        self.rinshan_pending = True
        self.kan_tile = (seat, ev.pai, "kita")
        self.phase = Phase.CHANKAN
        self.actor = seat

    def _apply_dora(self, ev: Dora) -> None:
        self.tiles.count([ev.dora_marker])
        self.dora_markers.append(ev.dora_marker)

    def _apply_reach(self, ev: Reach) -> None:
        self.seats[ev.actor].riichi = True

    def _apply_reach_accepted(self, ev: ReachAccepted) -> None:
        st = self.seats[ev.actor]
        st.riichi_accepted = True
        st.ippatsu = self.rules.ippatsu
        st.score -= self.rules.riichi_stick_points
        self.kyotaku += 1

    def _apply_hora(self, ev: Hora, win: WinPlan) -> None:
        ura = list(ev.ura_markers or ())
        if len(ura) > len(self.ura_markers):
            self.tiles.count(ura[len(self.ura_markers) :])
            self.ura_markers = ura
        self.horas.append((ev, win.fields))
        self.pending = win
        if ev.actor == ev.target or win.fields.get("fourth_kan"):  # a tsumo, or the fourth kan's deal-in
            self.phase = Phase.ENDED

    def _finish_wins(self) -> None:
        win = self.pending
        assert win is not None
        horas = self.horas
        recorded = None
        if horas and all(h.deltas is not None for h, _ in horas):
            recorded = tuple(sum(h.deltas[i] for h, _ in horas if h.deltas) for i in range(self.players))
        self.horas = []
        self.pending = None
        self._end(RoundResult(win.settlement, win.request, recorded))

    def _end(self, result: RoundResult) -> None:
        self.result = result
        self.phase = Phase.ENDED
        for seat, d in enumerate(result.settlement.deltas):
            self.seats[seat].score += d

    def _apply_ryukyoku(self, ev: Ryukyoku, settlement: Settlement) -> None:
        if self.phase is Phase.REACT and settlement.kind == "exhaustive_draw":
            self._close_react()
        self._end(RoundResult(settlement, None, ev.deltas))

    def _apply_end_kyoku(self, ev: EndKyoku) -> None:
        if self.pending is not None:
            self._finish_wins()
        self.phase = Phase.ENDED
        self.closed = True

    # -- legal actions --------------------------------------------------------------------------

    def legal_actions(self, seat: int) -> list[Event]:
        """What ``seat`` may do now, as events: discards, riichi, kans, kita,
        a tsumo win or nine-terminals abort after a draw; ron, pon, chi and
        daiminkan on another's discard; ron on a kan to rob. Passing is always
        possible when something is offered and is not listed
        (:func:`tenbou.engine.legal.legal_actions`)."""
        return _legal_actions(self, seat)
