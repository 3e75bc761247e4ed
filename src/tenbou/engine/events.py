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
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, TypeAlias

from .._jsonread import read_json
from ..core.tiles import Tile, Wind, tile_of
from ..core.values import DataRecord
from ..errors import LogFormatError
from ..rules import NAGASHI_MANGAN

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


#: every mjai tile name and its tile (the tiles are the shared instances of :mod:`tenbou.core.tiles`)
_MJAI_TILES: dict[str, Tile] = {
    **{h: tile_of(27 + i) for i, h in enumerate(_HONOR_NAMES)},
    **{f"{n}{s}": tile_of("mps".index(s) * 9 + n - 1) for s in "mps" for n in range(1, 10)},
    **{f"5{s}r": tile_of("mps".index(s) * 9 + 4, True) for s in "mps"},
}


def tile_from_mjai(name: object, field: str = "pai") -> Tile:
    """A :class:`Tile` from its mjai name (``"5pr"``, ``"E"``, ``"C"``).

    >>> tile_from_mjai("5sr"), tile_from_mjai("P")
    (Tile.parse('0s'), Tile.parse('5z'))
    """
    if isinstance(name, str):
        tile = _MJAI_TILES.get(name)
        if tile is not None:
            return tile
    if name == "?":
        raise LogFormatError(f"{field}: '?' (a hidden tile): tenbou replays records that show every tile")
    raise LogFormatError(f"{field}: {name!r} is not an mjai tile (1m-9s, 5mr/5pr/5sr, E S W N P F C)")


def mjai_tile(tile: Tile) -> str:
    """The mjai name of a tile: ``mjai_tile(Tile.parse("0m")) == "5mr"``."""
    if tile.kind >= 27:
        return _HONOR_NAMES[tile.kind - 27]
    return f"5{tile.suit}r" if tile.red else str(tile)


# -- the events -----------------------------------------------------------------------------------
#
# Each event is a frozen dataclass (its equality, hash, repr, fields and pickling are the
# dataclass's). Those made in play, a hand after another -- all but the start and end of a game or
# a hand -- have their ``__init__`` written by hand: the one ``dataclass`` generates is Python code
# made at import, which the compiled build runs as such (``Dahai(0, tile)`` timed from Python: 400
# ns, against 80 written by hand and compiled; a plain ``A()`` takes 60), and self-play makes some
# 9,000 events a hanchan, most of them the legal actions offered. ``object.__setattr__`` is how a
# frozen dataclass sets its fields; mypyc compiles it to a plain store.


@dataclass(frozen=True, slots=True)
class StartGame(DataRecord):
    names: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class StartKyoku(DataRecord):
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


@dataclass(frozen=True, slots=True, init=False)
class Tsumo(DataRecord):
    actor: int
    pai: Tile

    def __init__(self, actor: int, pai: Tile) -> None:
        object.__setattr__(self, "actor", actor)
        object.__setattr__(self, "pai", pai)


@dataclass(frozen=True, slots=True, init=False)
class Dahai(DataRecord):
    actor: int
    pai: Tile
    tsumogiri: bool = False

    def __init__(self, actor: int, pai: Tile, tsumogiri: bool = False) -> None:
        object.__setattr__(self, "actor", actor)
        object.__setattr__(self, "pai", pai)
        object.__setattr__(self, "tsumogiri", tsumogiri)


@dataclass(frozen=True, slots=True, init=False)
class _Call(DataRecord):
    """The fields of a call of another's discard (:class:`Chi`, :class:`Pon`, :class:`Daiminkan`)."""

    actor: int
    target: int
    pai: Tile
    consumed: tuple[Tile, ...]

    def __init__(self, actor: int, target: int, pai: Tile, consumed: tuple[Tile, ...]) -> None:
        object.__setattr__(self, "actor", actor)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "pai", pai)
        object.__setattr__(self, "consumed", consumed)


@dataclass(frozen=True, slots=True, init=False)
class Chi(_Call):
    """``actor`` takes ``target``'s discard ``pai`` into a run with ``consumed`` from its hand."""


@dataclass(frozen=True, slots=True, init=False)
class Pon(_Call):
    """``actor`` takes ``target``'s discard ``pai`` into a triplet with ``consumed``."""


@dataclass(frozen=True, slots=True, init=False)
class Daiminkan(_Call):
    """``actor`` takes ``target``'s discard ``pai`` into a kan with the three ``consumed``."""


@dataclass(frozen=True, slots=True, init=False)
class Kakan(DataRecord):
    actor: int
    pai: Tile
    consumed: tuple[Tile, ...]

    def __init__(self, actor: int, pai: Tile, consumed: tuple[Tile, ...]) -> None:
        object.__setattr__(self, "actor", actor)
        object.__setattr__(self, "pai", pai)
        object.__setattr__(self, "consumed", consumed)


@dataclass(frozen=True, slots=True, init=False)
class Ankan(DataRecord):
    actor: int
    consumed: tuple[Tile, ...]

    def __init__(self, actor: int, consumed: tuple[Tile, ...]) -> None:
        object.__setattr__(self, "actor", actor)
        object.__setattr__(self, "consumed", consumed)


@dataclass(frozen=True, slots=True, init=False)
class Nukidora(DataRecord):
    """Three players: a North tile set aside as dora (kita)."""

    actor: int
    pai: Tile

    def __init__(self, actor: int, pai: Tile) -> None:
        object.__setattr__(self, "actor", actor)
        object.__setattr__(self, "pai", pai)


@dataclass(frozen=True, slots=True, init=False)
class Dora(DataRecord):
    dora_marker: Tile

    def __init__(self, dora_marker: Tile) -> None:
        object.__setattr__(self, "dora_marker", dora_marker)


@dataclass(frozen=True, slots=True, init=False)
class Reach(DataRecord):
    actor: int

    def __init__(self, actor: int) -> None:
        object.__setattr__(self, "actor", actor)


@dataclass(frozen=True, slots=True, init=False)
class ReachAccepted(DataRecord):
    actor: int
    deltas: tuple[int, ...] | None = None
    scores: tuple[int, ...] | None = None

    def __init__(
        self, actor: int, deltas: tuple[int, ...] | None = None, scores: tuple[int, ...] | None = None
    ) -> None:
        object.__setattr__(self, "actor", actor)
        object.__setattr__(self, "deltas", deltas)
        object.__setattr__(self, "scores", scores)


@dataclass(frozen=True, slots=True, init=False)
class Hora(DataRecord):
    """A win: ``target`` is the discarder (the actor for a tsumo)."""

    actor: int
    target: int
    pai: Tile | None = None
    ura_markers: tuple[Tile, ...] | None = None
    deltas: tuple[int, ...] | None = None
    scores: tuple[int, ...] | None = None

    def __init__(
        self,
        actor: int,
        target: int,
        pai: Tile | None = None,
        ura_markers: tuple[Tile, ...] | None = None,
        deltas: tuple[int, ...] | None = None,
        scores: tuple[int, ...] | None = None,
    ) -> None:
        object.__setattr__(self, "actor", actor)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "pai", pai)
        object.__setattr__(self, "ura_markers", ura_markers)
        object.__setattr__(self, "deltas", deltas)
        object.__setattr__(self, "scores", scores)


@dataclass(frozen=True, slots=True, init=False)
class Ryukyoku(DataRecord):
    """A draw. ``reason`` as in mjai (``fanpai`` exhaustive, ``kyushukyuhai``,
    ``suufonrenda``, ``suuchariichi``, ``suukaikan``, ``sanchaho``), or ``chombo``: the hand
    stopped by ``actor``'s chombo (tenbou's, as its referee of bot matches writes it);
    ``tenpais`` which seats were tenpai, where the record says."""

    reason: str | None = None
    tenpais: tuple[bool, ...] | None = None
    deltas: tuple[int, ...] | None = None
    scores: tuple[int, ...] | None = None
    actor: int | None = None

    def __init__(
        self,
        reason: str | None = None,
        tenpais: tuple[bool, ...] | None = None,
        deltas: tuple[int, ...] | None = None,
        scores: tuple[int, ...] | None = None,
        actor: int | None = None,
    ) -> None:
        object.__setattr__(self, "reason", reason)
        object.__setattr__(self, "tenpais", tenpais)
        object.__setattr__(self, "deltas", deltas)
        object.__setattr__(self, "scores", scores)
        object.__setattr__(self, "actor", actor)


@dataclass(frozen=True, slots=True)
class EndKyoku(DataRecord):
    pass


@dataclass(frozen=True, slots=True)
class EndGame(DataRecord):
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
#: other names producers use for a field: Mortal's ``ura_markers`` first, then the original mjai
#: server's ``uradora_markers`` (also RiichiEnv, jansou) and akochan's ``uradora_marker``
_ALIASES = {"ura_markers": ("ura_markers", "uradora_markers", "uradora_marker")}
#: other names producers use for an event type: ``kita`` (RiichiEnv, jansou) is ``nukidora``
_TYPE_ALIASES = {"kita": "nukidora"}
#: mjai's word (Mortal's) for each draw tenbou names (:data:`tenbou.rules.DRAW_REASONS`, and
#: nagashi mangan): the one pairing of the two vocabularies, which the engine, self-play and the mjai
#: reader and writer take from here
MJAI_DRAW_REASONS: dict[str, str] = {
    "kyuushu_kyuuhai": "kyushukyuhai",
    "suufon_renda": "suufonrenda",
    "suucha_riichi": "suuchariichi",
    "suukaikan": "suukaikan",
    "sanchahou": "sanchaho",
    NAGASHI_MANGAN: "nagashimangan",
}
#: mjai's reason of a plain exhaustive draw (tenbou gives it no name: a draw without a reason)
MJAI_EXHAUSTIVE = "fanpai"
#: tenbou's name of each mjai draw reason but ``fanpai``
DRAW_OF_MJAI: dict[str, str] = {mjai: name for name, mjai in MJAI_DRAW_REASONS.items()}
#: the draw reasons each producer writes, as the reasons of mjai (and Mortal): mjai's own and
#: tenbou's names (from the table above); the original mjai server's own spellings
#: (``suchareach``, ``sufonrenta``, ``sukaikan``), jansou's kinds (``exhaustive``, ``nm``, ``yao9``,
#: ``reach4``, ``ron3``, ``kaze4``, ``kan4``) and the spellings its reader takes from other logs
#: (``docs/paifu/MJAI_JSOL.md``)
_REASONS: dict[str, str] = {
    **{mjai: mjai for mjai in (MJAI_EXHAUSTIVE, *MJAI_DRAW_REASONS.values())},
    **MJAI_DRAW_REASONS,
    **dict.fromkeys(("exhaustive", "exhaustive_draw", "流局", "全員聴牌", "全員不聴"), MJAI_EXHAUSTIVE),
    **dict.fromkeys(("nagashi", "nm", "流し満貫"), "nagashimangan"),
    **dict.fromkeys(
        ("kyuushuukyuuhai", "kyushu_kyuhai", "nine_terminals", "yao9", "九種九牌"), "kyushukyuhai"
    ),
    **dict.fromkeys(("sufonrenta", "sufuurenta", "four_winds", "kaze4", "四風連打"), "suufonrenda"),
    **dict.fromkeys(("suchareach", "four_riichi", "reach4", "四家立直"), "suuchariichi"),
    **dict.fromkeys(("sukaikan", "suukan_sanra", "suukansansen", "four_kans", "kan4", "四開槓"), "suukaikan"),
    **dict.fromkeys(("triple_ron", "ron3", "三家和", "三家和了"), "sanchaho"),
}  # fmt: skip
_WINDS: dict[object, Wind] = {w.value: w for w in Wind}


def _int(value: object, key: str, where: str) -> int:
    if type(value) is not int:
        raise LogFormatError(f"{where}: {key} must be an integer, not {value!r}")
    return value


def _tile(value: object, key: str, where: str) -> Tile:
    return tile_from_mjai(value, f"{where}.{key}")


def _tiles(value: object, key: str, where: str) -> tuple[Tile, ...]:
    if not isinstance(value, list):
        raise LogFormatError(f"{where}.{key}: expected a list of tiles, not {value!r}")
    return tuple([tile_from_mjai(v, f"{where}.{key}") for v in value])


def _ints(value: object, key: str, where: str) -> tuple[int, ...]:
    if not isinstance(value, list) or any(type(v) is not int for v in value):
        raise LogFormatError(f"{where}.{key}: expected a list of integers, not {value!r}")
    return tuple(value)


def _hands(value: object, key: str, where: str) -> tuple[tuple[Tile, ...], ...]:
    if not isinstance(value, list) or any(not isinstance(h, list) for h in value):
        raise LogFormatError(f"{where}.tehais: expected a list of hands, not {value!r}")
    return tuple([tuple([tile_from_mjai(t, f"{where}.tehais") for t in h]) for h in value])


def _wind(value: object, key: str, where: str) -> Wind:
    wind = _WINDS.get(value) if isinstance(value, str) else None
    if wind is None:
        raise LogFormatError(f"{where}.bakaze: {value!r} is not one of E, S, W, N")
    return wind


def _bools(value: object, key: str, where: str) -> tuple[bool, ...]:
    if not isinstance(value, list) or any(type(v) is not bool for v in value):
        raise LogFormatError(f"{where}.tenpais: expected a list of booleans, not {value!r}")
    return tuple(value)


def _names(value: object, key: str, where: str) -> tuple[str, ...]:
    return tuple(str(v) for v in value) if isinstance(value, list) else ()


def _text(value: object, key: str, where: str) -> str:
    if not isinstance(value, str):
        raise LogFormatError(f"{where}.{key}: expected a string, not {value!r}")
    return value


def _reason(value: object, key: str, where: str) -> str:
    """A draw's reason in mjai's spelling (:data:`_REASONS`); any other text is kept for the
    engine to judge (it refuses a reason it does not know)."""
    text = _text(value, key, where)
    return _REASONS.get(text, text)


def _flag(value: object, key: str, where: str) -> bool:
    if type(value) is not bool:
        raise LogFormatError(f"{where}.{key}: expected true or false, not {value!r}")
    return value


_DECODERS: dict[str, Callable[[object, str, str], Any]] = {
    "pai": _tile, "dora_marker": _tile, "consumed": _tiles, "ura_markers": _tiles, "scores": _ints,
    "deltas": _ints, "tehais": _hands, "bakaze": _wind, "tenpais": _bools, "names": _names,
    "reason": _reason, "tsumogiri": _flag,
}  # fmt: skip
_MISSING = object()
#: each event type's fields: (name, the keys it may come under, decoder, default or _MISSING)
_SPECS: dict[str, tuple[type[Any], tuple[tuple[str, Any, object], ...]]] = {
    name: (
        cls,
        tuple(
            (
                f.name,
                _DECODERS.get(f.name, _int),
                _MISSING if f.default is dataclasses.MISSING else f.default,
            )
            for f in fields(cls)
        ),
    )
    for name, cls in _TYPES.items()
}
#: the fields of each event type that producers write under other names too (hora's ura_markers)
_ALIASED: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    name: tuple((f.name, _ALIASES[f.name]) for f in fields(cls) if f.name in _ALIASES)
    for name, cls in _TYPES.items()
    if any(f.name in _ALIASES for f in fields(cls))
}
_SPECS.update({alias: _SPECS[name] for alias, name in _TYPE_ALIASES.items()})
_ALIASED.update({alias: _ALIASED[name] for alias, name in _TYPE_ALIASES.items() if name in _ALIASED})


def event_name(event: Event) -> str:
    """The mjai type of an event: ``event_name(EndKyoku()) == "end_kyoku"``."""
    return _NAMES[type(event)]


def event_from_json(obj: object) -> Event:
    """An event from its mjai JSON object; :class:`LogFormatError` on anything
    malformed (the message names the event type and field). Fields that other
    producers add (``meta``, ``can_act``, ...) are read past."""
    if not isinstance(obj, Mapping):
        raise LogFormatError(f"an mjai event is a JSON object, not {obj!r}")
    kind = obj.get("type")
    spec = _SPECS.get(kind) if isinstance(kind, str) else None
    if spec is None or not isinstance(kind, str):
        raise LogFormatError(f"unknown mjai event type {kind!r}")
    cls, specs = spec
    aliased = _ALIASED.get(kind)
    used: dict[str, str] = {}
    if aliased is not None:  # the fields other names may give, under their own name (hora only)
        obj = dict(obj)
        for name, keys in aliased:
            obj[name], used[name] = _aliased(obj, keys, kind)
    args: list[Any] = []
    for name, decode, default in specs:
        value = obj.get(name)
        if value is None:
            if default is _MISSING:
                raise LogFormatError(f"{kind}: missing {name!r}")
            args.append(default)
        else:
            args.append(decode(value, used.get(name, name) if used else name, kind))
    return cls(*args)  # type: ignore[no-any-return]


def _aliased(obj: Mapping[str, Any], keys: tuple[str, ...], kind: str) -> tuple[object, str]:
    """The value of a field that producers write under several names, and the name it came
    under; two names that give different values are refused (neither is taken on trust)."""
    found: list[tuple[str, object]] = [(k, obj[k]) for k in keys if obj.get(k) is not None]
    if not found:
        return None, keys[0]
    key, value = found[0]
    for other, second in found[1:]:
        if second != value:
            raise LogFormatError(
                f"{kind}: {key} {value!r} and {other} {second!r} disagree (the same field under two names)"
            )
    return value, key


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
    """``(line number, value)`` of each JSON line (blank lines skipped), read strictly
    (:func:`tenbou._jsonread.read_json`); a line that is not JSON, or gives a key twice, raises
    :class:`LogFormatError` naming it."""
    for n, line in enumerate(lines, 1):
        if line.strip():
            yield n, read_json(line, LogFormatError, f"{source}:{n}")


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
