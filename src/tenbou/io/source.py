"""The bytes of a record file: read once, gzip inflated as a stream, and never past a size limit.

Every reader of :mod:`tenbou.io` starts here. :func:`read_source` reads a
file's bytes and, when they are gzip (magic ``1f 8b``, whatever the file is
called), inflates them chunk by chunk with a cap: a record whose bytes or
whose inflated text would pass ``max_bytes`` (:data:`MAX_RECORD_BYTES`, 64 MiB,
unless told otherwise) is refused with a
:class:`~tenbou.errors.LogFormatError` as soon as the cap is crossed, so a
small file that inflates to gigabytes (a gzip bomb) costs at most the cap in
memory. The text is inflated once; format detection and parsing both read
the result.

>>> import gzip
>>> inflate(gzip.compress(b"<mjloggm/>"), "a.gz")
b'<mjloggm/>'
>>> inflate(gzip.compress(b"x" * 5000), "b.gz", max_bytes=4096)
Traceback (most recent call last):
...
tenbou.errors.LogFormatError: b.gz: the record inflates to more than 4,096 bytes (the limit; see --max-size)
>>> parse_size("64M"), parse_size("512k"), parse_size("1000")
(67108864, 524288, 1000)

A file is read in chunks of a megabyte, never more than the limit and one byte: a limit of
a gigabyte reserves no gigabyte for a file of ten kilobytes.
"""

from __future__ import annotations

import os
import zlib
from typing import BinaryIO

from ..errors import LogFormatError, TenbouError

__all__ = [
    "GZIP_MAGIC", "MAX_RECORD_BYTES", "MAX_SIZE", "inflate", "parse_size", "read_capped", "read_source",
]  # fmt: skip

#: the largest record tenbou reads, in bytes, as stored and once inflated (``--max-size``)
MAX_RECORD_BYTES = 64 * 1024 * 1024
#: the largest ``--max-size`` (1024G): a record is held in memory whole, so no larger one is read
MAX_SIZE = 1 << 40
GZIP_MAGIC = b"\x1f\x8b"
_CHUNK = 1 << 20
_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}


def parse_size(text: str) -> int:
    """A size in bytes from ``1000``, ``512k``, ``64M`` or ``1G`` (binary units).

    >>> parse_size("0")
    Traceback (most recent call last):
    ...
    tenbou.errors.LogFormatError: size '0': a positive number of bytes up to 1024G, optionally with k, M or G
    >>> parse_size("2048G")
    Traceback (most recent call last):
    ...
    tenbou.errors.LogFormatError: size '2048G': more than 1024G (the largest size tenbou reads)
    """
    raw = text.strip().lower().removesuffix("b").removesuffix("i")
    unit = raw[-1:] if raw[-1:] in ("k", "m", "g") else ""
    number = raw[: len(raw) - len(unit)]
    digits = number.lstrip("0")
    # ASCII digits only ("²".isdigit() holds, int() refuses it), and few enough for int() to read
    if not (number.isascii() and number.isdigit()) or not digits:
        raise LogFormatError(
            f"size {text[:40]!r}: a positive number of bytes up to 1024G, optionally with k, M or G"
        )
    size = int(digits[:20]) * _UNITS[unit]
    if len(digits) > 20 or size > MAX_SIZE:
        raise LogFormatError(f"size {text[:40]!r}: more than 1024G (the largest size tenbou reads)")
    return size


def _too_large(
    source: str, what: str, max_bytes: int, error: type[TenbouError] = LogFormatError
) -> TenbouError:
    return error(f"{source}: the {what} more than {max_bytes:,} bytes (the limit; see --max-size)")


def read_capped(
    stream: BinaryIO,
    source: str,
    max_bytes: int = MAX_RECORD_BYTES,
    what: str = "record",
    error: type[TenbouError] = LogFormatError,
) -> bytes:
    """Every byte of an open binary ``stream`` (a file, standard input), read a chunk at a time
    and refused with ``error`` (naming ``source``, "the ``what`` holds more than ...") as soon
    as there are more than ``max_bytes``: at most ``max_bytes`` and a chunk are ever held."""
    parts: list[bytes] = []
    size = 0
    while True:
        chunk = stream.read(min(_CHUNK, max_bytes + 1 - size))
        if not chunk:
            break
        parts.append(chunk)
        size += len(chunk)
        if size > max_bytes:
            raise _too_large(source, f"{what} holds", max_bytes, error)
    return parts[0] if len(parts) == 1 else b"".join(parts)


def inflate(data: bytes, source: str = "<record>", max_bytes: int = MAX_RECORD_BYTES) -> bytes:
    """``data`` itself, or its inflated bytes when it is gzip (every member of a
    multi-member file); refused past ``max_bytes`` (streamed: at most
    ``max_bytes`` and a chunk are ever held), or when the gzip data is damaged."""
    if data[:2] != GZIP_MAGIC:
        if len(data) > max_bytes:
            raise _too_large(source, "record holds", max_bytes)
        return data
    out = bytearray()
    pending = data
    while pending:
        d = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
        try:
            while not d.eof:
                chunk = d.decompress(pending, min(_CHUNK, max_bytes + 1 - len(out)))
                out += chunk
                if len(out) > max_bytes:
                    raise _too_large(source, "record inflates to", max_bytes)
                pending = d.unconsumed_tail
                if not pending and not chunk and not d.eof:
                    raise LogFormatError(f"{source}: gzip data is cut short (the stream has no end)")
        except zlib.error as e:
            raise LogFormatError(f"{source}: gzip data cannot be decompressed: {e}") from None
        pending = d.unused_data
        if pending[:2] != GZIP_MAGIC:
            if pending.strip(b"\x00"):
                raise LogFormatError(f"{source}: {len(pending)} byte(s) after the gzip data are not gzip")
            break
    return bytes(out)


def read_source(
    path: str | os.PathLike[str], source: str | None = None, max_bytes: int = MAX_RECORD_BYTES
) -> bytes:
    """The bytes of a record file, inflated if gzip (see :func:`inflate`); a file that
    cannot be read, or past ``max_bytes``, raises :class:`~tenbou.errors.LogFormatError`
    naming ``source`` (the path by default)."""
    name = source if source is not None else os.fspath(path)
    try:
        with open(path, "rb") as f:
            data = read_capped(f, name, max_bytes)
    except OSError as e:
        raise LogFormatError(f"{name}: cannot be read ({e.strerror})") from None
    return inflate(data, name, max_bytes)
