"""Deterministic generator of random *valid* winning hands as ``tenbou score`` requests.

Used by the differential test against the ``mahjong`` package (``tests/test_differential.py``)
and by ``benchmarks/bench_score.py``. Every hand is a legal Tenhou situation:

- at most four copies of a kind across the hand, the melds, the winning tile and the dora/ura
  indicators; red fives as in Tenhou (``red_fives=3``): at most one red five per suit, so at most
  three plain fives of a suit are ever in sight, and a kan of fives holds the red one;
- a chi is called from the winner's left seat ``(winner - 1) % 4``; pon, daiminkan and the pon under
  a kakan from any other seat; nothing from the winner's own seat; a ron comes from another seat;
- riichi, double riichi and ura indicators only on a closed hand (ankan allowed), ippatsu only with
  riichi (never with rinshan: one's own kan ends ippatsu), rinshan only on a tsumo with a kan (the
  kan is the last call), haitei only on a non-rinshan tsumo, houtei and chankan only on a ron and
  never together, chankan only when no other copy of the winning kind is in sight (the other three
  are in the robbed kan), tenhou/chiihou only on a closed first-draw tsumo without riichi;
- one dora indicator plus one per kan, and as many ura indicators for a riichi winner;
  riichi sticks include the winner's own stick.

Hands without yaku are produced on purpose (family ``noyaku``, and many ``random`` hands); the
family label says what the hand was built to be, not what it scores -- both engines decide.

>>> reqs = generate(7, 3)
>>> len(reqs), all(r["rules"] == "tenhou" for r in reqs)
(3, True)
>>> generate(7, 3) == reqs
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "FAMILIES",
    "HandConfigKwargs",
    "MahjongInputs",
    "generate",
    "generate_labelled",
    "parse_mpsz",
    "tenhou_options",
    "to_mahjong",
]

RUN = "run"
TRIP = "trip"
HONORS = tuple(range(27, 34))
WIND_KINDS = (27, 28, 29, 30)
DRAGON_KINDS = (31, 32, 33)
TERMINALS = (0, 8, 9, 17, 18, 26)
YAOCHUU = (*TERMINALS, *HONORS)
GREEN = (19, 20, 21, 23, 25, 32)  # 2s 3s 4s 6s 8s hatsu
FIVES = (4, 13, 22)
SUIT_LETTERS = "mpsz"

# (kind, red) -- one physical tile
Tile = tuple[int, bool]
SetSpec = tuple[str, int]  # (RUN | TRIP, lowest kind)


# -- notation ----------------------------------------------------------------------------------


def _text(tiles: list[Tile]) -> str:
    """mpsz text, sorted by kind, consecutive tiles of a suit sharing a letter."""
    out: list[str] = []
    last = ""
    for kind, red in sorted(tiles, key=lambda t: (t[0], not t[1])):
        suit = SUIT_LETTERS[kind // 9]
        if out and suit != last:
            out.append(last)
        out.append("0" if red else str(kind % 9 + 1))
        last = suit
    if out:
        out.append(last)
    return "".join(out)


def parse_mpsz(text: str) -> list[Tile]:
    """Tiles of mpsz text as ``(kind, red)`` pairs (independent of tenbou's parser).

    >>> parse_mpsz("40m7z")
    [(3, False), (4, True), (33, False)]
    """
    out: list[Tile] = []
    digits: list[str] = []
    for ch in text:
        if ch.isdigit():
            digits.append(ch)
            continue
        base = SUIT_LETTERS.index(ch) * 9
        for d in digits:
            out.append((base + 4, True) if d == "0" else (base + int(d) - 1, False))
        digits.clear()
    if digits:
        raise ValueError(f"digits without a suit letter in {text!r}")
    return out


# -- building blocks ---------------------------------------------------------------------------


def _set_kinds(s: SetSpec) -> list[int]:
    kind, k = s
    return [k, k + 1, k + 2] if kind == RUN else [k, k, k]


def _run(
    rng: random.Random, suits: tuple[int, ...] = (0, 1, 2), starts: tuple[int, ...] = tuple(range(7))
) -> SetSpec:
    return (RUN, 9 * rng.choice(suits) + rng.choice(starts))


def _trip(rng: random.Random, kinds: tuple[int, ...] | range = range(34)) -> SetSpec:
    return (TRIP, rng.choice(tuple(kinds)))


def _any_set(rng: random.Random, run_p: float = 0.55) -> SetSpec:
    return _run(rng) if rng.random() < run_p else _trip(rng)


def _suit_set(rng: random.Random, suit: int, run_p: float = 0.6) -> SetSpec:
    if rng.random() < run_p:
        return (RUN, 9 * suit + rng.randrange(7))
    return (TRIP, 9 * suit + rng.randrange(9))


@dataclass
class _Plan:
    """A hand before tiles are made physical: sets and pair (standard form) or 14 kinds."""

    sets: list[SetSpec] = field(default_factory=list)
    pair: int = -1
    kinds14: list[int] | None = None  # chiitoitsu / kokushi / chuuren: the 14 concealed kinds
    open_mode: str = "any"  # closed | open | any
    kan_rate: float = 0.06  # chance that a possible kan is made
    force_kans: int = 0  # at least this many kans
    closed_trips: int = 0  # the first n sets (triplets) must stay concealed (no call, ankan allowed)
    win: str = "any"  # any | pair | trip | run_edge | run
    tsumo: bool | None = None
    situ: dict[str, Any] = field(default_factory=dict)  # forced situation fields
    no_situational: bool = False  # no riichi/haitei/houtei/rinshan/chankan/ippatsu (no-yaku tests)
    wrong_win: bool = False  # swap the winning tile for another kind: usually not a winning hand


def _counts_ok(plan: _Plan) -> bool:
    c = [0] * 34
    for s in plan.sets:
        for k in _set_kinds(s):
            c[k] += 1
    if plan.pair >= 0:
        c[plan.pair] += 2
    if plan.kinds14 is not None:
        for k in plan.kinds14:
            c[k] += 1
    return max(c) <= 4


# -- families ----------------------------------------------------------------------------------


def _fam_random(rng: random.Random) -> _Plan:
    return _Plan([_any_set(rng) for _ in range(4)], rng.randrange(34))


def _fam_pinfu(rng: random.Random) -> _Plan:
    sets = [_run(rng) for _ in range(4)]
    pair = rng.randrange(27) if rng.random() < 0.8 else rng.choice(HONORS)
    return _Plan(sets, pair, open_mode="closed" if rng.random() < 0.85 else "open", win="run_edge")


def _fam_tanyao(rng: random.Random) -> _Plan:
    sets: list[SetSpec] = []
    for _ in range(4):
        if rng.random() < 0.6:
            sets.append((RUN, 9 * rng.randrange(3) + rng.randrange(1, 6)))
        else:
            sets.append((TRIP, 9 * rng.randrange(3) + rng.randrange(1, 8)))
    return _Plan(sets, 9 * rng.randrange(3) + rng.randrange(1, 8))


def _fam_yakuhai(rng: random.Random) -> _Plan:
    n = rng.choice((1, 1, 2, 2, 3))
    honors = rng.sample(HONORS, n)
    sets = [(TRIP, k) for k in honors] + [_any_set(rng) for _ in range(4 - n)]
    rng.shuffle(sets)
    pair = rng.choice(HONORS) if rng.random() < 0.4 else rng.randrange(27)
    return _Plan(sets, pair, open_mode="open" if rng.random() < 0.7 else "any")


def _fam_shousangen(rng: random.Random) -> _Plan:
    d = list(DRAGON_KINDS)
    rng.shuffle(d)
    sets = [(TRIP, d[0]), (TRIP, d[1]), _any_set(rng), _any_set(rng)]
    return _Plan(sets, d[2])


def _fam_honitsu(rng: random.Random) -> _Plan:
    suit = rng.randrange(3)
    n_honor = rng.choice((1, 1, 2, 3))
    sets: list[SetSpec] = [(TRIP, k) for k in rng.sample(HONORS, n_honor)]
    sets += [_suit_set(rng, suit) for _ in range(4 - n_honor)]
    pair = rng.choice(HONORS) if rng.random() < 0.3 else 9 * suit + rng.randrange(9)
    return _Plan(sets, pair, open_mode="open" if rng.random() < 0.5 else "any")


def _fam_chinitsu(rng: random.Random) -> _Plan:
    suit = rng.randrange(3)
    sets = [_suit_set(rng, suit, 0.65) for _ in range(4)]
    return _Plan(sets, 9 * suit + rng.randrange(9), open_mode="open" if rng.random() < 0.4 else "any")


def _fam_toitoi(rng: random.Random) -> _Plan:
    kinds = rng.sample(range(34), 4)
    pair = rng.randrange(34)
    return _Plan(
        [(TRIP, k) for k in kinds], pair, open_mode="open" if rng.random() < 0.7 else "any", kan_rate=0.12
    )


def _fam_sanankou(rng: random.Random) -> _Plan:
    kinds = rng.sample(range(34), 3)
    sets = [(TRIP, k) for k in kinds] + [_any_set(rng)]
    win = rng.choice(("any", "trip", "pair"))
    return _Plan(sets, rng.randrange(34), closed_trips=3, win=win, kan_rate=0.1)


def _outside_set(rng: random.Random, honors: bool) -> SetSpec:
    if rng.random() < 0.55:
        return (RUN, 9 * rng.randrange(3) + rng.choice((0, 6)))
    return (TRIP, rng.choice(YAOCHUU if honors else TERMINALS))


def _fam_chanta(rng: random.Random) -> _Plan:
    sets = [_outside_set(rng, True) for _ in range(4)]
    if all(s[0] == TRIP for s in sets):
        sets[0] = (RUN, 9 * rng.randrange(3) + rng.choice((0, 6)))
    return _Plan(sets, rng.choice(YAOCHUU))


def _fam_junchan(rng: random.Random) -> _Plan:
    sets = [_outside_set(rng, False) for _ in range(4)]
    if all(s[0] == TRIP for s in sets):
        sets[0] = (RUN, 9 * rng.randrange(3) + rng.choice((0, 6)))
    return _Plan(sets, rng.choice(TERMINALS))


def _fam_ittsu(rng: random.Random) -> _Plan:
    suit = rng.randrange(3)
    sets = [(RUN, 9 * suit), (RUN, 9 * suit + 3), (RUN, 9 * suit + 6), _any_set(rng)]
    return _Plan(sets, rng.randrange(34))


def _fam_sanshoku(rng: random.Random) -> _Plan:
    n = rng.randrange(7)
    sets = [(RUN, n), (RUN, n + 9), (RUN, n + 18), _any_set(rng)]
    return _Plan(sets, rng.randrange(34))


def _fam_doukou(rng: random.Random) -> _Plan:
    n = rng.randrange(9)
    sets = [(TRIP, n), (TRIP, n + 9), (TRIP, n + 18), _any_set(rng)]
    return _Plan(sets, rng.randrange(34))


def _fam_ryanpeikou(rng: random.Random) -> _Plan:
    a, b = _run(rng), _run(rng)
    return _Plan([a, a, b, b], rng.randrange(34), open_mode="closed")


def _fam_chiitoitsu(rng: random.Random) -> _Plan:
    style = rng.choice(("any", "any", "tanyao", "honroutou", "honitsu", "chinitsu"))
    if style == "tanyao":
        pool = [9 * s + n for s in range(3) for n in range(1, 8)]
    elif style == "honroutou":
        pool = list(YAOCHUU)
    elif style == "honitsu":
        suit = rng.randrange(3)
        pool = [9 * suit + n for n in range(9)] + list(HONORS)
    elif style == "chinitsu":
        suit = rng.randrange(3)
        pool = [9 * suit + n for n in range(9)]
    else:
        pool = list(range(34))
    kinds = rng.sample(pool, 7)
    return _Plan(kinds14=[k for k in kinds for _ in range(2)])


def _fam_multi(rng: random.Random) -> _Plan:
    """Shapes with several readings (triplets vs runs, shared tiles, identical runs)."""
    suit = rng.randrange(3)
    base = 9 * suit
    shape = rng.randrange(5)
    if shape == 0:  # 111222333: three triplets or three identical runs
        n = rng.randrange(7)
        sets: list[SetSpec] = [(TRIP, base + n), (TRIP, base + n + 1), (TRIP, base + n + 2), _any_set(rng)]
        pair = rng.randrange(34)
    elif shape == 1:  # 44456 / 45666: a triplet sharing the winning kind with a run
        n = rng.randrange(7)
        sets = [(TRIP, base + n), (RUN, base + n), _any_set(rng), _any_set(rng)]
        pair = rng.randrange(34)
    elif shape == 2:  # 2223444 / 1123 style: run plus pair of an adjacent kind
        n = rng.randrange(7)
        sets = [(RUN, base + n), (RUN, base + min(n + 1, 6)), _any_set(rng), _any_set(rng)]
        pair = base + n + rng.randrange(3)
    elif shape == 3:  # three identical runs
        n = rng.randrange(7)
        sets = [(RUN, base + n)] * 3 + [_any_set(rng)]
        pair = rng.randrange(34)
    else:  # chinitsu-like cluster
        n = rng.randrange(5)
        sets = [
            (RUN, base + n),
            (RUN, base + n + 1),
            (RUN, base + n + 2),
            (TRIP, base + n + rng.randrange(5)),
        ]
        pair = base + rng.randrange(9)
    return _Plan(sets, pair, open_mode=rng.choice(("closed", "closed", "any")))


def _fam_kans(rng: random.Random) -> _Plan:
    n = rng.choice((1, 2, 2, 3, 3, 4))
    kinds = rng.sample(range(34), n)
    sets = [(TRIP, k) for k in kinds] + [_any_set(rng) for _ in range(4 - n)]
    rng.shuffle(sets)
    tsumo = rng.random() < 0.7
    return _Plan(
        sets, rng.randrange(34), force_kans=n, tsumo=tsumo, situ={"rinshan": tsumo and rng.random() < 0.6}
    )


def _fam_noyaku(rng: random.Random) -> _Plan:
    """Open (or closed, ron) hands built to lack yaku: no value triplet, a terminal somewhere."""
    sets: list[SetSpec] = []
    for _ in range(4):
        r = rng.random()
        if r < 0.6:
            sets.append(_run(rng))
        elif r < 0.9:
            sets.append((TRIP, rng.randrange(27)))
        else:
            sets.append((TRIP, rng.choice(WIND_KINDS)))  # a wind: guest unless it is a seat/round wind
    pair = rng.randrange(27) if rng.random() < 0.8 else rng.choice(HONORS)
    closed = rng.random() < 0.3
    return _Plan(
        sets, pair, open_mode="closed" if closed else "open", tsumo=False, no_situational=True, kan_rate=0.03
    )


def _fam_fu(rng: random.Random) -> _Plan:
    """Cheap hands with many fu: one value triplet, terminal/honour triplets and kans, awkward waits."""
    sets: list[SetSpec] = [(TRIP, rng.choice(DRAGON_KINDS))]
    for _ in range(3):
        r = rng.random()
        if r < 0.6:
            sets.append((TRIP, rng.choice((*TERMINALS, *WIND_KINDS))))
        elif r < 0.8:
            sets.append((TRIP, rng.randrange(27)))
        else:
            sets.append(_run(rng, starts=(0, 6)))
    rng.shuffle(sets)
    pair = rng.randrange(34)
    mode = rng.choice(("closed", "open", "any"))
    return _Plan(
        sets, pair, open_mode=mode, kan_rate=0.3, win=rng.choice(("any", "pair", "run")), no_situational=True
    )


def _fam_honroutou(rng: random.Random) -> _Plan:
    kinds = rng.sample(YAOCHUU, 5)
    return _Plan([(TRIP, k) for k in kinds[:4]], kinds[4])


def _fam_daisangen(rng: random.Random) -> _Plan:
    sets = [(TRIP, 31), (TRIP, 32), (TRIP, 33), _any_set(rng)]
    rng.shuffle(sets)
    return _Plan(sets, rng.randrange(34), open_mode=rng.choice(("open", "any")))


def _fam_suushii(rng: random.Random) -> _Plan:
    if rng.random() < 0.5:  # shousuushii
        w = list(WIND_KINDS)
        rng.shuffle(w)
        return _Plan([(TRIP, w[0]), (TRIP, w[1]), (TRIP, w[2]), _any_set(rng)], w[3])
    return _Plan([(TRIP, k) for k in WIND_KINDS], rng.randrange(34))


def _fam_tsuuiisou(rng: random.Random) -> _Plan:
    if rng.random() < 0.25:
        return _Plan(kinds14=[k for k in HONORS for _ in range(2)])
    kinds = rng.sample(HONORS, 5)
    return _Plan([(TRIP, k) for k in kinds[:4]], kinds[4])


def _fam_chinroutou(rng: random.Random) -> _Plan:
    kinds = rng.sample(TERMINALS, 5)
    return _Plan([(TRIP, k) for k in kinds[:4]], kinds[4])


def _fam_ryuuiisou(rng: random.Random) -> _Plan:
    sets: list[SetSpec] = []
    for _ in range(4):
        sets.append((RUN, 19) if rng.random() < 0.4 else (TRIP, rng.choice(GREEN)))
    return _Plan(sets, rng.choice(GREEN))


def _fam_suuankou(rng: random.Random) -> _Plan:
    kinds = rng.sample(range(34), 5)
    tsumo = rng.random() < 0.5
    win = rng.choice(("trip", "pair")) if tsumo else rng.choice(("pair", "pair", "trip"))
    return _Plan(
        [(TRIP, k) for k in kinds[:4]],
        kinds[4],
        open_mode="closed",
        closed_trips=4,
        win=win,
        tsumo=tsumo,
        kan_rate=0.12,
    )


def _fam_suukantsu(rng: random.Random) -> _Plan:
    kinds = rng.sample(range(34), 5)
    return _Plan([(TRIP, k) for k in kinds[:4]], kinds[4], force_kans=4, win="pair")


def _fam_chuuren(rng: random.Random) -> _Plan:
    base = 9 * rng.randrange(3)
    kinds = [base] * 3 + [base + n for n in range(1, 8)] + [base + 8] * 3 + [base + rng.randrange(9)]
    return _Plan(kinds14=kinds)


def _fam_kokushi(rng: random.Random) -> _Plan:
    return _Plan(kinds14=[*YAOCHUU, rng.choice(YAOCHUU)])


def _fam_notwinning(rng: random.Random) -> _Plan:
    """Usually not a winning hand: a valid hand whose winning tile was swapped, or seven pairs
    with a quad (four of a kind are not two pairs)."""
    if rng.random() < 0.3:
        kinds = rng.sample(range(34), 6)
        return _Plan(kinds14=[kinds[0]] * 4 + [k for k in kinds[1:] for _ in range(2)])
    plan = rng.choice((_fam_random, _fam_pinfu, _fam_chinitsu, _fam_toitoi))(rng)
    plan.wrong_win = True
    return plan


def _fam_blessing(rng: random.Random) -> _Plan:
    """Tenhou (dealer) or chiihou (non-dealer): a closed first-draw tsumo."""
    inner = rng.choice((_fam_random, _fam_pinfu, _fam_chiitoitsu, _fam_toitoi, _fam_kokushi, _fam_suuankou))
    plan = inner(rng)
    plan.open_mode = "closed"
    plan.kan_rate = 0.0
    plan.closed_trips = 0
    plan.tsumo = True
    plan.situ = {"blessing": True}
    return plan


_FamilyFn = Callable[[random.Random], _Plan]

#: family name -> (builder, weight)
FAMILIES: dict[str, tuple[_FamilyFn, int]] = {
    "random": (_fam_random, 18),
    "pinfu": (_fam_pinfu, 8),
    "tanyao": (_fam_tanyao, 5),
    "yakuhai": (_fam_yakuhai, 7),
    "shousangen": (_fam_shousangen, 2),
    "honitsu": (_fam_honitsu, 5),
    "chinitsu": (_fam_chinitsu, 5),
    "toitoi": (_fam_toitoi, 4),
    "sanankou": (_fam_sanankou, 4),
    "chanta": (_fam_chanta, 3),
    "junchan": (_fam_junchan, 3),
    "ittsu": (_fam_ittsu, 3),
    "sanshoku": (_fam_sanshoku, 3),
    "doukou": (_fam_doukou, 1),
    "ryanpeikou": (_fam_ryanpeikou, 2),
    "chiitoitsu": (_fam_chiitoitsu, 5),
    "multi": (_fam_multi, 5),
    "kans": (_fam_kans, 4),
    "noyaku": (_fam_noyaku, 6),
    "fu": (_fam_fu, 6),
    "honroutou": (_fam_honroutou, 1),
    "daisangen": (_fam_daisangen, 1),
    "suushii": (_fam_suushii, 1),
    "tsuuiisou": (_fam_tsuuiisou, 1),
    "chinroutou": (_fam_chinroutou, 1),
    "ryuuiisou": (_fam_ryuuiisou, 1),
    "suuankou": (_fam_suuankou, 2),
    "suukantsu": (_fam_suukantsu, 1),
    "chuuren": (_fam_chuuren, 1),
    "kokushi": (_fam_kokushi, 2),
    "blessing": (_fam_blessing, 1),
    "notwinning": (_fam_notwinning, 2),
}
_FAMILY_NAMES = tuple(FAMILIES)
_FAMILY_WEIGHTS = tuple(w for _, w in FAMILIES.values())


# -- assembling a plan into a request ----------------------------------------------------------


@dataclass
class _Meld:
    type: str
    kinds: list[int]
    tiles: list[Tile] = field(default_factory=list)
    src: int | None = None


def _choose_melds(rng: random.Random, plan: _Plan, counts: list[int]) -> list[str | None] | None:
    """A meld type (or None = concealed) per set of the plan."""
    n = len(plan.sets)
    types: list[str | None] = [None] * n
    mode = plan.open_mode
    if mode == "any":
        mode = "open" if rng.random() < 0.45 else "closed"

    def can_kan(i: int) -> bool:
        s = plan.sets[i]
        return s[0] == TRIP and counts[s[1]] == 3

    if mode == "open":
        callable_ = [i for i in range(n) if i >= plan.closed_trips]
        if not callable_:
            return None
        k = min(len(callable_), rng.choice((1, 1, 2, 2, 2, 3, 3, 4)))
        for i in rng.sample(callable_, k):
            if plan.sets[i][0] == RUN:
                types[i] = "chi"
            else:
                r = rng.random()
                if can_kan(i) and r < plan.kan_rate * 1.5:
                    types[i] = "daiminkan"
                elif can_kan(i) and r < plan.kan_rate * 3:
                    types[i] = "kakan"
                else:
                    types[i] = "pon"
    for i in range(n):
        if types[i] is None and can_kan(i) and rng.random() < plan.kan_rate:
            types[i] = "ankan"
    # forced kans: turn triplets into kans until there are enough
    kans = sum(1 for t in types if t in ("ankan", "daiminkan", "kakan"))
    order = list(range(n))
    rng.shuffle(order)
    for i in order:
        if kans >= plan.force_kans:
            break
        if types[i] in ("ankan", "daiminkan", "kakan") or not can_kan(i):
            continue
        if types[i] == "pon":
            types[i] = rng.choice(("daiminkan", "kakan"))
        elif i < plan.closed_trips or mode == "closed":
            types[i] = "ankan"
        else:
            types[i] = rng.choice(("ankan", "daiminkan", "kakan"))
        kans += 1
    if kans < plan.force_kans:
        return None
    return types


def _pick_win(rng: random.Random, plan: _Plan, concealed_sets: list[SetSpec]) -> int | None:
    """The winning kind, taken from the concealed sets or the pair."""
    opts_pair = [plan.pair]
    opts_trip = [s[1] for s in concealed_sets if s[0] == TRIP]
    opts_runs = [s for s in concealed_sets if s[0] == RUN]
    if plan.win == "pair":
        return plan.pair
    if plan.win == "trip" and opts_trip:
        return rng.choice(opts_trip)
    if plan.win == "run_edge" and opts_runs:
        s = rng.choice(opts_runs)
        return s[1] + rng.choice((0, 2))
    if plan.win == "run" and opts_runs:
        s = rng.choice(opts_runs)
        return s[1] + rng.randrange(3)
    pool = [k for s in concealed_sets for k in _set_kinds(s)] + opts_pair * 2
    return rng.choice(pool) if pool else None


def _redden(rng: random.Random, places: list[list[Tile]]) -> None:
    """Make at most one five per suit red: always when all four fives are in the hand."""
    for five in FIVES:
        spots = [(lst, i) for lst in places for i, t in enumerate(lst) if t[0] == five]
        if not spots:
            continue
        if len(spots) == 4 or rng.random() < 0.25:
            lst, i = rng.choice(spots)
            lst[i] = (five, True)


def _indicator_pool(used: list[int], red_used: dict[int, int], reserved: set[int]) -> list[Tile]:
    """Every physical tile still unseen (fives: one red, three plain)."""
    pool: list[Tile] = []
    for k in range(34):
        if k in reserved:
            continue
        if k in FIVES:
            red_left = 1 - red_used.get(k, 0)
            plain_left = 3 - (used[k] - red_used.get(k, 0))
            pool += [(k, True)] * red_left + [(k, False)] * plain_left
        else:
            pool += [(k, False)] * (4 - used[k])
    return pool


def _indicates(ind: int) -> int:
    if ind < 27:
        return ind - ind % 9 + (ind % 9 + 1) % 9
    if ind < 31:
        return 27 + (ind - 27 + 1) % 4
    return 31 + (ind - 31 + 1) % 3


def _draw_indicators(rng: random.Random, pool: list[Tile], n: int, hand_kinds: set[int]) -> list[Tile]:
    out: list[Tile] = []
    for _ in range(n):
        if not pool:
            break
        hitting = [i for i, t in enumerate(pool) if _indicates(t[0]) in hand_kinds]
        i = rng.choice(hitting) if hitting and rng.random() < 0.2 else rng.randrange(len(pool))
        out.append(pool.pop(i))
    return out


def _assemble(rng: random.Random, plan: _Plan) -> dict[str, Any] | None:
    if not _counts_ok(plan):
        return None
    counts = [0] * 34
    for s in plan.sets:
        for k in _set_kinds(s):
            counts[k] += 1
    if plan.pair >= 0:
        counts[plan.pair] += 2

    melds: list[_Meld] = []
    concealed_kinds: list[int]
    if plan.kinds14 is not None:
        concealed_kinds = list(plan.kinds14)
        win_kind = rng.choice(concealed_kinds)
        for k in concealed_kinds:
            counts[k] += 1
    else:
        types = _choose_melds(rng, plan, counts)
        if types is None:
            return None
        concealed_sets: list[SetSpec] = []
        for s, t in zip(plan.sets, types, strict=True):
            if t is None:
                concealed_sets.append(s)
                continue
            kinds = _set_kinds(s) + ([s[1]] if t in ("ankan", "daiminkan", "kakan") else [])
            melds.append(_Meld(t, kinds))
        for m in melds:
            if len(m.kinds) == 4:
                counts[m.kinds[0]] += 1
        win = _pick_win(rng, plan, concealed_sets)
        if win is None:
            return None
        win_kind = win
        concealed_kinds = [k for s in concealed_sets for k in _set_kinds(s)] + [plan.pair] * 2
    if max(counts) > 4:
        return None
    concealed_kinds.remove(win_kind)
    if plan.wrong_win:
        counts[win_kind] -= 1
        room = [k for k in range(34) if k != win_kind and counts[k] < 4]
        win_kind = rng.choice(room)
        counts[win_kind] += 1

    concealed: list[Tile] = [(k, False) for k in concealed_kinds]
    win_list: list[Tile] = [(win_kind, False)]
    for m in melds:
        m.tiles = [(k, False) for k in m.kinds]
    _redden(rng, [concealed, win_list, *(m.tiles for m in melds)])
    win_tile = win_list[0]

    closed = all(m.type == "ankan" for m in melds)
    kans = [m for m in melds if m.type in ("ankan", "daiminkan", "kakan")]

    # -- seats and situation
    dealer = rng.randrange(4)
    blessing = bool(plan.situ.get("blessing"))
    winner = rng.randrange(4)
    if blessing:
        tenhou = rng.random() < 0.5
        winner = dealer if tenhou else (dealer + rng.randrange(1, 4)) % 4
    round_wind = rng.choices("ESWN", weights=(45, 45, 7, 3))[0]
    tsumo = plan.tsumo if plan.tsumo is not None else rng.random() < 0.4
    if blessing:
        tsumo = True
    situational = not plan.no_situational and not blessing
    riichi = double = ippatsu = rinshan = haitei = houtei = chankan = False
    if closed and situational and rng.random() < 0.45:
        if rng.random() < 0.1:
            double = True
            riichi = rng.random() < 0.5
        else:
            riichi = True
    if tsumo and kans and situational:
        forced = plan.situ.get("rinshan")
        rinshan = bool(forced) if forced is not None else rng.random() < 0.3
    if (riichi or double) and not rinshan and rng.random() < 0.2:
        ippatsu = True
    if situational:
        if tsumo and not rinshan and rng.random() < 0.06:
            haitei = True
        if not tsumo:
            in_sight = sum(1 for t in [*concealed, *win_list] if t[0] == win_kind)
            in_sight += sum(1 for m in melds for t in m.tiles if t[0] == win_kind)
            if in_sight == 1 and rng.random() < 0.12:
                chankan = True
            elif rng.random() < 0.06:
                houtei = True
    others = [s for s in range(4) if s != winner]
    discarder = None if tsumo else rng.choice(others)

    # call order and sources
    rng.shuffle(melds)
    if rinshan:
        last = next(i for i, m in enumerate(melds) if m.type in ("ankan", "daiminkan", "kakan"))
        melds.append(melds.pop(last))
    left = (winner - 1) % 4
    for m in melds:
        if m.type == "chi":
            m.src = left
        elif m.type != "ankan":
            m.src = rng.choice(others)

    # indicators from the unseen tiles
    used = [0] * 34
    red_used: dict[int, int] = {}
    hand_tiles = [*concealed, win_tile, *(t for m in melds for t in m.tiles)]
    for k, red in hand_tiles:
        used[k] += 1
        if red:
            red_used[k] = red_used.get(k, 0) + 1
    pool = _indicator_pool(used, red_used, {win_kind} if chankan else set())
    hand_kinds = {k for k, _ in hand_tiles}
    n_ind = 1 + len(kans)
    dora = _draw_indicators(rng, pool, n_ind, hand_kinds)
    ura = _draw_indicators(rng, pool, n_ind, hand_kinds) if (riichi or double) else []

    honba = rng.choice((0, 0, 0, 0, 0, 1, 1, 2, 3, 5))
    sticks = rng.choice((0, 0, 0, 0, 1, 1, 2, 3)) + (1 if riichi or double else 0)

    req: dict[str, Any] = {"rules": "tenhou"}
    if rng.random() < 0.5:
        req["players"] = 4
    req.update(dealer=dealer, round_wind=round_wind, winner=winner)
    if discarder is not None or rng.random() < 0.3:
        req["from"] = discarder
    req["hand"] = _text(concealed)
    out_melds = []
    for m in melds:
        d: dict[str, Any] = {"type": m.type, "tiles": _text(m.tiles)}
        if m.src is not None:
            d["from"] = m.src
        if m.type != "ankan" and rng.random() < 0.3:
            d["called"] = _text([rng.choice(m.tiles)])
        out_melds.append(d)
    if out_melds or rng.random() < 0.5:
        req["melds"] = out_melds
    req["win_tile"] = _text([win_tile])
    flags = {
        "riichi": riichi, "double_riichi": double, "ippatsu": ippatsu, "rinshan": rinshan,
        "chankan": chankan, "haitei": haitei, "houtei": houtei,
        "tenhou": blessing and winner == dealer, "chiihou": blessing and winner != dealer,
    }  # fmt: skip
    verbose = rng.random() < 0.4
    for name, value in flags.items():
        if value or verbose:
            req[name] = value
    req["dora_indicators"] = [_text([t]) for t in dora]
    if ura or verbose:
        req["ura_indicators"] = [_text([t]) for t in ura]
    if honba or verbose:
        req["honba"] = honba
    if sticks or verbose:
        req["riichi_sticks"] = sticks
    return req


def generate_labelled(seed: int, n: int) -> list[tuple[str, dict[str, Any]]]:
    """``n`` requests with the family each was built from, reproducible from ``seed``."""
    rng = random.Random(seed)
    out: list[tuple[str, dict[str, Any]]] = []
    while len(out) < n:
        name = rng.choices(_FAMILY_NAMES, weights=_FAMILY_WEIGHTS)[0]
        builder = FAMILIES[name][0]
        for _ in range(50):
            req = _assemble(rng, builder(rng))
            if req is not None:
                out.append((name, req))
                break
    return out


def generate(seed: int, n: int) -> list[dict[str, Any]]:
    """``n`` random valid winning-hand requests (``docs/json-api.md`` format) for seed ``seed``."""
    return [req for _, req in generate_labelled(seed, n)]


# -- conversion for the mahjong package --------------------------------------------------------

HandConfigKwargs = dict[str, Any]
MahjongInputs = tuple[list[int], int, list[Any], list[int], list[int], HandConfigKwargs]

_TENHOU_OPTIONS: Any = None


def tenhou_options() -> Any:
    """mahjong ``OptionalRules`` equivalent to tenbou's ``tenhou`` preset (built once, never mutated)."""
    global _TENHOU_OPTIONS
    if _TENHOU_OPTIONS is None:
        from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules

        _TENHOU_OPTIONS = OptionalRules(
            has_open_tanyao=True,
            has_aka_dora=True,
            has_double_yakuman=False,  # kokushi 13-wait, suuankou tanki, junsei chuuren, daisuushii: single
            kazoe_limit=HandConfig.KAZOE_LIMITED,  # 13+ han = yakuman
            kiriage=False,
            fu_for_open_pinfu=True,  # open pinfu shape: 30 fu
            fu_for_pinfu_tsumo=False,  # pinfu tsumo: 20 fu
            renhou_as_yakuman=False,  # never passed: Tenhou has no renhou
            has_daisharin=False,
            has_daisharin_other_suits=False,
            has_sashikomi_yakuman=False,
            limit_to_sextuple_yakuman=True,
            paarenchan_needs_yaku=True,
            has_daichisei=False,
            is_three_player=False,
        )
    return _TENHOU_OPTIONS


class _Ids:
    """Hands out distinct 136-ids: the red five of a suit is id 4k, plain fives 4k+1..4k+3."""

    def __init__(self) -> None:
        self.free = {
            k: ([4 * k + 1, 4 * k + 2, 4 * k + 3] if k in FIVES else [4 * k + i for i in range(4)])
            for k in range(34)
        }
        self.red_free = {k: [4 * k] for k in FIVES}

    def take(self, tile: Tile) -> int:
        kind, red = tile
        src = self.red_free[kind] if red else self.free[kind]
        if not src:
            raise ValueError(f"no free 136-id for {_text([tile])}")
        return src.pop(0)


def to_mahjong(request: dict[str, Any]) -> MahjongInputs:
    """The ``mahjong`` package's inputs for a request, under Tenhou-equivalent options:
    ``(tiles136, win_tile136, melds, dora_indicators136, ura_indicators136, HandConfig kwargs)``.

    ``tiles136`` holds every tile (concealed, winning tile and all meld tiles, 4 per kan); red fives
    get their own ids (16/52/88). Build the config as ``HandConfig(**kwargs)`` *fresh for every call*
    (mahjong mutates the yaku objects of a config).
    """
    from mahjong.constants import EAST
    from mahjong.meld import Meld

    ids = _Ids()
    melds = []
    tiles136: list[int] = []
    meld_type = {
        "chi": Meld.CHI,
        "pon": Meld.PON,
        "daiminkan": Meld.KAN,
        "kakan": Meld.SHOUMINKAN,
        "ankan": Meld.KAN,
    }
    winner = request["winner"]
    for m in request.get("melds") or []:
        mids = [ids.take(t) for t in parse_mpsz(m["tiles"])]
        tiles136 += mids
        melds.append(
            Meld(meld_type[m["type"]], mids, opened=m["type"] != "ankan", who=winner, from_who=m.get("from"))
        )
    for t in parse_mpsz(request["hand"]):
        tiles136.append(ids.take(t))
    win136 = ids.take(parse_mpsz(request["win_tile"])[0])
    tiles136.append(win136)
    dora = [ids.take(parse_mpsz(t)[0]) for t in request.get("dora_indicators") or []]
    ura = [ids.take(parse_mpsz(t)[0]) for t in request.get("ura_indicators") or []]
    dealer = request.get("dealer", 0)
    kwargs: HandConfigKwargs = {
        "is_tsumo": request.get("from") is None,
        "is_riichi": bool(request.get("riichi")),
        "is_daburu_riichi": bool(request.get("double_riichi")),
        "is_ippatsu": bool(request.get("ippatsu")),
        "is_rinshan": bool(request.get("rinshan")),
        "is_chankan": bool(request.get("chankan")),
        "is_haitei": bool(request.get("haitei")),
        "is_houtei": bool(request.get("houtei")),
        "is_tenhou": bool(request.get("tenhou")),
        "is_chiihou": bool(request.get("chiihou")),
        "player_wind": EAST + (winner - dealer) % 4,
        "round_wind": EAST + "ESWN".index(request.get("round_wind", "E")),
        "tsumi_number": request.get("honba", 0),
        "kyoutaku_number": request.get("riichi_sticks", 0),
        "options": tenhou_options(),
    }
    return tiles136, win136, melds, dora, ura, kwargs
