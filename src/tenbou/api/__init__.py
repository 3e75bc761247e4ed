"""The JSON façade: dicts in, dicts out, exactly as ``docs/json-api.md`` says.

:func:`score` takes one winning-hand request and returns its value, yaku, fu breakdown and
payments; :func:`settle` the end of a hand (wins or a draw). Bad input raises
:class:`~tenbou.errors.TenbouError` whose message names the offending field or tile; unknown
fields are refused. The façade is three modules: :mod:`.request` (reading a request),
:mod:`.win` (:func:`score`) and :mod:`.settlement` (:func:`settle`).

>>> r = score({"rules": "tenhou", "dealer": 0, "round_wind": "E", "winner": 1, "from": 0,
...            "hand": "234m456678p5578s", "win_tile": "9s", "riichi": True})
>>> r["han"], r["fu"], [y["id"] for y in r["yaku"]], r["deltas"]
(2, 30, ['riichi', 'pinfu'], [-2000, 2000, 0, 0])
>>> score({"winner": 0, "hand": "1238z", "win_tile": "1m"})
Traceback (most recent call last):
...
tenbou.errors.NotationError: hand: '8z' is not a tile (honours are 1z-7z) in '1238z'
"""

from ..settle.results import hand_score_to_dict, settlement_to_dict
from .request import MAX_DEPTH, MAX_INT_DIGITS, error_to_dict, loads_request, parse_win_request, request_hand
from .settlement import settle, settle_request
from .win import score

__all__ = [
    "MAX_DEPTH",
    "MAX_INT_DIGITS",
    "error_to_dict",
    "hand_score_to_dict",
    "loads_request",
    "parse_win_request",
    "request_hand",
    "score",
    "settle",
    "settle_request",
    "settlement_to_dict",
]
