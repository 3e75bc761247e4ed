"""``tenbou.selfplay``: self-play: a table dealing from a shuffled wall to agents (:func:`play_game`).

The code lives in :mod:`tenbou.engine.table` (the package is laid out in layers,
docs/architecture.md); this module keeps the documented import path, for users.
"""

from .engine.table import Agent, GreedyAgent, RandomAgent, Table, play_game, wall_tiles

__all__ = [
    "Agent",
    "GreedyAgent",
    "RandomAgent",
    "Table",
    "play_game",
    "wall_tiles",
]
