"""Tenhou mjlog records: the room rules, the codes, the reader and the writer in one namespace.

The work is done in the modules of :mod:`tenbou.io.mjlog`: :mod:`~tenbou.io.mjlog.rules`
(``GO type`` bits as tenbou rules), :mod:`~tenbou.io.mjlog.codes` (136-tile ids, call codes,
``ten``), :mod:`~tenbou.io.mjlog.vocab` (yaku ids, limit codes, draw types),
:mod:`~tenbou.io.mjlog.read` (the one walk over the XML), :mod:`~tenbou.io.mjlog.game` (the
record's rounds and wins, and score requests), :mod:`~tenbou.io.mjlog.events` (the record as
events and hand ends) and :mod:`~tenbou.io.mjlog.write`. This module gives their
names under one roof, as it always has.

>>> game = parse_mjlog(_EXAMPLE, source="example.xml")
>>> rnd, win = next(game.wins())
>>> agari_to_request(win, rnd.init, game.game_type)["hand"]
'123m566778p3566s'
"""

from __future__ import annotations

from .mjlog.codes import (
    Ten,
    TenhouMeld,
    TenhouMeldType,
    decode_meld,
    encode_meld,
    parse_ten,
    parse_yaku,
    parse_yakuman,
    tile_from_136,
    tile_to_136,
)
from .mjlog.events import mjlog_records
from .mjlog.game import (
    Agari,
    Call,
    Init,
    MjlogGame,
    MjlogRound,
    Round,
    agari_to_request,
    parse_mjlog,
    read_mjlog,
    recorded_yaku,
)
from .mjlog.read import _EXAMPLE, is_mjlog
from .mjlog.rules import (
    GO_FAST,
    GO_HANCHAN,
    GO_NO_KUITAN,
    GO_NO_RED,
    GO_SANMA,
    GO_VS_HUMAN,
    UNMODELLED_GO_BITS,
    GameType,
)
from .mjlog.vocab import RYUUKYOKU_TYPES, tenbou_yaku_id
from .mjlog.write import write_mjlog
from .record import JSON

__all__ = [
    "GO_FAST",
    "GO_HANCHAN",
    "GO_NO_KUITAN",
    "GO_NO_RED",
    "GO_SANMA",
    "GO_VS_HUMAN",
    "JSON",
    "RYUUKYOKU_TYPES",
    "UNMODELLED_GO_BITS",
    "_EXAMPLE",
    "Agari",
    "Call",
    "GameType",
    "Init",
    "MjlogGame",
    "MjlogRound",
    "Round",
    "Ten",
    "TenhouMeld",
    "TenhouMeldType",
    "agari_to_request",
    "decode_meld",
    "encode_meld",
    "is_mjlog",
    "mjlog_records",
    "parse_mjlog",
    "parse_ten",
    "parse_yaku",
    "parse_yakuman",
    "read_mjlog",
    "recorded_yaku",
    "tenbou_yaku_id",
    "tile_from_136",
    "tile_to_136",
    "write_mjlog",
]
