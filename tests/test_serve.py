"""``tenbou serve`` refuses, in one line and with exit status 2, what it cannot run: a port out of
range or in use, a database that is a folder, in a missing folder, in a folder that is a file, or
not a database, a password file that cannot be read, an address beyond loopback without a
password, a certificate that cannot be used -- all before anything listens, never a traceback."""

from __future__ import annotations

import socket
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install 'tenbou[web]')")
pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install 'tenbou[web]')")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import uvicorn

from tenbou import cli

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def ran(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """uvicorn's server, replaced: what it would have run (nothing, when serve refused)."""
    seen: dict[str, Any] = {}

    def fake_run(self: uvicorn.Server, sockets: list[socket.socket] | None = None) -> None:
        seen.update(config=self.config, address=sockets[0].getsockname() if sockets else None)

    monkeypatch.setattr(uvicorn.Server, "run", fake_run)
    monkeypatch.delenv("TENBOU_PASSWORD", raising=False)
    return seen


def refused(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert cli.main(["serve", *argv]) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err.count("\n") == 1 and out.err.startswith("tenbou: error: ")
    assert "Traceback" not in out.err
    return out.err


def test_a_port_out_of_range_is_refused(
    ran: dict[str, Any], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for port in ("99999", "-1", "65536"):
        err = refused(capsys, ["--port", port, "--db", str(tmp_path / "g.sqlite3")])
        assert f"--port {port}: a port is a number from 1 to 65535" in err and err.rstrip().endswith(
            "[serve]"
        )
    assert not ran


def test_a_port_in_use_is_refused(
    ran: dict[str, Any], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        err = refused(capsys, ["--port", str(port), "--db", str(tmp_path / "g.sqlite3")])
    assert f"--port {port}: in use on 127.0.0.1" in err and not ran


def test_an_address_not_of_this_machine_is_refused(
    ran: dict[str, Any], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    err = refused(capsys, ["--host", "192.0.2.1", "--port", "0", "--db", str(tmp_path / "g.sqlite3")])
    assert "needs a password" in err  # (asked first: beyond loopback)
    err = refused(
        capsys, ["--host", "no-such-host.invalid", "--port", "0", "--db", str(tmp_path / "g.sqlite3")]
    )
    assert "--host no-such-host.invalid" in err and not ran


def test_bad_databases_are_refused_before_starting(
    ran: dict[str, Any], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    not_a_db = tmp_path / "notes.txt"
    not_a_db.write_text("these are my notes, not a database\n" * 100)
    a_file = tmp_path / "file"
    a_file.write_text("x")
    cases = {
        str(tmp_path): "is a folder",
        str(tmp_path / "typo" / "dir" / "g.sqlite3"): "does not exist (make it first)",
        str(a_file / "g.sqlite3"): "is not a folder",
        str(not_a_db): "cannot be used as the games database",
    }
    for db, words in cases.items():
        err = refused(capsys, ["--port", "0", "--db", db])
        assert f"--db {db}" in err and words in err and err.rstrip().endswith("[database]"), err
    assert not ran
    assert not (tmp_path / "typo").exists()  # no folder made for a typo
    assert not_a_db.read_text().startswith("these are my notes")


def test_password_problems_are_refused(
    ran: dict[str, Any], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = str(tmp_path / "g.sqlite3")
    empty = tmp_path / "empty"
    empty.write_text("\n")
    short = tmp_path / "short"
    short.write_text("abc\n")
    binary = tmp_path / "binary"
    binary.write_bytes(b"\xff\xfe\x00bad")
    assert "needs a password" in refused(capsys, ["--host", "0.0.0.0", "--port", "0", "--db", db])
    assert (
        "no such file"
        in refused(capsys, ["--password-file", str(tmp_path / "nope"), "--port", "0", "--db", db]).lower()
    )
    assert "first line is empty" in refused(
        capsys, ["--password-file", str(empty), "--port", "0", "--db", db]
    )
    assert "at least 8 characters" in refused(
        capsys, ["--password-file", str(short), "--port", "0", "--db", db]
    )
    assert "not UTF-8" in refused(capsys, ["--password-file", str(binary), "--port", "0", "--db", db])
    assert "--max-games 0" in refused(capsys, ["--max-games", "0", "--port", "0", "--db", db])
    assert "--certfile" in refused(capsys, ["--certfile", str(empty), "--port", "0", "--db", db])
    assert not ran


def test_a_password_file_serves_beyond_loopback(
    ran: dict[str, Any], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    secret = tmp_path / "password"
    secret.write_text("a long club password\nignored second line\n")
    db = tmp_path / "club" / "g.sqlite3"
    db.parent.mkdir()
    argv = ["serve", "--host", "0.0.0.0", "--port", "0", "--db", str(db), "--password-file", str(secret)]
    assert cli.main([*argv, "--allow-host", "mahjong.club"]) == 0
    access = ran["config"].app.state.access
    assert access.password == "a long club password" and not access.open and "mahjong.club" in access.hosts
    err = capsys.readouterr().err
    assert "a long club password" not in err and "plain HTTP" in err
    assert db.exists()  # opened (and made) before listening


def test_the_default_database_folder_is_made(
    ran: dict[str, Any], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert cli.main(["serve", "--port", "0"]) == 0
    assert (tmp_path / "data" / "tenbou" / "games.sqlite3").exists()
    assert ran["config"].app.state.access.open


_WORDS = st.sampled_from(
    ["--host", "--port", "--db", "--password-file", "--allow-host", "--max-games", "--certfile", "--keyfile",
     "--log-level", "0", "-1", "99999", "0.0.0.0", "127.0.0.1", "::1", "localhost", "", "x", "\udcff", "info",
     "--bogus", "/nonexistent/g.sqlite3", "."]
)  # fmt: skip


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=st.lists(_WORDS, max_size=6))
def test_generated_serve_arguments_never_show_a_traceback(
    ran: dict[str, Any],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    words: list[str],
) -> None:
    ran.clear()
    monkeypatch.chdir(tmp_path)  # (a generated --db names a file here, not in the checkout)
    try:
        status = cli.main(["serve", "--db", str(tmp_path / "g.sqlite3"), *words])
    except SystemExit as e:  # (argparse's way out of a usage error, with its one line)
        status = e.code
    out = capsys.readouterr()
    assert status in (0, 2) and "Traceback" not in out.err
    if status == 2:
        assert out.err.count("tenbou: error: ") == 1 and out.err.endswith("]\n") and not ran
    else:
        assert ran["address"] is not None
