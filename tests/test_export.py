"""tenbou export: one row per hand end, as JSON Lines, CSV or parquet (the 'analysis' extra)."""

from __future__ import annotations

import builtins
import csv
import importlib.util
import json
import random
from pathlib import Path
from typing import Any

import pytest

from tenbou.cli import main
from tenbou.engine.events import events_to_lines
from tenbou.engine.table import GreedyAgent, play_game
from tenbou.errors import TenbouError
from tenbou.rules import get_rules
from tenbou.verify.export import COLUMNS, export_rows, write_rows
from tenbou.verify.run import verify_paths

from .test_convert import selfplay
from .test_io_tenhou import HAND


def _rows(tmp_path: Path) -> list[dict[str, Any]]:
    path = tmp_path / "hand.xml"
    path.write_bytes(HAND)
    return export_rows(line for r in verify_paths([str(path)]) for line in r["lines"])


def test_rows(tmp_path: Path) -> None:
    (row,) = _rows(tmp_path)
    assert list(row) == list(COLUMNS)
    assert (row["round"], row["number"], row["honba"], row["dealer"], row["kind"]) == ("E", 3, 0, 2, "win")
    assert (row["winners"], row["loser"], row["tsumo"]) == ([2], 3, False)
    assert row["yaku"] == [["riichi", "ippatsu", "dora"]] and row["han"] == [3] and row["fu"] == [40]
    assert row["points"] == [7700] and row["pao"] == [None] and row["match"] is True
    assert [row[f"delta_{i}"] for i in range(4)] == [0, 0, 8700, -7700]
    assert [row[f"score_{i}"] for i in range(4)] == [38400, 20600, 19600, 21400]


def test_jsonl_and_csv(tmp_path: Path) -> None:
    rows = _rows(tmp_path)
    write_rows(rows, str(tmp_path / "h.jsonl"))
    assert [json.loads(x) for x in (tmp_path / "h.jsonl").read_text().splitlines()] == rows
    write_rows(rows, str(tmp_path / "h.csv"))
    with open(tmp_path / "h.csv", encoding="utf-8") as f:
        (got,) = list(csv.DictReader(f))
    assert json.loads(got["yaku"]) == rows[0]["yaku"] and got["delta_2"] == "8700"
    # booleans in JSON's words, as the JSON Lines write them (not Python's True/False)
    assert (got["tsumo"], got["match"]) == ("false", "true")
    with pytest.raises(TenbouError, match=r"\.parquet, \.csv or \.jsonl"):
        write_rows(rows, str(tmp_path / "h.xlsx"))


@pytest.mark.skipif(
    importlib.util.find_spec("pandas") is None or importlib.util.find_spec("pyarrow") is None,
    reason="the 'analysis' extra (pandas, pyarrow) is not installed",
)
def test_parquet_for_pandas(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import pandas as pd

    src = tmp_path / "hand.xml"
    src.write_bytes(HAND)
    out = tmp_path / "hands.parquet"
    assert main(["export", str(src), "--out", str(out), "--quiet"]) == 0
    frame = pd.read_parquet(out)
    assert list(frame.columns) == list(COLUMNS) and len(frame) == 1
    wins = frame.explode(["winners", "yaku", "han", "fu", "points", "limit", "pao"])
    assert int(wins["points"].iloc[0]) == 7700 and list(wins["yaku"].iloc[0]) == ["riichi", "ippatsu", "dora"]


@pytest.mark.skipif(
    importlib.util.find_spec("pandas") is None or importlib.util.find_spec("pyarrow") is None,
    reason="the 'analysis' extra (pandas, pyarrow) is not installed",
)
def test_parquet_types(tmp_path: Path) -> None:
    """Nullable integers where a value can be absent (a tsumo's or a draw's loser, a three-player
    game's fourth seat), never floats with NaN; the per-win columns typed lists in the file."""
    import pandas as pd
    import pyarrow.parquet as pq

    from tenbou.verify.export import COLUMN_TYPES

    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "four.jsonl").write_bytes(selfplay(7))
    agents = [GreedyAgent(random.Random(i), call_rate=0.3) for i in range(3)]
    sanma = play_game(get_rules("tenhou"), seed=2, players=3, length="tonpuu", agents=agents)
    (folder / "three.jsonl").write_text("\n".join(events_to_lines(sanma)) + "\n", encoding="utf-8")
    out = tmp_path / "hands.parquet"
    assert main(["export", str(folder), "--out", str(out), "--quiet"]) == 0
    frame = pd.read_parquet(out)
    for name, kind in COLUMN_TYPES.items():
        want = {"int": "Int64", "str": "string", "bool": "boolean"}.get(kind, "object")
        assert str(frame[name].dtype) == want, (name, frame[name].dtype)
    assert frame["loser"].isna().any() and frame["loser"].notna().any()
    assert frame["delta_3"].isna().any() and frame["score_3"].isna().any()  # the sanma game's seat 3
    schema = pq.read_schema(out)
    assert (
        str(schema.field("loser").type) == "int64"
        and str(schema.field("winners").type) == "list<element: int64>"
    )
    assert str(schema.field("yaku").type) == "list<element: list<element: string>>"
    typed = pd.read_parquet(out, dtype_backend="pyarrow")
    wins = typed.explode(["winners", "yaku", "han", "fu", "points", "limit", "pao"]).dropna(subset=["han"])
    assert len(wins) >= 1 and all(int(h) > 0 for h in wins["han"])


def test_parquet_without_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real_find = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "pyarrow" else real_find(name)
    )
    src = tmp_path / "hand.xml"
    src.write_bytes(HAND)
    assert main(["export", str(src), "--out", str(tmp_path / "h.parquet"), "--quiet"]) == 2
    assert "pip install 'tenbou[analysis]'" in capsys.readouterr().err
    real_import = builtins.__import__

    def no_pandas(name: str, *args: Any, **kw: Any) -> Any:
        if name == "pandas":
            raise ImportError("No module named 'pandas'")
        return real_import(name, *args, **kw)

    monkeypatch.setattr(builtins, "__import__", no_pandas)
    monkeypatch.setattr(importlib, "import_module", lambda name: no_pandas(name))
    with pytest.raises(TenbouError, match=r"optional extra 'analysis'"):
        write_rows(_rows(tmp_path), str(tmp_path / "h.parquet"))


def test_cli_export_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "hand.xml"
    src.write_bytes(HAND)
    assert main(["export", str(src), "--out", str(tmp_path / "h.csv")]) == 0
    err = capsys.readouterr().err
    assert "1 hand ends written" in err and "matched 1" in err
    assert main(["export", str(src), "--out", str(tmp_path / "h.txt"), "--quiet"]) == 2
