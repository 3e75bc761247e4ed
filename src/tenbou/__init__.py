"""tenbou (点棒): a rules engine for Japanese riichi mahjong.

Scores a winning hand (yaku, han, fu, points) and settles a hand between the
players under the rules of real platforms and leagues, responsibility payment
(pao) included.

>>> from tenbou.api import score
>>> r = score({"rules": "tenhou", "dealer": 0, "winner": 1, "from": 3, "hand": "23m55p",
...            "melds": [{"type": "pon", "tiles": "555z", "from": 2},
...                      {"type": "pon", "tiles": "666z", "from": 0},
...                      {"type": "pon", "tiles": "777z", "from": 3}],
...            "win_tile": "4m"})
>>> r["han"], r["limit"], r["deltas"]
(13, 'yakuman', [0, 32000, 0, -32000])

The package is laid out in layers, imports flowing one way from the core up (docs/architecture.md):
``core`` (tiles, hands, their shapes, yaku and score), ``rules``, ``settle`` (pao, payments,
results), the JSON façade ``api``, the game ``engine``, record I/O ``io``, verification, pictures,
the CLI and the web app. The modules of the flat package it was (``tenbou.tiles``,
``tenbou.scoring``, ``tenbou.round``, ``tenbou.records``, ...) still import, from where their
contents live now (:data:`MOVED`), so that code and pickles made before keep working.
"""

import importlib
import importlib.abc
import importlib.machinery
import sys
import types
from collections.abc import Sequence
from importlib import resources
from importlib.machinery import EXTENSION_SUFFIXES
from typing import Final

from .core import scoring as _scoring
from .core.hand import Hand, Meld, MeldType, Situation
from .core.scoring import HandScore, Limit, score_hand
from .core.tiles import Tile, Wind, parse_tiles
from .errors import (
    IllegalEventError,
    InvalidHandError,
    LogFormatError,
    NotationError,
    RequestError,
    RuleError,
    TenbouError,
)
from .rules import Rules, get_rules

__version__ = "0.1.0"

#: the build running: ``"compiled (mypyc)"`` or ``"pure Python"``. ``pip install .`` compiles the
#: hot modules where a C compiler works (setup.py); the build is told by the modules themselves:
#: ``tenbou.core.scoring`` is an extension module in the compiled build
BUILD: Final = (
    "compiled (mypyc)" if str(_scoring.__file__).endswith(tuple(EXTENSION_SUFFIXES)) else "pure Python"
)


def build_info() -> str:
    """The build running, and for a pure build made by pip why it is pure:
    ``"compiled (mypyc)"``, ``"pure Python"``, ``"pure Python (TENBOU_PURE=1)"``.

    A pure build made by ``pip install`` keeps why it is pure (no compiler, ``TENBOU_PURE=1``,
    ...) in the package's ``_build_note.txt``, written by setup.py; a source checkout
    (``PYTHONPATH=src``, an editable install) has none."""
    if BUILD != "pure Python":
        return BUILD
    try:
        note = resources.files(__name__).joinpath("_build_note.txt").read_text(encoding="utf-8").strip()
    except OSError:
        return BUILD
    return f"{BUILD} ({note})" if note else BUILD


#: the modules of the flat package of 0.1.0, and where their contents live now (first found first)
MOVED: dict[str, tuple[str, ...]] = {
    "tenbou._native": ("tenbou.core._native",),
    "tenbou.tiles": ("tenbou.core.tiles", "tenbou.core.values"),
    "tenbou.hand": ("tenbou.core.hand",),
    "tenbou.shape": ("tenbou.core.shape",),
    "tenbou.yaku": ("tenbou.core.yaku",),
    "tenbou.scoring": ("tenbou.core.scoring",),
    "tenbou.pao": ("tenbou.settle.pao",),
    "tenbou.payment": ("tenbou.settle.payment",),
    "tenbou.results": ("tenbou.settle.results",),
    "tenbou.referee": ("tenbou.engine.referee",),
    "tenbou.round": ("tenbou.engine.round",),
    "tenbou.records": (
        "tenbou.verify.verifier",
        "tenbou.verify.compare",
        "tenbou.verify.complete",
        "tenbou.verify.run",
        "tenbou.verify.defects",
        "tenbou.verify.summaries",
        "tenbou.verify.export",
        "tenbou.verify.report",
    ),
    "tenbou.replay": ("tenbou.verify.replay",),
    "tenbou.io.convert": ("tenbou.io.read", "tenbou.verify.convert"),
    "tenbou.files": ("tenbou.io.files",),
    "tenbou._build": ("tenbou",),
    "tenbou.completion": ("tenbou.cli.completion",),
    "tenbou.io.mjlog_codes": ("tenbou.io.mjlog.codes", "tenbou.io.mjlog.vocab"),
    "tenbou.io.tenhou_rules": ("tenbou.io.mjlog.rules",),
    "tenbou.io.mjlog_read": ("tenbou.io.mjlog.game", "tenbou.io.mjlog.events", "tenbou.io.mjlog.read"),
    "tenbou.io.mjlog_write": ("tenbou.io.mjlog.write",),
}


class _Moved(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports a module of :data:`MOVED` as a small module of its own whose attributes are looked
    up, when asked for, in the modules that hold them now (PEP 562): ``from tenbou.tiles import
    Tile`` and a pickle naming ``tenbou.round._Win`` work. It answers only for those names, after
    every other finder (nothing real is shadowed)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None  # the default module

    def exec_module(self, module: types.ModuleType) -> None:
        homes = MOVED[module.__name__]
        module.__doc__ = f"{module.__name__}, moved: its contents are in {', '.join(homes)}."
        public = [n for home in homes for n in getattr(importlib.import_module(home), "__all__", ())]
        setattr(module, "__all__", public)  # noqa: B010

        def lookup(name: str) -> object:
            for home in homes:
                found = importlib.import_module(home)
                if hasattr(found, name):
                    return getattr(found, name)
            raise AttributeError(f"module {module.__name__!r} (moved to {', '.join(homes)}) has no {name!r}")

        def names() -> list[str]:
            return sorted({n for home in homes for n in dir(importlib.import_module(home))})

        # (PEP 562: a module's own __getattr__ and __dir__)
        setattr(module, "__getattr__", lookup)  # noqa: B010
        setattr(module, "__dir__", names)  # noqa: B010


if not any(isinstance(f, _Moved) for f in sys.meta_path):
    sys.meta_path.append(_Moved())

__all__ = [
    "BUILD",
    "MOVED",
    "Hand",
    "HandScore",
    "IllegalEventError",
    "InvalidHandError",
    "Limit",
    "LogFormatError",
    "Meld",
    "MeldType",
    "NotationError",
    "RequestError",
    "RuleError",
    "Rules",
    "Situation",
    "TenbouError",
    "Tile",
    "Wind",
    "build_info",
    "get_rules",
    "parse_tiles",
    "score_hand",
]
