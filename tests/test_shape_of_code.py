"""The shape of the code (issue 40): no class over 400 lines, no function over 120, no module over
900, and no import cycle.

The size limits hold for every module of the package (the game engine's ``Round`` was one
1,000-line class, the verifier 1,500 lines, the mjlog reader 1,100, the command line 1,300). Every
module is read with ``ast``: a class or function counts from its first decorator to its last
line, docstring and comments included.

The import graph of the whole package (late imports included, as ``tests/test_layers.py`` reads
them) has no cycle, but for the imports against the layers that are meant
(``test_layers.EXCEPTIONS``: a tile's and a hand's picture in a notebook, ...).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from .test_layers import EXCEPTIONS, MODULES, SRC, _imports

MAX_CLASS = 400
MAX_FUNCTION = 120
MAX_MODULE = 900

#: every module of the package
FILES = sorted(SRC.rglob("*.py"))


def oversized(source: str, where: str) -> list[str]:
    """Each class, function (method) and module of ``source`` over its limit, with its size."""
    out = []
    lines = len(source.splitlines())
    if lines > MAX_MODULE:
        out.append(f"{where}: {lines} lines (at most {MAX_MODULE})")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef):
            what, limit = "class", MAX_CLASS
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            what, limit = "function", MAX_FUNCTION
        else:
            continue
        first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        size = (node.end_lineno or node.lineno) - first + 1
        if size > limit:
            out.append(f"{where}:{first}: {what} {node.name} is {size} lines (at most {limit})")
    return out


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (each an import cycle), and the
    modules that import themselves (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in graph.get(node, ()):
                    found.append(sorted(component))
    return found


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(SRC)))
def test_no_class_function_or_module_over_its_limit(path: Path) -> None:
    assert not oversized(path.read_text(encoding="utf-8"), str(path.relative_to(SRC)))


def test_the_sizes_are_measured() -> None:
    # a decorated class of 403 lines holding a method of 121 and one of 2
    lines = ["@decorated", "class Big:", "    def f(self) -> None:", *["        x = 1"] * MAX_FUNCTION]
    lines += ["    y = 1"] * (MAX_CLASS - MAX_FUNCTION - 1) + ["    def g(self) -> None:", "        pass"]
    assert oversized("\n".join(lines) + "\n", "big.py") == [
        f"big.py:1: class Big is {len(lines)} lines (at most {MAX_CLASS})",
        f"big.py:3: function f is {MAX_FUNCTION + 1} lines (at most {MAX_FUNCTION})",
    ]
    assert oversized("x = 1\n" * (MAX_MODULE + 1), "long.py") == [
        f"long.py: {MAX_MODULE + 1} lines (at most {MAX_MODULE})"
    ]
    assert not oversized("x = 1\n" * MAX_MODULE, "full.py")
    assert len(FILES) > 10


def test_no_import_cycle() -> None:
    modules = set(MODULES)
    graph = {
        m: {t for t in _imports(m) if t in modules and t != m and (m, t) not in EXCEPTIONS} for m in MODULES
    }
    assert not cycles(graph)


def test_the_cycle_check_finds_cycles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}, "f": {"a"}}
    assert cycles(graph) == [["a", "b", "c"], ["e"]]
    assert not cycles({"a": {"b"}, "b": set(), "c": {"a", "b"}})
