"""A round's state, and the questions the referee asks of it.

:class:`RoundState` holds everything a referee of one hand keeps -- hands, rivers, melds in call
order, the live wall and the kans, dora and ura indicators, riichi and ippatsu, furiten (the wins
passed, judged when the hand changes), kuikae, the first go-around, the daiminkan a rinshan chain
began with, the kan that may be robbed, the wins of a ron waiting to be settled and the result --
under the attribute names :class:`~tenbou.engine.round.Round` has always had (a pickle gives them
back by name). It answers what the checks, the effects and the legal actions ask: the waits of a
seat, tenpai, furiten, the first go-around, kuikae, whether an ankan in riichi keeps the waits,
whether a daiminkan is the fourth kan dealt in. Asking changes nothing but the cache of waits a
seat keeps (a function of its hand, not part of the state).

Here too: the values a round is made of (:class:`Phase`, :class:`SeatState`, :class:`Discard`,
:class:`RoundResult`), the check of a ``start_kyoku`` (:func:`check_start`), and the checks of an
event's shape that every check shares (seats at the table, a number per player).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from ..core._native import mypyc_attr
from ..core.hand import Meld, MeldType
from ..core.shape import waits
from ..core.tiles import Tile
from ..core.values import DataRecord
from ..errors import IllegalEventError
from ..rules import Rules
from ..settle.payment import Settlement
from .events import Ankan, Chi, Daiminkan, Event, Hora, Pon, ReachAccepted, Ryukyoku, StartKyoku, event_name
from .plans import WinPlan
from .referee import Problems, Referee, TileCount

__all__ = ["Discard", "Phase", "RoundResult", "RoundState", "SeatState", "check_start", "start_problems"]

#: the biggest number a count on the table (honba, riichi sticks, points) may be
_MAX_COUNT = 10**6


class Phase(Enum):
    """Where the round stands: a seat is to ``DRAW``; a seat holding a drawn
    tile (or having called) is to ``ACT``; the others may ``REACT`` to a
    discard, or rob a kan (``CHANKAN``); or the round has ``ENDED``."""

    DRAW = "draw"
    ACT = "act"
    REACT = "react"
    CHANKAN = "chankan"
    ENDED = "ended"


@dataclass(slots=True)
class Discard(DataRecord):
    tile: Tile
    tsumogiri: bool
    riichi: bool = False
    called: bool = False


@dataclass(slots=True)
class SeatState(DataRecord):
    """One player's side of the table."""

    hand: list[Tile]
    score: int
    melds: list[Meld] = field(default_factory=list)
    #: kans in the order declared: (index in melds, type)
    kans: list[tuple[int, MeldType]] = field(default_factory=list)
    discards: list[Discard] = field(default_factory=list)
    riichi: bool = False  # declared (the declaration tile may still be ronned)
    riichi_accepted: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    has_drawn: bool = False
    #: furiten by a win passed: since one's last draw (temporary), or since riichi. The kinds passed
    #: are kept and judged against the waits when a win is claimed (the hand does not change in
    #: between but by one's own call, which settles them first), not worked out at every pass.
    temp_furiten: bool = False
    riichi_furiten: bool = False
    passed: set[int] = field(default_factory=set)
    passed_in_riichi: set[int] = field(default_factory=set)
    kita: int = 0
    drawn: Tile | None = None
    rinshan: bool = False  # the tile in hand was drawn from the dead wall
    kuikae: frozenset[int] = frozenset()
    #: a cache of ``waits`` (not part of the state: it follows the hand)
    waits_key: tuple[tuple[int, ...], bool] | None = None
    waits: list[int] = field(default_factory=list)

    def kinds(self) -> list[int]:
        # (``c[k] = c[k] + 1``: mypyc compiles ``c[k] += 1`` to a generic object addition)
        c = [0] * 34
        for t in self.hand:
            k = t.kind
            c[k] = c[k] + 1
        return c

    @property
    def closed(self) -> bool:
        return all(m.type is MeldType.ANKAN for m in self.melds)

    @property
    def declaring(self) -> bool:
        """Riichi declared and its tile not yet discarded: only that discard may follow."""
        return self.riichi and not self.riichi_accepted and not any(d.riichi for d in self.discards)


@dataclass(frozen=True, slots=True)
class RoundResult(DataRecord):
    """How the round ended: its settlement, the request that was settled (for
    wins), and what the record said where it said it."""

    settlement: Settlement
    request: dict[str, Any] | None
    recorded_deltas: tuple[int, ...] | None = None


def _seat_problem(value: int, name: str, players: int) -> str | None:
    if type(value) is not int or not 0 <= value < players:
        return f"{name}: {value!r} is not a seat 0..{players - 1}"
    return None


def check_start(rules: Rules, start: StartKyoku, players: int | None = None) -> list[str]:
    """What is wrong with a ``start_kyoku`` under ``rules`` (empty when nothing): the number of
    hands and scores, hand number, dealer, honba and riichi sticks in range, thirteen tiles to
    each hand, and no tile beyond the copies of the set (hands and dora indicator together).

    >>> from tenbou.rules import get_rules
    >>> from tenbou.core.tiles import Tile, Wind
    >>> hands = ((Tile.parse("1m"),) * 13,) * 3
    >>> start = StartKyoku(Wind.EAST, Tile.parse("1s"), 1, 0, 0, 0, (25000,) * 3, hands)
    >>> check_start(get_rules("tenhou"), start, players=4)
    ['start_kyoku deals 3 hands to 4 players']
    """
    return [message for message, _ in start_problems(rules, start, players)]


def start_problems(rules: Rules, start: StartKyoku, players: int | None) -> list[tuple[str, bool]]:
    """The problems of a start, each with whether the round cannot be set up at all with it."""
    n = len(start.tehais)
    if players is not None and n != players:
        return [(f"start_kyoku deals {n} hands to {players} players", True)]
    if n not in rules.players:
        allowed = " or ".join(map(str, rules.players))
        return [(f"start_kyoku deals {n} hands; these rules are played by {allowed} players", True)]
    out: list[tuple[str, bool]] = []
    if len(start.scores) != n:
        out.append((f"start_kyoku.scores: {len(start.scores)} scores for {n} players", True))
    elif any(type(x) is not int or abs(x) > _MAX_COUNT for x in start.scores):
        out.append(
            (f"start_kyoku.scores: {list(start.scores)} out of range (-{_MAX_COUNT}..{_MAX_COUNT})", True)
        )
    bad_oya = _seat_problem(start.oya, "start_kyoku.oya", n)
    if bad_oya:
        out.append((bad_oya, True))
    if type(start.kyoku) is not int or not 1 <= start.kyoku <= n:
        out.append((f"start_kyoku.kyoku: {start.kyoku!r} is not a hand number 1..{n}", True))
    elif not bad_oya and start.oya != start.kyoku - 1:
        out.append(
            (
                f"start_kyoku.oya: seat {start.oya} deals hand {start.kyoku} (seat {start.kyoku - 1} does)",
                False,
            )
        )
    for name, value in (("honba", start.honba), ("kyotaku", start.kyotaku)):
        if type(value) is not int or not 0 <= value <= _MAX_COUNT:
            out.append((f"start_kyoku.{name}: {value!r} is not a count 0..{_MAX_COUNT}", True))
    for i, h in enumerate(start.tehais):
        if len(h) != 13:
            out.append((f"start_kyoku gives seat {i} {len(h)} tiles, not 13", False))
    problem = TileCount(rules.red_fives, n).problem(
        [t for h in start.tehais for t in h] + [start.dora_marker], "start_kyoku"
    )
    if problem:
        out.append((problem, False))
    return out


@mypyc_attr(allow_interpreted_subclasses=True)  # (a bot may extend a round)
class RoundState(Referee):
    """The state of one hand and the questions asked of it (see the module docstring); a
    :class:`~tenbou.engine.round.Round` is this state, fed event by event."""

    def __init__(self, rules: Rules, start: StartKyoku, *, strict: bool = True, index: int = 0) -> None:
        problems = start_problems(rules, start, None)
        if problems and (strict or any(hard for _, hard in problems)):
            raise IllegalEventError(f"event {index}: {next(m for m, hard in problems if hard or strict)}")
        players = len(start.tehais)
        self.rules = rules
        self.players = players
        self.start = start
        self.strict = strict
        self.errors: list[str] = [f"event {index}: {m}" for m, _ in problems]
        self.dealer = start.oya
        self.round_wind = start.bakaze
        self.honba = start.honba
        self.kyotaku = start.kyotaku
        self.seats = [SeatState(list(h), s) for h, s in zip(start.tehais, start.scores, strict=True)]
        self.dora_markers: list[Tile] = [start.dora_marker]
        #: the ura indicators a win has shown (counted once for a double ron)
        self.ura_markers: list[Tile] = []
        self.tiles = TileCount(rules.red_fives, players)
        self.tiles.count([t for h in start.tehais for t in h] + [start.dora_marker])
        dead = 14
        total = 136 if players == 4 else 108
        self.live_wall = total - 13 * players - dead
        self.kans_declared = 0
        self.phase = Phase.DRAW
        self.actor = self.dealer
        self.last_discard: tuple[int, Tile] | None = None
        self.rinshan_pending = False
        self.chain_from: int | None = None  # who dealt the daiminkan that began this rinshan chain
        self.chain_broken = False  # an ankan or kakan came since that daiminkan
        self.chain_furiten = False  # the daiminkan's caller was furiten when it called
        self.kan_tile: tuple[int, Tile, str] | None = None  # a kan that may be robbed: (seat, tile, type)
        self.calls_made = False  # any call or kan this hand (ends the first go-around)
        self.discards_made = 0
        self.suukaikan_pending = False
        self.horas: list[tuple[Hora, dict[str, Any]]] = []
        #: the settlement of the wins so far (a ron may be followed by another on the same tile)
        self.pending: WinPlan | None = None
        self.result: RoundResult | None = None
        #: ``end_kyoku`` has come
        self.closed = False
        self.index = index

    def waits(self, seat: int) -> list[int]:
        """The kinds that would complete ``seat``'s hand (13 - 3 x melds tiles);
        cached until the hand changes."""
        return self.waits_of(seat, self.seats[seat].kinds())

    def waits_before_draw(self, seat: int) -> list[int]:
        """The waits of ``seat``'s hand without the tile it holds drawn (:meth:`waits` before the
        draw, cached as it is: polled on the discards before, they are mostly there): a tsumo
        completes the hand where the drawn tile's kind is among them."""
        st = self.seats[seat]
        counts = st.kinds()
        if st.drawn is not None:
            k = st.drawn.kind
            counts[k] = counts[k] - 1
        return self.waits_of(seat, counts)

    def waits_of(self, seat: int, counts: list[int]) -> list[int]:
        """The waits of ``counts``, concealed tiles of ``seat`` (:func:`~tenbou.core.shape.waits`,
        its melds telling whether the hand is closed), from ``seat``'s cache when they are the
        counts it was last asked of, else worked out and kept there."""
        st = self.seats[seat]
        key = (tuple(counts), not st.melds)
        if st.waits_key != key:
            st.waits_key = key
            st.waits = waits(counts, closed=not st.melds, players=self.players)
        return st.waits

    def is_tenpai(self, seat: int) -> bool:
        """Tenpai for the draw payments: waiting on a kind the player does not
        already hold four of (a wait on one's own fourth tile is no wait)."""
        st = self.seats[seat]
        held = [0] * 34
        for t in st.hand:
            held[t.kind] += 1
        for m in st.melds:
            for t in m.tiles:
                held[t.kind] += 1
        return any(held[k] < 4 for k in self.waits(seat))

    def furiten(self, seat: int) -> bool:
        """Furiten: a wait among one's own discards, a ron passed since one's
        last discard, or a ron passed after riichi."""
        st = self.seats[seat]
        if st.temp_furiten or st.riichi_furiten:
            return True
        w = set(self.waits(seat))
        return bool(w & st.passed or w & st.passed_in_riichi) or any(d.tile.kind in w for d in st.discards)

    def fourth_kan_deal_in(self, seat: int, tile: Tile) -> bool:
        """Whether ``seat``'s daiminkan of ``tile`` would make its fourth kan and, under
        ``suukantsu_pao_timing = "fourth_kan"`` (with suukantsu in ``pao_yaku``), end the hand as a
        suukantsu dealt in by the discarder (seed 000: 「大明槓された瞬間に四槓子の振り込みと見な
        されるルールもある」). A record may write it as that ``daiminkan`` (followed by
        ``end_kyoku``) or as a ``hora`` of ``seat`` on the discard; tenbou writes the ``hora``."""
        rules = self.rules
        if rules.suukantsu_pao_timing != "fourth_kan" or "suukantsu" not in rules.pao_yaku:
            return False
        st = self.seats[seat]
        return len(st.kans) == 3 and sum(t.kind == tile.kind for t in st.hand) == 3


def first_go_around(r: RoundState) -> bool:
    """No call yet, and not every player has discarded: the first go-around goes on."""
    return not r.calls_made and r.discards_made < r.players


def kan_order(r: RoundState, seat: int) -> list[int]:
    """The indices of ``seat``'s kans among its melds, in the order they were declared."""
    return [i for i, _ in r.seats[seat].kans]


def kuikae(r: RoundState, meld: Meld) -> frozenset[int]:
    """The kinds a chi or pon forbids discarding next (kuikae): the called kind, and by
    ``kuikae = forbidden`` the other end of a chi's run too (suji kuikae)."""
    rule = r.rules.kuikae
    called = meld.called
    if rule == "allowed" or called is None:
        return frozenset()
    forbidden = {called.kind}
    if meld.type is MeldType.CHI and rule == "forbidden":
        lo = min(t.kind for t in meld.tiles)
        if called.kind == lo and lo % 9 <= 5:
            forbidden.add(lo + 3)
        elif called.kind == lo + 2 and lo % 9 >= 1:
            forbidden.add(lo - 1)
    return frozenset(forbidden)


def leaves_a_discard(r: RoundState, seat: int, consumed: Sequence[Tile], meld: Meld) -> bool:
    """Whether, after calling ``meld`` with ``consumed``, ``seat`` has a tile kuikae lets it
    discard (a call after which every tile is forbidden cannot be made)."""
    if meld.type is MeldType.DAIMINKAN:
        return True
    forbidden = kuikae(r, meld)
    rest = list(r.seats[seat].hand)
    for t in consumed:
        rest.remove(t)
    return any(t.kind not in forbidden for t in rest)


def ankan_keeps_waits(r: RoundState, seat: int, ankan: Ankan) -> bool:
    """Whether ``seat``'s ankan, in riichi, leaves the waits it had before its draw."""
    st = r.seats[seat]
    assert st.drawn is not None
    before_hand = list(st.hand)
    before_hand.remove(st.drawn)
    c1 = [0] * 34
    for t in before_hand:
        c1[t.kind] += 1
    after = list(st.hand)
    for t in ankan.consumed:
        after.remove(t)
    c2 = [0] * 34
    for t in after:
        c2[t.kind] += 1
    return sorted(waits(c1, closed=not st.melds, players=r.players)) == sorted(
        waits(c2, closed=False, players=r.players)
    )


def meld_of(call: Chi | Pon | Daiminkan) -> Meld:
    """The meld a call makes."""
    return Meld(CALL_TYPES[type(call)], (*call.consumed, call.pai), call.target, call.pai)


# -- the checks of an event's shape that every check shares -------------------------------------


def check_seat(event: Event, name: str, value: int, players: int, p: Problems) -> None:
    """A seat field of an event (``name``: actor, target) names a seat at the table."""
    if type(value) is not int or not 0 <= value < players:
        p.hard(f"{event_name(event)}.{name}: {value!r} is not a seat 0..{players - 1}")


def check_numbers(ev: Hora | ReachAccepted | Ryukyoku, players: int, p: Problems) -> None:
    """The per-seat lists a record puts on an event have a number per player."""
    for attr, value in (("deltas", ev.deltas), ("scores", ev.scores)):
        if value is not None and len(value) != players:
            p.hard(f"{event_name(ev)}.{attr}: {len(value)} numbers for {players} players")


#: the meld each call makes
CALL_TYPES: dict[type[Any], MeldType] = {Chi: MeldType.CHI, Pon: MeldType.PON, Daiminkan: MeldType.DAIMINKAN}
