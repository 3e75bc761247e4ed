"""Any record format out: a record written in another format, after replaying it.

:func:`write_records` writes games in any of the three formats (:func:`convert` reads and
writes), so that records move between Tenhou tools, tenhou.net/6 viewers and Mortal/mjai tools;
reading back what was written replays identically. Every game is replayed through the engine
before it is written (:func:`~tenbou.verify.complete.complete_record`): the details a format needs
that the source does not hold (an mjai record's yaku and points) come from that replay, and a game
the engine refuses is not written. Reading is :mod:`tenbou.io.read`'s.

>>> from tenbou.engine.events import events_to_lines
>>> from tenbou.engine.table import play_game
>>> from tenbou.io.read import detect_format
>>> from tenbou.rules import get_rules
>>> text = "\\n".join(events_to_lines(play_game(get_rules("tenhou"), seed=3, length="tonpuu")))
>>> detect_format(convert(text.encode(), "tenhou6", "self.jsonl"))
'tenhou6'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..errors import LogFormatError, TenbouError
from ..io.read import FAULTS, parse_records
from ..io.record import FORMATS, GameRecord
from ..io.source import MAX_RECORD_BYTES
from .complete import complete_record

__all__ = ["convert", "write_records"]


def write_records(games: Sequence[GameRecord], fmt: str, *, per_kyoku: bool = False) -> bytes:
    """The games written in format ``fmt``. mjlog and tenhou.net/6 hold one game
    per file (more raise :class:`~tenbou.errors.LogFormatError`); mjai JSON Lines
    hold any number. Every game is replayed through the engine first (the win details
    an mjai source does not record come from that replay); a game the engine refuses
    (an illegal event, a hand without its end), or one under rules tenbou does not model
    (a record it skips), is not written: it raises :class:`~tenbou.errors.LogFormatError`
    naming the hand or the reason. ``per_kyoku`` (tenhou.net/6 only): one JSON object a
    kyoku, one a line, as NAGA and Tenhou's editor take them."""
    if fmt not in FORMATS:
        raise LogFormatError(f"unknown record format {fmt!r} (one of {', '.join(FORMATS)})")
    if per_kyoku and fmt != "tenhou6":
        raise LogFormatError(f"one kyoku a line is a tenhou.net/6 form, not {fmt}'s")
    for rec in games:
        if rec.skip is not None:
            # its rules are not tenbou's to write: labelled with a preset, the record would say
            # something it does not (a chip room as plain Tenhou)
            raise LogFormatError(f"{rec.source}: game {rec.index} is not converted: {rec.skip}")
    if fmt == "mjai":
        from ..io.mjai import write_mjai

        # a game tenbou's own replay refuses is not written; the others with the facts it found
        done = [complete_record(rec, strict=True) for rec in games]
        return _writing(lambda: write_mjai(done), games, fmt)
    if len(games) != 1:
        raise LogFormatError(
            f"a {fmt} file holds one game; {len(games)} were given (write mjai, or one file per game)"
        )
    game = complete_record(games[0], strict=True)
    if fmt == "mjlog":
        from ..io.mjlog import write_mjlog

        return _writing(lambda: write_mjlog(game), games, fmt)
    from ..io.tenhou6 import write_tenhou6

    return _writing(lambda: write_tenhou6(game, per_kyoku=per_kyoku), games, fmt)


def _writing(write: Callable[[], bytes], games: Sequence[GameRecord], fmt: str) -> bytes:
    """The last line of defence of the writers: a record they cannot follow (only a
    record tenbou does not replay reaches them unchecked) is a clean error, never a crash."""
    try:
        return write()
    except TenbouError:
        raise
    except FAULTS as e:
        source = games[0].source if games else "<record>"
        raise LogFormatError(
            f"{source}: cannot be written as {fmt}: the record does not hold together "
            f"(an unexpected {type(e).__name__}: {e})"
        ) from e


def convert(data: bytes, fmt: str, source: str = "<record>", *, max_bytes: int = MAX_RECORD_BYTES) -> bytes:
    """A record's bytes converted to format ``fmt`` (see :func:`write_records`)."""
    return write_records(parse_records(data, source, max_bytes=max_bytes), fmt)
