"""Scoring a winning hand: readings, yaku, fu with a breakdown, han, limits.

(The result records are :class:`~tenbou.core.tiles.Record` classes or ``NamedTuple`` values rather
than frozen dataclasses: they are made for every hand scored, and these are much cheaper to build.)

:func:`score_hand` checks the hand against the rules and the situation,
reads it every possible way (each decomposition, and each set the winning tile
can complete, which fixes the wait), scores every reading and keeps the
best: the highest base points, then a true yakuman before a counted (kazoe)
one, then the most han, then the most fu.

>>> from tenbou.core.hand import Hand, Situation
>>> from tenbou.rules import get_rules
>>> rules = get_rules("tenhou")
>>> hs = score_hand(Hand.parse("345m345p345s6699s +9s"), Situation(riichi=True, winner=1, discarder=2), rules)
>>> hs.han, hs.fu, [y.id for y in hs.yaku]
(3, 40, ['riichi', 'sanshoku'])

The 役牌 seed's worked fu: a dragon ankan is 60 fu on tsumo, 70 on ron; an
open dragon kan 40 either way.

>>> h = Hand.parse("234m678p5578s +9s ankan:7777z")
>>> score_hand(h, Situation(winner=2), rules).fu, score_hand(h, Situation(winner=2, discarder=0), rules).fu
(60, 70)
>>> h = Hand.parse("234m678p5578s +9s kan:7777z@0")
>>> score_hand(h, Situation(winner=2), rules).fu, score_hand(h, Situation(winner=2, discarder=0), rules).fu
(40, 40)
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import Any, Final, NamedTuple, cast

from ..errors import InvalidHandError
from ..rules import Rules
from ._native import mypyc_attr
from .hand import Hand, Meld, MeldType, Situation
from .shape import KOKUSHI_KINDS, Raw, is_kokushi
from .tiles import TERMINALS_AND_HONORS, Tile, dora_kind
from .validate import contradiction, validate
from .values import Record
from .yaku import (
    DORA,
    F_CLOSED,
    F_FIRST,
    HAND_REGULAR,
    HAND_YAKUMAN,
    R_CHIITOITSU,
    R_KOKUSHI,
    R_STANDARD,
    READING_REGULAR,
    READING_YAKUMAN,
    YAKU_BY_ID,
    YAKU_ORDER,
    Form,
    HandFacts,
    Reading,
    Wait,
    Yaku,
)

__all__ = [
    "FuItem",
    "HandScore",
    "Limit",
    "YakuHan",
    "base_points",
    "fourth_kan_score",
    "fu_breakdown",
    "score_hand",
    "validate",
]


class Limit(Enum):
    """The limit a hand reached (``kiriage`` mangan reports ``MANGAN``)."""

    MANGAN = "mangan"
    HANEMAN = "haneman"
    BAIMAN = "baiman"
    SANBAIMAN = "sanbaiman"
    YAKUMAN = "yakuman"
    KAZOE_YAKUMAN = "kazoe_yakuman"


# (the members as module constants: on CPython 3.11 an attribute of an Enum class is read by a slow,
# unspecialised look-up, a module constant is not)
_MANGAN: Final = Limit.MANGAN
_HANEMAN: Final = Limit.HANEMAN
_BAIMAN: Final = Limit.BAIMAN
_SANBAIMAN: Final = Limit.SANBAIMAN
_YAKUMAN: Final = Limit.YAKUMAN
_KAZOE_YAKUMAN: Final = Limit.KAZOE_YAKUMAN
_STANDARD: Final = Form.STANDARD
_CHIITOITSU: Final = Form.CHIITOITSU
_KOKUSHI: Final = Form.KOKUSHI
_RYANMEN: Final = Wait.RYANMEN
_KANCHAN: Final = Wait.KANCHAN
_PENCHAN: Final = Wait.PENCHAN
_SHANPON: Final = Wait.SHANPON
_TANKI: Final = Wait.TANKI
_THIRTEEN: Final = Wait.THIRTEEN
_CHI: Final = MeldType.CHI
_PON: Final = MeldType.PON
_NO_KINDS: Final[tuple[int, ...]] = ()
_ANKAN: Final = MeldType.ANKAN


class YakuHan(NamedTuple):
    """A yaku as counted in one hand: its han and, for a yakuman, its multiplier."""

    yaku: Yaku
    han: int
    yakuman: int = 0

    @property
    def id(self) -> str:
        return self.yaku.id


class FuItem(NamedTuple):
    """One line of the fu breakdown."""

    reason: str
    fu: int


@mypyc_attr(free_list_len=1)
class HandScore(Record):
    """The value of a winning hand (before who pays whom).

    ``han`` counts every yaku and dora (13 x multiplier for a yakuman hand);
    ``fu`` is rounded; ``base_points`` is the basic points a payment is a
    multiple of (2,000 for a mangan, 8,000 x multiplier for yakuman)."""

    _fields = (
        "han", "fu", "limit", "base_points", "yaku", "fu_breakdown", "yakuman", "reading", "hand",
        "situation", "rules",
    )  # fmt: skip
    __slots__ = _fields

    def __init__(
        self,
        han: int,
        fu: int,
        limit: Limit | None,
        base_points: int,
        yaku: tuple[YakuHan, ...],
        fu_breakdown: tuple[FuItem, ...],
        yakuman: int,
        reading: Reading,
        hand: Hand,
        situation: Situation,
        rules: Rules,
    ) -> None:
        self.han: Final = han
        self.fu: Final = fu
        self.limit: Final = limit
        self.base_points: Final = base_points
        self.yaku: Final = yaku
        self.fu_breakdown: Final = fu_breakdown
        self.yakuman: Final = yakuman
        self.reading: Final = reading
        self.hand: Final = hand
        self.situation: Final = situation
        self.rules: Final = rules

    @property
    def is_dealer(self) -> bool:
        return self.situation.is_dealer


# -- validation ---------------------------------------------------------------------------------

# -- readings -----------------------------------------------------------------------------------


def _readings(f: HandFacts) -> list[Reading]:
    """Every reading of the hand: decompositions x the set the winning tile completed."""
    out: list[Reading] = []
    win = f.hand.win_tile.kind
    c = f.hand.concealed_counts
    raws = f.raws
    # (a hand read as sets is not kokushi, nor chiitoitsu unless read as ryanpeikou: seven pairs read
    # as sets are two pairs of identical runs and a pair, whichever way)
    if not f.hand.melds and (not raws or raws[0][5] == 2):
        kinds = f.concealed_kinds.bit_count()  # 13 for kokushi, 7 for chiitoitsu
        if kinds == 13 and is_kokushi(c):
            before = list(c)
            before[win] = before[win] - 1
            wait = _THIRTEEN if all(before[k] == 1 for k in KOKUSHI_KINDS) else _TANKI
            pair = next(k for k in KOKUSHI_KINDS if c[k] == 2)
            return [Reading(_KOKUSHI, pair, wait, f)]
        if kinds == 7 and c.count(2) == 7:  # (is_chiitoitsu: 14 tiles of 7 kinds, each held twice)
            out.append(Reading(_CHIITOITSU, win, _TANKI, f))
    ron = not f.tsumo
    # (the readings as HandFacts keeps them, typed Any: compiled, an item of a list[Raw] would be
    # unpacked into a native tuple, and passing it on to each Reading would build the tuple again)
    kept: list[Any] = raws
    for raw in kept:
        unpacked: Raw = raw
        pair, trips, runs = unpacked[0], unpacked[1], unpacked[2]
        if pair == win:
            out.append(Reading(_STANDARD, pair, _TANKI, f, raw))
        if win in trips:
            out.append(Reading(_STANDARD, pair, _SHANPON, f, raw, win if ron else -1))
        seen = -1
        for k in runs:
            if k <= win <= k + 2 and k != seen:
                seen = k
                pos = win - k
                if pos == 1:
                    wait = _KANCHAN
                elif (pos == 0 and k % 9 == 6) or (pos == 2 and k % 9 == 0):
                    wait = _PENCHAN
                else:
                    wait = _RYANMEN
                out.append(Reading(_STANDARD, pair, wait, f, raw))
    return out


# -- fu -----------------------------------------------------------------------------------------

_SIMPLE: Final = 0
_TERMINAL: Final = 1
_HONOR: Final = 2


def _set_fu_entry(exposed: bool, kan: bool, cls: int) -> FuItem:
    fu = (2 if exposed else 4) * (1 if cls == _SIMPLE else 2) * (4 if kan else 1)
    name = ("simple", "terminal", "honor")[cls]
    return FuItem(f"{'open' if exposed else 'closed'}_{name}_{'kan' if kan else 'pon'}", fu)


#: fu of a triplet or kan at ``6 * exposed + 3 * kan + simple/terminal/honour``: 2 for an open simple
#: pon, x2 for closed, x2 for a terminal or honour, x4 for a kan
_SET_FU: Final = tuple(
    [
        _set_fu_entry(exposed, kan, cls)
        for exposed in (False, True)
        for kan in (False, True)
        for cls in (_SIMPLE, _TERMINAL, _HONOR)
    ]
)
#: each of those alone, as a breakdown's line, and its fu
_SET_FU_LINE: Final[tuple[tuple[FuItem, ...], ...]] = tuple([(item,) for item in _SET_FU])
_SET_FU_POINTS: Final[tuple[int, ...]] = tuple([item.fu for item in _SET_FU])
#: simple, terminal or honour, by kind
_FU_CLASS: Final = tuple(
    _HONOR if k >= 27 else _TERMINAL if k in TERMINALS_AND_HONORS else _SIMPLE for k in range(34)
)
#: the fixed lines of a breakdown (made once: a breakdown only points at them)
_FU_CHIITOITSU: Final = (FuItem("chiitoitsu", 25),)
_FU_BASE: Final = FuItem("base", 20)
_FU_TSUMO: Final = FuItem("tsumo", 2)
_FU_MENZEN_RON: Final = FuItem("menzen_ron", 10)
_FU_OPEN_PINFU: Final = FuItem("open_pinfu", 10)
_FU_KANCHAN: Final = FuItem("kanchan_wait", 2)
_FU_PENCHAN: Final = FuItem("penchan_wait", 2)
_FU_TANKI: Final = FuItem("tanki_wait", 2)
_FU_DRAGON_PAIR: Final = FuItem("dragon_pair", 2)
_FU_SEAT_WIND_PAIR: Final = FuItem("seat_wind_pair", 2)
_FU_ROUND_WIND_PAIR: Final = FuItem("round_wind_pair", 2)
_FU_VALUE_PAIR: Final = FuItem("value_pair", 2)
_FU_DOUBLE_WIND_PAIR: Final = {fu: FuItem("double_wind_pair", fu) for fu in (2, 4)}
#: the lines of a breakdown before the sets', at 12 * pair + 3 * wait + win: win none, tsumo or
#: menzen_ron; wait none, kanchan, penchan or tanki; pair none, double wind 2 or 4, dragon, seat wind,
#: round wind or value (made once: a reading without triplets has one of these), and their fu
_FU_LINES: Final[tuple[tuple[FuItem, ...], ...]] = tuple(
    [
        tuple([_FU_BASE] + [w for w in (win, wait, pair) if w is not None])
        for pair in (
            None, _FU_DOUBLE_WIND_PAIR[2], _FU_DOUBLE_WIND_PAIR[4], _FU_DRAGON_PAIR, _FU_SEAT_WIND_PAIR,
            _FU_ROUND_WIND_PAIR, _FU_VALUE_PAIR,
        )
        for wait in (None, _FU_KANCHAN, _FU_PENCHAN, _FU_TANKI)
        for win in (None, _FU_TSUMO, _FU_MENZEN_RON)
    ]
)  # fmt: skip
_FU_LINES_TOTAL: Final[tuple[int, ...]] = tuple([sum(item.fu for item in lines) for lines in _FU_LINES])
#: each of those lines with one set's line after it, at 12 * lines + set (made once: a reading with
#: one set, the most usual after none, has one of these)
_FU_LINES_AND_SET: Final[tuple[tuple[FuItem, ...], ...]] = tuple(
    [lines + line for lines in _FU_LINES for line in _SET_FU_LINE]
)
_FU_OPEN_PINFU_LINES: Final = (_FU_BASE, _FU_OPEN_PINFU)


def fu_breakdown(r: Reading, pinfu: bool) -> tuple[int, tuple[FuItem, ...]]:
    """Fu of a reading (rounded up to 10) and the items that make it up."""
    f = r.facts
    if r.form is not _STANDARD:
        if r.form is _CHIITOITSU:
            return 25, _FU_CHIITOITSU
        return 0, ()  # kokushi: no sets to count, Tenhou records it with 0 fu
    if pinfu and f.tsumo:
        return 20, _FU_LINES[0]  # (the base alone)
    # the lines before the sets' (win, wait, pair), as an index of _FU_LINES: most readings have no
    # triplet, and their breakdown is one of those, made once
    lines = 0
    if f.tsumo:
        if f.rules.rinshan_tsumo_fu or not f.situation.rinshan:
            lines = 1
    elif f.closed:
        lines = 2
    wait = r.wait
    if wait is not _RYANMEN and wait is not _SHANPON:
        lines += 3 if wait is _KANCHAN else 6 if wait is _PENCHAN else 9
    p = r.pair
    if f.value_mask >> p & 1:
        if p == f.seat_wind and p == f.round_wind:
            lines += 12 if f.rules.double_wind_pair_fu == 2 else 24  # 2 or 4, as Rules checks
        elif p >= 31:
            lines += 36
        elif p == f.seat_wind:
            lines += 48
        elif p == f.round_wind:
            lines += 60
        else:
            lines += 72
    total = _FU_LINES_TOTAL[lines]
    # (the concealed triplets: those of the reading's raw, typed as any tuple: compiled, a Raw is
    # unboxed whole, and an item of an Any is read by a generic look-up, of a tuple natively)
    # (and the triplets typed: compiled, the loop over them and their look-ups are native)
    raw: tuple[Any, ...] | None = r.raw
    trips: tuple[int, ...] = raw[1] if raw is not None else _NO_KINDS
    if not trips and not f.meld_trips:
        if total == 20 and not f.closed and not f.tsumo:
            return 30, _FU_OPEN_PINFU_LINES
        return (total + 9) // 10 * 10, _FU_LINES[lines]
    # (the lines grown a set at a time by one-line tuples made once: the sets are few, and no list is
    # made and turned into a tuple; the first set taken with the lines from _FU_LINES_AND_SET, at
    # ``first`` until then, -1 after)
    items = _FU_LINES[lines]
    first = 12 * lines
    if f.meld_trips:
        for m in f.hand.melds:
            mtype = m.type
            if mtype is _CHI:
                continue
            # an open pon, or a kan: open unless an ankan
            i = (6 if mtype is _PON else 3 if mtype is _ANKAN else 9) + _FU_CLASS[m.kind]
            if first < 0:
                items = items + _SET_FU_LINE[i]
            else:
                items, first = _FU_LINES_AND_SET[first + i], -1
            total += _SET_FU_POINTS[i]
    ron = r.ron_triplet
    for k in trips:
        if k == ron:  # completed by the ron: an open triplet
            ron = -1
            i = 6 + _FU_CLASS[k]
        else:
            i = _FU_CLASS[k]
        if first < 0:
            items = items + _SET_FU_LINE[i]
        else:
            items, first = _FU_LINES_AND_SET[first + i], -1
        total += _SET_FU_POINTS[i]
    return (total + 9) // 10 * 10, items


# -- points -------------------------------------------------------------------------------------


def base_points(han: int, fu: int, rules: Rules, dealer: bool = False) -> tuple[int, Limit | None]:
    """Base points and limit for han and fu without yakuman; ``dealer``: the winner deals (under
    ``kiriage_dealer_only`` only the dealer's 1,920, an 11,600 hand, is rounded up to mangan).

    >>> from tenbou.rules import get_rules
    >>> r = get_rules("tenhou")
    >>> base_points(4, 30, r), base_points(4, 30, r.replace(kiriage=True))
    ((1920, None), (2000, <Limit.MANGAN: 'mangan'>))
    >>> only = r.replace(kiriage=True, kiriage_dealer_only=True)
    >>> base_points(4, 30, only), base_points(4, 30, only, dealer=True)
    ((1920, None), (2000, <Limit.MANGAN: 'mangan'>))
    >>> base_points(13, 30, r), base_points(13, 30, r.replace(kazoe="sanbaiman"))
    ((8000, <Limit.KAZOE_YAKUMAN: 'kazoe_yakuman'>), (6000, <Limit.SANBAIMAN: 'sanbaiman'>))
    """
    if han < 5:  # (the usual hand first)
        base = fu * (1 << (han + 2))
        # kiriage mangan: 4 han 30 fu and 3 han 60 fu (1,920), for the dealer alone by kiriage_dealer_only
        if base >= 2000 or (base == 1920 and rules.kiriage and (dealer or not rules.kiriage_dealer_only)):
            return 2000, _MANGAN
        return base, None
    if han >= 13:
        if rules.kazoe == "yakuman":
            return 8000, _KAZOE_YAKUMAN
        return 6000, _SANBAIMAN
    if han >= 11:
        return 6000, _SANBAIMAN
    if han >= 8:
        return 4000, _BAIMAN
    if han >= 6:
        return 3000, _HANEMAN
    return 2000, _MANGAN


# -- scoring ------------------------------------------------------------------------------------


def _dora(f: HandFacts) -> tuple[list[YakuHan], int]:
    """The dora counters of the hand, and their han."""
    s = f.situation
    players = s.players
    out: list[YakuHan] = []
    counts = f.hand.counts
    kita_north = s.kita
    if kita_north and not f.rules.nukidora:
        kita_north = 0
    n = 0
    dora_of = _DORA_OF_SANMA if players == 3 else _DORA_OF
    for ind in s.dora_indicators:
        k = dora_of[ind.kind]
        n += counts[k]
        if k == 30:
            n += kita_north
    # (the usual counts taken from their table here: in pure Python a call to _times costs)
    if n:
        out.append(_DORA_TIMES[n] if n < _TIMES else _times(_DORA_TIMES, n))
    reds = f.hand.reds
    if reds:
        out.append(_AKA_DORA_TIMES[reds] if reds < _TIMES else _times(_AKA_DORA_TIMES, reds))
        n += reds
    if s.in_riichi and f.rules.ura_dora:
        u = 0
        for ind in s.ura_indicators:
            k = dora_of[ind.kind]
            u += counts[k]
            if k == 30:
                u += kita_north
        if u:
            out.append(_times(_URA_DORA_TIMES, u))
            n += u
    if kita_north:
        out.append(_times(_KITA_TIMES, kita_north))
        n += kita_north
    return out, n


#: the dora each kind indicates, with four and with three players (:func:`~tenbou.core.tiles.dora_kind`)
_DORA_OF: Final[tuple[int, ...]] = tuple([dora_kind(k, 4) for k in range(34)])
_DORA_OF_SANMA: Final[tuple[int, ...]] = tuple([dora_kind(k, 3) for k in range(34)])
_DORA: Final = DORA["dora"]
_AKA_DORA: Final = DORA["aka_dora"]
_URA_DORA: Final = DORA["ura_dora"]
_KITA: Final = DORA["kita"]


#: each dora counter counted 0.._TIMES - 1 times, made once (a hand counts them on every win)
_TIMES: Final = 64
_DORA_TIMES: Final = tuple([YakuHan(_DORA, n) for n in range(_TIMES)])
_AKA_DORA_TIMES: Final = tuple([YakuHan(_AKA_DORA, n) for n in range(_TIMES)])
_URA_DORA_TIMES: Final = tuple([YakuHan(_URA_DORA, n) for n in range(_TIMES)])
_KITA_TIMES: Final = tuple([YakuHan(_KITA, n) for n in range(_TIMES)])


def _times(counted: tuple[YakuHan, ...], n: int) -> YakuHan:
    """A dora counter counted ``n`` times, from its ``counted`` table (made once) when it holds ``n``."""
    return counted[n] if n < _TIMES else YakuHan(counted[0].yaku, n)


_PINFU: Final = YAKU_BY_ID["pinfu"]
#: (predicate, the yaku as counted) of the yakuman or the regular yaku worth asking; the predicate is
#: ``None`` for a yaku present whenever it is worth asking (:attr:`~tenbou.core.yaku.Yaku.by_needs`)
_Asked = tuple[tuple[Callable[[Reading], bool] | None, YakuHan], ...]
#: a hand's yakuman, regular yaku and limit renhou (the same for every reading of its form)
_HandLevel = tuple[list[YakuHan], list[YakuHan], YakuHan | None]


def _needs_of(groups: tuple[tuple[Yaku, ...], ...]) -> int:
    """Every feature some yaku of ``groups`` needs."""
    bits = 0
    for group in groups:
        for y in group:
            bits |= y.needs
    return bits


#: the yaku asked once per hand (and form), and of each reading
_GROUPS: Final[tuple[tuple[tuple[Yaku, ...], ...], ...]] = (
    (HAND_YAKUMAN, HAND_REGULAR),
    (READING_YAKUMAN, READING_REGULAR),
)
#: the (yakuman, regular yaku) worth asking, once per hand and of each reading (``_GROUPS``), by the
#: rules' double yakuman and the features of the hand or the reading
_ASKED: Final[tuple[dict[frozenset[str], dict[int, tuple[_Asked, _Asked]]], ...]] = ({}, {})
#: those of rules that double no yakuman (most rules), once per hand and of each reading: taken at
#: once, with no look-up by the double yakuman
_HAND_PLAIN: Final[dict[int, tuple[_Asked, _Asked]]] = _ASKED[0].setdefault(frozenset(), {})
_READING_PLAIN: Final[dict[int, tuple[_Asked, _Asked]]] = _ASKED[1].setdefault(frozenset(), {})
#: the reading features of the form (the yaku asked once per hand differ by form)
_FORMS: Final = R_STANDARD | R_CHIITOITSU | R_KOKUSHI
#: the features that decide which yaku are asked, once per hand and of each reading (the others
#: are left out of the key of ``_ASKED``)
_HAND_KEY: Final = F_CLOSED | _FORMS | _needs_of(_GROUPS[0])
_READING_KEY: Final = F_CLOSED | _needs_of(_GROUPS[1])
# (of the reading features, READING_FEATURES, the key once per hand holds only the form's, so every
# reading of one form shares it: tests/test_scoring.py checks this)


#: a yaku that may be asked: the features it needs, and its predicate with the yaku as counted (one
#: pair a yaku and kind of hand, shared by every :data:`_Asked` that holds it: the asked yaku kept
#: for a stream of hands' features -- a thousand tuples after 24,000 hands -- point at a few dozen
#: pairs, not each at pairs of its own: 171 KB kept in place of 455 KB; tests/test_scoring.py).
#: The pair is typed ``object`` here, an element of :data:`_Asked` there: compiled, a pair typed as
#: a tuple would be unpacked to a C struct and boxed again, a new tuple in each ``_Asked``.
_Askable = tuple[int, object]
#: the yaku of each group of ``_GROUPS`` that count in a closed or an open hand, as :data:`_Askable`,
#: by (the rules' double yakuman, once per hand 0 or of each reading 1, closed)
_ASKABLE: Final[dict[tuple[frozenset[str], int, bool], tuple[tuple[_Askable, ...], ...]]] = {}


def _askable(double: frozenset[str], per_reading: int, closed: bool) -> tuple[tuple[_Askable, ...], ...]:
    """The yakuman and the regular yaku of ``_GROUPS[per_reading]`` that count in a closed (or open)
    hand, each with its needs, its predicate and its han as counted in such a hand."""
    key = (double, per_reading, closed)
    found = _ASKABLE.get(key)
    if found is None:
        groups = []
        for group in _GROUPS[per_reading]:
            entries = []
            for y in group:
                han = y.han_closed if closed else y.han_open
                if han is None:
                    continue
                mult = (2 if y.id in double else 1) if y.yakuman else 0
                counted = YakuHan(y, 13 * mult, mult) if mult else YakuHan(y, han)
                entries.append((y.needs, (None if y.by_needs else y.predicate, counted)))
            groups.append(tuple(entries))
        found = _ASKABLE[key] = tuple(groups)
    return found


def _asked(features: int, double: frozenset[str], per_reading: int) -> tuple[_Asked, _Asked]:
    """The yakuman and the regular yaku asked once per hand (``per_reading`` 0) or of each reading
    (1) that are worth asking with these features (those a yaku needs, ``F_CLOSED`` among them), each
    with its predicate and its han as counted in such a hand."""
    by_double = _ASKED[per_reading].get(double)
    if by_double is None:
        by_double = _ASKED[per_reading][double] = {}
    found = by_double.get(features)
    if found is None:
        yakuman, regular = _askable(double, per_reading, bool(features & F_CLOSED))
        found = (
            cast(_Asked, tuple([asked for needs, asked in yakuman if needs & features == needs])),
            cast(_Asked, tuple([asked for needs, asked in regular if needs & features == needs])),
        )
        if len(by_double) < 4096:
            by_double[features] = found
    return found


#: no yaku (shared: a list taken from here is never changed, only a list made for a hand or reading)
_NO_YAKU: Final[list[YakuHan]] = []


def _present(asked: _Asked, r: Reading) -> list[YakuHan]:
    """The yaku of ``asked`` that reading ``r`` has, in their order: those whose predicate holds, and
    those counted by their needs alone (no predicate: the reading was only asked for having them).
    (A loop, not a list comprehension: in pure Python that would be a second call.)"""
    found = []
    for predicate, counted in asked:
        if predicate is None or predicate(r):
            found.append(counted)
    return found


def _hand_level(r: Reading) -> _HandLevel:
    """The yaku that are the same for every reading of a hand's form:
    yakuman, regular yaku, and renhou when it is worth a limit."""
    f = r.facts
    rules = f.rules
    key = r.features & _HAND_KEY  # (the hand's features and the form: a reading's hold its hand's)
    double = rules.double_yakuman
    # (_asked, without the call when it is known)
    by_double = _ASKED[0].get(double) if double else _HAND_PLAIN
    cached = by_double.get(key) if by_double is not None else None
    asked_ym, asked_regular = cached if cached is not None else _asked(key, double, 0)
    ym = _present(asked_ym, r) if asked_ym else _NO_YAKU
    regular = _present(asked_regular, r) if asked_regular else _NO_YAKU
    renhou = None
    if f.features & F_FIRST:
        for i, y in enumerate(regular):
            if y.yaku.id == "renhou":
                renhou = YakuHan(y.yaku, 8 if rules.renhou == "baiman" else 5)
                del regular[i]
                break
    return ym, regular, renhou


def _evaluate(r: Reading, hand_level: _HandLevel, dora: list[YakuHan], dora_han: int) -> HandScore | None:
    """Score one reading (``None`` when it has no yaku)."""
    f = r.facts
    rules = f.rules
    hand_ym, hand_regular, renhou = hand_level
    key = r.features & _READING_KEY
    double = rules.double_yakuman
    # (_asked, without the call when it is known)
    by_double = _ASKED[1].get(double) if double else _READING_PLAIN
    cached = by_double.get(key) if by_double is not None else None
    asked_ym, asked_regular = cached if cached is not None else _asked(key, double, 1)
    ym = _present(asked_ym, r) if asked_ym else _NO_YAKU
    if hand_ym:
        ym = _merged(hand_ym, ym) if ym else hand_ym  # (the hand's list not changed: shared)
    if ym:
        # yakuman replace every other yaku (the fu are still reported)
        fu, fu_items = fu_breakdown(r, f.closed and r.form is _STANDARD and _PINFU.predicate(r))
        mults = [y.yakuman for y in ym]
        total = sum(mults) if rules.yakuman_stacking else max(mults)
        if rules.yakuman_cap:
            total = min(total, rules.yakuman_cap)
        base = 8000 * total
        return HandScore(
            13 * total, fu, _YAKUMAN, base, tuple(ym), fu_items, total, r, f.hand, f.situation, rules
        )
    found = _present(asked_regular, r) if asked_regular else _NO_YAKU
    # pinfu, when asked, is the first of a reading's regular yaku (and is asked of any closed hand)
    fu, fu_items = fu_breakdown(r, found[0].yaku is _PINFU if found else False)
    if hand_regular:
        found = _merged(hand_regular, found) if found else hand_regular
    if found:
        han = dora_han
        for y in found:
            han += y.han
        base, limit = base_points(han, fu, rules, f.situation.winner == f.situation.dealer)
    elif renhou is None:
        return None
    else:
        base = 0
    if renhou is not None:
        # renhou worth a limit: the better of that limit and the hand without it
        rbase, rlimit = base_points(renhou.han, fu, rules, f.situation.winner == f.situation.dealer)
        if rbase > base:
            return HandScore(
                renhou.han, fu, rlimit, rbase, (renhou,), fu_items, 0, r, f.hand, f.situation, rules
            )
    if not dora:
        yaku = tuple(found)
    elif found is hand_regular:  # (the hand's list, shared by its readings: not changed)
        yaku = tuple(found + dora)
    else:  # (a list made for this reading, not empty: not _NO_YAKU)
        found.extend(dora)
        yaku = tuple(found)
    return HandScore(
        han,
        fu,
        limit,
        base,
        yaku,
        fu_items,
        0,
        r,
        f.hand,
        f.situation,
        rules,
    )


def _better(a: HandScore, b: HandScore) -> bool:
    """Whether the reading scored ``a`` beats ``b``: the higher base points, then a true yakuman before
    a counted one, then the more han, then the more fu."""
    # (told field by field: compiled, two tuples would be made and their ints boxed to compare them)
    if a.base_points != b.base_points:
        return a.base_points > b.base_points
    yakuman = a.limit is _YAKUMAN
    if yakuman != (b.limit is _YAKUMAN):
        return yakuman
    if a.han != b.han:
        return a.han > b.han
    return a.fu > b.fu


def score_hand(hand: Hand, situation: Situation, rules: Rules) -> HandScore:
    """Score a winning hand; raises :class:`InvalidHandError` (code
    ``not_winning``, ``no_yaku``, ``contradiction`` or ``impossible``)."""
    found = scored_or_refused(hand, situation, rules)
    if isinstance(found, HandScore):
        return found
    raise InvalidHandError(*found)


def scored_or_refused(hand: Hand, situation: Situation, rules: Rules) -> HandScore | tuple[str, str]:
    """:func:`score_hand`, but a hand that is not winning or has no yaku is answered by its error's
    message and code, returned, not raised (a bad hand or situation is still raised). (For a caller
    that raises the error itself: compiled, an error gains a traceback entry, a code object and a
    frame, in each function it passes through, and one hand in seven of a stream may be refused; and
    the error is made in the ``raise``: held in a local, it would be held by its own traceback. A
    helper of :func:`tenbou.api.score`, not in ``__all__``.)"""
    validate(hand, situation, rules)
    if situation.fourth_kan:
        return fourth_kan_score(hand, situation, rules)
    f = HandFacts(hand, situation, rules)
    readings = _readings(f)
    if not readings:
        return f"{hand} is not a winning hand", "not_winning"
    dora, dora_han = _dora(f)
    best: HandScore | None = None
    hand_level = _hand_level(readings[0])
    form = readings[0].form
    for r in readings:
        if r.form is not form:  # chiitoitsu comes first, then the standard readings
            form = r.form
            hand_level = _hand_level(r)
        c = _evaluate(r, hand_level, dora, dora_han)
        if c is not None and (best is None or _better(c, best)):
            best = c
    if best is None:
        return f"{hand} has no yaku (dora do not count as yaku)", "no_yaku"
    return best


_SUUKANTSU: Final = YAKU_BY_ID["suukantsu"]
#: the flags of a win that a daiminkan of a discard cannot come with
_NOT_WITH_A_CALL: Final = (
    "riichi", "double_riichi", "ippatsu", "rinshan", "chankan", "haitei", "houtei", "tenhou", "chiihou",
    "renhou",
)  # fmt: skip


def fourth_kan_score(hand: Hand, s: Situation, rules: Rules) -> HandScore:
    """The suukantsu dealt in at the fourth kan (``s.fourth_kan``): under ``suukantsu_pao_timing =
    "fourth_kan"`` (with suukantsu in ``pao_yaku``) the daiminkan that makes a player's fourth kan
    is itself a deal-in of suukantsu, and the hand ends there (seed 000, 責任払い, 四槓子の確定:
    「大明槓された瞬間に四槓子の振り込みと見なされるルールもある」). ``hand`` is the kanning
    player's as the discard comes: three kans and, concealed, three of the discarded ``win_tile``
    (and the one tile the kan leaves); ``s.discarder`` dealt it in. The value is the suukantsu
    alone (doubled by ``double_yakuman``, within ``yakuman_cap``), no fu, paid as a ron; the
    reading is the hand the kan leaves, four kans and a tanki wait. Anything else is refused
    (:class:`~tenbou.errors.InvalidHandError`, ``contradiction``).

    >>> from tenbou.rules import get_rules
    >>> rules = get_rules("ron2").replace(suukantsu_pao_timing="fourth_kan")
    >>> h = Hand.parse("2225p +2p ankan:1111m ankan:3333p kan:4444s@3")
    >>> hs = fourth_kan_score(h, Situation(winner=1, discarder=2, fourth_kan=True), rules)
    >>> hs.han, hs.fu, hs.limit, hs.base_points, [y.id for y in hs.yaku], hs.reading.wait
    (13, 0, <Limit.YAKUMAN: 'yakuman'>, 8000, ['suukantsu'], <Wait.TANKI: 'tanki'>)
    """
    if rules.suukantsu_pao_timing != "fourth_kan" or "suukantsu" not in rules.pao_yaku:
        raise contradiction(
            "fourth_kan: these rules do not make the fourth kan a suukantsu dealt in "
            '(suukantsu_pao_timing = "fourth_kan" with suukantsu in pao_yaku)'
        )
    if s.discarder is None:
        raise contradiction("fourth_kan: the fourth kan is a daiminkan of a discard (give 'from')")
    flag = next((name for name in _NOT_WITH_A_CALL if getattr(s, name)), None)
    if flag is not None:
        raise contradiction(f"fourth_kan and {flag} cannot both hold (the fourth kan is a call of a discard)")
    win = hand.win_tile
    kans = sum(m.is_kan for m in hand.melds)
    if kans != 3 or len(hand.melds) != 3:
        raise contradiction(
            f"fourth_kan: the hand has {kans} kans in {len(hand.melds)} melds; the fourth kan comes "
            "after three kans and no other call"
        )
    called = tuple([t for t in hand.concealed if t.kind == win.kind])
    if len(called) != 3:
        raise contradiction(
            f"fourth_kan: the daiminkan of {win} takes three {Tile(win.kind)} from the hand, which holds "
            f"{len(called)}"
        )
    left = next(t for t in hand.concealed if t.kind != win.kind)
    kan = Meld(MeldType.DAIMINKAN, (*called, win), s.discarder, win)
    after = HandFacts(Hand((left,), (*hand.melds, kan), left), s, rules)
    mult = 2 if "suukantsu" in rules.double_yakuman else 1
    if rules.yakuman_cap:
        mult = min(mult, rules.yakuman_cap)
    yaku = (YakuHan(_SUUKANTSU, 13 * mult, mult),)
    return HandScore(13 * mult, 0, _YAKUMAN, 8000 * mult, yaku, (), mult, _readings(after)[0], hand, s, rules)


def _merged(first: list[YakuHan], second: list[YakuHan]) -> list[YakuHan]:
    """The yaku of ``first`` and ``second``, two lists in the report order (``YAKU_ORDER``) with no
    yaku in both, merged into a new list in that order (each has a handful: a merge, which looks up
    the order of fewer yaku than a sort)."""
    out: list[YakuHan] = []
    i = 0
    n = len(first)
    for y in second:
        key = YAKU_ORDER[y.yaku.id]
        while i < n and YAKU_ORDER[first[i].yaku.id] < key:
            out.append(first[i])
            i += 1
        out.append(y)
    if i < n:
        out.extend(first[i:])
    return out
