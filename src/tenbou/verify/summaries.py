"""The closing summary of a run over records (``docs/json-api.md``): games, hands, wins, matched,
mismatched, unchecked and skipped, the mismatches by kind, and counts of double rons, pao wins,
yakuman and draws.

>>> lines = [
...     {"source": "a.jsonl", "game": 0, "hand": 0, "round": "E", "number": 1, "honba": 0, "kind": "win",
...      "deltas": [0, 1000, -1000, 0], "results": [{"pao": [], "yaku": [{"id": "riichi"}]}], "match": True},
...     {"source": "b.jsonl", "game": 0, "skipped": "no complete hand (a record cut short)"},
... ]
>>> s = summarize(lines)["summary"]
>>> s["games"], s["hands"], s["wins"], s["matched"], s["skipped"], s["skipped_reasons"]
(1, 1, 1, 1, 1, {'no complete hand (a record cut short)': 1})
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from .compare import MISMATCH_KINDS

__all__ = ["hand_key", "summarize"]


def _category(reason: str) -> str:
    return reason.split(":", 1)[0]


def summarize(lines: Iterable[Mapping[str, Any]], *, games: int | None = None) -> dict[str, Any]:
    """The closing summary line of ``docs/json-api.md`` (games, hands, wins,
    matched, mismatched, skipped), with ``known_defects`` (the hands that show exactly
    the defect a ``--expect-defects`` list gives them: not counted as mismatched),
    ``unchecked`` (the hands whose record gives no outcome to compare: no deltas, no
    scores), ``distinct`` (hands, pao hands and double rons counted once however many
    copies of their game were verified: :func:`hand_key`), the mismatches by kind, the skipped
    records by reason, ``errors`` (the skipped records refused as bad input: exit
    status 2), and counts of double rons, pao wins, yakuman and draws.

    ``games`` is the number of games where it is not that of the games the hand lines name: a
    game replayed by ``tenbou replay`` that has no hand is a game all the same."""
    named: set[tuple[Any, Any]] = set()
    hands = wins = matched = mismatched = unchecked = defects = skipped = errors = 0
    double_ron = pao = yakuman = abortive = exhaustive = win_results = 0
    kinds: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    distinct: dict[str, set[tuple[Any, ...]]] = {"hands": set(), "pao": set(), "double_ron": set()}
    for line in lines:
        if "skipped" in line:
            skipped += 1
            errors += "error" in line
            reasons[_category(str(line["skipped"]))] += 1
            continue
        named.add((line["source"], line["game"]))
        hands += 1
        kind = line.get("kind")
        results = line.get("results") or []
        key = hand_key(line)
        distinct["hands"].add(key)
        if kind == "win":
            wins += 1
            win_results += len(results)
            double_ron += len(results) > 1
            pao += sum(1 for r in results if r.get("pao"))
            if len(results) > 1:
                distinct["double_ron"].add(key)
            if any(r.get("pao") for r in results):
                distinct["pao"].add(key)
            yakuman += sum(1 for r in results if any(y.get("yakuman") for y in r["yaku"]))
        elif kind == "abortive_draw":
            abortive += 1
        elif kind == "exhaustive_draw":
            exhaustive += 1
        if line.get("match") is True:
            matched += 1
        elif "expected_defect" in line:
            defects += 1
        elif line.get("match") is False:
            mismatched += 1
            kinds.update(dict.fromkeys(m["kind"] for m in line.get("mismatches", [])).keys())
        else:
            unchecked += 1
    return {
        "summary": {
            "games": len(named) if games is None else games,
            "hands": hands,
            "wins": wins,
            "matched": matched,
            "mismatched": mismatched,
            "unchecked": unchecked,
            "known_defects": defects,
            "skipped": skipped,
            "errors": errors,
            "win_results": win_results,
            "double_ron": double_ron,
            "pao": pao,
            "yakuman": yakuman,
            "exhaustive_draws": exhaustive,
            "abortive_draws": abortive,
            "mismatches": {k: kinds[k] for k in MISMATCH_KINDS if kinds[k]},
            "skipped_reasons": dict(sorted(reasons.items())),
            "distinct": {k: len(v) for k, v in distinct.items()},
        }
    }


def hand_key(line: Mapping[str, Any]) -> tuple[Any, ...]:
    """A hand's identity across copies of its game (the same game in several files or formats):
    its scores at the start, round, number, honba and score changes."""
    return (
        tuple(line.get("scores") or ()),
        line.get("round"),
        line.get("number"),
        line.get("honba"),
        tuple(line.get("deltas") or ()),
    )
