"""Imports flow one way, from the core up (docs/architecture.md): every module of ``src/tenbou``
is read with ``ast`` (a late import inside a function counts too) and each tenbou module it
imports must lie in a layer below its own, or in its own part of its own layer. The layers:

====  ======================================================================================
 0    ``errors``
 1    ``rules``, ``_jsonread`` (the one strict JSON reader)
 2    ``core``: tiles, hands, their shapes, yaku and score
 3    ``settle``: pao, payments, results
 4    ``api`` (the JSON façade) | ``engine`` (the game) | ``render`` (pictures): three parts that
      import none of each other
 5    ``io``: record formats, files
 6    ``verify`` | ``match``
 7    ``web``
 8    ``cli``
 9    ``__main__``; the modules kept for users' imports (``tenbou.engine.events``, ``.game``,
      ``.selfplay``, ``.svg``), which no tenbou module imports
====  ======================================================================================

The one exception: a tile's and a hand's picture in a notebook (``_repr_svg_``), which the core
draws by importing the renderer when asked.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "tenbou"

#: the layer and the part of each first name below ``tenbou`` (a subpackage or a top module)
LAYERS: dict[str, tuple[int, str]] = {
    "errors": (0, "errors"),
    "rules": (1, "rules"),
    "_jsonread": (1, "json"),
    "core": (2, "core"),
    "settle": (3, "settle"),
    "api": (4, "api"),
    "engine": (4, "engine"),
    "render": (4, "render"),
    "io": (5, "io"),
    "verify": (6, "verify"),
    "match": (6, "match"),
    "web": (7, "web"),
    "cli": (8, "cli"),
    "__main__": (9, "main"),
    "events": (9, "users"),
    "game": (9, "users"),
    "selfplay": (9, "users"),
    "svg": (9, "users"),
}
#: imports against the layers that are meant (importer, imported)
EXCEPTIONS = {
    ("core.tiles", "render.svg"),  # Tile._repr_svg_: a notebook's picture, imported when drawn
    ("core.hand", "render.svg"),  # Hand._repr_svg_
}


def _modules() -> list[str]:
    """Every module below tenbou, dotted (``core.tiles``, ``io`` for io/__init__.py)."""
    out = []
    for path in sorted(SRC.rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        if parts:
            out.append(".".join(parts))
    return out


def _imports(module: str) -> set[str]:
    """The tenbou modules (dotted below tenbou) that ``module`` imports, late imports included."""
    path = SRC / (module.replace(".", "/") + ".py")
    package = module.split(".")[:-1]
    if not path.exists():
        path = SRC / module.replace(".", "/") / "__init__.py"
        package = module.split(".")
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[: len(package) - (node.level - 1)]
            target = [*base, *(node.module.split(".") if node.module else [])]
            if node.module:
                out.add(".".join(target))
            else:
                out.update(".".join([*target, a.name]) for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("tenbou."):
            out.add(node.module.removeprefix("tenbou."))
        elif isinstance(node, ast.Import):
            out.update(a.name.removeprefix("tenbou.") for a in node.names if a.name.startswith("tenbou."))
    return {m for m in out if m}


def _layer(module: str) -> tuple[int, str] | None:
    return LAYERS.get(module.split(".")[0])


MODULES = _modules()


def test_every_module_has_a_layer() -> None:
    assert not [m for m in MODULES if _layer(m) is None]


@pytest.mark.parametrize("module", MODULES)
def test_imports_flow_one_way(module: str) -> None:
    own = _layer(module)
    assert own is not None
    wrong = []
    for target in sorted(_imports(module)):
        theirs = _layer(target)
        if theirs is None or (module, target) in EXCEPTIONS:
            continue  # (the package itself: ``from .. import __version__``)
        below = theirs[0] < own[0]
        same_part = theirs == own
        if not (below or same_part) or theirs[1] == "users":
            wrong.append(
                f"{module} imports {target} (layer {theirs[0]} {theirs[1]}; it is {own[0]} {own[1]})"
            )
    assert not wrong


def test_the_check_sees_imports() -> None:
    # a relative import, an absolute one and a late one inside a function
    assert "core.tiles" in _imports("core.hand")
    assert "render.svg" in _imports("core.hand")
    assert "core.scoring" in _imports("api.win")


#: the top-level modules that moved into their layer: (old path, new home, a name it still gives)
MOVED_MODULES = (
    ("tenbou.files", "tenbou.io.files", "OutputFile"),
    ("tenbou._build", "tenbou", "build_info"),
    ("tenbou.completion", "tenbou.cli.completion", "script"),
)


@pytest.mark.parametrize(("old", "home", "name"), MOVED_MODULES)
def test_a_moved_module_still_imports(old: str, home: str, name: str) -> None:
    """Its old path imports (:data:`tenbou.MOVED`), and gives the very object of its new home."""
    assert old in importlib.import_module("tenbou").MOVED
    assert getattr(importlib.import_module(old), name) is getattr(importlib.import_module(home), name)


def test_the_top_of_the_package_holds_eight_modules() -> None:
    """Every other module is in its layer's subpackage (issue 40): at the top stay the package's
    ``__init__`` and ``__main__``, ``errors``, the one JSON reader and the four modules kept for
    users' imports."""
    top = sorted(p.stem for p in SRC.glob("*.py"))
    assert top == ["__init__", "__main__", "_jsonread", "errors", "events", "game", "selfplay", "svg"]
