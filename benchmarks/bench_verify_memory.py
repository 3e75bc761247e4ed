"""Memory of a long ``tenbou verify`` run: the resident set after every block of games, in one
process, over ``--games`` games (the corpus's files verified again and again, as a run over an
archive of many thousand records would), and the speed on the way.

Usage: ``python benchmarks/bench_verify_memory.py [PATH ...] [--games 10000] [--every 1000]``

The records are the files under PATH (default: ``../shared/corpus/mjlog`` and
``../shared/corpus/tenhou6`` beside the checkout; without them, tenbou's own self-play written as
mjai). What runs is :func:`tenbou.verify.run.verify_file` per file, exactly what ``tenbou verify``
does on one core, and the results are counted and dropped as a streaming run drops them. Printed:
games and hands done, games per second, the resident set (``/proc/self/statm``) after each block,
its growth from the first block to the last, and whether every pass gave the same summary.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import tempfile
import time
from pathlib import Path

from tenbou.verify.run import find_record_files, verify_file
from tenbou.verify.summaries import summarize

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"


def _rss_mib() -> float:
    """The resident set of this process now, in MiB."""
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def _selfplay_files(folder: Path, n: int) -> list[str]:
    import random

    from tenbou.engine.events import events_to_lines
    from tenbou.engine.table import GreedyAgent, play_game
    from tenbou.rules import get_rules

    out = []
    for seed in range(n):
        bots = [GreedyAgent(random.Random(seed * 4 + i)) for i in range(4)]
        path = folder / f"selfplay{seed}.jsonl"
        path.write_text("\n".join(events_to_lines(play_game(get_rules("tenhou"), seed=seed, agents=bots))))
        out.append(str(path))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="*", help="record files or folders (default: the shared corpus)")
    ap.add_argument("--games", type=int, default=10_000, help="games to verify in all (default 10,000)")
    ap.add_argument("--every", type=int, default=1_000, help="games between two memory readings")
    args = ap.parse_args(argv)
    paths = args.paths or [str(CORPUS / "mjlog"), str(CORPUS / "tenhou6")]
    with tempfile.TemporaryDirectory() as tmp:
        if not any(Path(p).exists() for p in paths):
            print("no corpus: verifying tenbou's own self-play records instead")
            paths = _selfplay_files(Path(tmp), 20)
        items = find_record_files(paths)
        if not items:
            print("no record files", file=sys.stderr)
            return 2
        games = hands = 0
        summaries: list[str] = []
        readings: list[tuple[int, float]] = []
        next_reading = args.every
        start = time.perf_counter()
        while games < args.games:
            lines: list[dict[str, object]] = []
            whole = True
            for path, named in items:
                file_lines = verify_file(path, named)["lines"]
                games += len({line.get("game") for line in file_lines if "hand" in line})
                hands += sum(1 for line in file_lines if "hand" in line)
                lines.extend(file_lines)
                if games >= next_reading:
                    gc.collect()
                    readings.append((games, _rss_mib()))
                    print(f"  {games:6,} games {hands:7,} hands  RSS {readings[-1][1]:6.1f} MiB")
                    next_reading += args.every
                if games >= args.games:
                    whole = False
                    break
            if whole:
                s = summarize(lines)["summary"]
                summaries.append(f"{s['matched']}/{s['hands']}")
            del lines
        seconds = time.perf_counter() - start
    print(f"{games:,} games, {hands:,} hands in {seconds:.1f} s: {games / seconds:.1f} games/s on one core")
    if len(readings) >= 2:
        first, last = readings[0][1], readings[-1][1]
        print(
            f"RSS after {readings[0][0]:,} games {first:.1f} MiB, after {readings[-1][0]:,} games "
            f"{last:.1f} MiB: growth {last - first:+.1f} MiB"
        )
    if summaries:
        same = len(set(summaries)) == 1
        print(f"{len(summaries)} whole passes, each the same summary (matched/hands {summaries[0]}): {same}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
