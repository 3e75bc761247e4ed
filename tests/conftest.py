"""Shared test configuration: ``--runslow`` runs the tests marked ``slow``
(whole-corpus replays, thousands of random hands); CI always passes it."""

from __future__ import annotations

from pathlib import Path

import pytest

#: the shared folder beside the checkout (corpus of real records, seeds, rule matrix)
SHARED = Path(__file__).resolve().parents[1].parent / "shared"
CORPUS = SHARED / "corpus"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--runslow", action="store_true", default=False, help="also run tests marked slow")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
