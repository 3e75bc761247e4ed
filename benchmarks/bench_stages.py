"""Where the time of ``api.score`` goes, stage by stage, and how much of it is a wait on memory.

Usage: ``python benchmarks/bench_stages.py [--n 2000] [--warm 10] [--passes 6] [--compiled]
[--compiled-dir DIR]``

Each request of a stream of fresh random winning hands (``tests/handgen.py``, JSON-shaped as
``json.loads`` makes them) goes through the stages of :func:`tenbou.api.score` one by one -- read
the request (``_parse_win``: the request's fields, the hand's tiles, melds and indicators), score
(``scored_or_refused``: validation, the readings, yaku, fu, dora), pay (``settle_win_parts``),
write the result dict (``win_to_dict``) -- and each stage is timed twice in a row on the same
hand: the first time as a stream of hands meets it, then again at once, with everything it reads
(the request, the parts of the hand's suits kept by :mod:`tenbou.core.shape`, the yaku tables) in the
processor's caches and the branches just taken. The difference is what the stage waits for memory
(and for branches a stream does not repeat). ``read_counts``, the look-up of the hand's suits,
is timed the same way on its own. Then ``api.score`` itself, first and again, and -- when
``riichienv`` is installed -- RiichiEnv's Python API (``HandEvaluator(...).calc``, the peer of
``benchmarks/bench_engines.py``) on the same hands, first and again: the same work and the same
waits, measured the same way. Two more rows take the refused hands (no yaku, not winning) alone:
their reading and scoring (which makes their error's message), and their ``api.score`` call, which
raises the error, caught by the caller: the difference is what raising it costs.

Last, whole calls on four streams, pass by pass in turn, tenbou's and RiichiEnv's: fresh hands
whose request objects were made long before (as in ``bench_engines.py``) or just before the pass,
and a pass's first 200 hands called over and over, on the same objects (``bench_engines.py
--distinct 200``) or on a new copy each call. Fresh against repeated hands is what a stream of new
hands costs; the objects' age and the copies tell how much of that is reading the request.

``--warm`` passes of ``--n`` hands are scored first and not timed (the caches of suit patterns and
melds fill as a long stream fills them). Times are means in ns a hand, single thread, from
``time.perf_counter_ns`` around each call (its own cost, about 70 ns, is printed as ``clock``).

``--compiled`` runs the same in a fresh process on the compiled build (``pip install .`` of this
checkout, kept in a folder: ``benchmarks/_builds.py``); without it, the tenbou importable here.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
sys.path.insert(0, str(HERE))

import _builds  # noqa: E402
import handgen  # noqa: E402

STAGES = ("read request", "score", "pay", "result dict")
#: the refused hands alone: read and scored (the stages, their error's message made), and through
#: ``api.score``, which raises their error (caught by the caller); the difference is the exception's
REFUSED_STAGES = "refused: read+score"
REFUSED_CALL = "refused: api.score"
#: how many hands of a pass are called over and over in the repeated streams
REPEATED = 200


def run(n: int, warm: int, passes: int) -> None:
    import tenbou
    from tenbou.api import score
    from tenbou.api.request import _SCORE_KEYS, _parse_win
    from tenbou.core.scoring import HandScore, scored_or_refused
    from tenbou.core.shape import read_counts
    from tenbou.errors import TenbouError
    from tenbou.settle.payment import settle_win_parts
    from tenbou.settle.results import win_to_dict

    streams: list[list[dict[str, Any]]] = json.loads(
        json.dumps([handgen.generate(seed, n) for seed in range(1, warm + passes + 1)])
    )
    for hands in streams[:warm]:
        for req in hands:
            try:  # noqa: SIM105
                score(req)
            except TenbouError:
                pass

    def read(req: dict[str, Any]) -> tuple[Any, ...]:
        """The request read as ``score`` reads it (its honba and sticks among its fields)."""
        return _parse_win(req, _SCORE_KEYS, None, ("honba" in req) + ("riichi_sticks" in req))

    clock = time.perf_counter_ns
    times: dict[str, tuple[list[int], list[int]]] = {
        k: ([], []) for k in (*STAGES, REFUSED_STAGES, "read_counts", "api.score", REFUSED_CALL, "clock")
    }
    refused = 0
    for hands in streams[warm:]:
        gc.collect()
        for req in hands:
            for again in (0, 1):
                t0 = clock()
                try:
                    hand, situation, rules, _ = read(req)
                except TenbouError:  # (a bad request: none in a generated stream)
                    break
                t1 = clock()
                hs = scored_or_refused(hand, situation, rules)
                t2 = clock()
                times["read request"][again].append(t1 - t0)
                times["score"][again].append(t2 - t1)
                if not isinstance(hs, HandScore):
                    refused += 1 - again
                    times[REFUSED_STAGES][again].append(t2 - t0)
                    continue
                parts = settle_win_parts(hs, (), req.get("honba", 0), req.get("riichi_sticks", 0), None)
                t3 = clock()
                win_to_dict(hs, (), *parts)
                t4 = clock()
                times["pay"][again].append(t3 - t2)
                times["result dict"][again].append(t4 - t3)
    # the whole call, and the suits' look-up on its own, each on a pass of its own over fresh copies
    # of the stream (the same objects again would be at hand)
    for hands in json.loads(json.dumps(streams[warm:])):
        gc.collect()
        for req in hands:
            for again in (0, 1):
                t0 = clock()
                try:
                    score(req)
                    scored = True
                except TenbouError:
                    scored = False
                t1 = clock()
                t2 = clock()
                times["api.score"][again].append(t1 - t0)
                if not scored:
                    times[REFUSED_CALL][again].append(t1 - t0)
                times["clock"][again].append(t2 - t1)
    for hands in json.loads(json.dumps(streams[warm:])):
        gc.collect()
        read_hands = []
        for req in hands:
            try:
                read_hands.append((req, read(req)[0].concealed_counts))
            except TenbouError:
                continue
        for req, c in read_hands:
            json.dumps(req)  # (a stream of other data between two hands, as the stages make)
            for again in (0, 1):
                t0 = clock()
                read_counts(c)
                times["read_counts"][again].append(clock() - t0)
    peer = _riichienv_twice(streams[warm:], clock)
    if peer is not None:
        times["RiichiEnv API"] = peer
    total = sum(len(h) for h in streams[warm:])
    print(f"tenbou {tenbou.build_info()} ({tenbou.__file__})")
    print(
        f"{passes} passes of {n} fresh hands after {warm} passes of warm-up ({total} hands; "
        f"{refused} refused by scoring: no yaku or not winning)"
    )
    print(f"  {'ns a hand (mean)':<18} {'first':>8} {'again':>8} {'waits':>8}")
    for name in (*STAGES, "api.score", "RiichiEnv API", "read_counts", REFUSED_STAGES, REFUSED_CALL, "clock"):
        if not times.get(name, ((), ()))[0]:
            continue
        first, again = times[name]
        a, b = statistics.mean(first), statistics.mean(again)
        print(f"  {name:<18} {a:8.0f} {b:8.0f} {a - b:8.0f}")
    stages = sum(statistics.mean(times[s][0]) for s in STAGES)
    print(f"  stages in all, first: {stages:.0f} ns (each with the clock's own cost)")
    _fresh_or_repeated(streams[warm:], n)


def _fresh_or_repeated(streams: list[list[dict[str, Any]]], n: int) -> None:
    """Whole calls on four streams, pass by pass in turn: fresh hands (their request objects made
    long before, as in bench_engines, or just before the pass), and the first ``REPEATED`` hands of
    a pass called over and over to ``n`` calls (the same objects each time, as bench_engines'
    ``--distinct``, or a new copy each call, made before the pass). Fresh against repeated hands
    is what a stream of new hands costs; the objects' age and the copies tell how much of that is
    reading the request's objects, rather than the hands' own variety (the branches they take,
    the code they run, the entries they look up). RiichiEnv's Python API, when installed, is
    timed on the same four (its inputs made as bench_engines makes them)."""
    from tenbou.api import score
    from tenbou.errors import TenbouError

    def tenbou_pass(reqs: list[dict[str, Any]]) -> float:
        t = time.perf_counter()
        for req in reqs:
            try:  # noqa: SIM105
                score(req)
            except TenbouError:
                pass
        return (time.perf_counter() - t) / len(reqs) * 1e6

    r = min(REPEATED, n)
    kinds = (
        "fresh hands, request objects made long before",
        "fresh hands, request objects made just before",
        f"{r} hands over and over, the same objects",
        f"{r} hands over and over, new objects each call",
    )

    def repeated(hands: list[Any]) -> list[Any]:
        """The first ``r`` of ``hands`` over and over, to ``n`` calls."""
        return [hands[k % r] for k in range(n)]

    peer = _riichienv_pass()
    old = json.loads(json.dumps(streams))  # (made now, long before their pass comes)
    copies = [json.loads(json.dumps(repeated(h))) for h in streams]
    results: dict[str, dict[str, list[float]]] = {"tenbou": {k: [] for k in kinds}}

    def four(
        timed: Callable[[list[Any]], float],
        remade: Callable[[list[dict[str, Any]]], list[Any]],
        hands: list[dict[str, Any]],
        made_before: list[Any],
        copied: list[Any],
    ) -> list[float]:
        """One pass of each stream, in the order of ``kinds`` (the second's objects remade from
        ``hands`` just now)."""
        return [timed(made_before), timed(remade(hands)), timed(repeated(made_before)), timed(copied)]

    def json_copy(hands: list[dict[str, Any]]) -> list[Any]:
        return list(json.loads(json.dumps(hands)))

    for i, hands in enumerate(streams):
        gc.collect()
        passes = four(tenbou_pass, json_copy, hands, old[i], copies[i])
        for kind, t in zip(kinds, passes, strict=True):
            results["tenbou"][kind].append(t)
    if peer is not None:
        inputs, peer_pass = peer
        results["RiichiEnv API"] = {k: [] for k in kinds}
        peer_old = [inputs(h) for h in streams]
        peer_copies = [inputs(repeated(h)) for h in streams]
        for i, hands in enumerate(streams):
            gc.collect()
            passes = four(peer_pass, inputs, hands, peer_old[i], peer_copies[i])
            for kind, t in zip(kinds, passes, strict=True):
                results["RiichiEnv API"][kind].append(t)
    print(f"whole calls, us a hand (best; median of {len(streams)} passes of {n} calls), streams in turn:")
    for engine, by_kind in results.items():
        if not by_kind[kinds[0]]:
            continue
        for kind in kinds:
            v = by_kind[kind]
            print(f"  {engine:<14} {kind:<52} {min(v):6.2f}; {statistics.median(v):6.2f}")


def _riichienv_pass() -> (
    tuple[Callable[[list[dict[str, Any]]], list[Any]], Callable[[list[Any]], float]] | None
):
    """RiichiEnv's inputs for a list of requests (made as bench_engines makes them) and a timed pass
    of its Python API over such inputs (us a hand); None without riichienv."""
    try:
        import riichienv
    except ImportError:
        return None
    import bench_engines

    evaluator, conditions = riichienv.HandEvaluator, riichienv.Conditions

    def inputs(hands: list[dict[str, Any]]) -> list[Any]:
        return [bench_engines.to_riichienv(r, handgen.to_mahjong(r)) for r in hands]

    def timed(batch: list[Any]) -> float:
        t = time.perf_counter()
        for closed, melds, win, dora, ura, kw in batch:
            evaluator(closed, melds).calc(win, dora, conditions(**kw), ura)
        return (time.perf_counter() - t) / len(batch) * 1e6

    return inputs, timed


def _riichienv_twice(
    streams: list[list[dict[str, Any]]], clock: Callable[[], int]
) -> tuple[list[int], list[int]] | None:
    """RiichiEnv's Python API on the hands of ``streams``, each hand first and again (its inputs made
    beforehand, as ``bench_engines.py`` makes them); None without riichienv."""
    try:
        import riichienv
    except ImportError:
        return None
    import bench_engines

    evaluator, conditions = riichienv.HandEvaluator, riichienv.Conditions
    inputs = [[bench_engines.to_riichienv(r, handgen.to_mahjong(r)) for r in hands] for hands in streams]
    first: list[int] = []
    again: list[int] = []
    for batch in inputs:
        gc.collect()
        for closed, melds, win, dora, ura, kw in batch:
            for times in (first, again):
                t0 = clock()
                evaluator(closed, melds).calc(win, dora, conditions(**kw), ura)
                times.append(clock() - t0)
    return first, again


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=2000, help="hands in a pass (default 2000)")
    ap.add_argument("--warm", type=int, default=10, help="passes of warm-up, not timed (default 10)")
    ap.add_argument("--passes", type=int, default=6, help="timed passes (default 6)")
    ap.add_argument("--compiled", action="store_true", help="time the compiled build (pip install .)")
    ap.add_argument("--compiled-dir", help="where the compiled build is kept (default: see _builds.py)")
    args = ap.parse_args(argv)
    if args.n < 1 or args.warm < 0 or args.passes < 1:
        ap.error("--n and --passes must be at least 1, --warm at least 0")
    if not (args.compiled or args.compiled_dir):
        run(args.n, args.warm, args.passes)
        return 0
    folder = _builds.compiled_build(args.compiled_dir)
    if folder is None:
        return 1
    cmd = [
        sys.executable,
        __file__,
        "--n",
        str(args.n),
        "--warm",
        str(args.warm),
        "--passes",
        str(args.passes),
    ]
    return subprocess.run(cmd, env=_builds.env_for(folder), check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
