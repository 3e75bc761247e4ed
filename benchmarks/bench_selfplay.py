"""Whole games: random-agent hanchan per second, tenbou's self-play table (compiled and pure
Python) beside RiichiEnv (``riichienv``, a Rust core) in one run, and the ratio.

Usage: ``python benchmarks/bench_selfplay.py [--games 40] [--passes 7] [--seed S]
[--compiled-dir DIR] [--baseline-dir DIR] [--no-pure] [--wall] [--profile pure|compiled]``
(``pip install ".[bench]"`` brings riichienv).

What is timed, single thread, a whole four-player hanchan after another with red fives:

- tenbou: ``Table(get_rules("tenhou"), seed, 4, "hanchan").play()`` -- the wall shuffled by the
  seed, each seat a :class:`tenbou.selfplay.RandomAgent` (wins when it can; nine terminals 50 %;
  a kan 50 %; riichi 60 %; a call 25 %, else pass; otherwise a random discard), each event checked
  by the referee (:class:`tenbou.engine.game.Game`) before it is applied, the settlement of every
  hand and the end of the game by the rules; then a check that points are conserved;
- in the compiled build (``pip install .`` of this checkout, kept in a folder,
  ``benchmarks/_builds.py``) and in pure Python (the checkout's ``src/``), each in a worker process
  of its own (one process cannot import both under the name ``tenbou``), which times its own loop
  when the main process says so (the others wait, idle, meanwhile);
- RiichiEnv: ``RiichiEnv(game_mode="4p-red-half", seed=..., skip_mjai_logging=True)``, one
  environment a hanchan, ``reset()`` then ``step()`` until ``done()``, every seat asked to act
  choosing by the same rule as tenbou's ``RandomAgent`` over its ``legal_actions()`` (RiichiEnv
  asks for riichi as an action of its own, then the discard: "riichi" there is that action, then
  a random legal discard); then the same check of the points. No record is written by either.

Each engine's time is the CPU time of the process that plays (the other jobs of a shared machine
do not count; both play in one thread), or with ``--wall`` the time on the wall. Each pass plays
``--games`` hanchan on every engine, seeds new to every pass (from ``--seed``, by
default from the clock: a run never replays the last one's games); the engines take turns in an
order that rotates pass by pass, so that a change in the machine's speed touches them all alike.
A warm-up pass comes first, untimed. Printed: each engine's hanchan/s (the median pass and the
best), the hands and events (tenbou) or decisions (RiichiEnv) a hanchan, and tenbou's ratio to
RiichiEnv: the median of the pass-by-pass ratios (> 1 is faster).

``--baseline-dir DIR`` plays the same passes on one more compiled build, the one installed in DIR
(``pip install --no-deps --target DIR`` of an earlier commit), and prints this checkout's compiled
build against it: a change measured before and after in one run.

``--profile BUILD`` plays ``--games`` hanchan in that build under cProfile instead (the compiled
build's own functions are not seen by cProfile, only the calls into and out of it) and prints the
functions by their own time, then by their time with what they call (``perf record`` sees inside
the compiled build).
"""

from __future__ import annotations

import argparse
import gc
import importlib.metadata
import json
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import _builds  # noqa: E402

PRESET = "tenhou"
#: the points a four-player game starts with under PRESET (checked at the end of every game)
START_POINTS = 25000

# -- the worker: one build of tenbou, in a process of its own -------------------------------------


#: the clock a pass is timed by: the CPU time of the process that plays (``time.process_time``:
#: the other jobs of a shared machine do not count, while they do in the time on the wall; both
#: engines play in one thread), or the wall's with ``--wall``
CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.process_time, "wall": time.perf_counter}


def tenbou_games(seeds: list[int], clock: str = "cpu") -> tuple[float, int, int]:
    """Play a hanchan for each seed; (seconds, events, hands)."""
    from tenbou.rules import get_rules
    from tenbou.selfplay import Table

    rules = get_rules(PRESET)
    events = hands = 0
    now = CLOCKS[clock]
    t = now()
    for seed in seeds:
        table = Table(rules, seed, 4, "hanchan")
        table.play()
        final = table.game.final
        if final is None or sum(final.points) + 1000 * table.game.kyotaku != 4 * START_POINTS:
            raise SystemExit(f"seed {seed}: points not conserved ({final})")
        events += len(table.events)
        hands += len(table.game.hands)
    return now() - t, events, hands


def worker(expect: str) -> int:
    """Serve timing requests (JSON lines on stdin) for the tenbou importable here."""
    import tenbou

    build = tenbou.build_info()
    if not build.startswith(expect):
        print(
            json.dumps({"error": f"expected the {expect} build, got {build} ({tenbou.__file__})"}), flush=True
        )
        return 1
    print(json.dumps({"build": build, "file": tenbou.__file__}), flush=True)
    for line in sys.stdin:
        cmd = json.loads(line)
        gc.collect()  # no garbage of an earlier pass collected inside this one
        seconds, events, hands = tenbou_games(cmd["seeds"], cmd["clock"])
        print(json.dumps({"seconds": seconds, "events": events, "hands": hands}), flush=True)
    return 0


def profile(games: int, seed: int) -> None:
    """cProfile of ``games`` hanchan in the build importable here, the top functions printed."""
    import cProfile
    import pstats

    import tenbou

    print(f"cProfile, {games} hanchan, {tenbou.build_info()}")
    tenbou_games([seed + 10**9])  # imports, tables and caches first
    prof = cProfile.Profile()
    prof.enable()
    tenbou_games(list(range(seed, seed + games)))
    prof.disable()
    stats = pstats.Stats(prof)
    stats.sort_stats("tottime").print_stats(30)
    stats.sort_stats("cumulative").print_stats(40)


class Worker(_builds.Worker):
    """A worker process for one build of tenbou (the folder it imports tenbou from)."""

    def __init__(self, name: str, folder: Path, expect: str) -> None:
        super().__init__(__file__, ["--worker", expect], folder)
        self.name = name

    def play(self, seeds: list[int], clock: str) -> tuple[float, int, int]:
        reply = self.ask(seeds=seeds, clock=clock)
        return reply["seconds"], reply["events"], reply["hands"]


# -- RiichiEnv, in this process -------------------------------------------------------------------


def riichienv_player() -> Callable[[list[int], str], tuple[float, int, int]]:
    """RiichiEnv's loop: a hanchan for each seed; (seconds, decisions, 0)."""
    from riichienv import ActionType, RiichiEnv

    win = (ActionType.TSUMO, ActionType.RON)
    kan = (ActionType.ANKAN, ActionType.KAKAN)
    call = (ActionType.CHI, ActionType.PON, ActionType.DAIMINKAN)

    def policy(rng: random.Random) -> Callable[[Any], Any]:
        """tenbou's RandomAgent's rule over RiichiEnv's legal actions."""

        def act(obs: Any) -> Any:
            acts = obs.legal_actions()
            by: dict[Any, list[Any]] = {}
            for a in acts:
                by.setdefault(a.action_type, []).append(a)
            for t in win:
                if t in by:
                    return by[t][0]
            if ActionType.KYUSHU_KYUHAI in by and rng.random() < 0.5:
                return by[ActionType.KYUSHU_KYUHAI][0]
            kans = [a for t in kan for a in by.get(t, [])]
            if kans and rng.random() < 0.5:
                return rng.choice(kans)
            if ActionType.RIICHI in by and rng.random() < 0.6:
                return by[ActionType.RIICHI][0]
            calls = [a for t in call for a in by.get(t, [])]
            if calls:
                if rng.random() < 0.25:
                    return rng.choice(calls)
                return by[ActionType.PASS][0]
            if ActionType.DISCARD in by:
                return rng.choice(by[ActionType.DISCARD])
            return by.get(ActionType.PASS, acts)[0]

        return act

    def play(seeds: list[int], clock: str) -> tuple[float, int, int]:
        decisions = 0
        now = CLOCKS[clock]
        t = now()
        for seed in seeds:
            act = policy(random.Random(seed))
            env = RiichiEnv(game_mode="4p-red-half", seed=seed, skip_mjai_logging=True)
            obs = env.reset()
            while not env.done():
                decisions += len(obs)
                obs = env.step({seat: act(o) for seat, o in obs.items()})
            if sum(env.scores()) + 1000 * env.riichi_sticks != 4 * START_POINTS:
                raise SystemExit(f"RiichiEnv seed {seed}: points not conserved ({env.scores()})")
        return now() - t, decisions, 0

    return play


# -- the run --------------------------------------------------------------------------------------


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=40, help="hanchan a pass, per engine (default 40)")
    ap.add_argument("--passes", type=int, default=7, help="timed passes (default 7), after a warm-up")
    ap.add_argument("--seed", type=int, help="the first pass's first seed (default: from the clock)")
    ap.add_argument("--compiled-dir", help="the folder of the compiled build (kept for the next run)")
    ap.add_argument("--baseline-dir", help="an earlier compiled build to time beside this one")
    ap.add_argument("--wall", action="store_true", help="time by the wall's clock, not the CPU time")
    ap.add_argument("--no-pure", action="store_true", help="leave the pure build out")
    ap.add_argument("--profile", choices=("pure", "compiled"), help="cProfile one build instead")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker == "profile":
        profile(args.games, args.seed)
        return 0
    if args.worker:
        return worker(args.worker)
    seed0 = args.seed if args.seed is not None else time.time_ns() % 1_000_000_000
    clock = "wall" if args.wall else "cpu"
    compiled = _builds.compiled_build(args.compiled_dir)
    if args.profile:
        folder = _builds.PURE if args.profile == "pure" else compiled
        if folder is None:
            return 1
        cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", "profile"]
        cmd += ["--games", str(args.games), "--seed", str(seed0)]
        return subprocess.run(cmd, env=_builds.env_for(folder), check=False).returncode

    players: dict[str, Callable[[list[int], str], tuple[float, int, int]]] = {}
    workers: list[Worker] = []
    if compiled is not None:
        workers.append(Worker("tenbou compiled", compiled, "compiled"))
    if args.baseline_dir:
        workers.append(Worker("tenbou baseline", Path(args.baseline_dir), "compiled"))
    if not args.no_pure:
        workers.append(Worker("tenbou pure", _builds.PURE, "pure"))
    for w in workers:
        players[w.name] = w.play
        print(f"{w.name}: {w.build} ({Path(w.file).parent})")
    try:
        players["riichienv"] = riichienv_player()
        print(f"riichienv {importlib.metadata.version('riichienv')}")
    except ImportError:
        print("riichienv is not installed (pip install '.[bench]'): tenbou alone")
    names = list(players)
    seconds: dict[str, list[float]] = {n: [] for n in names}
    counts: dict[str, list[int]] = {n: [0, 0, 0] for n in names}  # games, events or decisions, hands
    for p in range(args.passes + 1):
        seeds = [seed0 + p * args.games + g for g in range(args.games)]
        for k in range(len(names)):
            name = names[(p + k) % len(names)]
            s, events, hands = players[name](seeds, clock)
            if p == 0:
                continue  # the warm-up
            seconds[name].append(s)
            c = counts[name]
            c[0], c[1], c[2] = c[0] + len(seeds), c[1] + events, c[2] + hands
    for w in workers:
        w.close()

    games = f"{args.passes} passes of {args.games} hanchan (4 players, red fives)"
    print(f"\n{games}, seeds from {seed0}, {clock} time")
    print(f"{'engine':<18} {'hanchan/s':>10} {'best':>8}  a hanchan")
    for name in names:
        med = args.games / statistics.median(seconds[name])
        best = args.games / min(seconds[name])
        games, events, hands = counts[name]
        what = f"{hands / games:.1f} hands, {events / games:.0f} events"
        if name == "riichienv":
            what = f"{events / games:.0f} decisions"
        print(f"{name:<18} {med:>10.1f} {best:>8.1f}  {what}")

    def ratio(a: str, b: str) -> float:
        """``a``'s speed over ``b``'s: the median of the pass-by-pass ratios."""
        return statistics.median(sb / sa for sa, sb in zip(seconds[a], seconds[b], strict=True))

    print()
    if "riichienv" in players:
        for name in names[:-1]:
            print(f"{name} / riichienv: {ratio(name, 'riichienv'):.2f}x")
    if "tenbou baseline" in players and "tenbou compiled" in players:
        print(f"tenbou compiled / baseline: {ratio('tenbou compiled', 'tenbou baseline'):.3f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
