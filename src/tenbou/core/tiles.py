"""Tiles: the 34 kinds, the red-five flag and mpsz notation.

A tile *kind* is an int ``0..33``: ``0-8`` are 1m-9m, ``9-17`` 1p-9p,
``18-26`` 1s-9s and ``27-33`` the honours East, South, West, North, White
(haku), Green (hatsu), Red (chun). A red five is a :class:`Tile` of kind 4, 13
or 22 with ``red=True``; everything that scores works on kinds.

Notation is mpsz: digits followed by their suit letter, runs sharing a letter
(``123m406p77z``), ``0`` for a red five; ``7z7z7z`` is the same as ``777z``.

Tiles that are a set rather than a sequence (a hand's concealed tiles, a meld's) have one
canonical order, :func:`tile_order`: by kind -- 1m..9m, 1p..9p, 1s..9s, 1z..7z -- and a red five
right after the plain fives of its suit (Tenhou's order). :func:`sort_tiles` puts tiles in it,
:func:`format_sorted` writes them so: every hand text tenbou writes is in this order.

>>> parse_tiles("123m406p77z")
(Tile.parse('1m'), Tile.parse('2m'), Tile.parse('3m'), Tile.parse('4p'), Tile.parse('0p'), \
Tile.parse('6p'), Tile.parse('7z'), Tile.parse('7z'))
>>> format_tiles(parse_tiles("7z7z7z1m"))
'777z1m'
>>> Tile.parse("0p").deaka()
Tile.parse('5p')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Final

from ..errors import NotationError
from .values import DataRecord

__all__ = [
    "DRAGONS",
    "HONORS",
    "KIND_NAMES",
    "RED_COPIES",
    "SUITS",
    "TERMINALS_AND_HONORS",
    "WINDS",
    "Tile",
    "Wind",
    "counts34",
    "dora_kind",
    "format_kinds",
    "format_sorted",
    "format_tiles",
    "kind_from_text",
    "kind_text",
    "parse_tiles",
    "sort_tiles",
    "tile_of",
    "tile_order",
    "tile_set",
]

SUITS: Final = "mpsz"
#: kinds of East..North and of the three dragons
WINDS: Final = (27, 28, 29, 30)
DRAGONS: Final = (31, 32, 33)
HONORS: Final = frozenset(range(27, 34))
TERMINALS_AND_HONORS: Final = frozenset((0, 8, 9, 17, 18, 26, *range(27, 34)))
#: English names of the kinds, for people
KIND_NAMES: Final = tuple(
    [f"{n}-{s}" for s in ("man", "pin", "sou") for n in range(1, 10)]
    + ["East", "South", "West", "North", "White", "Green", "Red"]
)
_RED_KINDS: Final = frozenset((4, 13, 22))


@dataclass(frozen=True, slots=True)
class Tile(DataRecord):
    """One tile: a kind (0..33) and whether it is a red five.

    Tiles are values; use :meth:`parse` or :func:`parse_tiles` to make them.
    """

    kind: int
    red: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.kind < 34:
            raise NotationError(f"tile kind {self.kind!r} is out of range 0..33")
        if self.red and self.kind not in _RED_KINDS:
            raise NotationError(f"only a five of m, p or s can be red, not {kind_text(self.kind)}")

    # (written here, not generated: the dataclass's own are Python functions made at import, even
    # in the compiled build, and a replay compares tiles millions of times -- ``tile in hand`` and
    # ``hand.remove(tile)`` call ``__eq__`` on each tile before the one sought. The same results:
    # two tiles are equal when their kind and red flag are; the hash is that of the same tuple.)
    def __eq__(self, other: object) -> bool:
        if type(other) is not Tile:
            return NotImplemented
        return self.kind == other.kind and self.red == other.red

    def __hash__(self) -> int:
        return hash((self.kind, self.red))

    @classmethod
    def parse(cls, text: str) -> Tile:
        """One tile from its mpsz text (``"5m"``, ``"0p"``, ``"7z"``)."""
        tiles = parse_tiles(text)
        if len(tiles) != 1:
            raise NotationError(f"expected exactly one tile, got {len(tiles)} in {text!r}")
        return tiles[0]

    @property
    def suit(self) -> str:
        return SUITS[self.kind // 9]

    @property
    def number(self) -> int:
        return self.kind % 9 + 1

    @property
    def is_honor(self) -> bool:
        return self.kind >= 27

    @property
    def is_terminal_or_honor(self) -> bool:
        return self.kind in TERMINALS_AND_HONORS

    def deaka(self) -> Tile:
        """The same tile without the red flag."""
        return _PLAIN[self.kind]

    def __str__(self) -> str:
        # (from tables: in the message of every hand refused)
        return _RED_TEXT[self.kind // 9] if self.red else _KIND_TEXT[self.kind]

    def __repr__(self) -> str:
        return f"Tile.parse('{self}')"

    def _repr_svg_(self) -> str:
        """The tile as a picture in a notebook (drawn by :mod:`tenbou.render.svg`, imported here
        so that ``tiles`` does not depend on it)."""
        from ..render.svg import tile_svg

        return tile_svg(self)


_PLAIN: Final = tuple(Tile(k) for k in range(34))
_RED: Final = {k: Tile(k, True) for k in _RED_KINDS}


def tile_of(kind: int, red: bool = False) -> Tile:
    """The tile of a kind (shared instances: comparing a tile with itself is the cheapest compare).

    >>> tile_of(4, red=True), tile_of(33)
    (Tile.parse('0m'), Tile.parse('7z'))
    """
    if red:
        tile = _RED.get(kind)
        if tile is None:
            return Tile(kind, True)  # raises the error of a red tile that is not a five
        return tile
    if not 0 <= kind < 34:
        return Tile(kind)  # raises the error of a kind out of range
    return _PLAIN[kind]


def kind_text(kind: int) -> str:
    """mpsz text of a kind: ``kind_text(27) == '1z'``."""
    return f"{kind % 9 + 1}{SUITS[kind // 9]}"


#: the text of each kind, and of a red five of each suit (by ``kind // 9``)
_KIND_TEXT: Final = tuple([kind_text(k) for k in range(34)])
_RED_TEXT: Final = tuple([f"0{s}" for s in SUITS])


def kind_from_text(text: str) -> int:
    """The kind of one tile's mpsz text; a red five gives the kind of the five."""
    return Tile.parse(text).kind


def parse_tiles(text: str) -> tuple[Tile, ...]:
    """Tiles in mpsz notation, in the order written.

    Raises :class:`NotationError` quoting the bad token on anything else:
    a digit without a suit letter, a letter without digits, ``0z``/``8z``,
    other characters.

    >>> [str(t) for t in parse_tiles("19m19p19s1234567z")][-3:]
    ['5z', '6z', '7z']
    """
    if not isinstance(text, str):
        raise NotationError(f"tiles must be a string in mpsz notation, not {type(text).__name__}")
    # One pass over the character codes, read backwards: a suit letter sets the table of the digits
    # before it, and each digit is then one look-up in that table (read forwards, a digit is kept
    # until its letter comes, and read again then); the tiles, read last to first, are turned round
    # at the end. The codes are the text's bytes in ASCII: a bytes object is iterated as ints
    # (natively when compiled), a str as one-character strings, each to be turned into its code.
    # Anything else -- a character that is not ASCII, a digit at the end (the table of no suit
    # letter), a letter with no digits before it, 0z/8z/9z, any other character -- is read again
    # by _parse_tiles_slowly, which names the fault.
    try:
        codes = text.encode("ascii")
    except UnicodeEncodeError:
        return _parse_tiles_slowly(text)
    out: list[Tile] = []
    by_digit = _NO_DIGITS
    read = -1  # how many tiles were read when the last letter came (none yet)
    for c in reversed(codes):
        tile = by_digit[c]
        if tile is not None:
            out.append(tile)
        else:  # a suit letter (or a fault)
            by_digit = _DIGITS_BY_LETTER[c]
            n = len(out)
            if by_digit is _NO_DIGITS or n == read:  # no suit letter, or one with no digits
                return _parse_tiles_slowly(text)
            read = n
    if len(out) == read:  # the first letter has no digits before it
        return _parse_tiles_slowly(text)
    out.reverse()
    return tuple(out)


#: the tile of each character code 0-127 ("0"-"9" are 48-57) before the suit letter m, p, s or z
#: (None: no such tile), and before no suit letter (no tile)
_M_DIGITS: Final[tuple[Tile | None, ...]] = (*[None] * 48, _RED[4], *_PLAIN[0:9], *[None] * 70)
_P_DIGITS: Final[tuple[Tile | None, ...]] = (*[None] * 48, _RED[13], *_PLAIN[9:18], *[None] * 70)
_S_DIGITS: Final[tuple[Tile | None, ...]] = (*[None] * 48, _RED[22], *_PLAIN[18:27], *[None] * 70)
_Z_DIGITS: Final[tuple[Tile | None, ...]] = (*[None] * 49, *_PLAIN[27:34], *[None] * 72)
_NO_DIGITS: Final[tuple[Tile | None, ...]] = (None,) * 128
#: the table of each character code 0-127 by the suit letter it is ("m" 109, "p" 112, "s" 115,
#: "z" 122; any other character: that of no suit letter)
_DIGITS_BY_LETTER: Final[tuple[tuple[Tile | None, ...], ...]] = tuple(
    [{109: _M_DIGITS, 112: _P_DIGITS, 115: _S_DIGITS, 122: _Z_DIGITS}.get(c, _NO_DIGITS) for c in range(128)]
)


def _parse_tiles_slowly(text: str) -> tuple[Tile, ...]:
    """:func:`parse_tiles` character by character, naming what is wrong."""
    out: list[Tile] = []
    pending: list[tuple[int, str]] = []  # (position, digit)
    for pos, ch in enumerate(text):
        if "0" <= ch <= "9":
            pending.append((pos, ch))
            continue
        if ch in "mps":
            base = SUITS.index(ch) * 9
            if not pending:
                raise NotationError(
                    f"suit letter {ch!r} at position {pos} has no digits before it in {text!r}"
                )
            for _, d in pending:
                out.append(_RED[base + 4] if d == "0" else _PLAIN[base + int(d) - 1])
            pending.clear()
        elif ch == "z":
            if not pending:
                raise NotationError(f"suit letter 'z' at position {pos} has no digits before it in {text!r}")
            for _, d in pending:
                if d in "089":
                    raise NotationError(f"'{d}z' is not a tile (honours are 1z-7z) in {text!r}")
                out.append(_PLAIN[27 + int(d) - 1])
            pending.clear()
        else:
            raise NotationError(f"unexpected character {ch!r} at position {pos} in {text!r}")
    if pending:
        start = pending[0][0]
        raise NotationError(f"{text[start:]!r} has no suit letter (m, p, s or z) in {text!r}")
    return tuple(out)


def format_tiles(tiles: Iterable[Tile]) -> str:
    """mpsz text, consecutive tiles of a suit sharing one letter (order kept)."""
    parts: list[str] = []
    last = ""
    for t in tiles:
        k = t.kind
        s = _SUIT_OF[k]
        if parts and s != last:
            parts.append(last)
        parts.append("0" if t.red else _DIGIT_OF[k])
        last = s
    if parts:
        parts.append(last)
    return "".join(parts)


_SUIT_OF: Final = tuple(SUITS[k // 9] for k in range(34))
_DIGIT_OF: Final = tuple(str(k % 9 + 1) for k in range(34))


def tile_order(tile: Tile) -> int:
    """A tile's place in the canonical order of tiles: by kind (1m..9m, 1p..9p, 1s..9s,
    1z..7z), a red five right after the plain fives of its suit.

    >>> [str(t) for t in sorted(parse_tiles("0m5m4m1z5m"), key=tile_order)]
    ['4m', '5m', '5m', '0m', '1z']
    """
    return tile.kind + tile.kind + tile.red


def sort_tiles(tiles: Iterable[Tile]) -> tuple[Tile, ...]:
    """Tiles in the canonical order (:func:`tile_order`), equal tiles in the order given.

    >>> format_tiles(sort_tiles(parse_tiles("0m5m4m1z5m")))
    '4550m1z'
    """
    # (an insertion sort: tiles come a hand at a time and nearly in order, and sorted(key=...) makes
    # a Python call and an int object a tile. Compiled, the out-of-order hands of bench_engines sort
    # in half the instructions (3,500 against 7,300 a hand); in pure Python they take half as many
    # again (19,900 against 13,400), on the 7 % of hands that need a sort. Each place is
    # tile_order's, written out: in pure Python a call a comparison cost more still. Longer runs of
    # tiles, a wall or a river, go to list.sort.)
    out = list(tiles)
    n = len(out)
    if n > _INSERTION_SORT_MAX:
        out.sort(key=tile_order)
        return tuple(out)
    for i in range(1, n):
        t = out[i]
        place = t.kind + t.kind + t.red
        j = i - 1
        while j >= 0:
            u = out[j]
            if u.kind + u.kind + u.red <= place:
                break
            out[j + 1] = u
            j -= 1
        out[j + 1] = t
    return tuple(out)


#: the most tiles :func:`sort_tiles` sorts by insertion (a hand and its winning tile, or a meld)
_INSERTION_SORT_MAX: Final = 16


def format_sorted(tiles: Iterable[Tile]) -> str:
    """The canonical text of tiles taken as a set: sorted (:func:`tile_order`), each suit's
    digits sharing its letter, suits in the order m, p, s, z.

    >>> format_sorted(parse_tiles("123m456p789s23s55s"))
    '123m456p2355789s'
    >>> format_sorted(parse_tiles("05m55p"))
    '50m55p'
    """
    return format_tiles(sort_tiles(tiles))


def format_kinds(kinds: Iterable[int]) -> str:
    """mpsz text of kinds (no red fives)."""
    return format_tiles(_PLAIN[k] for k in kinds)


def counts34(kinds: Iterable[int]) -> list[int]:
    """A 34-long count vector of kinds."""
    c = [0] * 34
    for k in kinds:
        c[k] = c[k] + 1
    return c


#: the red fives of a set by its ``red_fives`` option: how many of 5m, 5p and 5s are red
RED_COPIES: Final[dict[int, tuple[int, int, int]]] = {0: (0, 0, 0), 3: (1, 1, 1), 4: (1, 2, 1)}


def tile_set(red_fives: int, players: int = 4) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The copies of each kind in the set: (plain, red), 34 long each. Four of a kind, some fives
    red by ``red_fives`` (0, 3 or 4); with three players 2m-8m are out of the set.

    >>> plain, red = tile_set(4)
    >>> plain[13], red[13], plain[4], red[4]
    (2, 2, 3, 1)
    >>> tile_set(3, players=3)[0][1:8]
    (0, 0, 0, 0, 0, 0, 0)
    """
    reds = RED_COPIES[red_fives]
    plain = [4] * 34
    red = [0] * 34
    for suit, k in enumerate((4, 13, 22)):
        red[k] = reds[suit]
        plain[k] = 4 - reds[suit]
    if players == 3:
        for k in range(1, 8):
            plain[k] = red[k] = 0
    return tuple(plain), tuple(red)


def dora_kind(indicator: int, players: int = 4) -> int:
    """The dora a kind indicates: the next tile in its suit, 9 -> 1, North ->
    East, Red -> White; with three players (2m-8m removed) 1m -> 9m -> 1m.

    >>> kind_text(dora_kind(kind_from_text("9p"))), kind_text(dora_kind(kind_from_text("4z")))
    ('1p', '1z')
    >>> kind_text(dora_kind(kind_from_text("1m"), players=3))
    '9m'
    """
    if indicator < 27:
        if players == 3 and indicator in (0, 8):
            return 8 - indicator
        return indicator - indicator % 9 + (indicator % 9 + 1) % 9
    if indicator < 31:
        return 27 + (indicator - 27 + 1) % 4
    return 31 + (indicator - 31 + 1) % 3


class Wind(Enum):
    """A seat or round wind; ``Wind("E")``; ``.kind`` is its tile kind."""

    EAST = "E"
    SOUTH = "S"
    WEST = "W"
    NORTH = "N"

    @property
    def index(self) -> int:
        return "ESWN".index(self._value_)

    @property
    def kind(self) -> int:
        return 27 + self.index

    @classmethod
    def of_index(cls, i: int) -> Wind:
        return _WINDS[i % 4]


_WINDS: Final = (Wind.EAST, Wind.SOUTH, Wind.WEST, Wind.NORTH)
