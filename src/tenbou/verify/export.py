"""Verified lines as a table for analysis (``tenbou export``): one row per hand end
(:func:`export_rows`), written as parquet, CSV or JSON Lines (:func:`write_rows`).

>>> line = {"source": "a.jsonl", "game": 0, "hand": 0, "round": "E", "number": 1, "honba": 0, "kind": "win",
...         "deltas": [0, 1000, -1000, 0], "scores": [25000] * 4, "match": True,
...         "results": [{"winner": 1, "from": 2, "yaku": [{"id": "riichi"}], "han": 1, "fu": 30,
...                      "points": 1000, "limit": None, "pao": []}]}
>>> (row,) = export_rows([line])
>>> row["winners"], row["loser"], row["tsumo"], row["yaku"], row["delta_2"]
([1], 2, False, [['riichi']], -1000)
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..errors import TenbouError

__all__ = ["COLUMNS", "COLUMN_TYPES", "export_rows", "write_rows"]

#: the columns of :func:`export_rows`, in order
COLUMNS = (
    "source", "game", "hand", "round", "number", "honba", "riichi_sticks", "dealer", "players", "kind",
    "draw_reason", "winners", "loser", "tsumo", "yaku", "han", "fu", "points", "limit", "pao",
    "delta_0", "delta_1", "delta_2", "delta_3", "score_0", "score_1", "score_2", "score_3", "match",
)  # fmt: skip


#: each column's type in parquet: ``int`` (nullable), ``str``, ``bool``, or a list per win
COLUMN_TYPES: dict[str, str] = {
    **dict.fromkeys(("source", "round", "kind", "draw_reason"), "str"),
    **dict.fromkeys(("game", "hand", "number", "honba", "riichi_sticks", "dealer", "players"), "int"),
    "loser": "int",
    **{f"{c}_{i}": "int" for c in ("delta", "score") for i in range(4)},
    **dict.fromkeys(("winners", "han", "fu", "points", "pao"), "ints"),
    "limit": "strs",
    "yaku": "yaku",
    "tsumo": "bool",
    "match": "bool",
}


def export_rows(lines: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One row per hand end of verified lines (skipped records left out).

    Per-win columns (``winners``, ``yaku``, ``han``, ``fu``, ``points``, ``limit``,
    ``pao``) are lists in payment order, one item per win, so that
    ``df.explode(["winners", "yaku", "han", "fu", "points", "limit", "pao"])``
    gives one row per win; ``loser`` is the discarder (``None`` for a tsumo or a
    draw); ``delta_i`` and ``score_i`` (points at the start of the hand) are
    ``None`` for a seat that does not play.
    """
    rows: list[dict[str, Any]] = []
    for line in lines:
        if "skipped" in line:
            continue
        results = line.get("results") or []
        deltas = list(line.get("deltas") or [])
        scores = list(line.get("scores") or [])
        loser = next((r["from"] for r in results if r["from"] is not None), None)
        row: dict[str, Any] = {
            "source": line["source"],
            "game": line["game"],
            "hand": line["hand"],
            "round": line["round"],
            "number": line["number"],
            "honba": line["honba"],
            "riichi_sticks": line.get("riichi_sticks"),
            "dealer": line.get("dealer"),
            "players": len(scores) or len(deltas) or None,
            "kind": line.get("kind"),
            "draw_reason": line.get("draw_reason"),
            "winners": [r["winner"] for r in results],
            "loser": loser,
            "tsumo": bool(results) and results[0]["from"] is None,
            "yaku": [[y["id"] for y in r["yaku"]] for r in results],
            "han": [r["han"] for r in results],
            "fu": [r["fu"] for r in results],
            "points": [r["points"] for r in results],
            "limit": [r["limit"] for r in results],
            "pao": [next((p["seat"] for p in r["pao"]), None) for r in results],
            "match": line.get("match"),
        }
        for i in range(4):
            row[f"delta_{i}"] = deltas[i] if i < len(deltas) else None
            row[f"score_{i}"] = scores[i] if i < len(scores) else None
        rows.append({k: row[k] for k in COLUMNS})
    return rows


def _csv_cell(value: object) -> object:
    """A value as a CSV cell: JSON's words for lists and booleans (``true``/``false``, as in the
    JSON Lines export; Python's ``True`` is no word of CSV readers), the rest as it is."""
    if isinstance(value, list | bool):
        return json.dumps(value, ensure_ascii=False)
    return value


def write_rows(rows: Sequence[Mapping[str, Any]], out: str) -> None:
    """Write rows to ``out`` by its suffix: ``.jsonl``, ``.csv`` (lists as JSON text, booleans
    ``true``/``false``) or ``.parquet`` (needs the optional extra ``analysis``: pandas and pyarrow)."""
    suffix = Path(out).suffix.lower()
    if suffix == ".jsonl":
        with open(out, "w", encoding="utf-8") as f:
            for row in rows:
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
    elif suffix == ".csv":
        import csv

        with open(out, "w", encoding="utf-8", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(COLUMNS))
            writer.writeheader()
            for row in rows:
                writer.writerow({k: _csv_cell(v) for k, v in row.items()})
    elif suffix == ".parquet":
        import importlib

        try:
            pd: Any = importlib.import_module("pandas")
        except ImportError as e:
            raise TenbouError(
                f"{out}: writing parquet needs the optional extra 'analysis': pip install 'tenbou[analysis]' "
                f"(pandas and pyarrow; {e})",
                "missing_extra",
            ) from None
        try:
            pa: Any = importlib.import_module("pyarrow")
            pq: Any = importlib.import_module("pyarrow.parquet")
        except ImportError as e:
            raise TenbouError(
                f"{out}: writing parquet needs pyarrow (the optional extra 'analysis'): {e}", "missing_extra"
            ) from None
        frame = pd.DataFrame(list(rows), columns=list(COLUMNS))
        # nullable scalars (a tsumo's loser, a seat that does not play: <NA>, never a float NaN),
        # and the per-win columns as typed lists in the file
        types = {"int": "Int64", "str": "string", "bool": "boolean"}
        arrow = {
            "int": pa.int64(), "str": pa.string(), "bool": pa.bool_(), "ints": pa.list_(pa.int64()),
            "strs": pa.list_(pa.string()), "yaku": pa.list_(pa.list_(pa.string())),
        }  # fmt: skip
        for name, kind in COLUMN_TYPES.items():
            if kind in types:
                frame[name] = frame[name].astype(types[kind])
        schema = pa.schema([(name, arrow[COLUMN_TYPES[name]]) for name in COLUMNS])
        # through a Python file: pyarrow opens a path itself, which fails on a name that is not
        # UTF-8 (a surrogate escape), where open() takes the name's bytes as they are
        with open(out, "wb") as f:
            pq.write_table(pa.Table.from_pandas(frame, schema=schema, preserve_index=False), f)
    else:
        raise TenbouError(f"{out}: the output must end in .parquet, .csv or .jsonl", "request")
