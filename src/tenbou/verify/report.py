"""A run over records told to people: a progress bar (:class:`Progress`), a hand's mismatches with
the requests that reproduce them (:func:`format_mismatch`), and the closing summary
(:func:`format_summary`).

>>> fu = {"kind": "fu", "detail": "seat 1: 40 fu, the record 30", "score": {"hand": "..."}}
>>> line = {"source": "a.jsonl", "game": 0, "hand": 2, "round": "E", "number": 3, "honba": 0}
>>> line["mismatches"] = [fu]
>>> print(format_mismatch(line))
MISMATCH a.jsonl game 0 hand 2 (E3-0): fu: seat 1: 40 fu, the record 30
  reproduce: echo '{"hand": "..."}' | tenbou score --json -
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import Any, TextIO

__all__ = ["Progress", "format_mismatch", "format_summary"]


class Progress:
    """A progress bar on a stream (stderr): files done (or the ``unit`` counted: ``tenbou match``
    counts games), hands and hands per second. On a terminal it redraws one line; elsewhere it
    prints a line now and then."""

    def __init__(self, stream: TextIO, enabled: bool = True, unit: str = "files") -> None:
        self.stream = stream
        self.enabled = enabled
        self.unit = unit
        self.tty = stream.isatty()
        self.start = time.monotonic()
        self.last = 0.0

    def __call__(self, done: int, total: int, hands: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if done < total and now - self.last < (0.1 if self.tty else 5.0):
            return
        self.last = now
        rate = hands / max(now - self.start, 1e-9)
        width = 30
        filled = width * done // max(total, 1)
        bar = "#" * filled + "-" * (width - filled)
        text = f"[{bar}] {done}/{total} {self.unit}  {hands:,} hands  {rate:,.0f} hands/s"
        if self.tty:
            self.stream.write("\r" + text + ("\n" if done >= total else ""))
        else:
            self.stream.write(text + "\n")
        self.stream.flush()


def format_mismatch(line: Mapping[str, Any]) -> str:
    """A hand's mismatches for people, then each request that reproduces them (once)."""
    where = f"{line['round']}{line['number']}-{line['honba']}"
    label = f"{line['source']} game {line['game']} hand {line['hand']} ({where})"
    out = []
    requests: dict[str, str] = {}
    replays: dict[tuple[str, ...], None] = {}
    for m in line.get("mismatches", []):
        out.append(f"MISMATCH {label}: {m['kind']}: {m['detail']}")
        if "replay" in m:  # (the end of a game: only a replay shows it, whatever request comes with it)
            replays.setdefault(tuple(m["replay"]), None)
            continue
        for command in ("score", "settle"):
            if command in m:
                requests.setdefault(json.dumps(m[command], ensure_ascii=False), command)
    for text, command in requests.items():
        out.append(f"  reproduce: echo '{text}' | tenbou {command} --json -")
    for replay in replays:
        out.append(f"  reproduce: tenbou replay HAND.jsonl with these {len(replay)} mjai lines:")
        out.extend(f"    {e}" for e in replay)
    return "\n".join(out)


def format_summary(summary: Mapping[str, Any], seconds: float | None = None) -> str:
    """The end summary for people."""
    s = summary["summary"]
    d = s.get("distinct", {})

    def apart(key: str) -> str:
        return f" ({d[key]:,} distinct)" if key in d and d[key] != s[key] else ""

    lines = [
        f"games {s['games']:,}, hands {s['hands']:,}{apart('hands')}, wins {s['wins']:,} "
        f"({s['win_results']:,} winners: {s['double_ron']} double ron{apart('double_ron')}, {s['pao']} pao"
        f"{apart('pao')}, {s['yakuman']} yakuman), "
        f"draws {s['exhaustive_draws']:,} exhaustive, {s['abortive_draws']:,} abortive",
        f"matched {s['matched']:,}, mismatched {s['mismatched']:,}"
        + (": " + ", ".join(f"{k} {v}" for k, v in s["mismatches"].items()) if s["mismatches"] else "")
        + (
            f"; unchecked {s['unchecked']:,} (no outcome to compare: the record gives neither deltas "
            "nor scores)"
            if s.get("unchecked")
            else ""
        )
        + (
            f"; known defects {s['known_defects']:,} (records that contradict themselves, as listed)"
            if s.get("known_defects")
            else ""
        ),
        f"skipped {s['skipped']:,}"
        + (
            ": " + ", ".join(f"{k} {v}" for k, v in s["skipped_reasons"].items())
            if s["skipped_reasons"]
            else ""
        )
        + (f"; {s['errors']:,} refused as bad input (exit status 2)" if s.get("errors") else ""),
    ]
    if seconds is not None and seconds > 0:
        lines.append(
            f"{seconds:.1f} s, {s['hands'] / seconds:,.0f} hands/s, {s['games'] / seconds:,.1f} games/s"
        )
    return "\n".join(lines)
