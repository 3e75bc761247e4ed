"""Pickles made before still load: ``tests/data/pickles-0.1.0.bin`` was made once, by the flat
package of version 0.1.0 (``tests/data/make_pickles.py``), before the package was laid out in
layers. Every value in it loads, equals the value made now, and the games stopped halfway play on
to the end a fresh replay of the same events reaches -- in the pure build and in the compiled one
(which ``.ci/run`` runs this on too)."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pytest

from tenbou.engine.game import Game
from tenbou.rules import get_rules

from .test_copies import VALUES

FIXTURE = Path(__file__).with_name("data") / "pickles-0.1.0.bin"


@pytest.fixture(scope="module")
def old() -> dict[str, Any]:
    loaded: dict[str, Any] = pickle.loads(FIXTURE.read_bytes())
    return loaded


@pytest.mark.parametrize("name", sorted(VALUES))
def test_an_old_value_loads_and_equals_the_new(old: dict[str, Any], name: str) -> None:
    value = old["values"][name]
    assert type(value) is type(VALUES[name])
    assert value == VALUES[name]


@pytest.mark.parametrize("moment", ["after hora", "after end_kyoku", "finished"])
def test_an_old_game_plays_on_as_a_new_one(old: dict[str, Any], moment: str) -> None:
    events = old["events"]
    upto, game = old["games"][moment]
    assert isinstance(game, Game)
    fresh = Game(get_rules("tenhou"), length="tonpuu")
    for i, ev in enumerate(events):
        fresh.apply(ev, i)
        if i >= upto:
            game.apply(ev, i)
    assert game.final is not None and game.final == fresh.final
    assert [h.deltas for h in game.hands] == [h.deltas for h in fresh.hands]
    assert [h.settlement for h in game.hands] == [h.settlement for h in fresh.hands]


def test_an_old_hand_record_keeps_its_json(old: dict[str, Any]) -> None:
    """A hand record of 0.1.0 held its settlement's JSON alone: it loads as such (no typed
    settlement to rebuild it from), gives it as ``settlement``, and pickles and copies with it."""
    import copy

    _, game = old["games"]["finished"]
    hand = next(h for h in game.hands if h.kind == "win")
    assert hand.outcome is None
    assert hand.settlement["kind"] == "win" and hand.to_dict()["results"] == hand.settlement["results"]
    for again in (pickle.loads(pickle.dumps(hand)), copy.deepcopy(hand), hand._replace(number=hand.number)):
        assert again == hand and again.outcome is None and again.settlement == hand.settlement
