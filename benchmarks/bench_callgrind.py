"""Instructions, cache misses and mispredicted branches a hand, counted by valgrind's callgrind:
tenbou's ``api.score`` (compiled, and with ``--pure`` the pure build too) beside RiichiEnv's
Python API, on the same fresh hands, in one run.

Usage: ``python benchmarks/bench_callgrind.py [--warm 20000] [--n 4000] [--seed 100] [--pure]
[--objects] [--compiled-dir DIR] [--baseline-dir DIR]`` (needs ``valgrind``; one to two minutes an
engine on this machine, a few more with ``--pure``). ``--objects`` counts the object API too
(``score_hand`` on objects parsed beforehand, as ``bench_engines.py`` times it); ``--baseline-dir``
counts another build beside this one on the same hands (both APIs with ``--objects``) and prints
the change of instructions a hand: how a change is shown to cost nothing.

Counts, unlike times, do not move with the machine's load. Each engine runs twice under callgrind
(``--cache-sim=yes --branch-sim=yes``, a 1 MiB last-level cache: the L2 of the machine the README
names), with ``PYTHONHASHSEED=0`` so that both runs hash alike: once scoring ``--warm`` hands, once
``--warm`` and then ``--n`` more, all made beforehand (``tests/handgen.py``, written to a file and
read by both runs; RiichiEnv's inputs made from the same hands, as ``bench_engines.py`` makes them).
The difference of the two runs' totals, over ``--n``, is what a fresh hand costs after
``--warm`` of them: the loop that ``bench_engines.py`` times included (for RiichiEnv, its
``Conditions(**kw)``), the start-up and the warm-up left out. Instructions repeat from run to run
(within 0.3 % a hand); the rest moves with where a run's code and objects lie (seen for RiichiEnv
over three runs on 2026-12-04: instruction-cache misses by 3 %, last-level and first-level data
misses by 10-20 %, conditional mispredicts by 15 %): compare those by their size only.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
sys.path.insert(0, str(HERE))

import _builds  # noqa: E402

#: callgrind's events, as its output names them, and how this script prints them
EVENTS = {
    "Ir": "instructions",
    "I1mr": "I1 misses",
    "D1mr": "D1 read misses",
    "DLmr": "LL read misses",
    "DLmw": "LL write misses",
    "Bcm": "cond. mispredicts",
    "Bim": "indirect mispredicts",
}
#: the peer's row, which the others are compared with
RIICHIENV = "RiichiEnv, HandEvaluator(...).calc"
#: the row of tenbou's object API (``--objects``)
OBJECTS = "tenbou compiled, score_hand(objects)"
#: the rows of the ``--baseline-dir`` build, and the rows of this build each is compared with
BASELINE = "tenbou baseline, api.score(dict)"
BASELINE_OBJECTS = "tenbou baseline, score_hand(objects)"
_AGAINST = {BASELINE: "tenbou compiled, api.score(dict)", BASELINE_OBJECTS: OBJECTS}
#: what the child runs for a row (tenbou's dict API where the row is not named here)
_CHILD = {RIICHIENV: "riichienv", OBJECTS: "tenbou-objects", BASELINE_OBJECTS: "tenbou-objects"}


def child(engine: str, hands_path: str, warm: int, n: int) -> int:
    """Score the first ``warm`` hands of the file, then the next ``n`` (run under callgrind)."""
    data: list[Any] = json.loads(Path(hands_path).read_text(encoding="utf-8"))
    if engine == "riichienv":
        import riichienv

        from bench_engines import riichienv_objects

        evaluator, conditions = riichienv.HandEvaluator, riichienv.Conditions
        inputs = [riichienv_objects(plain) for plain in data]

        def run(batch: list[Any]) -> None:
            for closed, melds, win, dora, ura, kw in batch:
                evaluator(closed, melds).calc(win, dora, conditions(**kw), ura)

        run(inputs[:warm])
        run(inputs[warm : warm + n])
        return 0
    from tenbou.errors import TenbouError

    if engine == "tenbou-objects":
        from bench_engines import _TABLE_KEYS
        from tenbou import score_hand
        from tenbou.api import parse_win_request

        # (every hand of the file parsed, in both runs: the difference is the scoring alone)
        objects = [parse_win_request({k: v for k, v in req.items() if k not in _TABLE_KEYS}) for req in data]

        def run_objects(batch: list[Any]) -> None:
            for hand, situation, rules in batch:
                try:  # noqa: SIM105 (the loop bench_engines.py times)
                    score_hand(hand, situation, rules)
                except TenbouError:
                    pass

        run_objects(objects[:warm])
        run_objects(objects[warm : warm + n])
        return 0
    from tenbou.api import score

    def run_tenbou(batch: list[dict[str, Any]]) -> None:
        for req in batch:
            try:  # noqa: SIM105 (the loop bench_engines.py times)
                score(req)
            except TenbouError:
                pass

    run_tenbou(data[:warm])
    run_tenbou(data[warm : warm + n])
    return 0


def totals(path: Path) -> dict[str, int]:
    names: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("events:"):
            names = line.split()[1:]
        elif line.startswith("totals:"):
            return dict(zip(names, map(int, line.split()[1:]), strict=True))
    raise RuntimeError(f"{path}: no totals (did callgrind finish?)")


def start(
    engine: str, env: dict[str, str], hands_path: Path, warm: int, n: int, out: Path
) -> subprocess.Popen[bytes]:
    """Callgrind started on the child, writing its counts to ``out`` (and its output beside it)."""
    cmd = [
        "valgrind",
        "--tool=callgrind",
        f"--callgrind-out-file={out}",
        "--cache-sim=yes",
        "--branch-sim=yes",
        "--LL=1048576,16,64",
        sys.executable,
        str(Path(__file__).resolve()),
        "--child",
        engine,
        str(hands_path),
        str(warm),
        str(n),
    ]
    with out.with_name(out.name + ".log").open("w") as log:
        return subprocess.Popen(cmd, env={**env, "PYTHONHASHSEED": "0"}, stdout=log, stderr=log)


def counts(
    engine: str, env: dict[str, str], hands_path: Path, warm: int, n: int, out: Path
) -> dict[str, float]:
    """What each of ``n`` fresh hands after ``warm`` costs the engine: its two runs under callgrind,
    side by side (two cores), one scoring ``warm`` + ``n`` hands and one ``warm``."""
    outs = (out.with_name(out.name + ".all"), out.with_name(out.name + ".warm"))
    procs = [start(engine, env, hands_path, warm, k, path) for k, path in zip((n, 0), outs, strict=True)]
    for proc, path in zip(procs, outs, strict=True):
        if proc.wait() != 0:
            raise RuntimeError(f"callgrind failed (exit status {proc.returncode}): see {path}.log")
    whole, warm_only = totals(outs[0]), totals(outs[1])
    return {e: (whole[e] - warm_only[e]) / n for e in EVENTS}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--warm", type=int, default=20000, help="hands scored before those counted (default 20000)"
    )
    ap.add_argument("--n", type=int, default=4000, help="hands counted (default 4000)")
    ap.add_argument(
        "--seed", type=int, default=100, help="generator seed of the first 2,000 hands (default 100)"
    )
    ap.add_argument("--pure", action="store_true", help="count the pure build too (about 4 times as long)")
    ap.add_argument(
        "--objects",
        action="store_true",
        help="count the compiled score_hand(hand, situation, rules) too, on objects parsed beforehand",
    )
    ap.add_argument("--compiled-dir", help="where the compiled build is kept (default: see _builds.py)")
    ap.add_argument(
        "--baseline-dir",
        help="another build of tenbou to count beside this one, on the same hands "
        "(pip install --no-deps --target DIR of an earlier commit)",
    )
    ap.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        engine, hands_path, warm, n = args.child
        return child(engine, hands_path, int(warm), int(n))
    if shutil.which("valgrind") is None:
        print("valgrind is needed (Debian: apt-get install valgrind)")
        return 1
    if args.warm < 0 or args.n < 1:
        ap.error("--warm: 0 or more; --n: 1 or more")
    import handgen
    from bench_engines import riichienv_plain

    total = args.warm + args.n
    hands = [h for i in range((total + 1999) // 2000) for h in handgen.generate(args.seed + i, 2000)][:total]
    tmp = Path(tempfile.mkdtemp(prefix="tenbou-callgrind-"))
    engines: dict[str, tuple[dict[str, str], Path]] = {}
    compiled = _builds.compiled_build(args.compiled_dir)
    if compiled is None:
        return 1
    (tmp / "tenbou.json").write_text(json.dumps(hands), encoding="utf-8")
    engines["tenbou compiled, api.score(dict)"] = (_builds.env_for(compiled), tmp / "tenbou.json")
    if args.objects:
        engines[OBJECTS] = (_builds.env_for(compiled), tmp / "tenbou.json")
    if args.baseline_dir:
        baseline = Path(args.baseline_dir)
        if not (baseline / "tenbou" / "__init__.py").exists():
            ap.error(f"--baseline-dir: no build of tenbou in {baseline} (pip install --no-deps --target DIR)")
        engines[BASELINE] = (_builds.env_for(baseline), tmp / "tenbou.json")
        if args.objects:
            engines[BASELINE_OBJECTS] = (_builds.env_for(baseline), tmp / "tenbou.json")
    if args.pure:
        engines["tenbou pure Python, api.score(dict)"] = (_builds.env_for(_builds.PURE), tmp / "tenbou.json")
    try:
        import riichienv  # noqa: F401
    except ImportError:
        print("riichienv is not installed (pip install '.[bench]'): tenbou alone")
    else:
        (tmp / "riichienv.json").write_text(
            json.dumps([riichienv_plain(h, handgen.to_mahjong(h)) for h in hands]), encoding="utf-8"
        )
        engines[RIICHIENV] = (dict(os.environ), tmp / "riichienv.json")
    print(
        f"callgrind: {args.n} fresh hands after {args.warm} (seeds {args.seed}..), PYTHONHASHSEED=0, "
        f"a 1 MiB last level; two runs an engine, two at a time (outputs in {tmp})",
        flush=True,
    )
    rows = {
        name: counts(_CHILD.get(name, "tenbou"), env, data, args.warm, args.n, tmp / f"cg.{i}")
        for i, (name, (env, data)) in enumerate(engines.items())
    }
    ref = rows.get(RIICHIENV)
    print(f"\n{'a hand':<38}" + "".join(f"{label:>22}" for label in EVENTS.values()))
    for name, row in rows.items():
        cells = []
        for e in EVENTS:
            ratio = f" ({row[e] / ref[e]:.2f}x)" if ref and name != RIICHIENV and ref[e] else ""
            cells.append(f"{row[e]:,.1f}{ratio}".rjust(22))
        print(f"{name:<38}" + "".join(cells))
    if ref:
        print("(x: against RiichiEnv's Python API)")
    for base, mine in _AGAINST.items():
        if base in rows:
            before, after = rows[base]["Ir"], rows[mine]["Ir"]
            print(
                f"{mine}: {after:,.1f} instructions a hand against the baseline's {before:,.1f} "
                f"({(after - before) / before:+.2%})"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
