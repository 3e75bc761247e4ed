"""Every rule option acts: for each option of ``OPTION_SPECS`` and each value it can take (both
ways for a flag, every choice, a few numbers for an integer, a set without and with each of its
members, a chip table without and with each event), a case — a request to ``tenbou.api``, a short
event script for the round engine, or hands' ends recorded by a game — whose outcome differs from
its outcome under every other value. An option without a case fails the test, so none can land
inert (as ``kiriage_dealer_only`` and ``suukantsu_pao_timing`` did, read by no code outside
``rules/``), and neither can a value.

A case is the rules it starts from and a function of the rules (the option set to a value) to an
outcome: the numbers, yaku, liable seats or events the value should change. A refusal is an
outcome too, by its error code (not its message, which may quote the value).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from tenbou.api import settle_request
from tenbou.core.hand import Hand
from tenbou.core.tiles import Tile
from tenbou.engine.events import Dahai, Daiminkan, Dora, Hora, Reach, Ryukyoku
from tenbou.engine.game import Game
from tenbou.engine.round import Round
from tenbou.errors import TenbouError
from tenbou.rules import LOCAL_YAKU, OPTION_SPECS, Rules, get_rules
from tenbou.settle.payment import chombo_penalties, settle_chombo

from .script import events, play, start
from .stacked import Stacked, play_stacked
from .test_round import FURITEN, RINSHAN
from .test_seed_pao import DAISANGEN, DAISUUSHII_TSUUIISOU, FOURTH_KAN, RINSHAN_HATSU, SUUKANTSU

TENHOU = get_rules("tenhou")
RON2 = get_rules("ron2")


@dataclass(frozen=True)
class Case:
    """What ``outcome`` makes of the rules ``base`` with the option set to a value."""

    what: str
    base: Rules
    outcome: Callable[[Rules], object]


@dataclass(frozen=True)
class Acts:
    """An option's cases and, for a number or a list of numbers, the values tried."""

    cases: tuple[Case, ...]
    values: tuple[object, ...] = ()


def acts(*cases: Case, values: Sequence[object] = ()) -> Acts:
    return Acts(cases, tuple(values))


def _outcome(case: Case, name: str, value: object) -> object:
    rules = case.base.with_options({name: value})
    try:
        return case.outcome(rules)
    except TenbouError as e:
        return ("refused", e.code)


def values_of(name: str, acts: Acts) -> list[object]:
    """Every value an option can take, as the test tries them."""
    spec = OPTION_SPECS[name]
    if spec.kind == "bool":
        return [False, True]
    if spec.kind == "choice" or (spec.kind == "int" and spec.choices):
        return list(spec.choices)
    if spec.kind in ("yaku_set", "name_set"):
        return [[], *([c] for c in spec.choices)]
    if spec.kind == "chip_table":
        return [{}, *({c: 1} for c in spec.choices)]
    if spec.kind == "int_tuple":
        return [list(p) for n in (1, 2) for p in itertools.permutations(spec.choices, n)]
    assert len(acts.values) >= 2, f"{name}: give a couple of numbers to try"
    return list(acts.values)


# -- the ways a case looks at the rules ---------------------------------------------------------------


def settled(rules: Rules, request: Mapping[str, Any]) -> Any:
    return settle_request(request, rules=rules)


def win(rules: Rules, win: Mapping[str, Any], **table: Any) -> Any:
    """The settlement of one win (``table``: dealer, honba, riichi_sticks, players, wareme; the
    win's own ``rules``, if any, left out: the case's are given)."""
    return settled(rules, {**table, "wins": [{k: v for k, v in win.items() if k != "rules"}]})


def deltas(rules: Rules, w: Mapping[str, Any], **table: Any) -> tuple[int, ...]:
    return tuple(win(rules, w, **table).deltas)


def hand(rules: Rules, w: Mapping[str, Any], **table: Any) -> tuple[object, ...]:
    """A win's value and yaku."""
    r = win(rules, w, **table).results[0].score
    return (r.han, r.fu, r.base_points, r.limit, tuple((y.id, y.han) for y in r.yaku))


def fu(rules: Rules, w: Mapping[str, Any]) -> tuple[object, ...]:
    """A win's fu breakdown."""
    return tuple(win(rules, w).results[0].score.fu_breakdown)


def liable(rules: Rules, w: Mapping[str, Any]) -> tuple[tuple[str, int], ...]:
    return tuple((p.yaku, p.seat) for p in win(rules, w).results[0].pao)


def payments(rules: Rules, w: Mapping[str, Any], **table: Any) -> tuple[object, ...]:
    return tuple((p.payer, p.receiver, p.points, p.kind.value) for p in win(rules, w, **table).payments)


def each(*outcomes: Callable[[Rules], object]) -> Callable[[Rules], object]:
    """One outcome of several: each refused or not on its own."""

    def outcome(rules: Rules) -> object:
        out = []
        for f in outcomes:
            try:
                out.append(f(rules))
            except TenbouError as e:
                out.append(("refused", e.code))
        return tuple(out)

    return outcome


def round_after(rules: Rules, hands: list[str], script: str, **start_kw: Any) -> Round:
    rnd = Round(rules, start(hands, **start_kw))
    events(rnd, script)
    return rnd


def round_result(rules: Rules, hands: list[str], script: str) -> tuple[object, ...]:
    st = play(hands, script, rules).result
    assert st is not None
    return (st.settlement.deltas, tuple((p.yaku, p.seat) for r in st.settlement.results for p in r.pao))


def game_after(rules: Rules, ends: Sequence[Callable[[int], dict[str, Any]]], players: int = 4) -> Game:
    """A game of hands' ends recorded one by one (as a score sheet does), each made for the dealer
    of its hand, until the ends run out or the game ends."""
    g = Game(rules, players)
    for end in ends:
        if g.ended:
            break
        wind, _, honba, sticks, dealer, _ = g.expected_start()
        req = {
            "players": players,
            "dealer": dealer,
            "round_wind": wind.value,
            "honba": honba,
            "riichi_sticks": sticks,
            **end(dealer),
        }
        g.record_settlement(settle_request(req, rules=rules), req)
    return g


def noten(dealer: int) -> dict[str, Any]:
    return {"draw": {"kind": "exhaustive", "tenpai": []}}


def dealer_tenpai(dealer: int) -> dict[str, Any]:
    return {"draw": {"kind": "exhaustive", "tenpai": [dealer]}}


def dealer_tsumo(dealer: int) -> dict[str, Any]:
    """The dealer's menzen tsumo (1,300 all with three players or four; no 2m-8m)."""
    return {"wins": [{"winner": dealer, "hand": "111m123p789s23s55s", "win_tile": "4s"}]}


def dealt_in(dealer: int) -> dict[str, Any]:
    """Seat 3 deals a non-dealer's yakuman in (seat 1's daisangen, the liable seat 3's own discard)."""
    return {"wins": [{k: v for k, v in DAISANGEN.items() if k != "rules"} | {"from": 3}]}


def final(g: Game) -> tuple[object, ...]:
    return (
        g.ended,
        g.may_end,
        tuple(g.scores),
        None if g.final is None else (g.final.points, g.final.final_scores),
    )


# -- hands ----------------------------------------------------------------------------------------------

#: riichi pinfu tanyao (a ryanmen on 5p), a ron from seat 2 of seat 1 (a non-dealer)
PINFU = {"winner": 1, "from": 2, "hand": "234m34p234678s55s", "win_tile": "5p", "riichi": True}
#: 4 han 30 fu: PINFU with a dora
KIRIAGE = {**PINFU, "dora_indicators": ["1m"]}


def notated(notation: str, **fields: Any) -> dict[str, Any]:
    """A win's request fields from hand notation (``23m55p +4m pon:555z@2``), with ``fields``."""
    return {**Hand.parse(notation).request_fields(), **fields}


#: one yakuman each, for double_yakuman (tenhou, chiihou and renhou by their flags)
YAKUMAN_HANDS: dict[str, dict[str, Any]] = {
    "kokushi": notated("19m19p19s1234566z +7z", winner=1),
    "kokushi_13": notated("19m19p19s1234567z +1m", winner=1),
    "suuankou": notated("111m222p333s44s55z +4s", winner=1),
    "suuankou_tanki": notated("111m222p333s444s5z +5z", winner=1),
    "daisangen": notated("555z666z777z23m55p +4m", winner=1),
    "shousuushii": notated("111z222z333z44z23m +4m", winner=1),
    "daisuushii": notated("444z5m +5m pon:111z@2 pon:222z@3 pon:333z@2", winner=1, **{"from": 3}),
    "tsuuiisou": notated("2277z +2z pon:111z@2 pon:555z@3 pon:666z@2", winner=1, **{"from": 3}),
    "chinroutou": notated("99p11s +1s pon:111m@2 pon:999m@3 pon:111p@2", winner=1, **{"from": 3}),
    "ryuuiisou": notated("223344666888s6z +6z", winner=1, **{"from": 3}),
    "chuuren": notated("1112245678999m +3m", winner=1),
    "junsei_chuuren": notated("1112345678999m +5m", winner=1),
    "suukantsu": notated("5z +5z kan:1111m@2 kan:2222p@3 kan:3333s@2 kan:4444z@3", winner=1, **{"from": 2}),
    "tenhou": notated("123456789m123p4p +4p", winner=0, tenhou=True),
    "chiihou": notated("123456789m123p4p +4p", winner=1, chiihou=True),
    "renhou_yakuman": notated("123456789m123p4p +4p", winner=1, renhou=True, **{"from": 0}),
    "suurenkou": notated("9p +9p pon:222s@3 pon:333s@0 pon:444s@3 pon:555s@2", winner=1),
    "isshoku_yonjun": notated("9s +9s chi:234p@0 chi:234p@0 chi:234p@0 chi:234p@0", winner=1, **{"from": 2}),
}
#: the call that makes each pao yakuman certain, for pao_yaku
PAO_HANDS: dict[str, dict[str, Any]] = {
    "daisangen": DAISANGEN,
    "daisuushii": notated("5m +5m pon:111z@2 pon:222z@3 pon:333z@2 pon:444z@3", winner=1),
    "suukantsu": SUUKANTSU,
    "suurenkou": YAKUMAN_HANDS["suurenkou"],
    "isshoku_yonjun": YAKUMAN_HANDS["isshoku_yonjun"],
    "tsuuiisou": notated("7z +7z pon:111z@3 pon:555z@2 pon:333z@0 pon:444z@2", winner=1),
    "chinroutou": notated("1p +1p pon:111m@3 pon:999p@2 pon:111s@0 pon:999m@3", winner=1),
    "ryuuiisou": notated("4s +4s chi:234s@0 pon:666s@3 pon:888s@2 pon:666z@3", winner=1),
}
#: three rons on seat 0's 5p (riichi each)
TRIPLE = [
    PINFU | {"from": 0},
    {"winner": 2, "from": 0, "hand": "567m34p567s456m99s", "win_tile": "5p", "riichi": True},
    {"winner": 3, "from": 0, "hand": "789m34p789s345s22z", "win_tile": "5p", "riichi": True},
]
#: a three-player riichi tsumo of seat 1
SANMA = {"winner": 1, "hand": "111m123p789s23s55s", "win_tile": "4s", "riichi": True}
#: riichi ippatsu with a red five and an ura dora, for chips
#: (three red fives, two ura dora, ippatsu: each counted apart)
CHIPS = {
    **PINFU,
    "hand": "340m34p234678s50s",
    "win_tile": "0p",
    "ippatsu": True,
    "dora_indicators": ["9m"],
    "ura_indicators": ["4s"],
}

# -- round scripts ----------------------------------------------------------------------------------------

#: seat 1 chis 3m with 45m from the dealer; it holds 3m (the called kind) and 6m (the other end)
KUIKAE = ["3m123456789p123s", "3456m1234567z19s", "147m258p369s1234z", "258m147p258s5699m"]
#: the dealer kans 7z in secret; seat 1's kokushi waits on 7z
ANKAN = ["777z123456789m1p", "19m19p19s1234566z", "2345m2345p2345s1z", "678m678p678s9s222z"]
#: the dealer has ten kinds of terminals and honours on the first draw
KYUUSHU = ["19m19p19s1234z234m", "2345m2345p2345s5z", "6789m6789p6789s6z", "5678m5678p5678s7z"]
#: everyone discards East on the first go-around
WINDS = ["1z123456789m123p", "1z123456789p123s", "1z123456789s123m", "1z456m456p456s789s"]
#: four tenpai hands, each declaring riichi on a drawn honour
RIICHI = ["123m456m789m123p4p", "123s456s789s123p5p", "123m456s789p11z22z", "789m123s456p33z44z"]
RIICHI_SCRIPT = "0t5z 0r 0d5z 0R 1t6z 1r 1d6z 1R 2t7z 2r 2d7z 2R 3t5z 3r 3d5z"
#: the dealer kans twice, then seat 1 twice
KANS = ["1111m2222m3456p9s", "3333m4444m3456s9p", "69m679p159s12345z", "678m678p678s1567z"]
KANS_SCRIPT = "0t7z 0a1m 0t7z 0a2m 0t6z 0d6z 1t6z 1a3m 1t5z 1a4m 1t9s 1d9s"


def _check(rnd: Round, event: Any) -> tuple[str, ...]:
    return tuple(rnd.check(event))


def _kan_dora_after(rules: Rules) -> object:
    """The event the self-play table plays after the first daiminkan: the kan dora, or the
    replacement draw (the dora then comes after the kan player's discard)."""
    table = play_stacked(rules, 0, Stacked(0, {1: "777z", 2: "7z"}), riichi=False)
    i = next(i for i, ev in enumerate(table.events) if isinstance(ev, Daiminkan))
    return type(table.events[i + 1]).__name__


# -- every option ---------------------------------------------------------------------------------------

#: the base rules of the pao cases: every pao yakuman of PAO_HANDS can occur
PAO_BASE = TENHOU.replace(local_yaku=frozenset(LOCAL_YAKU), pao_yaku=frozenset())
YAKUMAN_BASE = PAO_BASE.replace(
    double_yakuman=frozenset(), yakuman_stacking=True, yakuman_cap=0, renhou="yakuman"
)
GAME_BASE = TENHOU.replace(length="tonpuu", west_round=False, agari_yame=False, tenpai_yame="never")

CASES: dict[str, Acts] = {
    "players": acts(
        Case(
            "a draw: the default player count; 3 and 4 asked for",
            TENHOU,
            each(
                lambda r: len(settled(r, {"draw": {"kind": "exhaustive", "tenpai": [0]}}).deltas),
                lambda r: len(settled(r, {"players": 3, "draw": {"kind": "exhaustive"}}).deltas),
                lambda r: len(settled(r, {"players": 4, "draw": {"kind": "exhaustive"}}).deltas),
            ),
        )
    ),
    "red_fives": acts(
        Case(
            "one red 5p, then two",
            TENHOU,
            each(
                lambda r: hand(r, {**PINFU, "win_tile": "0p"}),
                lambda r: hand(r, {**PINFU, "hand": "234m234p678s34s00p", "win_tile": "5s"}),
            ),
        )
    ),
    "open_tanyao": acts(
        Case(
            "an open tanyao",
            TENHOU,
            lambda r: hand(
                r,
                {
                    "winner": 1,
                    "from": 2,
                    "hand": "234m34p234s55s",
                    "win_tile": "5p",
                    "melds": [{"type": "chi", "tiles": "678s", "from": 0}],
                },
            ),
        )
    ),
    "double_wind_pair_fu": acts(
        Case(
            "the dealer's East pair in the East round",
            TENHOU,
            lambda r: fu(
                r, {"winner": 0, "from": 2, "hand": "234m456p678s23s11z", "win_tile": "4s", "riichi": True}
            ),
        )
    ),
    "rinshan_tsumo_fu": acts(Case("a rinshan tsumo", TENHOU, lambda r: fu(r, RINSHAN_HATSU))),
    "kazoe": acts(
        Case(
            "13 han without a yakuman",
            TENHOU,
            lambda r: hand(
                r,
                {
                    "winner": 1,
                    "hand": "2233445566778m",
                    "win_tile": "8m",
                    "riichi": True,
                    "dora_indicators": ["7m"],
                },
            ),
        )
    ),
    "kiriage": acts(Case("4 han 30 fu", TENHOU, lambda r: hand(r, KIRIAGE))),
    "kiriage_dealer_only": acts(
        Case(
            "4 han 30 fu, a non-dealer's and the dealer's",
            TENHOU.replace(kiriage=True),
            each(lambda r: hand(r, KIRIAGE), lambda r: hand(r, KIRIAGE, dealer=1)),
        )
    ),
    "double_yakuman": acts(
        Case(
            "one hand of each yakuman",
            YAKUMAN_BASE,
            each(*(lambda r, w=w: hand(r, w) for w in YAKUMAN_HANDS.values())),
        )
    ),
    "yakuman_stacking": acts(
        Case(
            "daisangen and tsuuiisou",
            YAKUMAN_BASE.replace(yakuman_stacking=False),
            lambda r: hand(r, {"winner": 1, "from": 3, "hand": "555z666z777z11z22z", "win_tile": "1z"}),
        )
    ),
    "yakuman_cap": acts(
        Case(
            "daisangen, tsuuiisou and suuankou tanki",
            YAKUMAN_BASE,
            lambda r: hand(r, {"winner": 1, "hand": "555z666z777z111z2z", "win_tile": "2z"}),
        ),
        values=(0, 1, 2),
    ),
    "local_yaku": acts(
        Case(
            "suurenkou, isshoku yonjun",
            TENHOU,
            each(
                lambda r: hand(r, YAKUMAN_HANDS["suurenkou"]),
                lambda r: hand(r, YAKUMAN_HANDS["isshoku_yonjun"]),
            ),
        )
    ),
    "renhou": acts(
        Case(
            "a tanyao ron before the first draw",
            TENHOU,
            lambda r: hand(
                r,
                {"winner": 1, "from": 0, "hand": "234m456m678p234s5s", "win_tile": "5s", "renhou": True},
            ),
        )
    ),
    "ippatsu": acts(Case("riichi ippatsu", TENHOU, lambda r: hand(r, {**PINFU, "ippatsu": True}))),
    "ura_dora": acts(
        Case(
            "a riichi winner's ura indicator",
            TENHOU,
            lambda r: hand(r, {**PINFU, "dora_indicators": ["9m"], "ura_indicators": ["1m"]}),
        )
    ),
    "nukidora": acts(
        Case("a North set aside, three players", TENHOU, lambda r: hand(r, {**SANMA, "kita": 1}, players=3))
    ),
    "north_yakuhai": acts(
        Case(
            "an open North pon, three players",
            TENHOU.replace(nukidora=False),
            lambda r: hand(
                r,
                {
                    "winner": 1,
                    "from": 2,
                    "hand": "123p789s23s55s",
                    "win_tile": "4s",
                    "melds": [{"type": "pon", "tiles": "444z", "from": 2}],
                },
                players=3,
            ),
        )
    ),
    "honba_unit": acts(
        Case("a ron with 2 honba", TENHOU, lambda r: deltas(r, PINFU, honba=2)), values=(0, 100, 300)
    ),
    "riichi_stick_points": acts(
        Case("a ron with 2 sticks on the table", TENHOU, lambda r: deltas(r, PINFU, riichi_sticks=2)),
        values=(0, 1000, 1500),
    ),
    "sanma_tsumo": acts(Case("a three-player tsumo", TENHOU, lambda r: deltas(r, SANMA, players=3))),
    "pao_yaku": acts(
        Case(
            "the call that made each pao yakuman certain",
            PAO_BASE,
            each(*(lambda r, w=w: liable(r, w) for w in PAO_HANDS.values())),
        )
    ),
    "pao_scope": acts(
        Case("daisuushii (pao) and tsuuiisou, a tsumo", TENHOU, lambda r: deltas(r, DAISUUSHII_TSUUIISOU))
    ),
    "pao_honba": acts(
        Case(
            "daisangen pao: a ron by another, 2 honba",
            TENHOU,
            lambda r: payments(r, {**DAISANGEN, "from": 2}, honba=2),
        ),
        Case("daisangen pao: a tsumo, 2 honba", TENHOU, lambda r: payments(r, DAISANGEN, honba=2)),
        Case(
            "daisuushii (pao) and tsuuiisou (not): a tsumo, 2 honba",
            TENHOU.replace(pao_scope="pao_yakuman_only"),
            lambda r: payments(r, DAISUUSHII_TSUUIISOU, honba=2),
        ),
    ),
    "suukantsu_pao_timing": acts(
        Case(
            "the fourth kan's daiminkan, and a suukantsu win after it",
            RON2,
            each(
                lambda r: deltas(r, {k: v for k, v in FOURTH_KAN.items() if k != "rules"}),
                lambda r: liable(r, SUUKANTSU),
            ),
        )
    ),
    "daiminkan_pao": acts(
        Case("a rinshan win after a daiminkan", TENHOU, lambda r: deltas(r, RINSHAN_HATSU))
    ),
    "daiminkan_pao_chain": acts(
        Case(
            "a daiminkan, an ankan, then the rinshan win (events)",
            RON2,
            lambda r: round_result(r, RINSHAN, "0t9m 0d9m 1t8s 1d8s 2t8m 2d3s 1k3s 1t7z 1a7z D1z 1t1p 1h"),
        )
    ),
    "multiple_ron": acts(
        Case(
            "three rons on one discard",
            TENHOU,
            lambda r: ((st := settled(r, {"wins": TRIPLE})).kind, st.deltas, st.skipped, st.reason),
        )
    ),
    "multiple_ron_honba": acts(
        Case(
            "a double ron with 1 honba",
            TENHOU,
            lambda r: settled(r, {"honba": 1, "wins": TRIPLE[:2]}).deltas,
        )
    ),
    "nagashi_mangan": acts(
        Case(
            "seat 1's nagashi, 1 honba and a stick",
            TENHOU,
            lambda r: (
                (
                    st := settled(
                        r,
                        {
                            "honba": 1,
                            "riichi_sticks": 1,
                            "draw": {"kind": "exhaustive", "tenpai": [2], "nagashi": [1]},
                        },
                    )
                ).deltas,
                st.next,
            ),
        )
    ),
    "noten_penalty": acts(
        Case(
            "one tenpai",
            TENHOU,
            lambda r: settled(r, {"draw": {"kind": "exhaustive", "tenpai": [0]}}).deltas,
        ),
        values=(0, 1000, 3000),
    ),
    "sanma_noten_penalty": acts(
        Case(
            "one tenpai, three players",
            TENHOU,
            lambda r: settled(r, {"players": 3, "draw": {"kind": "exhaustive", "tenpai": [0]}}).deltas,
        ),
        values=(0, 1000, 2000),
    ),
    "renchan": acts(
        Case(
            "the dealer tenpai at a draw",
            TENHOU,
            lambda r: settled(r, {"draw": {"kind": "exhaustive", "tenpai": [0]}}).next,
        )
    ),
    "abortive_renchan": acts(
        Case(
            "an abortive draw",
            TENHOU,
            lambda r: settled(r, {"draw": {"kind": "abortive", "reason": "suufon_renda"}}).next,
        )
    ),
    "wareme": acts(
        Case("seat 2's wareme", TENHOU, lambda r: settled(r, {"wareme": 2, "wins": [PINFU]}).deltas)
    ),
    "chips": acts(
        Case(
            "a riichi ippatsu with a red five and an ura dora; a yakuman",
            TENHOU,
            each(lambda r: win(r, CHIPS).chips, lambda r: win(r, YAKUMAN_HANDS["suuankou_tanki"]).chips),
        )
    ),
    "kan_dora": acts(
        Case(
            "an indicator after an ankan (events)",
            TENHOU,
            lambda r: _check(round_after(r, ANKAN, "0t7z 0a7z 0t3p"), Dora(Tile.parse("3s"))),
        )
    ),
    "kan_dora_timing": acts(Case("the self-play table after a daiminkan", TENHOU, _kan_dora_after)),
    "kuikae": acts(
        Case(
            "after a chi of 3m with 45m: discard 3m, discard 6m (events)",
            TENHOU,
            lambda r: (
                _check(rnd := round_after(r, KUIKAE, "0t9s 0d3m 1c3m45m"), Dahai(1, Tile.parse("3m"), False)),
                _check(rnd, Dahai(1, Tile.parse("6m"), False)),
            ),
        )
    ),
    "kokushi_ankan_chankan": acts(
        Case(
            "kokushi on the tile of an ankan (events)",
            TENHOU,
            lambda r: [a for a in round_after(r, ANKAN, "0t7z 0a7z").legal_actions(1) if isinstance(a, Hora)],
        )
    ),
    "abortive_draws": acts(
        Case(
            "nine terminals (events)",
            TENHOU,
            lambda r: _check(round_after(r, KYUUSHU, "0t5z"), Ryukyoku(reason="kyushukyuhai")),
        ),
        Case(
            "four winds (events)",
            TENHOU,
            lambda r: _check(
                round_after(r, WINDS, "0t5z 0d1z 1t5z 1d1z 2t5z 2d1z 3t6z 3d1z"),
                Ryukyoku(reason="suufonrenda"),
            ),
        ),
        Case(
            "four riichi (events)",
            TENHOU,
            lambda r: _check(round_after(r, RIICHI, RIICHI_SCRIPT), Ryukyoku(reason="suuchariichi")),
        ),
        Case(
            "four kans by two players (events)",
            TENHOU,
            lambda r: _check(round_after(r, KANS, KANS_SCRIPT), Ryukyoku(reason="suukaikan")),
        ),
    ),
    "riichi_min_points": acts(
        Case(
            "riichi with 500 points, with 25,000 (events)",
            TENHOU,
            lambda r: (
                _check(round_after(r, RIICHI, "0t5z", scores=(500, 25000, 25000, 25000)), Reach(0)),
                _check(round_after(r, RIICHI, "0t5z"), Reach(0)),
            ),
        ),
        values=(0, 1000, 30000),
    ),
    "daiminkan_pao_furiten": acts(
        Case(
            "a rinshan win on a daiminkan of a tile the caller was furiten on (events)",
            RON2,
            lambda r: round_result(r, FURITEN, "0t9m 0d9m 1t5s 1d5s 2t8m 2d3s 1k3s 1t8s 1h"),
        )
    ),
    "length": acts(
        Case("five hands the dealer loses", GAME_BASE, lambda r: final(game_after(r, [noten] * 5)))
    ),
    "start_points": acts(
        Case("a draw", GAME_BASE, lambda r: final(game_after(r, [noten]))), values=(25000, 30000)
    ),
    "return_points": acts(
        Case("a tonpuu of draws", GAME_BASE, lambda r: final(game_after(r, [noten] * 4))),
        values=(25000, 30000),
    ),
    "uma": acts(
        Case(
            "a tonpuu: seat 3 deals in, then draws",
            GAME_BASE,
            lambda r: final(game_after(r, [dealt_in, noten, noten, noten])),
        ),
        values=([20, 10, -10, -20], [30, 10, -10, -30]),
    ),
    "sanma_start_points": acts(
        Case("a three-player draw", GAME_BASE, lambda r: final(game_after(r, [noten], 3))),
        values=(35000, 40000),
    ),
    "sanma_return_points": acts(
        Case("a three-player tonpuu of draws", GAME_BASE, lambda r: final(game_after(r, [noten] * 3, 3))),
        values=(35000, 40000),
    ),
    "sanma_uma": acts(
        Case(
            "a three-player tonpuu: a dealer's win, then draws",
            GAME_BASE,
            lambda r: final(game_after(r, [dealer_tsumo, noten, noten, noten], 3)),
        ),
        values=([20, 0, -20], [15, 0, -15]),
    ),
    "tobi": acts(Case("seat 3 deals in 32,000", GAME_BASE, lambda r: final(game_after(r, [dealt_in])))),
    "west_round": acts(
        Case("a tonpuu of draws, nobody at 30,000", GAME_BASE, lambda r: final(game_after(r, [noten] * 4)))
    ),
    "agari_yame": acts(
        Case(
            "the last dealer wins and is first",
            GAME_BASE,
            lambda r: final(game_after(r, [noten] * 3 + [dealer_tsumo])),
        )
    ),
    "tenpai_yame": acts(
        Case(
            "the last dealer alone tenpai and first",
            GAME_BASE,
            lambda r: final(game_after(r, [noten] * 3 + [dealer_tenpai])),
        )
    ),
    "leftover_sticks": acts(
        Case("a tonpuu ending with a stick on the table", GAME_BASE, lambda r: final(_with_stick(r)))
    ),
    "chombo": acts(
        Case(
            "seat 3's chombo, seat 1 dealing, seat 0's riichi stick given back; its final score",
            TENHOU,
            lambda r: (settle_chombo(r, 4, 1, 2, 1, 3, [0]).deltas, chombo_penalties(r, [0, 0, 0, 1])),
        )
    ),
    "chombo_points": acts(
        Case("two chombos by seat 1 in a game", TENHOU, lambda r: chombo_penalties(r, [0, 2, 0, 0])),
        values=(0, 8000, 20000),
    ),
}


def _with_stick(rules: Rules) -> Game:
    """A tonpuu of draws whose last hand has a riichi: its stick is left on the table at the end."""
    g = game_after(rules, [noten] * 3)
    wind, _, honba, sticks, dealer, _ = g.expected_start()
    req = {
        "dealer": dealer,
        "round_wind": wind.value,
        "honba": honba,
        "riichi_sticks": sticks + 1,
        "draw": {"kind": "exhaustive", "tenpai": [1]},
    }
    g.record_settlement(settle_request(req, rules=rules), req, riichi=[1])
    return g


def test_every_option_has_a_case() -> None:
    missing = [name for name in OPTION_SPECS if name not in CASES]
    assert not missing, f"options without a case that shows them acting: {missing}"
    assert not set(CASES) - set(OPTION_SPECS), "a case for an option that does not exist"


def inert(name: str, acts: Acts) -> list[str]:
    """Each pair of values of the option that no case of ``acts`` tells apart."""
    outcomes = [(v, tuple(_outcome(case, name, v) for case in acts.cases)) for v in values_of(name, acts)]
    return [
        f"{name}: {a!r} and {b!r} give the same outcome in every case "
        f"({[c.what for c in acts.cases]}): {got!r}"
        for (a, got), (b, other) in itertools.combinations(outcomes, 2)
        if got == other
    ]


@pytest.mark.parametrize("name", list(OPTION_SPECS))
def test_every_value_acts(name: str) -> None:
    acts = CASES.get(name)
    if acts is None:
        pytest.fail(f"{name}: no case shows the option acting (add one to CASES)")
    assert inert(name, acts) == []


def test_an_inert_case_is_caught() -> None:
    """The check is no formality: a case blind to the option (as kiriage_dealer_only's would have
    been before it acted: a non-dealer's 4 han 30 fu under kiriage) reports the values it cannot
    tell apart, and so does a case that sees only some of the values."""
    blind = acts(Case("a pinfu ron, no dora", TENHOU, lambda r: hand(r, PINFU)))
    assert len(inert("kiriage", blind)) == 1
    some = acts(
        Case("a draw", TENHOU, lambda r: settled(r, {"draw": {"kind": "exhaustive", "tenpai": [0]}}).deltas)
    )
    assert inert("pao_honba", some) and inert("noten_penalty", Acts(some.cases, values=(0, 1000))) == []
