"""``tenbou match``: the command. :func:`add_parsers` adds it to the CLI's subcommands, and
:func:`run` plays the match its arguments describe and returns the exit status (bad arguments
raise :class:`~tenbou.errors.TenbouError`, which the CLI reports as one line, status 2).

What it writes under ``--out DIR``: ``games/NNNN.mjai.jsonl`` (each game's record, which
``tenbou verify DIR/games`` replays), ``games/NNNN.tenhou6.json`` with ``--tenhou6`` (for
mjai-reviewer), ``stderr/NNNN-seatS.txt`` (what a bot given as a command wrote on standard
error in that game, when it wrote something), ``results.jsonl`` (a line per game: seats, points,
ranks, counts) and ``summary.json`` (what ``--json`` prints).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import secrets
import shlex
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import RequestError, TenbouError
from ..match.bots import BUILTIN_BOTS
from ..match.run import MatchSpec, entrant_names, run_match
from ..match.summary import format_summary, summarize
from ..rules import get_preset, rules_from_request
from ..verify import Progress
from .common import Commands, parse_override

__all__ = ["add_parsers", "run"]

_BUILTINS = ", ".join(BUILTIN_BOTS)

_DESCRIPTION = """\
Referee a match between bots: four (three for sanma), each a built-in bot (random, greedy,
efficient) or a command line speaking mjai.app's protocol, started once per game as COMMAND SEAT.
Every move a bot is offered is legal and every answer is checked; a bot that times out, answers
nonsense, plays an illegal move or dies commits a chombo (as the rules' chombo option says), is
restarted, and the match goes on. Prints each bot's average rank (with a 95% interval), points,
rates, pao and chombos. See docs/match.md."""


def add_parsers(sub: Commands) -> None:
    """Add the ``match`` command to the CLI's subcommands; its ``func`` is :func:`run`."""
    p = sub.add_parser(
        "match",
        help="referee a match between bots (built-in or mjai.app-protocol commands)",
        description=_DESCRIPTION,
    )
    p.add_argument(
        "bots",
        nargs="+",
        metavar="BOT",
        help="random, greedy, efficient, or a command line (quoted) run as COMMAND SEAT",
    )
    p.add_argument("--games", type=_count, default=1, metavar="N", help="games to play (default 1)")
    p.add_argument("--rules", default="tenhou", metavar="ID", help="rules preset id (default: tenhou)")
    p.add_argument(
        "--set",
        action="append",
        metavar="OPTION=VALUE",
        help="override an option of the --rules preset (repeatable)",
    )
    p.add_argument("--length", choices=("tonpuu", "hanchan"), help="game length (default: the rules')")
    p.add_argument(
        "--seed",
        type=_seed,
        metavar="S",
        help="match seed: the same seed plays the same walls (default: a new one, shown)",
    )
    p.add_argument(
        "--duplicate",
        action="store_true",
        help="replay each game's walls with the bots rotated through the seats (--games a multiple of "
        "the bots)",
    )
    p.add_argument(
        "--timeout",
        type=_seconds,
        default=2.0,
        metavar="SEC",
        help="seconds a bot has for each answer; five times as long for the first message of a game or "
        "a hand (default 2, as mjai.app)",
    )
    p.add_argument(
        "--max-faults",
        type=_count,
        default=10,
        metavar="N",
        help="chombos after which a bot sits the rest of a game out, its seat discarding what it draws "
        "(default 10)",
    )
    p.add_argument(
        "--jobs",
        type=_count,
        default=1,
        metavar="N",
        help="play games in up to N local processes (default 1)",
    )
    p.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="play the games on the Dask cluster at ADDRESS ('local' starts a LocalCluster of up to --jobs "
        "workers; needs the 'dask' extra; the bots' commands must run on the workers)",
    )
    p.add_argument(
        "--out", metavar="DIR", help="write the games' records, results, bots' stderr and summary here"
    )
    p.add_argument("--tenhou6", action="store_true", help="with --out: each game as tenhou.net/6 JSON too")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar on stderr")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Play the match ``args`` describe; print the summary; return the exit status (0)."""
    bots = tuple(args.bots)
    n = len(bots)
    if n not in (3, 4):
        raise RequestError(f"a match needs 4 bots (3 for sanma), not {n}: {' '.join(map(shlex.quote, bots))}")
    for i, bot in enumerate(bots, 1):
        _check_bot(i, bot)
    rules = _rules(args, n)
    if args.duplicate and args.games % n:
        raise RequestError(
            f"--duplicate plays each wall {n} times: --games {args.games} is not a multiple of {n}"
        )
    if args.tenhou6 and not args.out:
        raise RequestError("--tenhou6 writes each game into --out DIR: give --out")
    out = _out_dir(args.out) if args.out else None
    seed = args.seed if args.seed is not None else secrets.randbelow(1 << 32)
    spec = MatchSpec(
        bots, rules, args.games, seed, args.duplicate, args.timeout, args.max_faults, bool(args.tenhou6)
    )
    progress = Progress(sys.stderr, enabled=not args.quiet, unit="games")
    results = []
    began = time.monotonic()
    games = run_match(spec, jobs=args.jobs, dask=args.dask, progress=progress)
    with contextlib.closing(games):  # stopped early (an output lost): the workers stop too
        for result in games:
            if out is not None:
                _write_game(out, result, max(4, len(str(args.games - 1))))
            results.append({k: v for k, v in result.items() if k not in ("mjai", "tenhou6", "stderr")})
    seconds = time.monotonic() - began
    names = entrant_names(bots)
    summary = summarize(results, names, bots=list(bots), rules=rules, seed=seed, duplicate=args.duplicate)
    if out is not None:
        (out / "summary.json").write_text(json.dumps(summary, ensure_ascii=False, indent=1) + "\n", "utf-8")
    if args.json:
        sys.stdout.write(json.dumps(summary, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(format_summary(summary, seconds) + "\n")
    return 0


def _check_bot(i: int, bot: str) -> None:
    """A BOT is a built-in name or a command line whose program can be run."""
    if bot in BUILTIN_BOTS:
        return
    try:
        argv = shlex.split(bot)
    except ValueError as e:
        raise RequestError(f"BOT {i}: {bot!r} is not a command line ({e})") from None
    if not argv:
        raise RequestError(f"BOT {i}: an empty command (a bot is {_BUILTINS} or a command line)")
    program = argv[0]
    found = (
        shutil.which(program) if os.sep not in program else (program if os.access(program, os.X_OK) else None)
    )
    if found is None:
        raise RequestError(
            f"BOT {i}: {program!r} is neither a built-in bot ({_BUILTINS}) nor a program that runs"
        )


def _rules(args: argparse.Namespace, players: int) -> Any:
    """The match's rules as a JSON rules value (``--rules`` with ``--set`` and ``--length``),
    checked, and played by this many players."""
    overrides = dict(parse_override(text) for text in args.set or ())
    if args.length:
        overrides["length"] = args.length
    rules: Any = {"preset": args.rules, "overrides": overrides} if overrides else args.rules
    get_preset(args.rules)  # (an unknown preset named as such)
    r = rules_from_request(rules)
    if players not in r.players:
        raise RequestError(
            f"--rules {args.rules}: played by {' or '.join(map(str, r.players))} players, not {players} bots"
        )
    return rules


def _out_dir(path: str) -> Path:
    out = Path(path)
    try:
        (out / "games").mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise TenbouError(f"--out {path}: cannot write there ({e.strerror or e})", "output") from None
    for name in ("results.jsonl",):
        (out / name).write_text("", "utf-8")
    return out


def _write_game(out: Path, result: dict[str, Any], width: int) -> None:
    stem = f"{result['index']:0{width}d}"
    (out / "games" / f"{stem}.mjai.jsonl").write_text(result["mjai"], "utf-8")
    if result.get("tenhou6") is not None:
        (out / "games" / f"{stem}.tenhou6.json").write_text(result["tenhou6"], "utf-8")
    for seat, text in enumerate(result.get("stderr") or ()):
        if text:
            (out / "stderr").mkdir(exist_ok=True)
            (out / "stderr" / f"{stem}-seat{seat}.txt").write_text(text, "utf-8")
    line = {k: v for k, v in result.items() if k not in ("mjai", "tenhou6", "stderr", "seconds")}
    with (out / "results.jsonl").open("a", encoding="utf-8") as f:
        f.write(json.dumps(line, ensure_ascii=False) + "\n")


def _whole(low: int) -> Callable[[str], int]:
    """An argument that is a whole number, ``low`` or more."""

    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"a whole number, not {text!r}") from None
        if n < low:
            raise argparse.ArgumentTypeError(f"{low} or more, not {n}")
        return n

    return parse


_count = _whole(1)
_seed = _whole(0)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number of seconds, not {text!r}") from None
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"more than 0 and at most 3600 seconds, not {text}")
    return value
