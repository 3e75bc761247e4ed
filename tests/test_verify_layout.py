"""The verification layer, ``src/tenbou/verify``: the flat modules it was made of still import
(``tenbou.records``, ``tenbou.replay``, and ``tenbou.io.convert``, whose writing half replays a record:
names of :data:`tenbou.MOVED`), each name from the module
that holds it now, and pickles naming the old paths load."""

from __future__ import annotations

import importlib
import pickle
from typing import Any

import pytest

#: every name the old modules had that code outside them used (their ``__all__``, what the CLI, the
#: tests and the benchmarks import): (old module, the module that holds the names now, the names)
MOVES = (
    (
        "tenbou.records",
        "tenbou.verify.verifier",
        "NO_OUTCOME Defect complete_record export_rows find_record_files hand_key "
        "load_defects mark_defects summarize verify_data verify_file verify_paths verify_record write_rows "
        "COLUMNS COLUMN_TYPES DASK_CONNECT_SECONDS Progress format_mismatch format_summary local_cores "
        "_Verifier _verify_chunk",
    ),
    (
        "tenbou.records",
        "tenbou.verify.compare",
        "MISMATCH_KINDS _TOP _after_deposits _compare_win _engine_yaku _meld_key _melds_text _score_request",
    ),
    ("tenbou.io.convert", "tenbou.io.read", "FORMATS detect_format parse_records read_records"),
    ("tenbou.io.convert", "tenbou.verify.convert", "convert write_records"),
    (
        "tenbou.replay",
        "tenbou.verify.replay",
        "NO_DELTAS ReplayedGame hand_lines replay_events replay_games summary",
    ),
)
HOMES: dict[str, dict[str, str]] = {}
for _old, _home, _names in MOVES:
    HOMES.setdefault(_old, {}).update(dict.fromkeys(_names.split(), _home))


@pytest.mark.parametrize(("old", "name"), [(old, name) for old, names in HOMES.items() for name in names])
def test_an_old_path_gives_the_name_from_its_new_home(old: str, name: str) -> None:
    home = importlib.import_module(HOMES[old][name])
    assert name in vars(home), f"{name} is not defined in {home.__name__}"
    assert getattr(importlib.import_module(old), name) is vars(home)[name]


def _pickled_as(value: Any, module: str) -> bytes:
    """``value`` pickled as the flat package pickled it: its class named by its old module."""
    cls = type(value)
    kept = cls.__module__
    cls.__module__ = module
    try:
        return pickle.dumps(value)
    finally:
        cls.__module__ = kept


def test_pickles_naming_the_old_paths_load() -> None:
    from tenbou.verify.replay import ReplayedGame

    defect_class = importlib.import_module(HOMES["tenbou.records"]["Defect"]).Defect
    defect = defect_class("mjlog/a.xml", 3, frozenset({"deltas"}), "the record pays twice")
    replayed = ReplayedGame(None, "not replayed", 12, ["a warning"])
    for value, old in ((defect, "tenbou.records"), (replayed, "tenbou.replay")):
        data = _pickled_as(value, old)
        assert old.encode() in data
        again = pickle.loads(data)
        assert type(again) is type(value) and again == value
