"""Speed of ``tenbou verify`` on real records: games per second on one core, and the scaling with
``--jobs 2``, in one run.

Usage: ``python benchmarks/bench_verify.py [PATH ...] [--limit N] [--jobs 2] [--repeat 1]``

The records are the files under PATH (default: ``../shared/corpus/mjlog`` and
``../shared/corpus/tenhou6`` beside the checkout; without them, ``--selfplay`` games of tenbou's
own self-play written as mjai records). What is timed is :func:`tenbou.verify.run.verify_paths`,
exactly what ``tenbou verify`` runs: reading and parsing each file (mjlog XML, tenhou.net/6 JSON,
mjai), turning it into events, replaying every game through :class:`tenbou.engine.game.Game` and comparing
every hand with the record. After an untimed warm-up pass: first in this process (one core), then
over ``--jobs`` worker processes (the pool's start-up included, as a user pays it). The best of
``--repeat`` passes is reported, with the speed-up of the parallel run over one core and both runs'
summaries (which must be the same).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"


def _selfplay_files(folder: Path, n: int) -> list[str]:
    import random

    from tenbou.engine.events import events_to_lines
    from tenbou.engine.table import GreedyAgent, play_game
    from tenbou.rules import get_rules

    out = []
    for seed in range(n):
        agents = [GreedyAgent(random.Random(seed * 4 + i)) for i in range(4)]
        try:
            events = play_game(get_rules("tenhou"), seed=seed, agents=agents)
        except Exception:
            continue
        path = folder / f"game{seed:04d}.jsonl"
        path.write_text("\n".join(events_to_lines(events)) + "\n", encoding="utf-8")
        out.append(str(path))
    return out


def _run(paths: list[str], jobs: int) -> tuple[float, dict[str, Any]]:
    from tenbou.verify.run import verify_paths
    from tenbou.verify.summaries import summarize

    start = time.perf_counter()
    lines = [line for result in verify_paths(paths, jobs=jobs) for line in result["lines"]]
    return time.perf_counter() - start, summarize(lines)["summary"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", help="record files or folders (default: the shared corpus)")
    parser.add_argument("--limit", type=int, default=0, help="use only the first N files (0: all)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes of the parallel run")
    parser.add_argument("--repeat", type=int, default=1, help="passes of each run (the best is reported)")
    parser.add_argument("--selfplay", type=int, default=40, help="self-play games when there is no corpus")
    args = parser.parse_args()

    from tenbou.verify.run import find_record_files

    tmp = None
    roots = args.paths or [str(d) for d in (CORPUS / "mjlog", CORPUS / "tenhou6") if d.is_dir()]
    if roots:
        files = [path for path, _ in find_record_files(roots)]
        where = ", ".join(roots)
    else:
        tmp = tempfile.TemporaryDirectory()
        files = _selfplay_files(Path(tmp.name), args.selfplay)
        where = f"{len(files)} self-play games (no corpus found)"
    if args.limit:
        files = files[: args.limit]
    print(f"tenbou verify benchmark: {len(files)} files from {where}")
    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores")

    # warm the engine's tables and caches first, so that neither run pays for them (the worker
    # processes are forked from this one and inherit them)
    _run(files[: min(len(files), 20)], 1)
    best: dict[int, tuple[float, dict[str, Any]]] = {}
    for jobs in (1, args.jobs):
        for _ in range(max(1, args.repeat)):
            seconds, summary = _run(files, jobs)
            if jobs not in best or seconds < best[jobs][0]:
                best[jobs] = (seconds, summary)
    one_t, one = best[1]
    par_t, par = best[args.jobs]
    for label, (t, s) in (("1 core", best[1]), (f"--jobs {args.jobs}", best[args.jobs])):
        print(
            f"{label:>9}: {t:6.2f} s  {s['games'] / t:7.1f} games/s  {s['hands'] / t:8.0f} hands/s  "
            f"({s['games']} games, {s['hands']} hands, {s['matched']} matched, {s['mismatched']} mismatched, "
            f"{s['skipped']} skipped)"
        )
    print(f"  speed-up: x{one_t / par_t:.2f} with {args.jobs} processes (ideal x{args.jobs})")
    if one != par:
        print("  ERROR: the summaries differ", file=sys.stderr)
        sys.exit(1)
    print("  same summary either way")
    if tmp is not None:
        tmp.cleanup()


if __name__ == "__main__":
    main()
