"""The command line never shows a traceback: every failure is one ``tenbou: error: ... [code]``
line and exit status 2 (1 is verify's "mismatch"), an output that cannot be written is found
before the work starts and never left half-written, and every input is bounded by ``--max-size``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tenbou.cli import main

from .test_io_tenhou import HAND

#: the one line of a failure: the message, then its code
ERROR = re.compile(r"^tenbou: error: .+ \[[a-z_]+\]$")


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
    import tenbou.io.convert
    import tenbou.records
    import tenbou.svg

    def no_work(*args: object, **kwargs: object) -> None:
        raise AssertionError("the work started before the output was checked")

    for module, name in ((tenbou.svg, "tiles_svg"), (tenbou.io.convert, "parse_records")):
        monkeypatch.setattr(module, name, no_work)
    monkeypatch.setattr(tenbou.records, "verify_paths", no_work)
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

    import tenbou.records

    out = tmp_path / "hands.csv"
    out.write_text("the old export\n")
    written = tenbou.records.write_rows

    def fills_up(rows: object, path: str) -> None:
        written(rows, path)  # type: ignore[arg-type]
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(tenbou.records, "write_rows", fills_up)
    code, _, err = run(["export", str(record), "--out", str(out), "--quiet"], capsys)
    assert code == 2
    full = "No space left on device"
    assert one_error(err) == f"tenbou: error: --out {out}: cannot be written: {full} [output]"
    assert out.read_text() == "the old export\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hand.xml", "hands.csv"]


def test_an_interrupted_write_leaves_nothing(tmp_path: Path) -> None:
    from tenbou.files import OutputFile

    def interrupted(path: str) -> None:
        Path(path).write_text("half")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        OutputFile(str(tmp_path / "x.svg"), "-o").write_with(interrupted)
    assert list(tmp_path.iterdir()) == []


def test_an_output_replaces_a_file_whole_keeping_its_permissions(tmp_path: Path) -> None:
    """Written through a symbolic link, with the permissions of the file it replaces."""
    from tenbou.files import OutputFile

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
