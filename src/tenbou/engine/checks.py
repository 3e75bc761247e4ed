"""The checks of a round's events (but the hora's and the ryukyoku's, which live with the wins
and the draws): pure functions of the round's state and an event.

Each check judges one event type against the state and reports what is wrong to
:class:`~tenbou.engine.referee.Problems` -- ``soft``, a broken rule of play after which the event
can still be carried out (out of turn, furiten, kuikae, ...); ``hard``, one after which it cannot
(a tile not held, no discard to call, a seat out of range) -- and returns the event's plan
(:mod:`tenbou.engine.plans`). Nothing here changes the round: the only thing written is the cache
of waits a seat keeps (a function of its hand). :meth:`Round.check_event
<tenbou.engine.round.Round.check_event>` picks the check of each event.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NoReturn

from ..core.hand import Meld, MeldType
from ..core.shape import waits
from ..core.tiles import Tile, format_sorted, format_tiles, tile_order
from ..errors import TenbouError
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
from .plans import CallPlan, KakanPlan
from .referee import Problems
from .state import (
    CALL_TYPES,
    Phase,
    RoundState,
    ankan_keeps_waits,
    check_numbers,
    check_seat,
    leaves_a_discard,
)
from .win import plan_win

__all__ = [
    "ROUND_EVENTS",
    "check_ankan",
    "check_call",
    "check_dahai",
    "check_dora",
    "check_end_kyoku",
    "check_kakan",
    "check_nukidora",
    "check_reach",
    "check_reach_accepted",
    "check_tsumo",
    "out_of_place",
]

#: the events of a hand (``start_kyoku`` is one, refused inside a hand)
ROUND_EVENTS = frozenset(
    {Tsumo, Dahai, Chi, Pon, Daiminkan, Kakan, Ankan, Nukidora, Dora, Reach, ReachAccepted, Hora, Ryukyoku,
     EndKyoku, StartKyoku}
)  # fmt: skip


def out_of_place(r: RoundState, event: Event, p: Problems) -> NoReturn:
    """Refuse an event that cannot come now, saying why: not an event of a hand, after
    ``end_kyoku``, after the hand ended, or (but another ron on the same tile) after a win."""
    name = event_name(event)
    if type(event) not in ROUND_EVENTS:
        p.hard(f"{name} cannot come inside a hand")
    if r.closed:
        p.hard(f"{name} after end_kyoku")
    if r.phase is Phase.ENDED:
        p.hard(f"{name} after the hand has ended")
    p.hard(f"{name} after a win (only another ron on the same tile or end_kyoku may follow)")


def check_tsumo(r: RoundState, ev: Tsumo, p: Problems) -> None:
    """A draw: the seat whose turn it is (after a discard nobody called, the next one; after a kan,
    the kan's caller), from a wall that is not empty, of a tile of the set not yet all in sight."""
    seat = ev.actor
    if type(seat) is not int or not 0 <= seat < r.players:  # (check_seat inline: the most frequent event)
        check_seat(ev, "actor", seat, r.players, p)
    if r.phase is Phase.REACT:
        assert r.last_discard is not None
        if r.suukaikan_pending and "suukaikan" in r.rules.abortive_draws:
            p.soft("tsumo after the fourth kan by two players was discarded: the hand is an abortive draw")
        expected = (r.last_discard[0] + 1) % r.players
        if seat != expected:
            p.soft(f"tsumo by seat {seat} out of turn (seat {expected} draws next)")
    elif r.phase is Phase.CHANKAN:
        assert r.kan_tile is not None
        if seat != r.kan_tile[0]:
            p.soft(f"tsumo by seat {seat}: seat {r.kan_tile[0]} draws the replacement tile")
    elif r.phase is not Phase.DRAW:
        p.hard(f"tsumo by seat {seat} while seat {r.actor} is to {r.phase.value}")
    elif seat != r.actor:
        p.soft(f"tsumo by seat {seat} out of turn (seat {r.actor} draws next)")
    if r.live_wall <= 0:
        p.hard("tsumo from an empty wall")
    bad = r.tiles.problem([ev.pai], "tsumo")
    if bad:
        p.hard(bad)


def check_dahai(r: RoundState, ev: Dahai, p: Problems) -> None:
    """A discard: by the seat to act, of a tile it holds; in riichi only the drawn tile; no
    kuikae; a true tsumogiri mark; the riichi tile keeps the hand tenpai."""
    seat = ev.actor
    if type(seat) is not int or not 0 <= seat < r.players:  # (check_seat inline: the most frequent event)
        check_seat(ev, "actor", seat, r.players, p)
    st = r.seats[seat]
    if r.phase is not Phase.ACT or seat != r.actor:
        p.hard(f"dahai by seat {seat} while seat {r.actor} is to {r.phase.value}")
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
        if not waits(counts, closed=not st.melds, players=r.players):
            p.soft(f"riichi: discarding {ev.pai} leaves seat {seat} not tenpai")


def check_call(r: RoundState, ev: Chi | Pon | Daiminkan, p: Problems) -> CallPlan:
    """A chi, pon or daiminkan of the last discard, from the hand, by another seat not in riichi
    (a chi only from the left, four players), a kan still possible, not houtei, a discard left
    after it by kuikae. Its plan: the meld, the caller's furiten, and, for the daiminkan of the
    fourth kan under ``suukantsu_pao_timing = "fourth_kan"``, the suukantsu dealt in
    (:func:`~tenbou.engine.win.plan_win`)."""
    check_seat(ev, "actor", ev.actor, r.players, p)
    check_seat(ev, "target", ev.target, r.players, p)
    seat, target = ev.actor, ev.target
    kind = CALL_TYPES[type(ev)]
    name = kind.value
    if r.phase is not Phase.REACT or r.last_discard is None:
        p.hard(f"{name} by seat {seat} with no discard to call")
    who, tile = r.last_discard
    if target != who or ev.pai != tile:
        p.hard(f"{name} of {ev.pai} from seat {target}: the last discard is {tile} by seat {who}")
    if seat == who:
        p.hard(f"{name}: seat {seat} cannot call its own discard")
    want = 3 if kind is MeldType.DAIMINKAN else 2
    if len(ev.consumed) != want:
        p.hard(f"{name}.consumed: {len(ev.consumed)} tiles from the hand, a {name} takes {want}")
    holds(r, seat, ev.consumed, name, p)
    try:
        meld = Meld(kind, (*ev.consumed, ev.pai), target, ev.pai)
    except TenbouError as e:
        p.hard(f"{name}: {e}")
    st = r.seats[seat]
    if st.riichi:
        p.soft(f"{name}: seat {seat} is in riichi and cannot call")
    if kind is MeldType.CHI and (r.players == 3 or seat != (who + 1) % r.players):
        p.soft(f"chi: seat {seat} can only chi from the player on its left")
    if kind is MeldType.DAIMINKAN and (r.live_wall <= 0 or r.kans_declared >= 4):
        p.soft("daiminkan: no kan is possible now (the wall is empty or four kans are out)")
    if r.live_wall <= 0 and kind is not MeldType.DAIMINKAN:
        p.soft(f"{name}: the last discard (houtei) cannot be called")
    if not leaves_a_discard(r, seat, ev.consumed, meld):
        p.soft(f"{name}: after it, kuikae forbids every tile seat {seat} would hold (no discard left)")
    if kind is MeldType.DAIMINKAN and r.fourth_kan_deal_in(seat, ev.pai):
        # the fourth kan: the hand ends here, settled as the hora of ``seat`` on the discard
        return CallPlan(meld, False, plan_win(r, seat, ev.pai, who, "fourth_kan", None, p))
    return CallPlan(meld, kind is MeldType.DAIMINKAN and r.furiten(seat))


def check_own_kan(r: RoundState, seat: int, what: str, p: Problems) -> None:
    """A kakan or ankan: on the seat's own turn after a draw, with a kan still possible."""
    st = r.seats[seat]
    if r.phase is not Phase.ACT or seat != r.actor or st.drawn is None:
        p.hard(f"{what} by seat {seat} while seat {r.actor} is to {r.phase.value}")
    if st.declaring:
        p.hard(f"{what}: seat {seat} has declared riichi and must discard first")
    if r.live_wall <= 0 or r.kans_declared >= 4:
        p.soft(f"{what}: no kan is possible now (the wall is empty or four kans are out)")


def check_kakan(r: RoundState, ev: Kakan, p: Problems) -> KakanPlan:
    """A kakan: on one's own turn, of a tile held onto one's own pon (the plan names it)."""
    check_seat(ev, "actor", ev.actor, r.players, p)
    seat = ev.actor
    st = r.seats[seat]
    check_own_kan(r, seat, "kakan", p)
    i = next((i for i, m in enumerate(st.melds) if m.type is MeldType.PON and m.kind == ev.pai.kind), None)
    if i is None:
        p.hard(f"kakan of {ev.pai}: seat {seat} has no pon of it")
    holds(r, seat, [ev.pai], "kakan", p)
    if sorted(ev.consumed, key=tile_order) != sorted(st.melds[i].tiles, key=tile_order):
        p.hard(
            f"kakan.consumed: {format_tiles(ev.consumed)} is not seat {seat}'s pon "
            f"{format_tiles(st.melds[i].tiles)}"
        )
    return KakanPlan(i)


def check_ankan(r: RoundState, ev: Ankan, p: Problems) -> None:
    """An ankan: on one's own turn, of four of a kind held; in riichi, only of the drawn tile and
    keeping the waits."""
    check_seat(ev, "actor", ev.actor, r.players, p)
    seat = ev.actor
    st = r.seats[seat]
    check_own_kan(r, seat, "ankan", p)
    if len(ev.consumed) != 4 or len({t.kind for t in ev.consumed}) != 1:
        p.hard(f"ankan: {format_tiles(ev.consumed)} is not four of a kind")
    holds(r, seat, ev.consumed, "ankan", p)
    if st.riichi_accepted:
        if st.drawn is None or st.drawn.kind != ev.consumed[0].kind:
            p.soft("ankan in riichi: only of the tile just drawn")
        elif not ankan_keeps_waits(r, seat, ev):
            p.soft("ankan in riichi would change the waits")


def check_nukidora(r: RoundState, ev: Nukidora, p: Problems) -> None:
    """A kita: North set aside by the seat to act, three players under nukidora rules."""
    check_seat(ev, "actor", ev.actor, r.players, p)
    seat = ev.actor
    st = r.seats[seat]
    if r.players != 3 or not r.rules.nukidora:
        p.hard("nukidora: North is only set aside with three players under nukidora rules")
    if r.phase is not Phase.ACT or seat != r.actor:
        p.hard(f"nukidora by seat {seat} while seat {r.actor} is to {r.phase.value}")
    if ev.pai.kind != 30:
        p.hard(f"nukidora of {ev.pai}: only North is set aside")
    holds(r, seat, [ev.pai], "nukidora", p)
    if st.declaring:
        p.hard(f"nukidora: seat {seat} has declared riichi and must discard first")
    if r.live_wall <= 0:
        p.soft("nukidora: no replacement tile is left (the wall is empty)")


def check_dora(r: RoundState, ev: Dora, p: Problems) -> None:
    """A new dora indicator: after a kan (``kan_dora``), at most five, a tile of the set."""
    if len(r.dora_markers) >= 5:
        p.hard("dora: five indicators are already shown")
    limit = 1 + r.kans_declared if r.rules.kan_dora else 1
    if len(r.dora_markers) >= limit:
        p.soft(f"dora: a new indicator needs a kan ({len(r.dora_markers)} shown, {r.kans_declared} kans)")
    bad = r.tiles.problem([ev.dora_marker], "dora")
    if bad:
        p.hard(bad)


def check_reach(r: RoundState, ev: Reach, p: Problems) -> None:
    """A riichi declaration: by the seat to act, closed, with the points, a draw left."""
    check_seat(ev, "actor", ev.actor, r.players, p)
    seat = ev.actor
    st = r.seats[seat]
    if r.phase is not Phase.ACT or seat != r.actor:
        p.hard(f"reach by seat {seat} while seat {r.actor} is to {r.phase.value}")
    if st.riichi:
        p.hard(f"reach: seat {seat} is already in riichi")
    if not st.closed:
        p.soft(f"reach: seat {seat} has an open hand")
    if st.score < r.rules.riichi_min_points:
        p.soft(f"reach: seat {seat} has {st.score} points, {r.rules.riichi_min_points} are needed")
    if r.live_wall < r.players:
        p.soft("reach: no draw is left for the declarer")


def check_reach_accepted(r: RoundState, ev: ReachAccepted, p: Problems) -> None:
    """A riichi accepted: its tile was just discarded and nobody won on it."""
    check_seat(ev, "actor", ev.actor, r.players, p)
    seat = ev.actor
    st = r.seats[seat]
    if not st.riichi or st.riichi_accepted or not st.discards or not st.discards[-1].riichi:
        p.hard(f"reach_accepted: seat {seat} has not just declared riichi")
    if r.phase is not Phase.REACT or r.last_discard is None or r.last_discard[0] != seat:
        p.hard(f"reach_accepted: seat {seat}'s riichi tile is no longer the last discard")
    check_numbers(ev, r.players, p)


def check_end_kyoku(r: RoundState, ev: EndKyoku, p: Problems) -> None:
    """The end of the hand: only after a win or a draw."""
    if r.result is None and r.pending is None:
        p.hard("end_kyoku before the hand ended (no hora or ryukyoku)")


def holds(r: RoundState, seat: int, tiles: Sequence[Tile], what: str, p: Problems) -> None:
    """``seat`` holds ``tiles`` (as many times as listed), or ``what`` is refused."""
    if missing(r, seat, tiles) is not None:
        p.hard(f"{what}: seat {seat} does not hold {format_tiles(tiles)} (hand {hand_text(r, seat)})")


def missing(r: RoundState, seat: int, tiles: Sequence[Tile]) -> Tile | None:
    """The first of ``tiles`` that ``seat`` does not hold (as many times as listed)."""
    hand = list(r.seats[seat].hand)
    for t in tiles:
        if t not in hand:
            return t
        hand.remove(t)
    return None


def hand_text(r: RoundState, seat: int) -> str:
    """``seat``'s hand as text, sorted."""
    return format_sorted(r.seats[seat].hand)
