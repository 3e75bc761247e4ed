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
#: tests and the benchmarks import; every function and constant of ``tenbou.records``):
#: (old module, the module that holds the names now, the names)
MOVES = (
    ("tenbou.records", "tenbou.verify.verifier", "NO_OUTCOME verify_record _Verifier _name _plain"),
    (
        "tenbou.records",
        "tenbou.verify.compare",
        "MISMATCH_KINDS _TOP _after_deposits _compare_win _engine_yaku _meld_key _melds_text _score_request",
    ),
    ("tenbou.records", "tenbou.verify.complete", "complete_record _merge_win _fourth_kans_as_horas"),
    (
        "tenbou.records",
        "tenbou.verify.run",
        "find_record_files verify_data verify_file verify_paths DASK_CONNECT_SECONDS local_cores "
        "_verify_chunk _chunks _error_line _is_file _run_dask in_order dask_client",
    ),
    ("tenbou.records", "tenbou.verify.defects", "Defect load_defects mark_defects _verified"),
    ("tenbou.records", "tenbou.verify.summaries", "hand_key summarize _category"),
    ("tenbou.records", "tenbou.verify.export", "COLUMNS COLUMN_TYPES export_rows write_rows _csv_cell"),
    ("tenbou.records", "tenbou.verify.report", "Progress format_mismatch format_summary"),
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


#: the names ``tenbou.verify`` exported when the layer was made (the CLI imports them from there)
PACKAGE = (
    "Defect Progress export_rows format_mismatch format_summary hand_lines load_defects mark_defects "
    "replay_games summarize summary verify_paths write_records write_rows"
)


@pytest.mark.parametrize("name", PACKAGE.split())
def test_the_package_gives_each_name_it_gave(name: str) -> None:
    import tenbou.verify

    assert name in tenbou.verify.__all__
    value = getattr(tenbou.verify, name)
    assert not isinstance(value, type(tenbou.verify)), f"tenbou.verify.{name} is a module, not the name"
    assert value is vars(importlib.import_module(value.__module__))[name]


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
