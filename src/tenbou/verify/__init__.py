"""Verification: real records replayed through the game engine and compared with what they say.

:mod:`tenbou.verify.verifier` replays one game record hand by hand and makes its lines (one per
hand end, with every difference from the record); :mod:`tenbou.verify.convert` writes a record in
another format once its replay has filled in what the format needs; :mod:`tenbou.verify.replay`
replays mjai events for ``tenbou replay``. The modules of the flat package, ``tenbou.records``,
``tenbou.replay`` and ``tenbou.io.convert`` (reading: :mod:`tenbou.io.read`), still import
(:data:`tenbou.MOVED`).
"""

from .convert import write_records
from .replay import hand_lines, replay_games, summary
from .verifier import (
    Defect,
    Progress,
    export_rows,
    format_mismatch,
    format_summary,
    load_defects,
    mark_defects,
    summarize,
    verify_paths,
    write_rows,
)

__all__ = [
    "Defect",
    "Progress",
    "export_rows",
    "format_mismatch",
    "format_summary",
    "hand_lines",
    "load_defects",
    "mark_defects",
    "replay_games",
    "summarize",
    "summary",
    "verify_paths",
    "write_records",
    "write_rows",
]
