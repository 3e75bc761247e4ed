"""The end of a game: all-last, agari-yame and tenpai-yame, the West/South
extension. Each case is one seen in the Tenhou records (named)."""

from __future__ import annotations

import pytest

from tenbou.engine.game import Game
from tenbou.rules import get_rules


def at(preset: str, wind: int, kyoku: int, dealer: int, scores: list[int], **changes: object) -> Game:
    """A game of ``preset`` just after a hand of round ``wind`` (0 East), hand ``kyoku``."""
    rules = get_rules(preset)
    if changes:
        rules = rules.replace(**changes)
    g = Game(rules)
    g.wind_index, g.kyoku, g.dealer, g.scores = wind, kyoku, dealer, scores
    return g


def test_a_dealer_win_first_in_all_last_ends_the_game() -> None:
    assert at("tenhou", 1, 4, 3, [20000, 25000, 10000, 45000])._over("win", True) is True


def test_no_agari_yame_where_the_rules_have_none() -> None:
    assert at("mleague", 1, 4, 3, [20000, 25000, 10000, 45000])._over("win", True) is False


def test_a_dealer_win_first_below_the_return_points_plays_on() -> None:
    """2022060100gm-00a9-0000-01481d95 S4-0: the dealer wins to 29,900, first; nobody has 30,000."""
    assert at("tenhou", 1, 4, 3, [29000, 21000, 20100, 29900])._over("win", True) is False


@pytest.mark.parametrize(("yame", "over"), [("auto", True), ("never", False), ("optional", None)])
def test_tenpai_yame(yame: str, over: bool | None) -> None:
    """dnovikoff bug1.xml S4-1 plays on; 2022060102gm-00a9-0000-721b23eb S4 ends: Tenhou's
    preset accepts both ('optional')."""
    g = at("tenhou", 1, 4, 3, [19000, 34400, 9200, 37400], tenpai_yame=yame)
    assert g._over("exhaustive_draw", True) is over


def test_tenhou_tenpai_yame_is_optional() -> None:
    assert get_rules("tenhou").tenpai_yame == "optional"


def test_an_abortive_draw_in_all_last_plays_on() -> None:
    """2014052604gm-0041-0000-dc1795af E4-0: nine terminals, the dealer first with 47,300."""
    g = at("tenhou", 0, 4, 3, [20000, 20000, 12700, 47300], length="tonpuu")
    assert g._over("abortive_draw", True) is False


def test_the_extension_goes_on_while_the_dealer_keeps_the_deal() -> None:
    """cozziekuns HououDB test_log W2-0: the dealer wins (a double ron), seat 0 has 33,600."""
    g = at("tenhou", 2, 2, 1, [33600, 25000, 21400, 20000])
    assert g._over("win", True) is False


def test_the_extension_ends_when_the_deal_passes_and_somebody_has_the_return_points() -> None:
    assert at("tenhou", 2, 2, 1, [33600, 25000, 21400, 20000])._over("win", False) is True
    assert at("tenhou", 2, 2, 1, [29600, 29000, 21400, 20000])._over("win", False) is False


def test_the_extension_ends_at_its_last_hand() -> None:
    assert at("tenhou", 2, 4, 3, [29600, 29000, 21400, 20000])._over("exhaustive_draw", False) is True


def test_all_last_goes_into_the_extension_when_nobody_has_the_return_points() -> None:
    assert at("tenhou", 1, 4, 3, [29600, 29000, 21400, 20000])._over("win", False) is False
    assert at("mleague", 1, 4, 3, [29600, 29000, 21400, 20000])._over("win", False) is True


def test_a_bust_ends_the_game_at_once() -> None:
    assert at("tenhou", 0, 2, 1, [-100, 45100, 30000, 25000])._over("win", False) is True


def test_a_hand_keeps_its_typed_settlement_and_makes_the_json_when_asked() -> None:
    """``HandRecord.outcome`` is the engine's own Settlement; ``settlement`` its JSON (docs/engine.md),
    made once; a copy or pickle of the record keeps the typed value."""
    import copy
    import pickle
    import random

    from tenbou.engine.table import GreedyAgent, play_game
    from tenbou.settle.payment import Settlement
    from tenbou.settle.results import settlement_to_dict

    rules = get_rules("tenhou")
    bots = [GreedyAgent(random.Random(i)) for i in range(4)]
    game = Game(rules, length="tonpuu")
    for i, ev in enumerate(play_game(rules, seed=7, length="tonpuu", agents=bots)):
        game.apply(ev, i)
    kinds = set()
    for hand in game.hands:
        st = hand.outcome
        assert isinstance(st, Settlement) and st.kind == hand.kind and st.deltas == hand.deltas
        kinds.add(hand.kind)
        assert hand.settlement == settlement_to_dict(st) and hand.settlement is hand.settlement
        assert hand.to_dict()["results"] == hand.settlement["results"]
        for again in (pickle.loads(pickle.dumps(hand)), copy.deepcopy(hand)):
            assert type(again.outcome) is Settlement and again.outcome == st and again == hand
        assert hand._replace(honba=9).outcome is st
    assert kinds >= {"win", "exhaustive_draw"}
