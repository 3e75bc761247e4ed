"""Scoring a winning hand: readings, yaku, fu with a breakdown, han, limits.

:func:`score_hand` checks the hand against the rules and the situation,
reads it every possible way (each decomposition, and each set the winning tile
can complete, which fixes the wait), scores every reading and keeps the
best: the highest base points, then the most han, then the most fu.

>>> from tenbou.hand import Hand, Situation
>>> from tenbou.rules import get_rules
>>> rules = get_rules("tenhou")
>>> hs = score_hand(Hand.parse("345m345p345s6699s +9s"), Situation(riichi=True, winner=1, discarder=2), rules)
>>> hs.han, hs.fu, [y.id for y in hs.yaku]
(3, 40, ['riichi', 'sanshoku'])

The 役牌 seed's worked fu: a dragon ankan is 60 fu on tsumo, 70 on ron; an
open dragon kan 40 either way.

>>> h = Hand.parse("234m678p5578s +9s ankan:7777z")
>>> score_hand(h, Situation(winner=2), rules).fu, score_hand(h, Situation(winner=2, discarder=0), rules).fu
(60, 70)
>>> h = Hand.parse("234m678p5578s +9s kan:7777z@0")
>>> score_hand(h, Situation(winner=2), rules).fu, score_hand(h, Situation(winner=2, discarder=0), rules).fu
(40, 40)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .errors import InvalidHandError
from .hand import Hand, MeldType, Situation
from .rules import Rules
from .shape import KOKUSHI_KINDS, is_chiitoitsu, is_kokushi, standard_decompositions
from .tiles import HONORS, TERMINALS_AND_HONORS, Tile, dora_kind
from .yaku import (
    DORA,
    REGULAR_YAKU,
    YAKU_BY_ID,
    YAKU_ORDER,
    YAKUMAN,
    Form,
    HandFacts,
    Mentsu,
    MentsuKind,
    Reading,
    Wait,
    Yaku,
)

__all__ = [
    "FuItem",
    "HandScore",
    "Limit",
    "YakuHan",
    "base_points",
    "fu_breakdown",
    "score_hand",
    "validate",
]


class Limit(Enum):
    """The limit a hand reached (``kiriage`` mangan reports ``MANGAN``)."""

    MANGAN = "mangan"
    HANEMAN = "haneman"
    BAIMAN = "baiman"
    SANBAIMAN = "sanbaiman"
    YAKUMAN = "yakuman"
    KAZOE_YAKUMAN = "kazoe_yakuman"


@dataclass(frozen=True, slots=True)
class YakuHan:
    """A yaku as counted in one hand: its han and, for a yakuman, its multiplier."""

    yaku: Yaku
    han: int
    yakuman: int = 0

    @property
    def id(self) -> str:
        return self.yaku.id


@dataclass(frozen=True, slots=True)
class FuItem:
    """One line of the fu breakdown."""

    reason: str
    fu: int


@dataclass(frozen=True, slots=True)
class HandScore:
    """The value of a winning hand (before who pays whom).

    ``han`` counts every yaku and dora (13 x multiplier for a yakuman hand);
    ``fu`` is rounded; ``base_points`` is the basic points a payment is a
    multiple of (2,000 for a mangan, 8,000 x multiplier for yakuman)."""

    han: int
    fu: int
    limit: Limit | None
    base_points: int
    yaku: tuple[YakuHan, ...]
    fu_breakdown: tuple[FuItem, ...]
    yakuman: int
    reading: Reading
    hand: Hand
    situation: Situation
    rules: Rules

    @property
    def is_dealer(self) -> bool:
        return self.situation.is_dealer


# -- validation ---------------------------------------------------------------------------------

_RED_PER_KIND = {0: {}, 3: {4: 1, 13: 1, 22: 1}, 4: {4: 1, 13: 2, 22: 1}}


def validate(hand: Hand, s: Situation, rules: Rules) -> None:
    """Refuse what cannot happen under ``rules``: seats, tiles (a fifth copy
    counting dora indicators, red fives the rules do not have, 2m-8m with three
    players), melds (a call from oneself, a chi not from the left) and
    contradictory situations (ippatsu without riichi, chankan on a tsumo, ...)."""
    n = s.players
    if n not in rules.players:
        raise InvalidHandError(
            f"players={n}: these rules are played by {' or '.join(map(str, rules.players))} players",
            "contradiction",
        )
    for name in ("dealer", "winner"):
        seat = getattr(s, name)
        if not 0 <= seat < n:
            raise InvalidHandError(f"{name}={seat} is not a seat 0..{n - 1}", "contradiction")
    if s.discarder is not None:
        if not 0 <= s.discarder < n:
            raise InvalidHandError(f"from={s.discarder} is not a seat 0..{n - 1}", "contradiction")
        if s.discarder == s.winner:
            raise InvalidHandError(
                f"from={s.discarder} is the winner's own seat (leave 'from' out for a tsumo)", "contradiction"
            )
    for i, m in enumerate(hand.melds):
        if m.from_seat is None:
            continue
        where = f"melds[{i}] ({m.notation()})"
        if m.from_seat >= n:
            raise InvalidHandError(f"{where}: from={m.from_seat} is not a seat 0..{n - 1}", "contradiction")
        if m.from_seat == s.winner:
            raise InvalidHandError(
                f"{where}: a meld cannot be called from the winner's own seat", "contradiction"
            )
        if m.type is MeldType.CHI:
            if n == 3:
                raise InvalidHandError(f"{where}: there is no chi with three players", "contradiction")
            if m.from_seat != (s.winner - 1) % n:
                raise InvalidHandError(
                    f"{where}: a chi is only called from the player on the left (seat {(s.winner - 1) % n})",
                    "contradiction",
                )
    # Tiles: copies, red fives, three-player manzu.
    counts = [0] * 34
    reds = [0] * 34
    visible = [*hand.all_tiles(), *s.dora_indicators, *s.ura_indicators]
    for t in visible:
        counts[t.kind] += 1
        if t.red:
            reds[t.kind] += 1
    allowed_red = _RED_PER_KIND[rules.red_fives]
    for k in range(34):
        if reds[k] > allowed_red.get(k, 0):
            tile = Tile(k, True)
            if not allowed_red:
                raise InvalidHandError(f"{tile}: these rules play without red fives", "impossible")
            raise InvalidHandError(
                f"{tile}: {reds[k]} red copies but the set has {allowed_red.get(k, 0)}", "impossible"
            )
        plain = counts[k] - reds[k]
        if counts[k] > 4 or plain > 4 - allowed_red.get(k, 0):
            where = (
                "in the hand and dora indicators" if counts[k] <= 4 or len(visible) > 14 else "in the hand"
            )
            extra = " (the others are red)" if counts[k] <= 4 else ""
            raise InvalidHandError(
                f"{Tile(k)}: {counts[k]} copies {where}, more than the set has{extra}", "impossible"
            )
        if n == 3 and 0 < k < 8 and counts[k]:
            raise InvalidHandError(f"{Tile(k)}: three-player mahjong has no 2m-8m", "impossible")
    if s.kita:
        if n != 3 or not rules.nukidora:
            raise InvalidHandError(
                "kita: North tiles are only set aside in three-player games with nukidora", "contradiction"
            )
        if s.kita < 0 or s.kita + counts[30] > 4:
            raise InvalidHandError(
                f"kita={s.kita}: with {counts[30]} North tile(s) in sight, more than four", "impossible"
            )
    if len(s.dora_indicators) > 5:
        raise InvalidHandError(f"dora_indicators: {len(s.dora_indicators)} given, at most 5", "impossible")
    if len(s.ura_indicators) > len(s.dora_indicators):
        raise InvalidHandError(
            f"ura_indicators: {len(s.ura_indicators)} given for {len(s.dora_indicators)} dora indicator(s)",
            "impossible",
        )
    _check_situation(hand, s, rules)


def _check_situation(hand: Hand, s: Situation, rules: Rules) -> None:
    def bad(msg: str) -> InvalidHandError:
        return InvalidHandError(msg, "contradiction")

    closed = hand.is_closed
    tsumo = s.tsumo
    if s.in_riichi and not closed:
        raise bad("riichi: a hand with an open meld cannot be in riichi")
    if s.ippatsu and not s.in_riichi:
        raise bad("ippatsu: needs riichi or double_riichi")
    if s.ura_indicators and not s.in_riichi:
        raise bad("ura_indicators: ura dora are only revealed for a riichi winner")
    if s.ura_indicators and not rules.ura_dora:
        raise bad("ura_indicators: these rules play without ura dora")
    if s.ippatsu and not rules.ippatsu:
        raise bad("ippatsu: these rules play without ippatsu")
    if s.rinshan:
        if not tsumo:
            raise bad("rinshan: a rinshan win is a tsumo (leave 'from' out)")
        if not any(m.is_kan for m in hand.melds):
            raise bad("rinshan: the hand declared no kan")
        if s.haitei:
            raise bad("rinshan and haitei: a draw from the dead wall is not the last tile")
    if s.chankan and tsumo:
        raise bad("chankan: robbing a kan is a ron (give 'from')")
    if s.haitei and not tsumo:
        raise bad("haitei: the last-tile tsumo needs no 'from'")
    if s.houtei and tsumo:
        raise bad("houtei: the last-discard ron needs 'from'")
    if s.chankan and s.houtei:
        raise bad("chankan and houtei cannot both hold")
    first = [name for name in ("tenhou", "chiihou", "renhou") if getattr(s, name)]
    if len(first) > 1:
        raise bad(f"{first[0]} and {first[1]} cannot both hold")
    if first:
        name = first[0]
        if hand.melds:
            raise bad(f"{name}: no call or kan may come before it")
        if s.in_riichi or s.ippatsu:
            raise bad(f"{name}: riichi cannot be declared before it")
        if s.rinshan or s.chankan or s.haitei or s.houtei:
            raise bad(f"{name}: cannot combine with rinshan, chankan, haitei or houtei")
    if s.tenhou and (not s.is_dealer or not tsumo):
        raise bad("tenhou: only the dealer's tsumo on the first draw")
    if s.chiihou and (s.is_dealer or not tsumo):
        raise bad("chiihou: only a non-dealer's tsumo on the first draw")
    if s.renhou and (s.is_dealer or tsumo):
        raise bad("renhou: only a non-dealer's ron before the first draw")


# -- readings -----------------------------------------------------------------------------------


def _facts(hand: Hand, s: Situation, rules: Rules) -> HandFacts:
    concealed = [0] * 34
    for t in hand.concealed:
        concealed[t.kind] += 1
    win = hand.win_tile.kind
    concealed[win] += 1
    counts = list(concealed)
    for m in hand.melds:
        for t in m.tiles:
            counts[t.kind] += 1
    return HandFacts(
        hand=hand,
        situation=s,
        rules=rules,
        counts=counts,
        concealed=concealed,
        win=win,
        closed=hand.is_closed,
        tsumo=s.tsumo,
        seat_wind=s.seat_wind.kind,
        round_wind=s.round_wind.kind,
    )


def _meld_sets(hand: Hand) -> tuple[Mentsu, ...]:
    out = []
    for m in hand.melds:
        if m.type is MeldType.CHI:
            out.append(Mentsu(MentsuKind.RUN, m.kind, True, True))
        elif m.type is MeldType.PON:
            out.append(Mentsu(MentsuKind.TRIPLET, m.kind, True, True))
        else:
            out.append(Mentsu(MentsuKind.KAN, m.kind, True, m.is_open))
    return tuple(out)


def _readings(f: HandFacts) -> list[Reading]:
    """Every reading of the hand: decompositions x the set the winning tile completed."""
    out: list[Reading] = []
    win = f.win
    c = f.concealed
    melds = _meld_sets(f.hand)
    if not melds and sum(c) == 14:
        if is_kokushi(c):
            before = list(c)
            before[win] -= 1
            wait = Wait.THIRTEEN if all(before[k] == 1 for k in KOKUSHI_KINDS) else Wait.TANKI
            pair = next(k for k in KOKUSHI_KINDS if c[k] == 2)
            out.append(Reading(Form.KOKUSHI, (), pair, wait, f))
            return out
        if is_chiitoitsu(c):
            out.append(Reading(Form.CHIITOITSU, (), win, Wait.TANKI, f))
    ron = not f.tsumo
    for d in standard_decompositions(c):
        trips = [Mentsu(MentsuKind.TRIPLET, k, False, False) for k in d.triplets]
        runs = [Mentsu(MentsuKind.RUN, k, False, False) for k in d.runs]
        base = (*melds, *trips, *runs)
        if d.pair == win:
            out.append(Reading(Form.STANDARD, base, d.pair, Wait.TANKI, f))
        seen_trip = False
        for i, k in enumerate(d.triplets):
            if k == win and not seen_trip:
                seen_trip = True
                sets = list(base)
                sets[len(melds) + i] = Mentsu(MentsuKind.TRIPLET, k, False, ron)
                out.append(Reading(Form.STANDARD, tuple(sets), d.pair, Wait.SHANPON, f))
        done: set[tuple[int, Wait]] = set()
        for k in d.runs:
            if not k <= win <= k + 2:
                continue
            pos = win - k
            n = k % 9
            if pos == 1:
                wait = Wait.KANCHAN
            elif (pos == 0 and n == 6) or (pos == 2 and n == 0):
                wait = Wait.PENCHAN
            else:
                wait = Wait.RYANMEN
            if (k, wait) in done:
                continue
            done.add((k, wait))
            out.append(Reading(Form.STANDARD, base, d.pair, wait, f))
    return out


# -- fu -----------------------------------------------------------------------------------------

_WAIT_FU = {Wait.KANCHAN: "kanchan_wait", Wait.PENCHAN: "penchan_wait", Wait.TANKI: "tanki_wait"}


def fu_breakdown(r: Reading, pinfu: bool) -> tuple[int, tuple[FuItem, ...]]:
    """Fu of a reading (rounded up to 10) and the items that make it up."""
    f = r.facts
    if r.form is Form.CHIITOITSU:
        return 25, (FuItem("chiitoitsu", 25),)
    if r.form is Form.KOKUSHI:
        return 0, ()  # no sets to count: Tenhou records kokushi with 0 fu
    items = [FuItem("base", 20)]
    if pinfu and f.tsumo:
        return 20, tuple(items)
    if f.closed and not f.tsumo:
        items.append(FuItem("menzen_ron", 10))
    if f.tsumo and (f.rules.rinshan_tsumo_fu or not f.situation.rinshan):
        items.append(FuItem("tsumo", 2))
    wait_reason = _WAIT_FU.get(r.wait)
    if wait_reason:
        items.append(FuItem(wait_reason, 2))
    p = r.pair
    if p in f.value_kinds:
        if p == f.seat_wind and p == f.round_wind:
            items.append(FuItem("double_wind_pair", f.rules.double_wind_pair_fu))
        else:
            reason = (
                "dragon_pair"
                if p >= 31
                else (
                    "seat_wind_pair"
                    if p == f.seat_wind
                    else "round_wind_pair"
                    if p == f.round_wind
                    else "value_pair"
                )
            )
            items.append(FuItem(reason, 2))
    for m in r.sets:
        if m.kind is MentsuKind.RUN:
            continue
        yaochuu = m.tile in TERMINALS_AND_HONORS
        fu = 2 if m.exposed else 4
        if yaochuu:
            fu *= 2
        if m.kind is MentsuKind.KAN:
            fu *= 4
        cls = "honor" if m.tile in HONORS else "terminal" if yaochuu else "simple"
        shape = "kan" if m.kind is MentsuKind.KAN else "pon"
        items.append(FuItem(f"{'open' if m.exposed else 'closed'}_{cls}_{shape}", fu))
    if not f.closed and not f.tsumo and sum(i.fu for i in items) == 20:
        items.append(FuItem("open_pinfu", 10))
    return _round(items)


def _round(items: list[FuItem]) -> tuple[int, tuple[FuItem, ...]]:
    total = sum(i.fu for i in items)
    return (total + 9) // 10 * 10, tuple(items)


# -- points -------------------------------------------------------------------------------------


def base_points(han: int, fu: int, rules: Rules) -> tuple[int, Limit | None]:
    """Base points and limit for han and fu without yakuman.

    >>> from tenbou.rules import get_rules
    >>> r = get_rules("tenhou")
    >>> base_points(4, 30, r), base_points(4, 30, r.replace(kiriage=True))
    ((1920, None), (2000, <Limit.MANGAN: 'mangan'>))
    >>> base_points(13, 30, r), base_points(13, 30, r.replace(kazoe="sanbaiman"))
    ((8000, <Limit.KAZOE_YAKUMAN: 'kazoe_yakuman'>), (6000, <Limit.SANBAIMAN: 'sanbaiman'>))
    """
    if han >= 13:
        if rules.kazoe == "yakuman":
            return 8000, Limit.KAZOE_YAKUMAN
        return 6000, Limit.SANBAIMAN
    if han >= 11:
        return 6000, Limit.SANBAIMAN
    if han >= 8:
        return 4000, Limit.BAIMAN
    if han >= 6:
        return 3000, Limit.HANEMAN
    if han >= 5:
        return 2000, Limit.MANGAN
    base = fu * (1 << (han + 2))
    if base >= 2000 or (rules.kiriage and base == 1920):
        return 2000, Limit.MANGAN
    return base, None


# -- scoring ------------------------------------------------------------------------------------


def _dora(f: HandFacts) -> list[YakuHan]:
    s = f.situation
    players = s.players
    out: list[YakuHan] = []
    counts = f.counts
    kita_north = s.kita if f.rules.nukidora else 0
    n = 0
    for ind in s.dora_indicators:
        k = dora_kind(ind.kind, players)
        n += counts[k] + (kita_north if k == 30 else 0)
    if n:
        out.append(YakuHan(DORA["dora"], n))
    reds = sum(1 for t in f.hand.all_tiles() if t.red)
    if reds:
        out.append(YakuHan(DORA["aka_dora"], reds))
    if s.in_riichi and f.rules.ura_dora:
        u = 0
        for ind in s.ura_indicators:
            k = dora_kind(ind.kind, players)
            u += counts[k] + (kita_north if k == 30 else 0)
        if u:
            out.append(YakuHan(DORA["ura_dora"], u))
    if kita_north:
        out.append(YakuHan(DORA["kita"], kita_north))
    return out


@dataclass(slots=True)
class _Candidate:
    key: tuple[int, int, int]
    han: int
    fu: int
    limit: Limit | None
    base: int
    yaku: list[YakuHan]
    fu_items: tuple[FuItem, ...]
    yakuman: int
    reading: Reading


def _evaluate(r: Reading, dora: list[YakuHan], dora_han: int) -> _Candidate | None:
    f = r.facts
    rules = f.rules
    closed = f.closed
    # yakuman first: they replace every other yaku
    ym: list[YakuHan] = []
    for y in YAKUMAN:
        if y.han_open is None and not closed:
            continue
        if y.predicate(r):
            mult = 2 if y.id in rules.double_yakuman else 1
            ym.append(YakuHan(y, 13 * mult, mult))
    pinfu = _pinfu_in(r)
    fu, fu_items = fu_breakdown(r, pinfu)
    if ym:
        mults = [y.yakuman for y in ym]
        total = sum(mults) if rules.yakuman_stacking else max(mults)
        if rules.yakuman_cap:
            total = min(total, rules.yakuman_cap)
        return _Candidate(
            (8000 * total, 13 * total, fu),
            13 * total,
            fu,
            Limit.YAKUMAN,
            8000 * total,
            ym,
            fu_items,
            total,
            r,
        )
    found: list[YakuHan] = []
    han = 0
    renhou: YakuHan | None = None
    for y in REGULAR_YAKU:
        h = y.han_closed if closed else y.han_open
        if h is None or not y.predicate(r):
            continue
        if y.id == "renhou":
            renhou = YakuHan(y, 8 if rules.renhou == "baiman" else 5)
            continue
        found.append(YakuHan(y, h))
        han += h
    if not found and renhou is None:
        return None
    if found:
        total_han = han + dora_han
        base, limit = base_points(total_han, fu, rules)
        normal = _Candidate((base, total_han, fu), total_han, fu, limit, base, found + dora, fu_items, 0, r)
    if renhou is not None:
        rbase, rlimit = base_points(renhou.han, fu, rules)
        if not found or rbase > normal.base:
            return _Candidate(
                (rbase, renhou.han, fu), renhou.han, fu, rlimit, rbase, [renhou], fu_items, 0, r
            )
    return normal


def _pinfu_in(r: Reading) -> bool:
    return YAKU_BY_ID["pinfu"].predicate(r)


def score_hand(hand: Hand, situation: Situation, rules: Rules) -> HandScore:
    """Score a winning hand; raises :class:`InvalidHandError` (code
    ``not_winning``, ``no_yaku``, ``contradiction`` or ``impossible``)."""
    validate(hand, situation, rules)
    return _score(hand, situation, rules)


def _score(hand: Hand, situation: Situation, rules: Rules) -> HandScore:
    f = _facts(hand, situation, rules)
    readings = _readings(f)
    if not readings:
        raise InvalidHandError(f"{hand} is not a winning hand", "not_winning")
    dora = _dora(f)
    dora_han = sum(d.han for d in dora)
    best: _Candidate | None = None
    for r in readings:
        c = _evaluate(r, dora, dora_han)
        if c is not None and (best is None or c.key > best.key):
            best = c
    if best is None:
        raise InvalidHandError(f"{hand} has no yaku (dora do not count as yaku)", "no_yaku")
    yaku = sorted(best.yaku, key=lambda y: YAKU_ORDER[y.yaku.id])
    return HandScore(
        han=best.han,
        fu=best.fu,
        limit=best.limit,
        base_points=best.base,
        yaku=tuple(yaku),
        fu_breakdown=best.fu_items,
        yakuman=best.yakuman,
        reading=best.reading,
        hand=hand,
        situation=situation,
        rules=rules,
    )
