"""A bot as a process: started as ``COMMAND SEAT``, told one line, answering one line, in time.

Nothing a bot does can hang or crash the referee: every write and read has a deadline (the
pipes are non-blocking and waited on with ``poll``), an answer longer than
:data:`~tenbou.match.protocol.MAX_LINE` is cut off, output nobody asked for is noticed, and the
bot runs in a process group of its own, which is killed whole (its children with it) when it is
stopped. Its standard error is read as it comes, while it is waited on, and its end kept
(:data:`MAX_STDERR` bytes, across the restarts of a game): a bot writing without end fills neither
a pipe nor a disk. POSIX only.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import time
from collections.abc import Sequence
from typing import Final

from .protocol import MAX_LINE, BotError

__all__ = ["MAX_STDERR", "BotProcess"]

#: how long a stopped bot has to exit after its standard input closes, before it is killed
_GRACE: Final = 0.5
#: the most of a bot's standard error kept (bytes): the end of it
MAX_STDERR: Final = 1 << 20


class BotProcess:
    """One bot process (see the module docstring); :meth:`ask` sends a line and returns the answer
    or raises :class:`~tenbou.match.protocol.BotError` (``timeout``, ``died``, ``too_long``,
    ``not_json`` for bytes that are not UTF-8, ``extra_output``)."""

    def __init__(self, argv: Sequence[str], seat: int) -> None:
        self.argv = [*argv, str(seat)]
        self.proc: subprocess.Popen[bytes] | None = None
        self.buffer = bytearray()
        #: the end of what the bot wrote on standard error, and how many bytes before it were cut
        self.errors = bytearray()
        self.errors_cut = 0

    def note(self, text: str) -> None:
        """Add a line of the referee's to the bot's standard error (where it was stopped, and why)."""
        self._keep(f"\n--- tenbou match: {text} ---\n".encode())

    def stderr_text(self) -> str:
        """What the bot wrote on standard error (its end, where it wrote more than :data:`MAX_STDERR`)."""
        text = self.errors.decode("utf-8", "replace")
        return (
            f"--- tenbou match: the first {self.errors_cut:,} bytes cut ---\n{text}"
            if self.errors_cut
            else text
        )

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
                stderr=subprocess.PIPE,
                start_new_session=True,
                close_fds=True,
            )
        except OSError as e:
            self.proc = None
            raise BotError("died", f"cannot start {self.argv[0]!r}: {e.strerror or e}") from None
        for pipe in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            assert pipe is not None
            os.set_blocking(pipe.fileno(), False)

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
        self._drain(proc)
        for pipe in (proc.stdin, proc.stdout, proc.stderr):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
        return proc.returncode

    def _wait(self, fd: int, event: int, deadline: float) -> bool:
        """Whether ``fd`` is ready for ``event`` (or closed) before ``deadline`` (a time of
        :func:`time.monotonic`; 0: now), the bot's standard error read meanwhile."""
        proc = self.proc
        err = proc.stderr.fileno() if proc is not None and proc.stderr is not None else -1
        poller = select.poll()
        poller.register(fd, event)
        if err >= 0:
            poller.register(err, select.POLLIN)
        while True:
            left = 0.0 if deadline == 0 else deadline - time.monotonic()
            ready = poller.poll(max(0, int(left * 1000)))
            if any(f == fd for f, _ in ready):
                return True
            if any(f == err for f, _ in ready) and proc is not None:
                if not self._drain(proc):
                    poller.unregister(err)  # (closed)
                    err = -1
                continue
            if left <= 0 or not ready:
                return False

    def _drain(self, proc: subprocess.Popen[bytes]) -> bool:
        """Read what the bot's standard error holds now (a megabyte at most: a bot writing without
        end does not keep the referee here); whether it is still open."""
        if proc.stderr is None or proc.stderr.closed:
            return False
        try:
            for _ in range(16):
                chunk = os.read(proc.stderr.fileno(), 1 << 16)
                if not chunk:
                    return False
                self._keep(chunk)
        except BlockingIOError:
            pass
        except OSError:
            return False
        return True

    def _keep(self, data: bytes) -> None:
        self.errors += data
        over = len(self.errors) - MAX_STDERR
        if over > 0:
            del self.errors[:over]
            self.errors_cut += over

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
        if not self.buffer and self._wait(fd, select.POLLIN, 0.0):
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
            if not self._wait(fd, select.POLLOUT, deadline):
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
            if not self._wait(fd, select.POLLIN, deadline):
                raise BotError("timeout", "no answer in time")
            try:
                chunk = os.read(fd, MAX_LINE)
            except BlockingIOError:
                continue
            if not chunk:
                raise self._died()
            self.buffer += chunk
