"""The draws of a round: when an abortive draw's condition holds, the check of a ``ryukyoku`` and
what a draw pays.

The abortive draws (tenbou's names, as in the ``abortive_draws`` option; :data:`ABORT_REASONS`
maps them to mjai's): nine terminals on a first draw (``kyuushu_kyuuhai``), four winds
(``suufon_renda``), four riichi (``suucha_riichi``), four kans by several players
(``suukaikan``), a triple ron (``sanchahou``). :func:`abort_holds` says whether one holds now,
whether or not the rules play it; :func:`check_ryukyoku` judges a ``ryukyoku`` and settles it
(:func:`tenbou.settle.payment.settle_draw`), an exhaustive draw with the seats in tenpai and
those whose river makes nagashi mangan; a ``ryukyoku`` of reason ``chombo`` stops the hand at
any moment for its ``actor``'s chombo (:func:`tenbou.settle.payment.settle_chombo`: the hand
does not count, its riichi sticks go back). Nothing here changes the round.
"""

from __future__ import annotations

from typing import Final

from ..core.tiles import TERMINALS_AND_HONORS
from ..rules import DRAW_REASONS, NAGASHI_MANGAN
from ..settle.payment import Settlement, settle_chombo, settle_draw
from .events import MJAI_DRAW_REASONS, MJAI_EXHAUSTIVE, Ryukyoku
from .referee import Problems
from .state import Phase, RoundState, check_numbers, check_seat, first_go_around
from .win import can_win

__all__ = ["ABORT_REASONS", "CHOMBO", "abort_holds", "check_chombo", "check_ryukyoku"]

_WIND_KINDS = (27, 28, 29, 30)
#: mjai ``ryukyoku`` reasons of the abortive draws, by tenbou's names (from the mjai vocabulary)
ABORT_REASONS = {name: MJAI_DRAW_REASONS[name] for name in DRAW_REASONS}
_REASON_NAMES = {v: k for k, v in ABORT_REASONS.items()}
#: mjai reasons of an exhaustive draw
_EXHAUSTIVE_REASONS = (MJAI_EXHAUSTIVE, MJAI_DRAW_REASONS[NAGASHI_MANGAN])
#: the reason of a hand stopped by a chombo (its ``actor`` the offender)
CHOMBO = "chombo"
#: reasons other producers write that tenbou does not read, and what to write instead
_UNREAD_REASONS: Final = {
    "error": (
        "mjai.app's word for a bot's fault, which names no offender and is settled by its own "
        f"rules; write the hand's end as reason {CHOMBO!r} with the offender's seat as actor"
    ),
}


def check_ryukyoku(r: RoundState, ev: Ryukyoku, p: Problems) -> Settlement:
    """Judge a ``ryukyoku``: an exhaustive draw at the end of the wall (settled with tenpai and
    nagashi mangan), or an abortive draw the rules play and whose condition holds (the reason
    given, or the one that holds now). Its plan: the draw's settlement."""
    check_numbers(ev, r.players, p)
    if ev.reason == CHOMBO:
        return check_chombo(r, ev, p)
    if ev.actor is not None:  # (who declared nine terminals, as some producers write it)
        check_seat(ev, "actor", ev.actor, r.players, p)
    if ev.tenpais is not None and len(ev.tenpais) != r.players:
        p.hard(f"ryukyoku.tenpais: {len(ev.tenpais)} entries for {r.players} players")
    if ev.reason is not None and ev.reason not in _REASON_NAMES and ev.reason not in _EXHAUSTIVE_REASONS:
        known = ", ".join((*_EXHAUSTIVE_REASONS, *_REASON_NAMES, f"{CHOMBO} with its actor"))
        hint = _UNREAD_REASONS.get(ev.reason)
        p.hard(
            f"ryukyoku.reason: {ev.reason!r} is not a hand end tenbou knows ({known})"
            + ("" if hint is None else f": {hint}")
        )
    exhaustive = ev.reason in _EXHAUSTIVE_REASONS or (ev.reason is None and r.live_wall == 0)
    if exhaustive:
        if r.live_wall != 0:
            p.soft(f"ryukyoku: an exhaustive draw with {r.live_wall} tiles left in the wall")
        if r.phase is not Phase.REACT:
            p.soft(f"ryukyoku: an exhaustive draw while seat {r.actor} is to {r.phase.value}")
        tenpai = [s for s in range(r.players) if r.is_tenpai(s)]
        nagashi = (
            [s for s in range(r.players) if nagashi_mangan(r, s)] if r.rules.nagashi_mangan != "none" else []
        )
        return settle_draw(r.rules, r.players, r.dealer, r.honba, r.kyotaku, "exhaustive", tenpai, nagashi)
    reason = _REASON_NAMES.get(ev.reason or "") or abort_reason(r)
    if reason is None:
        p.soft("ryukyoku: no abortive draw applies now")
    else:
        if reason not in r.rules.abortive_draws and reason != "sanchahou":
            p.soft(f"ryukyoku: {reason} is not played under these rules")
        if not abort_holds(r, reason):
            p.soft(f"ryukyoku: {reason}, but its condition does not hold now")
    return settle_draw(r.rules, r.players, r.dealer, r.honba, r.kyotaku, "abortive", reason=reason)


def check_chombo(r: RoundState, ev: Ryukyoku, p: Problems) -> Settlement:
    """Judge a chombo's ``ryukyoku``: it names the offender (``actor``), and may stop a hand at any
    moment of play. Its plan: the settlement by ``chombo`` (the riichi sticks accepted in the hand
    given back, the next hand this one again)."""
    if ev.actor is None:
        p.hard("ryukyoku: a chombo names its offender (actor)")
    check_seat(ev, "actor", ev.actor, r.players, p)
    returned = [seat for seat, st in enumerate(r.seats) if st.riichi_accepted]
    return settle_chombo(r.rules, r.players, r.dealer, r.honba, r.start.kyotaku, ev.actor, returned)


def abort_holds(r: RoundState, reason: str) -> bool:
    """Whether the condition of an abortive draw (tenbou's name, as in ``abortive_draws``)
    holds now, whether or not the rules play it."""
    if reason == "kyuushu_kyuuhai":
        st = r.seats[r.actor]
        return (
            r.phase is Phase.ACT
            and st.drawn is not None
            and first_go_around(r)
            and not st.discards
            and not st.riichi
            and len({t.kind for t in st.hand if t.kind in TERMINALS_AND_HONORS}) >= 9
        )
    if r.phase is not Phase.REACT or r.last_discard is None:
        return reason == "sanchahou" and r.phase is Phase.CHANKAN and three_rons(r)
    if reason == "suukaikan":
        return r.suukaikan_pending
    if reason == "suucha_riichi":
        return r.players == 4 and all(s.riichi for s in r.seats) and r.seats[r.actor].discards[-1].riichi
    if reason == "suufon_renda":
        return (
            r.players == 4
            and not r.calls_made
            and r.discards_made == 4
            and all(len(s.discards) == 1 for s in r.seats)
            and len({s.discards[0].tile.kind for s in r.seats}) == 1
            and r.seats[0].discards[0].tile.kind in _WIND_KINDS
        )
    if reason == "sanchahou":
        return three_rons(r)
    return False


def abort_reason(r: RoundState) -> str | None:
    """The abortive draw that holds now, if any (for a ``ryukyoku`` that gives no reason)."""
    for reason in ("kyuushu_kyuuhai", "suukaikan", "suucha_riichi", "suufon_renda"):
        if abort_holds(r, reason):
            return reason
    return None


def three_rons(r: RoundState) -> bool:
    """Three players could win on the tile in play (a triple ron)."""
    if r.phase is Phase.REACT and r.last_discard is not None:
        who, tile = r.last_discard
        kind = "ron"
    elif r.phase is Phase.CHANKAN and r.kan_tile is not None:
        who, tile, kan = r.kan_tile
        kind = "chankan" if kan != "kita" else "ron"
    else:
        return False
    wins = 0
    for seat in range(r.players):
        if (
            seat != who
            and tile.kind in r.waits(seat)
            and not r.furiten(seat)
            and can_win(r, seat, tile, who, kind)
        ):
            wins += 1
    return wins >= 3


def nagashi_mangan(r: RoundState, seat: int) -> bool:
    """Whether ``seat``'s river makes nagashi mangan: terminals and honours only, none called."""
    discards = r.seats[seat].discards
    return bool(discards) and all(d.tile.kind in TERMINALS_AND_HONORS and not d.called for d in discards)
