"""The command line never shows a traceback: every failure is one ``tenbou: error: ... [code]``
line and exit status 2 (1 is verify's "mismatch"), an output that cannot be written is found
before the work starts and never left half-written, and every input is bounded by ``--max-size``."""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tenbou.cli import build_parser, main

from .test_io_tenhou import HAND

#: the one line of a failure: the message (the request of a batch it is about), then its code
ERROR = re.compile(r"^tenbou: error( \(request \d+\))?: .+ \[[a-z_]+\]$")


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``tenbou ARGV`` in this process: (exit status, stdout, stderr)."""
    try:
        code = main(argv)
    except SystemExit as e:  # argparse: --help, a usage error
        code = int(e.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def one_error(err: str) -> str:
    """The failure's one line (asserted: exactly one, in the format of every error, no traceback)."""
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.startswith("tenbou: error")]
    assert len(lines) == 1, err
    assert ERROR.match(lines[0]), lines[0]
    return lines[0]


@pytest.fixture
def record(tmp_path: Path) -> Path:
    """A one-hand Tenhou mjlog record that verifies (exit status 0)."""
    path = tmp_path / "hand.xml"
    path.write_bytes(HAND)
    return path


# -- --max-size ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["verify", "export", "convert"])
@pytest.mark.parametrize(
    ("size", "why"),
    [
        ("99999999999999999999G", "more than 1024G"),
        ("1" * 5000, "more than 1024G"),  # past what int() reads from text
        ("2049G", "more than 1024G"),
        ("²", "a positive number of bytes"),  # a digit to str.isdigit, not to int()
        ("0", "a positive number of bytes"),
        ("-1M", "a positive number of bytes"),
    ],
)
def test_a_bad_max_size_is_one_error(
    command: str, size: str, why: str, record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    extra = {"verify": ["--quiet"], "export": ["--out", str(tmp_path / "x.csv")], "convert": ["--to", "mjai"]}
    code, _, err = run([command, str(record), f"--max-size={size}", *extra[command]], capsys)
    assert code == 2 and why in one_error(err) and "[log_format]" in err
    assert not (tmp_path / "x.csv").exists()


def test_the_largest_max_size_reads_a_small_record(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """1024G is a limit, not an allocation: a small record under it verifies."""
    assert run(["verify", str(record), "--max-size", "1024G", "--quiet"], capsys)[0] == 0
    code, out, err = run(["convert", str(record), "--to", "mjai", "--max-size", "0001024G"], capsys)
    assert code == 0 and '"type":"start_game"' in out.replace(" ", "") and err == ""


def test_convert_bounds_standard_input(
    record: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(record.read_bytes())))
    code, _, err = run(["convert", "-", "--to", "mjai", "--max-size", "100"], capsys)
    assert code == 2 and "-: the record holds more than 100 bytes (the limit" in one_error(err)


# -- output files ---------------------------------------------------------------------------------------


def _outputs(tmp_path: Path) -> dict[str, str]:
    """Outputs that cannot be written, by why: a missing folder, a folder, a file as a folder."""
    (tmp_path / "folder.svg").mkdir()
    (tmp_path / "file").write_text("")
    return {
        "no such folder": str(tmp_path / "missing" / "x.svg"),
        "it is a folder": str(tmp_path / "folder.svg"),
        "is not a folder": str(tmp_path / "file" / "x.svg"),
    }


@pytest.mark.parametrize("why", ["no such folder", "it is a folder", "is not a folder"])
@pytest.mark.parametrize("command", ["svg", "svg-png", "convert", "export"])
def test_an_output_that_cannot_be_written_is_refused_before_the_work(
    command: str,
    why: str,
    record: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import tenbou.io.read
    import tenbou.render.svg
    import tenbou.verify

    def no_work(*args: object, **kwargs: object) -> None:
        raise AssertionError("the work started before the output was checked")

    for module, name in ((tenbou.render.svg, "tiles_svg"), (tenbou.io.read, "parse_records")):
        monkeypatch.setattr(module, name, no_work)
    for name in ("verify_paths", "export_rows"):  # where the CLI looks them up
        monkeypatch.setattr(tenbou.verify, name, no_work)
    out = _outputs(tmp_path)[why]
    suffix = {"svg": ".svg", "svg-png": ".png", "convert": ".jsonl", "export": ".csv"}[command]
    out = out.removesuffix(".svg") + suffix
    if why == "it is a folder":
        Path(out).mkdir(exist_ok=True)
    argv = {
        "svg": ["svg", "123m", "-o", out],
        "svg-png": ["svg", "123m", "-o", out],
        "convert": ["convert", str(record), "--to", "mjai", "-o", out],
        "export": ["export", str(record), "--out", out, "--quiet"],
    }[command]
    code, stdout, err = run(argv, capsys)
    flag = "--out" if command == "export" else "-o"
    line = one_error(err)
    assert code == 2 and stdout == ""
    assert line.startswith(f"tenbou: error: {flag} {out}: cannot be written: ") and why in line
    assert line.endswith("[output]")


def test_a_full_device_is_one_error(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    code, out, err = run(["convert", str(record), "--to", "mjai", "-o", "/dev/full"], capsys)
    assert code == 2 and out == ""
    full = "No space left on device"
    assert one_error(err) == f"tenbou: error: -o /dev/full: cannot be written: {full} [output]"


def test_a_failed_write_leaves_the_old_file(
    record: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A disk that fills up half-way through the export: the old file is left as it was, and no
    temporary file is left behind."""
    import errno

    import tenbou.verify

    out = tmp_path / "hands.csv"
    out.write_text("the old export\n")
    written = tenbou.verify.write_rows

    def fills_up(rows: object, path: str) -> None:
        written(rows, path)  # type: ignore[arg-type]
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(tenbou.verify, "write_rows", fills_up)  # where the CLI looks it up
    code, _, err = run(["export", str(record), "--out", str(out), "--quiet"], capsys)
    assert code == 2
    full = "No space left on device"
    assert one_error(err) == f"tenbou: error: --out {out}: cannot be written: {full} [output]"
    assert out.read_text() == "the old export\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hand.xml", "hands.csv"]


def test_an_interrupted_write_leaves_nothing(tmp_path: Path) -> None:
    from tenbou.io.files import OutputFile

    def interrupted(path: str) -> None:
        Path(path).write_text("half")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        OutputFile(str(tmp_path / "x.svg"), "-o").write_with(interrupted)
    assert list(tmp_path.iterdir()) == []


def test_an_output_replaces_a_file_whole_keeping_its_permissions(tmp_path: Path) -> None:
    """Written through a symbolic link, with the permissions of the file it replaces."""
    from tenbou.io.files import OutputFile

    real = tmp_path / "real.svg"
    real.write_text("old")
    real.chmod(0o640)
    (tmp_path / "link.svg").symlink_to(real)
    OutputFile(str(tmp_path / "link.svg"), "-o").write_bytes(b"new")
    assert real.read_text() == "new" and (tmp_path / "link.svg").is_symlink()
    assert real.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.svg", "real.svg"]


def test_outputs_that_work(record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A new file, a file replaced, a device written in place, standard output."""
    out = tmp_path / "game.jsonl"
    assert run(["convert", str(record), "--to", "mjai", "-o", str(out)], capsys)[0] == 0
    first = out.read_bytes()
    assert run(["convert", str(record), "--to", "mjai", "-o", str(out)], capsys)[0] == 0
    assert out.read_bytes() == first and first.startswith(b'{"type":"start_game"')
    assert run(["convert", str(record), "--to", "mjai", "-o", "/dev/null"], capsys)[:2] == (0, "")
    code, stdout, _ = run(["convert", str(record), "--to", "mjai", "-o", "-"], capsys)
    assert code == 0 and stdout.encode() == first
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl", "hand.xml"]


# -- standard output ---------------------------------------------------------------------------------


def _tenbou(*argv: str, stdout: Any = None, **kw: Any) -> subprocess.CompletedProcess[bytes]:
    """``python -m tenbou ARGV`` in a process of its own (its standard output as given)."""
    return subprocess.run(
        [sys.executable, "-m", "tenbou", *argv], stdout=stdout, stderr=subprocess.PIPE, check=False, **kw
    )


FULL = "tenbou: error: the standard output cannot be written (No space left on device) [output]"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
@pytest.mark.parametrize(
    "argv",
    [
        ["verify", "--json", "--quiet", "RECORD"],
        ["verify", "--quiet", "RECORD"],
        ["convert", "RECORD", "--to", "mjai"],
        ["score", "--json", "123m456p789s23s55s +4s"],
        ["rules", "list"],
        ["rules", "show", "tenhou"],  # more than a pipe's buffer: fails in the middle of the command
        ["--help"],
    ],
)
def test_a_full_standard_output_is_one_error(argv: list[str], record: Path) -> None:
    """Not a traceback, not Python's exit status 120 of a failed last flush."""
    argv = [str(record) if a == "RECORD" else a for a in argv]
    with open("/dev/full", "wb") as full:
        proc = _tenbou(*argv, stdout=full)
    assert proc.returncode == 2
    assert one_error(proc.stderr.decode()) == FULL


def test_a_closed_standard_output_is_one_error() -> None:
    """``tenbou rules list >&-``: Python starts with no ``sys.stdout`` at all."""
    proc = subprocess.run(
        ["sh", "-c", 'exec "$0" -m tenbou rules list >&-', sys.executable],
        stderr=subprocess.PIPE,
        check=False,
    )
    assert proc.returncode == 2
    assert one_error(proc.stderr.decode()) == (
        "tenbou: error: the standard output cannot be written (it is closed) [output]"
    )


def test_a_reader_that_goes_away_stops_the_command_quietly(tmp_path: Path) -> None:
    """``tenbou score --json many.jsonl | head -1``: the first result is read, then the pipe
    closes; tenbou stops at its next write, says nothing, and exits with 141 (SIGPIPE's)."""
    request = json.dumps({"winner": 0, "hand": "123m456p789s23s55s", "win_tile": "4s"})
    batch = tmp_path / "many.jsonl"
    batch.write_text((request + "\n") * 2000)  # about 2 MB of results: more than a pipe holds
    proc = subprocess.Popen(
        [sys.executable, "-m", "tenbou", "score", "--json", str(batch)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait() == 141 and err == b""
    assert json.loads(first)["deltas"] == [2100, -700, -700, -700]


def test_a_full_standard_output_in_this_process(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The guard works on whatever ``sys.stdout`` is (here a stream that fills up after 100
    bytes), and leaves it in place afterwards."""
    import errno
    import io

    class Full(io.BytesIO):
        def write(self, data: Any) -> int:
            if self.tell() + len(data) > 100:
                raise OSError(errno.ENOSPC, "No space left on device")
            return super().write(data)

    stream = io.TextIOWrapper(Full(), write_through=True)
    monkeypatch.setattr("sys.stdout", stream)
    assert main(["rules", "show", "tenhou"]) == 2
    assert sys.stdout is stream
    assert one_error(capsys.readouterr().err) == FULL
    monkeypatch.setattr("sys.stdout", io.TextIOWrapper(io.BytesIO()))
    assert main(["rules", "list"]) == 0 and b"tenhou" in sys.stdout.buffer.getvalue()  # type: ignore[attr-defined]


def test_text_the_output_cannot_encode_is_escaped(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the output's encoding cannot hold never stops the output: in UTF-8 a lone surrogate
    (how Python holds a file name's bytes that are not UTF-8) is written as a JSON escape, and
    JSON Lines stay JSON; in ASCII people's text is written with backslash escapes."""
    import io

    from tenbou.io.files import standard_output

    utf8 = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    monkeypatch.setattr("sys.stdout", utf8)
    with standard_output():
        sys.stdout.write(json.dumps({"source": "g\udcff.xml", "name": "天鳳"}, ensure_ascii=False) + "\n")
    data = utf8.buffer.getvalue()  # type: ignore[attr-defined]
    assert data == '{"source": "g\\udcff.xml", "name": "天鳳"}\n'.encode()
    assert json.loads(data) == {"source": "g\udcff.xml", "name": "天鳳"}
    ascii_ = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    monkeypatch.setattr("sys.stdout", ascii_)
    assert main(["rules", "show", "tenhou"]) == 0
    assert b"tenhou: \\u5929\\u9cf3 (Tenhou)" in ascii_.buffer.getvalue()  # type: ignore[attr-defined]


# -- requests: score and settle ------------------------------------------------------------------------

REQUEST = {"winner": 0, "hand": "123m456p789s23s55s", "win_tile": "4s"}


@pytest.mark.parametrize("command", ["score", "settle"])
def test_a_request_file_that_is_not_utf8_is_one_error(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A pretty-printed request with a byte that is not UTF-8 in it: one error naming the file
    and the byte, not a traceback."""
    f = tmp_path / "req.json"
    f.write_bytes(b'{\n  "winner": 0,\n  "hand": "\xff123m456p789s23s55s",\n  "win_tile": "4s"\n}\n')
    code, out, err = run([command, str(f)], capsys)
    assert code == 2 and out == ""
    assert one_error(err) == (
        f"tenbou: error (request 1): {f}: the request is not UTF-8: b'\\xff123' at byte 28 [request]"
    )
    code, out, err = run([command, "--json", str(f)], capsys)
    assert code == 2 and err == ""
    assert json.loads(out) == {
        "error": {"code": "request", "message": f"{f}: the request is not UTF-8: b'\\xff123' at byte 28"}
    }


def test_a_line_that_is_not_utf8_is_reported_and_the_batch_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = json.dumps(REQUEST).encode()
    f = tmp_path / "batch.jsonl"
    # a Latin-1 line, then a line with U+2028 inside a string (JSON allows it; a line goes on)
    f.write_bytes(
        good + b'\n{"winner": 0, "hand": "caf\xe9"}\n' + good[:-1] + b', "x": "\xe2\x80\xa8"}\n' + good
    )
    code, out, err = run(["score", "--json", str(f)], capsys)
    lines = [json.loads(x) for x in out.splitlines()]  # every line JSON
    assert code == 2 and err == "" and len(lines) == 4
    assert lines[0]["deltas"] == lines[3]["deltas"] == [2100, -700, -700, -700]
    assert lines[1] == {
        "error": {"code": "request", "message": "line 2: the request is not UTF-8: b'\\xe9\"}' at byte 26"}
    }
    assert lines[2] == {"error": {"code": "request", "message": "unknown field 'x'"}}  # one line, whole


class _Endless(io.RawIOBase):
    """Standard input that never ends: zeros, counting what was read."""

    def __init__(self) -> None:
        self.read_bytes = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        n = len(buffer)
        buffer[:n] = b" " * n
        self.read_bytes += n
        return n


@pytest.mark.parametrize("argv", [["settle", "-"], ["score", "--json", "-"], ["score", "-"]])
def test_standard_input_is_bounded_by_max_size(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``settle -`` on an input that never ends: refused once past --max-size (64M by default),
    having read no more than the limit and a chunk."""
    for size, limit in (("100k", 100 << 10), (None, 64 << 20)):
        endless = _Endless()
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BufferedReader(endless)))
        code, out, err = run(argv + ([f"--max-size={size}"] if size else []), capsys)
        message = f"-: the input holds more than {limit:,} bytes (the limit; see --max-size)"
        assert code == 2
        if "--json" in argv:
            assert json.loads(out) == {"error": {"code": "request", "message": message}} and err == ""
        else:
            assert one_error(err) == f"tenbou: error: {message} [request]"
        assert limit < endless.read_bytes <= limit + (2 << 20)


@pytest.mark.parametrize("command", ["score", "settle"])
def test_requests_take_max_size(command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "req.json"
    f.write_text(json.dumps({"wins": [REQUEST]} if command == "settle" else REQUEST))
    assert run([command, str(f), "--max-size", "1k"], capsys)[0] == 0
    code, _, err = run([command, str(f), "--max-size", "20"], capsys)
    assert code == 2
    assert (
        one_error(err)
        == f"tenbou: error: {f}: the input holds more than 20 bytes (the limit; see --max-size) [request]"
    )
    code, _, err = run([command, str(f), "--max-size", "2049G"], capsys)
    assert code == 2 and "more than 1024G" in one_error(err)
    with pytest.raises(SystemExit):
        main([command, "--help"])
    assert "--max-size SIZE" in capsys.readouterr().out


@pytest.mark.parametrize("command", ["score", "settle"])
def test_a_folder_is_not_a_request_file(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run([command, str(tmp_path)], capsys)
    assert code == 2 and f"tenbou: error: {tmp_path}: a folder, not a request file" in one_error(err)


def test_a_folders_entry_that_cannot_be_looked_at_is_reported(
    record: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``tenbou verify /`` met ``/proc/1/cwd``, which ``Path.is_file`` answers with PermissionError
    (in a chroot, as root): a traceback. Such an entry is now read as a file and refused with its
    reason; the folder's records are verified."""
    folder = record.parent
    locked = folder / "locked"
    locked.mkdir()
    is_file = Path.is_file

    def looked_at(path: Path) -> bool:
        if path.name == "locked":
            raise PermissionError(13, "Permission denied", str(path))
        return is_file(path)

    monkeypatch.setattr(Path, "is_file", looked_at)
    code, out, err = run(["verify", str(folder), "--quiet"], capsys)
    assert code == 2 and "Traceback" not in err
    assert one_error(err) == f"tenbou: error: {locked}: cannot be read (Is a directory) [log_format]"
    assert "matched 1" in out


# -- usage errors ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        ([], "the following arguments are required: command (see tenbou --help)"),
        (["verify"], "the following arguments are required: PATH (see tenbou verify --help)"),
        (
            ["score", "1m", "--honba", "x"],
            "argument --honba: invalid int value: 'x' (see tenbou score --help)",
        ),
        (["rules", "show"], "the following arguments are required: id (see tenbou rules show --help)"),
        (["score", "1m", "--nope"], "unrecognized arguments: --nope (see tenbou score --help)"),
        (["score", "--nope", "1m"], "unrecognized arguments: --nope (see tenbou score --help)"),
        (
            ["rules", "show", "tenhou", "--nope"],
            "unrecognized arguments: --nope (see tenbou rules show --help)",
        ),
        (["rules", "list", "x"], "unrecognized arguments: x (see tenbou rules list --help)"),
        (
            ["score", "1m", "--winner", "a\nb"],
            "argument --winner: invalid int value: 'a\\nb' (see tenbou score --help)",
        ),
        (["svg", "1m", "x\ny"], "unrecognized arguments: x\\ny (see tenbou svg --help)"),
    ],
)
def test_a_usage_error_is_the_commands_usage_and_one_line(
    argv: list[str], line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """argparse's errors in the format of every other error: one line, the command's --help named,
    after the short usage of the (sub)command the error is about -- ``tenbou score``'s for a bad
    option of ``tenbou score``, never the top-level one."""
    with pytest.raises(SystemExit) as stop:
        main(argv)
    err = capsys.readouterr().err
    assert stop.value.code == 2 and "Traceback" not in err
    usage, _, last = err.rstrip("\n").rpartition("\n")
    assert last == f"tenbou: error: {line} [usage]" and one_error(err) == last
    prog = line.rpartition("(see ")[2].removesuffix(" --help)")  # "tenbou score", "tenbou rules show"
    assert usage + "\n" == _parser_of(prog).format_usage()
    assert usage.startswith(f"usage: {prog} [-h]")


def _parser_of(prog: str) -> argparse.ArgumentParser:
    """The parser of a (sub)command of ``tenbou``, by its name: ``tenbou rules show``."""
    parser = build_parser()
    for word in prog.split()[1:]:
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        parser = sub.choices[word]
    return parser


def test_a_refused_record_is_one_error_line_with_its_code(
    record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """verify and export: each file refused is one line in the format of every error, its code
    that of the file's error object in the JSON lines; the other files are still verified."""
    bad = tmp_path / "bad.xml"
    bad.write_bytes(HAND.replace(b'ten="', b'ten="x', 1))
    missing = tmp_path / "missing.xml"
    code, out, err = run(["verify", "--json", "--quiet", str(bad), str(record), str(missing)], capsys)
    lines = [json.loads(x) for x in out.splitlines()]
    errors = [line for line in err.splitlines() if line.startswith("tenbou: error")]
    assert code == 2 and len(errors) == 2 and all(ERROR.match(line) for line in errors)
    assert errors[0] == f"tenbou: error: {lines[0]['error']['message']} [{lines[0]['error']['code']}]"
    assert errors[1] == f"tenbou: error: {missing}: cannot be read (No such file or directory) [log_format]"
    assert lines[-1]["summary"]["hands"] == 1 and lines[-1]["summary"]["errors"] == 2
    code, _, err = run(
        ["export", "--quiet", str(missing), str(record), "--out", str(tmp_path / "x.csv")], capsys
    )
    assert code == 2 and one_error(err) == errors[1]
    assert len((tmp_path / "x.csv").read_text().splitlines()) == 2  # the header and the record's hand


# -- batches of records ---------------------------------------------------------------------------------


def test_a_file_given_twice_is_verified_once(
    record: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``verify F F ./F``, and a folder with a file of it named too: each file once, where it first
    comes, and counted once."""
    monkeypatch.chdir(record.parent)
    code, out, _ = run(
        ["verify", "--json", "--quiet", str(record), str(record), "./hand.xml", "hand.xml"], capsys
    )
    lines = [json.loads(x) for x in out.splitlines()]
    assert code == 0 and len(lines) == 2 and lines[0]["source"] == str(record)
    assert lines[-1]["summary"]["games"] == 1 and lines[-1]["summary"]["hands"] == 1
    (record.parent / "notes.txt").write_text("not a record")
    code, out, err = run(["verify", "--json", "--quiet", ".", "notes.txt", str(record)], capsys)
    lines = [json.loads(x) for x in out.splitlines()]
    # the folder's files in order, each once; notes.txt named on the line: an error, not a skip
    assert [line["source"] for line in lines[:-1]] == ["hand.xml", "notes.txt"]
    assert code == 2 and lines[1]["error"]["code"] == "log_format" and lines[-1]["summary"]["hands"] == 1
    assert one_error(err).startswith("tenbou: error: notes.txt: not a game record")


@pytest.mark.parametrize("jobs", ["0", "-3", "x", "1.5"])
def test_jobs_below_one_is_refused(jobs: str, record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for command in (["verify", "--quiet"], ["export", "--out", str(record.parent / "x.csv")]):
        with pytest.raises(SystemExit) as stop:
            main([*command, str(record), f"--jobs={jobs}"])
        line = one_error(capsys.readouterr().err)
        assert stop.value.code == 2 and line.startswith("tenbou: error: argument --jobs: N is ")
    from tenbou.errors import TenbouError
    from tenbou.verify.run import verify_paths

    with pytest.raises(TenbouError, match="--jobs 0: the number of processes is 1 or more"):
        next(verify_paths([str(record)], jobs=0))


class _Pool:
    """A stand-in for ProcessPoolExecutor, of threads, that records the workers asked for."""

    started: list[int] = []  # noqa: RUF012 - a record shared by the test and the stand-in

    def __new__(cls, max_workers: int) -> Any:
        from concurrent.futures import ThreadPoolExecutor

        cls.started.append(max_workers)
        return ThreadPoolExecutor(max_workers=max_workers)


@pytest.mark.parametrize(
    ("jobs", "files", "cores", "workers"),
    [(300, 2, 8, 2), (300, 5, 2, 2), (3, 5, 8, 3), (4, 1, 8, None), (300, 3, 1, None), (2, 0, 8, None)],
)
def test_jobs_start_no_more_processes_than_files_or_cores(
    jobs: int, files: int, cores: int, workers: int | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--jobs 300`` with 2 files starts 2 processes; with one process' worth (one file, one
    core) none: the files are read in this process. The lines are the same either way."""
    import concurrent.futures

    import tenbou.verify.run

    for i in range(files):
        (tmp_path / f"{i}.xml").write_bytes(HAND)
    _Pool.started = []
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", _Pool)
    monkeypatch.setattr(tenbou.verify.run, "local_cores", lambda: cores)
    results = list(tenbou.verify.run.verify_paths([str(tmp_path)], jobs=jobs))
    assert _Pool.started == ([] if workers is None else [workers])
    assert [r["lines"][0]["source"] for r in results] == [str(tmp_path / f"{i}.xml") for i in range(files)]
    assert all(r["error"] is None for r in results)


def test_a_run_stopped_early_runs_no_more_chunks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reader stops after the first file (an output lost, an interruption): the chunks not
    begun are cancelled, not all run before the pool shuts down."""
    import concurrent.futures
    import time

    import tenbou.verify.run

    for i in range(40):
        (tmp_path / f"{i:02}.xml").write_bytes(HAND)
    ran: list[int] = []
    chunk = tenbou.verify.run._verify_chunk

    def slow(items: Any, *args: Any) -> Any:
        ran.append(len(items))
        time.sleep(0.05)
        return chunk(items, *args)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", _Pool)
    monkeypatch.setattr(tenbou.verify.run, "local_cores", lambda: 2)
    monkeypatch.setattr(tenbou.verify.run, "_verify_chunk", slow)
    results = tenbou.verify.run.verify_paths([str(tmp_path)], jobs=2)
    next(results)
    results.close()
    assert 1 <= len(ran) <= 6 and sum(ran) < 40  # 20 chunks of 2 files; a few begun, the rest cancelled


# -- names and lines that are not UTF-8 ---------------------------------------------------------------


def _named(folder: Path, raw: bytes, data: bytes) -> str:
    """A file whose name holds bytes that are not UTF-8, as Python names it (surrogate escapes)."""
    path = os.fsdecode(os.fsencode(folder) + b"/" + raw)
    with open(path, "wb") as f:
        f.write(data)
    return path


def test_a_record_named_in_bytes_that_are_not_utf8_is_reported_and_the_batch_goes_on(
    record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """In a folder or on the command line: one error naming it with backslash escapes, the other
    records verified, the JSON lines still UTF-8 JSON; a file of the folder that is not a record
    is skipped as any other is, however it is named."""
    bad = _named(tmp_path, b"g\xff.xml", HAND)
    _named(tmp_path, b"n\xfe.txt", b"not a record")
    why = "the file name is not UTF-8 (a record is named by its path: rename it)"
    for argv in ([str(tmp_path)], [bad, str(record)]):
        code, out, err = run(["verify", "--json", "--quiet", *argv], capsys)
        lines = [json.loads(x) for x in out.encode("utf-8").splitlines()]  # UTF-8 throughout
        by_source = {line.get("source"): line for line in lines}
        assert code == 2 and one_error(err) == f"tenbou: error: {tmp_path}/g\\xff.xml: {why} [log_format]"
        assert by_source[f"{tmp_path}/g\\xff.xml"]["error"]["code"] == "log_format"
        assert by_source[str(record)]["match"] is True and lines[-1]["summary"]["hands"] == 1
        if argv == [str(tmp_path)]:
            assert by_source[f"{tmp_path}/n\\xfe.txt"]["skipped"].startswith("not a record: ")
    out_csv = tmp_path / "x.csv"
    code, _, err = run(["export", "--quiet", str(tmp_path), "--out", str(out_csv)], capsys)
    assert code == 2 and one_error(err) == f"tenbou: error: {tmp_path}/g\\xff.xml: {why} [log_format]"
    rows = out_csv.read_text(encoding="utf-8").splitlines()
    assert len(rows) == 2 and rows[1].startswith(f"{record},0,0,")


def test_a_defects_list_that_is_not_utf8_is_one_error(
    record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listed = tmp_path / "defects.tsv"
    listed.write_bytes(b"hand.xml\t0\tyaku\tcaf\xe9\n")
    code, out, err = run(["verify", str(record), "--quiet", "--expect-defects", str(listed)], capsys)
    assert code == 2 and out == ""
    assert one_error(err) == (
        f"tenbou: error: --expect-defects {listed}: not UTF-8 text (invalid continuation byte at byte 19) "
        "[request]"
    )


def test_an_error_stays_on_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file named with a newline, a carriage return or an escape sequence: its error is still
    one line, the controls written as escapes (a tab is left as it is)."""
    name = str(tmp_path / "a\nb\r\x1b[31m\tc\u2028.json")
    code, _, err = run(["settle", name], capsys)
    shown = (
        name.replace("\n", "\\n").replace("\r", "\\r").replace("\x1b", "\\x1b").replace("\u2028", "\\u2028")
    )
    assert code == 2 and len(err.splitlines()) == 1
    assert one_error(err) == (
        f"tenbou: error: {shown}: no such file (settle reads JSON requests; '-' is stdin) [request]"
    )
    code, out, err = run(["settle", "--json", name], capsys)  # JSON escapes them its own way
    assert json.loads(out)["error"]["message"].startswith(name + ": no such file")


@pytest.mark.parametrize(
    ("argv", "flag"),
    [
        (["verify", ""], "PATH"),
        (["export", "", "--out", "x.csv"], "PATH"),
        (["settle", ""], "FILE"),
        (["replay", ""], "FILE"),
        (["convert", "", "--to", "mjai"], "FILE"),
        (["convert", "-", "--to", "mjai", "-o", ""], "-o/--output"),
        (["svg", "1m", "-o", ""], "-o/--output"),
        (["export", "x.xml", "--out", ""], "--out"),
        (["verify", "x.xml", "--expect-defects", ""], "--expect-defects"),
    ],
)
def test_an_empty_file_name_is_refused(
    argv: list[str],
    flag: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``tenbou verify "$DIR"`` with DIR unset: not the current folder (``Path("")`` is ``.``),
    nor the folder given as -o; a usage error."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "hand.xml").write_bytes(HAND)
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    command = argv[0]
    assert one_error(err) == (
        f"tenbou: error: argument {flag}: an empty name names no file (see tenbou {command} --help) [usage]"
    )


def test_the_library_reads_no_folder_for_an_empty_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tenbou.verify.run import verify_paths

    monkeypatch.chdir(tmp_path)
    (tmp_path / "hand.xml").write_bytes(HAND)
    (result,) = verify_paths([""])  # no file, never the current folder
    assert result["error"] == ": cannot be read (No such file or directory)"


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "-inf", "x", ""])
@pytest.mark.parametrize("flag", ["--height", "--zoom"])
def test_svg_sizes_are_positive_numbers(
    flag: str, value: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not a picture 'nan' pixels wide, nor resvg's crash on a zoom of 0."""
    code, out, err = run(["svg", "1m", "-o", str(tmp_path / "x.png"), f"{flag}={value}"], capsys)
    assert code == 2 and out == ""
    assert one_error(err) == (
        f"tenbou: error: argument {flag}: a number above 0, not {value!r} (see tenbou svg --help) [usage]"
    )


def test_a_png_too_large_to_draw_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--zoom 1000 would ask resvg for 12 GB and abort the process; refused before drawing, and
    the same sizes are fine as SVG, which is only numbers."""
    png = tmp_path / "x.png"
    code, _, err = run(["svg", "1m", "-o", str(png), "--zoom", "1e3"], capsys)
    assert code == 2 and not png.exists()
    assert one_error(err) == (
        "tenbou: error: --height 64 --zoom 1000: a PNG 64,000 pixels high; at most 2048 (height times zoom) "
        "[request]"
    )
    code, out, _ = run(["svg", "1m", "--zoom", "1e3", "--height", "1e4"], capsys)
    assert code == 0 and 'height="10000"' in out
    pytest.importorskip("resvg_py")
    assert run(["svg", "1m", "-o", str(png), "--height", "1024", "--zoom", "2"], capsys)[0] == 0
    assert png.read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize("suffix", [".parquet", ".csv", ".jsonl"])
def test_export_writes_to_a_name_that_is_not_utf8(
    suffix: str, record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An output's name is the user's to choose, whatever its bytes (pyarrow refused such a
    name for parquet, after the work)."""
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
        pytest.importorskip("pandas")
    out = _named(tmp_path, b"h\xff" + suffix.encode(), b"")
    code, _, err = run(["export", str(record), "--out", out, "--quiet"], capsys)
    assert code == 0 and err == ""
    with open(out, "rb") as f:
        data = f.read()
    assert data.startswith(
        b"PAR1" if suffix == ".parquet" else b"source" if suffix == ".csv" else b'{"source"'
    )
    names = {os.fsencode(p.name) for p in tmp_path.iterdir()}
    assert names == {b"h\xff" + suffix.encode(), b"hand.xml"}  # no temporary file left
