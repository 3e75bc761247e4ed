"""``tenbou.game``: a whole game followed event by event (:class:`Game`).

The code lives in :mod:`tenbou.engine.game` (the package is laid out in layers,
docs/architecture.md); this module keeps the documented import path, for users.
"""

from .engine.game import FinalResult, Game, HandRecord

__all__ = [
    "FinalResult",
    "Game",
    "HandRecord",
]
