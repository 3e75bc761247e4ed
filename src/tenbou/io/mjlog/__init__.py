"""Tenhou mjlog XML records, one module a concern.

- :mod:`tenbou.io.mjlog.codes`: 136-tile ids, call codes (``m``), ``ten`` values, tags;
- :mod:`tenbou.io.mjlog.vocab`: the words: yaku ids, limit codes and draw types, by tenbou's names;
- :mod:`tenbou.io.mjlog.rules`: the ``GO type`` bits of a room as tenbou rules;
- :mod:`tenbou.io.mjlog.read`: the one walk over a record's XML, for both readings of it:
- :mod:`tenbou.io.mjlog.game`: the record's own structure (rounds, calls, wins) and each win as a
  score request;
- :mod:`tenbou.io.mjlog.events`: the record as mjai events and hand ends (what ``verify`` replays);
- :mod:`tenbou.io.mjlog.write`: the writer.

This package gives the names a user of the format needs; :mod:`tenbou.io.tenhou` gives the same
names (and the room's rule bits) as it always has.
"""

from __future__ import annotations

from .codes import (
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
from .events import mjlog_records
from .game import (
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
from .read import is_mjlog
from .rules import GameType
from .vocab import RYUUKYOKU_TYPES, tenbou_yaku_id
from .write import write_mjlog

__all__ = [
    "RYUUKYOKU_TYPES",
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
