"""Hand shapes: every decomposition of a winning hand, waits and shanten.

Works on 34-long count vectors of tile kinds. Each suit is decomposed on its
own through a table (built lazily and cached, one entry per 9-count pattern
met), so a hand costs three dictionary look-ups plus the honours.

>>> from tenbou.tiles import counts34, parse_tiles
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

from dataclasses import dataclass
from functools import cache

from .tiles import TERMINALS_AND_HONORS, format_kinds

__all__ = [
    "KOKUSHI_KINDS",
    "Decomposition",
    "Raw",
    "decompose",
    "is_chiitoitsu",
    "is_kokushi",
    "is_winning",
    "shanten",
    "standard_decompositions",
    "waits",
]

KOKUSHI_KINDS = tuple(sorted(TERMINALS_AND_HONORS))


@dataclass(frozen=True, slots=True)
class Decomposition:
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


@cache
def _sets_only(key: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Every way to read a suit's counts as triplets and runs only (no pair)."""
    i = 0
    while i < 9 and key[i] == 0:
        i += 1
    if i == 9:
        return (((), ()),)
    n = key[i]
    out: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    for trip in (1, 0):
        r = n - 3 * trip
        if r < 0:
            continue
        if r and (i > 6 or key[i + 1] < r or key[i + 2] < r):
            continue
        rest = list(key)
        rest[i] = 0
        if r:
            rest[i + 1] -= r
            rest[i + 2] -= r
        tail = _sets_only(tuple(rest))
        head_t = (i,) if trip else ()
        head_r = (i,) * r
        out.extend((head_t + t, head_r + rr) for t, rr in tail)
    return tuple(out)


#: one reading of concealed tiles: (pair kind or -1, triplet kinds, run start kinds,
#: triplet bit mask, run bit mask (bit = kind), identical-run pairs (peikou),
#: whether every set and the pair hold a terminal or honour)
Raw = tuple[int, tuple[int, ...], tuple[int, ...], int, int, int, bool]
_EMPTY9 = (0,) * 9


def _raw(base: int, pair: int, trips: tuple[int, ...], runs: tuple[int, ...]) -> Raw:
    tmask = rmask = 0
    for i in trips:
        tmask |= 1 << (base + i)
    seen: dict[int, int] = {}
    for i in runs:
        rmask |= 1 << (base + i)
        seen[i] = seen.get(i, 0) + 1
    peikou = sum(n // 2 for n in seen.values())
    outside = pair in (-1, 0, 8) and all(i in (0, 8) for i in trips) and all(i in (0, 6) for i in runs)
    return (
        -1 if pair < 0 else base + pair,
        tuple(base + i for i in trips),
        tuple(base + i for i in runs),
        tmask,
        rmask,
        peikou,
        outside,
    )


@cache
def _suit_table(key: tuple[int, ...], base: int) -> tuple[int, tuple[Raw, ...]]:
    """Every decomposition of one suit's 9 counts, kinds offset by ``base``:
    (1 if the suit holds the pair else 0, readings); no readings if none."""
    rem = sum(key) % 3
    if rem == 1:
        return 0, ()
    if rem == 0:
        return 0, tuple(_raw(base, -1, t, r) for t, r in _sets_only(key))
    out: list[Raw] = []
    for i in range(9):
        if key[i] >= 2:
            rest = list(key)
            rest[i] -= 2
            out.extend(_raw(base, i, t, r) for t, r in _sets_only(tuple(rest)))
    return 1, tuple(out)


def decompose(counts: list[int]) -> list[Raw]:
    """Every reading of ``counts`` as :data:`Raw` tuples (the fast form of
    :func:`standard_decompositions`, with the features yaku ask about)."""
    pair = -1
    h_trips: tuple[int, ...] = ()
    h_mask = 0
    for k in range(27, 34):
        n = counts[k]
        if n:
            if n == 3:
                h_trips += (k,)
                h_mask |= 1 << k
            elif n == 2 and pair < 0:
                pair = k
            else:
                return []
    combos: list[Raw] = [(pair, h_trips, (), h_mask, 0, 0, True)]
    pairs = 1 if pair >= 0 else 0
    for base in (0, 9, 18):
        key = tuple(counts[base : base + 9])
        if key == _EMPTY9:
            continue
        has_pair, table = _suit_table(key, base)
        if not table:
            return []
        pairs += has_pair
        combos = [
            (sp if sp >= 0 else p, ts + st, rs + sr, tm | stm, rm | srm, pk + spk, out and sout)
            for p, ts, rs, tm, rm, pk, out in combos
            for sp, st, sr, stm, srm, spk, sout in table
        ]
    if pairs != 1:
        return []
    return combos


def standard_decompositions(counts: list[int]) -> list[Decomposition]:
    """Every reading of ``counts`` (the concealed tiles with the winning tile,
    without melds) as sets and exactly one pair. Empty if there is none."""
    return [Decomposition(d[0], tuple(sorted(d[1])), tuple(sorted(d[2]))) for d in decompose(counts)]


def is_chiitoitsu(counts: list[int]) -> bool:
    """Seven different pairs (four of a kind is not two pairs)."""
    pairs = 0
    for n in counts:
        if n == 2:
            pairs += 1
        elif n:
            return False
    return pairs == 7


def is_kokushi(counts: list[int]) -> bool:
    """One of each terminal and honour and one more of them."""
    if sum(counts) != 14:
        return False
    doubled = 0
    for k in KOKUSHI_KINDS:
        n = counts[k]
        if n == 0 or n > 2:
            return False
        doubled += n == 2
    return doubled == 1


def is_winning(counts: list[int], closed: bool = True) -> bool:
    """Whether the concealed counts (with the winning tile) complete a hand;
    chiitoitsu and kokushi only when ``closed`` with no meld."""
    total = sum(counts)
    if total == 14 and closed and (is_chiitoitsu(counts) or is_kokushi(counts)):
        return True
    return bool(standard_decompositions(counts))


def waits(counts: list[int], closed: bool = True, players: int = 4) -> list[int]:
    """The kinds that complete a tenpai hand of ``3n+1`` tiles (a kind already
    held four times is still listed, as the shape waits on it)."""
    out = []
    for k in range(34):
        if players == 3 and 0 < k < 8:
            continue
        counts[k] += 1
        if is_winning(counts, closed):
            out.append(k)
        counts[k] -= 1
    return out


def shanten(counts: list[int], closed: bool = True) -> int:
    """Shanten number of a ``3n+1`` or ``3n+2`` hand (-1 = complete, 0 = tenpai),
    the least of the standard, chiitoitsu and kokushi forms (the latter two
    only when ``closed`` with 13/14 concealed tiles).

    >>> from tenbou.tiles import counts34, parse_tiles
    >>> shanten(counts34(t.kind for t in parse_tiles("123m456p789s1122z")))
    0
    >>> shanten(counts34(t.kind for t in parse_tiles("19m19p19s1234567z")))
    0
    """
    total = sum(counts)
    sets_needed = total // 3
    best = _standard_shanten(counts, sets_needed)
    if closed and total >= 13:
        pairs = sum(1 for n in counts if n >= 2)
        kinds = sum(1 for n in counts if n)
        best = min(best, 6 - pairs + max(0, 7 - kinds))
        kk = sum(1 for k in KOKUSHI_KINDS if counts[k])
        has_pair = any(counts[k] >= 2 for k in KOKUSHI_KINDS)
        best = min(best, 13 - kk - (1 if has_pair else 0))
    return best


def _standard_shanten(counts: list[int], sets_needed: int) -> int:
    c = list(counts)
    best = [2 * sets_needed]

    def search(i: int, sets: int, partials: int, pair: int) -> None:
        while i < 34 and c[i] == 0:
            i += 1
        if i == 34:
            p = min(partials, sets_needed - sets)
            value = 2 * (sets_needed - sets) - p - pair
            if value < best[0]:
                best[0] = value
            return
        suit_pos = i % 9 if i < 27 else -1
        if c[i] >= 3:
            c[i] -= 3
            search(i, sets + 1, partials, pair)
            c[i] += 3
        if 0 <= suit_pos <= 6 and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            search(i, sets + 1, partials, pair)
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1
        if c[i] >= 2:
            c[i] -= 2
            if not pair:
                search(i, sets, partials, 1)
            search(i, sets, partials + 1, pair)
            c[i] += 2
        if 0 <= suit_pos <= 7 and c[i + 1]:
            c[i] -= 1
            c[i + 1] -= 1
            search(i, sets, partials + 1, pair)
            c[i] += 1
            c[i + 1] += 1
        if 0 <= suit_pos <= 6 and c[i + 2]:
            c[i] -= 1
            c[i + 2] -= 1
            search(i, sets, partials + 1, pair)
            c[i] += 1
            c[i + 2] += 1
        n = c[i]
        c[i] = 0
        search(i + 1, sets, partials, pair)
        c[i] = n

    search(0, 0, 0, 0)
    return best[0]
