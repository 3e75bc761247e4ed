"""Tile and hand pictures as SVG, drawn by tenbou's own code (no fonts, no images).

Every tile face is made of shapes: pins are circles, sou are bamboo sticks (the
1s a bird), and the characters of the man tiles and the honours are brush-like
strokes defined here, so a picture looks the same in a browser, a notebook or a
PNG whatever fonts the machine has. A red five is drawn in red and marked with
a red corner (``class="tile red"``, ``data-red="true"``).

>>> from tenbou.core.tiles import Tile
>>> svg = tile_svg(Tile.parse("0p"))
>>> svg.startswith("<svg") and 'data-tile="0p"' in svg and 'data-red="true"' in svg
True
>>> "<title>red 5-pin</title>" in svg
True
>>> picture = hand_svg("23m55p +4m pon:555z@2 pon:666z@0 pon:777z@3", winner=1)
>>> picture.count('class="tile')
14

``Tile`` and ``Hand`` show themselves as these pictures in a notebook
(``_repr_svg_``); ``tenbou svg HAND -o hand.svg`` (or ``hand.png``) writes one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from html import escape

from ..core.hand import Hand, Meld, MeldType
from ..core.tiles import KIND_NAMES, Tile, parse_tiles
from ..errors import TenbouError

__all__ = [
    "TILE_HEIGHT",
    "TILE_WIDTH",
    "PngUnavailableError",
    "back_svg",
    "hand_svg",
    "svg_to_png",
    "tile_svg",
    "tiles_svg",
]

#: size of one tile in SVG user units (the face is drawn in this box)
TILE_WIDTH = 60
TILE_HEIGHT = 80

_XMLNS = 'xmlns="http://www.w3.org/2000/svg"'

# -- colours ------------------------------------------------------------------------------------------

_FACE = "#fbf8ef"
_EDGE = "#8a8170"
_BACK = "#d9822b"
_BLUE = "#1f4e96"
_GREEN = "#17763a"
_RED = "#cc2229"
_INK = "#1d1d28"

# -- brush strokes of the characters --------------------------------------------------------------------
# Each character is a list of strokes; a stroke is a polyline of (x, y) points in a 10 x 10 box.

_Stroke = tuple[tuple[float, float], ...]
_GLYPHS: dict[str, tuple[_Stroke, ...]] = {
    "一": (((1, 5), (9, 5)),),
    "二": (((2, 3), (8, 3)), ((1, 7.5), (9, 7.5))),
    "三": (((2, 1.8), (8, 1.8)), ((3, 5), (7, 5)), ((1, 8.6), (9, 8.6))),
    "四": (
        ((1.2, 2), (1.2, 9)),
        ((1.2, 2), (8.8, 2), (8.8, 9)),
        ((4, 2), (4, 5.2), (2.8, 7)),
        ((6, 2), (6, 6.2), (7.6, 6.6)),
        ((1.2, 9), (8.8, 9)),
    ),
    "五": (
        ((2, 1.4), (8, 1.4)),
        ((5.2, 1.4), (4, 8.6)),
        ((2.4, 4.9), (7.2, 4.9), (7.2, 8.6)),
        ((0.8, 8.6), (9.2, 8.6)),
    ),
    "六": (((4.6, 0.8), (5.6, 2.3)), ((1, 3.9), (9, 3.9)), ((3.8, 5.6), (1.8, 9)), ((6.2, 5.6), (8.6, 9))),
    "七": (((1, 5.2), (9, 3.6)), ((4, 0.8), (4, 8), (5, 9), (8.8, 9), (8.8, 7.4))),
    "八": (((4, 1.6), (3.6, 5), (1, 9)), ((6.2, 1.6), (7, 6), (9.2, 9))),
    "九": (((4.2, 0.8), (4, 4.8), (1.4, 9)), ((1.4, 3.6), (6.2, 3.6), (6.2, 8.4), (7, 9), (9, 9), (9, 7.4))),
    "萬": (
        ((0.8, 1.5), (9.2, 1.5)),
        ((3.4, 0.4), (3.4, 2.6)),
        ((6.6, 0.4), (6.6, 2.6)),
        ((2.4, 3.2), (2.4, 6)),
        ((2.4, 3.2), (7.6, 3.2), (7.6, 6)),
        ((2.4, 4.6), (7.6, 4.6)),
        ((5, 3.2), (5, 6)),
        ((2.4, 6), (7.6, 6)),
        ((1.4, 9.8), (1.4, 6.9), (8.6, 6.9), (8.6, 9.3), (7.8, 9.8)),
        ((5, 6.9), (3.4, 9), (6.6, 9)),
        ((6, 8), (7, 9.3)),
    ),
    "東": (
        ((1, 2), (9, 2)),
        ((2.6, 3.2), (2.6, 6.6)),
        ((2.6, 3.2), (7.4, 3.2), (7.4, 6.6)),
        ((2.6, 4.9), (7.4, 4.9)),
        ((2.6, 6.6), (7.4, 6.6)),
        ((5, 0.4), (5, 9.8)),
        ((4.4, 7.2), (1, 9.6)),
        ((5.6, 7.2), (9, 9.6)),
    ),
    "南": (
        ((1, 1.8), (9, 1.8)),
        ((5, 0.4), (5, 3.4)),
        ((1.8, 9.8), (1.8, 3.6), (8.2, 3.6), (8.2, 9.2), (7.2, 9.8)),
        ((3.7, 4.6), (4.5, 5.6)),
        ((6.3, 4.6), (5.5, 5.6)),
        ((3, 6.3), (7, 6.3)),
        ((3.2, 7.9), (6.8, 7.9)),
        ((5, 6.3), (5, 9.6)),
    ),
    "西": (
        ((1, 1.4), (9, 1.4)),
        ((1.6, 3.6), (1.6, 9.4)),
        ((1.6, 3.6), (8.4, 3.6), (8.4, 9.4)),
        ((4, 1.4), (4, 5.6), (2.8, 7.2)),
        ((6, 1.4), (6, 6.6), (8.4, 6.8)),
        ((1.6, 9.4), (8.4, 9.4)),
    ),
    "北": (
        ((3.6, 0.8), (3.6, 9.2)),
        ((1, 3.8), (3.6, 3.8)),
        ((0.8, 7.8), (3.6, 6.6)),
        ((6.4, 0.8), (6.4, 8.4), (7.2, 9.3), (9.2, 9.3), (9.2, 7.8)),
        ((9, 2.8), (6.4, 4.6)),
    ),
    "發": (
        ((1, 1), (3.8, 1), (1.4, 3.6)),
        ((2.4, 2), (3.6, 3.1)),
        ((4.8, 0.6), (5.3, 1.6)),
        ((6.2, 0.7), (6.6, 2), (9.1, 3.5)),
        ((7, 1.6), (8.8, 0.8)),
        ((0.8, 4.1), (9.2, 4.1)),
        ((1.4, 5), (4.1, 5), (4.1, 6.4), (1.8, 6.4), (1.8, 7.8), (4.3, 7.8), (4.3, 9.3), (3.2, 9.8)),
        ((6, 4.8), (5.8, 6.3), (5, 6.8)),
        ((6, 4.8), (7.8, 4.8), (7.8, 6.2), (8.9, 6.2)),
        ((5.2, 7.2), (8.5, 7.2), (5.4, 9.8)),
        ((6.3, 8), (9.1, 9.8)),
    ),
    "中": (
        ((1.4, 3), (1.4, 7.2)),
        ((1.4, 3), (8.6, 3), (8.6, 7.2)),
        ((1.4, 7.2), (8.6, 7.2)),
        ((5, 0.4), (5, 9.8)),
    ),
}
_NUMERALS = "一二三四五六七八九"
_HONOR_GLYPHS = "東南西北 發中"  # 5z (haku) has no character


def _num(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


def _glyph(char: str, x: float, y: float, size: float, color: str, width: float) -> str:
    """A character's strokes scaled into the square (x, y, size)."""
    k = size / 10
    paths = []
    for stroke in _GLYPHS[char]:
        pts = " L".join(f"{_num(x + px * k)} {_num(y + py * k)}" for px, py in stroke)
        paths.append(f"M{pts}")
    return (
        f'<path d="{" ".join(paths)}" fill="none" stroke="{color}" stroke-width="{_num(width)}" '
        'stroke-linecap="round" stroke-linejoin="round"/>'
    )


# -- pins ---------------------------------------------------------------------------------------------

_B, _G, _R = _BLUE, _GREEN, _RED
#: circles of each pin tile: (x, y, radius, colour)
_PINS: dict[int, tuple[tuple[float, float, float, str], ...]] = {
    2: ((30, 23, 11, _G), (30, 57, 11, _B)),
    3: ((16, 19, 9, _B), (30, 40, 9, _R), (44, 61, 9, _G)),
    4: ((18, 24, 10, _B), (42, 24, 10, _G), (18, 56, 10, _G), (42, 56, 10, _B)),
    5: ((17, 19, 8.5, _B), (43, 19, 8.5, _G), (30, 40, 8.5, _R), (17, 61, 8.5, _G), (43, 61, 8.5, _B)),
    6: ((18, 16, 8, _G), (42, 16, 8, _G), *((x, y, 8, _R) for y in (43, 63) for x in (18, 42))),
    7: (
        (14, 12, 6.8, _G),
        (30, 20, 6.8, _G),
        (46, 28, 6.8, _G),
        *((x, y, 7.2, _R) for y in (48, 65) for x in (19, 41)),
    ),
    8: tuple((x, y, 7.6, _B) for y in (13, 31, 49, 67) for x in (19, 41)),
    9: tuple((x, y, 7.4, c) for y, c in ((17, _B), (40, _R), (63, _G)) for x in (15, 30, 45)),
}


def _pin(x: float, y: float, r: float, color: str) -> str:
    return (
        f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(r)}" fill="{color}"/>'
        f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(r * 0.72)}" fill="{_FACE}"/>'
        f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(r * 0.5)}" fill="none" stroke="{color}" '
        f'stroke-width="{_num(r * 0.14)}"/>'
        f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(r * 0.22)}" fill="{color}"/>'
    )


def _pin_face(number: int, red: bool) -> str:
    if number == 1:
        return (
            f'<circle cx="30" cy="40" r="22" fill="{_GREEN}"/>'
            f'<circle cx="30" cy="40" r="18.5" fill="{_FACE}"/>'
            f'<circle cx="30" cy="40" r="15" fill="none" stroke="{_BLUE}" stroke-width="3" '
            'stroke-dasharray="3.9 2"/>'
            f'<circle cx="30" cy="40" r="10" fill="{_RED}"/>'
            f'<circle cx="30" cy="40" r="6.5" fill="{_FACE}"/>'
            f'<circle cx="30" cy="40" r="3.5" fill="{_RED}"/>'
        )
    return "".join(_pin(x, y, r, _RED if red else c) for x, y, r, c in _PINS[number])


# -- sou ----------------------------------------------------------------------------------------------

#: sticks of each sou tile: (x, y, length, angle, colour)
_SOU: dict[int, tuple[tuple[float, float, float, float, str], ...]] = {
    2: ((30, 22, 26, 0, _G), (30, 58, 26, 0, _G)),
    3: ((30, 22, 26, 0, _G), (18, 58, 26, 0, _G), (42, 58, 26, 0, _G)),
    4: tuple((x, y, 26, 0, _G) for y in (22, 58) for x in (18, 42)),
    5: (*((x, y, 26, 0, _G) for y in (22, 58) for x in (15, 45)), (30, 40, 26, 0, _R)),
    6: tuple((x, y, 26, 0, _G) for y in (22, 58) for x in (15, 30, 45)),
    7: ((30, 14, 18, 0, _R), *((x, y, 18, 0, _G) for y in (41, 64) for x in (15, 30, 45))),
    8: (
        (12, 22, 26, 0, _G),
        (24, 22, 26, 28, _G),
        (36, 22, 26, -28, _G),
        (48, 22, 26, 0, _G),
        (12, 58, 26, 0, _G),
        (24, 58, 26, -28, _G),
        (36, 58, 26, 28, _G),
        (48, 58, 26, 0, _G),
    ),
    9: tuple((x, y, 19, 0, _R if x == 30 else _G) for y in (15, 40, 65) for x in (15, 30, 45)),
}


def _stick(x: float, y: float, length: float, angle: float, color: str) -> str:
    h = length / 2
    rotate = f" rotate({_num(angle)})" if angle else ""
    return (
        f'<g transform="translate({_num(x)} {_num(y)}){rotate}">'
        f'<rect x="-3.4" y="{_num(-h)}" width="6.8" height="{_num(length)}" rx="3" fill="{color}"/>'
        f'<path d="M0 {_num(-h + 2.5)} V{_num(h - 2.5)} M-3.4 0 H3.4" stroke="{_FACE}" stroke-width="1.1"/>'
        "</g>"
    )


def _bird() -> str:
    """The 1s: a small bird on a bamboo stalk."""
    return (
        f'<path d="M30 73 V50" stroke="{_GREEN}" stroke-width="4" stroke-linecap="round"/>'
        f'<path d="M17 60 C22 52 28 50 30 50 C32 50 38 52 43 60" fill="none" stroke="{_GREEN}" '
        'stroke-width="2.4" stroke-linecap="round"/>'
        f'<path d="M14 44 C10 34 12 22 18 16 C18 26 20 34 26 38 Z" fill="{_BLUE}"/>'
        f'<path d="M16 46 C6 42 5 30 9 24 C12 34 16 38 24 40 Z" fill="{_GREEN}"/>'
        f'<ellipse cx="30" cy="36" rx="12" ry="10" fill="{_GREEN}"/>'
        f'<path d="M24 38 C28 46 36 46 40 38 C36 41 29 41 24 38 Z" fill="{_RED}"/>'
        f'<circle cx="41" cy="23" r="7" fill="{_GREEN}"/>'
        f'<path d="M47 21 L54 24 L47 26 Z" fill="{_RED}"/>'
        f'<circle cx="43" cy="21.5" r="1.8" fill="{_FACE}"/>'
        f'<circle cx="43.4" cy="21.5" r="0.9" fill="{_INK}"/>'
        f'<path d="M34 14 C36 8 40 7 42 10" fill="none" stroke="{_RED}" stroke-width="2" '
        'stroke-linecap="round"/>'
    )


def _sou_face(number: int, red: bool) -> str:
    if number == 1:
        return _bird()
    return "".join(_stick(x, y, n, a, _RED if red else c) for x, y, n, a, c in _SOU[number])


# -- man and honours ------------------------------------------------------------------------------------


def _man_face(number: int, red: bool) -> str:
    return _glyph(_NUMERALS[number - 1], 13, 6, 34, _RED if red else _INK, 3.4) + _glyph(
        "萬", 12, 42, 36, _RED, 2.6
    )


def _honor_face(number: int) -> str:
    if number == 5:  # haku: a blank face with a blue frame
        return (
            f'<rect x="13" y="14" width="34" height="52" rx="3" fill="none" stroke="{_BLUE}" '
            'stroke-width="2.4"/>'
            f'<rect x="17" y="18" width="26" height="44" rx="2" fill="none" stroke="{_BLUE}" '
            'stroke-width="1"/>'
        )
    color = {6: _GREEN, 7: _RED}.get(number, _INK)
    return _glyph(_HONOR_GLYPHS[number - 1], 8, 15, 44, color, 4.2 if number < 6 else 4.6)


# -- tiles --------------------------------------------------------------------------------------------


def _title(tile: Tile) -> str:
    return f"red {KIND_NAMES[tile.kind]}" if tile.red else KIND_NAMES[tile.kind]


@lru_cache(maxsize=128)
def _tile_body(kind: int, red: bool, back: bool) -> str:
    """The shapes of one tile in a ``TILE_WIDTH x TILE_HEIGHT`` box."""
    w, h = TILE_WIDTH, TILE_HEIGHT
    if back:
        return (
            f'<rect x="0.75" y="0.75" width="{w - 1.5}" height="{h - 1.5}" rx="6" fill="{_BACK}" '
            f'stroke="{_EDGE}" stroke-width="1.5"/>'
            f'<rect x="5" y="5" width="{w - 10}" height="{h - 10}" rx="4" fill="none" stroke="#f3c48f" '
            'stroke-width="1"/>'
        )
    out = [
        f'<rect x="0.75" y="0.75" width="{w - 1.5}" height="{h - 1.5}" rx="6" fill="{_FACE}" '
        f'stroke="{_EDGE}" stroke-width="1.5"/>'
    ]
    suit, number = divmod(kind, 9)
    number += 1
    if suit == 0:
        out.append(_man_face(number, red))
    elif suit == 1:
        out.append(_pin_face(number, red))
    elif suit == 2:
        out.append(_sou_face(number, red))
    else:
        out.append(_honor_face(number))
    if red:  # the mark of a red five: a red corner
        out.append(f'<path d="M{w - 18} 1.5 H{w - 7} Q{w - 1.5} 1.5 {w - 1.5} 7 V18 Z" fill="{_RED}"/>')
    return "".join(out)


def _as_tile(tile: Tile | str) -> Tile:
    return tile if isinstance(tile, Tile) else Tile.parse(tile)


def _tile_group(tile: Tile, x: float, y: float, *, sideways: bool = False, back: bool = False) -> str:
    """One tile placed at (x, y) (its top-left corner), upright or turned a quarter to the left."""
    body = _tile_body(tile.kind, tile.red, back)
    red = ' data-red="true"' if tile.red else ""
    label = f"{_title(tile)} (face down)" if back else _title(tile)
    cls = "tile red" if tile.red else "tile"
    if sideways:
        transform = f"translate({_num(x)} {_num(y + TILE_WIDTH)}) rotate(-90)"
    else:
        transform = f"translate({_num(x)} {_num(y)})"
    return (
        f'<g class="{cls}" data-tile="{tile}"{red} transform="{transform}">'
        f"<title>{escape(label)}</title>{body}</g>"
    )


def tile_svg(tile: Tile | str, *, height: float = 64, sideways: bool = False, back: bool = False) -> str:
    """One tile as a standalone ``<svg>`` element, ``height`` pixels high
    (upright; a sideways tile is that many pixels wide).

    >>> s = tile_svg("7z", height=40)
    >>> 'width="30"' in s and 'height="40"' in s and 'aria-label="Red"' in s
    True
    """
    t = _as_tile(tile)
    w, h = (TILE_HEIGHT, TILE_WIDTH) if sideways else (TILE_WIDTH, TILE_HEIGHT)
    scale = height / TILE_HEIGHT
    red = ' data-red="true"' if t.red else ""
    label = escape(f"{_title(t)} (face down)" if back else _title(t))
    cls = "tile red" if t.red else "tile"
    body = _tile_body(t.kind, t.red, back)
    if sideways:
        body = f'<g transform="translate(0 {TILE_WIDTH}) rotate(-90)">{body}</g>'
    return (
        f'<svg {_XMLNS} class="{cls}" data-tile="{t}"{red} role="img" aria-label="{label}" '
        f'viewBox="0 0 {w} {h}" width="{_num(w * scale)}" height="{_num(h * scale)}">'
        f"<title>{label}</title>{body}</svg>"
    )


def back_svg(*, height: float = 64) -> str:
    """A face-down tile (its back), ``height`` pixels high.

    >>> 'aria-label="face down"' in back_svg()
    True
    """
    scale = height / TILE_HEIGHT
    return (
        f'<svg {_XMLNS} class="tile back" data-tile="back" role="img" aria-label="face down" '
        f'viewBox="0 0 {TILE_WIDTH} {TILE_HEIGHT}" width="{_num(TILE_WIDTH * scale)}" '
        f'height="{_num(height)}"><title>face down</title>{_tile_body(0, False, True)}</svg>'
    )


def tiles_svg(tiles: Iterable[Tile | str] | str, *, height: float = 64, gap: float = 2) -> str:
    """A row of tiles, e.g. dora indicators.

    >>> tiles_svg("1p7z").count('class="tile')
    2
    """
    row = parse_tiles(tiles) if isinstance(tiles, str) else tuple(_as_tile(t) for t in tiles)
    parts = [_tile_group(t, i * (TILE_WIDTH + gap), 0) for i, t in enumerate(row)]
    width = max(len(row) * (TILE_WIDTH + gap) - gap, 1)
    return _document(parts, width, TILE_HEIGHT, height, ", ".join(_title(t) for t in row) or "no tiles")


def _document(parts: Sequence[str], width: float, box_height: float, height: float, label: str) -> str:
    scale = height / box_height
    return (
        f'<svg {_XMLNS} role="img" aria-label="{escape(label)}" viewBox="0 0 {_num(width)} '
        f'{_num(box_height)}" width="{_num(width * scale)}" height="{_num(height)}">{"".join(parts)}</svg>'
    )


# -- hands --------------------------------------------------------------------------------------------

_GAP = 2
_GROUP_GAP = 16
_LABEL = 18  # room under the tiles for the seat a meld was called from


def _sideways_index(meld: Meld, winner: int | None, players: int) -> int:
    """Where the called tile lies: left for the player on the left (kamicha), in the middle for
    the player opposite, right for the player on the right; first when the winner is unknown."""
    n = len(meld.tiles)
    if winner is None or meld.from_seat is None:
        return 0
    rel = (meld.from_seat - winner) % players
    if rel == players - 1:
        return 0
    if rel == 1:
        return n - 1
    return 1


def _meld_tiles(meld: Meld, winner: int | None, players: int) -> tuple[list[Tile], int]:
    """The meld's tiles in drawing order and the index of the sideways (called) tile."""
    tiles = list(meld.tiles)
    called = meld.called
    if called is None and meld.type is MeldType.CHI:
        called = tiles[0]
    if meld.type is MeldType.KAKAN:
        # the pon lies as called; the added tile sits on top of the sideways one
        tiles = tiles[:3]
    at = _sideways_index(meld, winner, players)
    at = min(at, len(tiles) - 1)
    if called is not None and called in tiles:
        tiles.remove(called)
        tiles.insert(at, called)
    return tiles, at


def _meld_parts(
    meld: Meld, x: float, base: float, winner: int | None, players: int
) -> tuple[list[str], float]:
    """The shapes of a meld with its left edge at ``x`` and tiles standing on ``base``."""
    parts: list[str] = []
    if meld.type is MeldType.ANKAN:
        for i, t in enumerate(meld.tiles):
            parts.append(_tile_group(t, x, base - TILE_HEIGHT, back=i in (0, 3)))
            x += TILE_WIDTH + _GAP
        return parts, x - _GAP
    tiles, at = _meld_tiles(meld, winner, players)
    for i, t in enumerate(tiles):
        if i == at:
            parts.append(_tile_group(t, x, base - TILE_WIDTH, sideways=True))
            if meld.type is MeldType.KAKAN:
                parts.append(_tile_group(meld.tiles[3], x, base - 2 * TILE_WIDTH - _GAP, sideways=True))
            x += TILE_HEIGHT + _GAP
        else:
            parts.append(_tile_group(t, x, base - TILE_HEIGHT))
            x += TILE_WIDTH + _GAP
    return parts, x - _GAP


def hand_svg(hand: Hand | str, *, winner: int | None = None, players: int = 4, height: float = 64) -> str:
    """A winning hand: the concealed tiles, the winning tile apart, then the melds in call
    order, each called tile turned sideways and the seat it came from written under the meld
    (``winner`` places the sideways tile by where that seat sits; without it, it comes first).
    An ankan shows its outer tiles face down; a kakan its added tile on the sideways one.
    ``height`` is the pixel height of an upright tile.

    >>> s = hand_svg("234m678p5578s +9s ankan:7777z", winner=2)
    >>> s.count('data-tile="7z"'), s.count("(face down)")
    (4, 2)
    """
    h = Hand.parse(hand) if isinstance(hand, str) else hand
    has_kakan = any(m.type is MeldType.KAKAN for m in h.melds)
    top = 2 * TILE_WIDTH + _GAP if has_kakan else TILE_HEIGHT
    has_label = any(m.from_seat is not None for m in h.melds)
    box_height = top + (_LABEL if has_label else 0)
    base = top
    parts: list[str] = []
    x = 0.0
    for t in h.concealed:
        parts.append(_tile_group(t, x, base - TILE_HEIGHT))
        x += TILE_WIDTH + _GAP
    if h.concealed:
        x += _GROUP_GAP - _GAP
    parts.append(_tile_group(h.win_tile, x, base - TILE_HEIGHT))
    parts.append(
        f'<path d="M{_num(x + 4)} {_num(base + 5)} H{_num(x + TILE_WIDTH - 4)}" stroke="{_RED}" '
        'stroke-width="3" stroke-linecap="round"/>'
    )
    x += TILE_WIDTH
    for meld in h.melds:
        x += _GROUP_GAP
        start = x
        shapes, x = _meld_parts(meld, x, base, winner, players)
        parts.extend(shapes)
        if meld.from_seat is not None:
            parts.append(
                f'<text x="{_num((start + x) / 2)}" y="{_num(base + _LABEL - 3)}" text-anchor="middle" '
                f'font-family="sans-serif" font-size="14" fill="{_INK}">{meld.type.value} from seat '
                f"{meld.from_seat}</text>"
            )
    scale_height = height * box_height / TILE_HEIGHT
    return _document(parts, x, box_height, scale_height, f"hand {h}")


# -- PNG ----------------------------------------------------------------------------------------------


class PngUnavailableError(TenbouError):
    """PNG output needs the optional ``resvg-py`` package (``pip install 'tenbou[png]'``)."""

    default_code = "png_unavailable"


def svg_to_png(svg: str, *, zoom: float = 2.0) -> bytes:
    """Rasterise one of these pictures to PNG bytes with the optional ``resvg-py`` package
    (a self-contained wheel: no system libraries). ``zoom`` multiplies the pixel size.

    Raises :class:`PngUnavailableError` when ``resvg-py`` is not installed.
    """
    try:
        import resvg_py  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise PngUnavailableError(
            "PNG output needs the optional package 'resvg-py': pip install 'tenbou[png]' "
            "(or write an .svg file instead)"
        ) from None
    data = resvg_py.svg_to_bytes(svg_string=svg, zoom=zoom)
    return bytes(data)
