"""Optional compiled build.

``pip install .`` installs pure Python (no compiler needed). With
``TENBOU_MYPYC=1`` and mypy installed, the hot modules are compiled to C
extensions by mypyc (the same source, four to five times as fast; see the
Speed section of the README)::

    python3 -m pip install mypy setuptools
    TENBOU_MYPYC=1 python3 -m pip install --no-build-isolation .
"""

from __future__ import annotations

import os

from setuptools import setup

#: the modules compiled by mypyc (the scoring and settlement hot path)
COMPILED = ["errors", "rules/_options", "rules/presets/__init__", "tiles", "shape", "hand", "yaku", "scoring", "pao", "payment", "api"]

ext_modules = []
if os.environ.get("TENBOU_MYPYC") == "1":
    from mypyc.build import mypycify

    ext_modules = mypycify([f"src/tenbou/{name}.py" for name in COMPILED], opt_level="3")

setup(ext_modules=ext_modules)
