"""Which build of tenbou is running: the hot modules compiled by mypyc, or pure Python.

``pip install .`` compiles them where a C compiler works (setup.py); the build is told by the
modules themselves: ``tenbou.core.scoring`` is an extension module in the compiled build. A pure
build made by ``pip install`` keeps why it is pure in ``_build_note.txt`` (no compiler,
``TENBOU_PURE=1``, ...), which :func:`build_info` adds; a source checkout (``PYTHONPATH=src``, an
editable install) has no note.
"""

from __future__ import annotations

from importlib import resources
from importlib.machinery import EXTENSION_SUFFIXES
from typing import Final

from .core import scoring

COMPILED_BUILD: Final = "compiled (mypyc)"
PURE_BUILD: Final = "pure Python"

#: the build running: ``"compiled (mypyc)"`` or ``"pure Python"``
BUILD: Final = COMPILED_BUILD if str(scoring.__file__).endswith(tuple(EXTENSION_SUFFIXES)) else PURE_BUILD


def build_info() -> str:
    """The build running, and for a pure build made by pip why it is pure:
    ``"compiled (mypyc)"``, ``"pure Python"``, ``"pure Python (TENBOU_PURE=1)"``."""
    if BUILD == COMPILED_BUILD:
        return BUILD
    try:
        note = resources.files(__package__).joinpath("_build_note.txt").read_text(encoding="utf-8").strip()
    except OSError:
        return BUILD
    return f"{BUILD} ({note})" if note else BUILD
