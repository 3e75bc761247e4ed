"""Self-play: random and greedy agents play whole games through the engine;
invariants hold after every event, and the games written as mjai replay
identically."""

from __future__ import annotations

import random

import pytest

from tenbou.engine.events import events_from_lines, events_to_lines
from tenbou.engine.game import Game
from tenbou.engine.round import Phase
from tenbou.engine.table import GreedyAgent, RandomAgent, Table
from tenbou.rules import get_rules


def check(table: Table) -> None:
    """Invariants after an event: every tile accounted for, points conserved, hand sizes."""
    game = table.game
    rnd = game.round
    n = table.players
    start = game.start_points
    if rnd is None:
        return
    if rnd.phase is Phase.ENDED:
        if rnd.result is not None:  # settled: the sticks left are the next hand's
            kept = rnd.result.settlement.next.riichi_sticks
            assert sum(s.score for s in rnd.seats) + kept * 1000 == n * start
        return
    total = 136 if n == 4 else 108
    held = 0
    for s in rnd.seats:
        held += (
            len(s.hand)
            + sum(len(m.tiles) for m in s.melds)
            + sum(1 for d in s.discards if not d.called)
            + s.kita
        )
        size = len(s.hand) + 3 * len(s.melds)
        assert size in (13, 14), size
    in_dead = len(table.dead) - table.rinshan_drawn
    assert held + len(table.live) + in_dead == total, (held, len(table.live), in_dead)
    assert rnd.live_wall == len(table.live), (rnd.live_wall, len(table.live))
    assert sum(s.score for s in rnd.seats) + rnd.kyotaku * 1000 == n * start


def play(preset: str, seed: int, players: int = 4, greedy: bool = False, length: str | None = None) -> Table:
    rules = get_rules(preset)
    cls = GreedyAgent if greedy else RandomAgent
    agents = [cls(random.Random(seed * 131 + i)) for i in range(players)]
    table = Table(rules, seed, players, length, agents, check=check)  # type: ignore[arg-type]
    table.play()
    return table


def replay(table: Table) -> Game:
    lines = events_to_lines(table.events)
    game = Game(table.rules, table.players, length=table.length)
    for i, ev in enumerate(events_from_lines(lines)):
        game.apply(ev, i)
    return game


def assert_same(a: Game, b: Game) -> None:
    """The replayed game pays the same, and matches the deltas the table wrote into its events."""
    assert [h.deltas for h in a.hands] == [h.deltas for h in b.hands]
    assert a.final == b.final and a.final is not None
    assert all(h.match for h in b.hands), [h.to_dict() for h in b.hands if not h.match]


@pytest.mark.parametrize(
    ("preset", "players", "greedy"),
    [("tenhou", 4, False), ("tenhou", 4, True), ("tenhou", 3, True), ("mahjongsoul", 4, True),
     ("ron2", 4, True), ("mleague", 4, True), ("ema2016", 4, True), ("jpml", 4, True)],
)  # fmt: skip
def test_games_keep_the_invariants_and_replay_identically(preset: str, players: int, greedy: bool) -> None:
    for seed in range(3):
        table = play(preset, seed, players, greedy, length="tonpuu")
        game = table.game
        assert game.ended and game.final is not None
        n = players
        start = game.start_points
        assert sum(game.final.points) == n * start or game.rules.leftover_sticks == "lost"
        assert_same(game, replay(table))


def test_greedy_games_have_wins_and_riichi() -> None:
    kinds: set[str] = set()
    yaku: set[str] = set()
    for seed in range(6):
        for h in play("tenhou", seed, greedy=True, length="tonpuu").game.hands:
            kinds.add(h.kind)
            yaku.update(y["id"] for r in h.settlement["results"] for y in r["yaku"])
    assert "win" in kinds and "riichi" in yaku


@pytest.mark.slow
@pytest.mark.parametrize(
    "preset", ["tenhou", "mahjongsoul", "ron2", "mleague", "sega_mj4", "hangame4", "jpml"]
)
def test_many_games(preset: str) -> None:
    """300 games per preset and player count (random and greedy; four and three players where
    the preset plays both): 3,000 whole games over the seven presets."""
    rules = get_rules(preset)
    games = 0
    for seed in range(300):
        for players in rules.players:
            table = play(preset, seed, players, greedy=seed % 2 == 0)
            assert_same(table.game, replay(table))
            games += 1
    print(f"{preset}: {games} games")


@pytest.mark.parametrize(
    ("preset", "players"), [("tenhou", 4), ("ron2", 4), ("mahjongsoul", 3), ("sega_mj4", 4)]
)
def test_each_win_request_reproduces_the_engine_settlement(preset: str, players: int) -> None:
    """The engine scores and settles a win from its own state; the request it writes beside
    (``HandRecord.request``) must settle the same through ``tenbou.api`` — a replayed game and a
    typed-in request never disagree."""
    from tenbou.api import settle, settle_request

    rules = get_rules(preset)
    wins = 0
    for seed in range(4):
        table = play(preset, seed, players, greedy=True, length="tonpuu")
        for hand in table.game.hands:
            if hand.request is None:
                continue
            wins += 1
            assert settle_request(hand.request, rules=rules).deltas == hand.deltas
            again = settle({**hand.request, "rules": preset})
            assert again["payments"] == hand.settlement["payments"]
            for a, b in zip(again["results"], hand.settlement["results"], strict=True):
                assert (a["han"], a["fu"], a["yaku"], a["deltas"]) == (
                    b["han"],
                    b["fu"],
                    b["yaku"],
                    b["deltas"],
                )
                assert [(p["yaku"], p["seat"]) for p in a["pao"]] == [
                    (p["yaku"], p["seat"]) for p in b["pao"]
                ]
    assert wins >= 4


#: the digest (sha256 of the mjai lines, first 16 hex digits) of fixed-seed games as tenbou played
#: them before its legal actions and self-play table were made faster (issue 42): a game played with
#: a seed is the same game, event for event, in every version and in both builds (the compiled suite
#: runs this too). A change that alters them changes what users' seeded runs produce: say so in the
#: CHANGELOG and record the new digests.
SEEDED_GAMES = [
    ("tenhou", 4, "random", "hanchan", (0, 1, 2), 5412, "a8e75a2c7997a534"),
    ("tenhou", 4, "greedy", "tonpuu", (0, 1, 2), 1727, "14f4020b3563f31b"),
    ("tenhou", 3, "random", "tonpuu", (0, 1, 2), 2088, "83061965526dd518"),
    ("tenhou", 3, "greedy", "tonpuu", (3, 4), 411, "81d5aa2743115ec8"),
    ("mahjongsoul", 4, "greedy", "tonpuu", (2, 3), 1321, "98b2eb29ef8384bd"),
    ("mleague", 4, "random", "hanchan", (5, 6), 2411, "886b3f049ef6b023"),
    ("ron2", 4, "greedy", "tonpuu", (0, 1), 1282, "ceb18300ee8c7cac"),
    ("ema2016", 4, "random", "tonpuu", (0, 1), 1199, "9fc26ea83e8228e3"),
]


@pytest.mark.parametrize(("preset", "players", "agent", "length", "seeds", "count", "digest"), SEEDED_GAMES)
def test_seeded_games_are_the_same_games(
    preset: str, players: int, agent: str, length: str, seeds: tuple[int, ...], count: int, digest: str
) -> None:
    """``play_game`` with a seed plays the same game, event for event, as it always has."""
    import hashlib

    from tenbou.engine.table import Agent, play_game

    h = hashlib.sha256()
    events = 0
    for seed in seeds:
        agents: list[Agent] | None = None
        if agent == "greedy":
            agents = [GreedyAgent(random.Random(seed * 131 + i)) for i in range(players)]
        played = play_game(get_rules(preset), seed, players, length, agents)
        events += len(played)
        h.update("\n".join(events_to_lines(played)).encode() + b"\n--\n")
    assert (events, h.hexdigest()[:16]) == (count, digest)
