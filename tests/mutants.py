"""Structure mutants of game records: a record with one thing broken, for the tests that every reader,
``verify`` and ``convert`` answer anything with a clean :class:`~tenbou.errors.TenbouError` (never a
traceback), and that one bad file never stops a run.

:func:`mutate` breaks one thing in a record of any of the three formats, chosen by a
:class:`random.Random`: the text cut short; an element (mjlog) or line (mjai) dropped, doubled or
swapped with its neighbour; a value of the wrong JSON type, out of range (seats 4, 5, -1, 10**20;
tiles past the last; counts negative), a number of 5,000 digits, a list one item short or long, a key
or attribute left out, a draw or discard tag of another seat or tile, a byte flipped. :func:`check`
runs one mutant through the readers, ``verify`` and ``convert`` and returns what went wrong (``None``:
nothing did); :func:`sources` gives the records to mutate (small fixtures, tenbou's own self-play in
every format, and a few small files of the corpus when it is there).
"""

from __future__ import annotations

import json
import random
import re
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tenbou.errors import TenbouError
from tenbou.io.mjlog import parse_mjlog
from tenbou.io.read import parse_records
from tenbou.io.record import FORMATS
from tenbou.verify.convert import write_records
from tenbou.verify.run import verify_data
from tenbou.verify.summaries import summarize

#: values that are wrong somewhere: wrong JSON types, out-of-range seats, tiles and counts
ODD_VALUES: list[Any] = [
    None, True, False, "", "x", "5mr", "?", 1.5, -1, 0, 3, 4, 5, 13, 34, 48, 60, 135, 136, 10**20, -(10**20),
    [], [0], [None], {}, {"type": "dahai"}, "E", "0m", "10m", "9z", [[]], [["1m"] * 13] * 5,
]  # fmt: skip
_ATTR_VALUES = [
    "", "x", "-1", "0", "1", "3", "4", "5", "135", "136", "99999", str(10**20), "9" * 5000, "1.5", "1,2",
    "0,0,0", ",", "1,,2", "0,1,2,3,4,5,6,7,8,9,10,11,12,13",
]  # fmt: skip
_TAGS = ["GO", "UN", "INIT", "N", "REACH", "DORA", "AGARI", "RYUUKYOKU", "T1", "W5", "G7", "D200", "X"]
_HUGE = "9" * 5000
#: what a message says when a last-resort guard, not a reader's own check, caught a problem
UNEXPECTED = "an unexpected"


def _cut(text: str, rng: random.Random) -> str:
    return text[: rng.randrange(len(text))] if text else text


def _flip(data: bytes, rng: random.Random) -> bytes:
    i = rng.randrange(len(data))
    return data[:i] + bytes([rng.randrange(256)]) + data[i + 1 :]


# -- mjlog ---------------------------------------------------------------------------------------------

_ELEMENT = re.compile(r"<[A-Za-z][^<>]*/>|<[A-Za-z][^<>]*>")


def _mjlog(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    text = data.decode("utf-8")
    spans = [m.span() for m in _ELEMENT.finditer(text)][1:]  # not the <mjloggm> root
    op = rng.choice(
        ["cut", "flip", "drop", "double", "swap", "value", "value", "value", "unset", "retag", "renumber"]
    )
    if op == "cut":
        return op, _cut(text, rng).encode()
    if op == "flip":
        return op, _flip(data, rng)
    i = rng.randrange(len(spans))
    a, b = spans[i]
    el = text[a:b]
    if op == "drop":
        return f"drop {el[:12]}", (text[:a] + text[b:]).encode()
    if op == "double":
        return f"double {el[:12]}", (text[:b] + el + text[b:]).encode()
    if op == "swap" and i + 1 < len(spans):
        c, d = spans[i + 1]
        return f"swap {el[:12]}", (text[:a] + text[c:d] + text[b:c] + el + text[d:]).encode()
    attrs = list(re.finditer(r'(\w+)="([^"]*)"', el))
    if op in ("value", "unset") and attrs:
        m = rng.choice(attrs)
        if op == "unset":
            new = el[: m.start()] + el[m.end() :]
        else:
            value = m.group(2)
            items = value.split(",")
            choices = [rng.choice(_ATTR_VALUES), ",".join(items[:-1]), value + "," + rng.choice(items)]
            if len(items) > 1:
                j = rng.randrange(len(items))
                choices.append(",".join([*items[:j], rng.choice(_ATTR_VALUES[:14]), *items[j + 1 :]]))
            new = el[: m.start(2)] + rng.choice(choices) + el[m.end(2) :]
        return f"{op} {el[:8]} {m.group(1)}", (text[:a] + new + text[b:]).encode()
    if op == "renumber" and re.match(r"<[TUVWDEFG]\d+/>", el):
        letter = rng.choice("TUVWDEFG") if rng.random() < 0.5 else el[1]
        number = rng.choice([str(rng.randrange(140)), "136", "9999", _HUGE, "", "x"])
        return f"renumber {el}", (text[:a] + f"<{letter}{number}/>" + text[b:]).encode()
    name = re.match(r"<(\w+)", el)
    tag = name.group(1) if name else ""
    return f"retag {tag}", (text[:a] + el.replace(tag, rng.choice(_TAGS), 1) + text[b:]).encode()


# -- tenhou.net/6 --------------------------------------------------------------------------------------


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, list):
        for i, v in enumerate(value):
            out.extend(_nodes(v, (*path, i)))
    elif isinstance(value, dict):
        for k, v in value.items():
            out.extend(_nodes(v, (*path, k)))
    return out


def _at(root: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        root = root[key]
    return root


def _odd(value: Any, rng: random.Random) -> Any:
    """A value that is wrong in place of ``value``: another type, out of range, a list one item off."""
    if isinstance(value, list) and value and rng.random() < 0.5:
        items = list(value)
        op = rng.choice(["drop", "double", "swap", "empty"])
        i = rng.randrange(len(items))
        if op == "drop":
            del items[i]
        elif op == "double":
            items.insert(i, items[i])
        elif op == "swap" and len(items) > 1:
            j = rng.randrange(len(items))
            items[i], items[j] = items[j], items[i]
        else:
            items = []
        return items
    if isinstance(value, str) and value and rng.random() < 0.5:
        i = rng.randrange(len(value))
        return value[:i] + rng.choice("0123456789cpmakrf") + value[i + 1 :]
    if isinstance(value, int) and not isinstance(value, bool) and rng.random() < 0.5:
        return value + rng.choice([-100, -11, -10, -1, 1, 10, 11, 100, 10**20])
    return rng.choice(ODD_VALUES)


def _json_mutant(obj: Any, rng: random.Random) -> tuple[str, Any]:
    path = rng.choice(_nodes(obj)[1:])
    parent = _at(obj, path[:-1])
    key = path[-1]
    if isinstance(parent, dict) and rng.random() < 0.2:
        del parent[key]
        return f"unset {key}", obj
    parent[key] = _odd(parent[key], rng)
    return f"value {'/'.join(map(str, path))[:40]}", obj


def _dumps(obj: Any, rng: random.Random) -> str:
    text = json.dumps(obj, ensure_ascii=False)
    if rng.random() < 0.05:  # a number too long to read
        numbers = list(re.finditer(r"(?<=[\[,:])\s*\d+", text))
        if numbers:
            m = rng.choice(numbers)
            text = text[: m.start()] + _HUGE + text[m.end() :]
    return text


def _tenhou6(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    text = data.decode("utf-8")
    op = rng.random()
    if op < 0.08:
        return "cut", _cut(text, rng).encode()
    if op < 0.12:
        return "flip", _flip(data, rng)
    if op < 0.14:
        return "deep", ("[" * 100_000 + "]" * 100_000).encode()
    try:
        objs = [json.loads(text)]
    except ValueError:  # one object per line (mjx)
        objs = [json.loads(line) for line in text.splitlines() if line.strip()]
    i = rng.randrange(len(objs))
    name, objs[i] = _json_mutant(objs[i], rng)
    return name, "\n".join(_dumps(o, rng) for o in objs).encode()


# -- mjai ----------------------------------------------------------------------------------------------

_SEAT_FIELDS = ("actor", "target", "oya")


def _mjai(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    lines = data.decode("utf-8").splitlines()
    op = rng.random()
    i = rng.randrange(len(lines))
    if op < 0.06:
        return "cut", _cut("\n".join(lines), rng).encode()
    if op < 0.08:
        return "flip", _flip(data, rng)
    if op < 0.16:
        return f"drop line {i}", "\n".join(lines[:i] + lines[i + 1 :]).encode()
    if op < 0.24:
        return f"double line {i}", "\n".join(lines[: i + 1] + lines[i:]).encode()
    if op < 0.30 and i + 1 < len(lines):
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
        return f"swap line {i}", "\n".join(lines).encode()
    obj = json.loads(lines[i])
    if op < 0.45 and any(k in obj for k in _SEAT_FIELDS):
        key = rng.choice([k for k in _SEAT_FIELDS if k in obj])
        obj[key] = rng.choice([4, 5, -1, 10**20, 3, "0", None])
        name = f"seat {obj.get('type')}.{key}"
    elif op < 0.5:
        obj["type"] = rng.choice(["dahai", "tsumo", "start_kyoku", "end_kyoku", "hora", "ryukyoku", "x", 5])
        name = f"type {obj['type']}"
    else:
        name, obj = _json_mutant({"event": obj}, rng)
        obj = obj.get("event", {})
    lines[i] = _dumps(obj, rng)
    return name, "\n".join(lines).encode()


MUTATORS: dict[str, Callable[[bytes, random.Random], tuple[str, bytes]]] = {
    "mjlog": _mjlog,
    "tenhou6": _tenhou6,
    "mjai": _mjai,
}


def mutate(data: bytes, fmt: str, rng: random.Random) -> tuple[str, bytes]:
    """One mutant of a record of format ``fmt``: (what was broken, its bytes)."""
    return MUTATORS[fmt](data, rng)


# -- the check -----------------------------------------------------------------------------------------


def check(data: bytes, source: str, convert_to: tuple[str, ...] = FORMATS) -> str | None:
    """Run a record through ``verify`` and ``convert`` (and the mjlog structure reader):
    ``None`` when every answer is lines or a clean :class:`TenbouError` that the readers raised
    themselves, else what went wrong (a traceback, or an error a last-resort guard caught)."""
    try:
        result = verify_data(data, source)
        lines = result["lines"]
        summary = summarize(lines)["summary"]
        assert isinstance(summary["hands"], int)
        for line in lines:
            text = json.dumps(line, ensure_ascii=False)
            if UNEXPECTED in text:
                return f"verify: {text[:600]}"
        if data.lstrip()[:8] == b"<mjloggm":
            for strict in (True, False):
                try:
                    parse_mjlog(data, source, strict=strict)
                except TenbouError as e:
                    if UNEXPECTED in str(e):
                        return f"parse_mjlog: {e}"
        for fmt in convert_to:
            try:
                write_records(parse_records(data, source), fmt)
            except TenbouError as e:
                if UNEXPECTED in str(e):
                    return f"convert to {fmt}: {e}"
    except Exception:
        return traceback.format_exc()
    return None


# -- records to mutate ---------------------------------------------------------------------------------


def sources(corpus: Path | None = None, per_format: int = 3) -> dict[str, list[tuple[str, bytes]]]:
    """Records of each format: small fixtures, a self-play game written in every format, and the
    ``per_format`` smallest files of each corpus folder that verify whole, when it is there."""
    from .alterations import enrich_mjai
    from .test_convert import selfplay
    from .test_io_tenhou import HAND
    from .test_io_tenhou6 import ROUND, record

    out: dict[str, list[tuple[str, bytes]]] = {fmt: [] for fmt in FORMATS}
    hand = parse_records(HAND, "hand.xml")
    out["mjlog"].append(("hand.xml", HAND))
    out["tenhou6"].append(("round.json", record([ROUND]).encode()))
    out["mjai"].append(("hand.jsonl", write_records(hand, "mjai")))
    # with the scores, tenpai seats and final points Mortal's logs state
    game = enrich_mjai(selfplay(7), rules={"preset": "tenhou", "overrides": {"length": "tonpuu"}})
    games = parse_records(game, "self.jsonl")
    out["mjai"].append(("self.jsonl", write_records(games, "mjai")))
    # the dialects real tools write: their own small logs, and the self-play game as each writes it
    from .dialects import DIALECTS, akochan_log, facts_of, manue_log, rewrite

    out["mjai"].extend([("akochan.json", akochan_log()), ("manue.mjson", manue_log())])
    facts = facts_of(game)
    for dialect in ("mjai server", "mjai tenhou converter", "akochan", "jansou"):
        out["mjai"].append(
            (f"self.{dialect.replace(' ', '_')}.jsonl", rewrite(game, DIALECTS[dialect], facts))
        )
    out["mjlog"].append(("self.xml", write_records(games, "mjlog")))
    out["tenhou6"].append(("self.json", write_records(games, "tenhou6")))
    if corpus is not None:
        for fmt in ("mjlog", "tenhou6"):
            folder = corpus / fmt
            if not folder.is_dir():
                continue
            files = sorted((p for p in folder.rglob("*") if p.is_file()), key=lambda p: (p.stat().st_size, p))
            picked = 0
            for p in files:
                data = p.read_bytes()
                try:
                    recs = parse_records(data, str(p))
                except TenbouError:
                    continue
                lines = verify_data(data, p.name)["lines"]
                whole = all(h.kind != "unfinished" for r in recs for h in r.hands)
                if not whole or not lines or not all(line.get("match") for line in lines):
                    continue  # a record to mutate is a whole one, and every hand matches
                out[fmt].append((p.name, data if fmt == "tenhou6" else _plain(data)))
                out["mjai"].append((p.name + ".jsonl", write_records(recs, "mjai")))
                picked += 1
                if picked >= per_format:
                    break
    return out


def _plain(data: bytes) -> bytes:
    from tenbou.io.source import inflate

    return inflate(data)
