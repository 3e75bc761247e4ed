"""The JSON writers of results: each output is its own, whatever the writers keep to make it."""

from __future__ import annotations

import copy
from typing import Any

from tenbou.api import score
from tenbou.core.hand import Hand, Situation
from tenbou.core.scoring import score_hand
from tenbou.rules import get_rules
from tenbou.settle.results import hand_score_to_dict


def _spoil(value: Any) -> None:
    """Change every dict and list inside ``value`` (and ``value`` itself)."""
    if isinstance(value, dict):
        for item in value.values():
            _spoil(item)
        value["spoilt"] = True
        value.pop("han", None)
    elif isinstance(value, list):
        for item in value:
            _spoil(item)
        value.append("spoilt")


def test_an_output_shares_nothing_with_the_next() -> None:
    # the yaku and fu entries are copies of entries the writer keeps: changing an output changes
    # none of them
    # (and the payments copies of the payment objects kept by kind and receiver)
    ron = {"winner": 1, "from": 2, "hand": "123m456p789s23s55s", "win_tile": "4s", "dora_indicators": ["3s"]}
    tsumo = {**ron, "from": None, "honba": 2, "riichi_sticks": 1}
    for req in (ron, tsumo, ron, tsumo):
        first = score(req)
        expected = copy.deepcopy(first)
        _spoil(first)
        assert score(req) == expected
    hs = score_hand(Hand.parse("234m678p5578s +9s ankan:7777z"), Situation(winner=2), get_rules("tenhou"))
    out = hand_score_to_dict(hs)
    expected = copy.deepcopy(out)
    _spoil(out)
    assert hand_score_to_dict(hs) == expected
