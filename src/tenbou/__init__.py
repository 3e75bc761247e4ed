"""tenbou (点棒): a rules engine for Japanese riichi mahjong.

Scores a winning hand (yaku, han, fu, points) and settles a hand between the
players under the rules of real platforms and leagues, responsibility payment
(pao) included.

>>> from tenbou.api import score
>>> r = score({"rules": "tenhou", "dealer": 0, "winner": 1, "from": 3, "hand": "23m55p",
...            "melds": [{"type": "pon", "tiles": "555z", "from": 2},
...                      {"type": "pon", "tiles": "666z", "from": 0},
...                      {"type": "pon", "tiles": "777z", "from": 3}],
...            "win_tile": "4m"})
>>> r["han"], r["limit"], r["deltas"]
(13, 'yakuman', [0, 32000, 0, -32000])
"""

from ._build import BUILD, build_info
from .errors import (
    IllegalEventError,
    InvalidHandError,
    LogFormatError,
    NotationError,
    RequestError,
    RuleError,
    TenbouError,
)
from .hand import Hand, Meld, MeldType, Situation
from .rules import Rules, get_rules
from .scoring import HandScore, Limit, score_hand
from .tiles import Tile, Wind, parse_tiles

__version__ = "0.1.0"

__all__ = [
    "BUILD",
    "Hand",
    "HandScore",
    "IllegalEventError",
    "InvalidHandError",
    "Limit",
    "LogFormatError",
    "Meld",
    "MeldType",
    "NotationError",
    "RequestError",
    "RuleError",
    "Rules",
    "Situation",
    "TenbouError",
    "Tile",
    "Wind",
    "build_info",
    "get_rules",
    "parse_tiles",
    "score_hand",
]
