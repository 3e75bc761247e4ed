"""The JSON form of results: a hand's value, a win's settlement and a hand's end, as the dicts of
``docs/json-api.md``. The engine (:class:`~tenbou.engine.game.Game`) and the JSON façade (:mod:`tenbou.api`)
both give their results in this form, so it lives below both.

>>> from tenbou.core.hand import Hand, Situation
>>> from tenbou.rules import get_rules
>>> from tenbou.core.scoring import score_hand
>>> hs = score_hand(Hand.parse("234m678p5578s +9s ankan:7777z"), Situation(winner=2), get_rules("tenhou"))
>>> out = hand_score_to_dict(hs)
>>> out["han"], out["fu"], [y["id"] for y in out["yaku"]], out["wait"]
(2, 60, ['menzen_tsumo', 'chun'], 'ryanmen')
"""

from __future__ import annotations

from typing import Any, Final

from ..core.scoring import FuItem, HandScore, Limit
from ..core.yaku import YAKU_BY_ID, Form
from .pao import Liability
from .payment import _HAND, _HAND_TEXT, _PAO, _PAO_TEXT, Settlement, WinSettlement, add_payment_dicts

__all__ = ["hand_score_to_dict", "settlement_to_dict", "win_points", "win_settlement_to_dict", "win_to_dict"]


#: the output entry of each yaku with each han met so far, by the yaku's ``_index`` (its place in
#: ``YAKU_ORDER``), then han (``None`` where not met yet), copied for a hand (a row of 64: a caller's
#: own values are not kept without bound; lists: compiled, a list's item is read natively, a dict's
#: is looked up); the last row, never filled, is the one read for a yaku not of the table (index -1)
_YAKU_ENTRY: Final[list[list[dict[str, Any] | None]]] = [[None] * 64 for _ in range(len(YAKU_BY_ID) + 1)]


def _yaku_entry(yaku_id: str, han: int) -> dict[str, Any]:
    """The output entry of a yaku with ``han``, kept for the next hands when its row has room."""
    y = YAKU_BY_ID[yaku_id]
    entry: dict[str, Any] = {"id": y.id, "name": y.name, "name_ja": y.name_ja, "han": han}
    row = _YAKU_ENTRY[y._index]
    if 0 <= han < len(row):
        row[han] = entry
    return entry.copy()


#: the output entry of each fu line met so far, copied for a hand (a copy costs less than a new dict;
#: the lines of a breakdown are a few made once, in scoring)
_FU_ENTRY: Final[dict[FuItem, dict[str, Any]]] = {}


def _fu_entry(item: FuItem) -> dict[str, Any]:
    """The output entry of a fu line, kept for the next hands (up to a few hundred lines: a caller's
    own lines are not kept without bound)."""
    entry: dict[str, Any] = {"reason": item[0], "fu": item[1]}
    if len(_FU_ENTRY) < 512:
        _FU_ENTRY[item] = entry
    return entry.copy()


def hand_score_to_dict(hs: HandScore) -> dict[str, Any]:
    """The winning-hand output fields of a :class:`HandScore` (no payments)."""
    s = hs.situation
    yaku = []
    for yk, han, yakuman in hs.yaku:
        # (a han past the row: IndexError, cheaper in pure Python than a test, or compiled
        # OverflowError past an index's range; a negative one would index the row from its end: not
        # looked up)
        try:
            kept = _YAKU_ENTRY[yk._index][han] if han >= 0 else None
        except (IndexError, OverflowError):
            kept = None
        entry = _yaku_entry(yk.id, han) if kept is None else kept.copy()
        if yakuman:
            entry["yakuman"] = yakuman
        yaku.append(entry)
    fu = []  # (a loop: in pure Python a list comprehension is a call, dearer than the appends)
    for item in hs.fu_breakdown:
        try:
            fu.append(_FU_ENTRY[item].copy())
        except KeyError:
            fu.append(_fu_entry(item))
    r = hs.reading
    limit = hs.limit
    form = r.form
    out: dict[str, Any] = {
        "han": hs.han,
        "fu": hs.fu,
        "limit": None if limit is None else _MANGAN_TEXT if limit is _MANGAN else limit._value_,
        "base_points": hs.base_points,
        "yaku": yaku,
        "fu_breakdown": fu,
        "winner": s.winner,
        "from": s.discarder,
        "dealer": s.winner == s.dealer,
        "wait": r.wait._value_,
        "form": _STANDARD_TEXT if form is _STANDARD else form._value_,
    }
    if s.fourth_kan:  # a suukantsu dealt in at the fourth kan (added to the output, only then)
        out["fourth_kan"] = True
    return out


# (the usual values by identity: compiled, an Enum's value is a generic look-up)
_MANGAN: Final = Limit.MANGAN
_MANGAN_TEXT: Final[str] = Limit.MANGAN._value_
_STANDARD: Final = Form.STANDARD
_STANDARD_TEXT: Final[str] = Form.STANDARD._value_


def win_points(w: WinSettlement) -> int:
    """What is paid for a win's hand: its hand and pao payments, not honba nor riichi sticks (the
    ``points`` of its output). Here a pinfu tanyao ron for 2,000, with one honba and one stick:

    >>> from tenbou.core.hand import Hand, Situation
    >>> from tenbou.core.scoring import score_hand
    >>> from tenbou.rules import get_rules
    >>> from tenbou.settle.payment import settle_win
    >>> ron = Situation(winner=1, discarder=0)
    >>> w = settle_win(score_hand(Hand.parse("234m456p678s2355s +4s"), ron, get_rules("tenhou")), (), 1, 1)
    >>> win_points(w), w.deltas
    (2000, (-2300, 3300, 0, 0))
    """
    points = 0
    for p in w.payments:
        kind = p.kind
        if kind is _HAND or kind is _PAO:
            points += p.points
    return points


def win_settlement_to_dict(w: WinSettlement) -> dict[str, Any]:
    """A winning-hand output: value, yaku, fu, and this win's pao, payments and deltas."""
    payments: list[dict[str, Any]] = []
    add_payment_dicts(list(w.payments), payments)
    chips = None if w.chips is None else list(w.chips)
    return win_to_dict(w.score, w.pao, payments, list(w.deltas), chips, win_points(w))


def win_to_dict(
    hs: HandScore,
    pao: tuple[Liability, ...],
    payments: list[dict[str, Any]],
    deltas: list[int],
    chips: list[int] | None,
    points: int | None = None,
) -> dict[str, Any]:
    """:func:`win_settlement_to_dict` of a win's parts, its payments as their JSON objects
    (``payments``, ``deltas`` and ``chips`` are put in the output as they are, not copied);
    ``points``, what is paid for the hand (its hand and pao payments), is summed from the payments
    when not given."""
    out = hand_score_to_dict(hs)
    if points is None:
        points = 0  # (not honba, not the sticks)
        for o in payments:
            kind: str = o["kind"]  # (typed: compiled, native str and int operations)
            if kind in (_HAND_TEXT, _PAO_TEXT):
                paid: int = o["points"]
                points += paid
    out["points"] = points
    out["pao"] = [p.to_dict() for p in pao] if pao else []
    out["payments"] = payments
    out["deltas"] = deltas
    if chips is not None:
        out["chips"] = chips
    return out


def settlement_to_dict(st: Settlement) -> dict[str, Any]:
    """The JSON output of a settlement."""
    payments: list[dict[str, Any]] = []
    add_payment_dicts(list(st.payments), payments)
    out: dict[str, Any] = {
        "kind": st.kind,
        "results": [win_settlement_to_dict(w) for w in st.results],
        "payments": payments,
        "deltas": list(st.deltas),
        "next": st.next.to_dict(),
    }
    if st.chips is not None:
        out["chips"] = list(st.chips)
    if st.skipped:
        out["skipped"] = [{"winner": seat, "reason": "atamahane"} for seat in st.skipped]
    if st.reason:
        out["reason"] = st.reason
    if st.offender is not None:  # a chombo stopped the hand (added to the output, only then)
        out["offender"] = st.offender
    return out
