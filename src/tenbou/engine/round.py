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
from typing import NoReturn

from ..core._native import mypyc_attr
from ..core.hand import Meld, MeldType
from ..core.shape import waits
from ..core.tiles import Tile, format_tiles
from ..errors import TenbouError
from ..settle.payment import Settlement
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
    CALL_TYPES,
    Discard,
    Phase,
    RoundResult,
    RoundState,
    SeatState,
    ankan_keeps_waits,
    check_numbers,
    check_seat,
    check_start,
    first_go_around,
    kuikae,
    leaves_a_discard,
    start_problems,
    tile_key,
)
from .win import check_hora, plan_win

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

    def _hand_text(self, seat: int) -> str:
        return format_tiles(sorted(self.seats[seat].hand, key=tile_key))

    def _missing(self, seat: int, tiles: Sequence[Tile]) -> Tile | None:
        """The first of ``tiles`` that ``seat`` does not hold (as many times as listed)."""
        hand = list(self.seats[seat].hand)
        for t in tiles:
            if t not in hand:
                return t
            hand.remove(t)
        return None

    def _holds(self, seat: int, tiles: Sequence[Tile], what: str, p: Problems) -> None:
        if self._missing(seat, tiles) is not None:
            p.hard(f"{what}: seat {seat} does not hold {format_tiles(tiles)} (hand {self._hand_text(seat)})")

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
        (:mod:`tenbou.engine.plans`): in order of frequency, each event type to its check."""
        cls = type(event)
        if (
            self.closed
            or (self.phase is Phase.ENDED and cls is not EndKyoku)
            or (self.horas and cls is not Hora and cls is not EndKyoku)
        ):
            self._out_of_place(event, p)
        players = self.players
        plan: RoundPlan = None
        if isinstance(event, Tsumo):
            check_seat(event, "actor", event.actor, players, p)
            self._check_tsumo(event, p)
        elif isinstance(event, Dahai):
            check_seat(event, "actor", event.actor, players, p)
            self._check_dahai(event, p)
        elif isinstance(event, (Chi, Pon, Daiminkan)):
            check_seat(event, "actor", event.actor, players, p)
            check_seat(event, "target", event.target, players, p)
            plan = self._check_call(event, p)
        elif isinstance(event, Reach):
            check_seat(event, "actor", event.actor, players, p)
            self._check_reach(event, p)
        elif isinstance(event, ReachAccepted):
            check_seat(event, "actor", event.actor, players, p)
            self._check_reach_accepted(event, p)
        elif isinstance(event, Hora):
            check_seat(event, "actor", event.actor, players, p)
            check_seat(event, "target", event.target, players, p)
            plan = check_hora(self, event, p)
        elif isinstance(event, EndKyoku):
            self._check_end_kyoku(event, p)
        elif isinstance(event, Ryukyoku):
            plan = check_ryukyoku(self, event, p)
        elif isinstance(event, Dora):
            self._check_dora(event, p)
        elif isinstance(event, Kakan):
            check_seat(event, "actor", event.actor, players, p)
            plan = self._check_kakan(event, p)
        elif isinstance(event, Ankan):
            check_seat(event, "actor", event.actor, players, p)
            self._check_ankan(event, p)
        elif isinstance(event, Nukidora):
            check_seat(event, "actor", event.actor, players, p)
            self._check_nukidora(event, p)
        elif isinstance(event, StartKyoku):
            p.hard("start_kyoku inside a hand")
        else:
            self._out_of_place(event, p)  # start_game, end_game
        return plan

    def _out_of_place(self, event: Event, p: Problems) -> NoReturn:
        name = event_name(event)
        if type(event) not in _ROUND_EVENTS:
            p.hard(f"{name} cannot come inside a hand")
        if self.closed:
            p.hard(f"{name} after end_kyoku")
        if self.phase is Phase.ENDED:
            p.hard(f"{name} after the hand has ended")
        p.hard(f"{name} after a win (only another ron on the same tile or end_kyoku may follow)")

    def _check_tsumo(self, ev: Tsumo, p: Problems) -> None:
        seat = ev.actor
        if self.phase is Phase.REACT:
            assert self.last_discard is not None
            if self.suukaikan_pending and "suukaikan" in self.rules.abortive_draws:
                p.soft(
                    "tsumo after the fourth kan by two players was discarded: the hand is an abortive draw"
                )
            expected = (self.last_discard[0] + 1) % self.players
            if seat != expected:
                p.soft(f"tsumo by seat {seat} out of turn (seat {expected} draws next)")
        elif self.phase is Phase.CHANKAN:
            assert self.kan_tile is not None
            if seat != self.kan_tile[0]:
                p.soft(f"tsumo by seat {seat}: seat {self.kan_tile[0]} draws the replacement tile")
        elif self.phase is not Phase.DRAW:
            p.hard(f"tsumo by seat {seat} while seat {self.actor} is to {self.phase.value}")
        elif seat != self.actor:
            p.soft(f"tsumo by seat {seat} out of turn (seat {self.actor} draws next)")
        if self.live_wall <= 0:
            p.hard("tsumo from an empty wall")
        bad = self.tiles.problem([ev.pai], "tsumo")
        if bad:
            p.hard(bad)

    def _check_dahai(self, ev: Dahai, p: Problems) -> None:
        seat = ev.actor
        st = self.seats[seat]
        if self.phase is not Phase.ACT or seat != self.actor:
            p.hard(f"dahai by seat {seat} while seat {self.actor} is to {self.phase.value}")
        if ev.pai not in st.hand:
            p.hard(f"dahai of {ev.pai}: seat {seat} does not hold it")
        if st.riichi_accepted and ev.pai != st.drawn:
            p.soft(f"dahai of {ev.pai}: seat {seat} is in riichi and must discard the drawn {st.drawn}")
        if ev.pai.kind in st.kuikae:
            p.soft(f"dahai of {ev.pai}: kuikae (swap calling) is forbidden under these rules")
        if ev.tsumogiri and ev.pai != st.drawn:
            p.soft(f"dahai of {ev.pai} marked tsumogiri, but the drawn tile is {st.drawn}")
        if st.declaring:
            counts = st.kinds()
            counts[ev.pai.kind] -= 1
            if not waits(counts, closed=not st.melds, players=self.players):
                p.soft(f"riichi: discarding {ev.pai} leaves seat {seat} not tenpai")

    def _check_call(self, ev: Chi | Pon | Daiminkan, p: Problems) -> CallPlan:
        seat, target = ev.actor, ev.target
        kind = CALL_TYPES[type(ev)]
        name = kind.value
        if self.phase is not Phase.REACT or self.last_discard is None:
            p.hard(f"{name} by seat {seat} with no discard to call")
        who, tile = self.last_discard
        if target != who or ev.pai != tile:
            p.hard(f"{name} of {ev.pai} from seat {target}: the last discard is {tile} by seat {who}")
        if seat == who:
            p.hard(f"{name}: seat {seat} cannot call its own discard")
        want = 3 if kind is MeldType.DAIMINKAN else 2
        if len(ev.consumed) != want:
            p.hard(f"{name}.consumed: {len(ev.consumed)} tiles from the hand, a {name} takes {want}")
        self._holds(seat, ev.consumed, name, p)
        try:
            meld = Meld(kind, (*ev.consumed, ev.pai), target, ev.pai)
        except TenbouError as e:
            p.hard(f"{name}: {e}")
        st = self.seats[seat]
        if st.riichi:
            p.soft(f"{name}: seat {seat} is in riichi and cannot call")
        if kind is MeldType.CHI and (self.players == 3 or seat != (who + 1) % self.players):
            p.soft(f"chi: seat {seat} can only chi from the player on its left")
        if kind is MeldType.DAIMINKAN and (self.live_wall <= 0 or self.kans_declared >= 4):
            p.soft("daiminkan: no kan is possible now (the wall is empty or four kans are out)")
        if self.live_wall <= 0 and kind is not MeldType.DAIMINKAN:
            p.soft(f"{name}: the last discard (houtei) cannot be called")
        if not leaves_a_discard(self, seat, ev.consumed, meld):
            p.soft(f"{name}: after it, kuikae forbids every tile seat {seat} would hold (no discard left)")
        if kind is MeldType.DAIMINKAN and self.fourth_kan_deal_in(seat, ev.pai):
            # the fourth kan: the hand ends here, settled as the hora of ``seat`` on the discard
            return CallPlan(meld, False, plan_win(self, seat, ev.pai, who, "fourth_kan", None, p))
        return CallPlan(meld, kind is MeldType.DAIMINKAN and self.furiten(seat))

    def _check_own_kan(self, seat: int, what: str, p: Problems) -> None:
        """A kakan or ankan: on the seat's own turn after a draw, with a kan still possible."""
        st = self.seats[seat]
        if self.phase is not Phase.ACT or seat != self.actor or st.drawn is None:
            p.hard(f"{what} by seat {seat} while seat {self.actor} is to {self.phase.value}")
        if st.declaring:
            p.hard(f"{what}: seat {seat} has declared riichi and must discard first")
        if self.live_wall <= 0 or self.kans_declared >= 4:
            p.soft(f"{what}: no kan is possible now (the wall is empty or four kans are out)")

    def _check_kakan(self, ev: Kakan, p: Problems) -> KakanPlan:
        seat = ev.actor
        st = self.seats[seat]
        self._check_own_kan(seat, "kakan", p)
        i = next(
            (i for i, m in enumerate(st.melds) if m.type is MeldType.PON and m.kind == ev.pai.kind), None
        )
        if i is None:
            p.hard(f"kakan of {ev.pai}: seat {seat} has no pon of it")
        self._holds(seat, [ev.pai], "kakan", p)
        if sorted(ev.consumed, key=tile_key) != sorted(st.melds[i].tiles, key=tile_key):
            p.hard(
                f"kakan.consumed: {format_tiles(ev.consumed)} is not seat {seat}'s pon "
                f"{format_tiles(st.melds[i].tiles)}"
            )
        return KakanPlan(i)

    def _check_ankan(self, ev: Ankan, p: Problems) -> None:
        seat = ev.actor
        st = self.seats[seat]
        self._check_own_kan(seat, "ankan", p)
        if len(ev.consumed) != 4 or len({t.kind for t in ev.consumed}) != 1:
            p.hard(f"ankan: {format_tiles(ev.consumed)} is not four of a kind")
        self._holds(seat, ev.consumed, "ankan", p)
        if st.riichi_accepted:
            if st.drawn is None or st.drawn.kind != ev.consumed[0].kind:
                p.soft("ankan in riichi: only of the tile just drawn")
            elif not ankan_keeps_waits(self, seat, ev):
                p.soft("ankan in riichi would change the waits")

    def _check_nukidora(self, ev: Nukidora, p: Problems) -> None:
        seat = ev.actor
        st = self.seats[seat]
        if self.players != 3 or not self.rules.nukidora:
            p.hard("nukidora: North is only set aside with three players under nukidora rules")
        if self.phase is not Phase.ACT or seat != self.actor:
            p.hard(f"nukidora by seat {seat} while seat {self.actor} is to {self.phase.value}")
        if ev.pai.kind != 30:
            p.hard(f"nukidora of {ev.pai}: only North is set aside")
        self._holds(seat, [ev.pai], "nukidora", p)
        if st.declaring:
            p.hard(f"nukidora: seat {seat} has declared riichi and must discard first")
        if self.live_wall <= 0:
            p.soft("nukidora: no replacement tile is left (the wall is empty)")

    def _check_dora(self, ev: Dora, p: Problems) -> None:
        if len(self.dora_markers) >= 5:
            p.hard("dora: five indicators are already shown")
        limit = 1 + self.kans_declared if self.rules.kan_dora else 1
        if len(self.dora_markers) >= limit:
            p.soft(
                f"dora: a new indicator needs a kan "
                f"({len(self.dora_markers)} shown, {self.kans_declared} kans)"
            )
        bad = self.tiles.problem([ev.dora_marker], "dora")
        if bad:
            p.hard(bad)

    def _check_reach(self, ev: Reach, p: Problems) -> None:
        seat = ev.actor
        st = self.seats[seat]
        if self.phase is not Phase.ACT or seat != self.actor:
            p.hard(f"reach by seat {seat} while seat {self.actor} is to {self.phase.value}")
        if st.riichi:
            p.hard(f"reach: seat {seat} is already in riichi")
        if not st.closed:
            p.soft(f"reach: seat {seat} has an open hand")
        if st.score < self.rules.riichi_min_points:
            p.soft(f"reach: seat {seat} has {st.score} points, {self.rules.riichi_min_points} are needed")
        if self.live_wall < self.players:
            p.soft("reach: no draw is left for the declarer")

    def _check_reach_accepted(self, ev: ReachAccepted, p: Problems) -> None:
        seat = ev.actor
        st = self.seats[seat]
        if not st.riichi or st.riichi_accepted or not st.discards or not st.discards[-1].riichi:
            p.hard(f"reach_accepted: seat {seat} has not just declared riichi")
        if self.phase is not Phase.REACT or self.last_discard is None or self.last_discard[0] != seat:
            p.hard(f"reach_accepted: seat {seat}'s riichi tile is no longer the last discard")
        check_numbers(ev, self.players, p)

    def _check_end_kyoku(self, ev: EndKyoku, p: Problems) -> None:
        if self.result is None and self.pending is None:
            p.hard("end_kyoku before the hand ended (no hora or ryukyoku)")

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


#: the events of a hand (``start_kyoku`` is one, refused inside a hand)
_ROUND_EVENTS = frozenset(
    {Tsumo, Dahai, Chi, Pon, Daiminkan, Kakan, Ankan, Nukidora, Dora, Reach, ReachAccepted, Hora, Ryukyoku,
     EndKyoku, StartKyoku}
)  # fmt: skip
