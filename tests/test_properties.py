"""Properties that hold for every input: notation round trips, the parsers
raise only TenbouError, the chosen reading is the best one, the gates on yaku
never change a result."""

from __future__ import annotations

import contextlib
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tenbou.api import score
from tenbou.core.hand import Hand, Meld, Situation
from tenbou.core.scoring import _evaluate, _hand_level, _readings, score_hand
from tenbou.core.tiles import _parse_tiles_slowly, format_tiles, parse_tiles
from tenbou.core.validate import _check_tiles, validate
from tenbou.core.yaku import YAKU, HandFacts
from tenbou.errors import InvalidHandError, TenbouError
from tenbou.rules import get_rules

from .strategies import tiles, winning_hands

TENHOU = get_rules("tenhou")


@given(st.lists(tiles, max_size=20))
def test_tiles_round_trip(ts: list[Any]) -> None:
    assert parse_tiles(format_tiles(ts)) == tuple(ts)


@given(winning_hands())
def test_hand_notation_round_trip(hs: tuple[Hand, Situation]) -> None:
    hand = hs[0]
    assert Hand.parse(str(hand)) == hand
    for m in hand.melds:
        assert Meld.parse(m.notation()) == m


@given(st.text(alphabet="0123456789mpsz+:@=ponchikaqx ", max_size=40))
def test_parsers_raise_only_tenbou_errors(text: str) -> None:
    for parse in (parse_tiles, Hand.parse, Meld.parse):
        with contextlib.suppress(TenbouError):
            parse(text)  # type: ignore[operator]


def _outcome(parse: Any, text: str) -> object:
    try:
        return parse(text)
    except TenbouError as e:
        return (type(e), str(e))


@settings(max_examples=500)
@given(st.text(alphabet="0123456789mpsz +/!\0\t-", max_size=24))
def test_parse_tiles_agrees_with_the_slow_reading(text: str) -> None:
    # the one pass of parse_tiles reads what the character-by-character reading reads, and hands
    # anything else to it (stray characters, those below "0" included, 0z/8z/9z, digits without a
    # letter): the same tiles or the same error
    assert _outcome(parse_tiles, text) == _outcome(_parse_tiles_slowly, text)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 40) | st.text(alphabet="0123456789mpszESWN", max_size=16),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["type", "tiles", "from"]), inner)
    ),
    max_leaves=8,
)
fields = st.sampled_from(
    ["rules", "players", "dealer", "round_wind", "winner", "from", "hand", "melds", "win_tile", "riichi",
     "dora_indicators", "ura_indicators", "kita", "honba", "riichi_sticks", "ippatsu", "tenhou"]
)  # fmt: skip


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=300)
@given(winning_hands(), st.dictionaries(fields, json_values, max_size=3))
def test_score_raises_only_tenbou_errors(hs: tuple[Hand, Situation], changes: dict[str, Any]) -> None:
    hand, s = hs
    req: dict[str, Any] = {
        "winner": s.winner,
        "dealer": s.dealer,
        "from": s.discarder,
        **hand.request_fields(),
    }
    req.update(changes)
    try:
        out = score(req)
    except TenbouError as e:
        assert e.code and str(e)
        return
    json.dumps(out)  # results are JSON-ready
    assert sum(out["deltas"]) == req.get("riichi_sticks", 0) * 1000 or "riichi_sticks" in changes


@settings(max_examples=400)
@given(winning_hands())
def test_chosen_reading_is_never_worth_less_than_another(hs: tuple[Hand, Situation]) -> None:
    hand, s = hs
    try:
        best = score_hand(hand, s, TENHOU)
    except InvalidHandError as e:
        assert e.code in ("no_yaku", "impossible")
        return
    f = HandFacts(hand, s, TENHOU)
    for r in _readings(f):
        c = _evaluate(r, _hand_level(r), [], 0)
        if c is not None:
            assert (c.base_points, c.han, c.fu) <= (best.base_points, best.han, best.fu)


@settings(max_examples=400)
@given(winning_hands())
def test_feature_gates_never_change_a_result(hs: tuple[Hand, Situation]) -> None:
    hand, s = hs
    # a yaku the gates skip must be one whose predicate is false (the features of the hand and of
    # the reading: what the yaku needs)
    f = HandFacts(hand, s, TENHOU)
    for r in _readings(f):
        assert r.features & f.features == f.features
        for y in YAKU:
            if y.needs & r.features != y.needs:
                assert not y.predicate(r), (y.id, str(hand))


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(
    winning_hands(),
    st.lists(tiles, max_size=5),
    st.lists(tiles, max_size=5),
    st.sampled_from([0, 3, 4]),
    st.sampled_from([3, 4]),
)
def test_the_quick_tile_check_agrees_with_the_careful_one(
    hs: tuple[Hand, Situation], dora: list[Any], ura: list[Any], red_fives: int, players: int
) -> None:
    """validate judges the common case at a glance and hands the rest to _check_tiles, which counts
    every tile: whatever the hand, indicators, red fives and players, both say the same."""
    hand, s = hs
    rules = TENHOU.replace(red_fives=red_fives, players=(4, 3), nukidora=False)
    s = Situation(  # every flag off but riichi (ura dora need it): only the tiles are in question
        players=players,
        dealer=s.dealer % players,
        winner=s.winner % players,
        riichi=hand.is_closed,
        dora_indicators=tuple(dora),
        ura_indicators=tuple(ura[: len(dora)]),
    )
    if any(m.from_seat is not None for m in hand.melds):
        return  # seats of calls are another check
    careful: str | None = None
    try:
        _check_tiles(hand, s, rules)
    except InvalidHandError as e:
        careful = str(e)
    quick: str | None = None
    try:
        validate(hand, s, rules)
    except InvalidHandError as e:
        quick = str(e)
    assert quick == careful
