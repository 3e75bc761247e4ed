"""A win in a round: its check, its score from the round's state, its pao and its settlement.

A ``hora`` is judged by :func:`check_hora` against the state (whose tile, furiten, the kan robbed,
the fourth kan dealt in) and planned by :func:`plan_win`: the hand is scored from the round's own
state -- every situational flag (:func:`win_flags`), the ura indicators the record shows, the pao
the calls made in their order and the daiminkan a rinshan win follows (:func:`liabilities_of`) --
and settled with the wins of the same tile before it by :func:`tenbou.settle.payment.settle_wins`,
as a request is. The plan keeps the request that reproduces the settlement (``tenbou settle``).
:func:`can_win` asks the same of a tile a seat might win on (legal actions, a triple ron).
Nothing here changes the round.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.hand import Hand, Situation
from ..core.scoring import HandScore, score_hand
from ..core.shape import is_kokushi
from ..core.tiles import Tile, format_sorted, format_tiles
from ..errors import TenbouError
from ..settle import pao as _pao
from ..settle.pao import Liability
from ..settle.payment import settle_wins
from .events import Hora
from .plans import WinPlan
from .referee import Problems
from .state import Phase, RoundState, check_numbers, check_seat, first_go_around, kan_order

__all__ = ["can_win", "check_hora", "is_kokushi_wait", "plan_win"]


def check_hora(r: RoundState, ev: Hora, p: Problems) -> WinPlan:
    """Judge a ``hora``: a tsumo on the drawn tile, a ron on the last discard (or the fourth kan
    dealt in, under ``suukantsu_pao_timing = "fourth_kan"``), a chankan on the kan to rob (an
    ankan only by kokushi musou); not furiten, one win per seat. Its plan: :func:`plan_win`."""
    check_seat(ev, "actor", ev.actor, r.players, p)
    check_seat(ev, "target", ev.target, r.players, p)
    seat, target = ev.actor, ev.target
    st = r.seats[seat]
    if any(h.actor == seat for h, _ in r.horas):
        p.hard(f"hora: seat {seat} has already won on this tile")
    if seat == target:
        if r.phase is not Phase.ACT or seat != r.actor or st.drawn is None:
            p.hard(f"hora (tsumo) by seat {seat} without a drawn tile")
        tile = st.drawn
        kind = "tsumo"
        discarder = None
        if ev.pai is not None and ev.pai != tile:
            p.soft(f"hora on {ev.pai}, but the drawn tile is {tile}")
    else:
        if r.phase is Phase.REACT and r.last_discard is not None and r.last_discard[0] == target:
            tile = r.last_discard[1]
            kind = "fourth_kan" if r.fourth_kan_deal_in(seat, tile) else "ron"
        elif r.phase is Phase.CHANKAN and r.kan_tile is not None and r.kan_tile[0] == target:
            tile = r.kan_tile[1]
            kind = "chankan" if r.kan_tile[2] != "kita" else "ron"
            if r.kan_tile[2] == "ankan" and not is_kokushi_wait(r, seat, tile):
                p.hard("hora: an ankan can only be robbed by kokushi musou")
        else:
            p.hard(f"hora by seat {seat} on seat {target}: there is no tile of seat {target} to win on")
        discarder = target
        if kind == "fourth_kan":  # a call: no furiten, but the call's own limits
            if r.horas:
                p.hard(f"hora: seat {seat}'s fourth kan is a call: a ron of the same discard comes first")
            if st.riichi:
                p.soft(f"hora: seat {seat} is in riichi and cannot call the fourth kan")
            if r.live_wall <= 0 or r.kans_declared >= 4:
                p.soft("hora: the fourth kan cannot be called (the wall is empty or four kans are out)")
        elif r.furiten(seat):
            p.soft(f"hora: seat {seat} is furiten")
        if ev.pai is not None and ev.pai != tile:
            p.soft(f"hora on {ev.pai}, but the tile is {tile}")
    check_numbers(ev, r.players, p)
    return plan_win(r, seat, tile, discarder, kind, ev.ura_markers, p)


def plan_win(
    r: RoundState,
    seat: int,
    tile: Tile,
    discarder: int | None,
    kind: str,
    ura_markers: Sequence[Tile] | None,
    p: Problems,
) -> WinPlan:
    """``seat`` winning now on ``tile`` (``kind`` as :func:`win_flags` takes it; the ura
    indicators a record shows): the win's request fields, score, liabilities and the settlement
    of the wins so far."""
    st = r.seats[seat]
    fields = win_fields(r, seat, tile, discarder, kind)
    ura = list(ura_markers or ())
    if len(ura) > len(r.dora_markers):
        p.soft(f"hora.ura_markers: {len(ura)} ura indicators for {len(r.dora_markers)} dora indicators")
    shown = r.ura_markers
    if ura[: len(shown)] != shown[: len(ura)]:
        p.hard(f"hora.ura_markers: {format_tiles(ura)} differ from {format_tiles(shown)} of the other win")
    bad = r.tiles.problem(ura[len(shown) :], "hora.ura_markers")
    if bad:
        p.hard(bad)
    ura_shown = tuple(ura[: len(r.dora_markers)]) if st.riichi_accepted and r.rules.ura_dora else ()
    if ura_shown:
        fields["ura_indicators"] = [str(t) for t in ura_shown]
    try:
        hs = score_win(r, seat, tile, discarder, kind, ura_shown)
    except TenbouError as e:
        p.hard(f"hora by seat {seat}: {e}")
    liabilities = liabilities_of(r, seat, hs)
    fields["pao"] = [{"yaku": x.yaku, "seat": x.seat} for x in liabilities if x.rule != "daiminkan_pao"]
    scored = [*r.pending.scored, (hs, liabilities)] if r.pending is not None else [(hs, liabilities)]
    try:
        settlement = settle_wins(scored, r.honba, r.kyotaku)
    except TenbouError as e:
        p.hard(f"hora by seat {seat}: the win cannot be settled: {e}")
    request = settle_request(r, [f for _, f in r.horas] + [fields])
    return WinPlan(fields, request, settlement, scored)


def win_flags(r: RoundState, seat: int, discarder: int | None, kind: str) -> dict[str, bool]:
    """The situational flags of ``seat`` winning now (``kind``: tsumo, ron, chankan, or
    fourth_kan: the daiminkan of the discard that makes ``seat``'s fourth kan)."""
    st = r.seats[seat]
    first = first_go_around(r)
    wall_empty = r.live_wall == 0
    return {
        "riichi": st.riichi_accepted and not st.double_riichi,
        "double_riichi": st.riichi_accepted and st.double_riichi,
        "ippatsu": st.riichi_accepted and st.ippatsu and r.rules.ippatsu,
        "rinshan": discarder is None and st.rinshan,
        "chankan": kind == "chankan",
        "haitei": discarder is None and wall_empty and not st.rinshan,
        "houtei": discarder is not None and wall_empty and kind == "ron",
        "tenhou": discarder is None and first and not st.discards and seat == r.dealer,
        "chiihou": discarder is None and first and not st.discards and seat != r.dealer,
        "renhou": discarder is not None and first and not st.has_drawn and seat != r.dealer,
        "fourth_kan": kind == "fourth_kan",
    }


def rinshan_kan_from(r: RoundState) -> int | None:
    """Who dealt the daiminkan a rinshan win now follows, for daiminkan pao (``None``: no pao)."""
    if (
        r.chain_from is None
        or (r.chain_broken and not r.rules.daiminkan_pao_chain)
        or (r.chain_furiten and not r.rules.daiminkan_pao_furiten)
    ):
        return None
    return r.chain_from


def win_fields(r: RoundState, seat: int, win_tile: Tile, discarder: int | None, kind: str) -> dict[str, Any]:
    """The winning-hand fields of a scoring request for ``seat`` winning on ``win_tile`` (the
    request that reproduces the win with ``tenbou settle``)."""
    st = r.seats[seat]
    concealed = list(st.hand)
    if discarder is None:
        concealed.remove(win_tile)
    req: dict[str, Any] = {
        "winner": seat,
        "from": discarder,
        "hand": format_sorted(concealed),
        "melds": [m.to_dict() for m in st.melds],
        "win_tile": str(win_tile),
        "dora_indicators": [str(t) for t in r.dora_markers],
        "kita": st.kita,
    }
    flags = win_flags(r, seat, discarder, kind)
    req.update({k: True for k, v in flags.items() if v})
    if flags["rinshan"]:
        req["rinshan_kan_from"] = rinshan_kan_from(r)
    order = kan_order(r, seat)
    if order != sorted(order):  # a kakan declared after a later call: the request says so
        req["kan_order"] = order
    return req


def score_win(
    r: RoundState, seat: int, win_tile: Tile, discarder: int | None, kind: str, ura: tuple[Tile, ...] = ()
) -> HandScore:
    """The value of ``seat`` winning now on ``win_tile``; :class:`~tenbou.errors.TenbouError`
    when it is no win (not a winning hand, no yaku, a contradiction)."""
    st = r.seats[seat]
    concealed = list(st.hand)
    if discarder is None:
        concealed.remove(win_tile)
    hand = Hand(tuple(concealed), tuple(st.melds), win_tile)  # (a hand sorts its tiles)
    situation = Situation(
        r.players,
        r.dealer,
        seat,
        discarder,
        r.round_wind,
        **win_flags(r, seat, discarder, kind),
        dora_indicators=tuple(r.dora_markers),
        ura_indicators=ura,
        kita=st.kita,
    )
    return score_hand(hand, situation, r.rules)


def liabilities_of(r: RoundState, seat: int, hs: HandScore) -> tuple[Liability, ...]:
    """Liabilities as the calls happened (:func:`tenbou.settle.pao.win_liabilities`): the kans in the
    order they were declared, and the daiminkan a rinshan chain began with."""
    return _pao.win_liabilities(
        hs, kan_order=kan_order(r, seat), kan_from=rinshan_kan_from(r), kan_from_named=True
    )


def settle_request(r: RoundState, wins: list[dict[str, Any]]) -> dict[str, Any]:
    """The settle request of ``wins`` (their request fields) in this hand."""
    return {
        "players": r.players,
        "dealer": r.dealer,
        "round_wind": r.round_wind.value,
        "honba": r.honba,
        "riichi_sticks": r.kyotaku,
        "wins": wins,
    }


def can_win(r: RoundState, seat: int, tile: Tile, discarder: int | None, kind: str) -> bool:
    """Whether ``seat`` could win now on ``tile`` (a winning hand with a yaku), furiten aside."""
    try:
        score_win(r, seat, tile, discarder, kind)
    except TenbouError:
        return False
    return True


def is_kokushi_wait(r: RoundState, seat: int, tile: Tile) -> bool:
    """Whether ``tile`` completes ``seat``'s closed hand as kokushi musou (which alone robs an ankan)."""
    st = r.seats[seat]
    c = st.kinds()
    c[tile.kind] += 1
    return not st.melds and is_kokushi(c)
