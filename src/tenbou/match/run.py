"""A match: which bot sits where in each game, on which walls, and the games played here, over
local processes or on a Dask cluster.

The bots given are the match's entrants, in order. Game ``g`` seats them rotated by ``g`` (seat
``s`` gets entrant ``(s + g) mod n``), so each sits each seat as often as the games allow. Each game
has a seed of the match's: a fresh one every game, or with ``duplicate`` one for every ``n`` games
in a row, which replay the same walls with the entrants rotated through the seats (each wall dealt
to each entrant from each seat; :mod:`tenbou.match.referee` keys a hand's wall by the hand). The
same match seed plays the same match: with bots that decide the same way each time, the same
records, byte for byte.

>>> spec = MatchSpec(("random", "greedy", "efficient"), "tenhou", games=3, seed=1, duplicate=True)
>>> [(g.seed == schedule(spec)[0].seed, g.names) for g in schedule(spec)][:2]
[(True, ('random', 'greedy', 'efficient')), (True, ('greedy', 'efficient', 'random'))]
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import TenbouError
from ..verify.run import dask_client, in_order, in_processes, local_cores
from .bots import derived_seed
from .referee import GameSpec, play_one

__all__ = ["MatchSpec", "entrant_names", "run_match", "schedule"]


@dataclass(frozen=True, slots=True)
class MatchSpec:
    """A match: the entrants (built-in bot names or command lines), the rules (a JSON rules value,
    the game length among them), how many games, the match seed, duplicate walls, the decision
    timeout (seconds), the chombos after which a bot sits the rest of a game out, and whether each
    game is written as tenhou.net/6 too."""

    bots: tuple[str, ...]
    rules: Any
    games: int
    seed: int
    duplicate: bool = False
    timeout: float = 2.0
    max_faults: int = 10
    tenhou6: bool = False


def entrant_names(bots: Sequence[str]) -> tuple[str, ...]:
    """The entrants' names in the records and the summary: a built-in bot's name; a command's
    words with their folders left out (and the Python that runs a script), cut to 40 characters; a
    second of the same name numbered.

    >>> entrant_names(["random", "random", "/venv/bin/python3 bots/mine.py --fast", "'my bot' 2"])
    ('random', 'random #2', 'mine.py --fast', 'my bot 2')
    """
    out: list[str] = []
    for bot in bots:
        try:
            words = [w.rsplit("/", 1)[-1] for w in shlex.split(bot)]
        except ValueError:
            words = [bot]
        if len(words) > 1 and _PYTHON.fullmatch(words[0]):
            words = words[1:]
        base = " ".join(words) or bot
        base = base if len(base) <= 40 else base[:37] + "..."
        name, k = base, 1
        while name in out:
            k += 1
            name = f"{base} #{k}"
        out.append(name)
    return tuple(out)


#: a Python interpreter's name, left out of a command's name
_PYTHON = re.compile(r"python[0-9.]*")


def schedule(spec: MatchSpec) -> list[GameSpec]:
    """The games of the match, in order (see the module docstring)."""
    n = len(spec.bots)
    names = entrant_names(spec.bots)
    games = []
    for g in range(spec.games):
        wall = g // n if spec.duplicate else g
        order = [(s + g) % n for s in range(n)]
        games.append(
            GameSpec(
                index=g,
                seed=derived_seed(spec.seed, "game", wall),
                bots=tuple(spec.bots[e] for e in order),
                names=tuple(names[e] for e in order),
                rules=spec.rules,
                timeout=spec.timeout,
                max_faults=spec.max_faults,
                tenhou6=spec.tenhou6,
            )
        )
    return games


def run_match(
    spec: MatchSpec,
    *,
    jobs: int = 1,
    dask: str | None = None,
    progress: Callable[[int, int, int], None] | None = None,
) -> Generator[dict[str, Any], None, None]:
    """Play the match; yields each game's result (:func:`~tenbou.match.referee.play_one`) in game
    order, however the games are spread: here (``jobs=1``), over ``jobs`` local processes (no more
    than there are games or cores), or on the Dask cluster at ``dask`` (``"local"`` starts a
    LocalCluster of ``jobs`` workers; each worker runs the bots' commands itself).
    ``progress(games_done, games, hands_done)`` is called as games finish."""
    if jobs < 1:
        raise TenbouError(f"--jobs {jobs}: the number of processes is 1 or more", "request")
    games = schedule(spec)
    total = len(games)
    done = 0
    hands = 0

    def note(result: dict[str, Any]) -> None:
        nonlocal done, hands
        done += 1
        hands += result["hands"]
        if progress is not None:
            progress(done, total, hands)

    workers = min(jobs, total, local_cores())
    if dask is not None:
        yield from _run_dask(games, dask, max(1, workers), note)
        return
    if workers <= 1:
        for game in games:
            result = play_one(game)
            note(result)
            yield result
        return
    yield from in_processes(_play_listed, [(game,) for game in games], workers, note)


def _play_listed(game: GameSpec) -> list[dict[str, Any]]:
    """:func:`play_one` as a task of :func:`~tenbou.verify.run.in_processes` (a list of results)."""
    return [play_one(game)]


def _run_dask(
    games: list[GameSpec], address: str, jobs: int, note: Callable[[dict[str, Any]], None]
) -> Iterator[dict[str, Any]]:
    with dask_client(address, jobs) as (distributed, client):
        futures = client.map(play_one, games, pure=False)
        index = {f.key: game.index for f, game in zip(futures, games, strict=True)}
        finished = distributed.as_completed(futures)
        yield from in_order(((index[f.key], [f.result()]) for f in finished), note)
