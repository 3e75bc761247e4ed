"""Responsibility payment (pao, 責任払い, 包): who is liable, and why.

A player becomes liable for a yakuman when their discard, called by the
winner, made that yakuman certain. The melds are read in call order (a kakan
sits where its pon was called and keeps that pon's source; an ankan is nobody's
discard and never makes anyone liable):

=================  ==========================================================
``daisangen``      the call of the third dragon set (pon or daiminkan)
``daisuushii``     the call of the fourth wind set
``suukantsu``      the fourth kan, when it is a daiminkan
``suurenkou``      the pon that makes four consecutive triplets of a suit
                   (at either end)
``isshoku_yonjun`` the fourth identical chi (so only the left player)
``tsuuiisou``      the fourth honour set (全国麻雀段位審査会)
``chinroutou``     the fourth terminal set (全国麻雀段位審査会)
``ryuuiisou``      the fourth meld of green tiles (全国麻雀段位審査会)
=================  ==========================================================

Only the yakuman in the rules' ``pao_yaku`` carry liability. Separately,
``daiminkan_pao`` makes the player whose discard was taken by a daiminkan pay a
rinshan win that follows as if they had dealt in.

>>> from tenbou.hand import Hand
>>> from tenbou.rules import get_rules
>>> h = Hand.parse("23m55p +4m pon:555z@2 pon:666z@0 pon:777z@3")
>>> [x.describe(h.melds) for x in liabilities(h.melds, 1, ["daisangen"], get_rules("tenhou"))]
['daisangen: seat 3 (melds[2] pon:777z@3)']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from .hand import Meld, MeldType
from .rules import Rules
from .tiles import DRAGONS, TERMINALS_AND_HONORS, WINDS, DataRecord

__all__ = ["TRIGGERS", "Liability", "daiminkan_meld", "liabilities", "rinshan_liability"]

_GREEN: Final = frozenset((19, 20, 21, 23, 25, 32))


@dataclass(frozen=True, slots=True)
class Liability(DataRecord):
    """``seat`` answers for ``yaku`` (a yakuman id, or ``rinshan`` for
    daiminkan pao) under ``rule`` (``pao_yaku``, ``daiminkan_pao`` or
    ``explicit`` when the request named it); ``meld`` is the index of the
    call that made the player liable, when known."""

    yaku: str
    seat: int
    rule: str
    meld: int | None = None

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"yaku": self.yaku, "seat": self.seat, "rule": self.rule}
        if self.meld is not None:
            out["meld"] = self.meld
        return out

    def describe(self, melds: Sequence[Meld] = ()) -> str:
        where = ""
        if self.meld is not None and self.meld < len(melds):
            where = f" (melds[{self.meld}] {melds[self.meld].notation()})"
        return f"{self.yaku}: seat {self.seat}{where}"

    def __str__(self) -> str:
        return f"{self.yaku}: seat {self.seat}" + (f" (melds[{self.meld}])" if self.meld is not None else "")


def _is_set(m: Meld) -> bool:
    return m.type is not MeldType.CHI


def _nth(melds: Sequence[Meld], wanted: Callable[[Meld], bool], n: int) -> int | None:
    """Index of the meld that is the ``n``-th satisfying ``wanted``."""
    count = 0
    for i, m in enumerate(melds):
        if wanted(m):
            count += 1
            if count == n:
                return i
    return None


def _daisangen(melds: Sequence[Meld]) -> int | None:
    return _nth(melds, lambda m: _is_set(m) and m.kind in DRAGONS, 3)


def _daisuushii(melds: Sequence[Meld]) -> int | None:
    return _nth(melds, lambda m: _is_set(m) and m.kind in WINDS, 4)


def _suukantsu(melds: Sequence[Meld]) -> int | None:
    i = _nth(melds, lambda m: m.is_kan, 4)
    return i if i is not None and melds[i].type is MeldType.DAIMINKAN else None


def _suurenkou(melds: Sequence[Meld]) -> int | None:
    seen: set[int] = set()
    for i, m in enumerate(melds):
        k = m.kind
        if not _is_set(m) or k >= 27:
            continue
        seen.add(k)
        lo = k - k % 9
        for start in range(max(lo, k - 3), min(k, lo + 5) + 1):
            if all(start + j in seen for j in range(4)):
                return i
    return None


def _isshoku_yonjun(melds: Sequence[Meld]) -> int | None:
    counts: dict[int, int] = {}
    for i, m in enumerate(melds):
        if m.type is MeldType.CHI:
            counts[m.kind] = counts.get(m.kind, 0) + 1
            if counts[m.kind] == 4:
                return i
    return None


def _tsuuiisou(melds: Sequence[Meld]) -> int | None:
    return _nth(melds, lambda m: _is_set(m) and m.kind >= 27, 4)


def _chinroutou(melds: Sequence[Meld]) -> int | None:
    return _nth(melds, lambda m: _is_set(m) and m.kind < 27 and m.kind in TERMINALS_AND_HONORS, 4)


def _ryuuiisou(melds: Sequence[Meld]) -> int | None:
    return _nth(melds, lambda m: all(t.kind in _GREEN for t in m.tiles), 4)


#: the call that makes each pao yakuman certain: melds in call order -> index or None
TRIGGERS: Final[dict[str, Callable[[Sequence[Meld]], int | None]]] = {
    "daisangen": _daisangen,
    "daisuushii": _daisuushii,
    "suukantsu": _suukantsu,
    "suurenkou": _suurenkou,
    "isshoku_yonjun": _isshoku_yonjun,
    "tsuuiisou": _tsuuiisou,
    "chinroutou": _chinroutou,
    "ryuuiisou": _ryuuiisou,
}


def liabilities(melds: Sequence[Meld], winner: int, yakuman: Iterable[str], rules: Rules) -> list[Liability]:
    """The liabilities for the yakuman of a hand (ids in ``yakuman``) under
    ``rules.pao_yaku``, in the order of the yakuman given."""
    out = []
    for yaku in yakuman:
        trigger = TRIGGERS.get(yaku)
        if trigger is None or yaku not in rules.pao_yaku:
            continue
        i = trigger(melds)
        if i is None:
            continue
        seat = melds[i].from_seat
        if seat is not None and seat != winner:
            out.append(Liability(yaku, seat, "pao_yaku", i))
    return out


def daiminkan_meld(melds: Sequence[Meld]) -> int | None:
    """The daiminkan a rinshan win follows when it can be read from the melds:
    the last meld, if it is a daiminkan (an ankan or kakan after it cannot be
    placed in time from the call order, so a chain needs ``rinshan_kan_from``)."""
    if melds and melds[-1].type is MeldType.DAIMINKAN:
        return len(melds) - 1
    return None


def rinshan_liability(
    melds: Sequence[Meld], rules: Rules, rinshan: bool, kan_from: int | None, named: bool
) -> Liability | None:
    """Daiminkan pao (``daiminkan_pao``): a rinshan win after a daiminkan is paid by the player whose
    discard the daiminkan took. ``kan_from`` names that player when ``named`` (``None`` named: the
    chain has no daiminkan pao); not named, it is read from the melds (:func:`daiminkan_meld`).
    ``meld`` is the index of that daiminkan (the last one called from ``kan_from``)."""
    if not rules.daiminkan_pao or not rinshan or (named and kan_from is None):
        return None
    if kan_from is None:
        meld = daiminkan_meld(melds)
        if meld is None:
            return None
        seat = melds[meld].from_seat
        if seat is None:
            return None
        return Liability("rinshan", seat, "daiminkan_pao", meld)
    meld = max(i for i, m in enumerate(melds) if m.type is MeldType.DAIMINKAN and m.from_seat == kan_from)
    return Liability("rinshan", kan_from, "daiminkan_pao", meld)
