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

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from .errors import NotationError, RequestError, TenbouError
from .hand import Hand, Meld, MeldType, Situation
from .payment import PaymentKind, deltas, win_payments
from .rules import Rules, rules_from_request
from .scoring import HandScore, score_hand
from .tiles import Tile, Wind, parse_tiles

__all__ = ["hand_score_to_dict", "parse_win_request", "score"]

_FLAGS = (
    "riichi", "double_riichi", "ippatsu", "rinshan", "chankan", "haitei", "houtei",
    "tenhou", "chiihou", "renhou",
)  # fmt: skip
_WIN_KEYS = frozenset(
    {
        "rules", "players", "dealer", "round_wind", "winner", "from", "hand", "melds", "win_tile",
        "dora_indicators", "ura_indicators", "kita", "honba", "riichi_sticks",
        *_FLAGS,
    }
)  # fmt: skip
_MELD_KEYS = frozenset({"type", "tiles", "from", "called"})
_MELD_TYPES = {t.value: t for t in MeldType}
_WINDS = {w.value: w for w in Wind}


@lru_cache(maxsize=4096)
def _tiles(text: str) -> tuple[Tile, ...]:
    return parse_tiles(text)


def _field_tiles(value: object, field: str) -> tuple[Tile, ...]:
    if not isinstance(value, str):
        raise RequestError(f"{field}: expected tiles in mpsz notation (a string), not {value!r}")
    try:
        return _tiles(value)
    except NotationError as e:
        raise NotationError(f"{field}: {e}") from None


def _one_tile(value: object, field: str) -> Tile:
    tiles = _field_tiles(value, field)
    if len(tiles) != 1:
        raise NotationError(f"{field}: expected one tile, not {value!r}")
    return tiles[0]


def _int(req: Mapping[str, Any], key: str, default: int | None = None, field: str | None = None) -> int:
    value = req.get(key, default)
    name = field or key
    if value is None:
        raise RequestError(f"{name}: missing (an integer is required)")
    if isinstance(value, bool) or not isinstance(value, int):
        raise RequestError(f"{name}: expected an integer, not {value!r}")
    return value


def _count(req: Mapping[str, Any], key: str) -> int:
    value = _int(req, key, 0)
    if value < 0:
        raise RequestError(f"{key}: must not be negative, not {value}")
    return value


def _indicators(req: Mapping[str, Any], key: str) -> tuple[Tile, ...]:
    value = req.get(key)
    if value is None or value == []:
        return ()
    if type(value) is list:
        return tuple([_one_tile(v, f"{key}[{i}]") for i, v in enumerate(value)])
    if type(value) is str:
        return _field_tiles(value, key)
    raise RequestError(f"{key}: expected a list of tiles, not {value!r}")


def _meld(obj: object, i: int) -> Meld:
    field = f"melds[{i}]"
    if not isinstance(obj, Mapping):
        raise RequestError(f"{field}: expected an object with type, tiles and from, not {obj!r}")
    bad = set(obj) - _MELD_KEYS
    if bad:
        raise RequestError(f"{field}: unknown field {sorted(bad)[0]!r} (expected type, tiles, from, called)")
    raw_type = obj.get("type")
    mtype = _MELD_TYPES.get(raw_type) if isinstance(raw_type, str) else None
    if mtype is None:
        raise RequestError(
            f"{field}.type: {obj.get('type')!r} is not one of chi, pon, daiminkan, kakan, ankan"
        )
    tiles = _field_tiles(obj.get("tiles"), f"{field}.tiles")
    src = obj.get("from")
    if src is not None and (isinstance(src, bool) or not isinstance(src, int)):
        raise RequestError(f"{field}.from: expected a seat number, not {src!r}")
    called = obj.get("called")
    called_tile = None if called is None else _one_tile(called, f"{field}.called")
    try:
        return Meld(mtype, tiles, src, called_tile)
    except NotationError as e:
        raise NotationError(f"{field}: {e}") from None


def parse_win_request(
    req: Mapping[str, Any], *, allowed: frozenset[str] = _WIN_KEYS, rules: Rules | None = None
) -> tuple[Hand, Situation, Rules]:
    """A winning-hand request as tenbou objects (validated against the rules)."""
    if not isinstance(req, Mapping):
        raise RequestError(f"a request must be a JSON object, not {type(req).__name__}")
    if not allowed.issuperset(req):
        raise RequestError(f"unknown field {next(k for k in req if k not in allowed)!r}")
    get = req.get
    if rules is None:
        rules = rules_from_request(get("rules", "tenhou"))
    players = get("players", rules.players[0])
    players = players if type(players) is int else _int(req, "players")
    winner = get("winner")
    winner = winner if type(winner) is int else _int(req, "winner")
    dealer = get("dealer", 0)
    dealer = dealer if type(dealer) is int else _int(req, "dealer")
    discarder = get("from")
    if discarder is not None and type(discarder) is not int:
        raise RequestError(f"from: expected the discarder's seat or null for a tsumo, not {discarder!r}")
    raw_wind = get("round_wind", "E")
    wind = _WINDS.get(raw_wind) if type(raw_wind) is str else None
    if wind is None:
        raise RequestError(f"round_wind: {raw_wind!r} is not one of E, S, W, N")
    flags = [get(name, False) for name in _FLAGS]
    for name, v in zip(_FLAGS, flags, strict=True):
        if type(v) is not bool:
            raise RequestError(f"{name}: expected true or false, not {v!r}")
    if "hand" not in req:
        raise RequestError("hand: missing (the concealed tiles without the winning tile)")
    concealed = _field_tiles(req["hand"], "hand")
    if "win_tile" not in req:
        raise RequestError("win_tile: missing")
    win = _one_tile(req["win_tile"], "win_tile")
    raw_melds = get("melds") or ()
    if type(raw_melds) is not list and raw_melds != ():
        raise RequestError(f"melds: expected a list, not {raw_melds!r}")
    melds = tuple([_meld(m, i) for i, m in enumerate(raw_melds)])
    try:
        hand = Hand(concealed, melds, win)
    except NotationError as e:
        raise NotationError(f"hand: {e}") from None
    kita = get("kita", 0)
    if type(kita) is not int or kita < 0:
        kita = _count(req, "kita")
    situation = Situation._make(
        (
            players,
            dealer,
            winner,
            discarder,
            wind,
            *flags,
            _indicators(req, "dora_indicators"),
            _indicators(req, "ura_indicators"),
            kita,
        )
    )
    return hand, situation, rules


def hand_score_to_dict(hs: HandScore) -> dict[str, Any]:
    """The winning-hand output fields of a :class:`HandScore` (no payments)."""
    s = hs.situation
    yaku = []
    for y in hs.yaku:
        entry: dict[str, Any] = {
            "id": y.yaku.id,
            "name": y.yaku.name,
            "name_ja": y.yaku.name_ja,
            "han": y.han,
        }
        if y.yakuman:
            entry["yakuman"] = y.yakuman
        yaku.append(entry)
    r = hs.reading
    return {
        "han": hs.han,
        "fu": hs.fu,
        "limit": hs.limit._value_ if hs.limit else None,
        "base_points": hs.base_points,
        "yaku": yaku,
        "fu_breakdown": [{"reason": i.reason, "fu": i.fu} for i in hs.fu_breakdown],
        "winner": s.winner,
        "from": s.discarder,
        "dealer": s.is_dealer,
        "wait": r.wait._value_,
        "form": r.form._value_,
    }


def score(request: Mapping[str, Any]) -> dict[str, Any]:
    """Score one winning hand (see ``docs/json-api.md``).

    Raises :class:`~tenbou.errors.TenbouError` on bad input.
    """
    hand, situation, rules = parse_win_request(request)
    honba = _count(request, "honba")
    sticks = _count(request, "riichi_sticks")
    hs = score_hand(hand, situation, rules)
    payments = win_payments(hs, honba, sticks)
    out = hand_score_to_dict(hs)
    out["points"] = sum(p.points for p in payments if p.kind is PaymentKind.HAND)
    out["pao"] = []
    out["payments"] = [p.to_dict() for p in payments]
    out["deltas"] = deltas(payments, situation.players)
    return out


def error_to_dict(error: TenbouError) -> dict[str, Any]:
    """The JSON error object for an error."""
    return error.to_dict()
