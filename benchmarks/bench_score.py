"""Scoring speed of tenbou against the ``mahjong`` package (2.1.0), in one run.

Usage: ``python benchmarks/bench_score.py [--n 5000] [--seed 1] [--repeat 5] [--compiled]``

Both engines score the same random hands from ``tests/handgen.py`` (valid winning hands, about
12 % without yaku and 2 % not winning; errors cost the same as scores on both sides). Every pass
scores ``--n`` *fresh* hands (seed, seed + 1, ...): no cache keyed by the input can help a pass,
only what any real stream of hands shares (the melds and suit patterns met before).

What is timed, per hand, single thread:

- tenbou: ``tenbou.api.score(request_dict)`` -- JSON-shaped dict in, result dict out (parsing,
  validation, scoring, payments); a ``TenbouError`` (no yaku, not winning) is caught.
- mahjong: ``HandCalculator().estimate_hand_value(tiles, win, melds, dora, HandConfig(**kw),
  ura_dora_indicators=ura)`` -- the conversion of the request to 136-ids and ``Meld`` objects is done
  *before* timing (it is our code, not theirs); the ``HandConfig`` is built *inside* the timed loop,
  fresh per hand, because mahjong mutates it (that is what a correct caller pays).

Each engine runs ``--repeat`` timed passes after one warm-up pass (its own hands); the best pass
is reported (hands/second) with the ratio tenbou / mahjong (> 1: tenbou is faster). tenbou's first
pass in a fresh process (cold caches) is reported apart. tenbou is the one importable here (an
editable install: pure Python). ``--compiled`` also times the compiled build (``pip install .`` of this
checkout, mypyc, into a folder kept for the next run) on the same passes, in a fresh process.
``bench_engines.py`` compares every build and API of tenbou with mahjong and RiichiEnv.
Then, in fresh subprocesses: the peak and retained memory of tenbou's caches (tracemalloc around
a warm-up over the hands), the time to ``import tenbou.api``, and the wall time of one cold
``score`` call (import included).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
sys.path.insert(0, str(TESTS))

import handgen  # noqa: E402

# -- subprocess probes (run with ``python -c``; they print one JSON line) ------------------------

_IMPORT_PROBE = """
import time, json
t = time.perf_counter()
import {module}
print(json.dumps({{"seconds": time.perf_counter() - t}}))
"""

_COLD_CALL_PROBE = """
import time, json
t0 = time.perf_counter()
from tenbou.api import score
t1 = time.perf_counter()
score(json.loads({req!r}))
t2 = time.perf_counter()
print(json.dumps({{"import": t1 - t0, "call": t2 - t1}}))
"""

_MEMORY_PROBE = """
import json, sys, tracemalloc
sys.path.insert(0, {tests!r})
import handgen
from tenbou.api import score
from tenbou.errors import TenbouError
hands = handgen.generate({seed}, {n})
def entries(obj):  # a dict's entries; of a tuple of dicts, or a dict of dicts, all of theirs; a count
    if isinstance(obj, list):  # kept in a list (shape._TABLE_USED: the table's filled slots), the count
        return obj[0]
    if isinstance(obj, tuple):
        return sum(map(entries, obj))
    if obj and all(isinstance(v, dict) for v in obj.values()):
        return sum(map(len, obj.values()))
    return len(obj)
tracemalloc.start()
base, _ = tracemalloc.get_traced_memory()
for req in hands:
    try:
        score(req)
    except TenbouError:
        pass
current, peak = tracemalloc.get_traced_memory()
tracemalloc.stop()
info = {{"retained": current - base, "peak": peak - base, "caches": {{}}}}
for name, mod in sorted(sys.modules.items()):
    if name.startswith("tenbou"):
        for attr, obj in vars(mod).items():
            if callable(getattr(obj, "cache_info", None)) and getattr(obj, "__module__", None) == name:
                info["caches"][f"{{name}}.{{attr}}"] = obj.cache_info().currsize
            elif attr in {known!r}:  # the plain dicts the hot path fills as it meets hands
                info["caches"][f"{{name}}.{{attr}}"] = entries(obj)
print(json.dumps(info))
"""


def _python(code: str) -> tuple[dict[str, Any], float]:
    """Run ``code`` in a fresh interpreter; its JSON line and the wall time of the whole process."""
    t = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    wall = time.perf_counter() - t
    return json.loads(out.stdout.strip().splitlines()[-1]), wall


def _best_of(runs: int, code: str, key: str) -> float:
    return min(_python(code)[0][key] for _ in range(runs))


# -- timing ---------------------------------------------------------------------------------------


def _time_tenbou(hands: list[dict[str, Any]]) -> tuple[float, dict[str, int]]:
    from tenbou.api import score
    from tenbou.errors import TenbouError

    outcomes: dict[str, int] = {}
    t = time.perf_counter()
    for req in hands:
        try:
            score(req)
            key = "ok"
        except TenbouError as e:
            key = e.code
        outcomes[key] = outcomes.get(key, 0) + 1
    return time.perf_counter() - t, outcomes


def _time_mahjong(inputs: list[handgen.MahjongInputs]) -> tuple[float, dict[str, int]]:
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig

    calc = HandCalculator()
    outcomes: dict[str, int] = {}
    t = time.perf_counter()
    for tiles, win, melds, dora, ura, kw in inputs:
        r = calc.estimate_hand_value(tiles, win, melds, dora, HandConfig(**kw), ura_dora_indicators=ura)
        key = r.error or "ok"
        outcomes[key] = outcomes.get(key, 0) + 1
    return time.perf_counter() - t, outcomes


def _interleaved(
    passes: list[list[dict[str, Any]]], inputs: list[list[handgen.MahjongInputs]]
) -> tuple[float, list[float], list[float], dict[str, int], dict[str, int]]:
    """Both engines pass by pass, in turn (so that a change in the machine's speed touches both):
    tenbou's first pass (cold caches) and mahjong's warm them up; then the seconds of each
    timed pass of each, and the outcomes of the last."""
    cold_s, _ = _time_tenbou(passes[0])
    _time_mahjong(inputs[0])
    t_runs: list[float] = []
    m_runs: list[float] = []
    t_out: dict[str, int] = {}
    m_out: dict[str, int] = {}
    for batch, batch_in in zip(passes[1:], inputs[1:], strict=True):
        s, t_out = _time_tenbou(batch)
        t_runs.append(s)
        s, m_out = _time_mahjong(batch_in)
        m_runs.append(s)
    return cold_s, t_runs, m_runs, t_out, m_out


_COMPILED_PROBE = """
import json, sys
sys.path.insert(0, {bench!r})
import bench_score, handgen
import tenbou
assert tenbou.BUILD == "compiled (mypyc)", tenbou.BUILD
passes = json.load(open({path!r}))
inputs = [[handgen.to_mahjong(req) for req in hands] for hands in passes]
_, t_runs, m_runs, _, _ = bench_score._interleaved(passes, inputs)
print(json.dumps({{"tenbou": t_runs, "mahjong": m_runs}}))
"""


def _time_compiled(
    passes: list[list[dict[str, Any]]], where: str | None
) -> tuple[list[float], list[float]] | None:
    """The compiled build (``pip install .`` into a folder, kept: ``benchmarks/_builds.py``) timed
    against mahjong in a fresh process: the seconds of each timed pass of each."""
    import tempfile

    import _builds

    target = _builds.compiled_build(where)
    if target is None:
        return None
    if not any(target.glob("tenbou/**/scoring*.so")):
        print(f"\nthe build in {target} is pure Python (no C compiler here?): nothing compiled to time")
        return None
    with tempfile.TemporaryDirectory(prefix="tenbou-bench-") as tmp:
        path = Path(tmp, "hands.json")
        path.write_text(json.dumps(passes))
        code = _COMPILED_PROBE.format(path=str(path), bench=str(Path(__file__).resolve().parent))
        out = subprocess.run(
            [sys.executable, "-c", code],
            env=_builds.env_for(target),
            check=True,
            capture_output=True,
            text=True,
        )
    runs = json.loads(out.stdout.strip().splitlines()[-1])
    return runs["tenbou"], runs["mahjong"]


def _ratios(t_runs: list[float], m_runs: list[float]) -> str:
    """mahjong's time over tenbou's: best against best, and pass by pass (the engines ran in turn)."""
    per_pass = sorted(m / t for t, m in zip(t_runs, m_runs, strict=True))
    return (
        f"{min(m_runs) / min(t_runs):.2f}x best against best; pass by pass "
        f"{per_pass[0]:.2f}x-{per_pass[-1]:.2f}x, median {statistics.median(per_pass):.2f}x"
    )


def _rate(n: int, seconds: float) -> str:
    return f"{n / seconds:>9,.0f} hands/s ({seconds / n * 1e6:6.1f} us/hand)"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=5000, help="number of random hands (default 5000)")
    ap.add_argument("--seed", type=int, default=1, help="generator seed (default 1)")
    ap.add_argument("--repeat", type=int, default=5, help="timed passes per engine; the best is kept")
    ap.add_argument("--probes", type=int, default=5, help="fresh subprocesses per start-up measurement")
    ap.add_argument(
        "--compiled",
        action="store_true",
        help="also time the compiled build (pip install . of this checkout, built once into a folder and "
        "kept; about 40 s, needs a C compiler) on the same hands",
    )
    ap.add_argument(
        "--compiled-dir", help="where the compiled build is kept (default: see benchmarks/_builds.py)"
    )
    args = ap.parse_args(argv)
    n = args.n

    print(
        f"python {platform.python_version()} ({platform.python_implementation()}), "
        f"{platform.machine()}, os.cpu_count()={os.cpu_count()}"
    )
    t = time.perf_counter()
    passes = [handgen.generate(args.seed + i, n) for i in range(args.repeat + 1)]
    gen_s = time.perf_counter() - t
    t = time.perf_counter()
    inputs = [[handgen.to_mahjong(req) for req in hands] for hands in passes]
    conv_s = time.perf_counter() - t
    hands = passes[0]
    print(
        f"{args.repeat + 1} passes of {n} fresh hands, seeds {args.seed}..{args.seed + args.repeat}: "
        f"generated in {gen_s:.2f} s, converted for mahjong in {conv_s:.2f} s (conversion not timed below)"
    )

    cold_s, t_runs, m_runs, t_out, m_out = _interleaved(passes, inputs)
    t_best, m_best = min(t_runs), min(m_runs)

    print(f"outcomes of the last pass, tenbou : {dict(sorted(t_out.items()))}")
    print(f"outcomes of the last pass, mahjong: {dict(sorted(m_out.items()))}")
    print(f"\nbest of {args.repeat} passes of {n} fresh hands each (single thread):")
    print(
        f"  tenbou  api.score(dict)                          {_rate(n, t_best)}"
        f"  median {n / statistics.median(t_runs):,.0f}/s"
    )
    print(
        f"  mahjong estimate_hand_value + fresh HandConfig   {_rate(n, m_best)}"
        f"  median {n / statistics.median(m_runs):,.0f}/s"
    )
    print(f"  ratio tenbou/mahjong (hands/s): {_ratios(t_runs, m_runs)}")
    print(f"  tenbou first pass, cold caches:                  {_rate(n, cold_s)}")
    if args.compiled:
        compiled = _time_compiled(passes, args.compiled_dir)
        if compiled is not None:
            c_runs, cm_runs = compiled
            print("\nthe mypyc build of tenbou (same source, same passes, both engines in a fresh process):")
            print(f"  tenbou compiled with mypyc                       {_rate(n, min(c_runs))}")
            print(f"  mahjong (the same process)                       {_rate(n, min(cm_runs))}")
            print(f"  ratio compiled tenbou/mahjong (hands/s): {_ratios(c_runs, cm_runs)}")

    known = ("_MELDS", "_TABLE_USED", "_PARTS", "_ASKED", "_FOUND")
    mem, _ = _python(_MEMORY_PROBE.format(tests=str(TESTS), seed=args.seed, n=n, known=known))
    print(f"\ntenbou caches (fresh process, tracemalloc around one warm-up pass over the {n} hands):")
    print(
        f"  peak {mem['peak'] / 1024:,.0f} KiB; retained after the pass {mem['retained'] / 1024:,.0f} KiB "
        "(caches and anything loaded lazily, e.g. rule presets)"
    )
    entries = ", ".join(f"{k.removeprefix('tenbou.')} {v}" for k, v in mem["caches"].items())
    print(f"  cache entries: {entries}")

    k = args.probes
    bare = min(_python('import json; print(json.dumps({"x": 0}))')[1] for _ in range(k))
    imp_t = _best_of(k, _IMPORT_PROBE.format(module="tenbou.api"), "seconds")
    imp_m = _best_of(k, _IMPORT_PROBE.format(module="mahjong.hand_calculating.hand"), "seconds")
    from tenbou.api import score
    from tenbou.errors import TenbouError

    def scores(r: dict[str, Any]) -> bool:
        try:
            score(r)
        except TenbouError:
            return False
        return True

    req = json.dumps(next(h for h in hands if scores(h)))  # a hand that scores (no error path)
    cold = [_python(_COLD_CALL_PROBE.format(req=req)) for _ in range(k)]
    best_cold = min(cold, key=lambda x: x[1])
    print(f"\nstart-up (best of {k} fresh subprocesses):")
    print(f"  import tenbou.api                   {imp_t * 1e3:7.1f} ms")
    print(f"  import mahjong.hand_calculating.hand {imp_m * 1e3:6.1f} ms")
    print(
        f"  one cold score() call: import {best_cold[0]['import'] * 1e3:.1f} ms + first call "
        f"{best_cold[0]['call'] * 1e3:.1f} ms; whole subprocess {best_cold[1] * 1e3:.0f} ms wall "
        f"(a bare interpreter: {bare * 1e3:.0f} ms)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
