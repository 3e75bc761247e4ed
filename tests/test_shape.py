from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tenbou import shape
from tenbou.core.shape import (
    KOKUSHI_KINDS,
    decompose,
    is_chiitoitsu,
    is_kokushi,
    is_winning,
    read_counts,
    shanten,
    standard_decompositions,
    tenpai_after_discard,
    waits,
    waits_brute,
)
from tenbou.core.tiles import counts34, format_kinds, parse_tiles


def c(text: str) -> list[int]:
    return counts34(t.kind for t in parse_tiles(text))


def test_decompositions_are_unique_and_complete() -> None:
    ds = standard_decompositions(c("11122233344455m"))
    assert len(ds) == 4 and len({str(d) for d in ds}) == 4
    assert [str(d) for d in standard_decompositions(c("123m456p789s11122z"))] == ["111z 123m 456p 789s 22z"]
    assert standard_decompositions(c("123m456p789s11123z")) == []


def test_four_of_a_kind_is_not_two_pairs() -> None:
    assert not is_chiitoitsu(c("1111m2233p4455s66z"))
    assert is_chiitoitsu(c("11m2233p4455s6677z"))


def test_kokushi() -> None:
    assert is_kokushi(c("19m19p19s12345677z"))
    assert not is_kokushi(c("19m19p19s12345666z"))  # 7z missing
    assert not is_kokushi(c("19m19p19s1234566z"))  # 13 tiles


def test_winning_forms() -> None:
    assert is_winning(c("11m2233p4455s6677z"))
    assert not is_winning(c("11m2233p4455s6677z"), closed=False)


def test_waits() -> None:
    assert format_kinds(waits(c("1112345678999m"))) == "123456789m"
    assert format_kinds(waits(c("19m19p19s1234567z"))) == "19m19p19s1234567z"
    assert format_kinds(waits(c("123m456p789s1122z"))) == "12z"
    assert waits(c("123m456p789s1357z")) == []


def test_shanten() -> None:
    assert shanten(c("123m456p789s11122z")) == -1
    assert shanten(c("123m456p789s1122z")) == 0
    assert shanten(c("123m456p789s1357z")) == 2
    assert shanten(c("19m19p19s1234567z")) == 0
    assert shanten(c("1133557799m135z")) == 1
    assert shanten(c("1133557799m113z")) == 0


def _shanten_by_search(counts: list[int]) -> int:
    """The standard form's shanten by a plain search of every reading of the whole hand (the way
    ``shanten`` was worked out before it read suit by suit): the reference it must agree with."""
    c = list(counts)
    need = sum(c) // 3
    best = [2 * need]

    def search(i: int, sets: int, partials: int, pair: int) -> None:
        while i < 34 and c[i] == 0:
            i += 1
        if i == 34:
            best[0] = min(best[0], 2 * (need - sets) - min(partials, need - sets) - pair)
            return
        pos = i % 9 if i < 27 else -1
        for used, more_sets, more_partials, as_pair in (
            ((3,), 1, 0, 0),
            ((1, 1, 1), 1, 0, 0),
            ((2,), 0, 0, 1),
            ((2,), 0, 1, 0),
            ((1, 1), 0, 1, 0),
            ((1, 0, 1), 0, 1, 0),
        ):
            if (len(used) > 1 and not 0 <= pos <= 9 - len(used)) or (as_pair and pair):
                continue
            if all(c[i + k] >= n for k, n in enumerate(used)):
                for k, n in enumerate(used):
                    c[i + k] -= n
                search(i, sets + more_sets, partials + more_partials, pair + as_pair)
                for k, n in enumerate(used):
                    c[i + k] += n
        n = c[i]
        c[i] = 0
        search(i + 1, sets, partials, pair)
        c[i] = n

    search(0, 0, 0, 0)
    return best[0]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 33), min_size=1, max_size=14), st.booleans())
def test_shanten_agrees_with_a_plain_search(kinds: list[int], closed: bool) -> None:
    counts = [0] * 34
    for k in kinds:
        if counts[k] < 4:
            counts[k] += 1
    expected = _shanten_by_search(counts)
    if closed and sum(counts) >= 13:
        pairs = sum(1 for n in counts if n >= 2)
        expected = min(expected, 6 - pairs + max(0, 7 - sum(1 for n in counts if n)))
        kokushi = [k for k in (0, 8, 9, 17, 18, 26, *range(27, 34)) if counts[k]]
        expected = min(expected, 13 - len(kokushi) - any(counts[k] >= 2 for k in kokushi))
    assert shanten(counts, closed) == expected


def test_counts_up_to_255_of_a_kind_are_read_and_more_refused() -> None:
    # (the shapes read a suit's counts up to 255; no hand holds more than 14 of a kind)
    c = [0] * 34
    c[0], c[2], c[27] = 9, 1, 2
    c[9] = c[10] = c[11] = 3
    assert not is_winning(c) and decompose(c) == []  # nine 1m are not three triplets of one kind
    c = [0] * 34
    c[9], c[27] = 255, 2
    assert decompose(c) == [] and not is_winning(c)  # read (not one set of a kind can hold them all)
    c[9] = 256
    with pytest.raises(ValueError, match="256 of kind 9"):
        decompose(c)


# -- read_counts: the packed parts against the readings worked out from the counts alone ------------

_SET = st.one_of(
    st.tuples(st.just("run"), st.integers(0, 2), st.integers(0, 6)),
    st.tuples(st.just("trip"), st.integers(0, 3), st.integers(0, 8)),
)


def _kind(suit: int, i: int) -> int:
    return 27 + i % 7 if suit == 3 else 9 * suit + i


def _readings_by_search(counts: list[int]) -> list[tuple[int, tuple[int, ...], tuple[int, ...]]]:
    """Every reading of ``counts`` as (pair, sorted triplets, sorted runs), by plain search. Past four
    of a kind, as tenbou reads it: a kind is one triplet at most (six are not two), and an honour a
    triplet or the pair (five are not both)."""
    found: set[tuple[int, tuple[int, ...], tuple[int, ...]]] = set()
    if max(counts[27:]) > 3:
        return []

    def sets(c: list[int], start: int, trips: list[int], runs: list[int], pair: int) -> None:
        k = start
        while k < 34 and not c[k]:
            k += 1
        if k == 34:
            found.add((pair, tuple(sorted(trips)), tuple(sorted(runs))))
            return
        if c[k] >= 3 and k not in trips:  # (one triplet of a kind: six of one are not two)
            c[k] -= 3
            sets(c, k, [*trips, k], runs, pair)
            c[k] += 3
        if k < 27 and k % 9 <= 6 and c[k + 1] and c[k + 2]:
            for j in (k, k + 1, k + 2):
                c[j] -= 1
            sets(c, k, trips, [*runs, k], pair)
            for j in (k, k + 1, k + 2):
                c[j] += 1

    for p in range(34):
        if counts[p] >= 2:
            counts[p] -= 2
            sets(counts, 0, [], [], p)
            counts[p] += 2
    return sorted(found)


@settings(max_examples=400, deadline=None)
@given(
    pair=st.tuples(st.integers(0, 3), st.integers(0, 8)),
    sets=st.lists(_SET, max_size=4),
    noise=st.lists(st.integers(0, 33), max_size=2),
)
def test_read_counts_agrees_with_a_plain_search(
    pair: tuple[int, int], sets: list[tuple[str, int, int]], noise: list[int]
) -> None:
    counts = _counts(pair, sets, noise)
    if max(counts) <= 4:
        _check_read_counts(counts)


@settings(max_examples=300, deadline=None)
@given(
    pair=st.tuples(st.integers(0, 3), st.integers(0, 8)),
    run=st.tuples(st.just("run"), st.integers(0, 2), st.integers(0, 6)),
    copies=st.integers(4, 12),
    sets=st.lists(_SET, max_size=6),
    noise=st.lists(st.integers(0, 33), max_size=1),
)
def test_read_counts_past_four_of_a_kind(
    pair: tuple[int, int],
    run: tuple[str, int, int],
    copies: int,
    sets: list[tuple[str, int, int]],
    noise: list[int],
) -> None:
    # (counts no hand holds, which read_counts reads all the same: eight identical runs make more
    # peikou than a packed part holds; such parts are read in full)
    _check_read_counts(_counts(pair, [run] * copies + sets, noise))


def test_read_counts_past_the_runs_kept() -> None:
    # more ways of runs in a suit than the packed parts number (512, past four of a kind): those
    # past them are read in full, as read before
    seen = 0
    for code in range(3**7):
        counts = [0] * 34
        counts[27] = 2
        for start in range(7):
            for j in range(3):
                counts[9 + start + j] += code // 3**start % 3
        if len(_readings_by_search(list(counts))) == 1:
            _check_read_counts(counts)
            seen += 1
    assert seen > 600


def _counts(pair: tuple[int, int], sets: list[tuple[str, int, int]], noise: list[int]) -> list[int]:
    counts = [0] * 34
    counts[_kind(*pair)] += 2
    for what, suit, i in sets:
        if what == "run":
            for j in range(3):
                counts[9 * suit + i + j] += 1
        else:
            counts[_kind(suit, i)] += 3
    for k in noise:  # (a tile or two more: most such hands do not read)
        counts[k] += 1
    return counts


def _check_read_counts(counts: list[int]) -> None:
    present, raws = read_counts(tuple(counts))
    assert present == sum(1 << k for k in range(34) if counts[k])
    expected = _readings_by_search(counts)
    assert sorted((p, tuple(sorted(t)), tuple(sorted(r))) for p, t, r, *_ in raws) == expected
    for p, trips, runs, tmask, rmask, peikou, outside in raws:
        # the triplets: the honours' first, then the suits' in order; the runs in order
        assert list(trips) == sorted(trips, key=lambda k: (k < 27, k)) and list(runs) == sorted(runs)
        assert tmask == sum(1 << k for k in set(trips)) and rmask == sum(1 << k for k in set(runs))
        assert peikou == sum(runs.count(k) // 2 for k in set(runs))
        terminal = {0, 8, 9, 17, 18, 26, *range(27, 34)}
        assert outside == (
            p in terminal and all(k in terminal for k in trips) and all(k % 9 in (0, 6) for k in runs)
        )
    # a hand read again (its parts now kept) reads the same
    assert read_counts(tuple(counts)) == (present, raws)


# -- the table of packed parts ---------------------------------------------------------------------


def _decoded(code: int) -> tuple[int, int, tuple[int, ...]]:
    """A slot's code as (base, kinds, counts): a suit's nine counts (read as manzu) or the honours'
    seven, octal digits, the first kind lowest."""
    base, kinds = (27, 7) if code & shape._HONOURS_CODE else (0, 9)
    return base, kinds, tuple(code >> 3 * i & 7 for i in range(kinds))


def _check_table() -> int:
    """Every filled slot holds its part's packed fields, as worked out anew; the count of them."""
    filled = 0
    for entry in shape._TABLE[0]:
        if entry:
            base, kinds, part = _decoded(entry >> 35)
            present = sum(1 << i for i in range(kinds) if part[i])
            assert (entry & shape._FIELDS) << 9 | present == shape._packed(part, base)
            filled += 1
    assert filled == shape._TABLE_USED[0]
    return filled


@settings(max_examples=60, deadline=None)
@given(
    hands=st.lists(
        st.tuples(st.tuples(st.integers(0, 3), st.integers(0, 8)), st.lists(_SET, max_size=4)), max_size=40
    )
)
def test_the_table_grows_keeping_every_part(
    hands: list[tuple[tuple[int, int], list[tuple[str, int, int]]]],
) -> None:
    # a table of 8 slots, grown as the hands' parts come (each a few): every hand read the same as in
    # the full table, and read again the same after the table grew
    counts = [tuple(_counts(pair, sets, [])) for pair, sets in hands]
    expected = [read_counts(c) for c in counts]
    table, used = shape._TABLE[0], shape._TABLE_USED[0]
    try:
        shape._TABLE[0], shape._TABLE_USED[0] = [0] * 8, 0
        assert [read_counts(c) for c in counts] == expected
        assert [read_counts(c) for c in counts] == expected
        filled = _check_table()
        assert len(shape._TABLE[0]) >= 2 * filled and (filled <= 4 or len(shape._TABLE[0]) > 8)
    finally:
        shape._TABLE[0], shape._TABLE_USED[0] = table, used


def test_a_full_table_keeps_no_more_parts() -> None:
    # at _MAX_SLOTS half full, a new part is read, not kept, and the table is not grown
    table, used = shape._TABLE[0], shape._TABLE_USED[0]
    try:
        shape._TABLE[0] = [0] * shape._MAX_SLOTS
        shape._TABLE_USED[0] = shape._MAX_SLOTS // 2
        hand = c("123m456p789s11122z")
        assert read_counts(tuple(hand))[1] == [
            (28, (27,), (0, 12, 24), 1 << 27, 1 | 1 << 12 | 1 << 24, 0, False)
        ]
        assert read_counts(tuple(hand)) == read_counts(tuple(hand))
        assert len(shape._TABLE[0]) == shape._MAX_SLOTS and not any(shape._TABLE[0])
    finally:
        shape._TABLE[0], shape._TABLE_USED[0] = table, used


def test_counts_past_seven_are_read_and_not_kept() -> None:
    # eight of a kind has no octal digit: such counts are read from parts worked out each time, never
    # given a slot (their code would stand for other counts); five to seven are kept as any other part
    used = shape._TABLE_USED[0]
    hand = c("11111111m11z")  # eight 1m
    _check_read_counts(hand)
    assert shape._TABLE_USED[0] == used
    hand = c("111112233m11z")  # 111m 123m 123m 11z
    assert read_counts(tuple(hand))[1] == [(27, (0,), (0, 0), 1, 1, 1, True)]
    _check_read_counts(hand)
    _check_table()


def test_a_hands_counts_are_read_as_any_counts() -> None:
    # a hand's counts, read by their octal digits (the hand's own, untested), read as any counts
    for text in ("123m456p789s11122z", "11122233344455m", "1133557799m113z", "19m19p19s1234567z"):
        counts = tuple(c(text))
        assert shape.read_hand_counts(counts, *shape.octal_counts(counts)) == read_counts(counts)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_a_hand_keeps_its_concealed_counts_as_octal_digits(seed: int) -> None:
    from tenbou.api import parse_win_request

    from .handgen import generate

    for request in generate(seed, 3):
        hand = parse_win_request({k: v for k, v in request.items() if k not in ("honba", "riichi_sticks")})[0]
        low, high = shape.octal_counts(hand.concealed_counts)
        assert (hand.concealed_low, hand.concealed_high) == (low, high)
        assert low == sum(n << 3 * k for k, n in enumerate(hand.concealed_counts[:18]))
        assert high == sum(n << 3 * k for k, n in enumerate(hand.concealed_counts[18:]))


# -- tenpai_after_discard: one reading of a 14-tile hand against the waits of each discard ----------


def _tenpai_by_each_discard(counts: list[int], closed: bool, players: int) -> bool:
    for k in range(34):
        if counts[k]:
            counts[k] -= 1
            ready = bool(waits(counts, closed, players))
            counts[k] += 1
            if ready:
                return True
    return False


def test_tenpai_after_discard() -> None:
    assert tenpai_after_discard(c("123m456p789s11z358m"))  # 8m out: 35m waits on 4m
    assert tenpai_after_discard(c("123m456p789s11122z"))  # complete: any tile out waits on it
    assert tenpai_after_discard(c("1122m3344p5566s7z9m"))  # seven pairs
    assert not tenpai_after_discard(c("1122m3344p5566s7z9m"), closed=False)
    assert tenpai_after_discard(c("19m19p19s1234567z5m"))  # kokushi, the 5m out
    assert not tenpai_after_discard(c("147m258p369s12345z"))
    assert tenpai_after_discard(c("111m789m222p333s5z7z"))  # 5z out: waits on 7z, 7z out on 5z
    assert not tenpai_after_discard(c("111m789m258p5z7z"), closed=False)  # 11 tiles
    # three players: a wait on 2m-8m is no wait (those tiles are not in the set)
    assert tenpai_after_discard(c("13m456p789s111z55z3z"))
    assert not tenpai_after_discard(c("13m456p789s111z55z3z"), players=3)
    assert tenpai_after_discard(c("19m456p789s111z55z9m"), players=3)  # 1m out: shanpon 9m/5z


_HAND_TILES = st.integers(0, 33)


@settings(max_examples=300, deadline=None)
@given(
    pair=st.tuples(st.integers(0, 3), st.integers(0, 8)),
    sets=st.lists(_SET, min_size=0, max_size=4),
    out=st.lists(st.integers(0, 13), max_size=3),
    into=st.lists(_HAND_TILES, max_size=3),
    closed=st.booleans(),
    players=st.sampled_from([4, 4, 3]),
)
def test_tenpai_after_discard_agrees_with_the_waits_of_each_discard(
    pair: tuple[int, int],
    sets: list[tuple[str, int, int]],
    out: list[int],
    into: list[int],
    closed: bool,
    players: int,
) -> None:
    """A complete hand with up to three tiles swapped for others: as tenpai after a discard as the
    waits of the hand less each of its kinds say (with three players, 2m-8m out of the hand)."""
    counts = _counts(pair, sets, [])
    for i, k in zip(out, into, strict=False):  # a tile out, another in: one swap each
        held = [j for j in range(34) if counts[j]]
        counts[held[i % len(held)]] -= 1
        counts[k] += 1
    if players == 3:  # 2m-8m moved to the pinzu of the same number
        for k in range(1, 8):
            counts[9 + k] += counts[k]
            counts[k] = 0
    if max(counts) > 4 or sum(counts) % 3 != 2:
        return
    assert tenpai_after_discard(counts, closed, players) == _tenpai_by_each_discard(counts, closed, players)
    for k in range(34):  # and the waits of the hand less each kind, as trying every kind finds them
        if counts[k]:
            counts[k] -= 1
            assert waits(counts, closed, players) == waits_brute(counts, closed, players)
            counts[k] += 1


@settings(max_examples=300, deadline=None)
@given(
    kinds=st.lists(st.sampled_from(sorted(KOKUSHI_KINDS)), min_size=14, max_size=14),
    pairs=st.lists(st.integers(0, 33), min_size=7, max_size=7),
    extra=st.lists(_HAND_TILES, min_size=0, max_size=2),
    seven=st.booleans(),
)
def test_tenpai_after_discard_of_seven_pairs_and_kokushi(
    kinds: list[int], pairs: list[int], extra: list[int], seven: bool
) -> None:
    """Hands near seven pairs (seven kinds twice, one or two tiles changed) and near kokushi (terminals
    and honours with a tile or two of others)."""
    counts = [0] * 34
    for k in pairs if seven else kinds:
        counts[k] += 2 if seven else 1
    for k in extra:
        counts[k] += 1
    while sum(counts) > 14:
        counts[max(range(34), key=lambda j: (counts[j], j))] -= 1
    if max(counts) > 4 or sum(counts) != 14:
        return
    assert tenpai_after_discard(counts) == _tenpai_by_each_discard(counts, True, 4)
