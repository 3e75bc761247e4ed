"""What the commands of ``tenbou`` write: JSON lines, a score or a settlement for people, and the
output files of ``-o``.

A result is written as one line of JSON (``--json``; JSON Lines for a batch), or for people: the
yaku table, the fu breakdown, the value, pao, the payments and the deltas. An output file
(``tenbou svg -o``, ``tenbou convert -o``) is checked before the work and written whole, or not
at all (:class:`tenbou.io.files.OutputFile`).

>>> json_line({"hand": "123m", "han": 1})
'{"hand": "123m", "han": 1}\\n'
>>> output_file("-", "-o") is None
True
"""

from __future__ import annotations

import json
from typing import Any

from ..api import request_hand
from ..io.files import OutputFile

__all__ = ["format_result", "format_settlement", "json_line", "output_file"]


def json_line(value: Any) -> str:
    """``value`` as one line of JSON, its end of line included (non-ASCII text as it is)."""
    return json.dumps(value, ensure_ascii=False) + "\n"


def output_file(path: str | None, flag: str) -> OutputFile | None:
    """The file of ``-o PATH``, checked before the work; ``None`` for standard output (no
    ``-o``, or ``-o -``)."""
    return None if path is None or path == "-" else OutputFile(path, flag)


# -- a result for people -----------------------------------------------------------------------


def _signed(n: int) -> str:
    return f"{n:+,}" if n else "0"


def _fu_text(result: dict[str, Any]) -> str:
    items = result["fu_breakdown"]
    if not items:
        return f"{result['fu']} (not counted for this hand)"
    parts = " + ".join(f"{i['reason'].replace('_', ' ')} {i['fu']}" for i in items)
    raw = sum(i["fu"] for i in items)
    if raw == result["fu"]:
        return f"{result['fu']}  ({parts})"
    return f"{result['fu']}  ({parts} = {raw}, rounded up)"


_PAO_RULES = {
    "pao_yaku": "the call that made the yakuman certain",
    "daiminkan_pao": "daiminkan pao: the rinshan win is paid as a ron by the player whose tile was kanned",
    "explicit": "named in the request",
}


def _win_lines(request: dict[str, Any], result: dict[str, Any]) -> list[str]:
    lines = []
    how = "tsumo" if result.get("from") is None else f"ron from seat {result['from']}"
    if result.get("fourth_kan"):
        how = f"fourth kan, a daiminkan of seat {result['from']}'s discard"
    who = "dealer" if result.get("dealer") else "non-dealer"
    lines.append(f"Winner    seat {result['winner']} ({who}), {how}")
    hand = request_hand(request)  # (scored already: a hand that reads) written in its canonical text
    lines.append(f"Hand      {hand}")
    lines.append(f"Shape     {result['form']}, wait {result['wait']}")
    lines.append("Yaku")
    width = max(len(y["name"]) for y in result["yaku"])
    for y in result["yaku"]:
        mult = y.get("yakuman", 0)
        value = f"yakuman x{mult}" if mult > 1 else "yakuman" if mult else f"{y['han']} han"
        lines.append(f"  {y['name']:<{width}}  {value:<10}  {y['name_ja']}")
    lines.append(f"Fu        {_fu_text(result)}")
    limit = f", {result['limit'].replace('_', ' ')}" if result["limit"] else ""
    lines.append(
        f"Value     {result['han']} han {result['fu']} fu{limit}: base {result['base_points']:,}, "
        f"hand {result['points']:,}"
    )
    for p in result.get("pao", []):
        where = ""
        i = p.get("meld")
        if isinstance(i, int) and i < len(hand.melds):
            where = f", melds[{i}] {hand.melds[i]}"
        lines.append(
            f"Pao       seat {p['seat']} is liable for {p['yaku']} "
            f"({_PAO_RULES.get(p['rule'], p['rule'])}{where})"
        )
    return lines


def _money_lines(result: dict[str, Any]) -> list[str]:
    lines = ["Payments"]
    for p in result["payments"]:
        src = "table " if p["from"] is None else f"seat {p['from']}"
        lines.append(f"  {src} -> seat {p['to']}  {p['points']:>7,}  {p['kind']}")
    if not result["payments"]:
        lines.append("  none")
    lines.append("Deltas    " + "  ".join(f"seat {i}: {_signed(d)}" for i, d in enumerate(result["deltas"])))
    if "chips" in result:
        lines.append(
            "Chips     " + "  ".join(f"seat {i}: {_signed(c)}" for i, c in enumerate(result["chips"]))
        )
    return lines


def format_result(request: dict[str, Any], result: dict[str, Any]) -> str:
    """A score result for people: yaku table, fu breakdown, value, pao, payments."""
    return "\n".join(_win_lines(request, result) + _money_lines(result))


def format_settlement(request: dict[str, Any], result: dict[str, Any]) -> str:
    """A settlement for people: each win, then every payment, deltas and the next hand."""
    lines = [
        f"End       {result['kind'].replace('_', ' ')}"
        + (f" ({result['reason']})" if "reason" in result else "")
    ]
    wins = request.get("wins") or []
    by_winner = {w.get("winner"): w for w in wins if isinstance(w, dict)}
    for n, r in enumerate(result["results"], 1):
        lines.append(f"-- win {n} of {len(result['results'])}")
        lines.extend(_win_lines(by_winner.get(r["winner"], {}), r))
    for skipped in result.get("skipped", []):
        lines.append(f"-- seat {skipped['winner']}'s ron is not paid ({skipped['reason']})")
    lines.append("--")
    lines.extend(_money_lines(result))
    nxt = result["next"]
    lines.append(
        f"Next      dealer seat {nxt['dealer']}, {nxt['honba']} honba, {nxt['riichi_sticks']} riichi stick(s)"
    )
    return "\n".join(lines)
