"""The two builds of tenbou a benchmark compares, each importable by a fresh process:

- compiled: ``pip install --no-deps --target DIR`` of this checkout -- the README's
  ``pip install .``, which compiles the hot modules with mypyc where a C compiler works. It is
  kept in a folder named by a hash of the sources (under the system's temporary folder unless
  ``--compiled-dir`` says otherwise), so a second run does not build again (about 40 s);
- pure: the checkout's ``src/`` itself (``PYTHONPATH=src``): the same modules as source.

A process runs the build of a folder with ``PYTHONPATH=<folder>`` (:func:`env_for`); a
:class:`Worker` is such a process, a benchmark script run as a worker, asked for work in JSON lines.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PURE = ROOT / "src"


def _source_hash() -> str:
    h = hashlib.sha256()
    files = [ROOT / "setup.py", ROOT / "pyproject.toml"]
    files += sorted(p for p in PURE.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    for path in files:
        if path.suffix in (".so", ".pyd") or any(part.endswith(".egg-info") for part in path.parts):
            continue
        h.update(str(path.relative_to(ROOT)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:12]


def compiled_build(where: str | None = None) -> Path | None:
    """A folder holding ``pip install .`` of this checkout, built now unless it is there already;
    None (and why, printed) when pip fails."""
    target = Path(where) if where else Path(tempfile.gettempdir()) / f"tenbou-bench-{_source_hash()}"
    if (target / "tenbou" / "__init__.py").exists():
        return target
    print(f"building tenbou into {target} (pip install ., compiled where a C compiler works) ...", flush=True)
    partial = target.with_name(target.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    cmd = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(partial), str(ROOT)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        print(f"  pip install failed:\n{done.stderr[-2000:]}")
        return None
    if target.exists():
        shutil.rmtree(target)
    partial.rename(target)
    return target


def env_for(folder: Path) -> dict[str, str]:
    """The environment of a process that imports tenbou from ``folder``."""
    return dict(os.environ, PYTHONPATH=str(folder))


class Worker:
    """A process running ``script`` (a benchmark, with ``args`` that make it a worker) on the build
    of tenbou in ``folder``: it prints one JSON line first, ``{"build": ..., "file": ...}`` (the
    build it imported and from where) or ``{"error": ...}``, then answers each JSON line it reads
    on stdin (:meth:`ask`) with one."""

    def __init__(self, script: str, args: list[str], folder: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(script).resolve()), *args],
            env=env_for(folder),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        hello = self._read()
        if "error" in hello:
            raise RuntimeError(hello["error"])
        self.build: str = hello["build"]
        self.file: str = hello["file"]

    def _read(self) -> Any:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the worker stopped (exit status {self.proc.wait()})")
        return json.loads(line)

    def ask(self, **cmd: Any) -> Any:
        """Send ``cmd`` as a JSON line; the worker's answer."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(cmd) + "\n")
        self.proc.stdin.flush()
        return self._read()

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=60)
