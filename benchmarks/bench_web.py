"""Load on the web calculator (``tenbou serve``): throughput, latency and memory, on loopback only.

Usage: ``python benchmarks/bench_web.py [--requests 4000] [--connections 50] [--oversized 40]
[--oversized-mb 4] [--time-limit 120] [--smoke]``

It starts the server in a subprocess on a free loopback port (``tenbou.web.app.serve`` where it
exists, else ``uvicorn.run(create_app())``, so older trees can be measured the same way), then:

1. **warm-up**: a few hundred requests, not timed;
2. **load**: ``--requests`` requests from ``--connections`` concurrent keep-alive clients (asyncio
   and raw sockets, HTTP/1.1), a mix of ``POST /api/score`` (a pinfu ron, the daisangen pao of
   the seeds), ``POST /api/settle`` (a double ron, a draw) and a bad request (422); it prints
   requests/second and the p50/p90/p99/max latency, the status counts (a 5xx fails the run) and
   the server's CPU time per request (from ``/proc``: unlike throughput, it does not depend on
   what else the machine runs; the clients share the machine with the server);
3. **oversized bodies**: ``--oversized`` POSTs of ``--oversized-mb`` MB each (half announced by
   Content-Length, half chunked), whose bytes are really sent; each must be refused (413) and
   the server's resident memory (RSS, from ``/proc``) is printed before, after the burst and
   after a second load run.

Everything is bounded: the request counts, a timeout on every socket operation and
``--time-limit`` on the whole run. ``--smoke`` (a few seconds) is small enough for CI.
Exit status 1 when a request fails, a 5xx is seen or an oversized body is not refused.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_SERVER = """
import sys
host, port, db = sys.argv[1], int(sys.argv[2]), sys.argv[3]
try:
    from tenbou.web.app import serve
except ImportError:
    import uvicorn
    from tenbou.web import create_app
    uvicorn.run(create_app(), host=host, port=port, log_level="warning")
else:
    serve(host, port, log_level="warning", db_path=db)
"""

_DAISANGEN = {
    "rules": "tenhou", "dealer": 0, "winner": 1, "from": 2, "hand": "23m55p", "win_tile": "4m",
    "melds": [{"type": "pon", "tiles": "555z", "from": 2}, {"type": "pon", "tiles": "666z", "from": 0},
              {"type": "pon", "tiles": "777z", "from": 3}],
}  # fmt: skip
_WIN = {k: v for k, v in _DAISANGEN.items() if k not in ("rules", "dealer")}
_PINFU = {"winner": 3, "from": 2, "hand": "123m456p789s23s55s", "win_tile": "4s", "riichi": True}
_MIX: list[tuple[str, dict[str, object], int]] = [
    ("/api/score", {**_PINFU, "rules": "tenhou", "dora_indicators": ["1p"]}, 200),
    ("/api/score", _DAISANGEN, 200),
    (
        "/api/settle",
        {"rules": "tenhou", "dealer": 0, "honba": 1, "riichi_sticks": 1, "wins": [_WIN, _PINFU]},
        200,
    ),
    ("/api/settle", {"rules": "tenhou", "dealer": 0, "draw": {"kind": "exhaustive", "tenpai": [0, 2]}}, 200),
    ("/api/score", {**_PINFU, "hand": "123m456p789s23s58z"}, 422),
]
_TIMEOUT = 10.0


def _request_bytes(path: str, body: bytes) -> bytes:
    head = (
        f"POST {path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


async def _read_response(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], bytes]:
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), _TIMEOUT)
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    body = await asyncio.wait_for(reader.readexactly(length), _TIMEOUT) if length else b""
    return status, headers, body


async def _client(
    port: int, jobs: list[int], payloads: list[bytes], latencies: list[float], statuses: dict[int, int]
) -> None:
    reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), _TIMEOUT)
    try:
        while jobs:
            i = jobs.pop()
            t = time.perf_counter()
            writer.write(payloads[i % len(payloads)])
            await writer.drain()
            status, headers, _ = await _read_response(reader)
            latencies.append(time.perf_counter() - t)
            expected = _MIX[i % len(_MIX)][2]
            key = status if status == expected else -status
            statuses[key] = statuses.get(key, 0) + 1
            if headers.get("connection") == "close":
                writer.close()
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
    finally:
        writer.close()


async def _load(port: int, requests: int, connections: int) -> tuple[float, list[float], dict[int, int]]:
    payloads = [_request_bytes(path, json.dumps(body).encode()) for path, body, _ in _MIX]
    jobs = list(range(requests))
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    t = time.perf_counter()
    await asyncio.gather(*(_client(port, jobs, payloads, latencies, statuses) for _ in range(connections)))
    return time.perf_counter() - t, latencies, statuses


async def _oversized(port: int, megabytes: float, chunked: bool) -> int:
    """Send one oversized body (really sending its bytes until the server stops reading)."""
    size = int(megabytes * 1024 * 1024)
    reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), _TIMEOUT)
    head = "POST /api/score HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n"
    head += "transfer-encoding: chunked\r\n\r\n" if chunked else f"content-length: {size}\r\n\r\n"
    writer.write(head.encode())
    piece = b'{"hand": "' + b"1" * (64 * 1024)
    sent = 0
    reply = asyncio.ensure_future(_read_response(reader))
    try:
        while sent < size and not reply.done():
            chunk = piece[: size - sent]
            writer.write(b"%x\r\n%s\r\n" % (len(chunk), chunk) if chunked else chunk)
            sent += len(chunk)
            await asyncio.wait_for(writer.drain(), _TIMEOUT)
        if chunked and not reply.done():
            writer.write(b"0\r\n\r\n")
    except OSError:
        pass  # the server stopped reading and closed: its answer is read below
    try:
        status = (await asyncio.wait_for(reply, _TIMEOUT))[0]
    except (OSError, asyncio.IncompleteReadError, TimeoutError):
        status = 0
    finally:
        writer.close()
    return status


def _store_games(db: Path, count: int) -> None:
    """``count`` games in a new database, written straight into its tables (the schema is the
    store's own, made by opening it), each with a setup and a summary as the sheet keeps them."""
    import sqlite3

    from tenbou.web import store  # (the schema of the tree measured, old or new)

    setup = json.dumps(
        {"rules": "tenhou", "players": 4, "names": ["Ai", "Bo", "Chen", "Dai"], "title": "club night"}
    )
    summary = json.dumps(
        {"hands": 9, "scores": [31200, 18800, 25000, 25000], "ended": False,
         "next": {"round_wind": "S", "number": 2, "honba": 1}}
    )  # fmt: skip
    rows = (
        (
            f"{i:012x}",
            1,
            f"2026-12-{1 + i % 28:02d}T10:00:00+00:00",
            f"2026-12-{1 + i % 28:02d}T{i % 24:02d}:00:00+00:00",
            setup,
            summary,
        )
        for i in range(count)
    )
    con = sqlite3.connect(db)
    con.executescript(store._SCHEMA)
    with con:
        con.executemany(
            "INSERT INTO games (id, version, created, updated, setup, summary) VALUES (?, ?, ?, ?, ?, ?)",
            rows,
        )
    con.close()


async def _get(port: int, path: str) -> tuple[int, int, float]:
    """One GET on a new connection: status, body size, seconds."""
    t = time.perf_counter()
    reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), _TIMEOUT)
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n".encode())
        await writer.drain()
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 120)
        status = int(head.split()[1])
        length = int(
            next(
                (
                    line.split(b":")[1]
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length")
                ),
                b"0",
            )
        )
        await asyncio.wait_for(reader.readexactly(length), 120)
    finally:
        writer.close()
    return status, length, time.perf_counter() - t


async def _lists(port: int, clients: int, rounds: int) -> tuple[list[float], int, set[int]]:
    """``clients`` clients reading the list of games ``rounds`` times each."""
    latencies: list[float] = []
    statuses: set[int] = set()
    size = 0

    async def one() -> None:
        nonlocal size
        for _ in range(rounds):
            status, size, seconds = await _get(port, "/api/games")
            statuses.add(status)
            latencies.append(seconds)

    await asyncio.gather(*(one() for _ in range(clients)))
    return latencies, size, statuses


async def _list_phase(args: argparse.Namespace, port: int, pid: int) -> bool:
    """The list of ``--games`` stored games under load: its latency and size, the server's memory,
    and the latency of the other requests while ten clients read it."""
    rss0 = _rss_kib(pid)
    lat, size, statuses = await _lists(port, 10, args.list_rounds)
    lat.sort()
    rss1 = _rss_kib(pid)
    print(
        f"  list of {args.games:,} stored games, 10 clients x {args.list_rounds}: answer {size:,} bytes; "
        f"p50 {1000 * _percentile(lat, 0.5):.1f} ms, p99 {1000 * _percentile(lat, 0.99):.1f} ms, "
        f"max {1000 * lat[-1]:.1f} ms; statuses {sorted(statuses)}; server RSS {_mib(rss0)} -> {_mib(rss1)}"
    )
    _, alone, _ = await _load(port, args.requests // 2, args.connections // 2)
    listing = asyncio.ensure_future(_lists(port, 10, args.list_rounds))
    _, during, st = await _load(port, args.requests // 2, args.connections // 2)
    await listing
    a, d = sorted(alone), sorted(during)

    def ms(values: list[float], q: float) -> str:
        return f"{1000 * _percentile(values, q):.1f} ms"

    print(
        f"  other requests alone: p50 {ms(a, 0.5)}, p99 {ms(a, 0.99)}; while the list is read: p50 "
        f"{ms(d, 0.5)}, p99 {ms(d, 0.99)}, max {1000 * d[-1]:.1f} ms "
        f"(p99 ratio {_percentile(d, 0.99) / _percentile(a, 0.99):.2f}x)"
    )
    return statuses <= {200} and all(0 < k < 500 for k in st)


def _mib(k: int | None) -> str:
    return "n/a" if k is None else f"{k / 1024:.1f} MiB"


def _rss_kib(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return None


def _cpu_seconds(pid: int) -> float | None:
    """The server's CPU time so far (user + system): its cost per request does not depend on what
    else the machine is doing, as throughput does."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def _cpu_since(pid: int, start: float | None) -> float | None:
    now = _cpu_seconds(pid)
    return None if now is None or start is None else now - start


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _wait_ready(port: int, proc: subprocess.Popen[bytes], limit: float = 30.0) -> None:
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited with status {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                s.sendall(b"GET /api/rules/tenhou HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n")
                if s.recv(12).startswith(b"HTTP/1.1 200"):
                    return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the server did not start")


def _percentile(sorted_values: list[float], q: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def _report(
    name: str, seconds: float, latencies: list[float], statuses: dict[int, int], cpu: float | None
) -> bool:
    lat = sorted(latencies)
    ms = [1000 * _percentile(lat, q) for q in (0.5, 0.9, 0.99)]
    per = "n/a" if cpu is None else f"{1e6 * cpu / len(lat):,.0f} us"
    print(
        f"  {name}: {len(lat)} requests in {seconds:.2f} s = {len(lat) / seconds:,.0f} req/s; "
        f"latency p50 {ms[0]:.1f} ms, p90 {ms[1]:.1f} ms, p99 {ms[2]:.1f} ms, max {1000 * lat[-1]:.1f} ms, "
        f"mean {1000 * statistics.fmean(lat):.1f} ms; server CPU {per}/request"
    )
    ordered = sorted(statuses.items(), key=lambda kv: abs(kv[0]))
    shown = ", ".join(f"{k}: {v}" if k > 0 else f"{-k} (unexpected): {v}" for k, v in ordered)
    print(f"    statuses {shown}")
    return all(k > 0 and k < 500 for k in statuses)


async def _run(args: argparse.Namespace, port: int, pid: int) -> bool:
    ok = True
    await _load(port, min(300, args.requests), min(10, args.connections))  # warm-up
    rss0 = _rss_kib(pid)
    cpu0 = _cpu_seconds(pid)
    seconds, lat, statuses = await _load(port, args.requests, args.connections)
    ok &= _report(f"load, {args.connections} connections", seconds, lat, statuses, _cpu_since(pid, cpu0))
    refused: dict[int, int] = {}
    t = time.perf_counter()
    for i in range(args.oversized):
        status = await _oversized(port, args.oversized_mb, chunked=bool(i % 2))
        refused[status] = refused.get(status, 0) + 1
    burst = time.perf_counter() - t
    rss1 = _rss_kib(pid)
    print(
        f"  oversized: {args.oversized} bodies of {args.oversized_mb:g} MB (half chunked) in {burst:.2f} s, "
        f"answers {dict(sorted(refused.items()))}"
    )
    ok &= set(refused) <= {413}
    cpu0 = _cpu_seconds(pid)
    seconds, lat, statuses = await _load(port, args.requests, args.connections)
    ok &= _report("load again", seconds, lat, statuses, _cpu_since(pid, cpu0))
    rss2 = _rss_kib(pid)

    print(
        f"  server RSS: after warm-up {_mib(rss0)}, after the oversized bodies {_mib(rss1)}, "
        f"after the second load {_mib(rss2)}"
    )
    if args.games:
        ok &= await _list_phase(args, port, pid)
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=4000)
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--oversized", type=int, default=40, help="oversized bodies in the burst")
    parser.add_argument("--oversized-mb", type=float, default=4.0, help="size of each oversized body")
    parser.add_argument(
        "--games",
        type=int,
        default=100_000,
        help="games stored before the server starts (the list phase; 0: none)",
    )
    parser.add_argument("--list-rounds", type=int, default=5, help="lists read by each of 10 clients")
    parser.add_argument("--time-limit", type=float, default=300.0, help="seconds for the whole run")
    parser.add_argument("--smoke", action="store_true", help="a run of a few seconds (for CI)")
    args = parser.parse_args()
    if args.smoke:
        args.requests, args.connections, args.oversized, args.oversized_mb = 400, 10, 4, 1.0
        args.games, args.list_rounds = 2000, 2
        args.time_limit = min(args.time_limit, 60.0)
    port = _free_port()
    env = dict(os.environ)
    env.setdefault("PYTHONPATH", str(ROOT / "src"))
    folder = tempfile.TemporaryDirectory()
    db = Path(folder.name) / "games.sqlite3"
    if args.games:
        t = time.perf_counter()
        _store_games(db, args.games)
        mib = db.stat().st_size / 2**20
        print(f"stored {args.games:,} games in {time.perf_counter() - t:.1f} s ({mib:.1f} MiB)")
    proc = subprocess.Popen([sys.executable, "-c", _SERVER, "127.0.0.1", str(port), str(db)], env=env)
    try:
        _wait_ready(port, proc)
        print(
            f"python {sys.version.split()[0]}, os.cpu_count()={os.cpu_count()}; server pid {proc.pid} "
            f"on 127.0.0.1:{port} (one uvicorn worker)"
        )
        ok = asyncio.run(asyncio.wait_for(_run(args, port, proc.pid), args.time_limit))
    except TimeoutError:
        print(f"  the run did not finish within {args.time_limit:g} s")
        ok = False
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        folder.cleanup()
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
