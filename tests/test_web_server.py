"""``tenbou serve`` for real: uvicorn on a loopback port (a subprocess running
:func:`tenbou.web.app.serve` with short timeouts), driven by raw sockets. Slow clients are cut
off in time, bodies over the limit are refused whether announced or chunked, every answer
carries the error object and the security headers, and the server's memory stays put after a
burst of oversized bodies. (Slow: the timeouts are waited for.)"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install 'tenbou[web]')")
pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install 'tenbou[web]')")

pytestmark = pytest.mark.slow

SRC = Path(__file__).resolve().parents[1] / "src"
BODY_TIMEOUT = 1.5
HEAD_TIMEOUT = 1.5
MAX_BODY = 64 * 1024


PER_CLIENT = 8


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, int]]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    db = tmp_path_factory.mktemp("db") / "games.sqlite3"
    code = (
        "import sys\nfrom tenbou.web.app import serve\n"
        f"serve('127.0.0.1', {port}, log_level='warning', body_timeout={BODY_TIMEOUT}, "
        f"head_timeout={HEAD_TIMEOUT}, per_client={PER_CLIENT}, db_path={str(db)!r})\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen([sys.executable, "-c", code], env=env)
    try:
        end = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > end or proc.poll() is not None:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.1)
        yield port, proc.pid
    finally:
        proc.terminate()
        proc.wait(10)


def exchange(port: int, data: bytes, *, read_for: float = 10.0) -> tuple[bytes, float]:
    """Send ``data``, read until the server closes (or ``read_for`` seconds); the answer and the
    seconds until the close."""
    with socket.create_connection(("127.0.0.1", port), timeout=read_for) as s:
        start = time.monotonic()
        s.sendall(data)
        out = b""
        try:
            while chunk := s.recv(65536):
                out += chunk
        except (TimeoutError, ConnectionResetError):
            pass
        return out, time.monotonic() - start


def parse(answer: bytes) -> tuple[int, dict[str, str], dict[str, object]]:
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:])}
    return int(lines[0].split()[1]), headers, json.loads(body) if body else {}


def assert_refused(answer: bytes, status: int) -> str:
    got, headers, body = parse(answer)
    assert got == status, answer[:300]
    assert (
        headers["x-content-type-options"] == "nosniff"
        and "default-src 'self'" in headers["content-security-policy"]
    )
    error = body["error"]
    assert isinstance(error, dict) and error["code"] == "request"
    return str(error["message"])


def post(body: bytes, extra: str = "") -> bytes:
    head = f"POST /api/score HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n{extra}"
    return head.encode() + b"\r\n" + body


def test_a_slow_body_is_cut_off_with_408(server: tuple[int, int]) -> None:
    # the case: a body that promises much and sends ten bytes
    answer, seconds = exchange(server[0], post(b'{"winner":', f"content-length: {MAX_BODY}\r\n"))
    assert "did not arrive within 1.5 s" in assert_refused(answer, 408)
    assert BODY_TIMEOUT - 0.1 < seconds < BODY_TIMEOUT + 3


def test_a_slow_head_is_cut_off(server: tuple[int, int]) -> None:
    for data in (b"", b"POST /api/score HTTP/1.1\r\nhost: 127.0.0.1\r\n"):
        answer, seconds = exchange(server[0], data)
        assert answer == b"" and HEAD_TIMEOUT - 0.1 < seconds < HEAD_TIMEOUT + 3


def test_a_head_sent_byte_by_byte_is_cut_off(server: tuple[int, int]) -> None:
    with socket.create_connection(("127.0.0.1", server[0]), timeout=10) as s:
        start = time.monotonic()
        closed = None
        for byte in b"GET /api/rules/tenhou HTTP/1.1\r\nhost: 127.0.0.1\r\nx-slow: " + b"a" * 100:
            try:
                s.sendall(bytes([byte]))
                time.sleep(0.2)
            except OSError:
                closed = time.monotonic() - start
                break
            if time.monotonic() - start > HEAD_TIMEOUT + 3:
                break
        if closed is None:  # the write may still succeed once: the read says the server closed
            s.settimeout(2)
            assert s.recv(100) == b""
            closed = time.monotonic() - start
        assert closed < HEAD_TIMEOUT + 3


def test_bodies_over_the_limit_are_refused_announced_or_chunked(server: tuple[int, int]) -> None:
    answer, _ = exchange(server[0], post(b"{", "content-length: 1000000\r\n"), read_for=5)
    assert assert_refused(answer, 413) == f"the request body is larger than {MAX_BODY} bytes"
    piece = b"%x\r\n%s\r\n" % (8192, b" " * 8192)
    answer, _ = exchange(server[0], post(piece * 20 + b"0\r\n\r\n", "transfer-encoding: chunked\r\n"))
    assert_refused(answer, 413)


def test_a_key_twice_and_errors_have_the_error_object(server: tuple[int, int]) -> None:
    body = b'{"winner": 1, "winner": 2}'
    answer, _ = exchange(server[0], post(body, f"content-length: {len(body)}\r\nconnection: close\r\n"))
    assert "given twice" in assert_refused(answer, 422)
    answer, _ = exchange(server[0], b"GET /nothing HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n")
    status, headers, error = parse(answer)
    assert status == 404 and headers["x-content-type-options"] == "nosniff" and "error" in error


def test_a_request_that_is_not_http_is_400_with_the_error_object(server: tuple[int, int]) -> None:
    for data in (
        b"NOT HTTP AT ALL\r\n\r\n",
        b"GET / HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: x\r\n\r\n",
    ):
        answer, _ = exchange(server[0], data)
        assert "not an HTTP/1.1 request" in assert_refused(answer, 400)


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the RSS from /proc")
def test_memory_stays_put_after_oversized_bodies(server: tuple[int, int]) -> None:
    port, pid = server
    ok = json.dumps({"winner": 1, "from": 2, "hand": "123m456p789s23s55s", "win_tile": "4s"}).encode()
    for _ in range(50):  # warm up
        exchange(port, post(ok, f"content-length: {len(ok)}\r\nconnection: close\r\n"))
    before = _rss_kib(pid)
    blob = b" " * (4 * 1024 * 1024)
    for i in range(20):
        extra = "transfer-encoding: chunked\r\n" if i % 2 else f"content-length: {len(blob)}\r\n"
        data = b"%x\r\n%s\r\n0\r\n\r\n" % (len(blob), blob) if i % 2 else blob
        # (OSError: the server answered and closed while this was still sending)
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s, contextlib.suppress(OSError):
            s.sendall(post(data, extra))
    after = _rss_kib(pid)
    assert after - before < 16 * 1024, (before, after)  # 80 MiB were sent; under 16 MiB more held


def test_one_client_cannot_take_every_connection(server: tuple[int, int]) -> None:
    port = server[0]
    held = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(PER_CLIENT)]
    try:
        # the next connection of the same client is answered 503 and closed at once
        answer, took = exchange(port, b"")
        status, headers, error = parse(answer)
        assert status == 503 and took < 2 and "holds 8 connections" in str(error)
        assert headers["x-content-type-options"] == "nosniff"
        # another client (another loopback address) is served meanwhile
        with socket.create_connection(
            ("127.0.0.1", port), timeout=5, source_address=("127.0.0.2", 0)
        ) as other:
            other.sendall(b"GET /api/rules/tenhou HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n")
            got = b""
            while chunk := other.recv(65536):
                got += chunk
        assert parse(got)[0] == 200
    finally:
        for s in held:
            s.close()
    # the connections closed, the client is served again
    time.sleep(0.2)
    answer, _ = exchange(
        port, b"GET /api/rules/tenhou HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n"
    )
    assert parse(answer)[0] == 200


def test_a_foreign_host_is_refused(server: tuple[int, int]) -> None:
    answer, _ = exchange(
        server[0], b"GET /api/games HTTP/1.1\r\nhost: attacker.example\r\nconnection: close\r\n\r\n"
    )
    status, headers, error = parse(answer)
    assert status == 400 and error["error"]["code"] == "host" and headers["referrer-policy"] == "no-referrer"  # type: ignore[index]
