"""The codes of tenhou.net/6 records: tile numbers, call strings, value and yaku texts, delta lists."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ...core.tiles import Tile
from ...errors import LogFormatError
from .vocab import _BY_NAME, _LIMITS

__all__ = ["code_of_tile", "tile_of_code"]

_VALUE = re.compile(
    rf"^(?:(\d{{1,4}})符(\d{{1,4}})飜|({'|'.join(_LIMITS)}))?(\d{{1,9}})(?:-(\d{{1,9}}))?点(∀)?$"
)
_YAKU = re.compile(r"^(.+?)\((?:(\d{1,4})飜|(役満))\)$")


# -- tiles ---------------------------------------------------------------------------------------


def _code_tile(code: int) -> Tile | None:
    suit, num = divmod(code, 10)
    if 1 <= suit <= 3 and 1 <= num <= 9:
        return Tile((suit - 1) * 9 + num - 1)
    if suit == 4 and 1 <= num <= 7:
        return Tile(27 + num - 1)
    if suit == 5 and 1 <= num <= 3:
        return Tile((num - 1) * 9 + 4, True)
    return None


#: every tenhou.net/6 tile number and its tile (tiles are values: one of each serves every record)
_CODE_TILES: dict[int, Tile] = {c: tile for c in range(11, 54) if (tile := _code_tile(c)) is not None}


def tile_of_code(code: object, where: str = "tile") -> Tile:
    """The tile of a tenhou.net/6 number (51-53 are the red fives).

    >>> [str(tile_of_code(c)) for c in (11, 25, 52, 47)]
    ['1m', '5p', '0p', '7z']
    """
    if type(code) is int:
        tile = _CODE_TILES.get(code)
        if tile is not None:
            return tile
    raise LogFormatError(f"{where}: {code!r} is not a tenhou.net/6 tile (11-19, 21-29, 31-39, 41-47, 51-53)")


def code_of_tile(tile: Tile) -> int:
    """The tenhou.net/6 number of a tile.

    >>> code_of_tile(Tile.parse("0s")), code_of_tile(Tile.parse("3z"))
    (53, 43)
    """
    if tile.red:
        return 50 + tile.kind // 9 + 1
    if tile.kind >= 27:
        return 41 + tile.kind - 27
    return (tile.kind // 9 + 1) * 10 + tile.kind % 9 + 1


def _tiles_of(text: str, where: str) -> list[Tile]:
    if len(text) % 2:
        raise LogFormatError(f"{where}: {text!r} is not a list of two-digit tiles")
    return [tile_of_code(_number(text[i : i + 2], where), where) for i in range(0, len(text), 2)]


def _number(text: str, where: str) -> int:
    if not text.isdigit():
        raise LogFormatError(f"{where}: {text!r} is not a tenhou.net/6 tile number")
    return int(text)


# -- results -------------------------------------------------------------------------------------


def _parse_yaku(texts: Sequence[object], where: str) -> tuple[dict[str, int], tuple[str, ...]]:
    yaku: dict[str, int] = {}
    yakuman: list[str] = []
    for text in texts:
        m = _YAKU.match(str(text))
        if not m:
            raise LogFormatError(
                f"{where}: {text!r} is not a yaku text such as '立直(1飜)' or '大三元(役満)'"
            )
        name = m.group(1).strip()
        key = _BY_NAME.get(name)
        if key is None:
            raise LogFormatError(f"{where}: unknown yaku {name!r}")
        if m.group(3):
            if key == "renhou":
                key = "renhou_yakuman"
            yakuman.append(key)
            yaku[key] = yaku.get(key, 0) + 13
        elif int(m.group(2)):
            yaku[key] = yaku.get(key, 0) + int(m.group(2))
    return yaku, tuple(yakuman)


def _points(
    text: str, tsumo: bool, dealer: bool, players: int, where: str
) -> tuple[int | None, int | None, int, str | None]:
    """(fu, han, points, limit) of a value text; a tsumo's points are the sum of the payments."""
    m = _VALUE.match(text)
    if not m:
        raise LogFormatError(
            f"{where}: {text!r} is not a value text such as '30符4飜7700点' or '満貫2000-4000点'"
        )
    fu = int(m.group(1)) if m.group(1) else None
    han = int(m.group(2)) if m.group(2) else None
    limit = _LIMITS[m.group(3)] if m.group(3) else None
    x = int(m.group(4))
    y = int(m.group(5)) if m.group(5) else None
    if not tsumo:
        points = x
    elif m.group(6) or dealer:
        points = x * (players - 1)
    else:
        points = x * (players - 2) + (y if y is not None else 2 * x)
    return fu, han, points, limit


def _deltas(value: object, players: int, where: str) -> tuple[int, ...]:
    """One integer per seat (a fourth 0 allowed with three players)."""
    if (
        not isinstance(value, list)
        or not players <= len(value) <= 4
        or any(type(v) is not int for v in value)
        or any(value[players:])
    ):
        raise LogFormatError(f"{where}: {str(value)[:60]} is not a list of one integer per seat ({players})")
    return tuple(value[:players])


# -- a seat's takes and discards ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Take:
    """A take: a draw (``tile``) or a call."""

    kind: str  # draw chi pon daiminkan
    tile: Tile
    target: int = -1
    consumed: tuple[Tile, ...] = ()


@dataclass(frozen=True, slots=True)
class _Discard:
    kind: str  # dahai tsumogiri reach ankan kakan kita skip
    tile: Tile | None = None
    consumed: tuple[Tile, ...] = ()
    tsumogiri: bool = False


def _take(item: object, seat: int, players: int, where: str) -> _Take:
    if isinstance(item, int) and not isinstance(item, bool):
        return _Take("draw", tile_of_code(item, where))
    if not isinstance(item, str):
        raise LogFormatError(f"{where}: {item!r} is neither a tile nor a call")
    for letter, kind, size in (("c", "chi", 7), ("p", "pon", 7), ("m", "daiminkan", 9)):
        idx = item.find(letter)
        if idx < 0:
            continue
        if len(item) != size or idx % 2:
            raise LogFormatError(f"{where}: {item!r} is not a {kind} call")
        called = tile_of_code(_number(item[idx + 1 : idx + 3], where), where)
        consumed = tuple(_tiles_of(item[:idx] + item[idx + 3 :], where))
        if kind == "chi":
            rel = 3
        else:
            rel = {0: 3, 2: 2, 4 if kind == "pon" else 6: 1}.get(idx, 0)
            if not rel:
                raise LogFormatError(f"{where}: {item!r}: '{letter}' stands where no seat is")
        target = (seat + rel) % 4  # counted around four seats, the empty fourth too
        if target >= players:
            raise LogFormatError(f"{where}: {item!r} calls from seat {target}, which is empty")
        return _Take(kind, called, target, consumed)
    raise LogFormatError(f"{where}: {item!r} is not a tenhou.net/6 call (c, p or m)")


def _discard(item: object, where: str) -> _Discard:
    if item == 60:
        return _Discard("tsumogiri", tsumogiri=True)
    if item == 0:
        return _Discard("skip")
    if isinstance(item, int) and not isinstance(item, bool):
        return _Discard("dahai", tile_of_code(item, where))
    if not isinstance(item, str):
        raise LogFormatError(f"{where}: {item!r} is neither a tile nor a call")
    if item.startswith("r") and len(item) == 3:
        code = _number(item[1:], where)
        if code == 60:
            return _Discard("reach", tsumogiri=True)
        return _Discard("reach", tile_of_code(code, where))
    if item.startswith("f") and len(item) == 3:
        return _Discard("kita", tile_of_code(_number(item[1:], where), where))
    if "a" in item and len(item) == 9:
        idx = item.index("a")
        tiles = _tiles_of(item[:idx] + item[idx + 1 :], where)
        return _Discard("ankan", consumed=tuple(tiles))
    if "k" in item and len(item) == 9:
        idx = item.index("k")
        if idx % 2:
            raise LogFormatError(f"{where}: {item!r} is not a kakan call")
        added = tile_of_code(_number(item[idx + 1 : idx + 3], where), where)
        pon = _tiles_of(item[:idx] + item[idx + 3 :], where)
        return _Discard("kakan", added, tuple(pon))
    raise LogFormatError(f"{where}: {item!r} is not a tenhou.net/6 discard (a tile, 60, r.., a kan or f..)")
