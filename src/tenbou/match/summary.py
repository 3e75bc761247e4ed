"""A match's summary: per entrant, the average rank with its 95% confidence interval, the places,
average points and final score (uma, oka and chombo penalties in), the rates per hand of wins,
deal-ins, riichi and calls, the pao it paid, its chombos and faults; as JSON and as text.

The interval is the normal one, 1.96 standard errors of the mean rank (the sample's standard
deviation over the square root of the games); ``null`` below two games. Rates are per hand that
counted (a hand stopped by a chombo does not).

>>> r = {"names": ["a", "b", "c", "d"], "ranks": [1, 2, 3, 4], "points": [40000, 30000, 20000, 10000],
...      "final_scores": [50.0, 10.0, -20.0, -40.0], "hands": 8, "seats": [
...      {"wins": 2, "deal_ins": 0, "riichi": 1, "calls": 1, "pao": 0, "chombos": 0, "faults": {},
...       "replaced": False}] * 4}
>>> s = summarize([r, r], ["a", "b", "c", "d"])
>>> s["bots"][0]["average_rank"], s["bots"][0]["rank_ci95"], s["bots"][0]["win_rate"]
(1.0, 0.0, 0.25)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

__all__ = ["format_summary", "summarize"]

#: the per-hand counts and the rate each gives
_RATES = (
    ("wins", "win_rate"),
    ("deal_ins", "deal_in_rate"),
    ("riichi", "riichi_rate"),
    ("calls", "call_rate"),
)


def summarize(results: Iterable[Mapping[str, Any]], names: Sequence[str], **match: Any) -> dict[str, Any]:
    """The summary of the games' ``results`` (:func:`~tenbou.match.referee.play_one`) for the
    entrants ``names``; ``match`` (the seed, rules, ...) is put in as it is."""
    n = len(names)
    ranks: list[list[int]] = [[] for _ in names]
    points: list[list[int]] = [[] for _ in names]
    scores: list[list[float]] = [[] for _ in names]
    counts = [dict.fromkeys(("hands", "wins", "deal_ins", "riichi", "calls", "pao", "chombos", "replaced"), 0)
              for _ in names]  # fmt: skip
    faults: list[dict[str, int]] = [{} for _ in names]
    games = hands = 0
    index = {name: i for i, name in enumerate(names)}
    for r in results:
        games += 1
        hands += r["hands"]
        for seat, name in enumerate(r["names"]):
            e = index[name]
            ranks[e].append(r["ranks"][seat])
            points[e].append(r["points"][seat])
            scores[e].append(r["final_scores"][seat])
            c = r["seats"][seat]
            counts[e]["hands"] += r["hands"]
            for key in ("wins", "deal_ins", "riichi", "calls", "pao", "chombos"):
                counts[e][key] += c[key]
            counts[e]["replaced"] += bool(c["replaced"])
            for kind, k in c["faults"].items():
                faults[e][kind] = faults[e].get(kind, 0) + k
    bots = []
    for e, name in enumerate(names):
        played = len(ranks[e])
        c = counts[e]
        entry: dict[str, Any] = {
            "name": name,
            "games": played,
            "average_rank": _mean(ranks[e]),
            "rank_ci95": _ci95(ranks[e]),
            "places": [ranks[e].count(place) for place in range(1, n + 1)],
            "average_points": _mean(points[e]),
            "average_score": _mean(scores[e]),
            "total_score": round(sum(scores[e]), 1),
            "hands": c["hands"],
        }
        for key, rate in _RATES:
            entry[rate] = round(c[key] / c["hands"], 4) if c["hands"] else None
        entry.update({"pao": c["pao"], "chombos": c["chombos"], "faults": dict(sorted(faults[e].items())),
                      "replaced": c["replaced"]})  # fmt: skip
        bots.append(entry)
    return {"match": {**match, "games": games, "hands": hands}, "bots": bots}


def _mean(values: Sequence[float]) -> float | None:
    return round(sum(values) / len(values), 4) if values else None


def _ci95(values: Sequence[float]) -> float | None:
    """Half the width of the normal 95% interval of the mean (``None`` below two values)."""
    if len(values) < 2:
        return None
    mean = sum(values) / len(values)
    var = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
    return round(1.96 * math.sqrt(var / len(values)), 4)


def format_summary(summary: Mapping[str, Any], seconds: float | None = None) -> str:
    """The summary for people: a line on the match, a table a line per entrant, the faults."""
    m = summary["match"]
    head = f"tenbou match: {m['games']:,} games, {m['hands']:,} hands"
    if "rules" in m:
        head += f" under {_rules_text(m['rules'])}"
    if "seed" in m:
        head += f", seed {m['seed']}"
    if m.get("duplicate"):
        head += ", duplicate walls"
    if seconds:
        head += f"; {m['games'] / seconds:,.2f} games/s"
    bots = summary["bots"]
    width = max([len("bot"), *(len(b["name"]) for b in bots)])
    places = len(bots[0]["places"]) if bots else 4
    cols = ["games", "rank", "±95%", *(f"{p}{_th(p)}" for p in range(1, places + 1)), "points", "score",
            "win", "deal-in", "riichi", "call", "pao", "chombo"]  # fmt: skip
    lines = [head, "bot".ljust(width) + "".join(f"{c:>8}" for c in cols)]
    for b in bots:
        cells = [f"{b['games']:,}", _num(b["average_rank"], 2), _num(b["rank_ci95"], 2)]
        cells += [str(k) for k in b["places"]]
        cells += [_num(b["average_points"], 0), _num(b["average_score"], 1)]
        cells += [_pct(b[rate]) for _, rate in _RATES]
        cells += [str(b["pao"]), str(b["chombos"])]
        lines.append(b["name"].ljust(width) + "".join(f"{c:>8}" for c in cells))
    for b in bots:
        if b["faults"] or b["replaced"]:
            text = ", ".join(f"{kind} {k}" for kind, k in b["faults"].items())
            if b["replaced"]:
                text += f"; sat out the end of {b['replaced']} game(s) (too many chombos)"
            lines.append(f"faults of {b['name']}: {text}")
    return "\n".join(lines)


def _rules_text(rules: Any) -> str:
    if isinstance(rules, str):
        return rules
    if isinstance(rules, Mapping):
        overrides = rules.get("overrides") or {}
        extra = ", ".join(f"{k}={v}" for k, v in overrides.items())
        return f"{rules.get('preset', 'tenhou')}" + (f" ({extra})" if extra else "")
    return str(rules)


def _th(place: int) -> str:
    return {1: "st", 2: "nd", 3: "rd"}.get(place, "th")


def _num(value: float | None, digits: int) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"
