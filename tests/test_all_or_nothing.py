"""Events are all or nothing: an event the engine refuses leaves the game exactly as it was, and the
next legal event still applies. Each class of refusal by example, then generated: illegal variants
of the next event injected at random points of whole games (self-play in the fast suite, the real
records of the corpus in the slow one)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest

from tenbou.core.tiles import Tile, Wind, parse_tiles
from tenbou.engine.events import (
    Ankan,
    Chi,
    Dahai,
    Daiminkan,
    Dora,
    EndGame,
    EndKyoku,
    Event,
    Hora,
    Kakan,
    Nukidora,
    Pon,
    Reach,
    ReachAccepted,
    Ryukyoku,
    StartGame,
    StartKyoku,
    Tsumo,
)
from tenbou.engine.game import Game
from tenbou.engine.round import Round
from tenbou.engine.table import GreedyAgent, RandomAgent, Table, play_game
from tenbou.errors import IllegalEventError, TenbouError
from tenbou.rules import Rules, get_rules

from .conftest import CORPUS
from .inject import BAD_SEATS, illegal_variants, snapshot
from .script import events, start

T = Tile.parse
RULES = get_rules("tenhou")
#: the round of docs/engine.md
ENGINE_MD = ["123456789m1230p", "2223334445556p", "111222333s1237z", "19m19s1234566z19p"]


def engine_md_round() -> Round:
    return Round(RULES, start(ENGINE_MD))


def refused(owner: Round | Game, event: Event, fragment: str) -> None:
    """``event`` is refused with ``fragment`` in the message, and nothing changes."""
    before = snapshot(owner)
    with pytest.raises(IllegalEventError, match=fragment):
        owner.apply(event, 99)
    assert snapshot(owner) == before


# -- a refused event changes nothing ---------------------------------------------------------------


def test_a_refused_ankan_leaves_the_hand_whole() -> None:
    """The issue's example: seat 0 draws 9p; an ankan of 1m x4 is refused, and 1m is still there."""
    rnd = engine_md_round()
    rnd.apply(Tsumo(0, T("9p")), 1)
    refused(rnd, Ankan(0, parse_tiles("1111m")), "ankan: seat 0 does not hold 1111m")
    rnd.apply(Dahai(0, T("1m"), False), 2)
    assert T("1m") not in rnd.seats[0].hand and rnd.seats[0].discards[-1].tile == T("1m")


def test_a_pon_with_wrong_tiles_and_a_wrong_tsumo_change_nothing() -> None:
    rnd = engine_md_round()
    events(rnd, "0t9p 0d3p")
    refused(rnd, Pon(1, 0, T("3p"), (T("7p"), T("7p"))), "seat 1 does not hold 77p")
    refused(rnd, Pon(1, 0, T("3p"), (T("2p"), T("2p"))), "pon")
    refused(rnd, Tsumo(1, T("1s")), "tsumo: 1s: a copy more than the set's 4")
    events(rnd, "1t7s 1d7s")


@pytest.mark.parametrize("bad", BAD_SEATS)
@pytest.mark.parametrize(
    "make",
    [
        lambda s: Dahai(s, T("1m"), False),
        lambda s: Tsumo(s, T("9p")),
        lambda s: Pon(s, 0, T("1m"), (T("1m"), T("1m"))),
        lambda s: Pon(1, s, T("1m"), (T("1m"), T("1m"))),
        lambda s: Hora(s, s),
        lambda s: Hora(1, s),
        lambda s: Reach(s),
        lambda s: ReachAccepted(s),
        lambda s: Ankan(s, parse_tiles("1111m")),
        lambda s: Kakan(s, T("1m"), parse_tiles("111m")),
        lambda s: Nukidora(s, T("4z")),
        lambda s: Chi(s, 0, T("1m"), (T("2m"), T("3m"))),
        lambda s: Daiminkan(s, 0, T("1m"), parse_tiles("111m")),
    ],
)
def test_seats_out_of_range_name_the_field(make: object, bad: int) -> None:
    rnd = engine_md_round()
    events(rnd, "0t9p")
    event = make(bad)  # type: ignore[operator]
    field = "actor" if getattr(event, "actor", None) == bad else "target"
    refused(rnd, event, rf"\.{field}: {bad} is not a seat 0\.\.3")


def _start(**changes: object) -> StartKyoku:
    ev = start(ENGINE_MD)
    fields = {
        "bakaze": ev.bakaze,
        "dora_marker": ev.dora_marker,
        "kyoku": ev.kyoku,
        "honba": ev.honba,
        "kyotaku": ev.kyotaku,
        "oya": ev.oya,
        "scores": ev.scores,
        "tehais": ev.tehais,
    }
    fields.update(changes)
    return StartKyoku(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("changes", "fragment"),
    [
        ({"tehais": start(ENGINE_MD).tehais[:3]}, "deals 3 hands to 4 players"),
        ({"scores": (25000,) * 3}, "start_kyoku.scores: 3 scores for 4 players"),
        ({"kyoku": -1}, "start_kyoku.kyoku: -1 is not a hand number 1..4"),
        ({"kyoku": 5}, "start_kyoku.kyoku: 5"),
        ({"oya": 4}, "start_kyoku.oya: 4 is not a seat"),
        ({"oya": 2}, "start_kyoku.oya: seat 2 deals hand 1"),
        ({"kyotaku": -1}, "start_kyoku.kyotaku: -1 is not a count"),
        ({"honba": 10**30}, "start_kyoku.honba"),
        ({"dora_marker": T("1s")}, "start_kyoku: 1s: a copy more than the set's 4"),
    ],
)
def test_a_bad_start_is_refused_and_the_game_is_unchanged(changes: dict[str, object], fragment: str) -> None:
    game = Game(RULES)
    game.apply(StartGame(), 0)
    refused(game, _start(**changes), fragment)
    assert game.round is None and game.hands == []
    game.apply(_start(), 1)
    assert game.round is not None


# -- events accepted whatever the state -------------------------------------------------------------


@pytest.mark.parametrize("reason", ["kyushukyuhai", "suufonrenda", "suuchariichi", "suukaikan", "sanchaho"])
def test_an_abortive_draw_needs_its_condition(reason: str) -> None:
    rnd = engine_md_round()
    events(rnd, "0t9p 0d9p 1t7s 1d7s")
    refused(rnd, Ryukyoku(reason=reason), "its condition does not hold now")


def test_nine_terminals_on_the_first_draw_and_not_later() -> None:
    hands = ["19m19p19s1234567z", "2223334445556p", "111222333s1237z", "28m28s2345566z28p"]
    rnd = Round(RULES, start(hands))
    events(rnd, "0t7z")
    assert Ryukyoku(reason="kyushukyuhai") in rnd.legal_actions(0)
    assert rnd.check(Ryukyoku(reason="kyushukyuhai")) == []
    rnd.apply(Ryukyoku(reason="kyushukyuhai"), 2)
    assert rnd.result is not None and rnd.result.settlement.kind == "abortive_draw"


def test_an_exhaustive_draw_with_tiles_left_is_refused() -> None:
    rnd = engine_md_round()
    events(rnd, "0t9p 0d9p")
    refused(rnd, Ryukyoku(reason="fanpai"), "exhaustive draw with 69 tiles left")


def test_no_end_of_the_hand_or_game_inside_a_hand() -> None:
    game = Game(RULES)
    game.apply(StartGame(), 0)
    game.apply(_start(), 1)
    for i, ev in enumerate([Tsumo(0, T("9p")), Dahai(0, T("9p"), True)], 2):
        game.apply(ev, i)
    refused(game, EndKyoku(), "end_kyoku before the hand ended")
    refused(game, EndGame(), "end_game inside a hand")
    refused(game, StartGame(), "start_game")


def _played_game(seed: int = 3, preset: str = "tenhou", players: int = 4) -> tuple[Rules, list[Event]]:
    rules = get_rules(preset)
    return rules, play_game(rules, seed=seed, players=players, length="tonpuu")


def test_end_kyoku_and_end_game_twice() -> None:
    rules, evs = _played_game()
    game = Game(rules, length="tonpuu")
    first_end = next(i for i, e in enumerate(evs) if isinstance(e, EndKyoku))
    for i, ev in enumerate(evs[: first_end + 1]):
        game.apply(ev, i)
    hands = len(game.hands)
    refused(game, EndKyoku(), "after end_kyoku")
    refused(game, Dahai(0, T("1m"), False), "after end_kyoku")
    assert len(game.hands) == hands
    for i, ev in enumerate(evs[first_end + 1 :], first_end + 1):
        game.apply(ev, i)
    assert game.final is not None
    refused(game, EndGame(), "end_game after end_game")
    refused(game, EndKyoku(), "end_kyoku after end_game")
    refused(game, StartKyoku(Wind.EAST, T("1m"), 1, 0, 0, 0, (25000,) * 4, start(ENGINE_MD).tehais), "after")


def test_a_start_kyoku_needs_the_previous_end_kyoku() -> None:
    """A record with an ``end_kyoku`` left out is refused where the next hand starts."""
    rules, evs = _played_game()
    game = Game(rules, length="tonpuu")
    first_end = next(i for i, e in enumerate(evs) if isinstance(e, EndKyoku))
    for i, ev in enumerate(evs[:first_end]):
        game.apply(ev, i)
    refused(game, evs[first_end + 1], r"start_kyoku before the previous hand ended \(no end_kyoku\)")


def double_ron_round() -> Round:
    """Seats 1 and 2 both wait on 3s (kanchan, tanyao), and seat 0 discards it."""
    hands = ["123456789m1239p", "234m456p567s24s88s", "345m567p678s24s22m", "147m258p369p1245z"]
    rnd = Round(RULES, start(hands, dora="1z"))
    events(rnd, "0t3s 0d3s")
    return rnd


def test_a_double_ron_survives_refused_events_in_between() -> None:
    rnd = double_ron_round()
    rnd.apply(Hora(1, 0), 3)
    refused(rnd, Hora(1, 0), "seat 1 has already won on this tile")
    refused(rnd, Dahai(1, T("1m"), False), "after a win")
    refused(rnd, Reach(2), "after a win")
    refused(rnd, Dora(T("3z")), "after a win")
    assert rnd.result is None and rnd.pending is not None
    rnd.apply(Hora(2, 0), 4)
    rnd.apply(EndKyoku(), 5)
    assert rnd.result is not None
    assert [w.score.situation.winner for w in rnd.result.settlement.results] == [1, 2]
    refused(rnd, EndKyoku(), "end_kyoku after end_kyoku")


# -- tile accounting --------------------------------------------------------------------------------


def test_a_fourth_plain_five_is_refused_at_its_draw() -> None:
    """One red 5s in the set: three plain 5s; the draw of a fourth is refused at once."""
    hands = ["555s12345678m12p", *ENGINE_MD[1:]]
    rnd = Round(RULES, start(hands))
    refused(rnd, Tsumo(0, T("5s")), r"tsumo: 5s: a copy more than the set's 3 \(the others are red\)")
    rnd.apply(Tsumo(0, T("0s")), 1)
    refused(rnd, Tsumo(0, T("0s")), "tsumo")


def test_red_fives_the_set_does_not_have_and_sanma_manzu() -> None:
    no_red = RULES.replace(red_fives=0)
    rnd = Round(no_red, start(["123456789m1234p", *ENGINE_MD[1:]]))
    refused(rnd, Tsumo(0, T("0m")), "the set has no red 5m")
    sanma = get_rules("tenhou")
    hands = ["19m12345678p123s", "19m23456789p456s", "1111222233334z"]
    rnd3 = Round(sanma, start(hands, dora="5z"))
    refused(rnd3, Tsumo(0, T("2m")), "three-player mahjong has no 2m-8m")


# -- three players: nothing between riichi and its discard ------------------------------------------


def test_no_nukidora_between_a_riichi_and_its_discard() -> None:
    rules = get_rules("marujan")
    hands = ["123p456p789p11s4z9m", "1m9m22345678999p", "11m112233s555z66z"]
    rnd = Round(rules, start(hands, dora="6z", scores=(35000,) * 3))
    events(rnd, "0t9m 0r")
    assert not any(isinstance(a, Nukidora) for a in rnd.legal_actions(0))
    refused(rnd, Nukidora(0, T("4z")), "seat 0 has declared riichi and must discard first")
    rnd.apply(Dahai(0, T("4z"), False), 3)


def test_marujan_three_players_seed_50157_plays_to_the_end() -> None:
    """Random bots used to nukidora between riichi and its discard, and then had no legal action."""
    evs = play_game(get_rules("marujan"), seed=50157, players=3)
    assert isinstance(evs[-1], EndGame)


# -- legal actions are legal ------------------------------------------------------------------------


class Checking:
    """A random agent that first requires every action offered to pass the engine's check."""

    def __init__(self, rng: random.Random, seen: Counter[str]) -> None:
        self.bot = RandomAgent(rng)
        self.seen = seen

    def __call__(self, rnd: Round, seat: int, acts: list[Event]) -> Event | None:
        for a in acts:
            assert rnd.check(a) == [], (a, rnd.check(a))
            self.seen[type(a).__name__] += 1
        return self.bot(rnd, seat, acts)


def test_every_legal_action_passes_the_check() -> None:
    seen = Counter[str]()
    for seed in range(6):
        for preset, players in (("tenhou", 4), ("mahjongsoul", 3), ("ron2", 4)):
            bots = [Checking(random.Random(seed * 5 + i), seen) for i in range(players)]
            Table(get_rules(preset), seed, players, "tonpuu", bots).play()  # type: ignore[arg-type]
    assert {"Dahai", "Reach", "Pon", "Hora"} <= set(seen)


# -- generated: illegal variants injected into whole games -----------------------------------------


class Tally:
    """What the injections did."""

    def __init__(self) -> None:
        self.injected = 0
        self.refused = 0
        self.unchanged = 0
        self.kinds = Counter[str]()


#: events of which a game has few: illegal variants are injected before every one of them
_RARE = (Chi, Pon, Daiminkan, Kakan, Ankan, Nukidora, Dora, Reach, ReachAccepted, Hora, Ryukyoku)


def inject(
    rules: Rules, players: int, evs: Sequence[Event], rng: random.Random, rate: float, tally: Tally
) -> Game:
    """Replay ``evs``; before some events (each rare one, and the others at ``rate``), apply
    illegal variants of them: each must be refused with a TenbouError and leave the game
    unchanged, and the real event must still apply."""
    game = Game(rules, players, check_starts=True)
    for i, ev in enumerate(evs):
        if isinstance(ev, _RARE) or rng.random() < rate:
            for variant in illegal_variants(game, ev, rng):
                before = snapshot(game)
                tally.injected += 1
                tally.kinds[type(variant).__name__] += 1
                try:
                    game.apply(variant, i)
                except TenbouError:
                    tally.refused += 1
                else:
                    raise AssertionError(f"event {i}: {variant!r} accepted in place of {ev!r}")
                assert snapshot(game) == before, f"event {i}: the refused {variant!r} changed the game"
                tally.unchanged += 1
        game.apply(ev, i)
    return game


def test_injected_illegal_events_change_nothing_self_play() -> None:
    tally = Tally()
    rng = random.Random(2024)
    tables = [("tenhou", 4), ("mahjongsoul", 3), ("ron2", 4), ("mleague", 4)]
    for seed, (preset, players) in enumerate(tables):
        rules = get_rules(preset)
        bots = [GreedyAgent(random.Random(seed * 7 + i)) for i in range(players)]
        evs = play_game(rules, seed=seed, players=players, length="tonpuu", agents=bots)
        game = inject(rules, players, evs, rng, 0.01, tally)
        assert game.final is not None
    print(f"self-play: {tally.injected} injected, {tally.refused} refused, {tally.unchanged} unchanged")
    assert tally.injected >= 300 and tally.refused == tally.unchanged == tally.injected
    assert {"Dahai", "Tsumo", "Hora", "Ryukyoku", "StartKyoku", "EndKyoku", "Pon", "Reach"} <= set(
        tally.kinds
    )


def _corpus_games() -> list[tuple[Rules, int, list[Event]]]:
    from tenbou.io.read import read_records

    files = sorted((CORPUS / "mjlog").rglob("*.mjlog")) + sorted((CORPUS / "tenhou6").rglob("*.json"))
    out = []
    for path in files:
        try:
            records = read_records(path)
        except TenbouError:
            continue
        for rec in records:
            if rec.skip is None:
                out.append((rec.get_rules(), rec.players, list(rec.events)))
    return out


@pytest.mark.slow
def test_injected_illegal_events_change_nothing_corpus() -> None:
    """Thousands of illegal variants injected into the corpus's real games."""
    if not CORPUS.is_dir():
        pytest.skip(f"no corpus at {CORPUS}")
    tally = Tally()
    rng = random.Random(15)
    games = 0
    for rules, players, evs in _corpus_games()[::8]:
        try:
            Game(rules, players, check_starts=False)
            probe = Game(rules, players, check_starts=True)
            for i, ev in enumerate(evs):
                probe.apply(ev, i)
        except TenbouError:
            continue  # a record the engine refuses (verify reports those)
        inject(rules, players, evs, rng, 0.005, tally)
        games += 1
    print(
        f"corpus: {games} games, {tally.injected} injected, "
        f"{tally.refused} refused, {tally.unchanged} unchanged"
    )
    print(dict(tally.kinds))
    assert games >= 40 and tally.injected >= 10_000
    assert tally.refused == tally.unchanged == tally.injected


def test_no_call_after_which_kuikae_leaves_no_discard() -> None:
    """Greedy bots (tenhou, seed 10) used to chi 4s with 06s holding only 77s besides: kuikae then
    forbids 4s and 7s, and the caller had no legal discard (StopIteration). Such a call is neither
    offered nor accepted: every call of the game leaves its caller a discard."""
    bots = [GreedyAgent(random.Random(40 + i), call_rate=0.4) for i in range(4)]
    evs = play_game(RULES, seed=10, length="tonpuu", agents=bots)
    assert isinstance(evs[-1], EndGame)
    game = Game(RULES, length="tonpuu")
    calls = 0
    for i, ev in enumerate(evs):
        game.apply(ev, i)
        if isinstance(ev, Chi | Pon):
            calls += 1
            rnd = game.round
            assert rnd is not None
            assert any(isinstance(a, Dahai) for a in rnd.legal_actions(ev.actor))
    assert calls > 0
