"""Responsibility payment (pao, 責任払い, 包): who is liable, and why.

Every liability of a win is worked out here, by :func:`win_liabilities`, for
the round engine and the JSON façade alike.

A player becomes liable for a yakuman when their discard, called by the
winner, made that yakuman certain. The melds are read in call order (a kakan
sits where its pon was called and keeps that pon's source; an ankan is nobody's
discard and never makes anyone liable), the kans in the order they were
declared (``kan_order``: a kakan is declared when its fourth tile is added,
which may be after calls that sit later in the melds):

=================  ==========================================================
``daisangen``      the call of the third dragon set (pon or daiminkan)
``daisuushii``     the call of the fourth wind set
``suukantsu``      the fourth kan declared, when it is a daiminkan
``suurenkou``      the pon that makes four consecutive triplets of a suit
                   (at either end)
``isshoku_yonjun`` the fourth identical chi (so only the left player)
``tsuuiisou``      the fourth honour set (全国麻雀段位審査会)
``chinroutou``     the fourth terminal set (全国麻雀段位審査会)
``ryuuiisou``      the fourth meld of green tiles (全国麻雀段位審査会)
=================  ==========================================================

Only the yakuman in the rules' ``pao_yaku`` carry liability. Suukantsu's is paid
when the hand wins (``suukantsu_pao_timing = "win"``), or at the fourth kan
itself (``"fourth_kan"``: seed 000, 「大明槓された瞬間に四槓子の振り込みと見なされる
ルールもある」): that daiminkan ends the hand as a suukantsu dealt in by the
discarder (:func:`tenbou.core.scoring.fourth_kan_score`), who is then the liable player.
Separately, ``daiminkan_pao`` makes the player whose discard was taken by a
daiminkan pay a rinshan win that follows as if they had dealt in.

>>> from tenbou.core.hand import Hand
>>> from tenbou.rules import get_rules
>>> h = Hand.parse("23m55p +4m pon:555z@2 pon:666z@0 pon:777z@3")
>>> [x.describe(h.melds) for x in liabilities(h.melds, 1, ["daisangen"], get_rules("tenhou"))]
['daisangen: seat 3 (melds[2] pon:777z@3)']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from ..core.hand import Meld, MeldType
from ..core.scoring import HandScore
from ..core.tiles import DRAGONS, TERMINALS_AND_HONORS, WINDS
from ..core.values import DataRecord
from ..errors import InvalidHandError
from ..rules import Rules

__all__ = [
    "TRIGGERS",
    "Liability",
    "daiminkan_meld",
    "kans_in_order",
    "liabilities",
    "rinshan_liability",
    "win_liabilities",
]

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


def _daisangen(melds: Sequence[Meld], kans: Sequence[int]) -> int | None:
    return _nth(melds, lambda m: _is_set(m) and m.kind in DRAGONS, 3)


def _daisuushii(melds: Sequence[Meld], kans: Sequence[int]) -> int | None:
    return _nth(melds, lambda m: _is_set(m) and m.kind in WINDS, 4)


def _suukantsu(melds: Sequence[Meld], kans: Sequence[int]) -> int | None:
    if len(kans) < 4:
        return None
    i = kans[3]
    return i if melds[i].type is MeldType.DAIMINKAN else None


def _suurenkou(melds: Sequence[Meld], kans: Sequence[int]) -> int | None:
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


def _isshoku_yonjun(melds: Sequence[Meld], kans: Sequence[int]) -> int | None:
    counts: dict[int, int] = {}
    for i, m in enumerate(melds):
        if m.type is MeldType.CHI:
            counts[m.kind] = counts.get(m.kind, 0) + 1
            if counts[m.kind] == 4:
                return i
    return None


def _tsuuiisou(melds: Sequence[Meld], kans: Sequence[int]) -> int | None:
    return _nth(melds, lambda m: _is_set(m) and m.kind >= 27, 4)


def _chinroutou(melds: Sequence[Meld], kans: Sequence[int]) -> int | None:
    return _nth(melds, lambda m: _is_set(m) and m.kind < 27 and m.kind in TERMINALS_AND_HONORS, 4)


def _ryuuiisou(melds: Sequence[Meld], kans: Sequence[int]) -> int | None:
    return _nth(melds, lambda m: all(t.kind in _GREEN for t in m.tiles), 4)


#: the call that makes each pao yakuman certain: (melds in call order, the kans' indices in the order
#: they were declared) -> the index of that call, or None
TRIGGERS: Final[dict[str, Callable[[Sequence[Meld], Sequence[int]], int | None]]] = {
    "daisangen": _daisangen,
    "daisuushii": _daisuushii,
    "suukantsu": _suukantsu,
    "suurenkou": _suurenkou,
    "isshoku_yonjun": _isshoku_yonjun,
    "tsuuiisou": _tsuuiisou,
    "chinroutou": _chinroutou,
    "ryuuiisou": _ryuuiisou,
}


def kans_in_order(melds: Sequence[Meld], kan_order: Sequence[int] | None = None) -> tuple[int, ...]:
    """The indices of the kans among ``melds`` in the order they were declared: ``kan_order`` when
    it is known (the round engine knows it), else the call order."""
    if kan_order is not None:
        return tuple(kan_order)
    return tuple([i for i, m in enumerate(melds) if m.is_kan])


def liabilities(
    melds: Sequence[Meld],
    winner: int,
    yakuman: Iterable[str],
    rules: Rules,
    kan_order: Sequence[int] | None = None,
) -> list[Liability]:
    """The liabilities for the yakuman of a hand (ids in ``yakuman``) under
    ``rules.pao_yaku``, in the order of the yakuman given (``kan_order``: see :func:`kans_in_order`)."""
    out = []
    kans = kans_in_order(melds, kan_order)
    for yaku in yakuman:
        trigger = TRIGGERS.get(yaku)
        if trigger is None or yaku not in rules.pao_yaku:
            continue
        i = trigger(melds, kans)
        if i is None:
            continue
        seat = melds[i].from_seat
        if seat is not None and seat != winner:
            out.append(Liability(yaku, seat, "pao_yaku", i))
    return out


def daiminkan_meld(melds: Sequence[Meld], kan_order: Sequence[int] | None = None) -> int | None:
    """The daiminkan a rinshan win follows when it can be read from the melds: the last meld, if it
    is a daiminkan declared last of the kans (an ankan or kakan after it cannot be placed in time
    from the call order alone, so a chain needs ``rinshan_kan_from``)."""
    if not melds or melds[-1].type is not MeldType.DAIMINKAN:
        return None
    last = len(melds) - 1
    kans = kans_in_order(melds, kan_order)
    return last if kans and kans[-1] == last else None


def rinshan_liability(
    melds: Sequence[Meld],
    rules: Rules,
    rinshan: bool,
    kan_from: int | None,
    named: bool,
    kan_order: Sequence[int] | None = None,
) -> Liability | None:
    """Daiminkan pao (``daiminkan_pao``): a rinshan win after a daiminkan is paid by the player whose
    discard the daiminkan took. ``kan_from`` names that player when ``named`` (``None`` named: the
    chain has no daiminkan pao); not named, it is read from the melds (:func:`daiminkan_meld`).
    ``meld`` is the index of that daiminkan (the last one called from ``kan_from``)."""
    if not rules.daiminkan_pao or not rinshan or (named and kan_from is None):
        return None
    if kan_from is None:
        meld = daiminkan_meld(melds, kan_order)
        if meld is None:
            return None
        seat = melds[meld].from_seat
        if seat is None:
            return None
        return Liability("rinshan", seat, "daiminkan_pao", meld)
    meld = max(i for i, m in enumerate(melds) if m.type is MeldType.DAIMINKAN and m.from_seat == kan_from)
    return Liability("rinshan", kan_from, "daiminkan_pao", meld)


def win_liabilities(
    hs: HandScore,
    *,
    kan_order: Sequence[int] | None = None,
    kan_from: int | None = None,
    kan_from_named: bool = False,
    named: Sequence[Liability] | None = None,
) -> tuple[Liability, ...]:
    """Every liability of a scored win: the one place where the round engine and the JSON façade
    work them out. The yakuman pao of ``rules.pao_yaku`` are those ``named`` (a request's explicit
    ``pao``, checked by the caller), else read from the hand's melds (:func:`liabilities`; the kans
    in ``kan_order``); then daiminkan pao of a rinshan win (:func:`rinshan_liability`: ``kan_from``
    the discarder of the daiminkan the rinshan chain began with, when ``kan_from_named``).

    >>> from tenbou.core.hand import Hand, Situation
    >>> from tenbou.rules import get_rules
    >>> from tenbou.core.scoring import score_hand
    >>> h = Hand.parse("5z +5z kakan:3333s@2 ankan:1111m ankan:2222p kan:4444s@3")
    >>> hs = score_hand(h, Situation(winner=1, rinshan=True), get_rules("ron2"))
    >>> [str(x) for x in win_liabilities(hs)]
    ['suukantsu: seat 3 (melds[3])', 'rinshan: seat 3 (melds[3])']

    Declared after the daiminkan, the kakan is the fourth kan and the one the rinshan tile follows:

    >>> win_liabilities(hs, kan_order=[1, 2, 3, 0])
    ()
    """
    s = hs.situation
    rules = hs.rules
    out: list[Liability] = []
    if named is not None:
        out.extend(named)
    elif s.fourth_kan and s.discarder is not None:  # the suukantsu dealt in at the fourth kan
        out.append(Liability("suukantsu", s.discarder, "pao_yaku"))
    elif hs.yakuman:
        yakuman = [y.yaku.id for y in hs.yaku if y.yakuman]
        out.extend(liabilities(hs.hand.melds, s.winner, yakuman, rules, kan_order))
        if rules.suukantsu_pao_timing == "fourth_kan":
            kan = next((x for x in out if x.yaku == "suukantsu"), None)
            if kan is not None:
                raise InvalidHandError(
                    f"suukantsu: the daiminkan of melds[{kan.meld}] made the fourth kan, which ends the "
                    'hand under suukantsu_pao_timing = "fourth_kan" (a suukantsu dealt in: fourth_kan)',
                    "contradiction",
                )
    if s.rinshan:
        kan_pao = rinshan_liability(hs.hand.melds, hs.rules, True, kan_from, kan_from_named, kan_order)
        if kan_pao is not None:
            out.append(kan_pao)
    return tuple(out)
