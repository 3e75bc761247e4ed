"""What a seat may do now in a round, as events: the choices of a bot.

:func:`legal_actions` lists, for the seat to act after its draw or call, the tsumo win, every
discard (only those that keep tenpai between ``reach`` and its tile; only the drawn tile in riichi;
none that kuikae forbids), riichi, the kans (in riichi, an ankan that keeps the waits), kita with
three players and nine terminals; for the others, on a discard, the ron and the calls (the fourth
kan dealt in offered as the ``hora`` tenbou writes for it); on a kan to rob, the chankan. Passing is
always possible when something is offered and is not listed. Each action listed passes the
round's check (tests/test_selfplay.py plays them); nothing here changes the round.
"""

from __future__ import annotations

from ..core.hand import MeldType
from ..core.shape import is_tenpai, is_winning, tenpai_after_discard
from ..core.tiles import Tile, tile_order
from .draws import abort_holds
from .events import Ankan, Chi, Dahai, Daiminkan, Event, Hora, Kakan, Nukidora, Pon, Reach, Ryukyoku
from .state import Phase, RoundState, ankan_keeps_waits, leaves_a_discard, meld_of
from .win import can_win, is_kokushi_wait

__all__ = ["legal_actions"]


def legal_actions(r: RoundState, seat: int) -> list[Event]:
    """What ``seat`` may do now, as events (see the module docstring)."""
    if r.phase is Phase.ACT and seat == r.actor:
        return _after_draw(r, seat)
    if r.phase is Phase.REACT and r.last_discard is not None and seat != r.last_discard[0]:
        who, tile = r.last_discard
        return _on_discard(r, seat, who, tile)
    if r.phase is Phase.CHANKAN and r.kan_tile is not None and seat != r.kan_tile[0]:
        who, tile, kan = r.kan_tile
        return _on_kan(r, seat, who, tile, kan)
    return []


def _after_draw(r: RoundState, seat: int) -> list[Event]:
    """The seat to act, after its draw or call: a tsumo win, its discards, riichi, kans, kita and
    nine terminals, in that order."""
    out: list[Event] = []
    st = r.seats[seat]
    hand_kinds = st.kinds()
    if st.drawn is not None and _completes(r, seat, st.drawn) and can_win(r, seat, st.drawn, None, "tsumo"):
        out.append(Hora(seat, seat, st.drawn))
    if st.riichi_accepted:
        if st.drawn is not None:
            out.append(Dahai(seat, st.drawn, True))
    else:
        _discards(r, seat, out)
        if (
            not st.riichi
            and st.closed
            and st.score >= r.rules.riichi_min_points
            and r.live_wall >= r.players
            and riichi_possible(r, seat)
        ):
            out.append(Reach(seat))
    _own_kans(r, seat, hand_kinds, out)
    if r.players == 3 and r.rules.nukidora and hand_kinds[30] and r.live_wall > 0 and not st.declaring:
        out.append(Nukidora(seat, next(t for t in st.hand if t.kind == 30)))
    if "kyuushu_kyuuhai" in r.rules.abortive_draws and abort_holds(r, "kyuushu_kyuuhai"):
        out.append(Ryukyoku(reason="kyushukyuhai"))
    return out


def _completes(r: RoundState, seat: int, drawn: Tile) -> bool:
    """Whether ``seat``'s drawn tile completes its hand: the drawn kind among the waits before the
    draw (cached: polled on the discards before), or, with three players and a tile of 2m-8m (not
    in the set, so no wait), the hand read whole."""
    if r.players == 3 and 0 < drawn.kind < 8:
        st = r.seats[seat]
        return is_winning(st.kinds(), closed=not st.melds)
    return drawn.kind in r.waits_before_draw(seat)


def _discards(r: RoundState, seat: int, out: list[Event]) -> None:
    """The discards of a seat not in riichi, each tile once (the drawn tile as tsumogiri, and as a
    discard from the hand where it holds another): none kuikae forbids, and between ``reach`` and
    its tile only those that keep the hand tenpai."""
    st = r.seats[seat]
    declaring = st.riichi
    kuikae = st.kuikae
    drawn = st.drawn
    seen = [False] * 68  # (each tile once: by kind and red flag, not a set of tiles hashed)
    for t in st.hand:
        key = 2 * t.kind + (1 if t.red else 0)
        if seen[key] or (kuikae and t.kind in kuikae):
            continue
        seen[key] = True
        if declaring:
            c = st.kinds()
            c[t.kind] -= 1
            if not is_tenpai(c, closed=not st.melds, players=r.players):
                continue
        if t == drawn:
            out.append(Dahai(seat, t, True))
            if st.hand.count(t) > 1:
                out.append(Dahai(seat, t, False))
        else:
            out.append(Dahai(seat, t, False))


def _own_kans(r: RoundState, seat: int, hand_kinds: list[int], out: list[Event]) -> None:
    """The ankans and kakans of the seat after its draw, with a kan still possible; in riichi only
    the ankan of the drawn tile that keeps the waits."""
    st = r.seats[seat]
    if st.drawn is None or r.live_wall <= 0 or r.kans_declared >= 4:
        return
    if not st.riichi:
        for k in range(34):
            if hand_kinds[k] == 4:
                out.append(Ankan(seat, tuple(t for t in st.hand if t.kind == k)))
        for m in st.melds:
            if m.type is MeldType.PON and hand_kinds[m.kind]:
                tile = next(t for t in st.hand if t.kind == m.kind)
                out.append(Kakan(seat, tile, m.tiles))
    elif st.riichi_accepted:
        k = st.drawn.kind
        if hand_kinds[k] == 4:
            cand = Ankan(seat, tuple(t for t in st.hand if t.kind == k))
            if ankan_keeps_waits(r, seat, cand):
                out.append(cand)


def _on_discard(r: RoundState, seat: int, who: int, tile: Tile) -> list[Event]:
    """Another seat's discard: the ron, then the calls (the fourth kan dealt in offered as the
    ``hora`` tenbou writes for it). Most seats can do nothing with most discards: the hand's counts
    tell it (the kind among the cached waits; two of it; its neighbours for a chi) before any
    event is made."""
    out: list[Event] = []
    st = r.seats[seat]
    counts = st.kinds()
    k = tile.kind
    if k in r.waits_of(seat, counts) and not r.furiten(seat) and can_win(r, seat, tile, who, "ron"):
        out.append(Hora(seat, who, tile))
    if not st.riichi and r.live_wall > 0 and (counts[k] >= 2 or _chi_shape(r, seat, who, k, counts)):
        calls = call_options(r, seat, who, tile)
        if r.fourth_kan_deal_in(seat, tile) and any(isinstance(c, Daiminkan) for c in calls):
            # the fourth kan is the hand's end: offered as the hora tenbou writes for it
            calls = [c if not isinstance(c, Daiminkan) else Hora(seat, who, tile) for c in calls]
        out.extend(calls)
    return out


def _chi_shape(r: RoundState, seat: int, who: int, k: int, counts: list[int]) -> bool:
    """Whether ``seat`` may chi ``who``'s discard of kind ``k`` by seat and by the tiles it holds
    (a run of three with it); kuikae aside (:func:`call_options` judges that)."""
    if r.players != 4 or seat != (who + 1) % 4 or k >= 27:
        return False
    n = k % 9
    return (
        (n >= 2 and counts[k - 2] > 0 and counts[k - 1] > 0)
        or (1 <= n <= 7 and counts[k - 1] > 0 and counts[k + 1] > 0)
        or (n <= 6 and counts[k + 1] > 0 and counts[k + 2] > 0)
    )


def _on_kan(r: RoundState, seat: int, who: int, tile: Tile, kan: str) -> list[Event]:
    """Another seat's kan (or kita) to rob: the chankan (an ankan only by kokushi musou)."""
    if tile.kind not in r.waits(seat) or r.furiten(seat):
        return []
    if kan == "ankan" and not is_kokushi_wait(r, seat, tile):
        return []
    if can_win(r, seat, tile, who, "chankan" if kan != "kita" else "ron"):
        return [Hora(seat, who, tile)]
    return []


def riichi_possible(r: RoundState, seat: int) -> bool:
    """Whether some discard leaves ``seat``'s hand tenpai (one reading of the hand,
    :func:`tenbou.core.shape.tenpai_after_discard`, not the waits of each discard)."""
    st = r.seats[seat]
    return tenpai_after_discard(st.kinds(), closed=not st.melds, players=r.players)


def call_options(r: RoundState, seat: int, who: int, tile: Tile) -> list[Event]:
    """The pons, daiminkan and chis ``seat`` may make of ``who``'s discard ``tile`` (each choice of
    tiles from the hand once, red fives apart), but a call after which kuikae forbids every tile."""
    st = r.seats[seat]
    out: list[Chi | Pon | Daiminkan] = []
    same = [t for t in st.hand if t.kind == tile.kind]
    if len(same) >= 2:
        seen: set[tuple[Tile, ...]] = set()
        for i in range(len(same)):
            for j in range(i + 1, len(same)):
                pair = tuple(sorted((same[i], same[j]), key=tile_order))
                if pair not in seen:
                    seen.add(pair)
                    out.append(Pon(seat, who, tile, pair))
    if len(same) == 3 and r.kans_declared < 4:
        out.append(Daiminkan(seat, who, tile, tuple(same)))
    if r.players == 4 and seat == (who + 1) % 4 and tile.kind < 27:
        k, n = tile.kind, tile.kind % 9
        for lo in (k - 2, k - 1, k):
            if lo < k - n or lo + 2 > k - n + 8:
                continue
            others = [x for x in (lo, lo + 1, lo + 2) if x != k]
            picks: list[list[Tile]] = [[t for t in st.hand if t.kind == x] for x in others]
            if all(picks):
                options = {(a, b) for a in set(picks[0]) for b in set(picks[1])}
                for a, b in sorted(options, key=lambda p: (tile_order(p[0]), tile_order(p[1]))):
                    out.append(Chi(seat, who, tile, (a, b)))
    return [c for c in out if isinstance(c, Daiminkan) or leaves_a_discard(r, seat, c.consumed, meld_of(c))]
