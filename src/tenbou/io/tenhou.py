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

from . import mjlog
from .mjlog import *  # noqa: F403 (the package's names, listed once, in its __all__)
from .mjlog.read import _EXAMPLE
from .mjlog.rules import (
    GO_FAST,
    GO_HANCHAN,
    GO_NO_KUITAN,
    GO_NO_RED,
    GO_SANMA,
    GO_VS_HUMAN,
    UNMODELLED_GO_BITS,
)
from .record import JSON

#: mjlog's names (:data:`tenbou.io.mjlog.__all__`), the room's rule bits, and JSON
__all__ = [
    "GO_FAST",
    "GO_HANCHAN",
    "GO_NO_KUITAN",
    "GO_NO_RED",
    "GO_SANMA",
    "GO_VS_HUMAN",
    "JSON",
    "UNMODELLED_GO_BITS",
    "_EXAMPLE",
]
__all__ += mjlog.__all__
