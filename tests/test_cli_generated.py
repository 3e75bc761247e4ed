"""Generated command lines: whatever the arguments (flags, numbers, sizes, paths that are missing,
folders, files that are not records, names and contents that are not UTF-8, outputs that cannot be
written), ``tenbou`` never shows a traceback, exits with 0, 1 or 2, and exits with 2 exactly when
it reports an error: one ``tenbou: error: ... [code]`` line on stderr, or (``--json``) one error
object on stdout (a batch of requests or records: one for each bad one). Its standard output is
UTF-8, and with ``--json`` every line of it is JSON.

``main(argv)`` runs in this process (its standard streams replaced), so that the fast suite runs a
few hundred command lines in seconds; ``--runslow`` runs thousands. ``serve`` (which listens) and
``--dask`` (which waits for a scheduler) are left out."""

from __future__ import annotations

import io
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tenbou.cli import main

from .test_cli_errors import ERROR
from .test_io_tenhou import HAND

FAST = settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
SLOW = settings(
    max_examples=3000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

REQUEST = {"winner": 0, "hand": "123m456p789s23s55s", "win_tile": "4s"}
SETTLE = {"wins": [{"winner": 1, "from": 2, "hand": "123m456p789s23s55s", "win_tile": "4s"}]}


@dataclass(frozen=True)
class Files:
    """The files the command lines name (made once for the module; the outputs the commands
    write go into ``out``)."""

    root: Path

    def __getitem__(self, name: str) -> str:
        return os.fsdecode(os.fsencode(self.root) + b"/" + name.encode("utf-8", "surrogateescape"))


def _make(root: Path) -> Files:
    files = Files(root)
    raw = {
        "hand.xml": HAND,
        "bad.xml": HAND.replace(b'ten="', b'ten="x', 1),
        "notes.txt": b"not a record\n",
        "empty.json": b"",
        "req.json": json.dumps(REQUEST).encode(),
        "settle.json": json.dumps(SETTLE).encode(),
        "batch.jsonl": json.dumps(REQUEST).encode()
        + b'\n{"hand": "caf\xe9"}\n'
        + json.dumps(REQUEST).encode(),
        "latin1.json": b'{"winner": 0, "hand": "caf\xe9"}',
        "g\udcff.xml": HAND,
        "defects.tsv": b"hand.xml\t0\tyaku\tcaf\xe9\n",
        "records/a.xml": HAND,
        "records/n\udcfe.txt": b"junk",
    }
    for name, data in raw.items():
        path = files[name]
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    for folder in ("folder.svg", "folder.csv", "out"):
        os.makedirs(files[folder], exist_ok=True)
    return files


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Files:
    return _make(tmp_path_factory.mktemp("cli"))


# -- the arguments -----------------------------------------------------------------------------------

NUMBERS = st.one_of(
    st.integers(-5, 5).map(str),
    st.sampled_from(["x", "1.5", "", "99999999999999999999", "1" * 5000, "²", "nan", "inf", "-0", "1e3"]),
)
SIZES = st.sampled_from(
    ["64M", "1", "100", "1k", "0", "-1", "99999999999999999999G", "2049G", "1024G", "x", "²", "1 k"]
)
HANDS = st.sampled_from(
    [
        "123m456p789s23s55s +4s",
        "23m55p +4m pon:555z@2 pon:666z@0 pon:777z@3",
        "1238z +1m",
        "123m",
        "",
        "+",
        "1p7z",
        "0z",
    ]
)
IDS = st.sampled_from(["tenhou", "mahjongsoul", "nope", "", "\udcff"])
JUNK = st.one_of(st.text(max_size=8), st.binary(max_size=8).map(os.fsdecode)).filter(
    lambda s: "\x00" not in s
)
OUT_SUFFIXES = st.sampled_from([".svg", ".png", ".csv", ".jsonl", ".parquet", ".txt", ""])


@st.composite
def paths(draw: st.DrawFn, files: Files, kinds: tuple[str, ...]) -> str:
    """A path to read: one of ``kinds`` of the module's files, a missing one, a folder, or ``-``."""
    name = draw(st.sampled_from([*kinds, "missing.json", "records", "out", "-", "g\udcff.xml"]))
    return "-" if name == "-" else files[name]


@st.composite
def outputs(draw: st.DrawFn, files: Files) -> str:
    """A file to write: new, in a missing folder, a folder, a file as folder, a device, stdout."""
    suffix = draw(OUT_SUFFIXES)
    where = draw(st.sampled_from(["new", "missing folder", "folder", "file as folder", "full", "-", "bytes"]))
    return {
        "new": files["out/x" + suffix],
        "missing folder": files["missing/x" + suffix],
        "folder": files["folder.svg"] if suffix != ".csv" else files["folder.csv"],
        "file as folder": files["hand.xml/x" + suffix],
        "full": "/dev/full",
        "-": "-",
        "bytes": files["out/n\udcff" + suffix],
    }[where]


def _flags(draw: st.DrawFn, options: dict[str, Any]) -> list[str]:
    """Some of ``options`` (a flag with no value when its strategy is None), in any order."""
    argv: list[str] = []
    if not options:
        return argv
    for flag in draw(st.lists(st.sampled_from(sorted(options)), max_size=4, unique=True)):
        value = options[flag]
        argv += [flag] if value is None else [flag, draw(value)]
    return argv


FORMATS = st.sampled_from(["mjai", "tenhou6", "mjlog", "x"])


def _options(files: Files) -> dict[str, dict[str, Any]]:
    """The options of each subcommand drawn from (a flag without a value: ``None``)."""
    records = {"--jobs": st.sampled_from(["1", "0", "-3", "x", "2"]), "--max-size": SIZES, "--rules": IDS}
    defects = st.sampled_from([files["defects.tsv"], files["missing.tsv"]])
    return {
        "score": {
            **dict.fromkeys(["--json", "--riichi", "--double-riichi", "--tenhou"]),
            **dict.fromkeys(["--winner", "--from", "--dealer", "--honba", "--players"], NUMBERS),
            "--seat-wind": st.sampled_from("ESWNX"),
            "--dora": HANDS,
            "--rules": IDS,
            "--set": st.sampled_from(["kiriage=true", "x=1", "=", "kiriage"]),
            "--max-size": SIZES,
        },
        "settle": {"--json": None, "--max-size": SIZES},
        "svg": {"-o": outputs(files), "--winner": NUMBERS, "--height": NUMBERS, "--zoom": NUMBERS},
        "replay": {"--json": None, "--lenient": None, "--rules": IDS, "--set": st.just("kiriage=true")},
        "verify": {**records, "--json": None, "--verbose": None, "--expect-defects": defects},
        "export": records,
        "convert": {"-o": outputs(files), "--per-kyoku": None, "--from": FORMATS, "--max-size": SIZES},
        "rules": {"--json": None},
        "completion": {},
    }


@st.composite
def command_lines(draw: st.DrawFn, files: Files) -> tuple[list[str], bytes, bool]:
    """A command line of any subcommand but serve, the bytes of its standard input, and whether
    it is a batch (JSON Lines of requests, or records), which may report an error per item."""
    requests = ("req.json", "settle.json", "batch.jsonl", "latin1.json", "empty.json", "hand.xml")
    records = ("hand.xml", "bad.xml", "notes.txt", "req.json", "empty.json")
    command = draw(st.sampled_from(sorted(_options(files))))
    options = _options(files)[command]
    if command == "score":
        argv = ["score", draw(st.one_of(HANDS, paths(files, requests)))]
    elif command == "settle":
        argv = ["settle", draw(paths(files, requests))]
    elif command == "svg":
        argv = ["svg", draw(HANDS)]
    elif command in ("replay", "verify", "export"):
        argv = [command, draw(paths(files, records))]
    elif command == "convert":
        argv = ["convert", draw(paths(files, records)), "--to", draw(FORMATS)]
    elif command == "rules":
        sub = draw(st.sampled_from(["list", "show", "sources", "diff", "nope"]))
        argv = ["rules", sub, *draw(st.lists(IDS, max_size=2 if sub == "diff" else 1))]
    else:
        argv = ["completion", draw(st.sampled_from(["bash", "zsh", "fish", "powershell"]))]
    if command in ("verify", "export"):
        argv.append("--quiet")
    if command == "export":
        argv += ["--out", draw(outputs(files))]
    argv += _flags(draw, options)
    stray = draw(st.integers(0, 9)) == 0
    if stray:  # now and then a stray argument (for verify and export, one more record to read)
        argv.insert(draw(st.integers(1, len(argv))), draw(JUNK))
    stdin = draw(st.sampled_from([HAND, json.dumps(REQUEST).encode(), b"\xff\xfe", b"", b"{}\n" * 3]))
    batch = (
        any(a.endswith("batch.jsonl") for a in argv)
        or ("-" in argv and stdin.count(b"\n") > 1)
        or (command in ("verify", "export") and (stray or os.path.isdir(argv[1])))  # files, or a folder
    )
    return argv, stdin, batch


# -- the property --------------------------------------------------------------------------------------


def run_in_process(argv: list[str], stdin: bytes) -> tuple[int, bytes, str]:
    """``tenbou ARGV`` with these bytes on standard input: (exit status, stdout bytes, stderr)."""
    streams = (sys.stdin, sys.stdout, sys.stderr)
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
    sys.stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True)
    sys.stderr = io.TextIOWrapper(
        io.BytesIO(), encoding="utf-8", errors="backslashreplace", write_through=True
    )
    out, err = sys.stdout, sys.stderr
    try:
        try:
            code = main(argv)
        except SystemExit as e:  # argparse: --help, a usage error
            code = e.code if isinstance(e.code, int) else 0 if e.code is None else 2
        out.flush()
        return code, out.buffer.getvalue(), err.buffer.getvalue().decode("utf-8")  # type: ignore[attr-defined]
    finally:
        sys.stdin, sys.stdout, sys.stderr = streams


def check(argv: list[str], stdin: bytes, batch: bool) -> None:
    code, out, err = run_in_process(argv, stdin)
    assert "Traceback" not in err, (argv, err)
    assert code in (0, 1, 2), (argv, code, err)
    text = out.decode("utf-8")  # standard output is UTF-8, whatever the names and inputs
    errors = [line for line in err.splitlines() if line.startswith("tenbou: error")]
    assert all(ERROR.match(line) for line in errors), (argv, err)
    if "--json" in argv:
        lines = [json.loads(line) for line in text.splitlines() if line.strip()]
        errors += [line for line in lines if isinstance(line, dict) and set(line) == {"error"}]
    if code == 2:  # a batch: an error for each bad item; anything else: one
        assert len(errors) == 1 or (batch and errors), (argv, err, text[:500])
    else:
        assert errors == [], (argv, err, text[:500])


@FAST
@given(data=st.data())
def test_a_command_line_never_shows_a_traceback(files: Files, data: st.DataObject) -> None:
    check(*data.draw(command_lines(files)))


@pytest.mark.slow
@SLOW
@given(data=st.data())
def test_a_command_line_never_shows_a_traceback_many(files: Files, data: st.DataObject) -> None:
    check(*data.draw(command_lines(files)))
