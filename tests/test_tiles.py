from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tenbou.core.tiles import (
    Tile,
    Wind,
    counts34,
    dora_kind,
    format_tiles,
    kind_from_text,
    kind_text,
    parse_tiles,
)
from tenbou.errors import NotationError, TenbouError


def test_parse_runs_sharing_a_suit_letter() -> None:
    tiles = parse_tiles("123m406p77z")
    assert [str(t) for t in tiles] == ["1m", "2m", "3m", "4p", "0p", "6p", "7z", "7z"]
    assert tiles[4].red and tiles[4].kind == 13 and tiles[4].deaka() == Tile(13)


def test_each_tile_with_its_letter_is_the_same() -> None:
    assert parse_tiles("7z7z7z") == parse_tiles("777z")


def test_kinds_are_0_to_33() -> None:
    assert [t.kind for t in parse_tiles("1m9m1p9p1s9s1z7z")] == [0, 8, 9, 17, 18, 26, 27, 33]
    assert kind_text(33) == "7z" and kind_from_text("0s") == 22


@pytest.mark.parametrize(
    ("text", "quoted"),
    [
        ("1238z", "'8z'"),
        ("0z", "'0z'"),
        ("9z", "'9z'"),
        ("123", "'123'"),
        ("m", "'m'"),
        ("12x3m", "'x'"),
        ("1M", "'M'"),
        ("1 2m", "' '"),
    ],
)
def test_malformed_notation_is_refused_quoting_the_token(text: str, quoted: str) -> None:
    with pytest.raises(NotationError) as e:
        parse_tiles(text)
    assert quoted in str(e.value)
    assert e.value.code == "notation"
    assert isinstance(e.value, TenbouError) and isinstance(e.value, ValueError)


def test_red_flag_only_on_fives() -> None:
    with pytest.raises(NotationError):
        Tile(3, True)
    with pytest.raises(NotationError):
        Tile(34)


def test_format_groups_consecutive_suits_and_keeps_order() -> None:
    assert format_tiles(parse_tiles("1m2m3m0p1z")) == "123m0p1z"
    assert format_tiles(parse_tiles("1m2p1m")) == "1m2p1m"
    assert format_tiles(()) == ""


def test_repr_is_the_parse_call() -> None:
    t = Tile.parse("0m")
    assert repr(t) == "Tile.parse('0m')"
    assert eval(repr(t)) == t


def test_counts34() -> None:
    c = counts34(t.kind for t in parse_tiles("1155m"))
    assert c[0] == 2 and c[4] == 2 and sum(c) == 4


@pytest.mark.parametrize(
    ("indicator", "dora", "players"),
    [
        ("1m", "2m", 4),
        ("9m", "1m", 4),
        ("9s", "1s", 4),
        ("4z", "1z", 4),
        ("3z", "4z", 4),
        ("7z", "5z", 4),
        ("5z", "6z", 4),
        ("1m", "9m", 3),
        ("9m", "1m", 3),
        ("9p", "1p", 3),
        ("0p", "6p", 4),
    ],
)
def test_dora_follows_the_indicator(indicator: str, dora: str, players: int) -> None:
    assert kind_text(dora_kind(kind_from_text(indicator), players)) == dora


def test_winds() -> None:
    assert Wind("S").kind == 28 and Wind.of_index(6) is Wind.WEST and Wind.NORTH.index == 3


@given(st.integers(0, 33), st.booleans(), st.integers(0, 33), st.booleans())
def test_tiles_are_equal_and_hash_alike_by_kind_and_red_flag(k1: int, r1: bool, k2: int, r2: bool) -> None:
    """Tile's own ``__eq__`` and ``__hash__`` (written, not the dataclass's) keep the dataclass's
    results: equal exactly when kind and red flag are, the hash that of the same tuple, never equal
    to another type (a tuple of the same fields included), and lists find and remove tiles by value."""
    r1, r2 = r1 and k1 in (4, 13, 22), r2 and k2 in (4, 13, 22)
    a, b = Tile(k1, r1), Tile(k2, r2)
    assert (a == b) is ((k1, r1) == (k2, r2)) and (a != b) is ((k1, r1) != (k2, r2))
    assert hash(a) == hash((k1, r1)) and hash(Tile(k1, r1)) == hash(a)
    assert a != (k1, r1) and a != k1 and (a == "x") is False
    hand = [Tile(k) for k in range(34)] + [Tile(k, True) for k in (4, 13, 22)]
    assert Tile(k2, r2) in hand
    hand.remove(Tile(k2, r2))
    assert Tile(k2, r2) not in hand and len(hand) == 36 and len(set(hand)) == 36
