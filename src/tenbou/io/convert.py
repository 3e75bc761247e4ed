"""Any record file in, any record format out: format detection, reading and writing.

:func:`read_records` reads a Tenhou mjlog (plain or gzip), a tenhou.net/6
JSON file (one object, or one object per line as mjx writes them) or mjai
JSON Lines, telling them apart by their content, never by the file name, and
returns its :class:`~tenbou.io.record.GameRecord` values. :func:`write_records`
writes games in any of the three formats (:func:`convert` does both), so that
records move between Tenhou tools, tenhou.net/6 viewers and Mortal/mjai tools;
reading back what was written replays identically.

>>> from tenbou.io.mjlog_read import _EXAMPLE
>>> detect_format(_EXAMPLE), detect_format(b'{"title": "", "name": [], "rule": {}, "log": []}')
('mjlog', 'tenhou6')
>>> detect_format(b'{"type":"start_game","names":["a","b","c","d"]}\\n')
'mjai'
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence

from ..errors import LogFormatError
from .record import FORMATS, GameRecord

__all__ = ["FORMATS", "convert", "detect_format", "read_records", "write_records"]

_GZIP = b"\x1f\x8b"


def detect_format(data: bytes, source: str = "<record>") -> str:
    """``"mjlog"``, ``"tenhou6"`` or ``"mjai"`` from a file's bytes; a
    :class:`~tenbou.errors.LogFormatError` naming ``source`` for anything else."""
    if data[:2] == _GZIP:
        return "mjlog"
    head = data[:4096].lstrip()
    if b"<mjloggm" in head:
        return "mjlog"
    if head[:1] == b"{":
        first = head.split(b"\n", 1)[0]
        try:
            obj = json.loads(first)
        except (json.JSONDecodeError, UnicodeDecodeError):
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


def parse_records(data: bytes, source: str = "<record>", fmt: str | None = None) -> list[GameRecord]:
    """The games of a record's bytes (``fmt`` detected when ``None``)."""
    fmt = fmt or detect_format(data, source)
    if fmt == "mjlog":
        from .mjlog_read import mjlog_records

        return mjlog_records(data, source)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise LogFormatError(f"{source}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    if fmt == "tenhou6":
        from .tenhou6 import tenhou6_records

        return tenhou6_records(text, source)
    if fmt == "mjai":
        from .mjai import mjai_records

        return mjai_records(text, source)
    raise LogFormatError(f"{source}: unknown record format {fmt!r} (one of {', '.join(FORMATS)})")


def read_records(
    path: str | os.PathLike[str], fmt: str | None = None, source: str | None = None
) -> list[GameRecord]:
    """The games of a record file; errors name the file."""
    name = source if source is not None else os.fspath(path)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise LogFormatError(f"{name}: cannot be read ({e.strerror})") from None
    return parse_records(data, name, fmt)


def write_records(games: Sequence[GameRecord], fmt: str) -> bytes:
    """The games written in format ``fmt``. mjlog and tenhou.net/6 hold one game
    per file (more raise :class:`~tenbou.errors.LogFormatError`); mjai JSON Lines
    hold any number. Hands whose win details the source did not record (mjai) are
    completed by replaying them through the engine first."""
    if fmt not in FORMATS:
        raise LogFormatError(f"unknown record format {fmt!r} (one of {', '.join(FORMATS)})")
    if fmt == "mjai":
        from .mjai import write_mjai

        return write_mjai(games)
    if len(games) != 1:
        raise LogFormatError(
            f"a {fmt} file holds one game; {len(games)} were given (write mjai, or one file per game)"
        )
    from ..records import complete_record

    game = complete_record(games[0])
    if fmt == "mjlog":
        from .mjlog_write import write_mjlog

        return write_mjlog(game)
    from .tenhou6 import write_tenhou6

    return write_tenhou6(game)


def convert(data: bytes, fmt: str, source: str = "<record>") -> bytes:
    """A record's bytes converted to format ``fmt`` (see :func:`write_records`)."""
    return write_records(parse_records(data, source), fmt)
