"""Imports flow one way: the scoring core knows nothing of the game engine, and the engine nothing of
the JSON façade, the verifier, the record readers or the front ends (read from the source with
``ast``, so a late import inside a function counts too)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "tenbou"

CORE = ["errors", "tiles", "rules", "hand", "shape", "yaku", "scoring", "pao", "payment", "results"]
ENGINE = ["events", "referee", "round", "game", "selfplay", "replay"]
ABOVE_CORE = {*ENGINE, "io", "records", "api", "cli", "web"}
ABOVE_ENGINE = {"io", "records", "api", "cli", "web"}


def _imports(module: str) -> set[str]:
    """The tenbou modules ``module`` imports (their first name below ``tenbou``)."""
    path = SRC / f"{module}.py"
    if not path.exists():
        path = SRC / module / "__init__.py"
    depth = 1 if path.name != "__init__.py" else 2
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            if node.level == depth and node.module:
                out.add(node.module.split(".")[0])
            elif node.level == depth and not node.module:
                out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("tenbou."):
            out.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            out.update(a.name.split(".")[1] for a in node.names if a.name.startswith("tenbou."))
    return out


@pytest.mark.parametrize("module", CORE)
def test_the_core_does_not_import_the_engine_or_front_ends(module: str) -> None:
    assert not _imports(module) & ABOVE_CORE


@pytest.mark.parametrize("module", ENGINE)
def test_the_engine_does_not_import_the_facade_readers_or_verifier(module: str) -> None:
    assert not _imports(module) & ABOVE_ENGINE


def test_the_check_sees_imports() -> None:
    assert {"api", "records", "io"} <= _imports("cli")
