"""Each event's constructor takes every field of the event, by name, and keeps it: the events'
``__init__`` are written by hand (a frozen dataclass's generated one runs as plain Python even in
the compiled build), so a field added to a class must be added to its ``__init__`` too.

Each field is given a value that names it, whatever its type: the pure build, which runs the same
source, takes that; the compiled build checks each argument's type, and is left out."""

from __future__ import annotations

import dataclasses

import pytest

import tenbou
from tenbou.engine.events import _TYPES

pytestmark = pytest.mark.skipif(
    tenbou.BUILD != "pure Python", reason="the compiled build checks the arguments' types"
)

EVENTS = sorted(set(_TYPES.values()), key=lambda c: c.__name__)


@pytest.mark.parametrize("cls", EVENTS, ids=lambda c: c.__name__)
def test_every_field_is_taken_and_kept(cls: type) -> None:
    fields = dataclasses.fields(cls)
    values = {f.name: ("value of", f.name) for f in fields}
    event = cls(**values)
    assert {f.name: getattr(event, f.name) for f in fields} == values
    assert event == cls(**values) and hash(event) == hash(cls(**values))
