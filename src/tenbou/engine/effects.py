"""The effects of a round's events: each apply carries out one event its check passed, by the plan
the check returned (:mod:`tenbou.engine.plans`), and only that.

An apply refuses nothing and judges nothing: whatever could refuse the event was judged by its
check, and whatever the event needs worked out (the meld of a call, the pon a kakan extends, a
win's score and settlement, a draw's payments) came in its plan. Here the round's state changes:
hands, melds and rivers, the wall and the tiles in sight, riichi and ippatsu, furiten from the
wins passed, kuikae, the rinshan chain, the kan to rob, the phase and the seat to act, the wins
waiting and the result.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.hand import Meld, MeldType
from ..core.tiles import Tile
from ..settle.payment import Settlement
from .events import (
    Ankan,
    Chi,
    Dahai,
    Daiminkan,
    Dora,
    EndKyoku,
    Hora,
    Kakan,
    Nukidora,
    Pon,
    Reach,
    ReachAccepted,
    Ryukyoku,
    Tsumo,
)
from .plans import CallPlan, KakanPlan, WinPlan
from .state import Discard, Phase, RoundResult, RoundState, first_go_around, kuikae

__all__ = [
    "apply_ankan",
    "apply_call",
    "apply_dahai",
    "apply_dora",
    "apply_end_kyoku",
    "apply_hora",
    "apply_kakan",
    "apply_nukidora",
    "apply_reach",
    "apply_reach_accepted",
    "apply_ryukyoku",
    "apply_tsumo",
]


def apply_tsumo(r: RoundState, ev: Tsumo) -> None:
    """A draw: the tile in play passes (a kan nobody robbed stands, ending every ippatsu); the
    tile comes into sight and into the hand, as a rinshan draw after a kan; the seat is to act."""
    seat = ev.actor
    if r.phase is Phase.REACT:
        _close_react(r)
    elif r.phase is Phase.CHANKAN:
        _close_react(r)
        r.kan_tile = None
        for s in r.seats:  # nobody robbed the kan: it stands, and ends every ippatsu
            s.ippatsu = False
    r.tiles.count([ev.pai])
    r.live_wall -= 1
    st = r.seats[seat]
    st.hand.append(ev.pai)
    st.drawn = ev.pai
    st.rinshan = r.rinshan_pending
    if not r.rinshan_pending:
        r.chain_from = None
        r.chain_broken = False
    r.rinshan_pending = False
    st.has_drawn = True
    st.temp_furiten = False  # passing a win binds only until one's next turn (riichi furiten stays)
    st.passed = set()
    r.phase = Phase.ACT
    r.actor = seat


def apply_dahai(r: RoundState, ev: Dahai) -> None:
    """A discard: into the river (the riichi tile marked, double riichi in the first go-around;
    ippatsu ends with one's next discard); the others may react."""
    seat = ev.actor
    st = r.seats[seat]
    declaring = st.declaring
    st.hand.remove(ev.pai)
    if declaring:
        st.double_riichi = first_go_around(r) and not st.discards
    elif st.riichi_accepted:
        st.ippatsu = False
    st.discards.append(Discard(ev.pai, ev.tsumogiri, riichi=declaring))
    st.kuikae = frozenset()
    st.drawn = None
    r.discards_made += 1
    r.last_discard = (seat, ev.pai)
    r.phase = Phase.REACT
    r.actor = seat


def apply_call(r: RoundState, ev: Chi | Pon | Daiminkan, plan: CallPlan) -> None:
    """A chi, pon or daiminkan: the caller's passed wins settled, the meld made, every ippatsu
    ended; a daiminkan draws from the dead wall and starts a rinshan chain, a chi or pon sets
    kuikae. The daiminkan of the fourth kan dealt in ends the hand with its win instead."""
    meld, furiten, deal_in = plan.meld, plan.caller_furiten, plan.deal_in
    if deal_in is not None:  # the fourth kan's suukantsu, dealt in: the hand ends (end_kyoku next)
        r.pending = deal_in
        r.phase = Phase.ENDED
        return
    seat, target = ev.actor, ev.target
    kind = meld.type
    st = r.seats[seat]
    _settle_passed(r, seat)
    _take(r, seat, ev.consumed)
    _pass_tile(r, target, ev.pai, seat)
    r.seats[target].discards[-1].called = True
    st.melds.append(meld)
    r.calls_made = True
    for s in r.seats:
        s.ippatsu = False
    if kind is MeldType.DAIMINKAN:
        st.kans.append((len(st.melds) - 1, kind))
        _declare_kan(r, seat)
        r.chain_from = target
        r.chain_broken = False
        r.chain_furiten = furiten
        r.phase = Phase.DRAW
    else:
        st.kuikae = kuikae(r, meld)
        r.phase = Phase.ACT
    r.actor = seat
    r.last_discard = None


def apply_kakan(r: RoundState, ev: Kakan, plan: KakanPlan) -> None:
    """A kakan: the pon becomes a kan that may be robbed (chankan); a rinshan chain is broken."""
    seat, i = ev.actor, plan.pon_index
    st = r.seats[seat]
    _settle_passed(r, seat)
    _take(r, seat, [ev.pai])
    pon = st.melds[i]
    st.melds[i] = Meld(MeldType.KAKAN, (*pon.tiles, ev.pai), pon.from_seat, pon.called)
    st.kans.append((i, MeldType.KAKAN))
    r.calls_made = True
    # ippatsu ends when the kan stands (at the replacement draw): whoever robs it keeps theirs
    _declare_kan(r, seat)
    r.chain_broken = r.chain_from is not None
    r.kan_tile = (seat, ev.pai, "kakan")
    r.phase = Phase.CHANKAN
    r.actor = seat
    st.drawn = None


def apply_ankan(r: RoundState, ev: Ankan) -> None:
    """An ankan: the kan declared (robbable by kokushi under ``kokushi_ankan_chankan``); a rinshan
    chain is broken."""
    seat = ev.actor
    st = r.seats[seat]
    _settle_passed(r, seat)
    _take(r, seat, ev.consumed)
    st.melds.append(Meld(MeldType.ANKAN, ev.consumed))
    st.kans.append((len(st.melds) - 1, MeldType.ANKAN))
    r.calls_made = True
    _declare_kan(r, seat)
    r.chain_broken = r.chain_from is not None
    st.drawn = None
    if r.rules.kokushi_ankan_chankan:  # ippatsu ends at the replacement draw, as for a kakan
        r.kan_tile = (seat, ev.consumed[0], "ankan")
        r.phase = Phase.CHANKAN
    else:
        for s in r.seats:
            s.ippatsu = False
        r.phase = Phase.DRAW
    r.actor = seat


def apply_nukidora(r: RoundState, ev: Nukidora) -> None:
    """A kita: North set aside, a replacement draw to come (it may be robbed, as a ron)."""
    seat = ev.actor
    st = r.seats[seat]
    _settle_passed(r, seat)
    _take(r, seat, [ev.pai])
    st.kita += 1
    st.drawn = None
    for s in r.seats:
        s.ippatsu = False
    r.calls_made = True
    r.rinshan_pending = True
    r.kan_tile = (seat, ev.pai, "kita")
    r.phase = Phase.CHANKAN
    r.actor = seat


def apply_dora(r: RoundState, ev: Dora) -> None:
    """A new dora indicator comes into sight."""
    r.tiles.count([ev.dora_marker])
    r.dora_markers.append(ev.dora_marker)


def apply_reach(r: RoundState, ev: Reach) -> None:
    """A riichi declared (its tile comes next)."""
    r.seats[ev.actor].riichi = True


def apply_reach_accepted(r: RoundState, ev: ReachAccepted) -> None:
    """A riichi accepted: the stick on the table, ippatsu (by the rules) begins."""
    st = r.seats[ev.actor]
    st.riichi_accepted = True
    st.ippatsu = r.rules.ippatsu
    st.score -= r.rules.riichi_stick_points
    r.kyotaku += 1


def apply_hora(r: RoundState, ev: Hora, win: WinPlan) -> None:
    """A win: its ura indicators come into sight and it waits, with its settlement, for another
    ron on the same tile or ``end_kyoku`` (a tsumo or the fourth kan ends the hand at once)."""
    ura = list(ev.ura_markers or ())
    if len(ura) > len(r.ura_markers):
        r.tiles.count(ura[len(r.ura_markers) :])
        r.ura_markers = ura
    r.horas.append((ev, win.fields))
    r.pending = win
    if ev.actor == ev.target or win.fields.get("fourth_kan"):  # a tsumo, or the fourth kan's deal-in
        r.phase = Phase.ENDED


def apply_ryukyoku(r: RoundState, ev: Ryukyoku, settlement: Settlement) -> None:
    """A draw: the hand ends with its settlement (an exhaustive draw passes the last discard)."""
    if r.phase is Phase.REACT and settlement.kind == "exhaustive_draw":
        _close_react(r)
    _end(r, RoundResult(settlement, None, ev.deltas))


def apply_end_kyoku(r: RoundState, ev: EndKyoku) -> None:
    """The end of the hand: the wins waiting are settled; nothing more may come."""
    if r.pending is not None:
        _finish_wins(r)
    r.phase = Phase.ENDED
    r.closed = True


def _settle_passed(r: RoundState, seat: int) -> None:
    """The seat's hand is about to change (its own call, kan or kita): the wins it passed are
    judged against the waits it had, and kept as flags."""
    st = r.seats[seat]
    if st.passed or st.passed_in_riichi:
        w = set(r.waits(seat))
        if w & st.passed:
            st.temp_furiten = True
        if w & st.passed_in_riichi:
            st.riichi_furiten = True
        st.passed = set()
        st.passed_in_riichi = set()


def _take(r: RoundState, seat: int, tiles: Sequence[Tile]) -> None:
    """``tiles`` leave ``seat``'s hand."""
    hand = r.seats[seat].hand
    for t in tiles:
        hand.remove(t)


def _pass_tile(r: RoundState, who: int, tile: Tile, caller: int | None = None) -> None:
    """The tile in play passes (or is called by ``caller``): the others have passed it, which
    makes temporary (and, in riichi, permanent) furiten for those it would have completed."""
    kind = tile.kind
    for seat in range(r.players):
        if seat != who and seat != caller:
            st = r.seats[seat]
            st.passed.add(kind)
            if st.riichi_accepted:
                st.passed_in_riichi.add(kind)


def _close_react(r: RoundState) -> None:
    """A discard (or a kan to rob) passes."""
    if r.phase is Phase.REACT and r.last_discard is not None:
        _pass_tile(r, *r.last_discard)
    elif r.phase is Phase.CHANKAN and r.kan_tile is not None:
        _pass_tile(r, r.kan_tile[0], r.kan_tile[1])


def _declare_kan(r: RoundState, seat: int) -> None:
    """A kan declared: a rinshan draw to come, and four kans by several players abort."""
    r.kans_declared += 1
    r.rinshan_pending = True
    kan_players = {i for i, s in enumerate(r.seats) if s.kans}
    if r.kans_declared == 4 and len(kan_players) > 1:
        r.suukaikan_pending = True


def _finish_wins(r: RoundState) -> None:
    """The wins of the hand settled: the result, with the deltas the records said."""
    win = r.pending
    assert win is not None
    horas = r.horas
    recorded = None
    if horas and all(h.deltas is not None for h, _ in horas):
        recorded = tuple(sum(h.deltas[i] for h, _ in horas if h.deltas) for i in range(r.players))
    r.horas = []
    r.pending = None
    _end(r, RoundResult(win.settlement, win.request, recorded))


def _end(r: RoundState, result: RoundResult) -> None:
    """The hand ends with ``result``: the scores take its deltas."""
    r.result = result
    r.phase = Phase.ENDED
    for seat, d in enumerate(result.settlement.deltas):
        r.seats[seat].score += d
