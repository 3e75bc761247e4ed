"""The build: the hot modules compiled with mypyc wherever that can work, pure Python elsewhere.

``pip install .`` (a source checkout or the sdist) and ``python -m build`` compile the modules of
``COMPILED`` to C extensions with mypyc -- the same source, four to five times as fast (the
README's Speed section) -- whenever a C compiler and the Python headers work. mypy (which carries
mypyc) is then asked for as a build requirement of this build only, from PyPI: a machine where
no compiler works never downloads it. Pure Python is built instead, and the install never fails
for want of a compiler, when

- ``TENBOU_PURE=1`` is set;
- the interpreter is not CPython (mypyc builds CPython extensions);
- no C compiler works, or the Python headers are missing (a two-line C file including
  ``Python.h`` is compiled and linked first);
- mypyc or the C compiler fails on the real modules (the build goes on without them);
- the install is editable (``pip install -e .``): the source in ``src/`` is what runs, so an edit
  takes effect at once (a compiled module would shadow its edited ``.py``).

Either way one line ``tenbou build: ...`` says which build it is and why. pip shows it with
``-v`` (it hides a build's output otherwise); ``python -m build`` always shows it. A pure build
keeps the reason in the package: ``tenbou --version`` (and ``tenbou.build_info()``) tells the
build that is installed, and why it is pure.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

#: the modules compiled by mypyc (scoring, settlement, the game engine and its self-play table); one
#: group, one shared library
COMPILED = [
    "errors", "_jsonread", "rules/_options", "rules/presets/__init__",
    "core/values", "core/tiles", "core/shanten", "core/shape", "core/hand", "core/yaku", "core/validate",
    "core/scoring",
    "settle/pao", "settle/payment", "settle/results",
    "api/request", "api/win", "api/settlement",
    "engine/events", "engine/referee", "engine/plans", "engine/state", "engine/win", "engine/draws",
    "engine/legal", "engine/checks", "engine/effects", "engine/round", "engine/game", "engine/bots",
    "engine/table",
]  # fmt: skip
#: the build requirement that brings mypyc (the versions the compiled build was tested with)
MYPY = "mypy>=2.2,<2.5"
#: mypyc's shared library of the group: the top-level module ``tenbou__mypyc``
GROUP = "tenbou"
#: the file of a pure build that says why it is pure (read by tenbou.build_info)
NOTE = "_build_note.txt"


def _say(line: str) -> None:
    print(f"tenbou build: {line}", file=sys.stderr, flush=True)


def _first_error(text: str) -> str:
    """The line of a compiler's output or an exception's text that tells the problem, short: a
    failed command is named by its program (``command 'gcc' failed with exit code 1``)."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    line = ([ln for ln in lines if "error" in ln.lower()] or lines or ["(no message)"])[0]
    failed = re.match(r"[Cc]ommand '\[?'?([^',\]]+)'?.*?\]?' ((?:failed|returned).*)$", line)
    if failed:
        line = f"command '{os.path.basename(failed[1])}' {failed[2]}"
    return line[:160]


@contextlib.contextmanager
def _captured(log: Path) -> Iterator[None]:
    """The process's stdout and stderr (the compiler's too) written to ``log`` meanwhile."""
    saved = os.dup(1), os.dup(2)
    try:
        with log.open("w") as out:
            os.dup2(out.fileno(), 1)
            os.dup2(out.fileno(), 2)
            yield
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        os.close(saved[0])
        os.close(saved[1])


#: a C file that needs the Python headers
PROBE = "#include <Python.h>\nPyObject *tenbou_probe(void) { return PyLong_FromLong(1); }\n"


def _compiler_problem() -> str | None:
    """Why no CPython extension can be built here, or None: a tiny C file that includes
    ``Python.h`` is compiled and linked as a shared object with the compiler setuptools would
    use (``CC`` and the like are honoured). The compiler's own output is captured."""
    from distutils import ccompiler, sysconfig  # setuptools' copy (setuptools is imported above)

    with tempfile.TemporaryDirectory(prefix="tenbou-cc-") as tmp:
        src = Path(tmp, "probe.c")
        src.write_text(PROBE)
        log = Path(tmp, "log.txt")
        try:
            with _captured(log):
                compiler: Any = ccompiler.new_compiler()
                sysconfig.customize_compiler(compiler)
                objects = compiler.compile(
                    [str(src)], output_dir=tmp, include_dirs=[sysconfig.get_python_inc()]
                )
                if os.name == "posix":  # elsewhere the real build's link step is the test
                    compiler.link_shared_object(objects, str(Path(tmp, "probe.so")))
        except Exception as e:  # CompileError, LinkError, DistutilsExecError, OSError ...
            said = log.read_text(errors="replace").strip() if log.exists() else ""
            return f"no C compiler with the Python headers: {_first_error(said or str(e))}"
    return None


#: flags for the C compiler of the compiled modules, each given where the compiler takes it without
#: a warning (GCC and Clang do). The shared library is loaded, never linked against, and exports
#: only its init function, so none of its functions can be interposed: calls between them are
#: direct and may be inlined (``-fno-semantic-interposition``, ``-fvisibility=hidden``); calls into
#: libpython go through the GOT, not the PLT (``-fno-plt``). ``api.score``, compiled with GCC 12:
#: 54,853 -> 52,538 instructions a hand (callgrind). ``-Wno-all`` (after the ``-Wall`` of Python's
#: own flags) leaves out the warnings of mypyc's generated C, which nobody reads, and the analyses
#: they need: GCC 12 writes the same object file byte for byte, in 75 s instead of 95 (the group's
#: 260,000 lines of C, alone on this 2-core machine; ``pip install .`` 97 s instead of 119).
C_FLAGS = ["-fno-semantic-interposition", "-fvisibility=hidden", "-fno-plt", "-Wno-all"]


def _accepted_flags(compiler: Any) -> list[str]:
    """Those of :data:`C_FLAGS` that ``compiler`` (setuptools' compiler object) takes without a
    warning: all of them tried at once first, then one by one. None but for a Unix compiler."""
    if compiler.compiler_type != "unix":
        return []
    from distutils import sysconfig

    with tempfile.TemporaryDirectory(prefix="tenbou-cc-") as tmp:
        src = Path(tmp, "probe.c")
        src.write_text(PROBE)

        def takes(flags: list[str]) -> bool:
            try:
                with _captured(Path(tmp, "log.txt")):
                    compiler.compile(
                        [str(src)], output_dir=tmp, include_dirs=[sysconfig.get_python_inc()],
                        extra_postargs=[*flags, "-Werror"],
                    )  # fmt: skip
            except Exception:  # CompileError and the like: a flag it does not take
                return False
            return True

        if takes(C_FLAGS):
            return list(C_FLAGS)
        return [flag for flag in C_FLAGS if takes([flag])]


def _pure_reason() -> str | None:
    """Why this build is pure Python before anything is compiled, or None: compile."""
    if os.environ.get("TENBOU_PURE") == "1":
        return "TENBOU_PURE=1"
    if sys.implementation.name != "cpython":
        return f"mypyc compiles for CPython, not {sys.implementation.name}"
    return _compiler_problem()


def _write_note(build_lib: str, reason: str) -> None:
    path = Path(build_lib, "tenbou", NOTE)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(reason + "\n", encoding="utf-8")


class BuildPy(build_py):
    """Starts from an empty package in the build folder (a module moved or removed since an earlier
    build in this checkout must not ship, nor shadow what replaced it), and says so, leaving the
    reason in the package, when the build is pure from the start."""

    def run(self) -> None:
        if not self.editable_mode:
            shutil.rmtree(Path(self.build_lib, "tenbou"), ignore_errors=True)
        super().run()
        if REASON is not None and not self.editable_mode:
            _say(f"pure Python ({REASON})")
            _write_note(self.build_lib, REASON)


class BuildExt(build_ext):
    """mypyc's extensions, made only now (not for metadata or an sdist), and built; any failure
    leaves the pure modules alone in the build, with the reason."""

    def run(self) -> None:
        if self.editable_mode:
            _say("pure Python (an editable install runs the source in src/ as it is; pip install . compiles)")
            return
        try:
            self._fill_in()
            super().run()
        except ImportError as e:  # pip --no-build-isolation without mypy
            self._fall_back(f"mypyc is not installed: {e}")
            return
        except SystemExit as e:  # mypyc prints its errors and exits
            self._fall_back(f"mypyc failed (exit status {e.code}; its errors are printed above)")
            return
        except Exception as e:  # CompileError, LinkError, ...
            self._fall_back(f"mypyc or the C compiler failed: {_first_error(str(e))}")
            return
        Path(self.build_lib, "tenbou", NOTE).unlink(missing_ok=True)  # left by an earlier build here
        flags = f"C flags: {' '.join(self.c_flags) or 'none taken'}"
        _say(f"compiled with mypyc ({len(COMPILED)} modules, {flags}; TENBOU_PURE=1 builds pure Python)")

    def initialize_options(self) -> None:
        super().initialize_options()
        self.c_flags: list[str] = []  # those of C_FLAGS given to the compiler (by build_extensions)

    def build_extensions(self) -> None:
        self.c_flags = _accepted_flags(self.compiler)
        for ext in self.extensions:
            ext.extra_compile_args = [*ext.extra_compile_args, *self.c_flags]
        super().build_extensions()

    def _fill_in(self) -> None:
        """Give the placeholders of setup() what mypyc generated (same names: the C sources, flags)."""
        from mypyc.build import mypycify

        made = {e.name: e for e in mypycify(SOURCES, opt_level="3", group_name=GROUP)}
        if set(made) != {e.name for e in self.extensions}:
            raise RuntimeError(f"mypyc made other extensions than expected: {sorted(made)}")
        for ext in self.extensions:
            for key, value in vars(made[ext.name]).items():
                if not key.startswith("_") or key not in vars(ext):
                    setattr(ext, key, value)

    def _fall_back(self, reason: str) -> None:
        for ext in self.extensions:  # a half-built group would not import
            Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
        self.distribution.ext_modules = []
        wheel = self.distribution.get_command_obj("bdist_wheel", create=False)
        if wheel is not None:
            wheel.root_is_pure = True
        _say(f"pure Python ({reason})")
        _write_note(self.build_lib, reason)


SOURCES = [f"src/tenbou/{name}.py" for name in COMPILED]
REASON = _pure_reason()
if REASON is None:
    placeholders = [Extension(f"{GROUP}__mypyc", SOURCES)]
    placeholders += [
        Extension("tenbou." + name.replace("/", "."), [src])
        for name, src in zip(COMPILED, SOURCES, strict=True)
    ]
    setup(
        ext_modules=placeholders,
        cmdclass={"build_py": BuildPy, "build_ext": BuildExt},
        setup_requires=[MYPY],  # a build requirement of this build only (PEP 517 get_requires_for_build_*)
    )
else:
    setup(cmdclass={"build_py": BuildPy})
