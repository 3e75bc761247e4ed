"""``tenbou rules list|show|sources|diff``: the rule presets, each option with its value, its
meaning and its source (or ``unknown``, with what was searched)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from ..rules import OPTION_SPECS, get_preset, presets
from ..rules.presets import UNKNOWN, Preset
from .common import Commands
from .output import json_line

__all__ = ["add_parsers"]


def add_parsers(sub: Commands) -> None:
    """``tenbou rules`` and its subcommands."""
    r = sub.add_parser(
        "rules",
        help="list, show and compare rule presets, and the values still without a source",
        description="Rule presets: every option of a preset has a value and its source, or 'unknown' "
        "with a note of what was searched (`tenbou rules sources ID`).",
    )
    rsub = r.add_subparsers(dest="rules_cmd", required=True)
    json_help = "print JSON (one line) instead of text"
    lst = rsub.add_parser("list", help="every preset id and name")
    lst.add_argument("--json", action="store_true", help=json_help + ": a list of {id, name, name_en}")
    show = rsub.add_parser("show", help="a preset's options, each with its value, meaning, source and note")
    show.add_argument("id", help="a preset id or alias (see `tenbou rules list`)")
    show.add_argument(
        "--json", action="store_true", help=json_help + ": {id, ..., options: {NAME: {value, source, note}}}"
    )
    src = rsub.add_parser(
        "sources",
        help="the options still without a source: option, the value assumed, what was searched",
        description="Lists the options of a preset whose source is 'unknown': the value tenbou assumes and "
        "the note of what was searched, so that a source can be contributed. Without ID: every preset.",
    )
    src.add_argument("id", nargs="?", help="a preset id or alias (default: every preset)")
    src.add_argument(
        "--json",
        action="store_true",
        help=json_help + ": {id, options, unknown: [{option, value, note}]} (a list of them without ID)",
    )
    diff = rsub.add_parser("diff", help="the options where two presets differ")
    diff.add_argument("a", help="a preset id or alias")
    diff.add_argument("b", help="another preset id or alias")
    diff.add_argument("--json", action="store_true", help=json_help + ": {a, b, options: {NAME: {a, b}}}")
    r.set_defaults(func=_cmd_rules)


def _preset_sources(preset: Preset) -> dict[str, Any]:
    """What ``tenbou rules sources ID --json`` prints for one preset."""
    return {"id": preset.id, "options": len(OPTION_SPECS), "unknown": preset.unknowns()}


def _write_show(out: TextIO, p: Preset) -> None:
    """``tenbou rules show ID``: every option with its value, what it means, its source and the note."""
    unknown = [str(u["option"]) for u in p.unknowns()]
    out.write(f"{p.id}: {p.title}\n")
    if unknown:
        out.write(
            f"  {len(OPTION_SPECS) - len(unknown)} of {len(OPTION_SPECS)} options have a source; "
            f"unknown (value assumed): {', '.join(unknown)} - `tenbou rules sources {p.id}`\n"
        )
    else:
        out.write(f"  every one of the {len(OPTION_SPECS)} options has a source\n")
    for note in p.notes:
        out.write(f"  note: {note}\n")
    options: dict[str, dict[str, Any]] = p.to_dict()["options"]  # type: ignore[assignment]
    for name, entry in options.items():
        out.write(f"  {name} = {json.dumps(entry['value'], ensure_ascii=False)}\n")
        out.write(f"      means: {OPTION_SPECS[name].doc}\n")
        source = entry["source"]
        out.write(f"      source: {'UNKNOWN (the value is assumed)' if source == UNKNOWN else source}\n")
        if "note" in entry:
            out.write(f"      note: {entry['note']}\n")


def _write_sources(out: TextIO, p: Preset) -> None:
    """``tenbou rules sources ID``: the options still without a source, to contribute one."""
    unknown = p.unknowns()
    if not unknown:
        out.write(f"{p.id}: every one of the {len(OPTION_SPECS)} options has a source\n")
        return
    out.write(f"{p.id}: {len(unknown)} of {len(OPTION_SPECS)} options without a source (value assumed)\n")
    for u in unknown:
        out.write(f"  {u['option']} = {json.dumps(u['value'], ensure_ascii=False)}\n")
        out.write(f"      note: {u['note']}\n")


def _cmd_rules(args: argparse.Namespace) -> int:
    out = sys.stdout
    if args.rules_cmd == "list":
        chosen = list(presets().values())
        if args.json:
            items = [{"id": p.id, "name": p.name, "name_en": p.name_en} for p in chosen]
            out.write(json_line(items))
        else:
            width = max(len(p.id) for p in chosen)
            for p in chosen:
                out.write(f"{p.id:<{width}}  {p.title}\n")
        return 0
    if args.rules_cmd == "show":
        p = get_preset(args.id)
        if args.json:
            out.write(json_line(p.to_dict()))
        else:
            _write_show(out, p)
        return 0
    if args.rules_cmd == "sources":
        chosen = [get_preset(args.id)] if args.id else list(presets().values())
        if args.json:
            data: Any = [_preset_sources(p) for p in chosen]
            out.write(json_line(data[0] if args.id else data))
        elif args.id:
            _write_sources(out, chosen[0])
        else:
            width = max(len(p.id) for p in chosen)
            for p in chosen:
                unknown = [str(u["option"]) for u in p.unknowns()]
                names = ", ".join(unknown) if len(unknown) <= 5 else f"(tenbou rules sources {p.id})"
                out.write(f"{p.id:<{width}}  {len(unknown):>2} unknown  {names}".rstrip() + "\n")
        return 0
    a, b = get_preset(args.a), get_preset(args.b)
    da, db = a.rules.to_dict(), b.rules.to_dict()
    diff = {k: {"a": da[k], "b": db[k]} for k in OPTION_SPECS if da[k] != db[k]}
    if args.json:
        out.write(json_line({"a": a.id, "b": b.id, "options": diff}))
        return 0
    if not diff:
        out.write(f"{a.id} and {b.id} have the same options\n")
    for k, v in diff.items():
        out.write(
            f"{k}: {a.id}={json.dumps(v['a'], ensure_ascii=False)}  "
            f"{b.id}={json.dumps(v['b'], ensure_ascii=False)}\n"
        )
    return 0
