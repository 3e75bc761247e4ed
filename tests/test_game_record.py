"""``Game.record_settlement``: a hand's end settled outside an event stream (a score sheet) is
recorded as the same hand played event by event. Self-played games (every event checked by the
referee) are followed twice: by their events, and by each hand's settlement alone with the seats
that declared riichi; scores, the next hand, the end of the game and the final ranking agree
after every hand. Refused settlements leave the game unchanged."""

from __future__ import annotations

import copy

import pytest

from tenbou.api import settle_request
from tenbou.engine.events import EndGame, EndKyoku, ReachAccepted, StartKyoku
from tenbou.engine.game import Game
from tenbou.engine.table import play_game
from tenbou.errors import IllegalEventError
from tenbou.rules import get_rules

CASES = [("tenhou", 4, "tonpuu"), ("tenhou", 4, "hanchan"), ("mleague", 4, "tonpuu"), ("tenhou", 3, "tonpuu")]


def state(g: Game) -> tuple[object, ...]:
    return (g.expected_start(), g.ended, g.may_end, len(g.hands), [h.deltas for h in g.hands])


@pytest.mark.parametrize(("preset", "players", "length"), CASES)
@pytest.mark.parametrize("seed", range(6))
def test_a_settlement_records_as_the_events_do(preset: str, players: int, length: str, seed: int) -> None:
    rules = get_rules(preset)
    events = play_game(rules, seed=seed, players=players, length=length)
    by_events = Game(rules, players, length=length)
    by_sheet = Game(rules, players, length=length)
    riichi: list[int] = []
    hands = 0
    for ev in events:
        by_events.apply(ev)
        if isinstance(ev, StartKyoku):
            riichi = []
        elif isinstance(ev, ReachAccepted):
            riichi.append(ev.actor)
        elif isinstance(ev, EndKyoku):
            assert by_events.round is not None and by_events.round.result is not None
            result = by_events.round.result
            req = result.request
            if req is not None:  # a win: its request settles to the same settlement
                again = settle_request(req, rules=rules)
                assert again.deltas == result.settlement.deltas
                assert again.next == result.settlement.next
            record = by_sheet.record_settlement(result.settlement, req, riichi=riichi)
            assert record.deltas == result.settlement.deltas
            assert by_sheet.scores == by_events.scores
            assert state(by_sheet) == state(by_events)
            hands += 1
        elif isinstance(ev, EndGame):
            assert by_sheet.ended or by_sheet.may_end
    assert hands == len(by_events.hands) > 0
    assert by_events.final is not None
    if by_sheet.final is None:  # an optional yame taken by the record: the final of the same table
        assert by_sheet.may_end
        assert by_sheet._final() == by_events.final
    else:
        assert by_sheet.final == by_events.final


def _draw(
    dealer: int = 0, honba: int = 1, sticks: int = 0, tenpai: list[int] | None = None
) -> dict[str, object]:
    """An exhaustive draw; by default the one the game below expects (dealer 0, honba 1)."""
    return {
        "dealer": dealer,
        "honba": honba,
        "riichi_sticks": sticks,
        "draw": {"kind": "exhaustive", "tenpai": tenpai or []},
    }


RIICHI_WIN = {"winner": 1, "hand": "123m456p789s23s55s", "win_tile": "4s", "riichi": True}
BAD = [
    (_draw(dealer=1), [], "dealer"),
    (_draw(honba=2), [], "honba"),
    (_draw(sticks=1), [], "riichi_sticks"),
    (_draw(sticks=0), [2], "riichi_sticks"),
    (_draw(sticks=2), [2, 2], "twice"),
    (_draw(sticks=1), [4], "seat"),
    ({"honba": 1, "wins": [RIICHI_WIN]}, [], "riichi"),  # the winner's riichi stick is not counted
    ({"honba": 1, "riichi_sticks": 1, "wins": [RIICHI_WIN]}, [], "riichi"),
]


@pytest.mark.parametrize(("request_", "riichi", "word"), BAD)
def test_a_settlement_of_another_hand_is_refused_and_changes_nothing(
    request_: dict[str, object], riichi: list[int], word: str
) -> None:
    g = Game(get_rules("tenhou"))
    first = _draw(honba=0, tenpai=[0])
    g.record_settlement(settle_request(first), first)  # the dealer tenpai keeps the deal: honba 1
    before = copy.deepcopy((g.scores, g.expected_start(), g.hands, g.ended))
    with pytest.raises(IllegalEventError) as e:
        g.record_settlement(settle_request(request_), request_, riichi=riichi)
    assert word in str(e.value)
    assert (g.scores, g.expected_start(), g.hands, g.ended) == before


def test_the_end_of_the_game_and_the_final_ranking() -> None:
    g = Game(get_rules("tenhou"), length="tonpuu")
    # four non-dealer tsumo of a haneman (riichi each time): the deal passes, East 4 ends the game
    win = {"hand": "123m456p789s23s55s", "win_tile": "4s", "riichi": True, "dora_indicators": ["4s"] * 3}
    for dealer, winner in zip(range(4), (1, 2, 1, 1), strict=True):
        req = {"dealer": dealer, "riichi_sticks": 1, "wins": [dict(win, winner=winner)]}
        g.record_settlement(settle_request(req), req, riichi=[winner])
    assert g.ended and g.final is not None
    assert g.final.points == (5000, 65000, 25000, 5000)
    assert g.final.ranking == (1, 2, 0, 3)  # a tie goes to the seat nearer the first dealer
    # (points - 30,000) / 1,000, uma 20/10/-10/-20, oka 20 to the top
    assert g.final.final_scores == (-35.0, 75.0, 5.0, -45.0)
    with pytest.raises(IllegalEventError, match="ended"):
        g.record_settlement(settle_request(_draw(honba=0)))
