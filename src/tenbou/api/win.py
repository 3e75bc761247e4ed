"""A winning hand's request scored and settled (:func:`score`, docs/json-api.md "A winning
hand"): read by :mod:`tenbou.api.request`, scored by :func:`tenbou.core.scoring.score_hand`, paid
by :func:`tenbou.settle.payment.settle_win_parts` and written by :mod:`tenbou.settle.results`.

>>> r = score({"rules": "tenhou", "dealer": 0, "round_wind": "E", "winner": 1, "from": 0,
...            "hand": "234m456678p5578s", "win_tile": "9s", "riichi": True})
>>> r["han"], r["fu"], [y["id"] for y in r["yaku"]], r["deltas"]
(2, 30, ['riichi', 'pinfu'], [-2000, 2000, 0, 0])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.scoring import HandScore, scored_or_refused
from ..errors import InvalidHandError
from ..settle.payment import settle_win_parts
from ..settle.results import win_to_dict
from .request import (
    _ABSENT,
    _MAX_HONBA,
    _MAX_STICKS,
    _SCORE_KEYS,
    _as_dict,
    _liabilities,
    _number,
    _parse_win,
    _wareme,
)

__all__ = ["score"]


def score(request: Mapping[str, Any]) -> dict[str, Any]:
    """Score and settle one winning hand (see ``docs/json-api.md``).

    Raises :class:`~tenbou.errors.TenbouError` on bad input.
    """
    req = request if type(request) is dict else _as_dict(request)  # (the usual dict: no call)
    honba = req.get("honba", _ABSENT)
    sticks = req.get("riichi_sticks", _ABSENT)
    # (``wareme``, ``pao``, ``rinshan_kan_from`` and ``kan_order``, left out of most requests, are looked
    # up only when _parse_win finds fields it did not read, nor these two)
    hand, situation, rules, more = _parse_win(
        req, _SCORE_KEYS, None, (honba is not _ABSENT) + (sticks is not _ABSENT)
    )
    if more:
        wareme = req.get("wareme", _ABSENT)
        raw_pao = req.get("pao", _ABSENT)
        raw_kan_from = req.get("rinshan_kan_from", _ABSENT)
        raw_kan_order = req.get("kan_order", _ABSENT)
    else:
        wareme = raw_pao = raw_kan_from = raw_kan_order = _ABSENT
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
    pao = _liabilities(raw_pao, raw_kan_from, raw_kan_order, hand, hs)
    if wareme is _ABSENT:
        wareme = None
    elif wareme is not None:
        wareme = _wareme(wareme, situation.players, rules)
    payments, deltas, chips, points = settle_win_parts(hs, pao, honba, sticks, wareme)
    return win_to_dict(hs, pao, payments, deltas, chips, points)
