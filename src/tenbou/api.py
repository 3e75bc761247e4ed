"""The JSON façade: dicts in, dicts out, exactly as ``docs/json-api.md`` says.

:func:`score` takes one winning-hand request and returns its value, yaku, fu
breakdown and payments. Bad input raises :class:`~tenbou.errors.TenbouError`
whose message names the offending field or tile; unknown fields are refused.

>>> r = score({"rules": "tenhou", "dealer": 0, "round_wind": "E", "winner": 1, "from": 0,
...            "hand": "234m456678p5578s", "win_tile": "9s", "riichi": True})
>>> r["han"], r["fu"], [y["id"] for y in r["yaku"]], r["deltas"]
(2, 30, ['riichi', 'pinfu'], [-2000, 2000, 0, 0])
>>> score({"winner": 0, "hand": "1238z", "win_tile": "1m"})
Traceback (most recent call last):
...
tenbou.errors.NotationError: hand: '8z' is not a tile (honours are 1z-7z) in '1238z'
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, Final

from .errors import InvalidHandError, NotationError, RequestError, TenbouError, shown
from .hand import Hand, Meld, MeldType, Situation
from .pao import Liability, liabilities, rinshan_liability
from .payment import (
    Settlement,
    settle_draw,
    settle_win_parts,
    settle_wins,
)
from .results import hand_score_to_dict, settlement_to_dict, win_to_dict
from .rules import ABORTIVE_DRAWS, Rules, rules_from_request
from .scoring import HandScore, score_hand, scored_or_refused
from .tiles import Tile, Wind, parse_tiles

__all__ = [
    "MAX_DEPTH",
    "MAX_INT_DIGITS",
    "hand_score_to_dict",
    "loads_request",
    "parse_win_request",
    "request_hand",
    "score",
    "settle",
    "settle_request",
    "settlement_to_dict",
]

_FLAGS: Final = (
    "riichi", "double_riichi", "ippatsu", "rinshan", "chankan", "haitei", "houtei",
    "tenhou", "chiihou", "renhou",
)  # fmt: skip
#: the fields of a winning-hand request: the win's own, then the table's honba, riichi sticks and
#: wareme, which only ``score`` takes
_FIELDS: Final = (
    "rules", "players", "dealer", "round_wind", "winner", "from", "hand", "melds", "win_tile",
    "dora_indicators", "ura_indicators", "kita", "pao", "rinshan_kan_from", *_FLAGS,
    "honba", "riichi_sticks", "wareme",
)  # fmt: skip
#: the fields of a win (of ``settle``'s ``wins``)
_WIN_KEYS: Final = frozenset(_FIELDS[:-3])
#: the fields of a ``score`` request: a win, plus the table's honba, sticks and wareme
_SCORE_KEYS: Final = frozenset(_FIELDS)


class _Absent:
    """The value of a field the request leaves out."""


_ABSENT: Final = _Absent()


def _refuse_unknown(request: dict[str, Any], allowed: frozenset[str]) -> None:
    """Refuse the first field of ``request`` that is not ``allowed`` (if any)."""
    for key in request:
        if key not in allowed:
            raise RequestError(f"unknown field {shown(key)}")


_MELD_KEYS: Final = frozenset({"type", "tiles", "from", "called"})
_MELD_TYPES: Final = {t.value: t for t in MeldType}
_WINDS: Final = {w.value: w for w in Wind}


def _field_tiles(value: object, field: str, index: int | None = None, member: str = "") -> tuple[Tile, ...]:
    """Tiles in mpsz notation; the field in errors is ``field`` or ``field[index]member``."""
    if not isinstance(value, str):
        raise RequestError(
            f"{_name(field, index, member)}: expected tiles in mpsz notation (a string), not {shown(value)}"
        )
    try:
        return parse_tiles(value)
    except NotationError as e:
        raise NotationError(f"{_name(field, index, member)}: {e}") from None


def _name(field: str, index: int | None, member: str) -> str:
    """The name of a field in errors: ``field``, or ``field[index]member`` (``melds[2].tiles``)."""
    return field if index is None else f"{field}[{index}]{member}"


#: every one-tile text ("5m", "0p", "7z") and its tile: most tile fields are one tile
_TILE_BY_TEXT: Final[dict[str, Tile]] = {
    str(t): t for t in parse_tiles("1234567890m1234567890p1234567890s1234567z")
}


#: the same, each tile as a one-tile tuple: an indicator list of one tile (the usual one) is read as
#: this tuple, shared, with none to build (typed ``tuple[Tile, ...]``: compiled, a ``tuple[Tile]``
#: would be unboxed when read and built again when returned)
_ONE_TILE_BY_TEXT: Final[dict[str, tuple[Tile, ...]]] = {text: (t,) for text, t in _TILE_BY_TEXT.items()}


def _one_tile(value: object, field: str, index: int | None = None, member: str = "") -> Tile:
    """One tile's text; the field in errors is ``field`` or ``field[index]member``."""
    if type(value) is str:
        found = _TILE_BY_TEXT.get(value)
        if found is not None:
            return found
    field = _name(field, index, member)
    tiles = _field_tiles(value, field)
    if len(tiles) != 1:
        raise NotationError(f"{field}: expected one tile, not {shown(value)}")
    return tiles[0]


#: the range of each number of a request (docs/json-api.md, "Numbers"): besides these, seats are
#: 0..players-1 and ``players`` is one of the rules' player counts
_MAX_HONBA: Final = 999
_MAX_STICKS: Final = 999
_MAX_KITA: Final = 4
_MAX_MELDS: Final = 4


def _number(value: object, field: str, high: int) -> int:
    """An integer field of the request in its range 0..``high``."""
    if value is None or value is _ABSENT:
        raise RequestError(f"{field}: missing (an integer is required)")
    if type(value) is not int:
        raise RequestError(f"{field}: expected an integer, not {shown(value)}")
    if not 0 <= value <= high:
        raise RequestError(f"{field}: expected an integer 0..{high}, not {shown(value)}")
    return value


def _players(value: object, rules: Rules) -> int:
    """``players``: one of the rules' player counts (the first when left out)."""
    if value is _ABSENT:
        return rules.players[0]
    if type(value) is not int or value not in rules.players:
        raise RequestError(
            f"players: these rules are played by {' or '.join(map(str, rules.players))} players, "
            f"not {shown(value)}"
        )
    return value


def _indicators(value: object, key: str) -> tuple[Tile, ...]:
    if type(value) is list:  # (the usual value, tested first)
        n = len(value)
        if n <= 2:  # the usual lists: none, one or two indicators (no list to build)
            if not n:
                return ()
            v = value[0]
            first = _ONE_TILE_BY_TEXT.get(v) if type(v) is str else None
            if first is not None:
                if n == 1:
                    return first
                v = value[1]
                second = _ONE_TILE_BY_TEXT.get(v) if type(v) is str else None
                if second is not None:
                    return first + second
        tiles: list[Tile] = []
        for v in value:  # the usual list: one tile's text each
            tile = _TILE_BY_TEXT.get(v) if type(v) is str else None
            if tile is None:  # read again, one by one, naming the bad one
                return tuple([_one_tile(v, key, i) for i, v in enumerate(value)])
            tiles.append(tile)
        return tuple(tiles)
    if value is _ABSENT or value is None:
        return ()
    if type(value) is str:  # one string for many tiles is not the contract's list: refused, not guessed
        raise RequestError(f'{key}: expected a list of tiles (["1p", "3z"]), not the string {shown(value)}')
    raise RequestError(f"{key}: expected a list of tiles, not {shown(value)}")


def _meld(obj: object, i: int) -> Meld:
    if type(obj) is dict and (n := len(obj)) <= 4:
        # melds repeat: a well-formed one is made once (Meld is immutable); anything else is
        # read by _new_meld, whose errors name the field
        raw: dict[str, object] = obj
        mtype, tiles = raw.get("type"), raw.get("tiles")
        # (``from`` and ``called`` looked up only when the fields are enough to hold them: with
        # type, tiles and a ``from``, three fields hold no ``called``)
        src = raw.get("from") if n > 2 else None
        called = raw.get("called") if n == 4 or (n == 3 and src is None) else None
        if (
            type(mtype) is str
            and type(tiles) is str
            and (src is None or type(src) is int)
            and (called is None or type(called) is str)
            and n == 2 + (src is not None) + (called is not None)  # no other field (nor a null)
        ):
            # (looked up by tiles, then type, then source: str and int keys, no tuple to build; the
            # types of one tiles' text are few, each compared by its name, more cheaply than the
            # request's new string is hashed)
            key: object = src if called is None else (src, called)
            by_type = _MELDS.get(tiles)
            by_source: dict[object, Meld] | None = None  # the melds of this type and tiles, if any
            if by_type is not None:
                for name, melds in by_type:
                    if name == mtype:
                        found = melds.get(key)
                        if found is not None:
                            return found
                        by_source = melds
                        break
            found = _new_meld(obj, i)
            if by_source is not None:
                by_source[key] = found
            elif by_type is not None:
                by_type.append((mtype, {key: found}))
            elif len(_MELDS) < 8192:
                _MELDS[tiles] = [(mtype, {key: found})]
            return found
    return _new_meld(obj, i)


#: the well-formed melds of requests, by their tiles, type (a list of each type's name and its
#: melds) and source (``from``, or ``(from, called)`` with a called tile)
_MELDS: Final[dict[str, list[tuple[str, dict[object, Meld]]]]] = {}


def _new_meld(obj: object, i: int) -> Meld:
    """The meld of ``melds[i]``, each fault named by its field (the names are made for errors only)."""
    if type(obj) is dict:  # (a dict without the ABC test)
        raw: dict[object, object] = obj
    elif isinstance(obj, Mapping):  # (read as a dict: compiled, a dict's look-ups are direct calls)
        raw = dict(obj)
    else:
        raise RequestError(f"melds[{i}]: expected an object with type, tiles and from, not {shown(obj)}")
    for key in raw:
        if key not in _MELD_KEYS:
            raise RequestError(f"melds[{i}]: unknown field {shown(key)} (expected type, tiles, from, called)")
    raw_type = raw.get("type")
    mtype = _MELD_TYPES.get(raw_type) if isinstance(raw_type, str) else None
    if mtype is None:
        raise RequestError(
            f"melds[{i}].type: {shown(raw_type)} is not one of chi, pon, daiminkan, kakan, ankan"
        )
    tiles = _field_tiles(raw.get("tiles"), "melds", i, ".tiles")
    src = raw.get("from")
    if src is not None and (isinstance(src, bool) or not isinstance(src, int)):
        raise RequestError(f"melds[{i}].from: expected a seat number, not {shown(src)}")
    called = raw.get("called")
    called_tile = None if called is None else _one_tile(called, "melds", i, ".called")
    try:
        return Meld(mtype, tiles, src, called_tile)
    except NotationError as e:
        raise NotationError(f"melds[{i}]: {e}") from None


def _as_dict(req: object) -> dict[str, Any]:
    """A request as a dict (look-ups on a dict compile to direct calls); anything but a mapping is refused."""
    if type(req) is dict:
        return req
    if not isinstance(req, Mapping):
        raise RequestError(f"a request must be a JSON object, not {type(req).__name__}")
    return dict(req)


def parse_win_request(
    req: Mapping[str, Any], *, allowed: frozenset[str] = _WIN_KEYS, rules: Rules | None = None
) -> tuple[Hand, Situation, Rules]:
    """A winning-hand request as tenbou objects (validated against the rules). ``allowed`` is the
    fields the request may have: those of a win (the default), or also the table's (``honba``...)."""
    request = _as_dict(req)
    if allowed is not _WIN_KEYS and allowed is not _SCORE_KEYS:
        _refuse_unknown(request, allowed)
        allowed = _SCORE_KEYS
    others = ("pao" in request) + ("rinshan_kan_from" in request)
    if allowed is _SCORE_KEYS:
        others += ("honba" in request) + ("riichi_sticks" in request) + ("wareme" in request)
    hand, situation, rules, _ = _parse_win(request, allowed, rules, others)
    return hand, situation, rules


def _parse_win(
    request: dict[str, Any], allowed: frozenset[str], rules: Rules | None, others: int
) -> tuple[Hand, Situation, Rules, bool]:
    """:func:`parse_win_request` of a dict whose fields may be those of ``allowed`` (``_WIN_KEYS`` or
    ``_SCORE_KEYS``); the fields are checked in the order of ``_FIELDS``. ``others`` is how many
    fields the request has of those the caller reads (``pao``, ``rinshan_kan_from``; ``honba``,
    ``riichi_sticks``, ``wareme`` of a ``score`` request). With the hand, situation and rules comes
    whether the request has more fields than the win's own and ``others``: fields of ``allowed``
    that the caller did not count (any other field is refused)."""
    # Each field is looked up once. When the fields found, with ``others``, are all the request
    # has, it has no unknown field, no flag but ``riichi`` (looked up with these: the one flag of
    # many requests) and no ``kita`` (a field of three-player games only, left out of most
    # requests); else the unknown fields are refused first, before any value is judged, and the
    # other flags and ``kita`` are read.
    absent = _ABSENT  # (a local: in pure Python, read faster than a global, and read here ~50 times)
    raw_rules = request.get("rules", absent)
    players = request.get("players", absent)
    winner = request.get("winner", absent)
    dealer = request.get("dealer", absent)
    discarder = request.get("from", absent)
    raw_wind = request.get("round_wind", absent)
    raw_hand = request.get("hand", absent)
    raw_win = request.get("win_tile", absent)
    raw_melds = request.get("melds", absent)
    raw_dora = request.get("dora_indicators", absent)
    raw_ura = request.get("ura_indicators", absent)
    riichi = request.get("riichi", absent)
    found = (
        others
        + (raw_rules is not absent) + (players is not absent) + (winner is not absent)
        + (dealer is not absent) + (discarder is not absent) + (raw_wind is not absent)
        + (raw_hand is not absent) + (raw_win is not absent) + (raw_melds is not absent)
        + (raw_dora is not absent) + (raw_ura is not absent) + (riichi is not absent)
    )  # fmt: skip
    flagged = found != len(request)
    if flagged:  # other flags, kita or an unknown field: the flags are looked up, and counted
        double_riichi = request.get("double_riichi", absent)
        ippatsu = request.get("ippatsu", absent)
        rinshan = request.get("rinshan", absent)
        chankan = request.get("chankan", absent)
        haitei = request.get("haitei", absent)
        houtei = request.get("houtei", absent)
        tenhou = request.get("tenhou", absent)
        chiihou = request.get("chiihou", absent)
        found += (
            (double_riichi is not absent) + (ippatsu is not absent) + (rinshan is not absent)
            + (chankan is not absent) + (haitei is not absent) + (houtei is not absent)
            + (tenhou is not absent) + (chiihou is not absent)
        )  # fmt: skip
        more = found != len(request)
        if more:  # renhou (left out by most requests that give flags), kita or an unknown field
            renhou = request.get("renhou", absent)
            kita = request.get("kita", absent)
            found += (renhou is not absent) + (kita is not absent)
            more = found != len(request)
            if more:  # a field that is none of these
                _refuse_unknown(request, allowed)
        else:
            renhou = kita = absent
    if rules is None:
        rules = rules_from_request("tenhou" if raw_rules is absent else raw_rules)
    if type(players) is not int or players not in rules.players:
        players = _players(players, rules)
    if type(winner) is not int or not 0 <= winner < players:
        if winner is absent or winner is None:
            raise RequestError("winner: missing (the winner's seat is required)")
        winner = _seat(winner, "winner", players)
    if dealer is absent:
        dealer = 0
    elif type(dealer) is not int or not 0 <= dealer < players:
        dealer = _seat(dealer, "dealer", players)
    if discarder is absent:
        discarder = None
    elif discarder is not None and (type(discarder) is not int or not 0 <= discarder < players):
        raise RequestError(
            f"from: expected the discarder's seat 0..{players - 1} or null for a tsumo, "
            f"not {shown(discarder)}"
        )
    if raw_wind is absent:
        raw_wind = "E"
    wind = _WINDS.get(raw_wind) if type(raw_wind) is str else None
    if wind is None:
        raise RequestError(f"round_wind: {shown(raw_wind)} is not one of E, S, W, N")
    # (any object until checked: a flag that is not true or false is refused here, by name: the
    # first of the request's, whichever test finds one)
    if riichi is not absent and riichi is not False and riichi is not True:
        _refuse_flags(request)
    riichi = riichi is True
    if flagged:
        if (
            (double_riichi is not False and double_riichi is not True and double_riichi is not absent)
            or (ippatsu is not False and ippatsu is not True and ippatsu is not absent)
            or (rinshan is not False and rinshan is not True and rinshan is not absent)
            or (chankan is not False and chankan is not True and chankan is not absent)
            or (haitei is not False and haitei is not True and haitei is not absent)
            or (houtei is not False and houtei is not True and houtei is not absent)
            or (tenhou is not False and tenhou is not True and tenhou is not absent)
            or (chiihou is not False and chiihou is not True and chiihou is not absent)
            or (renhou is not False and renhou is not True and renhou is not absent)
        ):
            _refuse_flags(request)
        double_riichi = double_riichi is True
        ippatsu = ippatsu is True
        rinshan = rinshan is True
        chankan = chankan is True
        haitei = haitei is True
        houtei = houtei is True
        tenhou = tenhou is True
        chiihou = chiihou is True
        renhou = renhou is True
    else:  # no flag given but riichi (the others false), no kita: none to look up
        double_riichi = ippatsu = rinshan = chankan = False
        haitei = houtei = tenhou = chiihou = renhou = False
        kita = absent
        more = False
    hand = _read_hand(raw_hand, raw_win, raw_melds)
    if kita is absent:
        kita = 0
    elif type(kita) is not int or not 0 <= kita <= _MAX_KITA:
        kita = _number(kita, "kita", _MAX_KITA)
    situation = Situation(
        players,
        dealer,
        winner,
        discarder,
        wind,
        riichi,
        double_riichi,
        ippatsu,
        rinshan,
        chankan,
        haitei,
        houtei,
        tenhou,
        chiihou,
        renhou,
        _indicators(raw_dora, "dora_indicators"),
        () if raw_ura is absent else _indicators(raw_ura, "ura_indicators"),  # (often left out: no call)
        kita,
    )
    return hand, situation, rules, more


def _refuse_flags(request: dict[str, Any]) -> None:
    """Refuse the first flag of the request that is not true or false."""
    for name in _FLAGS:
        flag = request.get(name, False)
        if flag is not False and flag is not True:
            raise RequestError(f"{name}: expected true or false, not {shown(flag)}")


def _seat(value: object, field: str, players: int) -> int:
    """A seat field: an integer 0..players-1."""
    if type(value) is not int or not 0 <= value < players:
        raise RequestError(f"{field}: expected a seat 0..{players - 1}, not {shown(value)}")
    return value


def request_hand(request: Mapping[str, Any]) -> Hand:
    """The hand of a winning-hand request: its ``hand``, ``win_tile`` and ``melds``, read and
    checked as :func:`score` reads them (the other fields are not looked at). ``str()`` of it is
    the hand's canonical text (:mod:`tenbou.hand`), whatever order the request wrote the tiles in.

    >>> str(request_hand({"hand": "55s23s123m456p789s", "win_tile": "4s"}))
    '123m456p2355789s +4s'
    """
    request = _as_dict(request)
    return _read_hand(
        request.get("hand", _ABSENT), request.get("win_tile", _ABSENT), request.get("melds", _ABSENT)
    )


def _read_hand(raw_hand: object, raw_win: object, raw_melds: object) -> Hand:
    """The :class:`~tenbou.hand.Hand` of a request's ``hand``, ``win_tile`` and ``melds`` fields
    (``_ABSENT`` for a field the request does not have)."""
    absent = _ABSENT
    if raw_hand is absent:
        raise RequestError("hand: missing (the concealed tiles without the winning tile)")
    # (a string is read by parse_tiles, without the call to _field_tiles; anything else, and a string
    # that parse_tiles refuses, by _field_tiles, whose error names the field)
    if type(raw_hand) is str:
        try:
            concealed = parse_tiles(raw_hand)
        except NotationError:
            concealed = _field_tiles(raw_hand, "hand")
    else:
        concealed = _field_tiles(raw_hand, "hand")
    if raw_win is absent:
        raise RequestError("win_tile: missing")
    # (the usual one tile's text looked up here, as _one_tile would: no call)
    win = _TILE_BY_TEXT.get(raw_win) if type(raw_win) is str else None
    if win is None:
        win = _one_tile(raw_win, "win_tile")
    if raw_melds is None or raw_melds is absent:
        melds: tuple[Meld, ...] = ()
    elif type(raw_melds) is not list:
        raise RequestError(f"melds: expected a list, not {shown(raw_melds)}")
    elif len(raw_melds) > _MAX_MELDS:
        raise RequestError(f"melds: at most {_MAX_MELDS} melds, not {len(raw_melds)}")
    else:  # (a tuple of each length, from the list: no list to build and copy)
        n = len(raw_melds)
        if n == 1:
            melds = (_meld(raw_melds[0], 0),)
        elif n == 2:
            melds = (_meld(raw_melds[0], 0), _meld(raw_melds[1], 1))
        elif n == 3:
            melds = (_meld(raw_melds[0], 0), _meld(raw_melds[1], 1), _meld(raw_melds[2], 2))
        elif n == 4:
            melds = (
                _meld(raw_melds[0], 0), _meld(raw_melds[1], 1), _meld(raw_melds[2], 2), _meld(raw_melds[3], 3)
            )  # fmt: skip
        else:
            melds = ()
    try:
        hand = Hand(concealed, melds, win)
    except NotationError as e:
        raise NotationError(f"hand: {e}") from None
    return hand


def _liabilities(
    raw_pao: object, raw_kan_from: object, hand: Hand, hs: HandScore, where: str = ""
) -> tuple[Liability, ...]:
    """The liabilities of a win: explicit ``pao`` (``raw_pao``, the field's value or ``_ABSENT``) or
    inferred from the melds, plus daiminkan pao on a rinshan win (``rinshan_kan_from``: a seat, or
    ``null`` for none; left out, it is read from a daiminkan as the last meld)."""
    s = hs.situation
    if raw_pao is _ABSENT and raw_kan_from is _ABSENT and not hs.yakuman and not s.rinshan:
        return ()  # the usual win: no yakuman, no rinshan, nothing asked
    rules = hs.rules
    yakuman = [y.yaku.id for y in hs.yaku if y.yakuman]
    out: list[Liability] = []
    if raw_pao is not _ABSENT:
        if not isinstance(raw_pao, list):
            raise RequestError(f"{where}pao: expected a list of {{yaku, seat}} objects, not {shown(raw_pao)}")
        for i, item in enumerate(raw_pao):
            field = f"{where}pao[{i}]"
            if (
                not isinstance(item, Mapping)
                or set(item) - {"yaku", "seat"}
                or "yaku" not in item
                or "seat" not in item
            ):
                raise RequestError(f"{field}: expected an object with 'yaku' and 'seat', not {shown(item)}")
            yaku = item["yaku"]
            if type(yaku) is not str or yaku not in yakuman:
                raise RequestError(
                    f"{field}.yaku: {shown(yaku)} is not a yakuman of this hand "
                    f"({', '.join(yakuman) or 'it has none'})"
                )
            if any(x.yaku == yaku for x in out):
                raise RequestError(f"{field}.yaku: {yaku!r} is named twice (a yakuman has one liable player)")
            seat = _seat(item["seat"], f"{field}.seat", s.players)
            if seat == s.winner:
                raise RequestError(f"{field}.seat: the winner cannot be liable for their own hand")
            out.append(Liability(yaku, seat, "explicit"))
    else:
        out.extend(liabilities(hand.melds, s.winner, yakuman, rules))
    kan_from = None if raw_kan_from is _ABSENT else raw_kan_from
    if kan_from is not None:
        kan_from = _seat(kan_from, f"{where}rinshan_kan_from", s.players)
        if not s.rinshan:
            raise RequestError(f"{where}rinshan_kan_from: only for a rinshan win (set rinshan)")
        if not any(m.type is MeldType.DAIMINKAN and m.from_seat == kan_from for m in hand.melds):
            raise RequestError(
                f"{where}rinshan_kan_from: the hand has no daiminkan called from seat {kan_from}"
            )
    kan_pao = rinshan_liability(hand.melds, rules, s.rinshan, kan_from, raw_kan_from is not _ABSENT)
    if kan_pao is not None:
        out.append(kan_pao)
    return tuple(out)


def _wareme(value: object, players: int, rules: Rules) -> int | None:
    """``wareme``: a seat, under rules that play wareme (``null`` or left out: none)."""
    if value is None or value is _ABSENT:
        return None
    seat = _seat(value, "wareme", players)
    if not rules.wareme:
        raise RequestError("wareme: these rules play without wareme (割れ目)")
    return seat


def score(request: Mapping[str, Any]) -> dict[str, Any]:
    """Score and settle one winning hand (see ``docs/json-api.md``).

    Raises :class:`~tenbou.errors.TenbouError` on bad input.
    """
    req = request if type(request) is dict else _as_dict(request)  # (the usual dict: no call)
    honba = req.get("honba", _ABSENT)
    sticks = req.get("riichi_sticks", _ABSENT)
    # (``wareme``, ``pao`` and ``rinshan_kan_from``, left out of most requests, are looked up only
    # when _parse_win finds fields it did not read, nor these two)
    hand, situation, rules, more = _parse_win(
        req, _SCORE_KEYS, None, (honba is not _ABSENT) + (sticks is not _ABSENT)
    )
    if more:
        wareme = req.get("wareme", _ABSENT)
        raw_pao = req.get("pao", _ABSENT)
        raw_kan_from = req.get("rinshan_kan_from", _ABSENT)
    else:
        wareme = raw_pao = raw_kan_from = _ABSENT
    if honba is _ABSENT:
        honba = 0
    elif type(honba) is not int or not 0 <= honba <= _MAX_HONBA:
        honba = _number(honba, "honba", _MAX_HONBA)
    if sticks is _ABSENT:
        sticks = 0
    elif type(sticks) is not int or not 0 <= sticks <= _MAX_STICKS:
        sticks = _number(sticks, "riichi_sticks", _MAX_STICKS)
    hs = scored_or_refused(hand, situation, rules)
    if not isinstance(hs, HandScore):  # (a refused hand: its error raised here, passing one frame)
        raise InvalidHandError(*hs)
    pao = _liabilities(raw_pao, raw_kan_from, hand, hs)
    if wareme is _ABSENT:
        wareme = None
    elif wareme is not None:
        wareme = _wareme(wareme, situation.players, rules)
    payments, deltas, chips, points = settle_win_parts(hs, pao, honba, sticks, wareme)
    return win_to_dict(hs, pao, payments, deltas, chips, points)


_SETTLE_KEYS: Final = frozenset(
    {"rules", "players", "dealer", "round_wind", "honba", "riichi_sticks", "wareme", "wins", "draw"}
)
_SHARED: Final = ("rules", "players", "dealer", "round_wind")
_DRAW_KEYS: Final = frozenset({"kind", "tenpai", "nagashi", "reason"})
#: the reasons of an abortive draw: those of ``abortive_draws`` and a triple ron
_DRAW_REASONS: Final = (*ABORTIVE_DRAWS, "sanchahou")


def settle(request: Mapping[str, Any]) -> dict[str, Any]:
    """Settle the end of a hand: one or more wins, or a draw (see ``docs/json-api.md``).

    >>> out = settle({"rules": "tenhou", "dealer": 0, "honba": 1, "riichi_sticks": 0,
    ...               "draw": {"kind": "exhaustive", "tenpai": [0, 2]}})
    >>> out["deltas"], out["next"]
    ([1500, -1500, 1500, -1500], {'dealer': 0, 'honba': 2, 'riichi_sticks': 0})
    """
    return settlement_to_dict(settle_request(request))


def settle_request(request: Mapping[str, Any], *, rules: Rules | None = None) -> Settlement:
    """:func:`settle` returning the :class:`~tenbou.payment.Settlement` itself.
    With ``rules`` given (as the round engine does), the request has no ``rules`` field."""
    request = _as_dict(request)
    if not _SETTLE_KEYS.issuperset(request):
        raise RequestError(f"unknown field {shown(next(k for k in request if k not in _SETTLE_KEYS))}")
    # the fields a win shares with the request: their values (or defaults), which a win may repeat
    shared: dict[str, Any] = {}
    if rules is None:
        shared["rules"] = request.get("rules", "tenhou")
        rules = rules_from_request(shared["rules"])
    elif "rules" in request:
        raise RequestError("rules: given twice (in the request and as an argument)")
    players = _players(request.get("players", _ABSENT), rules)
    dealer = _seat(request.get("dealer", 0), "dealer", players)
    shared.update(players=players, dealer=dealer, round_wind=request.get("round_wind", "E"))
    honba = _number(request.get("honba", 0), "honba", _MAX_HONBA)
    sticks = _number(request.get("riichi_sticks", 0), "riichi_sticks", _MAX_STICKS)
    wareme = _wareme(request.get("wareme"), players, rules)
    has_wins, has_draw = "wins" in request, "draw" in request
    if has_wins == has_draw:
        raise RequestError("give exactly one of 'wins' (a list of wins) and 'draw'")
    if has_draw:
        settlement = _settle_draw(request["draw"], rules, players, dealer, honba, sticks)
    else:
        raw_wins = request["wins"]
        if not isinstance(raw_wins, list) or not raw_wins:
            raise RequestError(f"wins: expected a non-empty list of winning hands, not {shown(raw_wins)}")
        if len(raw_wins) > players - 1:
            raise RequestError(
                f"wins: at most {players - 1} wins (one tsumo, or a ron by each player but the "
                f"discarder), not {len(raw_wins)}"
            )
        wins = []
        for i, win in enumerate(raw_wins):
            where = f"wins[{i}]."
            if not isinstance(win, Mapping):
                raise RequestError(f"wins[{i}]: expected an object, not {shown(win)}")
            merged = dict(win)
            for key in _SHARED:
                if key in win:
                    if key not in shared:
                        raise RequestError(f"{where}{key}: the rules are given as an argument")
                    mine, theirs = win[key], shared[key]
                    if type(mine) is not type(theirs) or mine != theirs:
                        default = "" if key in request else " (its default)"
                        raise RequestError(
                            f"{where}{key}: {shown(mine)} differs from the request's {shown(theirs)}{default}"
                        )
            merged.pop("rules", None)
            merged.update(players=players, dealer=dealer, round_wind=shared["round_wind"])
            for key in ("honba", "riichi_sticks", "wareme"):
                if key in win:
                    raise RequestError(f"{where}{key}: give it once, at the top of the request")
            try:
                raw_pao, raw_kan_from = merged.get("pao", _ABSENT), merged.get("rinshan_kan_from", _ABSENT)
                others = (raw_pao is not _ABSENT) + (raw_kan_from is not _ABSENT)
                hand, situation, _, _ = _parse_win(merged, _WIN_KEYS, rules, others)
                hs = score_hand(hand, situation, rules)
                wins.append((hs, _liabilities(raw_pao, raw_kan_from, hand, hs, where)))
            except TenbouError as e:
                raise type(e)(f"wins[{i}]: {e}" if not str(e).startswith(where) else str(e), e.code) from None
        settlement = settle_wins(wins, honba, sticks, wareme)
    return settlement


def _settle_draw(raw: object, rules: Rules, players: int, dealer: int, honba: int, sticks: int) -> Settlement:
    if not isinstance(raw, Mapping):
        raise RequestError(f"draw: expected an object with 'kind', not {shown(raw)}")
    if not _DRAW_KEYS.issuperset(raw):
        raise RequestError(f"draw: unknown field {shown(next(k for k in raw if k not in _DRAW_KEYS))}")
    kind = raw.get("kind")
    if kind not in ("exhaustive", "abortive"):
        raise RequestError(f"draw.kind: {shown(kind)} is not 'exhaustive' or 'abortive'")
    seats: dict[str, list[int]] = {}
    for name in ("tenpai", "nagashi"):
        value = raw.get(name, [])
        if not isinstance(value, list):
            raise RequestError(f"draw.{name}: expected a list of seats, not {shown(value)}")
        seats[name] = [_seat(v, f"draw.{name}[{i}]", players) for i, v in enumerate(value)]
        if len(set(seats[name])) != len(seats[name]):
            raise RequestError(f"draw.{name}: a seat is listed twice")
    if kind == "abortive" and (seats["tenpai"] or seats["nagashi"]):
        raise RequestError("draw: an abortive draw has no tenpai or nagashi")
    if seats["nagashi"] and rules.nagashi_mangan == "none":
        raise RequestError("draw.nagashi: these rules play without nagashi mangan")
    reason = raw.get("reason")
    if reason is not None:
        if kind != "abortive":
            raise RequestError("draw.reason: only an abortive draw has a reason")
        if type(reason) is not str or reason not in _DRAW_REASONS:
            raise RequestError(f"draw.reason: {shown(reason)} is not one of {', '.join(_DRAW_REASONS)}")
    return settle_draw(
        rules, players, dealer, honba, sticks, str(kind), seats["tenpai"], seats["nagashi"], reason
    )


def error_to_dict(error: TenbouError) -> dict[str, Any]:
    """The JSON error object for an error."""
    return error.to_dict()


# -- reading JSON ------------------------------------------------------------------------------------

#: how deeply a request read by :func:`loads_request` may nest arrays and objects (a request of
#: docs/json-api.md nests five deep at most)
MAX_DEPTH: Final = 20
#: how many digits an integer of a request read by :func:`loads_request` may have
MAX_INT_DIGITS: Final = 20
_STRING: Final = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET: Final = re.compile(r"[^\[\]{}]+")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen = set()
        for key, _ in pairs:
            if key in seen:
                raise RequestError(f"the key {shown(key)} is given twice in one object")
            seen.add(key)
    return obj


def _integer(text: str) -> int:
    if len(text) > MAX_INT_DIGITS + (text[0] == "-"):
        raise RequestError(f"an integer of {len(text.lstrip('-'))} digits (at most {MAX_INT_DIGITS})")
    return int(text)


def _constant(text: str) -> Any:
    raise RequestError(f"{text} is not JSON (numbers are finite)")


_DECODER: Final = json.JSONDecoder(object_pairs_hook=_object, parse_int=_integer, parse_constant=_constant)


def _check_depth(text: str) -> None:
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return  # the usual request: too few brackets to nest deeper
    depth = 0
    for c in _NOT_BRACKET.sub("", _STRING.sub("", text)):
        if c == "[" or c == "{":
            depth += 1
            if depth > MAX_DEPTH:
                raise RequestError(f"the request nests arrays and objects more than {MAX_DEPTH} deep")
        else:
            depth -= 1


def _check_text(value: object) -> None:
    """Refuse a string with a lone surrogate (from a ``\\ud800`` escape): it is not Unicode text."""
    if type(value) is str:
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise RequestError(f"{shown(value)} is not Unicode text (a lone surrogate escape)") from None
    elif type(value) is list:
        for item in value:
            _check_text(item)
    elif type(value) is dict:
        for key, item in value.items():
            _check_text(key)
            _check_text(item)


def loads_request(data: bytes | str) -> Any:
    """Read one JSON request strictly: UTF-8 (for bytes), standard JSON only, and within limits.
    Refused with :class:`~tenbou.errors.RequestError` (code ``request``): bytes that are not
    UTF-8, text that is not JSON (``NaN`` and ``Infinity`` included), a key given twice in one
    object, an integer of more than :data:`MAX_INT_DIGITS` digits, arrays and objects nested more
    than :data:`MAX_DEPTH` deep, a lone surrogate escape (``"\\ud800"``), an empty input.
    The value is returned as read (:func:`score` and :func:`settle` refuse what is not an object).

    >>> loads_request(b'{"winner": 1, "hand": "23m55p"}')
    {'winner': 1, 'hand': '23m55p'}
    >>> loads_request('{"riichi": true, "riichi": false}')
    Traceback (most recent call last):
    ...
    tenbou.errors.RequestError: the key 'riichi' is given twice in one object
    """
    if isinstance(data, bytes | bytearray | memoryview):
        raw = bytes(data)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise RequestError(
                f"the request is not UTF-8: {shown(raw[e.start : e.start + 4])} at byte {e.start}"
            ) from None
    elif isinstance(data, str):
        text = data
    else:
        raise RequestError(f"a request is JSON text (bytes or str), not {type(data).__name__}")
    if not text.strip():
        raise RequestError("the request is missing (empty input; a JSON object is required)")
    _check_depth(text)
    try:
        value = _DECODER.decode(text)
    except json.JSONDecodeError as e:
        raise RequestError(
            f"the request is not valid JSON: {e.msg} at line {e.lineno} column {e.colno}"
        ) from None
    except RecursionError:  # pragma: no cover - _check_depth refuses any nesting this deep
        raise RequestError(f"the request nests arrays and objects more than {MAX_DEPTH} deep") from None
    if "\\u" in text:
        _check_text(value)
    return value
