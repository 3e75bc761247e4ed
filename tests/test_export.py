"""tenbou export: one row per hand end, as JSON Lines, CSV or parquet (the 'analysis' extra)."""

from __future__ import annotations

import builtins
import csv
import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from tenbou.cli import main
from tenbou.errors import TenbouError
from tenbou.records import COLUMNS, export_rows, verify_paths, write_rows

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
