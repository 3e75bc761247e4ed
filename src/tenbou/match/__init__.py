"""The referee of bot matches (``tenbou match``): bots play whole games under any rule set, every
move checked by the engine, every fault a chombo, every game written as a record that
``tenbou verify`` replays (docs/match.md).

- :mod:`tenbou.match.bots`: the built-in bots (``random``, ``greedy``, ``efficient``).
- :mod:`tenbou.match.protocol`: the mjai.app protocol, the referee's side: what a seat is told,
  what its answer means.
- :mod:`tenbou.match.process`: a bot as a process, with deadlines, bounded lines, a process group.
- :mod:`tenbou.match.referee`: one game (:func:`play_one`), its chombos and counts.
- :mod:`tenbou.match.run`: the match: seats, walls, seeds, games over processes or Dask.
- :mod:`tenbou.match.summary`: average ranks with their confidence, rates, faults.

The ``match`` command of the CLI is :mod:`tenbou.cli.match`.
"""

from .bots import BUILTIN_BOTS, EfficientAgent, builtin_agent
from .protocol import BotError, read_answer, seat_view
from .referee import GameSpec, play_one
from .run import MatchSpec, run_match, schedule
from .summary import format_summary, summarize

__all__ = [
    "BUILTIN_BOTS",
    "BotError",
    "EfficientAgent",
    "GameSpec",
    "MatchSpec",
    "builtin_agent",
    "format_summary",
    "play_one",
    "read_answer",
    "run_match",
    "schedule",
    "seat_view",
    "summarize",
]
