"""Scoring speed of tenbou -- compiled and pure Python, dict and object API -- against the
``mahjong`` package (2.1.0) and RiichiEnv (``riichienv``, a Rust core), on the same fresh hands in
one run, with a check that the engines agree on han and fu.

Usage: ``python benchmarks/bench_engines.py [--n 2000] [--seed 1] [--repeat 9] [--compiled-dir DIR]
[--baseline-dir DIR] [--distinct K] [--stream K]`` (``pip install ".[bench]"`` brings mahjong and riichienv).

The hands: ``--repeat + 1`` passes of ``--n`` fresh random winning hands (``tests/handgen.py``,
seeds seed, seed + 1, ...: about 12 % without yaku, 2 % not winning). Pass 0 warms every engine up
and is the one the agreement is checked on; passes 1.. are timed, the engines in turn pass by pass
(a change in the machine's speed touches them all alike).

``--distinct K`` times each pass on its first K hands only, called over and over to ``--n`` calls
(the same objects again, for every engine): the hands' data then stays in the processor's caches
when K is small, which a stream of fresh hands does not. Comparing a run with K = 200 and one
without tells how much of an engine's time goes to reading memory that a fresh hand brings
(pass 0, the warm-up and the agreement check, stays ``--n`` fresh hands).

``--baseline-dir DIR`` times one more build of tenbou in the same passes, the one installed in DIR
(``pip install --no-deps --target DIR`` of an earlier commit): its rows are printed with the others,
and this checkout's builds against it (the median of the pass-by-pass ratios), so that a change is
measured before and after in one run, on one machine, in the same minutes. Each of its rows is
timed right beside the same row of this checkout's build of its kind (compiled, or pure for a
baseline that is pure Python, e.g. ``--baseline-dir OLD/src``), first on every other pass
(:func:`pass_order`). Timed a pure Python pass apart and always after it, a build measured against
itself once came out 0.948x (2026-12-06, 21 passes); side by side and taking turns, four runs
of the same gave 0.981x-1.025x: a difference of a few per cent between two builds is within what
one run can tell (``bench_callgrind.py --baseline-dir`` counts instructions, which do not move).

``--stream K`` has each tenbou build score K other fresh hands (seeds from :data:`STREAM_SEED`, none
of the timed ones) before pass 0: the state of a long run, an analyst's millions of hands, where the
suit patterns, melds and sets of features that tenbou keeps have mostly been met, so that fewer of
the timed hands bring new ones. mahjong and RiichiEnv keep nothing from hand to hand: they are
not given them.

What is timed, per hand, single thread (what an engine is given is made before timing):

- tenbou ``api.score(dict)``: JSON-shaped request in, result dict out (parsing, validation, scoring,
  payments); a ``TenbouError`` (no yaku, not winning) is caught;
- tenbou ``score_hand(hand, situation, rules)``: the objects parsed from the request beforehand
  (``tenbou.api.parse_win_request``); scoring only, no payments;
- each of the two in the compiled build (``pip install .`` of this checkout, kept in a folder, see
  ``benchmarks/_builds.py``) and in pure Python (the checkout's ``src/``). One package name cannot
  hold both builds in one process: each build runs in a worker process of its own, which times its
  own loop when the main process says so (the others wait, idle, meanwhile);
- mahjong: ``HandCalculator().estimate_hand_value(...)`` with a fresh ``HandConfig`` per hand (136-ids
  and ``Meld`` objects from ``handgen.to_mahjong``, made beforehand);
- RiichiEnv: ``riichienv.HandEvaluator(tiles, melds).calc(win, dora, Conditions(...), ura)`` -- its
  Python API over the Rust core --, the same with what a caller reads of a win read from its
  result (``han``, ``fu``, ``yaku``, ``yakuman``, the points: getters, each converting a Rust value
  to Python's; tenbou's result dict is whole, and holds more, when it is returned), and the core
  class alone (``riichienv._riichienv.HandEvaluator``, the same call without the Python wrapper);
  the same 136-ids as mahjong; an evaluator per hand (one is made for one hand) and a
  ``Conditions`` per hand.

Printed: µs a hand (best pass and median pass), hands/s, the ratio to mahjong (mahjong's time over
the engine's, best against best, and the median of the pass-by-pass ratios: > 1 is faster) and,
when RiichiEnv was timed, to RiichiEnv's Python API (the median of the pass-by-pass ratios: the
engines timed in turn, a change in the machine's speed between passes touches both), then
the agreement, hand by hand on pass 0:

- the compiled and the pure build of tenbou: the whole result dict; its two APIs: han, fu, limit;
- tenbou (rules ``tenhou``) and mahjong (Tenhou-equivalent options): refusals (no yaku, not
  winning), han, and fu below mangan;
- tenbou (rules ``mahjongsoul``) and RiichiEnv, the same: RiichiEnv's ``HandEvaluator`` counts
  kokushi 13-wait, suuankou tanki, junsei chuuren and daisuushii as double yakuman, as Mahjong Soul
  does and Tenhou does not (it has no option for it);

with each disagreement listed (the request and both answers).
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import importlib.metadata
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
sys.path.insert(0, str(HERE))

import _builds  # noqa: E402
import handgen  # noqa: E402

#: a refusal or a score: (error code or None, han, fu, limit or None)
Outcome = tuple[str | None, int, int, str | None]
_TABLE_KEYS = ("honba", "riichi_sticks")  # settlement fields, not the hand's (score_hand has none)

# -- the worker: one build of tenbou, in a process of its own -------------------------------------


def as_timed(batches: list[list[Any]], distinct: int | None) -> list[list[Any]]:
    """The passes as timed: pass 0 as it is (the warm-up and the agreement check); each later pass's
    first ``distinct`` items called over and over to the pass's length (the same objects), or the
    passes themselves when ``distinct`` is None."""
    if distinct is None:
        return batches
    return [batches[0]] + [[b[j % distinct] for j in range(len(b))] for b in batches[1:]]


#: the generator seed of the first pass of ``--stream`` hands (far from the timed passes' seeds)
STREAM_SEED = 1_000_000


def pass_order(labels: list[str], i: int, pair: str = "compiled") -> list[str]:
    """The order the engines are timed in on pass ``i``: as listed, but for the baseline build's
    rows, each timed right beside the same row of this checkout's ``pair`` build (the build of the
    baseline's kind, compiled or pure), before it on even passes and after it on odd ones, so that
    neither of the two compared has the same place in every pass nor minutes between them (a drift
    of the machine's speed within a pass, or a cost of coming after another process, falls on both
    alike).

    >>> pass_order(["tenbou compiled api", "tenbou pure api", "tenbou baseline api", "mahjong"], 1)
    ['tenbou compiled api', 'tenbou baseline api', 'tenbou pure api', 'mahjong']
    >>> pass_order(["tenbou compiled api", "tenbou pure api", "tenbou baseline api", "mahjong"], 2)
    ['tenbou baseline api', 'tenbou compiled api', 'tenbou pure api', 'mahjong']
    >>> pass_order(["tenbou compiled api", "tenbou pure api", "tenbou baseline api", "mahjong"], 1, "pure")
    ['tenbou compiled api', 'tenbou pure api', 'tenbou baseline api', 'mahjong']
    """
    out: list[str] = []
    mine = f"tenbou {pair} "
    for label in labels:
        if label.startswith("tenbou baseline "):
            continue
        twin = label.replace(mine, "tenbou baseline ", 1)
        if label.startswith(mine) and twin in labels:
            out.extend((twin, label) if i % 2 == 0 else (label, twin))
        else:
            out.append(label)
    return out


def worker(hands_path: str, expect: str, distinct: int | None, stream: int) -> int:
    """Serve timing and checking requests (JSON lines on stdin) for the tenbou importable here,
    after scoring ``stream`` other fresh hands."""
    import tenbou
    from tenbou import score_hand  # (the path every version has: a --baseline-dir build may be older)
    from tenbou.api import parse_win_request, score
    from tenbou.errors import TenbouError

    passes: list[list[dict[str, Any]]] = json.loads(Path(hands_path).read_text(encoding="utf-8"))

    def objects(req: dict[str, Any]) -> Any:
        return parse_win_request({k: v for k, v in req.items() if k not in _TABLE_KEYS})

    inputs = [[objects(req) for req in hands] for hands in passes]
    passes = as_timed(passes, distinct)
    inputs = as_timed(inputs, distinct)

    def time_dict(hands: list[dict[str, Any]]) -> float:
        t = time.perf_counter()
        for req in hands:
            try:  # noqa: SIM105 (cheaper than contextlib.suppress in a timed loop)
                score(req)
            except TenbouError:
                pass
        return time.perf_counter() - t

    def time_objects(batch: list[Any]) -> float:
        t = time.perf_counter()
        for hand, situation, rules in batch:
            try:  # noqa: SIM105
                score_hand(hand, situation, rules)
            except TenbouError:
                pass
        return time.perf_counter() - t

    def check_dict(hands: list[dict[str, Any]], rules: str) -> list[list[Any]]:
        out: list[list[Any]] = []
        for req in hands:
            try:
                r = score({**req, "rules": rules})
            except TenbouError as e:
                out.append([e.code, 0, 0, None, e.code])
                continue
            digest = hashlib.sha1(json.dumps(r, sort_keys=True).encode()).hexdigest()
            out.append([None, r["han"], r["fu"], r["limit"], digest])
        return out

    def check_objects(batch: list[Any]) -> list[list[Any]]:
        out: list[list[Any]] = []
        for hand, situation, rules in batch:
            try:
                hs = score_hand(hand, situation, rules)
            except TenbouError as e:
                out.append([e.code, 0, 0, None])
                continue
            out.append([None, hs.han, hs.fu, None if hs.limit is None else hs.limit.value])
        return out

    build = tenbou.build_info()
    if not build.startswith(expect):
        error = f"expected the {expect} build, got {build} ({tenbou.__file__})"
        print(json.dumps({"error": error}), flush=True)
        return 1
    for i in range(0, stream, 2000):  # a long run's hands met before (--stream)
        time_dict(handgen.generate(STREAM_SEED + i // 2000, min(2000, stream - i)))
    print(json.dumps({"build": build, "file": tenbou.__file__}), flush=True)
    for line in sys.stdin:
        cmd = json.loads(line)
        i = cmd["pass"]
        if cmd["do"] == "time":
            gc.collect()  # no garbage of an earlier pass collected inside this one
            s = time_dict(passes[i]) if cmd["api"] == "dict" else time_objects(inputs[i])
            reply: Any = {"seconds": s}
        elif cmd["api"] == "dict":
            reply = {"outcomes": check_dict(passes[i], cmd["rules"])}
        else:
            reply = {"outcomes": check_objects(inputs[i])}
        print(json.dumps(reply), flush=True)
    return 0


class Worker(_builds.Worker):
    """A worker process for one build of tenbou (the folder it imports tenbou from)."""

    def __init__(
        self, folder: Path, hands_path: Path, expect: str, distinct: int | None, stream: int = 0
    ) -> None:
        more = ([] if distinct is None else ["--distinct", str(distinct)]) + ["--stream", str(stream)]
        super().__init__(__file__, ["--worker", str(hands_path), "--expect", expect, *more], folder)

    def check(self, api: str, rules: str) -> list[list[Any]]:
        """Each hand of pass 0 as this build scores it through ``api`` under ``rules``."""
        rows: list[list[Any]] = self.ask(do="check", api=api, rules=rules, **{"pass": 0})["outcomes"]
        return rows


# -- mahjong and RiichiEnv, in this process -------------------------------------------------------

_MJ_ERRORS = {"no_yaku": "no_yaku", "hand_not_winning": "not_winning"}


def mahjong_engine() -> tuple[Callable[[list[Any]], float], Callable[[list[Any]], list[Outcome]]]:
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig

    calc = HandCalculator()

    def timed(inputs: list[Any]) -> float:
        t = time.perf_counter()
        for tiles, win, melds, dora, ura, kw in inputs:
            calc.estimate_hand_value(tiles, win, melds, dora, HandConfig(**kw), ura_dora_indicators=ura)
        return time.perf_counter() - t

    def check(inputs: list[Any]) -> list[Outcome]:
        out: list[Outcome] = []
        for tiles, win, melds, dora, ura, kw in inputs:
            r = calc.estimate_hand_value(tiles, win, melds, dora, HandConfig(**kw), ura_dora_indicators=ura)
            if r.error:
                out.append((_MJ_ERRORS.get(r.error, r.error), 0, 0, None))
            else:
                out.append((None, r.han or 0, r.fu or 0, None))
        return out

    return timed, check


RiichiInputs = tuple[list[int], list[Any], int, list[int], list[int], dict[str, Any]]


def riichienv_plain(request: dict[str, Any], mj: handgen.MahjongInputs) -> RiichiInputs:
    """RiichiEnv's inputs for a request, from the mahjong package's (the same 136-ids), as plain
    data (JSON as it is): the concealed tiles without the winning tile (the evaluator adds it), the
    melds as ``[kind, tiles, opened, from]``, the winning tile, the indicators, and the
    ``Conditions`` keywords."""
    tiles, win, mj_melds, dora, ura, kw = mj
    called = {t for m in mj_melds for t in m.tiles}
    closed = sorted(t for t in tiles if t not in called and t != win)
    melds: list[Any] = [
        [m["type"], list(mm.tiles), m["type"] != "ankan", m.get("from", -1)]
        for m, mm in zip(request.get("melds") or [], mj_melds, strict=True)
    ]
    conditions = {
        "tsumo": kw["is_tsumo"],
        "riichi": kw["is_riichi"],
        "double_riichi": kw["is_daburu_riichi"],
        "ippatsu": kw["is_ippatsu"],
        "haitei": kw["is_haitei"],
        "houtei": kw["is_houtei"],
        "rinshan": kw["is_rinshan"],
        "chankan": kw["is_chankan"],
        "tsumo_first_turn": kw["is_tenhou"] or kw["is_chiihou"],
        "player_wind": (request["winner"] - request.get("dealer", 0)) % 4,
        "round_wind": "ESWN".index(request.get("round_wind", "E")),
        "riichi_sticks": request.get("riichi_sticks", 0),
        "honba": request.get("honba", 0),
    }
    return closed, melds, win, dora, ura, conditions


def riichienv_objects(plain: RiichiInputs) -> RiichiInputs:
    """The inputs of :func:`riichienv_plain` with the melds as RiichiEnv's ``Meld`` objects."""
    from riichienv import _riichienv as core

    closed, melds, win, dora, ura, read = plain
    # (the keywords' names interned, as a literal's are: read from JSON, they would cost RiichiEnv's
    # keyword matching some 11,000 instructions a hand more)
    conditions = {sys.intern(k): v for k, v in read.items()}
    made = [
        core.Meld(getattr(core.MeldType, kind.capitalize()), tiles, opened, who)
        for kind, tiles, opened, who in melds
    ]
    return closed, made, win, dora, ura, conditions


def to_riichienv(request: dict[str, Any], mj: handgen.MahjongInputs) -> RiichiInputs:
    """RiichiEnv's inputs for a request, its melds as its ``Meld`` objects (:func:`riichienv_plain`)."""
    return riichienv_objects(riichienv_plain(request, mj))


@dataclass(frozen=True)
class RiichiEnvEngines:
    """RiichiEnv's timed loops (each over one pass of inputs, its seconds returned) and its outcomes."""

    #: its Python API, the result left unread (what the call itself costs)
    api: Callable[[list[RiichiInputs]], float]
    #: the same, with what a caller reads of a win read: han, fu, yaku, yakuman and the points (its
    #: result's getters: tenbou's result dict is whole when it is returned, with more in it)
    api_read: Callable[[list[RiichiInputs]], float]
    #: the core class alone, given :attr:`core_inputs`
    core: Callable[[list[Any]], float]
    check: Callable[[list[RiichiInputs]], list[Outcome]]
    check_core: Callable[[list[Any]], list[Outcome]]
    #: the core's inputs: its Conditions want Wind objects for the winds (made before timing)
    core_inputs: Callable[[list[RiichiInputs]], list[Any]]


def riichienv_engines() -> RiichiEnvEngines:
    import riichienv
    from riichienv import _riichienv as core

    winds = [core.Wind.East, core.Wind.South, core.Wind.West, core.Wind.North]
    evaluator, conditions = riichienv.HandEvaluator, riichienv.Conditions
    core_evaluator, core_conditions = core.HandEvaluator, core.Conditions

    def timed(inputs: list[RiichiInputs]) -> float:
        t = time.perf_counter()
        for closed, melds, win, dora, ura, kw in inputs:
            evaluator(closed, melds).calc(win, dora, conditions(**kw), ura)
        return time.perf_counter() - t

    def timed_read(inputs: list[RiichiInputs]) -> float:
        t = time.perf_counter()
        for closed, melds, win, dora, ura, kw in inputs:
            r = evaluator(closed, melds).calc(win, dora, conditions(**kw), ura)
            if r.is_win:
                r.han, r.fu, r.yaku, r.yakuman, r.ron_agari, r.tsumo_agari_oya, r.tsumo_agari_ko  # noqa: B018
        return time.perf_counter() - t

    def timed_core(inputs: list[Any]) -> float:
        t = time.perf_counter()
        for closed, melds, win, dora, ura, kw in inputs:
            core_evaluator(closed, melds).calc(win, dora, ura, core_conditions(**kw))
        return time.perf_counter() - t

    def outcome(r: Any) -> Outcome:
        if r.is_win:
            return (None, r.han, r.fu, None)
        return ("no_yaku" if r.has_win_shape else "not_winning", 0, 0, None)

    def check(inputs: list[RiichiInputs]) -> list[Outcome]:
        return [outcome(evaluator(c, m).calc(w, d, conditions(**kw), u)) for c, m, w, d, u, kw in inputs]

    def check_core(inputs: list[Any]) -> list[Outcome]:
        return [
            outcome(core_evaluator(c, m).calc(w, d, u, core_conditions(**kw))) for c, m, w, d, u, kw in inputs
        ]

    def core_inputs(inputs: list[RiichiInputs]) -> list[Any]:
        out = []
        for closed, melds, win, dora, ura, kw in inputs:
            wind = {"player_wind": winds[kw["player_wind"]], "round_wind": winds[kw["round_wind"]]}
            out.append((closed, melds, win, dora, ura, {**kw, **wind}))
        return out

    return RiichiEnvEngines(timed, timed_read, timed_core, check, check_core, core_inputs)


# -- agreement ------------------------------------------------------------------------------------


def differ(ref: Outcome, other: Outcome) -> list[str]:
    """What ``other`` says otherwise than tenbou's ``ref``: the refusal, han, fu below mangan."""
    if ref[0] is not None or other[0] is not None:
        return [] if ref[0] == other[0] else ["refusal"]
    fields = [] if ref[1] == other[1] else ["han"]
    if ref[3] is None and ref[2] != other[2]:
        fields.append("fu")
    return fields


def agreement(
    label: str, hands: list[dict[str, Any]], ref: list[Outcome], other: list[Outcome], show: int
) -> tuple[int, int]:
    bad = [(i, differ(a, b)) for i, (a, b) in enumerate(zip(ref, other, strict=True)) if differ(a, b)]
    print(f"  {label:<54} agree on {len(hands) - len(bad):>5} of {len(hands)} hands, disagree on {len(bad)}")
    for i, fields in bad[:show]:
        print(f"    hand {i}: {', '.join(fields)}: tenbou {ref[i]} / other {other[i]}")
        print(f"      {json.dumps(hands[i], ensure_ascii=False)}")
    return len(hands) - len(bad), len(bad)


# -- the run ----------------------------------------------------------------------------------------


def _outcome(row: list[Any]) -> Outcome:
    return (row[0], row[1], row[2], row[3])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=2000, help="hands in a pass (default 2000)")
    ap.add_argument("--seed", type=int, default=1, help="generator seed of pass 0 (default 1)")
    ap.add_argument("--repeat", type=int, default=9, help="timed passes (default 9)")
    ap.add_argument("--compiled-dir", help="where the compiled build is kept (default: see _builds.py)")
    ap.add_argument(
        "--baseline-dir",
        help="another build of tenbou to time beside this one, in the same passes (e.g. pip install "
        "--no-deps --target DIR of an earlier commit): its rows, and this build's time against it",
    )
    ap.add_argument("--show", type=int, default=5, help="disagreements listed per pair (default 5)")
    ap.add_argument(
        "--distinct",
        type=int,
        help="time each pass on its first K hands, called over and over (default: all fresh)",
    )
    ap.add_argument(
        "--stream",
        type=int,
        default=0,
        help="other fresh hands each tenbou build scores first: a long run's state (default 0)",
    )
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--expect", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        return worker(args.worker, args.expect, args.distinct, args.stream)
    n = args.n
    if args.distinct is not None and not 1 <= args.distinct <= n:
        ap.error(f"--distinct: expected 1..{n} (the hands of a pass), not {args.distinct}")
    if args.stream < 0:
        ap.error(f"--stream: expected a count of hands, 0 or more, not {args.stream}")

    print(
        f"python {platform.python_version()} ({platform.python_implementation()}), "
        f"{platform.machine()}, os.cpu_count()={os.cpu_count()}"
    )
    versions = {}
    for dist in ("mahjong", "riichienv"):
        try:
            versions[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            versions[dist] = ""
    if not versions["mahjong"]:
        print("the mahjong package is needed: pip install '.[bench]'")
        return 1

    # RiichiEnv's rows: its Python API (the peer of tenbou's dict API), the same with its result read,
    # its core class alone
    re_api = f"RiichiEnv {versions['riichienv']} HandEvaluator.calc"
    re_read, re_core = f"{re_api}, read", f"RiichiEnv {versions['riichienv']} core HandEvaluator.calc"

    t = time.perf_counter()
    passes = [handgen.generate(args.seed + i, n) for i in range(args.repeat + 1)]
    mj_inputs = [[handgen.to_mahjong(req) for req in hands] for hands in passes]
    timed_mj = as_timed(mj_inputs, args.distinct)
    print(
        f"{args.repeat + 1} passes of {n} fresh hands (seeds {args.seed}..{args.seed + args.repeat}), "
        f"generated and converted in {time.perf_counter() - t:.1f} s (not timed below)"
    )
    if args.stream:
        print(
            f"each tenbou build first scores {args.stream} other fresh hands (seeds {STREAM_SEED}..): "
            "a long run's suit patterns, melds and features met before"
        )

    # engine name -> (time one pass i, check pass 0 -> outcomes)
    engines: dict[str, tuple[Callable[[int], float], Callable[[], list[Outcome]]]] = {}
    workers: list[Worker] = []
    tmp = Path(tempfile.mkdtemp(prefix="tenbou-bench-hands-"))
    hands_path = tmp / "hands.json"
    hands_path.write_text(json.dumps(passes), encoding="utf-8")
    checks: dict[str, list[Outcome]] = {}
    digests: dict[str, list[str]] = {}
    kinds: dict[str, str] = {}  # build name -> compiled or pure
    try:
        compiled_dir = _builds.compiled_build(args.compiled_dir)
        builds = [("pure", _builds.PURE, "pure Python")]
        if compiled_dir is not None:
            builds.insert(0, ("compiled", compiled_dir, "compiled"))
        if args.baseline_dir:
            builds.append(("baseline", Path(args.baseline_dir), ""))
        for name, folder, expect in builds:
            try:
                w = Worker(folder, hands_path, expect, args.distinct, args.stream)
            except RuntimeError as e:
                print(f"  no {name} build to time: {e}")
                continue
            workers.append(w)
            print(f"tenbou {name}: {w.build}, from {Path(w.file).parent}")
            for api in ("dict", "objects"):
                label = f"tenbou {name} " + ("api.score(dict)" if api == "dict" else "score_hand(objects)")
                engines[label] = (
                    lambda i, w=w, api=api: float(w.ask(do="time", api=api, **{"pass": i})["seconds"]),
                    lambda w=w, api=api: [_outcome(r) for r in w.check(api, "tenhou")],
                )
            digests[name] = [r[4] for r in w.check("dict", "tenhou")]
            kinds[name] = "compiled" if w.build.startswith("compiled") else "pure"
            if versions["riichienv"]:
                checks[f"tenbou {name} mahjongsoul"] = [_outcome(r) for r in w.check("dict", "mahjongsoul")]

        mj_timed, mj_check = mahjong_engine()
        engines[f"mahjong {versions['mahjong']} estimate_hand_value"] = (
            lambda i: mj_timed(timed_mj[i]),
            lambda: mj_check(mj_inputs[0]),
        )
        if versions["riichienv"]:
            re_engines = riichienv_engines()
            re_inputs = [
                [to_riichienv(req, mj) for req, mj in zip(hands, mjs, strict=True)]
                for hands, mjs in zip(passes, mj_inputs, strict=True)
            ]
            core_inputs = [re_engines.core_inputs(batch) for batch in re_inputs]
            timed_re, timed_core = as_timed(re_inputs, args.distinct), as_timed(core_inputs, args.distinct)
            engines[re_api] = (
                lambda i: re_engines.api(timed_re[i]),
                lambda: re_engines.check(re_inputs[0]),
            )
            engines[re_read] = (
                lambda i: re_engines.api_read(timed_re[i]),
                lambda: re_engines.check(re_inputs[0]),
            )
            engines[re_core] = (
                lambda i: re_engines.core(timed_core[i]),
                lambda: re_engines.check_core(core_inputs[0]),
            )
        else:
            print("riichienv is not installed (pip install '.[bench]'): RiichiEnv is left out")

        # pass 0: warm-up and the agreement check; then the timed passes, the engines in turn
        for label, (_, check) in engines.items():
            checks[label] = check()
        runs: dict[str, list[float]] = {label: [] for label in engines}
        for i in range(1, args.repeat + 1):
            for label in pass_order(list(engines), i, kinds.get("baseline", "compiled")):
                gc.collect()  # (the workers do the same before their pass)
                runs[label].append(engines[label][0](i))
    finally:
        for w in workers:
            w.close()
        for path in tmp.iterdir():
            path.unlink()
        tmp.rmdir()

    mj_label = next(label for label in engines if label.startswith("mahjong"))
    mj_runs = runs[mj_label]
    each = f"{n} fresh hands" if args.distinct is None else f"{n} calls on {args.distinct} distinct hands"
    print(f"\nbest and median of {args.repeat} timed passes of {each} each (single thread):")
    # (against RiichiEnv's Python API when it was timed: each engine's time against its own in the
    # same pass, as for mahjong)
    with_re = re_api in runs
    print(
        f"  {'engine':<48} {'us/hand best':>12} {'median':>8} {'hands/s':>10}   x mahjong (best; median pass)"
        + ("   x RiichiEnv API (median pass)" if with_re else "")
    )
    for label, secs in runs.items():
        best, med = min(secs), statistics.median(secs)
        per_pass = statistics.median(m / s for m, s in zip(mj_runs, secs, strict=True))
        against_re = ""
        if with_re:
            ratio = statistics.median(r / s for r, s in zip(runs[re_api], secs, strict=True))
            against_re = f"   {ratio:20.2f}x"
        print(
            f"  {label:<48} {best / n * 1e6:>12.1f} {med / n * 1e6:>8.1f} {n / best:>10,.0f}   "
            f"{min(mj_runs) / best:5.1f}x; {per_pass:5.1f}x{against_re}"
        )

    if "baseline" in digests:
        print(
            "\nthis checkout against the baseline build (median of the pass-by-pass ratios: > 1 is faster):"
        )
        for name in ("compiled", "pure"):
            for api in ("api.score(dict)", "score_hand(objects)"):
                mine, base = f"tenbou {name} {api}", f"tenbou baseline {api}"
                if mine in runs and base in runs:
                    ratio = statistics.median(b / m for b, m in zip(runs[base], runs[mine], strict=True))
                    print(f"  {mine:<48} {ratio:6.3f}x the baseline")

    print(f"\nagreement on pass 0 ({n} hands):")
    hands = passes[0]
    totals = [0, 0]
    pairs: list[tuple[str, str, str]] = []
    names = [name for name in ("compiled", "pure") if name in digests]
    if len(names) == 2:
        same = sum(a == b for a, b in zip(digests["compiled"], digests["pure"], strict=True))
        print(f"  {'tenbou compiled and pure: the whole result dict':<54} agree on {same:>5} of {n} hands")
        totals[0] += same
        totals[1] += n - same
    if "baseline" in digests:
        same = sum(a == b for a, b in zip(digests[names[0]], digests["baseline"], strict=True))
        title = f"tenbou {names[0]} and the baseline: the whole result dict"
        print(f"  {title:<54} agree on {same:>5} of {n} hands")
    for name in names:
        dict_api, object_api = f"tenbou {name} api.score(dict)", f"tenbou {name} score_hand(objects)"
        pairs.append((dict_api, object_api, f"tenbou {name}: dict API and object API"))
    ref = f"tenbou {names[0]} api.score(dict)"
    pairs.append((ref, mj_label, f"tenbou (tenhou) and mahjong {versions['mahjong']}"))
    if re_api in checks:
        pairs.append((f"tenbou {names[0]} mahjongsoul", re_api, "tenbou (mahjongsoul) and RiichiEnv"))
        pairs.append((re_api, re_core, "RiichiEnv: its Python API and its core"))
    for a, b, title in pairs:
        agree, disagree = agreement(title, hands, checks[a], checks[b], args.show)
        totals[0] += agree
        totals[1] += disagree
    print(f"  in all: {totals[0]} agreements, {totals[1]} disagreements")
    return 0


if __name__ == "__main__":
    sys.exit(main())
