"""tenhou.net/6 JSON records: read as mjai events, written from them.

A tenhou.net/6 record is one JSON object ``{"title", "name", "rule", "log"}``
(mjx writes one object per line, one round each: the lines of a file that
share their players and rules are one game). ``log[i]`` is a round:
``[[round, honba, sticks], scores, dora indicators, ura indicators,`` then for
each seat its starting hand, its takes (draws and calls) and its discards,
and last the result (``["和了", deltas, info, ...]``, ``["流局", deltas]``,
``["九種九牌"]`` ...). Tiles are numbers: 11-19 man, 21-29 pin, 31-39 sou,
41-47 East ... Red, 51/52/53 the red fives; 60 in a discard list is a
tsumogiri. Calls are strings: ``"c275226"`` (chi of 27 with 52 and 26),
``"p212121"``/``"21p2121"``/``"2121p21"`` (pon from the seat on the left,
across, right: where the ``p`` stands), ``"m39393939"`` (daiminkan, same
positions), ``"r24"`` (riichi discard), ``"242424a24"`` (ankan),
``"41k414141"`` (kakan: the pon's string with ``k`` and the added tile),
``"f44"`` (a North set aside with three players).

The record does not say in which order the four seats acted, so the reader
replays the round, seat by seat, deciding after each discard who takes it
(a call that matches it, a pon before a chi), and backtracks where two equal
discards make that ambiguous. Kan dora are shown as Tenhou does: after an
ankan at once, after a daiminkan or kakan once the replacement tile is drawn.

The rules come from ``rule``: its ``disp`` text (``鳳南喰赤``: room, 東/南
length, 喰 kuitan, 赤 red fives, 三 three players) and the ``aka`` fields.
Mahjong Soul games converted to this format (``disp`` naming a Mahjong Soul
room, ``銅の間東喰赤``, ``Gold Room South``, a tournament ``大会戦``, or
a ``playerMapping`` field) are played under the ``mahjongsoul`` preset; the
M.LEAGUE record (an empty ``disp`` and an M.LEAGUE title: ``M.LEAGUE``,
``Mリーグ``, or a season title ``22-23赛季`` as the M.LEAGUE paifu parser
writes it) under ``mleague``; anything else unknown is skipped with the reason.

>>> rec = tenhou6_records(_EXAMPLE, "example.json")[0]
>>> rec.rules, rec.hands[0].kind, rec.hands[0].wins[0].points, rec.hands[0].wins[0].yaku
('tenhou', 'win', 1000, {'chun': 1})
>>> [type(e).__name__ for e in rec.events][:4]
['StartGame', 'StartKyoku', 'Tsumo', 'Dahai']
"""

from __future__ import annotations

from .codes import code_of_tile, tile_of_code
from .read import _EXAMPLE as _EXAMPLE  # the docstring's example
from .read import tenhou6_records
from .rules import rules_of
from .vocab import ABORT_TEXTS, YAKU_NAMES
from .write import write_tenhou6

__all__ = [
    "ABORT_TEXTS",
    "YAKU_NAMES",
    "code_of_tile",
    "rules_of",
    "tenhou6_records",
    "tile_of_code",
    "write_tenhou6",
]
