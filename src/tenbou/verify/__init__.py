"""Verification: real records replayed through the game engine and compared with what they say.

One concern a module:

- :mod:`tenbou.verify.verifier` replays one game record hand by hand and makes its lines (one per
  hand end, with every difference from the record); :mod:`tenbou.verify.compare` finds those
  differences (pure functions of the replay and the record);
- :mod:`tenbou.verify.run` verifies files and folders, in this process, over local processes or on
  a Dask cluster;
- :mod:`tenbou.verify.defects` reads the known defects of ``--expect-defects`` and marks them;
- :mod:`tenbou.verify.summaries` closes a run (``tenbou verify``, ``tenbou replay``) with its
  summary (not ``summary.py``: a submodule of that name would shadow the function
  ``tenbou.verify.summary`` that ``tenbou replay`` uses); :mod:`tenbou.verify.report` tells it to
  people (a progress bar, the mismatches, the summary); :mod:`tenbou.verify.export` makes a table
  of the hands (``tenbou export``);
- :mod:`tenbou.verify.complete` fills a record in from its replay, and
  :mod:`tenbou.verify.convert` writes it in another format;
- :mod:`tenbou.verify.replay` replays mjai events for ``tenbou replay``.

The modules of the flat package, ``tenbou.records``, ``tenbou.replay`` and ``tenbou.io.convert``
(reading: :mod:`tenbou.io.read`), still import (:data:`tenbou.MOVED`).
"""

from .compare import MISMATCH_KINDS
from .complete import complete_record
from .convert import write_records
from .defects import Defect, load_defects, mark_defects
from .export import COLUMNS, export_rows, write_rows
from .replay import hand_lines, replay_games, summary
from .report import Progress, format_mismatch, format_summary
from .run import find_record_files, verify_data, verify_file, verify_paths
from .summaries import summarize
from .verifier import NO_OUTCOME, verify_record

__all__ = [
    "COLUMNS",
    "MISMATCH_KINDS",
    "NO_OUTCOME",
    "Defect",
    "Progress",
    "complete_record",
    "export_rows",
    "find_record_files",
    "format_mismatch",
    "format_summary",
    "hand_lines",
    "load_defects",
    "mark_defects",
    "replay_games",
    "summarize",
    "summary",
    "verify_data",
    "verify_file",
    "verify_paths",
    "verify_record",
    "write_records",
    "write_rows",
]
