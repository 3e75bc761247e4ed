"""Replaying mjai records through the game engine, hand by hand.

:func:`replay_events` splits a stream of events into games (each from
``start_game`` to ``end_game``) and feeds each to a :class:`~tenbou.engine.game.Game`;
:func:`hand_lines` gives the JSON objects of ``docs/json-api.md`` (one per
hand end, with ``recorded_deltas`` and ``match`` where the record carries
score changes) and :func:`summary` the closing line.

>>> from tenbou.rules import get_rules
>>> from tenbou.engine.table import play_game
>>> games = replay_events(play_game(get_rules("tenhou"), seed=3, length="tonpuu"), get_rules("tenhou"))
>>> len(games), games[0].ended
(1, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.events import EndGame, Event, StartGame, StartKyoku
from ..engine.game import Game
from ..errors import TenbouError
from ..rules import Rules
from .summaries import summarize

__all__ = ["NO_DELTAS", "REPLAY_SUMMARY", "ReplayedGame", "hand_lines", "replay_events", "summary"]

#: why a replayed hand has no ``match``
NO_DELTAS = "no outcome to compare: the record gives the hand no deltas (tenbou verify compares scores too)"
#: the keys of ``tenbou replay``'s summary line, in order (those of docs/json-api.md, and ``unchecked``)
REPLAY_SUMMARY = ("games", "hands", "wins", "matched", "mismatched", "unchecked", "skipped")


@dataclass
class ReplayedGame:
    """A game replayed from a record: the engine's game, or the error that stopped it."""

    game: Game | None
    error: str | None = None
    events: int = 0
    warnings: list[str] = field(default_factory=list)


def _players_of(events: Sequence[Event]) -> int:
    for ev in events:
        if isinstance(ev, StartKyoku):
            return len(ev.tehais)
    return 4


def replay_events(events: Iterable[Event], rules: Rules, *, strict: bool = True) -> list[Game]:
    """Replay the games in ``events``; raises on the first illegal event when ``strict``."""
    return [g.game for g in replay_games(events, rules, strict=strict) if g.game is not None]


def replay_games(events: Iterable[Event], rules: Rules, *, strict: bool = True) -> list[ReplayedGame]:
    """Replay every game, keeping going after a game that fails (its error is kept)."""
    chunks: list[list[Event]] = []
    for ev in events:
        if isinstance(ev, StartGame) or not chunks:
            chunks.append([])
        chunks[-1].append(ev)
        if isinstance(ev, EndGame):
            chunks.append([])
    out: list[ReplayedGame] = []
    for chunk in chunks:
        if not chunk:
            continue
        try:
            game = Game(rules, _players_of(chunk), strict=strict)
            for i, ev in enumerate(chunk):
                game.apply(ev, i)
        except TenbouError as e:
            if strict:
                raise
            out.append(ReplayedGame(None, str(e), len(chunk)))
            continue
        out.append(ReplayedGame(game, None, len(chunk), list(game.errors)))
    return out


def hand_lines(game: Game, source: str, game_index: int) -> list[dict[str, Any]]:
    """One JSON object per hand end (``docs/json-api.md``, ``tenbou replay``)."""
    out = []
    for h in game.hands:
        line: dict[str, Any] = {"source": source, "game": game_index}
        line.update(h.to_dict())
        if "match" not in line:
            line["unchecked"] = NO_DELTAS
        out.append(line)
    return out


def summary(games: Sequence[ReplayedGame], skipped: int = 0) -> dict[str, Any]:
    """The closing summary line of ``tenbou replay`` (``docs/json-api.md``): the games replayed,
    their hands, wins, hands matched, mismatched and unchecked, and the games skipped (those not
    replayed, and ``skipped`` more) -- the keys of :func:`~tenbou.verify.summaries.summarize`
    that ``tenbou replay`` gives, counted by it."""
    lines: list[dict[str, Any]] = []
    for index, g in enumerate(games):
        if g.game is None:
            lines.append({"source": "", "game": index, "skipped": g.error or "not replayed"})
        else:
            lines.extend(hand_lines(g.game, "", index))
    counts = summarize(lines, games=sum(1 for g in games if g.game is not None))["summary"]
    counts["skipped"] += skipped
    return {"summary": {key: counts[key] for key in REPLAY_SUMMARY}}
