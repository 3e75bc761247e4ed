"""A bot as a process: started as ``COMMAND SEAT``, told one line, answering one line, in time.

Nothing a bot does can hang or crash the referee: every write and read has a deadline (the
pipes are non-blocking and waited on with ``poll``), an answer longer than
:data:`~tenbou.match.protocol.MAX_LINE` is cut off, output nobody asked for is noticed, and the
bot runs in a process group of its own, which is killed whole (its children with it) when it is
stopped. Its standard error goes to a file of the referee's (one per seat and game). POSIX only.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import time
from collections.abc import Sequence
from typing import IO, Final

from .protocol import MAX_LINE, BotError

__all__ = ["BotProcess"]

#: how long a stopped bot has to exit after its standard input closes, before it is killed
_GRACE: Final = 0.5


class BotProcess:
    """One bot process (see the module docstring); :meth:`ask` sends a line and returns the answer
    or raises :class:`~tenbou.match.protocol.BotError` (``timeout``, ``died``, ``too_long``,
    ``not_json`` for bytes that are not UTF-8, ``extra_output``)."""

    def __init__(self, argv: Sequence[str], seat: int, stderr: IO[bytes]) -> None:
        self.argv = [*argv, str(seat)]
        self.stderr = stderr
        self.proc: subprocess.Popen[bytes] | None = None
        self.buffer = bytearray()

    @property
    def running(self) -> bool:
        return self.proc is not None

    def start(self) -> None:
        """Start the bot (a fault if it cannot be: no such program, not executable)."""
        self.buffer = bytearray()
        try:
            self.proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self.stderr,
                start_new_session=True,
                close_fds=True,
            )
        except OSError as e:
            self.proc = None
            raise BotError("died", f"cannot start {self.argv[0]!r}: {e.strerror or e}") from None
        assert self.proc.stdin is not None and self.proc.stdout is not None
        os.set_blocking(self.proc.stdin.fileno(), False)
        os.set_blocking(self.proc.stdout.fileno(), False)

    def ask(self, line: str, timeout: float) -> str:
        """Send ``line`` and return the bot's one-line answer (without its end of line), both
        within ``timeout`` seconds."""
        proc = self.proc
        assert proc is not None and proc.stdin is not None and proc.stdout is not None
        deadline = time.monotonic() + timeout
        self._nothing_unasked(proc.stdout.fileno())
        self._write(proc.stdin.fileno(), line.encode("utf-8") + b"\n", deadline)
        return self._read_line(proc.stdout.fileno(), deadline)

    def stop(self, polite: bool = False) -> int | None:
        """Stop the bot and its process group: ``polite``, its standard input is closed first and
        it has a moment to exit. Returns its exit status where it had one."""
        proc = self.proc
        if proc is None:
            return None
        self.proc = None
        if polite and proc.stdin is not None:
            with contextlib.suppress(OSError):
                proc.stdin.close()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(_GRACE)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(5)
        for pipe in (proc.stdin, proc.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
        return proc.returncode

    def _died(self) -> BotError:
        proc = self.proc
        status = None
        if proc is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                status = proc.wait(_GRACE)
        how = "its output closed" if status is None else f"it exited with status {status}"
        return BotError("died", f"{how} before it answered")

    def _nothing_unasked(self, fd: int) -> None:
        """Output waiting before a question (a second answer, a stray print) is a fault."""
        if not self.buffer and _ready(fd, select.POLLIN, 0.0):
            try:
                chunk = os.read(fd, MAX_LINE)
            except BlockingIOError:
                chunk = None
            if chunk == b"":
                raise self._died()
            if chunk:
                self.buffer += chunk
        if self.buffer:
            shown = bytes(self.buffer[:60]).decode("utf-8", "replace")
            raise BotError("extra_output", f"wrote {shown!r} when nobody had asked (one answer a line)")

    def _write(self, fd: int, data: bytes, deadline: float) -> None:
        view = memoryview(data)
        while view:
            if not _ready(fd, select.POLLOUT, deadline - time.monotonic()):
                raise BotError("timeout", "did not read its input in time")
            try:
                view = view[os.write(fd, view) :]
            except BlockingIOError:
                continue
            except (BrokenPipeError, ConnectionResetError):
                raise self._died() from None

    def _read_line(self, fd: int, deadline: float) -> str:
        while True:
            end = self.buffer.find(b"\n")
            if end >= 0:
                raw = bytes(self.buffer[:end])
                del self.buffer[: end + 1]
                try:
                    return raw.decode("utf-8").rstrip("\r")
                except UnicodeDecodeError as e:
                    raise BotError("not_json", f"the answer is not UTF-8 (byte {e.start})") from None
            if len(self.buffer) >= MAX_LINE:
                raise BotError("too_long", f"no end of line in the first {MAX_LINE:,} bytes of the answer")
            left = deadline - time.monotonic()
            if left <= 0 or not _ready(fd, select.POLLIN, left):
                raise BotError("timeout", "no answer in time")
            try:
                chunk = os.read(fd, MAX_LINE)
            except BlockingIOError:
                continue
            if not chunk:
                raise self._died()
            self.buffer += chunk


def _ready(fd: int, event: int, seconds: float) -> bool:
    """Whether ``fd`` is ready for ``event`` (or closed) within ``seconds``."""
    poller = select.poll()
    poller.register(fd, event)
    while True:
        try:
            return bool(poller.poll(max(0, int(seconds * 1000))))
        except InterruptedError:  # pragma: no cover (Python retries EINTR itself since 3.5)
            continue
