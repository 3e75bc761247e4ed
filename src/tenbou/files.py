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

>>> shown_path("hand.xml"), shown_path("g\\udcff.xml")
('hand.xml', 'g\\\\xff.xml')
>>> OutputFile("/nonexistent/x.svg", "-o")
Traceback (most recent call last):
...
tenbou.errors.TenbouError: -o /nonexistent/x.svg: cannot be written: no such folder /nonexistent
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from collections.abc import Callable

from .errors import TenbouError

__all__ = ["OutputFile", "shown_path"]


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
