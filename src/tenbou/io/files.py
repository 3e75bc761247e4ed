"""The files a command writes: checked before the work, written whole or not at all.

An :class:`OutputFile` is made before a command does its work (reading thousands of
records, drawing a picture), so that an output it could never write — a missing folder, a
folder named as the file, a file or folder it may not write — is refused first, in one
:class:`~tenbou.errors.TenbouError` (code ``output``) naming the file, rather than after the
work. Written, a regular file is filled under a temporary name in its own folder and renamed
over the destination only when complete: whatever fails on the way (a full disk, an
interruption), the destination is left as it was and the temporary file is removed. A device
or a pipe (``/dev/stdout``, a shell's ``>(...)``) is written in place. :func:`shown_path`
names any file in text that can be written, whatever bytes its name holds.

Standard output is guarded by :func:`standard_output`: whatever a command writes there, a
full disk or a closed pipe surfaces as one :class:`StandardOutputError`, never as an
:class:`OSError` in the middle of the command or at the interpreter's exit, and text that
cannot be encoded (a lone surrogate) is written as backslash escapes rather than failing.

>>> shown_path("hand.xml"), shown_path("g\\udcff.xml")
('hand.xml', 'g\\\\xff.xml')
>>> OutputFile("/nonexistent/x.svg", "-o")
Traceback (most recent call last):
...
tenbou.errors.TenbouError: -o /nonexistent/x.svg: cannot be written: no such folder /nonexistent
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import secrets
import stat
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, BinaryIO

from ..errors import TenbouError

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer

__all__ = ["OutputFile", "StandardOutputError", "shown_path", "standard_output"]


def shown_path(path: str | os.PathLike[str]) -> str:
    """A file name as text that can always be written (a terminal, UTF-8 JSON): the bytes of a
    name that are not UTF-8 (which Python reads as surrogate escapes) as ``\\xNN``."""
    text = os.fspath(path)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        try:
            return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        except UnicodeEncodeError:  # a surrogate no file name holds (text from elsewhere)
            return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


class OutputFile:
    """A file that a command will write, named by ``flag`` and ``path`` in its errors.

    Made before the work: refused (:class:`~tenbou.errors.TenbouError`, code ``output``) when
    the path is a folder, its folder is missing, is not a folder or may not be written, or the
    file exists and may not be written. :meth:`write_with` then writes it whole or not at all.
    """

    def __init__(self, path: str, flag: str) -> None:
        self.path = path
        self.name = f"{flag} {shown_path(path)}"
        #: the file written: a symbolic link is written through; a device or a pipe (which
        #: cannot be renamed over) is written in place, by the name given (/dev/stdout)
        self.target = path
        self.in_place = False
        #: the permissions of the file replaced, which the new one keeps
        self._mode: int | None = None
        try:
            info: os.stat_result | None = os.stat(path)
        except (FileNotFoundError, NotADirectoryError):
            info = None
        except OSError as e:
            raise self.error(e.strerror or str(e)) from None
        if info is not None and stat.S_ISDIR(info.st_mode):
            raise self.error("it is a folder (name a file in it)")
        if info is not None and not stat.S_ISREG(info.st_mode):
            self.in_place = True
        else:
            self.target = os.path.realpath(path)
            self._check_folder()
            self._mode = None if info is None else stat.S_IMODE(info.st_mode)
        if info is not None and not os.access(self.target, os.W_OK):
            raise self.error("the file may not be written")

    def _check_folder(self) -> None:
        """The folder the file goes in exists, is a folder, and may be written."""
        folder = os.path.dirname(self.target)
        named = shown_path(os.path.dirname(self.path) or ".")  # as the user wrote it
        if not os.path.isdir(folder):
            raise self.error(
                f"no such folder {named}" if not os.path.exists(folder) else f"{named} is not a folder"
            )
        if not os.access(folder, os.W_OK | os.X_OK):
            raise self.error(f"the folder {named} may not be written")

    def error(self, why: str) -> TenbouError:
        """The error of this output: ``FLAG PATH: cannot be written: WHY``."""
        return TenbouError(f"{self.name}: cannot be written: {why}", "output")

    def write_with(self, fill: Callable[[str], object]) -> None:
        """Write the file: ``fill(path)`` writes the whole output to ``path`` (a temporary file
        beside the destination, or the device itself), which is then renamed over the
        destination. On any failure the destination is left as it was, the temporary file is
        removed, and an :class:`OSError` or :class:`UnicodeError` becomes this output's error."""
        if self.in_place:
            try:
                fill(self.target)
            except (OSError, UnicodeError) as e:
                raise self._failed(e) from None
            return
        folder, base = os.path.split(self.target)
        suffix = os.path.splitext(self.path)[1]  # kept: a writer may choose its format by it
        temporary = os.path.join(folder, f".{base}.tenbou-{secrets.token_hex(4)}{suffix}")
        try:
            # created as open() creates a file (0666 less the umask), and never over another
            os.close(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
            fill(temporary)
            if self._mode is not None:  # the file replaced keeps its permissions
                os.chmod(temporary, self._mode)
            os.replace(temporary, self.target)
        except (OSError, UnicodeError) as e:
            _remove(temporary)
            raise self._failed(e) from None
        except BaseException:  # an error of the writer, an interruption: nothing is left behind
            _remove(temporary)
            raise

    def write_bytes(self, data: bytes) -> None:
        """Write ``data`` as the whole file (see :meth:`write_with`)."""

        def fill(path: str) -> None:
            with open(path, "wb") as f:
                f.write(data)

        self.write_with(fill)

    def _failed(self, e: OSError | UnicodeError) -> TenbouError:
        if isinstance(e, OSError):
            return self.error(e.strerror or str(e))
        return self.error(f"text that is not UTF-8 ({e})")


def _remove(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)


# -- standard output -------------------------------------------------------------------------------


class StandardOutputError(Exception):
    """Standard output cannot be written (a full disk, a closed pipe): ``error`` says why.

    Neither an :class:`OSError` nor a :class:`~tenbou.errors.TenbouError`, so that no command
    takes it for a file of its own or for bad input (and writes an error object to the very
    output that failed): it stops the command, and ``main`` reports it."""

    def __init__(self, error: OSError) -> None:
        super().__init__(error.strerror or str(error))
        self.error = error

    @property
    def broken_pipe(self) -> bool:
        """The reader went away (``tenbou verify | head``): no failure of tenbou's."""
        return isinstance(self.error, BrokenPipeError)


class _Guard(io.BufferedIOBase):
    """The bytes under the guarded standard output: each write and flush is passed to the
    stream guarded, an :class:`OSError` raised as :class:`StandardOutputError`; once the
    output is lost (or the guard let go), whatever follows is dropped."""

    def __init__(self, stream: BinaryIO | None) -> None:
        super().__init__()
        self._stream = stream
        #: nothing more reaches the stream: it failed, or the guard was let go
        self.dropping = False

    @property
    def name(self) -> str:
        return "<stdout>"

    def writable(self) -> bool:
        return True

    def write(self, data: ReadableBuffer, /) -> int:
        size = len(memoryview(data))
        if not self.dropping:
            self._pass(lambda stream: stream.write(data))
        return size

    def flush(self) -> None:
        if not self.dropping:
            self._pass(lambda stream: stream.flush())

    def _pass(self, step: Callable[[BinaryIO], object]) -> None:
        try:
            if self._stream is None:
                raise OSError(errno.EBADF, "it is closed")
            step(self._stream)
        except OSError as e:
            self.dropping = True
            raise StandardOutputError(e) from None

    def fileno(self) -> int:
        if self._stream is None:
            raise io.UnsupportedOperation("the standard output is closed")
        return self._stream.fileno()

    def isatty(self) -> bool:
        return self._stream is not None and self._stream.isatty()

    def close(self) -> None:
        """Never closes the stream guarded (the interpreter's, or a test's capture)."""


@contextlib.contextmanager
def standard_output() -> Iterator[None]:
    """Guard :data:`sys.stdout` while the block runs (see :class:`_Guard`). The block writes
    through a text layer of the same encoding and buffering, with backslash escapes for what
    the encoding cannot hold, flushed at the end: a full disk is found here, not at the
    interpreter's exit (status 120). When the output is lost, :class:`StandardOutputError` is
    raised and the descriptor is pointed at ``/dev/null``, so that the interpreter's own last
    flush of what is left has nowhere to fail."""
    original = sys.stdout
    binary = getattr(original, "buffer", None) if original is not None else None
    if original is not None and binary is None:  # a stand-in without bytes (io.StringIO)
        yield
        return
    guard = _Guard(binary)
    text = io.TextIOWrapper(
        guard,
        encoding=getattr(original, "encoding", None) or "utf-8",
        errors="backslashreplace",
        line_buffering=bool(getattr(original, "line_buffering", False)),
        write_through=bool(getattr(original, "write_through", False)),
    )
    sys.stdout = text
    try:
        try:
            yield
        finally:
            text.flush()
    except StandardOutputError:
        _drop_output(original)
        raise
    finally:
        sys.stdout = original
        guard.dropping = True
        text.detach()


def _drop_output(original: object) -> None:
    """Point the descriptor of a lost standard output at ``/dev/null``."""
    try:
        fd = original.fileno()  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError):
        return  # no descriptor: a test's capture, a closed output
    with contextlib.suppress(OSError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)
