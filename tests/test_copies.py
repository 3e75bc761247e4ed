"""Every value tenbou hands out pickles and copies, and the copy equals the original — in the pure
build and in the compiled one (where frozen and native classes rebuild themselves through
``__reduce__``). A game copied in the middle plays on exactly as the original does (what a bot that
searches ahead does with ``copy.deepcopy``)."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest

from tenbou.api import settle_request
from tenbou.core.hand import Hand, Situation
from tenbou.core.scoring import score_hand
from tenbou.core.shape import standard_decompositions
from tenbou.core.tiles import Tile
from tenbou.engine.events import events_from_lines, events_to_lines
from tenbou.engine.game import Game
from tenbou.engine.table import play_game
from tenbou.rules import get_rules

DAISANGEN = {
    "dealer": 0,
    "honba": 1,
    "wins": [
        {
            "winner": 1,
            "from": 2,
            "hand": "23m55p",
            "win_tile": "4m",
            "melds": [
                {"type": "pon", "tiles": "555z", "from": 2},
                {"type": "pon", "tiles": "666z", "from": 0},
                {"type": "pon", "tiles": "777z", "from": 3},
            ],
        }
    ],
}


def _values() -> dict[str, Any]:
    rules = get_rules("tenhou")
    settlement = settle_request(DAISANGEN, rules=rules)
    win = settlement.results[0]
    riichi_ron = Situation(winner=1, discarder=0, riichi=True)
    pinfu = score_hand(Hand.parse("234m456p678s2355s +4s"), riichi_ron, rules)
    events = play_game(rules, seed=5, length="tonpuu")
    return {
        "rules": rules,
        "rules mleague": get_rules("mleague"),
        "tile": Tile.parse("0p"),
        "hand": win.score.hand,
        "meld": win.score.hand.melds[0],
        "situation": win.score.situation,
        "hand score": win.score,
        "hand score pinfu": pinfu,
        "reading": pinfu.reading,
        "yaku": win.score.yaku[0],
        "fu item": pinfu.fu_breakdown[0],
        "liability": win.pao[0],
        "payment": settlement.payments[0],
        "win settlement": win,
        "settlement": settlement,
        "next hand": settlement.next,
        "events": events,
        "decomposition": standard_decompositions(list(Hand.parse("12345678m11p555z +9m").concealed_counts))[
            0
        ],
    }


VALUES = _values()


@pytest.mark.parametrize("name", sorted(VALUES))
@pytest.mark.parametrize("how", ["pickle", "deepcopy", "copy"])
def test_values_pickle_and_copy_equal(name: str, how: str) -> None:
    value = VALUES[name]
    if how == "pickle":
        again = pickle.loads(pickle.dumps(value))
    elif how == "deepcopy":
        again = copy.deepcopy(value)
    else:
        again = copy.copy(value)
    assert again == value
    assert type(again) is type(value)


def test_a_game_copied_halfway_plays_on_like_the_original() -> None:
    rules = get_rules("tenhou")
    events = events_from_lines(events_to_lines(play_game(rules, seed=11, length="tonpuu")))
    game = Game(rules, length="tonpuu")
    half = len(events) // 2
    for i, ev in enumerate(events[:half]):
        game.apply(ev, i)
    twin = copy.deepcopy(game)
    thawed = pickle.loads(pickle.dumps(game))
    for g in (game, twin, thawed):
        for i, ev in enumerate(events[half:], half):
            g.apply(ev, i)
    assert game.final is not None
    assert twin.final == thawed.final == game.final
    deltas = [h.deltas for h in game.hands]
    assert [h.deltas for h in twin.hands] == [h.deltas for h in thawed.hands] == deltas


class _CountingGame(Game):
    """A game extended in Python, as a bot may: its own ``__init__`` (its own arguments first), its
    own attribute, and a method that calls the game's own (compiled, ``Game`` and ``Round`` allow
    interpreted subclasses)."""

    def __init__(self, name: str, rules: Any, **kwargs: Any) -> None:
        super().__init__(rules, **kwargs)
        self.name = name
        self.applied = 0

    def apply_checked(self, event: Any, plan: Any) -> None:
        super().apply_checked(event, plan)
        self.applied += 1


def test_a_game_extended_in_python_plays_copies_and_pickles() -> None:
    rules = get_rules("tenhou")
    events = play_game(rules, seed=11, length="tonpuu")
    game, plain = _CountingGame("bot", rules, length="tonpuu"), Game(rules, length="tonpuu")
    half = len(events) // 2
    for i, ev in enumerate(events[:half]):
        game.apply(ev, i)
        plain.apply(ev, i)
    twin, thawed = copy.deepcopy(game), pickle.loads(pickle.dumps(game))
    assert type(twin) is type(thawed) is _CountingGame and twin.applied == thawed.applied == half
    assert twin.name == thawed.name == "bot" and twin.round is not game.round
    for g in (game, twin, thawed, plain):
        for i, ev in enumerate(events[half:], half):
            g.apply(ev, i)
    assert game.applied == twin.applied == thawed.applied == len(events)
    assert game.final is not None and twin.final == thawed.final == game.final == plain.final
