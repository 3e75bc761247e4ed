"""Any record file in: format detection and reading.

:func:`read_records` reads a Tenhou mjlog (plain or gzip), a tenhou.net/6
JSON file (one object, or one object per line as mjx writes them) or mjai
JSON Lines, telling them apart by their content, never by the file name, and
returns its :class:`~tenbou.io.record.GameRecord` values. Any of them may be
gzip-compressed: the bytes are inflated once, as a stream and never past the
size limit of :mod:`tenbou.io.source`, before the format is told and the
record parsed. Writing a record replays it first, which is verification's
work: :mod:`tenbou.verify.convert` (both were ``tenbou.io.convert``, which
still imports).

>>> from tenbou.io.mjlog.read import _EXAMPLE
>>> detect_format(_EXAMPLE), detect_format(b'{"title": "", "name": [], "rule": {}, "log": []}')
('mjlog', 'tenhou6')
>>> detect_format(b'{"type":"start_game","names":["a","b","c","d"]}\\n')
'mjai'
"""

from __future__ import annotations

import json
import os

from ..errors import LogFormatError, TenbouError
from .record import FORMATS, JSON, GameRecord
from .source import GZIP_MAGIC, MAX_RECORD_BYTES, inflate, read_source

__all__ = ["FORMATS", "detect_format", "parse_records", "read_records"]

#: what a reader or writer bug would raise (a record is still refused cleanly: the guards are
#: :func:`parse_records` for the readers and :mod:`tenbou.verify.convert` for the writers)
FAULTS = (
    ArithmeticError, AssertionError, AttributeError, LookupError, NameError, StopIteration, TypeError,
    ValueError,
)  # fmt: skip


def detect_format(data: bytes, source: str = "<record>") -> str:
    """``"mjlog"``, ``"tenhou6"`` or ``"mjai"`` from a record's (inflated) bytes; a
    :class:`~tenbou.errors.LogFormatError` naming ``source`` for anything else.
    Gzip bytes that were not inflated are taken for mjlog, Tenhou's own way to
    store a record."""
    if data[:2] == GZIP_MAGIC:
        return "mjlog"
    head = data[:4096].lstrip()
    if b"<mjloggm" in head:
        return "mjlog"
    if head[:1] == b"{":
        first = head.split(b"\n", 1)[0]
        try:
            obj = json.loads(first)
        except (ValueError, RecursionError):  # not JSON, not UTF-8, too deep, too long a number
            obj = None
        if isinstance(obj, dict):
            if "type" in obj:
                return "mjai"
            if "log" in obj:
                return "tenhou6"
        if b'"log"' in head:
            return "tenhou6"
        if b'"type"' in head:
            return "mjai"
    raise LogFormatError(
        f"{source}: not a game record tenbou reads (Tenhou mjlog XML, tenhou.net/6 JSON or mjai JSON Lines)"
    )


def parse_records(
    data: bytes,
    source: str = "<record>",
    fmt: str | None = None,
    *,
    rules: JSON = None,
    max_bytes: int = MAX_RECORD_BYTES,
) -> list[GameRecord]:
    """The games of a record's bytes (gzip inflated first; ``fmt`` detected when
    ``None``; ``rules`` for mjai records that do not name theirs). Anything
    malformed raises :class:`~tenbou.errors.LogFormatError` naming ``source``
    and, where it can, the line or element and the field."""
    if fmt is not None and fmt not in FORMATS:
        raise LogFormatError(f"{source}: unknown record format {fmt!r} (one of {', '.join(FORMATS)})")
    data = inflate(data, source, max_bytes)
    if data[:2] == GZIP_MAGIC:
        raise LogFormatError(f"{source}: gzip data inside gzip data (a record is compressed once)")
    fmt = fmt or detect_format(data, source)
    try:
        return _parse(data, source, fmt, rules)
    except TenbouError:
        raise
    except FAULTS as e:
        # the last line of defence: the readers check every field where they read it, so this
        # is a reader bug; the record is still refused cleanly rather than crashing a run
        raise LogFormatError(
            f"{source}: not a {fmt} record tenbou can read (an unexpected {type(e).__name__}: {e})"
        ) from e


def _parse(data: bytes, source: str, fmt: str, rules: JSON) -> list[GameRecord]:
    if fmt == "mjlog":
        from .mjlog import mjlog_records

        return mjlog_records(data, source)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise LogFormatError(f"{source}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    if fmt == "tenhou6":
        from .tenhou6 import tenhou6_records

        return tenhou6_records(text, source)
    from .mjai import mjai_records

    return mjai_records(text, source, "tenhou" if rules is None else rules)


def read_records(
    path: str | os.PathLike[str],
    fmt: str | None = None,
    source: str | None = None,
    *,
    rules: JSON = None,
    max_bytes: int = MAX_RECORD_BYTES,
) -> list[GameRecord]:
    """The games of a record file (read once, within ``max_bytes``); errors name the file."""
    name = source if source is not None else os.fspath(path)
    return parse_records(read_source(path, name, max_bytes), name, fmt, rules=rules, max_bytes=max_bytes)
