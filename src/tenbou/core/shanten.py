"""Shanten: how many tiles a hand is from ready (-1 complete, 0 tenpai), of the standard form,
seven pairs and kokushi; what the built-in bots of ``tenbou match`` play by. (``tenbou.core.shape``
gives it too, where it was first.)
"""

from __future__ import annotations

from typing import Final

from .tiles import TERMINALS_AND_HONORS

__all__ = ["shanten"]

#: the thirteen kinds of kokushi
_KOKUSHI_KINDS: Final = tuple(sorted(TERMINALS_AND_HONORS))


def shanten(counts: list[int], closed: bool = True) -> int:
    """Shanten number of a ``3n+1`` or ``3n+2`` hand (-1 = complete, 0 = tenpai),
    the least of the standard, chiitoitsu and kokushi forms (the latter two
    only when ``closed`` with 13/14 concealed tiles).

    >>> from tenbou.core.tiles import counts34, parse_tiles
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
        kk = sum(1 for k in _KOKUSHI_KINDS if counts[k])
        has_pair = any(counts[k] >= 2 for k in _KOKUSHI_KINDS)
        best = min(best, 13 - kk - (1 if has_pair else 0))
    return best


def _standard_shanten(counts: list[int], sets_needed: int) -> int:
    """The shanten of the standard form (``sets_needed`` sets and a pair): the best of the ways to
    read each suit and the honours into sets, partial sets (two tiles a third completes) and a
    pair (:func:`_group_readings`), one reading a group, one pair in all."""
    man = _group_readings(tuple(counts[0:9]), True)
    pin = _group_readings(tuple(counts[9:18]), True)
    sou = _group_readings(tuple(counts[18:27]), True)
    honours = _group_readings(tuple(counts[27:34]), False)
    best = 2 * sets_needed
    for m1, t1, p1 in man:
        for m2, t2, p2 in pin:
            for m3, t3, p3 in sou:
                for m4, t4, p4 in honours:
                    pairs = p1 + p2 + p3 + p4
                    if pairs > 1:
                        continue
                    sets = min(m1 + m2 + m3 + m4, sets_needed)
                    value = 2 * (sets_needed - sets) - min(t1 + t2 + t3 + t4, sets_needed - sets) - pairs
                    if value < best:
                        best = value
    return best


#: the readings of each suit's (and the honours') counts met so far (:func:`_group_readings`)
_READINGS: Final[dict[tuple[int, ...], tuple[tuple[int, int, int], ...]]] = {}
_HONOUR_READINGS: Final[dict[tuple[int, ...], tuple[tuple[int, int, int], ...]]] = {}


def _group_readings(key: tuple[int, ...], suit: bool) -> tuple[tuple[int, int, int], ...]:
    """The ways to read one suit's counts (9 kinds; ``suit``) or the honours' (7, no runs) as
    ``(sets, partial sets, pair)``: those no other beats in all three (more of each never raises
    the shanten), each read once and kept (up to a bound: a caller's odd counts are not kept
    without end)."""
    table = _READINGS if suit else _HONOUR_READINGS
    found = table.get(key)
    if found is not None:
        return found
    c = list(key)
    n = len(c)
    seen: set[tuple[int, int, int]] = set()

    def read(i: int, sets: int, partials: int, pair: int) -> None:
        while i < n and c[i] == 0:
            i += 1
        if i == n:
            seen.add((sets, partials, pair))
            return
        if c[i] >= 3:
            c[i] = c[i] - 3
            read(i, sets + 1, partials, pair)
            c[i] = c[i] + 3
        if suit and i <= 6 and c[i + 1] and c[i + 2]:
            c[i] = c[i] - 1
            c[i + 1] = c[i + 1] - 1
            c[i + 2] = c[i + 2] - 1
            read(i, sets + 1, partials, pair)
            c[i] = c[i] + 1
            c[i + 1] = c[i + 1] + 1
            c[i + 2] = c[i + 2] + 1
        if c[i] >= 2:
            c[i] = c[i] - 2
            if not pair:
                read(i, sets, partials, 1)
            read(i, sets, partials + 1, pair)
            c[i] = c[i] + 2
        if suit and i <= 7 and c[i + 1]:
            c[i] = c[i] - 1
            c[i + 1] = c[i + 1] - 1
            read(i, sets, partials + 1, pair)
            c[i] = c[i] + 1
            c[i + 1] = c[i + 1] + 1
        if suit and i <= 6 and c[i + 2]:
            c[i] = c[i] - 1
            c[i + 2] = c[i + 2] - 1
            read(i, sets, partials + 1, pair)
            c[i] = c[i] + 1
            c[i + 2] = c[i + 2] + 1
        c[i] = c[i] - 1  # one tile of the kind left out; the others read on
        read(i, sets, partials, pair)
        c[i] = c[i] + 1

    read(0, 0, 0, 0)
    readings = tuple(
        sorted(
            r
            for r in seen
            if not any(o != r and o[0] >= r[0] and o[1] >= r[1] and o[2] >= r[2] for o in seen)
        )
    )
    if len(table) < 1 << 16:
        table[key] = readings
    return readings
