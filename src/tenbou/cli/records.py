"""The commands on real records: ``tenbou replay`` (mjai events through the game engine),
``tenbou verify`` (every hand end compared with the record), ``tenbou export`` (one row per hand
end) and ``tenbou convert`` (between mjlog, tenhou.net/6 and mjai).

The work is :mod:`tenbou.verify`'s and :mod:`tenbou.io.read`'s, imported when a command runs;
what is here reads the arguments and writes the lines, the summary and the exit status.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import RequestError
from ..io.files import OutputFile, shown_path
from .common import Commands, add_max_size, file_name, max_size, one_line, parse_override, read_input, report
from .output import json_line, output_file

__all__ = ["add_parsers"]


def add_parsers(sub: Commands) -> None:
    """``tenbou replay``, ``tenbou verify``, ``tenbou export`` and ``tenbou convert``."""
    rp = sub.add_parser(
        "replay",
        help="replay an mjai record (JSON Lines) through the game engine",
        description="Replay mjai JSON Lines hand by hand: who won what, yaku, payments, pao; "
        "where the record carries deltas, they are compared (exit status 1 on a difference).",
    )
    rp.add_argument("file", type=file_name, metavar="FILE", help="mjai JSON Lines ('-' = stdin)")
    rp.add_argument("--json", action="store_true", help="JSON Lines, one object per hand end and a summary")
    rp.add_argument(
        "--rules",
        metavar="ID",
        help="rules of records that do not name theirs (start_game's tenbou_rules, aka_flag, kyoku_first); "
        "default tenhou, as tenbou verify. A record's tenbou_rules win: a game played under them rather "
        "than under --rules (or --set) gets a warning line on stderr naming both",
    )
    rp.add_argument(
        "--set",
        action="append",
        metavar="OPTION=VALUE",
        help="override an option of the --rules preset (repeatable)",
    )
    rp.add_argument(
        "--lenient", action="store_true", help="record illegal events and go on instead of stopping"
    )
    rp.set_defaults(func=_cmd_replay)
    vf = sub.add_parser(
        "verify",
        help="replay real records (mjlog, tenhou.net/6, mjai) and compare every hand with the record",
        description="Replay every game of the records through the engine and compare each hand end with "
        "the record: score changes, yaku, han, fu, points, pao, draws, the next hand, final scores. "
        "Each mismatch is printed with a tenbou score/settle request that reproduces it. "
        "A bad file is reported with its reason and the others are still verified. "
        "Exit status: 0 every hand matched (skipped records and the known defects of --expect-defects "
        "aside), 1 some hand differs from its record or the engine refuses it (a defective record), 2 bad "
        "usage or a record that cannot be read (unreadable, malformed, past --max-size, or a named file "
        "that is not a record).",
    )
    _add_record_args(vf)
    vf.add_argument(
        "--json", action="store_true", help="JSON Lines: one object per hand end, the summary last"
    )
    vf.add_argument("--verbose", action="store_true", help="also list the skipped records")
    vf.add_argument(
        "--expect-defects",
        type=file_name,
        metavar="FILE",
        help="hands known to contradict their own record, one a line (PATH, HAND, KINDS, REASON, "
        "tab-separated): each that shows exactly its listed mismatches is reported as a known defect, "
        "not a mismatch; a listed hand that matches, or differs otherwise, makes the exit status 1",
    )
    vf.set_defaults(func=_cmd_verify)
    ex = sub.add_parser(
        "export",
        help="one row per hand end of real records, as parquet, CSV or JSON Lines",
        description="Replay the records and write one row per hand end (round, seats, winners, loser, yaku, "
        "han, fu, points, pao, deltas) for pandas. Parquet needs the 'analysis' extra. Exit status 2 on bad "
        "usage or a record that cannot be read (the other records are still written); 0 otherwise.",
    )
    _add_record_args(ex)
    ex.add_argument(
        "--out",
        required=True,
        type=file_name,
        metavar="FILE",
        help="hands.parquet, hands.csv or hands.jsonl",
    )
    ex.set_defaults(func=_cmd_export)
    cv = sub.add_parser(
        "convert",
        help="convert a record between mjlog, tenhou.net/6 and mjai",
        description="Convert a record (format detected) to Tenhou mjlog XML, tenhou.net/6 JSON or mjai "
        "JSON Lines. mjlog and tenhou.net/6 hold one game per file. Exit status 2 when the record cannot be "
        "read or the engine refuses it (nothing is written).",
    )
    add_max_size(cv)
    cv.add_argument("input", type=file_name, metavar="FILE", help="a record file ('-' = stdin)")
    cv.add_argument("--to", required=True, choices=("mjlog", "tenhou6", "mjai"), help="the output format")
    cv.add_argument("-o", "--output", type=file_name, metavar="FILE", help="output file (default: stdout)")
    cv.add_argument(
        "--per-kyoku",
        action="store_true",
        help="tenhou.net/6: one JSON object a kyoku, one a line (the form NAGA and Tenhou's editor take)",
    )
    cv.add_argument(
        "--from",
        dest="source_format",
        choices=("mjlog", "tenhou6", "mjai"),
        help="the input format (detected)",
    )
    cv.set_defaults(func=_cmd_convert)


def _jobs(text: str) -> int:
    """``--jobs N``: a whole number, 1 or more."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"N is a whole number of processes, not {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"N is 1 or more (processes), not {n}")
    return n


def _add_record_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "paths",
        nargs="+",
        type=file_name,
        metavar="PATH",
        help="record files and folders (formats are detected)",
    )
    p.add_argument(
        "--jobs",
        type=_jobs,
        default=1,
        metavar="N",
        help="spread the files over up to N local processes (N is 1 or more; no more processes are "
        "started than there are files, or cores this process may use; default 1)",
    )
    p.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="run on the Dask cluster at ADDRESS ('local' starts a LocalCluster of up to --jobs workers; "
        "needs the 'dask' extra)",
    )
    p.add_argument(
        "--rules",
        metavar="ID",
        help="rules of mjai records that do not name theirs (default: tenhou); a record's own rules "
        "(mjlog GO type, tenhou.net/6 rule, mjai start_game) always win, as in tenbou replay",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar on stderr")
    add_max_size(p)


# -- replay ------------------------------------------------------------------------------------


def _rules_json_from_args(args: argparse.Namespace) -> Any:
    """``--rules ID`` with its ``--set`` overrides, as a JSON rules value (checked here: an
    unknown preset or option is refused before any record is read)."""
    from ..rules import rules_from_request

    rules: Any = args.rules
    if args.set:
        rules = {"preset": args.rules, "overrides": dict(parse_override(x) for x in args.set)}
    rules_from_request(rules)
    return rules


def _hand_label(line: dict[str, Any]) -> str:
    return f"{line['round']}{line['number']}-{line['honba']}"


def _rules_text(rules: Any) -> str:
    """A JSON rules value as it is written: ``mleague``, or the preset with its overrides."""
    if isinstance(rules, str):
        return rules
    return json.dumps(rules, ensure_ascii=False, separators=(", ", ": "))


def _warn_rules_not_used(records: Sequence[Any], asked: Any, source: str) -> None:
    """A warning line on stderr for each game whose record names rules of its own
    (``tenbou_rules``) other than those ``--rules`` asked for: the record's win, and the
    game is not played under ``--rules``."""
    from ..rules import rules_from_request

    wanted = rules_from_request(asked)
    for rec in records:
        named = rec.meta.get("tenbou_rules")
        if named is None or rules_from_request(named) == wanted:
            continue
        with contextlib.suppress(OSError):
            sys.stderr.write(
                one_line(
                    f"tenbou: warning: {source} game {rec.index} names its own rules "
                    f"({_rules_text(named)}): played under them, not under --rules {_rules_text(asked)}"
                )
            )


def _cmd_replay(args: argparse.Namespace) -> int:
    from ..io.mjai import mjai_records
    from ..io.source import MAX_RECORD_BYTES, inflate
    from ..verify import hand_lines, replay_games, summary

    out = sys.stdout
    given = args.rules is not None or bool(args.set)
    if args.rules is None:
        args.rules = "tenhou"
    fallback = _rules_json_from_args(args)
    source = args.file
    data = inflate(read_input(source, MAX_RECORD_BYTES), source)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise RequestError(f"{source}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    # the mjai reader checks every line (seats, counts, lists) before the engine sees it; each
    # game is played under the rules its record names, else under --rules (as verify does)
    records = mjai_records(text, source, fallback)
    if given:
        _warn_rules_not_used(records, fallback, shown_path(source))
    games = [g for rec in records for g in replay_games(rec.events, rec.get_rules(), strict=not args.lenient)]
    status = 0
    for index, g in enumerate(games):
        if g.game is None:
            status = 1
            line = {"source": args.file, "game": index, "skipped": g.error}
            out.write(json_line(line) if args.json else f"game {index}: not replayed: {g.error}\n")
            continue
        for w in g.warnings:
            sys.stderr.write(f"tenbou: game {index}: {w}\n")
        for line in hand_lines(g.game, args.file, index):
            if line.get("match") is False:
                status = 1
            if args.json:
                out.write(json_line(line))
                continue
            who = ""
            for r in line["results"]:
                how = "tsumo" if r["from"] is None else f"ron {r['from']}"
                if r.get("fourth_kan"):
                    how = f"fourth kan {r['from']}"
                yaku = ", ".join(y["id"] for y in r["yaku"])
                pao = "".join(f" pao:{p['yaku']}@{p['seat']}" for p in r["pao"])
                who += f" seat {r['winner']} {how} {r['points']} ({yaku}){pao};"
            if "offender" in line:  # a chombo stopped the hand
                who += f" seat {line['offender']} chombo;"
            check = "  unchecked (the record gives no deltas)"
            if "match" in line:
                check = "  ok" if line["match"] else f"  DIFFERS from the record {line['recorded_deltas']}"
            deltas = " ".join(f"{d:+d}" for d in line["deltas"])
            out.write(f"game {index} {_hand_label(line):7} {line['kind']:15}{who} [{deltas}]{check}\n")
        final = g.game.final
        if final is not None and not args.json:
            out.write(
                f"game {index} final: points {list(final.points)}, ranking {list(final.ranking)}, "
                f"scores {list(final.final_scores)}\n"
            )
            if g.game.ended_early:
                wind, kyoku, honba, _, dealer, _ = g.game.expected_start()
                out.write(
                    f"game {index}: the record ends the game here; under its rules it goes on "
                    f"(next hand {wind.value}{kyoku}-{honba}, dealer seat {dealer})\n"
                )
    total = summary(games)
    out.write(
        (
            json.dumps(total)
            if args.json
            else "summary: " + ", ".join(f"{k} {v}" for k, v in total["summary"].items())
        )
        + "\n"
    )
    return status


# -- verify, export, convert -------------------------------------------------------------------


def _run_records(
    args: argparse.Namespace, on_line: Callable[[dict[str, Any]], None]
) -> tuple[list[dict[str, Any]], int]:
    """Verify the records of ``args.paths`` (in order, however the work is spread);
    returns every line and the exit status (2 if a named file is not a record)."""
    import time

    from ..verify import Progress, verify_paths

    progress = Progress(sys.stderr, enabled=not args.quiet)
    status = 0
    lines: list[dict[str, Any]] = []
    start = time.monotonic()
    rules = None
    if getattr(args, "rules", None):
        rules = args.rules
    max_bytes = max_size(args)
    results = verify_paths(
        args.paths, jobs=args.jobs, dask=args.dask, rules=rules, progress=progress, max_bytes=max_bytes
    )
    with contextlib.closing(results):  # stopped early (an output lost): the workers stop too
        for result in results:
            if result["error"] is not None:
                status = 2
                report(result["error"], _error_code(result["lines"]))
            for line in result["lines"]:
                lines.append(line)
                on_line(line)
    args.elapsed = time.monotonic() - start
    return lines, status


def _error_code(lines: Sequence[dict[str, Any]]) -> str:
    """The code of a refused file's error: that of its first line with an error object."""
    return next((line["error"]["code"] for line in lines if isinstance(line.get("error"), dict)), "error")


def _cmd_verify(args: argparse.Namespace) -> int:
    """Replay real records through the engine and compare every hand with the record."""
    from ..verify import Defect, format_mismatch, format_summary, load_defects, mark_defects, summarize

    out = sys.stdout
    defects: list[Defect] = []

    def on_line(line: dict[str, Any]) -> None:
        if defects and line.get("match") is False:
            mark_defects([line], defects)
        if args.json:
            out.write(json_line(line))
        elif "expected_defect" in line:
            kinds = ", ".join(dict.fromkeys(m["kind"] for m in line["mismatches"]))
            out.write(
                f"known defect {line['source']} game {line['game']} hand {line['hand']} "
                f"({_hand_label(line)}): {kinds}: {line['expected_defect']}\n"
            )
        elif line.get("match") is False:
            out.write(format_mismatch(line) + "\n")
        elif "skipped" in line and args.verbose:
            out.write(f"skipped {line['source']}: {line['skipped']}\n")

    if args.expect_defects:
        defects = load_defects(args.expect_defects)
    lines, status = _run_records(args, on_line)
    stale = mark_defects(lines, defects) if defects else []
    for problem in stale:
        sys.stderr.write(f"tenbou: --expect-defects {args.expect_defects}: {problem}\n")
    total = summarize(lines)
    if stale:
        total["summary"]["defects_not_as_listed"] = stale
    if args.json:
        out.write(json_line(total))
    else:
        out.write(format_summary(total, args.elapsed) + "\n")
    if status:
        return status
    return 1 if total["summary"]["mismatched"] or stale else 0


def _cmd_export(args: argparse.Namespace) -> int:
    """One table row per hand end of real records (replayed by the engine)."""
    from ..verify import export_rows, format_summary, summarize, write_rows

    if not args.out.lower().endswith((".parquet", ".csv", ".jsonl")):
        raise RequestError(f"--out {shown_path(args.out)}: the output must end in .parquet, .csv or .jsonl")
    if args.out.lower().endswith(".parquet"):
        import importlib.util

        missing = [m for m in ("pandas", "pyarrow") if importlib.util.find_spec(m) is None]
        if missing:
            raise RequestError(
                f"--out {shown_path(args.out)}: parquet needs the optional extra 'analysis' "
                f"(pip install 'tenbou[analysis]'); missing: {', '.join(missing)}",
                "missing_extra",
            )
    target = OutputFile(args.out, "--out")  # before the work: a file it could not write is refused now
    lines, status = _run_records(args, lambda line: None)
    rows = export_rows(lines)
    target.write_with(lambda path: write_rows(rows, path))
    if not args.quiet:
        sys.stderr.write(f"tenbou: {len(rows):,} hand ends written to {args.out}\n")
        sys.stderr.write(format_summary(summarize(lines), args.elapsed) + "\n")
    return status


def _cmd_convert(args: argparse.Namespace) -> int:
    """Convert a record between Tenhou mjlog, tenhou.net/6 JSON and mjai JSON Lines."""
    from ..io.read import parse_records
    from ..verify import write_records

    max_bytes = max_size(args)
    if args.per_kyoku and args.to != "tenhou6":
        raise RequestError(f"--per-kyoku writes tenhou.net/6 (--to tenhou6), not {args.to}")
    target = output_file(args.output, "-o")
    data = read_input(args.input, max_bytes)
    games = parse_records(data, args.input, args.source_format, max_bytes=max_bytes)
    written = write_records(games, args.to, per_kyoku=args.per_kyoku)
    if target is None:
        sys.stdout.buffer.write(written)
    else:
        target.write_bytes(written)
    return 0
