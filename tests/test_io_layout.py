"""The record I/O layer's layout: one package per format, which imports no other format's (but one
named module), the module paths of 0.1.0 still import (``tenbou.MOVED``), pickles made by 0.1.0
still load, and the two namespaces of mjlog names agree."""

from __future__ import annotations

import importlib
import pickle
from pathlib import Path

import pytest

import tenbou
import tenbou.io.mjai
import tenbou.io.mjlog
import tenbou.io.tenhou
import tenbou.io.tenhou6
from tenbou.io.mjlog import parse_mjlog

from .test_layers import MODULES, _imports

#: the names each mjlog module of 0.1.0 had (its ``__all__``, its constants and helpers other
#: modules or users may import), frozen: each must still import from the old path
OLD_NAMES: dict[str, tuple[str, ...]] = {
    "tenbou.io.mjlog_codes": (
        "DISCARD_SEATS", "DISCARD_TAGS", "DRAW_SEATS", "DRAW_TAGS", "LIMIT_CODES", "RED_IDS",
        "REGULAR_IDS", "RYUUKYOKU_BY_NAME", "RYUUKYOKU_TYPES", "TENHOU_IDS", "TENHOU_YAKUMAN_IDS",
        "Ten", "TenhouMeld", "TenhouMeldType", "YAKUMAN_IDS", "decode_meld", "encode_meld",
        "int_list", "parse_ten", "parse_yaku", "parse_yakuman", "tenbou_yaku_id", "tenhou_yaku_id",
        "tile_from_136", "tile_to_136",
    ),
    "tenbou.io.mjlog_read": (
        "Agari", "Call", "Init", "MjlogGame", "Round", "_EXAMPLE", "agari_to_request", "is_mjlog",
        "mjlog_records", "parse_mjlog", "read_mjlog", "recorded_yaku",
    ),
    "tenbou.io.mjlog_write": ("write_mjlog",),
    "tenbou.io.tenhou_rules": (
        "GO_FAST", "GO_HANCHAN", "GO_NO_KUITAN", "GO_NO_RED", "GO_SANMA", "GO_VS_HUMAN",
        "UNMODELLED_GO_BITS", "GameType",
    ),
}  # fmt: skip

FIXTURE = Path(__file__).with_name("data") / "pickles-io-0.1.0.bin"


@pytest.mark.parametrize("old", sorted(OLD_NAMES))
def test_an_old_module_path_imports_its_names(old: str) -> None:
    assert old in tenbou.MOVED
    module = importlib.import_module(old)
    homes = [importlib.import_module(h) for h in tenbou.MOVED[old]]
    for name in OLD_NAMES[old]:
        value = getattr(module, name)
        assert any(getattr(h, name, None) is value for h in homes), name
        if not name.startswith("_") and hasattr(tenbou.io.tenhou, name):
            assert getattr(tenbou.io.tenhou, name) is value, name


def test_from_an_old_path_import_works() -> None:
    from tenbou.io.mjlog_read import _EXAMPLE, MjlogGame
    from tenbou.io.tenhou_rules import GameType

    game = parse_mjlog(_EXAMPLE, "example.xml")
    assert isinstance(game, MjlogGame) and game.game_type == GameType(169)


def test_a_pickle_of_0_1_0_loads_and_equals_a_new_read() -> None:
    old = pickle.loads(FIXTURE.read_bytes())
    assert old["game"] == parse_mjlog(old["text"], "hand.xml")
    assert type(old["game"]) is tenbou.io.mjlog.MjlogGame
    assert old["meld"] == tenbou.io.mjlog.decode_meld(28778, True)


def test_the_package_and_the_hub_give_the_same_names() -> None:
    package = set(tenbou.io.mjlog.__all__)
    hub = set(tenbou.io.tenhou.__all__)
    # the hub also gives the room's rule bits, the JSON type and the docstrings' example
    assert package <= hub
    assert {n for n in hub - package if not n.startswith(("GO_", "_"))} == {"JSON", "UNMODELLED_GO_BITS"}
    for name in package:
        assert getattr(tenbou.io.mjlog, name) is getattr(tenbou.io.tenhou, name), name


def test_the_format_packages_keep_their_names() -> None:
    # the __all__ of the modules of 0.1.0 that are packages now (docs/records.md names them)
    assert tenbou.io.mjai.__all__ == ["mjai_records", "read_json", "write_mjai"]
    assert tenbou.io.tenhou6.__all__ == [
        "ABORT_TEXTS", "YAKU_NAMES", "code_of_tile", "rules_of", "tenhou6_records", "tile_of_code",
        "write_tenhou6",
    ]  # fmt: skip
    for package in (tenbou.io.mjai, tenbou.io.tenhou6):
        assert all(hasattr(package, name) for name in package.__all__)


#: the one import between two formats' packages: a tenhou.net/6 record written from an mjlog names
#: the mjlog's room as Tenhou's JSON does (``rule.disp`` from the ``GO type`` bits)
CROSS_FORMAT = {("io.tenhou6.write", "io.mjlog.rules")}


def test_each_format_is_its_own_package() -> None:
    formats = ("mjlog", "tenhou6", "mjai")
    wrong = []
    for module in MODULES:
        parts = module.split(".")
        if parts[:1] != ["io"] or len(parts) < 3 or parts[1] not in formats:
            continue
        for target in _imports(module):
            other = target.split(".")
            theirs = other[1] if other[:1] == ["io"] and len(other) > 1 else None
            if theirs in formats and theirs != parts[1] and (module, target) not in CROSS_FORMAT:
                wrong.append(f"{module} imports {target}")
    assert not wrong
    assert all(target in _imports(module) for module, target in CROSS_FORMAT)
