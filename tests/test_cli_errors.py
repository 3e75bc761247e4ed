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
