from __future__ import annotations

import pytest

from tenbou.shape import (
    decompose,
    is_chiitoitsu,
    is_kokushi,
    is_winning,
    shanten,
    standard_decompositions,
    waits,
)
from tenbou.tiles import counts34, format_kinds, parse_tiles


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
