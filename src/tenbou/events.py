"""Game events: the mjai vocabulary as typed values, read and written as JSON.

The events are those of the mjai protocol (``start_game``, ``start_kyoku``,
``tsumo``, ``dahai``, ``chi``, ``pon``, ``daiminkan``, ``kakan``, ``ankan``,
``dora``, ``reach``, ``reach_accepted``, ``hora``, ``ryukyoku``, ``end_kyoku``,
``end_game``) plus ``nukidora`` (a North set aside with three players). Tiles
use mjai names: ``1m``..``9s``, ``5mr``/``5pr``/``5sr`` for red fives, and
``E S W N P F C`` for the honours (P = white, F = green, C = red).

>>> ev = event_from_json({"type": "dahai", "actor": 0, "pai": "5mr", "tsumogiri": False})
>>> ev
Dahai(actor=0, pai=Tile.parse('0m'), tsumogiri=False)
>>> event_to_json(ev)
{'type': 'dahai', 'actor': 0, 'pai': '5mr', 'tsumogiri': False}
>>> event_from_json({"type": "pon", "actor": 1, "target": 0, "pai": "C"})
Traceback (most recent call last):
...
tenbou.errors.LogFormatError: pon: missing 'consumed'
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, TypeAlias

from .errors import LogFormatError
from .tiles import Tile, Wind

__all__ = [
    "Ankan",
    "Chi",
    "Dahai",
    "Daiminkan",
    "Dora",
    "EndGame",
    "EndKyoku",
    "Event",
    "Hora",
    "Kakan",
    "Nukidora",
    "Pon",
    "Reach",
    "ReachAccepted",
    "Ryukyoku",
    "StartGame",
    "StartKyoku",
    "Tsumo",
    "event_from_json",
    "event_name",
    "event_to_json",
    "events_from_lines",
    "events_to_lines",
    "mjai_tile",
    "tile_from_mjai",
]

_HONOR_NAMES = "ESWNPFC"


def tile_from_mjai(name: object, field: str = "pai") -> Tile:
    """A :class:`Tile` from its mjai name (``"5pr"``, ``"E"``, ``"C"``).

    >>> tile_from_mjai("5sr"), tile_from_mjai("P")
    (Tile.parse('0s'), Tile.parse('5z'))
    """
    if isinstance(name, str):
        if len(name) == 1 and name in _HONOR_NAMES:
            return Tile(27 + _HONOR_NAMES.index(name))
        if len(name) == 2 and name[0] in "123456789" and name[1] in "mps":
            return Tile("mps".index(name[1]) * 9 + int(name[0]) - 1)
        if name in ("5mr", "5pr", "5sr"):
            return Tile("mps".index(name[1]) * 9 + 4, True)
    if name == "?":
        raise LogFormatError(f"{field}: '?' (a hidden tile): tenbou replays records that show every tile")
    raise LogFormatError(f"{field}: {name!r} is not an mjai tile (1m-9s, 5mr/5pr/5sr, E S W N P F C)")


def mjai_tile(tile: Tile) -> str:
    """The mjai name of a tile: ``mjai_tile(Tile.parse("0m")) == "5mr"``."""
    if tile.kind >= 27:
        return _HONOR_NAMES[tile.kind - 27]
    return f"5{tile.suit}r" if tile.red else str(tile)


# -- the events -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StartGame:
    names: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class StartKyoku:
    """A hand begins. ``kyoku`` counts from 1 within the round wind ``bakaze``;
    ``kyotaku`` is the riichi sticks on the table; ``tehais`` the 13-tile hands."""

    bakaze: Wind
    dora_marker: Tile
    kyoku: int
    honba: int
    kyotaku: int
    oya: int
    scores: tuple[int, ...]
    tehais: tuple[tuple[Tile, ...], ...]


@dataclass(frozen=True, slots=True)
class Tsumo:
    actor: int
    pai: Tile


@dataclass(frozen=True, slots=True)
class Dahai:
    actor: int
    pai: Tile
    tsumogiri: bool = False


@dataclass(frozen=True, slots=True)
class Chi:
    actor: int
    target: int
    pai: Tile
    consumed: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class Pon:
    actor: int
    target: int
    pai: Tile
    consumed: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class Daiminkan:
    actor: int
    target: int
    pai: Tile
    consumed: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class Kakan:
    actor: int
    pai: Tile
    consumed: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class Ankan:
    actor: int
    consumed: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class Nukidora:
    """Three players: a North tile set aside as dora (kita)."""

    actor: int
    pai: Tile


@dataclass(frozen=True, slots=True)
class Dora:
    dora_marker: Tile


@dataclass(frozen=True, slots=True)
class Reach:
    actor: int


@dataclass(frozen=True, slots=True)
class ReachAccepted:
    actor: int
    deltas: tuple[int, ...] | None = None
    scores: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class Hora:
    """A win: ``target`` is the discarder (the actor for a tsumo)."""

    actor: int
    target: int
    pai: Tile | None = None
    ura_markers: tuple[Tile, ...] | None = None
    deltas: tuple[int, ...] | None = None
    scores: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class Ryukyoku:
    """A draw. ``reason`` as in mjai (``fanpai`` exhaustive, ``kyushukyuhai``,
    ``suufonrenda``, ``suuchariichi``, ``suukaikan``, ``sanchaho``);
    ``tenpais`` which seats were tenpai, where the record says."""

    reason: str | None = None
    tenpais: tuple[bool, ...] | None = None
    deltas: tuple[int, ...] | None = None
    scores: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class EndKyoku:
    pass


@dataclass(frozen=True, slots=True)
class EndGame:
    scores: tuple[int, ...] | None = None


Event: TypeAlias = (
    StartGame | StartKyoku | Tsumo | Dahai | Chi | Pon | Daiminkan | Kakan | Ankan | Nukidora | Dora | Reach
    | ReachAccepted | Hora | Ryukyoku | EndKyoku | EndGame
)  # fmt: skip

_TYPES: dict[str, type[Any]] = {
    "start_game": StartGame,
    "start_kyoku": StartKyoku,
    "tsumo": Tsumo,
    "dahai": Dahai,
    "chi": Chi,
    "pon": Pon,
    "daiminkan": Daiminkan,
    "kakan": Kakan,
    "ankan": Ankan,
    "nukidora": Nukidora,
    "dora": Dora,
    "reach": Reach,
    "reach_accepted": ReachAccepted,
    "hora": Hora,
    "ryukyoku": Ryukyoku,
    "end_kyoku": EndKyoku,
    "end_game": EndGame,
}
_NAMES = {cls: name for name, cls in _TYPES.items()}
_TILE_FIELDS = {"pai", "dora_marker"}
_TILE_LIST_FIELDS = {"consumed", "ura_markers"}
_INT_LIST_FIELDS = {"scores", "deltas"}
#: other names producers use for a field
_ALIASES = {"ura_markers": ("ura_markers", "uradora_markers")}


def event_name(event: Event) -> str:
    """The mjai type of an event: ``event_name(EndKyoku()) == "end_kyoku"``."""
    return _NAMES[type(event)]


def _int(obj: Mapping[str, Any], key: str, where: str) -> int:
    value = obj[key]
    if type(value) is not int:
        raise LogFormatError(f"{where}: {key} must be an integer, not {value!r}")
    return value


def event_from_json(obj: object) -> Event:
    """An event from its mjai JSON object; :class:`LogFormatError` on anything
    malformed (the message names the event type and field). Fields that other
    producers add (``meta``, ``can_act``, ...) are read past."""
    if not isinstance(obj, Mapping):
        raise LogFormatError(f"an mjai event is a JSON object, not {obj!r}")
    kind = obj.get("type")
    cls = _TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise LogFormatError(f"unknown mjai event type {kind!r}")
    where = str(kind)
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        key = next((k for k in _ALIASES.get(f.name, (f.name,)) if obj.get(k) is not None), None)
        if key is None:
            if f.default is dataclasses.MISSING:
                raise LogFormatError(f"{where}: missing {f.name!r}")
            continue
        value = obj[key]
        if f.name in _TILE_FIELDS:
            kwargs[f.name] = tile_from_mjai(value, f"{where}.{f.name}")
        elif f.name in _TILE_LIST_FIELDS:
            if not isinstance(value, list):
                raise LogFormatError(f"{where}.{f.name}: expected a list of tiles, not {value!r}")
            kwargs[f.name] = tuple(tile_from_mjai(v, f"{where}.{f.name}") for v in value)
        elif f.name in _INT_LIST_FIELDS:
            if not isinstance(value, list) or any(type(v) is not int for v in value):
                raise LogFormatError(f"{where}.{f.name}: expected a list of integers, not {value!r}")
            kwargs[f.name] = tuple(value)
        elif f.name == "tehais":
            if not isinstance(value, list) or any(not isinstance(h, list) for h in value):
                raise LogFormatError(f"{where}.tehais: expected a list of hands, not {value!r}")
            kwargs["tehais"] = tuple(tuple(tile_from_mjai(t, f"{where}.tehais") for t in h) for h in value)
        elif f.name == "bakaze":
            try:
                kwargs["bakaze"] = Wind(value)
            except ValueError:
                raise LogFormatError(f"{where}.bakaze: {value!r} is not one of E, S, W, N") from None
        elif f.name == "tenpais":
            if not isinstance(value, list) or any(type(v) is not bool for v in value):
                raise LogFormatError(f"{where}.tenpais: expected a list of booleans, not {value!r}")
            kwargs["tenpais"] = tuple(value)
        elif f.name == "names":
            kwargs["names"] = tuple(str(v) for v in value) if isinstance(value, list) else ()
        elif f.name == "reason":
            if not isinstance(value, str):
                raise LogFormatError(f"{where}.reason: expected a string, not {value!r}")
            kwargs["reason"] = value
        elif f.name == "tsumogiri":
            if type(value) is not bool:
                raise LogFormatError(f"{where}.tsumogiri: expected true or false, not {value!r}")
            kwargs["tsumogiri"] = value
        else:
            kwargs[f.name] = _int(obj, key, where)
    return cls(**kwargs)  # type: ignore[no-any-return]


def event_to_json(event: Event) -> dict[str, Any]:
    """The mjai JSON object of an event (optional fields left out when empty)."""
    out: dict[str, Any] = {"type": _NAMES[type(event)]}
    for f in fields(event):
        value = getattr(event, f.name)
        if value is None or (f.name == "names" and not value):
            continue
        if f.name in _TILE_FIELDS:
            out[f.name] = mjai_tile(value)
        elif f.name in _TILE_LIST_FIELDS:
            out[f.name] = [mjai_tile(t) for t in value]
        elif f.name == "tehais":
            out[f.name] = [[mjai_tile(t) for t in h] for h in value]
        elif f.name == "bakaze":
            out[f.name] = value.value
        elif isinstance(value, tuple):
            out[f.name] = list(value)
        else:
            out[f.name] = value
    return out


def events_to_lines(events: Sequence[Event]) -> list[str]:
    """Events as mjai JSON Lines (one compact JSON object per line)."""
    return [json.dumps(event_to_json(e), ensure_ascii=False, separators=(",", ":")) for e in events]


def json_lines(lines: Iterable[str], source: str) -> Iterator[tuple[int, Any]]:
    """``(line number, value)`` of each JSON line (blank lines skipped); a line
    that is not JSON raises :class:`LogFormatError` naming it."""
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            yield n, json.loads(line)
        except json.JSONDecodeError as e:
            raise LogFormatError(f"{source}:{n}: not JSON ({e.msg})") from None


def mjai_lines(lines: Iterable[str], source: str = "<mjai>") -> Iterator[tuple[Any, Event]]:
    """``(JSON object, event)`` of each mjai line; errors name the line."""
    for n, obj in json_lines(lines, source):
        try:
            yield obj, event_from_json(obj)
        except LogFormatError as e:
            raise LogFormatError(f"{source}:{n}: {e}") from None


def events_from_lines(lines: Sequence[str], source: str = "<mjai>") -> list[Event]:
    """Events from mjai JSON Lines (blank lines skipped); errors name the line."""
    return [ev for _, ev in mjai_lines(lines, source)]
