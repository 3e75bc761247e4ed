"""Reading a request of the JSON façade (docs/json-api.md) into tenbou's values: the fields of a
win (:func:`parse_win_request`: a hand, its situation, the rules), tiles, melds, indicators,
seats and numbers, each refused with the field named; the liabilities a win's request names or
the rules infer (:func:`tenbou.settle.pao.win_liabilities`); and the request's JSON itself
(:func:`loads_request`, the strict reader of :mod:`tenbou._jsonread`).

>>> loads_request(b'{"winner": 1, "hand": "23m55p"}')
{'winner': 1, 'hand': '23m55p'}
>>> loads_request('{"riichi": true, "riichi": false}')
Traceback (most recent call last):
...
tenbou.errors.RequestError: the key 'riichi' is given twice in one object
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, TypeAlias

from .._jsonread import MAX_DEPTH, MAX_INT_DIGITS, read_json
from ..core.hand import Hand, Meld, MeldType, Situation
from ..core.scoring import HandScore
from ..core.tiles import Tile, Wind, parse_tiles
from ..errors import NotationError, RequestError, TenbouError, shown
from ..rules import Rules, rules_from_request
from ..settle.pao import Liability, win_liabilities

__all__ = [
    "MAX_DEPTH",
    "MAX_INT_DIGITS",
    "error_to_dict",
    "loads_request",
    "parse_win_request",
    "request_hand",
]

_FLAGS: Final = (
    "riichi", "double_riichi", "ippatsu", "rinshan", "chankan", "haitei", "houtei",
    "tenhou", "chiihou", "renhou", "fourth_kan",
)  # fmt: skip
#: the fields of a winning-hand request: the win's own, then the table's honba, riichi sticks and
#: wareme, which only ``score`` takes
_FIELDS: Final = (
    "rules", "players", "dealer", "round_wind", "winner", "from", "hand", "melds", "win_tile",
    "dora_indicators", "ura_indicators", "kita", "pao", "rinshan_kan_from", "kan_order", *_FLAGS,
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
    others = ("pao" in request) + ("rinshan_kan_from" in request) + ("kan_order" in request)
    if allowed is _SCORE_KEYS:
        others += ("honba" in request) + ("riichi_sticks" in request) + ("wareme" in request)
    hand, situation, rules, _ = _parse_win(request, allowed, rules, others)
    return hand, situation, rules


def _parse_win(
    request: dict[str, Any], allowed: frozenset[str], rules: Rules | None, others: int
) -> tuple[Hand, Situation, Rules, bool]:
    """:func:`parse_win_request` of a dict whose fields may be those of ``allowed`` (``_WIN_KEYS`` or
    ``_SCORE_KEYS``); the fields are checked in the order of ``_FIELDS``. ``others`` is how many
    fields the request has of those the caller reads (``pao``, ``rinshan_kan_from``, ``kan_order``; ``honba``,
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
        raw_flags, kita, more = _look_up_flags(request, allowed, found)
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
        (double_riichi, ippatsu, rinshan, chankan, haitei, houtei, tenhou, chiihou, renhou, fourth_kan) = (
            _flag_values(request, raw_flags)
        )
    else:  # no flag given but riichi (the others false), no kita: none to look up
        double_riichi = ippatsu = rinshan = chankan = False
        haitei = houtei = tenhou = chiihou = renhou = fourth_kan = False
        kita = _ABSENT
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
        fourth_kan,
    )
    return hand, situation, rules, more


#: the flags of a win but ``riichi`` as a request gives them (``_ABSENT`` where left out), and as
#: booleans: in the order double_riichi, ippatsu, rinshan, chankan, haitei, houtei, tenhou,
#: chiihou, renhou, fourth_kan (fixed-length tuples: the compiled build passes them unboxed)
_RawFlags: TypeAlias = tuple[Any, Any, Any, Any, Any, Any, Any, Any, Any, Any]
_Flags: TypeAlias = tuple[bool, bool, bool, bool, bool, bool, bool, bool, bool, bool]


def _look_up_flags(
    request: dict[str, Any], allowed: frozenset[str], found: int
) -> tuple[_RawFlags, Any, bool]:
    """The request's flags other than ``riichi`` as given, its ``kita``, and whether it has fields
    beyond these and the ``found`` ones that the caller did not count; a field that is none of
    ``allowed`` is refused here, before any value is judged. ``renhou``, ``fourth_kan`` and
    ``kita`` (left out by most requests that give flags) are looked up only when the others do
    not account for every field."""
    absent = _ABSENT
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
    if more:  # renhou, fourth_kan, kita or another field
        renhou = request.get("renhou", absent)
        fourth_kan = request.get("fourth_kan", absent)
        kita = request.get("kita", absent)
        found += (renhou is not absent) + (fourth_kan is not absent) + (kita is not absent)
        more = found != len(request)
        if more:  # a field that is none of these
            _refuse_unknown(request, allowed)
    else:
        renhou = fourth_kan = kita = absent
    raw = (double_riichi, ippatsu, rinshan, chankan, haitei, houtei, tenhou, chiihou, renhou, fourth_kan)
    return raw, kita, more


def _flag_values(request: dict[str, Any], raw: _RawFlags) -> _Flags:
    """The flags :func:`_look_up_flags` found, as booleans (a flag left out is false); a flag that
    is neither true nor false is refused by name (the first of the request's)."""
    double_riichi, ippatsu, rinshan, chankan, haitei, houtei, tenhou, chiihou, renhou, fourth_kan = raw
    absent = _ABSENT
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
        or (fourth_kan is not False and fourth_kan is not True and fourth_kan is not absent)
    ):
        _refuse_flags(request)
    return (
        double_riichi is True, ippatsu is True, rinshan is True, chankan is True, haitei is True,
        houtei is True, tenhou is True, chiihou is True, renhou is True, fourth_kan is True,
    )  # fmt: skip


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
    raw_pao: object, raw_kan_from: object, raw_kan_order: object, hand: Hand, hs: HandScore, where: str = ""
) -> tuple[Liability, ...]:
    """The liabilities of a win (:func:`tenbou.settle.pao.win_liabilities`): explicit ``pao`` (``raw_pao``,
    the field's value or ``_ABSENT``) or inferred from the melds (the kans in ``kan_order``, or in
    call order), plus daiminkan pao on a rinshan win (``rinshan_kan_from``: a seat, or ``null`` for
    none; left out, it is read from a daiminkan as the last meld)."""
    s = hs.situation
    if (
        raw_pao is _ABSENT
        and raw_kan_from is _ABSENT
        and raw_kan_order is _ABSENT
        and not hs.yakuman
        and not s.rinshan
    ):
        return ()  # the usual win: no yakuman, no rinshan, nothing asked
    kan_order = _kan_order(raw_kan_order, hand.melds, where)
    named: list[Liability] | None = None
    if raw_pao is not _ABSENT:
        yakuman = [y.yaku.id for y in hs.yaku if y.yakuman]
        named = []
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
            if any(x.yaku == yaku for x in named):
                raise RequestError(f"{field}.yaku: {yaku!r} is named twice (a yakuman has one liable player)")
            seat = _seat(item["seat"], f"{field}.seat", s.players)
            if seat == s.winner:
                raise RequestError(f"{field}.seat: the winner cannot be liable for their own hand")
            named.append(Liability(yaku, seat, "explicit"))
    kan_from = None if raw_kan_from is _ABSENT else raw_kan_from
    if kan_from is not None:
        kan_from = _seat(kan_from, f"{where}rinshan_kan_from", s.players)
        if not s.rinshan:
            raise RequestError(f"{where}rinshan_kan_from: only for a rinshan win (set rinshan)")
        if not any(m.type is MeldType.DAIMINKAN and m.from_seat == kan_from for m in hand.melds):
            raise RequestError(
                f"{where}rinshan_kan_from: the hand has no daiminkan called from seat {kan_from}"
            )
    return win_liabilities(
        hs,
        kan_order=kan_order,
        kan_from=kan_from,
        kan_from_named=raw_kan_from is not _ABSENT,
        named=named,
    )


def _kan_order(raw: object, melds: tuple[Meld, ...], where: str) -> list[int] | None:
    """``kan_order``: the indices in ``melds`` of the kans, in the order they were declared (``null`` or
    left out: the call order). Each kan once; a kan that was declared before a meld was called (an
    ankan or daiminkan before any later meld) comes before it: only a kakan is declared later than
    its place in the call order."""
    if raw is _ABSENT or raw is None:
        return None
    field = f"{where}kan_order"
    kans = [i for i, m in enumerate(melds) if m.is_kan]
    if type(raw) is not list or any(type(i) is not int for i in raw):
        raise RequestError(f"{field}: expected a list of indices of the kans in melds, not {shown(raw)}")
    order: list[int] = raw
    if sorted(order) != kans:
        raise RequestError(f"{field}: {shown(order)} must list each kan of melds once (kans: melds {kans})")
    place = {k: p for p, k in enumerate(order)}
    for k in order:
        for j in kans:
            if j < k and melds[j].type is not MeldType.KAKAN and place[j] > place[k]:
                raise RequestError(
                    f"{field}: melds[{k}] comes before melds[{j}], which was declared before melds[{k}] "
                    "was called (only a kakan is declared after a later call)"
                )
    return order


def _wareme(value: object, players: int, rules: Rules) -> int | None:
    """``wareme``: a seat, under rules that play wareme (``null`` or left out: none)."""
    if value is None or value is _ABSENT:
        return None
    seat = _seat(value, "wareme", players)
    if not rules.wareme:
        raise RequestError("wareme: these rules play without wareme (割れ目)")
    return seat


def error_to_dict(error: TenbouError) -> dict[str, Any]:
    """The JSON error object for an error."""
    return error.to_dict()


def loads_request(data: bytes | str) -> Any:
    """Read one JSON request strictly (:func:`tenbou._jsonread.read_json`): UTF-8 (for bytes),
    standard JSON only, and within limits. Refused with :class:`~tenbou.errors.RequestError` (code
    ``request``): bytes that are not UTF-8, text that is not JSON (``NaN`` and ``Infinity``
    included), a key given twice in one object, an integer of more than :data:`MAX_INT_DIGITS`
    digits, arrays and objects nested more than :data:`MAX_DEPTH` deep, a lone surrogate escape
    (``"\\ud800"``), an empty input. The value is returned as read (:func:`~tenbou.api.score` and
    :func:`~tenbou.api.settle` refuse what is not an object)."""
    return read_json(data)
