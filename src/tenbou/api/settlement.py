"""The end of a hand's request settled (:func:`settle`, docs/json-api.md "End of a hand"): one
or more wins on one discard, or a draw, with honba, riichi sticks and the next hand.

>>> out = settle({"rules": "tenhou", "dealer": 0, "honba": 1, "riichi_sticks": 0,
...               "draw": {"kind": "exhaustive", "tenpai": [0, 2]}})
>>> out["deltas"], out["next"]
([1500, -1500, 1500, -1500], {'dealer': 0, 'honba': 2, 'riichi_sticks': 0})
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ..core.scoring import score_hand
from ..errors import RequestError, TenbouError, shown
from ..rules import DRAW_REASONS, Rules, rules_from_request
from ..settle.payment import Settlement, settle_draw, settle_wins
from ..settle.results import settlement_to_dict
from .request import (
    _ABSENT,
    _MAX_HONBA,
    _MAX_STICKS,
    _WIN_KEYS,
    _as_dict,
    _liabilities,
    _number,
    _parse_win,
    _players,
    _seat,
    _wareme,
)

__all__ = ["settle", "settle_request"]

_SETTLE_KEYS: Final = frozenset(
    {"rules", "players", "dealer", "round_wind", "honba", "riichi_sticks", "wareme", "wins", "draw"}
)
_SHARED: Final = ("rules", "players", "dealer", "round_wind")
_DRAW_KEYS: Final = frozenset({"kind", "tenpai", "nagashi", "reason"})
#: the reasons of an abortive draw: those of ``abortive_draws`` and a triple ron


def settle(request: Mapping[str, Any]) -> dict[str, Any]:
    """Settle the end of a hand: one or more wins, or a draw (see ``docs/json-api.md``).

    >>> out = settle({"rules": "tenhou", "dealer": 0, "honba": 1, "riichi_sticks": 0,
    ...               "draw": {"kind": "exhaustive", "tenpai": [0, 2]}})
    >>> out["deltas"], out["next"]
    ([1500, -1500, 1500, -1500], {'dealer': 0, 'honba': 2, 'riichi_sticks': 0})
    """
    return settlement_to_dict(settle_request(request))


def settle_request(request: Mapping[str, Any], *, rules: Rules | None = None) -> Settlement:
    """:func:`settle` returning the :class:`~tenbou.settle.payment.Settlement` itself.
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
                raw_kan_order = merged.get("kan_order", _ABSENT)
                others = (
                    (raw_pao is not _ABSENT) + (raw_kan_from is not _ABSENT) + (raw_kan_order is not _ABSENT)
                )
                hand, situation, _, _ = _parse_win(merged, _WIN_KEYS, rules, others)
                hs = score_hand(hand, situation, rules)
                wins.append((hs, _liabilities(raw_pao, raw_kan_from, raw_kan_order, hand, hs, where)))
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
        if type(reason) is not str or reason not in DRAW_REASONS:
            raise RequestError(f"draw.reason: {shown(reason)} is not one of {', '.join(DRAW_REASONS)}")
    return settle_draw(
        rules, players, dealer, honba, sticks, str(kind), seats["tenpai"], seats["nagashi"], reason
    )
