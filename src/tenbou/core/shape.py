"""Hand shapes: every decomposition of a winning hand, waits and tenpai (shanten, how far a hand
is from ready, is :mod:`tenbou.core.shanten`'s).

Works on 34-long count vectors of tile kinds. Each suit is decomposed on its
own through a table (built lazily and cached, one entry per 9-count pattern
met), so a hand costs three look-ups in a table of ints plus the honours.

>>> from tenbou.core.tiles import counts34, parse_tiles
>>> c = counts34(t.kind for t in parse_tiles("11122233344455m"))
>>> for d in standard_decompositions(c):
...     print(d)
111m 234m 345m 345m 22m
111m 222m 333m 444m 55m
111m 234m 234m 234m 55m
444m 123m 123m 123m 55m
>>> [d.pair for d in standard_decompositions(counts34(t.kind for t in parse_tiles("123m456p789s11122z")))]
[28]
>>> sorted(format_kinds([k]) for k in waits(counts34(t.kind for t in parse_tiles("1112345678999m"))))
['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Final

from .shanten import shanten as shanten
from .tiles import TERMINALS_AND_HONORS, format_kinds
from .values import DataRecord

if TYPE_CHECKING:  # (mypyc's 64-bit integer: in annotations only, read by mypy and mypyc alone)
    from mypy_extensions import i64

__all__ = [
    "KOKUSHI_KINDS",
    "Decomposition",
    "Raw",
    "decompose",
    "is_chiitoitsu",
    "is_kokushi",
    "is_tenpai",
    "is_winning",
    "octal_counts",
    "read_counts",
    "read_hand_counts",
    "shanten",
    "standard_decompositions",
    "tenpai_after_discard",
    "waits",
    "waits_brute",
]

KOKUSHI_KINDS: Final = tuple(sorted(TERMINALS_AND_HONORS))


@dataclass(frozen=True, slots=True)
class Decomposition(DataRecord):
    """The concealed part of a standard hand read as sets and one pair
    (kinds; runs by their lowest tile)."""

    pair: int
    triplets: tuple[int, ...]
    runs: tuple[int, ...]

    def __str__(self) -> str:
        parts = [format_kinds([k] * 3) for k in self.triplets]
        parts += [format_kinds([k, k + 1, k + 2]) for k in self.runs]
        parts.append(format_kinds([self.pair] * 2))
        return " ".join(parts)


def _read_sets(
    counts: list[int], i: int, pair: int, trips: list[int], runs: list[int], out: list[Raw]
) -> None:
    """Add to ``out`` every reading of a suit's ``counts`` (read as manzu, its pair taken out: the kind
    ``pair``, or -1) as triplets and runs, from kind ``i`` on (those below it read already, as
    ``trips`` and ``runs``): the lowest kind left is a triplet and runs, or runs alone, each reading's
    triplets and runs ascending, those with a triplet of the lowest kind first. ``counts``, ``trips``
    and ``runs`` are as given when it returns. (Nothing is kept: only a pattern not met before is read
    so, and its part is kept.)"""
    while i < 9 and counts[i] == 0:
        i += 1
    if i == 9:
        out.append(_raw(pair, tuple(trips), tuple(runs)))
        return
    n = counts[i]
    r = n - 3  # a triplet of kind i, and runs from it for the rest
    if r == 0 or (r > 0 and i < 7 and counts[i + 1] >= r and counts[i + 2] >= r):
        _read_runs(counts, i, r, pair, True, trips, runs, out)
    if i < 7 and counts[i + 1] >= n and counts[i + 2] >= n:  # runs alone
        _read_runs(counts, i, n, pair, False, trips, runs, out)


def _read_runs(
    counts: list[int],
    i: int,
    r: int,
    pair: int,
    trip: bool,
    trips: list[int],
    runs: list[int],
    out: list[Raw],
) -> None:
    """:func:`_read_sets` of kind ``i`` read as ``r`` runs from it (none past kind 6) and a triplet
    (``trip``) or none."""
    n = counts[i]
    counts[i] = 0
    if r:
        counts[i + 1] -= r
        counts[i + 2] -= r
        for _ in range(r):
            runs.append(i)
    if trip:
        trips.append(i)
    _read_sets(counts, i + 1, pair, trips, runs, out)
    if trip:
        trips.pop()
    if r:
        del runs[len(runs) - r :]
        counts[i + 2] += r
        counts[i + 1] += r
    counts[i] = n


#: one reading of concealed tiles: (pair kind or -1, triplet kinds, run start kinds,
#: triplet bit mask, run bit mask (bit = kind), identical-run pairs (peikou),
#: whether every set and the pair hold a terminal or honour)
Raw = tuple[int, tuple[int, ...], tuple[int, ...], int, int, int, bool]


def _raw(pair: int, trips: tuple[int, ...], runs: tuple[int, ...]) -> Raw:
    """A reading of the manzu (kinds 0-8) as a :data:`Raw`; ``runs`` ascending, as :func:`_read_sets`
    gives them (identical runs side by side, counted in pairs for peikou)."""
    tmask = rmask = peikou = 0
    outside = pair == -1 or pair == 0 or pair == 8
    for i in trips:
        tmask |= 1 << i
        if i != 0 and i != 8:
            outside = False
    prev = -1
    same = 0  # copies of the run ``prev`` met so far
    for i in runs:
        rmask |= 1 << i
        if i != 0 and i != 6:
            outside = False
        if i == prev:
            same += 1
            if same % 2 == 0:
                peikou += 1
        else:
            prev = i
            same = 1
    return pair, trips, runs, tmask, rmask, peikou, outside


#: what the tiles of one suit (or the honours) of a hand are, worked out once per pattern of counts:
#: (1 if they hold the pair else 0, their readings as sets and that pair -- none when they cannot be
#: read so --, the kinds present: bit k for kind k)
Part = tuple[int, tuple[Raw, ...], int]
#: the parts met so far, by the counts of the part (``tuple(counts[0:9])``: a cheap key to make
#: and to hash), for the manzu, pinzu, souzu and honours, read by :func:`_combined` (a hand whose
#: parts read more than one way; the hot path, :func:`read_counts`, reads the packed parts). At
#: most _PARTS_KEPT patterns of each are kept (hands meet a few thousand).
_PARTS: Final[tuple[dict[tuple[int, ...], Part], ...]] = ({}, {}, {}, {})
_PARTS_KEPT: Final = 50_000
_NO_TILES: Final[tuple[int, ...]] = (0,) * 9  # (any length: mypyc would box a fixed one to compare)


def _part(key: tuple[int, ...], part: int) -> Part:
    """The :data:`Part` of the counts ``key`` of a suit (``part`` 0 man, 1 pin, 2 sou) or of the
    honours (``part`` 3)."""
    found = _PARTS[part].get(key)
    if found is None:
        found = _new_part(key, part)
    return found


def _new_part(key: tuple[int, ...], part: int) -> Part:
    """:func:`_part` for counts not in ``_PARTS[part]``: worked out and kept there (a suit is worked
    out as manzu, the others shifting the manzu's part when it is kept, else working it out anew:
    only hands whose parts read more ways come here, few)."""
    if part == 0:
        found = _suit_part(key, 0)
    elif part == 3:
        found = _honour_part(key)
    else:
        base = 9 * part
        manzu = _PARTS[0].get(key)
        if manzu is None:
            manzu = _suit_part(key, base)
        has_pair, readings, present = manzu
        found = has_pair, tuple([_shifted(r, base) for r in readings]), present << base
    known = _PARTS[part]
    if len(known) < _PARTS_KEPT:
        known[key] = found
    return found


def _honour_part(key: tuple[int, ...]) -> Part:
    """The honours' :data:`Part`: each kind a triplet, or the pair (one at most)."""
    pair = -1
    trips: list[int] = []
    mask = present = 0
    readable = True
    for i in range(7):
        n = key[i]
        if n:
            k = 27 + i
            if not 0 < n <= 255:  # (no hand holds more than 14 of a kind)
                raise ValueError(f"counts: {n} of kind {k}, not 0..255")
            present |= 1 << k
            if n == 3:
                trips.append(k)
                mask |= 1 << k
            elif n == 2 and pair < 0:
                pair = k
            else:
                readable = False
    if not readable:
        return 0, (), present
    return (1 if pair >= 0 else 0), ((pair, tuple(trips), (), mask, 0, 0, True),), present


def _suit_part(key: tuple[int, ...], base: int) -> Part:
    """The :data:`Part` of the counts ``key`` of a suit read as manzu (``base`` only names the kinds of
    a bad count)."""
    present = total = weighted = 0
    for i in range(9):
        n = key[i]
        if n:
            if not 0 < n <= 255:  # (no hand holds more than 14 of a kind)
                raise ValueError(f"counts: {n} of kind {base + i}, not 0..255")
            present |= 1 << i
            total += n
            weighted += i * n
    # each set's kinds add up to a multiple of 3 (3k for a triplet, 3k + 3 for a run), so the kinds of
    # the counts add up to twice the pair's kind, mod 3: only a pair of that kind mod 3 can be taken
    rem = total % 3
    out: list[Raw] = []
    if rem == 1 or (rem == 0 and weighted % 3):
        found: Part = 0, (), present
    elif rem == 0:
        _read_sets(list(key), 0, -1, [], [], out)
        found = 0, tuple(out), present
    else:
        rest = list(key)
        for i in range(2 * weighted % 3, 9, 3):
            n = key[i]
            if n >= 2:
                rest[i] = n - 2
                _read_sets(rest, 0, i, [], [], out)
                rest[i] = n
        found = 1, tuple(out), present
    return found


def _shifted(raw: Raw, base: int) -> Raw:
    """A reading of the manzu as the same reading of the suit starting at ``base``."""
    pair, trips, runs, tmask, rmask, peikou, outside = raw
    return (
        -1 if pair < 0 else pair + base,
        tuple([k + base for k in trips]),
        tuple([k + base for k in runs]),
        tmask << base,
        rmask << base,
        peikou,
        outside,
    )


#: The packed form of a part, for :func:`read_counts`: one int a pattern, the same for the three suits
#: (kinds counted from the suit's first), so that a look-up reads a few cache lines -- the key, the int
#: -- not a tree of tuples and ints (the kept parts of a stream of hands take megabytes: a hand's
#: look-ups then wait on memory). Bits, from the lowest:
#:
#: - 0-8: the kinds present;
#: - 9-10: how the part reads: 0 it cannot (``_UNREADABLE``), 1 one way only (``_SINGLE``), 2 more
#:   (``_MANY``: :func:`_combined` reads every way, from the :data:`Part`);
#: - 11: 1 if it holds the pair (a part that reads);
#: - 12-15: the pair's kind + 1 (0: none);
#: - 16-24: the triplets' kinds (a mask: the triplets, ascending, are ``_TRIPS[part][mask]``);
#: - 25-26: identical-run pairs (peikou);
#: - 27: whether every set and the pair hold a terminal or honour;
#: - 28-34: the runs' first kinds (a mask);
#: - 35-43: the runs (ascending, repeats kept) as ``_RUNS[suit][index]``.
#:
#: The fields from bit 12 on are those of the one reading: a part that reads more ways has only its
#: kinds, how it reads and the pair bit; one that does not read, its kinds and how. A part read one
#: way whose reading does not fit the fields (counts past four of a kind: more identical runs than
#: peikou's bits hold, or runs past the 512 kept) is packed as one that reads more ways.
_UNREADABLE: Final = 0
_SINGLE: Final = 1
_MANY: Final = 2
#: The packed parts met so far, the suits' (one pattern, whatever the suit) and the honours', in one
#: open-addressed table: a list of ints, a power of two long, each slot 0 (empty) or a part's
#: ``code << 35 | packed >> 9`` -- its counts as octal digits, the first kind lowest (the honours'
#: with bit 27 set besides), then its packed fields past the kinds present (those are read from the
#: counts). A look-up reads the slot and its int, two cache lines, where a dict keyed by the counts'
#: tuple read four, and made, hashed and compared the tuple: across a stream of new hands, the
#: slots of the patterns of a few thousand hands stay in the processor's caches. ``_TABLE[0]`` is
#: the table, replaced by one twice as long when half full, up to ``_MAX_SLOTS``;
#: ``_TABLE_USED[0]`` how many slots are filled.
_TABLE: Final[list[list[int]]] = [[0] * 4096]
_TABLE_USED: Final[list[int]] = [0]
_MAX_SLOTS: Final = 1 << 17  # (then at most 65,536 patterns are kept: hands meet a few thousand)
_HONOURS_CODE: Final = 1 << 27  # (set in the honours' codes: a suit's nine digits take bits 0-26)
_FIELDS: Final = (1 << 35) - 1  # (the packed fields past the kinds present, as a slot holds them)
#: a code's first slot, in a table of ``mask + 1``: ``code * _SPREAD >> _SPREAD_SHIFT & mask``
#: (Fibonacci hashing: the code times 2**32 over the golden ratio, its high bits taken)
_SPREAD: Final = 2654435769
_SPREAD_SHIFT: Final = 20
#: the kinds present (bit i: digit i is not 0) of each three octal digits
_PRESENT3: Final[tuple[int, ...]] = tuple(
    [(1 if d & 7 else 0) | (2 if d & 0o70 else 0) | (4 if d & 0o700 else 0) for d in range(512)]
)


def _part_packed(counts: tuple[int, ...], base: i64, kinds: i64, code: i64) -> i64:
    """The packed part of the ``kinds`` counts of ``counts`` from kind ``base`` (a suit's nine, or
    the honours' seven from 27), whose octal digits are ``code``, from the table (worked out and kept
    when not there), or 0 when they hold no tile."""
    # (the integers typed i64: compiled, 64-bit machine integers, without the checks of an int that
    # may be any size; in pure Python, ints)
    if not code:
        return 0
    present: i64 = _PRESENT3[code & 511] | _PRESENT3[code >> 9 & 511] << 3 | _PRESENT3[code >> 18 & 511] << 6
    if kinds == 7:
        code |= _HONOURS_CODE
    table = _TABLE[0]
    mask: i64 = len(table) - 1
    i = code * _SPREAD >> _SPREAD_SHIFT & mask  # (written out, not a function: in pure Python a call costs)
    while True:
        entry: i64 = table[i]
        if entry >> 35 == code:
            return (entry & _FIELDS) << 9 | present
        if entry == 0:
            break
        i = (i + 1) & mask
    packed = _packed(counts[base : base + kinds], base)
    used = _TABLE_USED[0]
    if 2 * (used + 1) <= len(table):
        table[i] = code << 35 | packed >> 9
        _TABLE_USED[0] = used + 1
    elif len(table) < _MAX_SLOTS:  # half full: the table is replaced by one twice as long
        _grown(table)
        return _part_packed(counts, base, kinds, code & ~_HONOURS_CODE)
    return packed


def octal_counts(counts: tuple[int, ...]) -> tuple[int, int]:
    """``counts`` (0..7 each) as octal digits, three bits a kind: kinds 0-17 in the first, 18-33 in
    the second (as a :class:`~tenbou.core.hand.Hand` keeps its concealed counts)."""
    low: i64 = 0
    high: i64 = 0
    for k in range(17, -1, -1):
        low = low << 3 | counts[k]
    for k in range(33, 17, -1):
        high = high << 3 | counts[k]
    return low, high


def _grown(table: list[int]) -> None:
    """Replace the table by one twice as long, holding the same entries."""
    bigger = [0] * (2 * len(table))
    mask: i64 = len(bigger) - 1
    for entry in table:
        if entry:
            i = (entry >> 35) * _SPREAD >> _SPREAD_SHIFT & mask  # (the first slot of its code)
            while bigger[i]:
                i = (i + 1) & mask
            bigger[i] = entry
    _TABLE[0] = bigger


def _trips_by_mask(base: int, kinds: int) -> tuple[tuple[int, ...], ...]:
    """The triplets of each mask of a part's ``kinds`` kinds (bit i: the kind ``base + i``), as the
    hand's kinds, ascending: made by doubling, each kind added to the masks of the kinds below it."""
    table: list[tuple[int, ...]] = [()]
    for i in range(kinds):
        table += [(*trips, base + i) for trips in table]
    return tuple(table)


#: the triplets of each mask of a part's kinds, by part (0 man, 1 pin, 2 sou, 3 honours), then mask
_TRIPS: Final = tuple([_trips_by_mask(9 * part, 9 if part < 3 else 7) for part in range(4)])
#: the runs of a suit's readings met so far, as the hand's kinds: by suit, then the index packed in
#: the part (0: no run); the index of each, by the runs as manzu (kinds 0-8), is ``_RUNS_INDEX``
#: (a hand's suit holds at most four runs: a few hundred ways; counts past four of a kind, more)
_RUNS: Final[tuple[list[tuple[int, ...]], ...]] = ([()], [()], [()])
_RUNS_INDEX: Final[dict[tuple[int, ...], int]] = {(): 0}
_MAX_RUNS_INDEX: Final = 511  # (the field's 9 bits)


def _packed(key: tuple[int, ...], base: int) -> int:
    """The packed part of the counts ``key`` of the suit whose first kind is ``base`` (which only
    names the kinds of a bad count: the part is packed as manzu) or of the honours (``base`` 27),
    worked out from its :data:`Part` (kept by :func:`_part_packed`)."""
    honours = base == 27
    if honours:
        has_pair, table, present = _honour_part(key)
    else:
        has_pair, table, present = _suit_part(key, base)
        base = 0  # (the kinds of a suit's Part are the manzu's)
    present >>= base
    how = _SINGLE if len(table) == 1 else _MANY if table else _UNREADABLE
    if how == _SINGLE:
        pair, _trips, runs, tmask, rmask, peikou, outside = table[0]
        index = _RUNS_INDEX.get(runs, -1)
        if index < 0 and len(_RUNS[0]) <= _MAX_RUNS_INDEX:
            index = _RUNS_INDEX[runs] = len(_RUNS[0])
            for suit in range(3):
                _RUNS[suit].append(tuple([9 * suit + k for k in runs]))
        if index < 0 or peikou > 3:
            # (counts past four of a kind -- read, though no hand holds them -- can make more runs
            # than the fields hold: such a part is read from its Part, as one that reads more ways)
            how = _MANY
    packed = present | how << 9 | has_pair << 11
    if how == _SINGLE:
        packed |= (
            (0 if pair < 0 else pair - base + 1) << 12
            | tmask >> base << 16
            | peikou << 25
            | (1 if outside else 0) << 27
            | rmask << 28
            | index << 35
        )
    return packed


def read_counts(counts: tuple[int, ...]) -> tuple[int, list[Raw]]:
    """The kinds present in ``counts`` (bit k for kind k) and every reading of them as
    :data:`Raw` tuples (:func:`decompose`), from the packed parts (``_TABLE``): the reading of a
    hand whose every part reads one way is put together here; the readings of one whose parts read
    more ways, by :func:`_combined`. Counts past seven of a kind or below zero, which no hand holds
    and have no octal digit, are read from parts worked out each time."""
    if min(counts) >= 0 and max(counts) <= 7:
        low, high = octal_counts(counts)
        return read_hand_counts(counts, low, high)
    return _read_counts(counts, False, 0, 0)


def read_hand_counts(counts: tuple[int, ...], low: i64, high: i64) -> tuple[int, list[Raw]]:
    """:func:`read_counts` of a hand's concealed counts (0..4 each: a :class:`~tenbou.core.hand.Hand`
    holds no more), with the same as octal digits (``Hand.concealed_low`` and
    ``concealed_high``, :func:`octal_counts`): their parts looked up in the table by them."""
    return _read_counts(counts, True, low, high)


def _read_counts(counts: tuple[int, ...], kept: bool, low: i64, high: i64) -> tuple[int, list[Raw]]:
    """:func:`read_counts`, the parts looked up in the table by the octal digits ``low`` and
    ``high`` (``kept``) or worked out."""
    # (the integers typed i64, as in _part_packed)
    present: i64 = 0
    pairs: i64 = 0
    readable = single = True
    pair: i64 = -1
    trips: tuple[int, ...] = ()
    runs: tuple[int, ...] = ()
    tmask: i64 = 0
    rmask: i64 = 0
    peikou: i64 = 0
    outside = True
    packed: i64
    mask: i64
    # (most hands hold no honour: told by the honours' octal digits, or else by the seven counts, in
    # both builds cheaper than a slice compared with no honours, and no slice made; the honours'
    # runs are none, all outside)
    if (
        high >> 27 != 0
        if kept
        else counts[27] or counts[28] or counts[29] or counts[30] or counts[31] or counts[32] or counts[33]
    ):
        packed = _part_packed(counts, 27, 7, high >> 27) if kept else _packed(counts[27:34], 27)
        present = (packed & 511) << 27
        if packed >> 9 & 3 == _UNREADABLE:
            readable = single = False
        else:
            pairs = packed >> 11 & 1
            if pairs:
                pair = (packed >> 12 & 15) - 1 + 27
            mask = packed >> 16 & 511
            if mask:
                trips = _TRIPS[3][mask]
                tmask = mask << 27
    for suit in range(3):
        base: i64 = 9 * suit
        if kept:
            code = (low if suit == 0 else low >> 27 if suit == 1 else high) & 0o777777777
            packed = _part_packed(counts, base, 9, code)
        else:
            packed = _packed(counts[base : base + 9], base)
        if not packed & 511:  # (no tile of the suit)
            continue
        present |= (packed & 511) << base
        how: i64 = packed >> 9 & 3
        if how == _UNREADABLE:
            readable = False
            continue
        pairs += packed >> 11 & 1
        if single and how == _SINGLE:
            kind: i64 = packed >> 12 & 15
            if kind:
                pair = kind - 1 + base
            mask = packed >> 16 & 511
            if mask:
                trips = trips + _TRIPS[suit][mask]
                tmask |= mask << base
            mask = packed >> 28 & 127
            if mask:
                runs = runs + _RUNS[suit][packed >> 35 & 511]
                rmask |= mask << base
                peikou += packed >> 25 & 3
            outside = outside and packed >> 27 & 1 == 1
        else:
            single = False
    if not readable or pairs != 1:
        return present, []
    if single:
        return present, [(pair, trips, runs, tmask, rmask, peikou, outside)]
    return present, _combined(counts)


def _combined(counts: tuple[int, ...]) -> list[Raw]:
    """Every reading of ``counts``, a readable hand with one pair, made of every reading of each part
    (the honours' and each suit's)."""
    combos = list(_part(counts[27:34], 3)[1])
    for suit in range(3):
        key = counts[9 * suit : 9 * suit + 9]
        if key == _NO_TILES:
            continue
        table = _part(key, suit)[1]
        combos = [
            (sp if sp >= 0 else p, ts + st, rs + sr, tm | stm, rm | srm, pk + spk, out and sout)
            for p, ts, rs, tm, rm, pk, out in combos
            for sp, st, sr, stm, srm, spk, sout in table
        ]
    return combos


def decompose(counts: list[int]) -> list[Raw]:
    """Every reading of ``counts`` as :data:`Raw` tuples (the fast form of
    :func:`standard_decompositions`, with the features yaku ask about)."""
    return read_counts(tuple(counts))[1]


def standard_decompositions(counts: list[int]) -> list[Decomposition]:
    """Every reading of ``counts`` (the concealed tiles with the winning tile,
    without melds) as sets and exactly one pair. Empty if there is none."""
    return [Decomposition(d[0], tuple(sorted(d[1])), tuple(sorted(d[2]))) for d in decompose(counts)]


def is_chiitoitsu(counts: Sequence[int]) -> bool:
    """Seven different pairs (four of a kind is not two pairs)."""
    pairs = 0
    for n in counts:
        if n == 2:
            pairs += 1
        elif n:
            return False
    return pairs == 7


def is_kokushi(counts: Sequence[int]) -> bool:
    """One of each terminal and honour and one more of them."""
    doubled = 0
    for k in KOKUSHI_KINDS:  # most hands lack one at once: this comes before the count of all tiles
        n = counts[k]
        if n == 0 or n > 2:
            return False
        doubled += n == 2
    return doubled == 1 and sum(counts) == 14


def is_winning(counts: list[int], closed: bool = True) -> bool:
    """Whether the concealed counts (with the winning tile) complete a hand;
    chiitoitsu and kokushi only when ``closed`` with no meld."""
    total = sum(counts)
    if total == 14 and closed and (is_chiitoitsu(counts) or is_kokushi(counts)):
        return True
    return bool(standard_decompositions(counts))


def waits(counts: list[int], closed: bool = True, players: int = 4) -> list[int]:
    """The kinds that complete a tenpai hand of ``3n+1`` tiles, sorted (a kind
    already held four times is still listed, as the shape waits on it).
    Chiitoitsu and kokushi count only when ``closed`` with 13 tiles.

    Each suit's own waits come from a cached table, so this costs a few look-ups.
    """
    out = set(_standard_waits(counts))
    if closed and sum(counts) == 13:
        out.update(_seven_pairs_waits(counts))
        out.update(_kokushi_waits(counts))
    if players == 3:
        out.difference_update(range(1, 8))
    return sorted(out)


def waits_brute(counts: list[int], closed: bool = True, players: int = 4) -> list[int]:
    """:func:`waits` by trying every kind (the reference the tests compare with)."""
    out = []
    for k in range(34):
        if players == 3 and 0 < k < 8:
            continue
        counts[k] = counts[k] + 1
        if is_winning(counts, closed):
            out.append(k)
        counts[k] = counts[k] - 1
    return out


#: a part of a hand (one suit, or one honour kind): 0 complete as sets, 1 complete
#: as sets and the pair, -1 incomplete; and the kinds that make it complete as sets
#: only / as sets and the pair when added
_WaitPart = tuple[int, tuple[int, ...], tuple[int, ...]]


def _status(key: tuple[int, ...], part: int) -> int:
    """0 if a suit's counts read as sets, 1 as sets and the pair, -1 neither."""
    has_pair, table, _ = _part(key, part)
    return (1 if has_pair else 0) if table else -1


@cache
def _suit_waits(key: tuple[int, ...], base: int) -> _WaitPart:
    part = base // 9
    status = _status(key, part)
    sets_only: list[int] = []
    with_pair: list[int] = []
    for i in range(9):
        grown = list(key)
        grown[i] = grown[i] + 1
        pair, found, _ = _part(tuple(grown), part)
        if found:
            (with_pair if pair else sets_only).append(base + i)
    return status, tuple(sets_only), tuple(with_pair)


def _honor_part(k: int, n: int) -> _WaitPart:
    if n == 3:
        return 0, (), ()
    if n == 2:
        return 1, (k,), ()
    if n == 1:
        return -1, (), (k,)
    return -1, (), ()  # four of an honour in hand cannot be read as sets


def _standard_waits(counts: list[int]) -> tuple[int, ...]:
    # (a wait mends one part: two parts that do not read are no wait, told before the suits are
    # looked up -- the honours first, which need no look-up)
    parts: list[_WaitPart] = []
    incomplete = 0
    for k in range(27, 34):
        if counts[k]:
            part = _honor_part(k, counts[k])
            if part[0] < 0:
                incomplete += 1
                if incomplete > 1:
                    return ()
            parts.append(part)
    for base in (0, 9, 18):
        key = tuple(counts[base : base + 9])
        if key != _NO_TILES:
            part = _suit_waits(key, base)
            if part[0] < 0:
                incomplete += 1
                if incomplete > 1:
                    return ()
            parts.append(part)
    pairs = sum(1 for p in parts if p[0] == 1)
    if incomplete:
        unread = next(p for p in parts if p[0] < 0)
        return unread[2] if pairs == 0 else unread[1] if pairs == 1 else ()
    if pairs == 2:  # shanpon: either pair becomes a triplet
        return tuple(k for p in parts if p[0] == 1 for k in p[1])
    return ()


def _seven_pairs_waits(counts: list[int]) -> list[int]:
    pairs = singles = 0
    single = -1
    for k, n in enumerate(counts):
        if n == 2:
            pairs += 1
        elif n == 1:
            singles += 1
            single = k
        elif n:
            return []
    return [single] if pairs == 6 and singles == 1 else []


def _kokushi_waits(counts: list[int]) -> list[int]:
    if any(counts[k] for k in range(34) if k not in TERMINALS_AND_HONORS):
        return []
    missing = [k for k in KOKUSHI_KINDS if not counts[k]]
    doubled = [k for k in KOKUSHI_KINDS if counts[k] == 2]
    if not missing and not doubled:
        return list(KOKUSHI_KINDS)
    if len(missing) == 1 and len(doubled) == 1 and all(counts[k] <= 2 for k in KOKUSHI_KINDS):
        return missing
    return []


def is_tenpai(counts: list[int], closed: bool = True, players: int = 4) -> bool:
    """Whether a ``3n+1`` hand waits on anything.

    >>> from tenbou.core.tiles import counts34, parse_tiles
    >>> is_tenpai(counts34(t.kind for t in parse_tiles("123m456p789s1357z")))
    False
    """
    return bool(waits(counts, closed, players))


#: what taking a tile out of a part (a suit, or an honour kind), putting one in, or both (a swap,
#: maybe of the same kind) can make of it: complete as sets alone, or as sets and the pair (bits)
_OUT_SETS: Final = 1
_OUT_PAIR: Final = 2
_IN_SETS: Final = 4
_IN_PAIR: Final = 8
_SWAP_SETS: Final = 16
_SWAP_PAIR: Final = 32
#: (status: 0 sets, 1 sets and the pair, -1 neither; those bits) of an honour kind held n times (0-4)
_HONOUR_CHANGES: Final = ((0, 0), (-1, 9), (1, 36), (0, 18), (-1, 1))


def _bits(sets_only: tuple[int, ...], with_pair: tuple[int, ...], sets_bit: int, three: bool) -> int:
    """``sets_bit`` if ``sets_only`` holds a kind, the next bit up if ``with_pair`` does (``three``:
    with three players, of 1m and 9m only)."""
    if three:
        sets_only = tuple([k for k in sets_only if k == 0 or k == 8])
        with_pair = tuple([k for k in with_pair if k == 0 or k == 8])
    return (sets_bit if sets_only else 0) | (2 * sets_bit if with_pair else 0)


@cache
def _suit_changes(key: tuple[int, ...], part: int, three: bool) -> int:
    """The bits of :data:`_HONOUR_CHANGES` of a suit's counts ``key``."""
    three = three and part == 0
    _, sets_only, with_pair = _suit_waits(key, 9 * part)
    bits = _bits(sets_only, with_pair, _IN_SETS, three)
    for i in range(9):
        if key[i]:
            fewer = list(key)
            fewer[i] = fewer[i] - 1
            out, sets_only, with_pair = _suit_waits(tuple(fewer), 9 * part)
            bits |= (_OUT_SETS if out == 0 else _OUT_PAIR if out == 1 else 0) | _bits(
                sets_only, with_pair, _SWAP_SETS, three
            )
    return bits


def tenpai_after_discard(counts: list[int], closed: bool = True, players: int = 4) -> bool:
    """Whether some tile of a ``3n+2`` hand can be discarded leaving it tenpai (:func:`waits` of the
    rest not empty): riichi's question after each draw, answered by one reading of the hand's parts,
    not :func:`waits` per discard. A discard and a wait are a tile out and one in: every part but the
    one or two they touch must read as sets already, with one pair in all.

    >>> from tenbou.core.tiles import counts34, parse_tiles
    >>> tenpai_after_discard(counts34(t.kind for t in parse_tiles("123m456p789s11z358m")))  # 8m out
    True
    >>> tenpai_after_discard(counts34(t.kind for t in parse_tiles("147m258p369s12345z")))
    False
    """
    three = players == 3
    if three and any(counts[k] for k in range(1, 8)):  # (2m-8m are not in the set: never in play)
        return any(
            waits([n - (j == k) for j, n in enumerate(counts)], closed, 3) for k in range(34) if counts[k]
        )
    if _near_standard(counts, three):
        return True
    return closed and sum(counts) == 14 and _near_seven_pairs_or_kokushi(counts)


def _near_standard(counts: list[int], three: bool) -> bool:
    """:func:`tenpai_after_discard` of the standard form: each part's status (complete as sets, with
    the pair, or neither) first, looked up; most hands asked have three parts or more that do not
    read, which a tile out and one in cannot mend, and end there; then what a change makes of each
    part (:func:`_suit_changes`)."""
    statuses: list[int] = []
    changes: list[int] = []
    for k in range(27, 34):
        if counts[k]:
            status, bits = _HONOUR_CHANGES[min(counts[k], 4)]
            statuses.append(status)
            changes.append(bits)
    keys = [(part, tuple(counts[9 * part : 9 * part + 9])) for part in range(3)]
    keys = [(part, key) for part, key in keys if key != _NO_TILES]
    statuses += [_status(key, part) for part, key in keys]
    unread = statuses.count(-1)
    if unread > 2:  # a tile out and one in mend two parts at most
        return False
    changes += [_suit_changes(key, part, three) for part, key in keys]
    pairs = statuses.count(1)
    for p in range(len(statuses)):
        out_unread = unread - (statuses[p] < 0)
        out_pairs = pairs - (statuses[p] == 1)
        bits = changes[p]
        if not out_unread and bits & (_SWAP_SETS if out_pairs == 1 else _SWAP_PAIR if out_pairs == 0 else 0):
            return True  # the discard and the wait in this part (or the hand complete already)
        for q in range(len(statuses)):  # the discard from this part, the wait in another
            if q == p or out_unread - (statuses[q] < 0):
                continue
            wait = changes[q]
            others = out_pairs - (statuses[q] == 1)
            if others == 1 and bits & _OUT_SETS and wait & _IN_SETS:
                return True
            if others == 0 and (
                (bits & _OUT_PAIR and wait & _IN_SETS) or (bits & _OUT_SETS and wait & _IN_PAIR)
            ):
                return True
    return False


def _near_seven_pairs_or_kokushi(counts: list[int]) -> bool:
    """14 tiles a discard leaves waiting on seven pairs (six kinds twice or more, a seventh held) or
    on kokushi (the thirteen terminals and honours, or twelve and one of them twice)."""
    pairs = sum(1 for n in counts if n >= 2)
    if pairs >= 6 and sum(1 for n in counts if n) >= 7:
        return True
    held = sum(1 for k in KOKUSHI_KINDS if counts[k])
    return held == 13 or (held == 12 and any(counts[k] >= 2 for k in KOKUSHI_KINDS))
