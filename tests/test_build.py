"""The build: ``pip install .`` compiles the hot modules with mypyc where a C compiler works,
installs pure Python where none does (never a failed install), and the build running says
which it is (``tenbou.BUILD``, ``tenbou.build_info()``, ``tenbou --version``).

The fast tests check the build they run on, whichever it is (CI runs the fast suite on the
editable pure install and on the compiled wheel). The slow ones build the checkout with pip,
as the README's Quick start does, into folders of their own: with the compiler of this machine,
without one (``CC=/bin/false``), with one that fails on mypyc's C, and with ``TENBOU_PURE=1``.
"""

from __future__ import annotations

import ast
import importlib
import os
import shutil
import subprocess
import sys
import sysconfig
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import tenbou
from tenbou.cli import main

ROOT = Path(__file__).resolve().parents[1]
DAISANGEN = "23m55p +4m pon:555z@2 pon:666z@0 pon:777z@3"


def compiled_modules() -> list[str]:
    """setup.py's COMPILED, as module names (``rules/presets/__init__`` -> ``tenbou.rules.presets``)."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "COMPILED" for t in node.targets):
            names: list[str] = ast.literal_eval(node.value)
            return ["tenbou." + n.removesuffix("/__init__").replace("/", ".") for n in names]
    raise AssertionError("setup.py has no COMPILED list")


def is_extension(path: str | None) -> bool:
    return str(path).endswith(tuple(EXTENSION_SUFFIXES))


# -- the build running ---------------------------------------------------------------------------


def test_the_build_running_is_told_by_its_modules() -> None:
    kinds = {name: is_extension(importlib.import_module(name).__file__) for name in compiled_modules()}
    assert "tenbou.core.scoring" in kinds and "tenbou.api.win" in kinds
    assert len(set(kinds.values())) == 1, f"a half-compiled build: {kinds}"
    compiled = kinds["tenbou.core.scoring"]
    expected = "compiled (mypyc)" if compiled else "pure Python"
    assert expected == tenbou.BUILD
    assert tenbou.build_info().startswith(tenbou.BUILD)
    assert ("tenbou__mypyc" in sys.modules) is compiled  # mypyc's shared library of the group
    assert not is_extension(importlib.import_module("tenbou.verify.verifier").__file__)  # never compiled


def test_version_says_the_build(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    out = " ".join(capsys.readouterr().out.split())  # argparse wraps a long line
    assert out == f"tenbou {tenbou.__version__}, {tenbou.build_info()}"
    assert tenbou.BUILD in ("compiled (mypyc)", "pure Python")


def test_no_compiled_module_in_the_source_tree() -> None:
    """A module compiled in place (``build_ext --inplace``) would shadow its edited ``.py``:
    an editable install is pure Python and leaves none."""
    assert [p.name for p in (ROOT / "src").rglob("*") if is_extension(p.name)] == []


# -- pip install, built here ---------------------------------------------------------------------


def _compiler_here() -> bool:
    """Whether this machine has what the compiled build needs, judged apart from setup.py:
    the C compiler Python was built with, on PATH, and the Python headers."""
    cc = os.environ.get("CC") or str(sysconfig.get_config_var("CC") or "")
    found = bool(cc.split()) and shutil.which(cc.split()[0]) is not None
    return found and Path(sysconfig.get_paths()["include"], "Python.h").exists()


def pip_install(tmp_path: Path, **env: str) -> tuple[Path, str]:
    """``pip install .`` of a copy of the checkout (the README's first command, into a folder
    of its own; build isolation as usual, so setuptools and mypy come from the package index):
    the folder and pip's output (``-v``: the build's own lines)."""
    src = tmp_path / "src-copy"
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "*.so")
    shutil.copytree(ROOT / "src", src / "src", ignore=ignore)
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    target = tmp_path / "site"
    cmd = [sys.executable, "-m", "pip", "install", "-v", "--no-deps", "--target", str(target), str(src)]
    done = subprocess.run(
        cmd, env={**os.environ, **env}, capture_output=True, text=True, timeout=900, check=False
    )
    out = done.stdout + done.stderr
    if done.returncode != 0 and "No matching distribution found for setuptools" in out:
        pytest.skip("no package index reachable for the build requirements")
    assert done.returncode == 0, out[-3000:]
    return target, out


def run_installed(target: Path, code: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(target)}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120, check=True
    )
    return done.stdout


_PROBE = f"""
import importlib, json, tenbou
from tenbou.api import score
r = score({{"rules": "tenhou", "dealer": 0, "winner": 1, "hand": "23m55p", "win_tile": "4m",
           "melds": [{{"type": "pon", "tiles": "555z", "from": 2}},
                     {{"type": "pon", "tiles": "666z", "from": 0}},
                     {{"type": "pon", "tiles": "777z", "from": 3}}]}})
print(json.dumps({{"build": tenbou.build_info(), "files": [importlib.import_module(m).__file__ for m in
      {compiled_modules()!r}], "deltas": r["deltas"], "tenbou": tenbou.__file__}}))
"""


def installed(target: Path) -> dict[str, object]:
    import json

    info: dict[str, object] = json.loads(run_installed(target, _PROBE))
    assert str(info["tenbou"]).startswith(str(target))  # the build under test, not the checkout
    assert info["deltas"] == [0, 32000, 0, -32000]  # it scores (daisangen, pao by seat 3)
    return info


def build_lines(out: str) -> list[str]:
    return [ln.strip() for ln in out.splitlines() if "tenbou build:" in ln]


@pytest.mark.slow
def test_pip_install_compiles_where_a_compiler_works(tmp_path: Path) -> None:
    target, out = pip_install(tmp_path)
    info = installed(target)
    files = [str(f) for f in info["files"]]  # type: ignore[attr-defined]
    if not _compiler_here():  # pragma: no cover - a machine without gcc: pure, and it works
        assert info["build"] == "pure Python" or str(info["build"]).startswith("pure Python (")
        return
    assert all(is_extension(f) for f in files), files  # every hot module is an extension module
    assert info["build"] == "compiled (mypyc)"
    count = len(compiled_modules())
    assert build_lines(out) == [
        f"tenbou build: compiled with mypyc ({count} modules, C flags: "
        "-fno-semantic-interposition -fvisibility=hidden -fno-plt -Wno-all; TENBOU_PURE=1 builds pure Python)"
    ]
    assert list(target.glob("tenbou__mypyc.*")) and not (target / "tenbou" / "_build_note.txt").exists()
    wheel = next(target.glob("tenbou-*.dist-info")) / "WHEEL"
    assert "Root-Is-Purelib: false" in wheel.read_text()
    version = run_installed(target, "import sys; from tenbou.cli import main; main(['--version'])")
    assert version == f"tenbou {tenbou.__version__}, compiled (mypyc)\n"


def _assert_pure(target: Path, out: str, why: str) -> None:
    info = installed(target)
    assert not any(is_extension(str(f)) for f in info["files"]), info  # type: ignore[attr-defined]
    assert str(info["build"]).startswith(f"pure Python ({why}"), info["build"]
    lines = build_lines(out)
    assert len(lines) == 1 and lines[0].startswith(f"tenbou build: pure Python ({why}"), lines
    assert not list(target.rglob("*.so")) and not list(target.glob("tenbou__mypyc*"))
    wheel = next(target.glob("tenbou-*.dist-info")) / "WHEEL"
    assert "Tag: py3-none-any" in wheel.read_text()  # a pure wheel, not a platform one


@pytest.mark.slow
def test_no_compiler_installs_pure_python(tmp_path: Path) -> None:
    target, out = pip_install(tmp_path, CC="/bin/false")
    _assert_pure(target, out, "no C compiler with the Python headers: command 'false'")
    assert "Collecting mypy" not in out  # mypy is asked for only where it can compile


@pytest.mark.slow
def test_a_compiler_failing_on_mypycs_code_installs_pure_python(tmp_path: Path) -> None:
    """The probe compiles, the real build does not: the build goes on without the extensions."""
    cc = tmp_path / "cc"
    cc.write_text(
        f'#!/bin/sh\ncase "$*" in *__native_*) exit 1;; esac\nexec {shutil.which("gcc") or "cc"} "$@"\n'
    )
    cc.chmod(0o755)
    if not _compiler_here():  # pragma: no cover
        pytest.skip("no C compiler here")
    target, out = pip_install(tmp_path, CC=str(cc))
    _assert_pure(target, out, "mypyc or the C compiler failed: command 'cc'")


@pytest.mark.slow
def test_a_compiler_refusing_a_flag_compiles_without_it(tmp_path: Path) -> None:
    """setup.py's C flags are each given only where the compiler takes them: one that refuses
    ``-fno-plt`` still builds the compiled modules, with the other flags."""
    if not _compiler_here():  # pragma: no cover
        pytest.skip("no C compiler here")
    cc = tmp_path / "cc"
    cc.write_text(
        '#!/bin/sh\nfor a in "$@"; do\n'
        '  [ "$a" = -fno-plt ] && echo "cc: unknown option $a" >&2 && exit 1\n'
        "done\n"
        f'exec {shutil.which("gcc") or "cc"} "$@"\n'
    )
    cc.chmod(0o755)
    target, out = pip_install(tmp_path, CC=str(cc))
    info = installed(target)
    assert info["build"] == "compiled (mypyc)"
    assert all(is_extension(str(f)) for f in info["files"]), info  # type: ignore[attr-defined]
    assert build_lines(out) == [
        f"tenbou build: compiled with mypyc ({len(compiled_modules())} modules, C flags: "
        "-fno-semantic-interposition -fvisibility=hidden -Wno-all; TENBOU_PURE=1 builds pure Python)"
    ]


@pytest.mark.slow
def test_tenbou_pure_forces_pure_python(tmp_path: Path) -> None:
    target, out = pip_install(tmp_path, TENBOU_PURE="1")
    _assert_pure(target, out, "TENBOU_PURE=1")
    assert (
        run_installed(target, "import tenbou; print(tenbou.build_info())") == "pure Python (TENBOU_PURE=1)\n"
    )
