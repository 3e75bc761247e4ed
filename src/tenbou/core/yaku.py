"""Yaku: one record per yaku, each with one predicate of the same signature.

A predicate takes a :class:`Reading` (one way to read the winning hand: its
sets, pair and wait, plus the facts shared by every reading) and says whether
the yaku is present. Han (closed/open), names, the Tenhou id and whether it is
a yakuman live in the record; rule options (open tanyao, local yaku, renhou)
are read from ``reading.facts.rules`` inside the predicate.

Yakuhai follows the 役牌 seed: each dragon set is one han (``haku``,
``hatsu``, ``chun``); a set of the seat wind is ``seat_wind`` and of the round
wind ``round_wind``, so a double wind is two entries; a guest wind is nothing;
with three players a rule may make North a value tile for everyone
(``north_yakuhai``).

>>> YAKU_BY_ID["chun"].name_ja, YAKU_BY_ID["chun"].han_open
('役牌 中', 1)
>>> YAKU_BY_ID["pinfu"].han_open is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import Final

from ..rules import Rules
from ._native import mypyc_attr
from .hand import Hand, MeldType, Situation
from .shape import Raw, read_hand_counts
from .tiles import DRAGONS, TERMINALS_AND_HONORS, WINDS, Wind

__all__ = [
    "DORA_IDS",
    "YAKU",
    "YAKU_BY_ID",
    "YAKU_ORDER",
    "Form",
    "HandFacts",
    "Mentsu",
    "MentsuKind",
    "Reading",
    "Wait",
    "Yaku",
]


class Form(Enum):
    """The overall shape of a winning hand."""

    STANDARD = "standard"
    CHIITOITSU = "chiitoitsu"
    KOKUSHI = "kokushi"


class Wait(Enum):
    """The wait the winning tile completed in a reading."""

    RYANMEN = "ryanmen"
    KANCHAN = "kanchan"
    PENCHAN = "penchan"
    SHANPON = "shanpon"
    TANKI = "tanki"
    THIRTEEN = "thirteen_sided"  # kokushi waiting on all thirteen kinds


class MentsuKind(Enum):
    RUN = "run"
    TRIPLET = "triplet"
    KAN = "kan"


# (the members as module constants: on CPython 3.11 an attribute of an Enum class is read by a slow,
# unspecialised look-up, a module constant is not)
_STANDARD: Final = Form.STANDARD
_CHIITOITSU: Final = Form.CHIITOITSU
_KOKUSHI: Final = Form.KOKUSHI
_RYANMEN: Final = Wait.RYANMEN
_TANKI: Final = Wait.TANKI
_THIRTEEN: Final = Wait.THIRTEEN
_RUN: Final = MentsuKind.RUN
_TRIPLET: Final = MentsuKind.TRIPLET
_KAN: Final = MentsuKind.KAN
_CHI: Final = MeldType.CHI
_PON: Final = MeldType.PON
_ANKAN: Final = MeldType.ANKAN


@dataclass(frozen=True, slots=True)
class Mentsu:
    """A set of a reading: ``tile`` is its kind (the lowest for a run);
    ``melded`` if it is a call or kan declared; ``exposed`` if it counts as open
    for fu and concealed triplets (a call, or a triplet completed by ron)."""

    kind: MentsuKind
    tile: int
    melded: bool
    exposed: bool


_GREEN: Final = frozenset((19, 20, 21, 23, 25, 32))  # 2s 3s 4s 6s 8s hatsu
_TERMINALS: Final = frozenset((0, 8, 9, 17, 18, 26))


_DRAGON_MASK: Final = 0b111 << 31
_WIND_MASK: Final = 0b1111 << 27

#: hand features, the bits of :attr:`HandFacts.features`: whatever a yaku's predicate needs, said
#: in a bit, so that a yaku is asked only of hands (and readings) that have what it needs
#: (:attr:`Yaku.needs`)
F_CLOSED: Final = 1
F_TSUMO: Final = 2
F_RIICHI: Final = 1 << 2  # the situation's flags, one bit each (tenhou, chiihou and renhou share one;
# riichi's is not set with double riichi's)
F_DOUBLE_RIICHI: Final = 1 << 3
F_IPPATSU: Final = 1 << 4
F_HAITEI: Final = 1 << 5
F_HOUTEI: Final = 1 << 6
F_RINSHAN: Final = 1 << 7
F_CHANKAN: Final = 1 << 8
F_FIRST: Final = 1 << 9  # tenhou, chiihou or renhou
F_DRAGON_TRIPLET: Final = 1 << 10  # a dragon triplet in some reading (or melded)
F_WIND_TRIPLET: Final = 1 << 11
F_ONE_SUIT: Final = 1 << 12
F_KANS3: Final = 1 << 13
F_TERMINAL_HONOR: Final = 1 << 14
F_GREEN: Final = 1 << 15
F_LOCAL: Final = 1 << 16  # the rules play a local yaku
F_ALL_SIMPLE: Final = 1 << 17
F_HONORS: Final = 1 << 18  # an honour in the hand
F_NO_HONORS: Final = 1 << 19
F_HONORS_ONLY: Final = 1 << 20
#: reading features, the bits :attr:`Reading.features` adds to its hand's: the form, and how many
#: runs, triplets and concealed triplets, peikou, outside, a two-sided wait
R_STANDARD: Final = 1 << 21
R_CHIITOITSU: Final = 1 << 22
R_KOKUSHI: Final = 1 << 23
R_RUNS3: Final = 1 << 24  # three or four runs
R_RUNS4: Final = 1 << 25
R_NO_RUNS: Final = 1 << 26
R_TRIPS3: Final = 1 << 27  # three or four triplets (kans included)
R_TRIPS4: Final = 1 << 28
R_CONCEALED3: Final = 1 << 29  # exactly three concealed triplets
R_CONCEALED4: Final = 1 << 30
R_PEIKOU1: Final = 1 << 31
R_PEIKOU2: Final = 1 << 32
R_OUTSIDE: Final = 1 << 33
R_RYANMEN: Final = 1 << 34
#: one more hand feature: North is a value tile (a rule of three-player games)
F_NORTH_VALUE: Final = 1 << 35
#: more hand features: two or three dragon triplets, three or four wind triplets (kans included; melded,
#: or in every reading)
F_DRAGON_TRIPLETS2: Final = 1 << 36
F_DRAGON_TRIPLETS3: Final = 1 << 37
F_WIND_TRIPLETS3: Final = 1 << 38
F_WIND_TRIPLETS4: Final = 1 << 39
#: one more: all simples, in a closed hand or where the rules count tanyao open
F_TANYAO: Final = 1 << 43
#: more reading features: the runs of sanshoku (one run in each suit) and of ittsu (123, 456 and 789 of
#: one suit), the triplets of sanshoku doukou (one of a kind in each suit)
R_SANSHOKU: Final = 1 << 40
R_ITTSU: Final = 1 << 41
R_DOUKOU: Final = 1 << 42
#: all the reading features (every ``R_*`` bit; tests/test_scoring.py checks that none is left out)
READING_FEATURES: Final = (R_RYANMEN << 1) - R_STANDARD | R_SANSHOKU | R_ITTSU | R_DOUKOU
_ITTSU_BITS: Final = 1 | 1 << 9 | 1 << 18  # (runs from 1 of a suit: with those from 4 and 7, ittsu)
#: the reading features by the number of runs, of triplets, of concealed triplets, by peikou
#: (typed as tuples of any length: mypyc indexes those without boxing every item)
_RUN_FEATURES: Final[tuple[int, ...]] = (R_NO_RUNS, 0, 0, R_RUNS3, R_RUNS3 | R_RUNS4)
_TRIP_FEATURES: Final[tuple[int, ...]] = (0, 0, 0, R_TRIPS3, R_TRIPS3 | R_TRIPS4)
_CONCEALED_FEATURES: Final[tuple[int, ...]] = (0, 0, 0, R_CONCEALED3, R_CONCEALED4)
_PEIKOU_FEATURES: Final[tuple[int, ...]] = (0, R_PEIKOU1, R_PEIKOU2)

#: kinds by bit (bit k for kind k): each suit, the honours, terminals and honours, simples, and the
#: kinds that are not green
_MAN_MASK: Final = 0x1FF
_PIN_MASK: Final = 0x1FF << 9
_SOU_MASK: Final = 0x1FF << 18
_HONOR_MASK: Final = 0x7F << 27


def _mask(kinds: Iterable[int]) -> int:
    """The bits of ``kinds`` (an int: mypyc keeps a module constant of this native)."""
    bits = 0
    for k in kinds:
        bits |= 1 << k
    return bits


_TERMINAL_HONOR_MASK: Final = _mask(TERMINALS_AND_HONORS)
_SIMPLE_MASK: Final = _mask(k for k in range(34) if k not in TERMINALS_AND_HONORS)
_NOT_GREEN_MASK: Final = _mask(k for k in range(34) if k not in _GREEN)


def _honor_triplet_features(trips: int) -> int:
    """The hand features of its honour triplets (``trips``: bit i for kind 27 + i)."""
    dragons, winds = (trips >> 4).bit_count(), (trips & 0xF).bit_count()
    return (
        (F_DRAGON_TRIPLET if dragons else 0)
        | (F_DRAGON_TRIPLETS2 if dragons >= 2 else 0)
        | (F_DRAGON_TRIPLETS3 if dragons == 3 else 0)
        | (F_WIND_TRIPLET if winds else 0)
        | (F_WIND_TRIPLETS3 if winds >= 3 else 0)
        | (F_WIND_TRIPLETS4 if winds == 4 else 0)
    )


#: the hand features of its honour triplets, by those triplets (bit i for kind 27 + i)
_HONOR_TRIPLET_FEATURES: Final[tuple[int, ...]] = tuple([_honor_triplet_features(t) for t in range(128)])


_NO_KINDS: Final[tuple[int, ...]] = ()
#: each kind alone, as a tuple (the melds' kinds are joined from these)
_ONE_KIND: Final[tuple[tuple[int, ...], ...]] = tuple([(k,) for k in range(34)])
#: the winds and their kinds (a round wind is told by identity: an Enum's attributes read slowly)
_EAST: Final = Wind.EAST
_SOUTH: Final = Wind.SOUTH
_WEST: Final = Wind.WEST
_EAST_KIND: Final = Wind.EAST.kind
_SOUTH_KIND: Final = Wind.SOUTH.kind
_WEST_KIND: Final = Wind.WEST.kind
_NORTH_KIND: Final = Wind.NORTH.kind


#: the value tiles (bit k for kind k) by seat wind and round wind (kinds): the dragons and both winds
#: (looked up: in pure Python each operation on these large ints makes one)
_VALUE_MASKS: Final[tuple[tuple[int, ...], ...]] = tuple(
    [tuple([_DRAGON_MASK | 1 << seat | 1 << rnd for rnd in range(34)]) for seat in range(34)]
)


@mypyc_attr(free_list_len=1)
class HandFacts:
    """What every reading of one hand shares: tile counts, situation, rules,
    the melds as sets, the readings of the concealed tiles (``raws``) and the
    hand's features (the ``F_*`` bits of :attr:`features`: the tiles present, the
    situation's flags), of which :attr:`all_simple` and the like are read."""

    # (only what the scorer reads on most hands is stored; the rest is worked out when asked, below)
    __slots__ = (
        "closed", "concealed_kinds", "features", "hand", "kans", "meld_concealed", "meld_outside",
        "meld_run_mask", "meld_runs", "meld_trip_mask", "meld_trips", "raws", "round_wind", "rules",
        "seat_wind", "situation", "suits", "tsumo", "value_mask",
    )  # fmt: skip

    def __init__(self, hand: Hand, situation: Situation, rules: Rules) -> None:
        self.hand = hand
        self.situation = s = situation
        self.rules = rules
        kans = hidden = run_mask = trip_mask = present = 0
        closed = outside = True
        melds = hand.melds
        runs = trips = _NO_KINDS
        if melds:
            # (the kinds joined as tuples, from one-kind tuples made once: the first is taken as it is,
            # with no list made and turned into a tuple)
            for m in melds:
                k = m.kind
                mtype = m.type
                if mtype is _CHI:
                    present |= 7 << k
                    runs = runs + _ONE_KIND[k]
                    run_mask |= 1 << k
                    outside = outside and k % 9 in (0, 6)
                    closed = False
                    continue
                present |= 1 << k
                trips = trips + _ONE_KIND[k]
                trip_mask |= 1 << k
                outside = outside and bool(_TERMINAL_HONOR_MASK >> k & 1)
                if mtype is _PON:
                    closed = False
                else:
                    kans += 1
                    if mtype is not _ANKAN:
                        closed = False
                    else:
                        hidden += 1
        self.meld_runs, self.meld_trips = runs, trips
        self.meld_run_mask, self.meld_trip_mask, self.meld_outside = run_mask, trip_mask, outside
        self.kans, self.meld_concealed, self.closed = kans, hidden, closed
        #: the kinds of the concealed tiles (bit k for kind k) and their readings as sets and a pair
        kinds, raws = read_hand_counts(hand.concealed_counts, hand.concealed_low, hand.concealed_high)
        self.concealed_kinds, self.raws = kinds, raws
        present |= kinds
        self.tsumo = tsumo = s.discarder is None
        self.seat_wind = seat = 27 + (s.winner - s.dealer) % s.players
        w = s.round_wind
        self.round_wind = rnd = (
            _EAST_KIND
            if w is _EAST
            else _SOUTH_KIND
            if w is _SOUTH
            else _WEST_KIND
            if w is _WEST
            else _NORTH_KIND
        )
        self.suits = suits = (  # bits 1 m, 2 p, 4 s
            (1 if present & _MAN_MASK else 0)
            | (2 if present & _PIN_MASK else 0)
            | (4 if present & _SOU_MASK else 0)
        )
        value = _VALUE_MASKS[seat][rnd]
        feat = (F_CLOSED if closed else 0) | (F_TSUMO if tsumo else 0)
        if rules.north_yakuhai and s.players == 3:
            value |= 1 << 30
            feat |= F_NORTH_VALUE
        self.value_mask = value
        if s.double_riichi:
            feat |= F_DOUBLE_RIICHI
        elif s.riichi:
            feat |= F_RIICHI
        if s.ippatsu:
            feat |= F_IPPATSU
        if s.haitei:
            feat |= F_HAITEI
        if s.houtei:
            feat |= F_HOUTEI
        if s.rinshan:
            feat |= F_RINSHAN
        if s.chankan:
            feat |= F_CHANKAN
        if s.tenhou or s.chiihou or s.renhou:
            feat |= F_FIRST
        if present & _HONOR_MASK:
            feat |= F_HONORS
            # the honour triplets of any reading (melded, or the honours' part: the same in every reading)
            # and their features, looked up
            feat |= _HONOR_TRIPLET_FEATURES[(trip_mask | (raws[0][3] if raws else 0)) >> 27]
            if not suits:
                feat |= F_HONORS_ONLY
        else:
            feat |= F_NO_HONORS
        if suits in (1, 2, 4):
            feat |= F_ONE_SUIT
        if kans >= 3:
            feat |= F_KANS3
        if not present & _SIMPLE_MASK:
            feat |= F_TERMINAL_HONOR
        if not present & _NOT_GREEN_MASK:
            feat |= F_GREEN
        if rules.local_yaku:
            feat |= F_LOCAL
        if not present & _TERMINAL_HONOR_MASK:
            feat |= F_ALL_SIMPLE | F_TANYAO if closed or rules.open_tanyao else F_ALL_SIMPLE
        self.features = feat

    @property
    def counts(self) -> tuple[int, ...]:
        """The hand's tile counts by kind, melds included."""
        return self.hand.counts

    @property
    def concealed(self) -> tuple[int, ...]:
        """The counts of the concealed tiles (the winning tile among them)."""
        return self.hand.concealed_counts

    @property
    def win(self) -> int:
        """The winning tile's kind."""
        return self.hand.win_tile.kind

    @property
    def honors(self) -> bool:
        """Whether the hand holds an honour."""
        return bool(self.features & F_HONORS)

    @property
    def all_simple(self) -> bool:
        """Whether the hand holds simples only (no terminal, no honour)."""
        return bool(self.features & F_ALL_SIMPLE)

    @property
    def all_terminal_honor(self) -> bool:
        """Whether the hand holds terminals and honours only."""
        return bool(self.features & F_TERMINAL_HONOR)

    @property
    def all_green(self) -> bool:
        """Whether the hand holds green tiles only (23468s, 6z)."""
        return bool(self.features & F_GREEN)

    @property
    def value_kinds(self) -> frozenset[int]:
        """The kinds that are value tiles (yakuhai) for this hand."""
        return frozenset(k for k in range(27, 34) if self.value_mask >> k & 1)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HandFacts) and (self.hand, self.situation, self.rules) == (
            other.hand,
            other.situation,
            other.rules,
        )

    def __hash__(self) -> int:
        return hash((self.hand, self.situation, self.rules))

    def __reduce__(self) -> tuple[type[HandFacts], tuple[Hand, Situation, Rules]]:
        # what the facts are worked out from
        return HandFacts, (self.hand, self.situation, self.rules)

    @property
    def meld_sets(self) -> tuple[Mentsu, ...]:
        """The melds as :class:`Mentsu`, in call order."""
        out = []
        for m in self.hand.melds:
            if m.type is _CHI:
                out.append(Mentsu(_RUN, m.kind, True, True))
            elif m.type is _PON:
                out.append(Mentsu(_TRIPLET, m.kind, True, True))
            else:
                out.append(Mentsu(_KAN, m.kind, True, m.type is not _ANKAN))
        return tuple(out)


@mypyc_attr(free_list_len=1)
class Reading:
    """One reading of a winning hand: its form, pair and wait; ``runs`` and
    ``triplets`` (kans included) are kinds, melds included, with bit masks
    (bit ``k`` for kind ``k``); ``concealed_triplets`` counts triplets and kans
    neither called nor completed by a ron (``ron_triplet`` is the kind of one
    completed by a ron, or -1); ``peikou`` counts pairs of identical runs of a
    closed hand; ``outside`` says every set and the pair hold a terminal or an
    honour. ``sets`` lists them as :class:`Mentsu`."""

    __slots__ = (
        "concealed_triplets", "facts", "features", "form", "outside", "pair", "peikou", "raw",
        "ron_triplet", "run_mask", "runs", "trip_mask", "triplets", "wait",
    )  # fmt: skip

    def __init__(
        self,
        form: Form,
        pair: int,
        wait: Wait,
        facts: HandFacts,
        raw: Raw | None = None,
        ron_triplet: int = -1,
    ) -> None:
        self.form = form
        self.pair = pair
        self.wait = wait
        self.facts = facts
        self.ron_triplet = ron_triplet
        self.raw = raw
        if raw is None:
            self.runs, self.triplets = facts.meld_runs, facts.meld_trips
            self.run_mask, self.trip_mask = facts.meld_run_mask, facts.meld_trip_mask
            self.concealed_triplets = facts.meld_concealed
            self.peikou = 0
            self.outside = False
            self.features = facts.features | (R_CHIITOITSU if form is _CHIITOITSU else R_KOKUSHI)
            return
        _pair, trips, runs, tmask, rmask, peikou, outside = raw  # (the pair named: "_" would box it)
        self.runs = all_runs = facts.meld_runs + runs
        self.triplets = all_trips = facts.meld_trips + trips
        self.run_mask = rmask = facts.meld_run_mask | rmask
        self.trip_mask = tmask = facts.meld_trip_mask | tmask
        hidden = len(trips) + facts.meld_concealed
        if ron_triplet >= 0:  # (not "- (ron_triplet >= 0)": in pure Python an int minus a bool is slow)
            hidden -= 1
        self.concealed_triplets = hidden
        if peikou and not facts.closed:
            peikou = 0
        self.peikou = peikou
        self.outside = outside = outside and facts.meld_outside and pair in TERMINALS_AND_HONORS
        #: the hand's features and this reading's (the ``R_*`` bits; those most readings lack added only
        #: when present: in pure Python each ``|`` of these large ints makes one)
        n_runs, n_trips = len(all_runs), len(all_trips)
        feat = facts.features | R_STANDARD | _RUN_FEATURES[n_runs] | _TRIP_FEATURES[n_trips]
        if n_runs >= 3:
            if rmask & (rmask >> 9) & (rmask >> 18) & 0x7F:
                feat |= R_SANSHOKU
            if rmask & (rmask >> 3) & (rmask >> 6) & _ITTSU_BITS:
                feat |= R_ITTSU
        elif n_trips >= 3 and tmask & (tmask >> 9) & (tmask >> 18) & 0x1FF:
            feat |= R_DOUKOU
        if hidden >= 3:
            feat |= _CONCEALED_FEATURES[hidden]
        if peikou:
            feat |= _PEIKOU_FEATURES[peikou]
        if outside:
            feat |= R_OUTSIDE
        if wait is _RYANMEN:
            feat |= R_RYANMEN
        self.features = feat

    @property
    def kans(self) -> int:
        """How many kans the hand declared."""
        return self.facts.kans

    @property
    def sets(self) -> tuple[Mentsu, ...]:
        """The four sets (melds first), empty for chiitoitsu and kokushi."""
        f = self.facts
        if self.form is not _STANDARD:
            return ()
        own: list[Mentsu] = []
        ron = self.ron_triplet
        for k in self.triplets[len(f.meld_trips) :]:
            exposed = k == ron
            ron = -1 if exposed else ron
            own.append(Mentsu(_TRIPLET, k, False, exposed))
        own.extend(Mentsu(_RUN, k, False, False) for k in self.runs[len(f.meld_runs) :])
        return f.meld_sets + tuple(own)

    def __repr__(self) -> str:
        return f"<Reading {self.form.value} wait={self.wait.value} pair={self.pair} sets={self.sets}>"

    def _key(self) -> tuple[object, ...]:
        return (self.form, self.pair, self.wait, self.raw, self.ron_triplet, self.facts)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Reading) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __reduce__(self) -> tuple[type[Reading], tuple[object, ...]]:
        # pickle and copy rebuild a reading from what it was made of
        return Reading, (self.form, self.pair, self.wait, self.facts, self.raw, self.ron_triplet)


Predicate = Callable[[Reading], bool]


@dataclass(frozen=True, slots=True)
class Yaku:
    """A yaku: ids and names, han closed and open (``None`` = closed only),
    whether it is a yakuman, its Tenhou id, and its predicate."""

    id: str
    name: str
    name_ja: str
    han_closed: int
    han_open: int | None
    yakuman: bool
    tenhou_id: int | None
    predicate: Predicate = field(repr=False, compare=False)
    #: whether the answer can differ between readings of one hand (otherwise it
    #: depends only on the tiles, the form and the situation, and is asked once)
    per_reading: bool = False
    #: hand and reading features (``F_*`` and ``R_*`` bits of :attr:`Reading.features`) without
    #: which the predicate is false: a hand or reading lacking one is not asked
    needs: int = 0
    #: whether the yaku is present exactly when the hand and reading have its ``needs`` (its
    #: predicate says only that): the scorer counts it then without asking the predicate (so a
    #: predicate put in its place, by ``dataclasses.replace``, would not be asked)
    by_needs: bool = False
    #: the record's place in :data:`YAKU_ORDER`, its position in :data:`YAKU_BY_ID` (-1 for a yaku
    #: not of the table, e.g. one made by ``dataclasses.replace``): lets a per-yaku table be a list
    #: read by a native index, not a str-keyed dict (not compared, not shown, not an argument)
    _index: int = field(default=-1, init=False, repr=False, compare=False)

    def han(self, closed: bool) -> int | None:
        """Han on a closed or open hand (``None`` where it does not count)."""
        return self.han_closed if closed else self.han_open

    def __reduce__(self) -> tuple[object, tuple[str]]:
        # a yaku is one record of the table (its predicate is code): pickled by its id
        return _yaku_of, (self.id,)


def _yaku_of(yaku_id: str) -> Yaku:
    """The yaku of the table with this id (what a pickled yaku is read back as)."""
    return YAKU_BY_ID[yaku_id]


# -- predicates ---------------------------------------------------------------------------------


def _one_suit(r: Reading) -> bool:
    return r.facts.suits in (1, 2, 4)


def _pinfu(r: Reading) -> bool:
    f = r.facts
    return (
        r.form is _STANDARD
        and f.closed
        and len(r.runs) == 4
        and r.wait is _RYANMEN
        and not f.value_mask >> r.pair & 1
    )


def _north_yakuhai(r: Reading) -> bool:
    f = r.facts
    north_is_value = bool(f.value_mask >> 30 & 1) and 30 not in (f.seat_wind, f.round_wind)
    return north_is_value and bool(r.trip_mask >> 30 & 1)


def _chuuren(r: Reading, junsei: bool) -> bool:
    f = r.facts
    if f.hand.melds or f.features & F_HONORS or not _one_suit(r):
        return False
    base = 9 * (f.suits.bit_length() - 1)
    c = f.concealed[base : base + 9]
    if junsei:
        before = list(c)
        before[f.win - base] = before[f.win - base] - 1
        return before == [3, 1, 1, 1, 1, 1, 1, 1, 3]
    return c[0] >= 3 and c[8] >= 3 and all(c[1:8])


def _suurenkou(r: Reading) -> bool:
    if "suurenkou" not in r.facts.rules.local_yaku or len(r.triplets) != 4:
        return False
    t = sorted(r.triplets)
    return t[0] < 27 and t[0] // 9 == t[3] // 9 and t == [t[0], t[0] + 1, t[0] + 2, t[0] + 3]


def _isshoku_yonjun(r: Reading) -> bool:
    return (
        "isshoku_yonjun" in r.facts.rules.local_yaku
        and len(r.runs) == 4
        and r.runs[0] == r.runs[1] == r.runs[2] == r.runs[3]
    )


def _needs_met(needs: int) -> Predicate:
    """The predicate of a yaku present exactly when the hand and reading have ``needs``."""
    return lambda r: r.features & needs == needs


def _y(
    id: str,
    name: str,
    name_ja: str,
    han_closed: int,
    han_open: int | None,
    tenhou_id: int | None,
    predicate: Predicate | None,
    yakuman: bool = False,
) -> Yaku:
    """A yaku of the table; with no ``predicate``, its needs (``_NEEDS``) are its rule."""
    needs = _NEEDS.get(id, 0)
    return Yaku(
        id,
        name,
        name_ja,
        han_closed,
        han_open,
        yakuman,
        tenhou_id,
        _needs_met(needs) if predicate is None else predicate,
        id in _PER_READING,
        needs,
        predicate is None,
    )


#: the features each yaku needs (:attr:`Yaku.needs`); for a yaku of the table given no predicate, the
#: whole rule
_NEEDS: Final = {
    "riichi": F_RIICHI,
    "double_riichi": F_DOUBLE_RIICHI,
    "ippatsu": F_IPPATSU,
    "menzen_tsumo": F_CLOSED | F_TSUMO,
    "pinfu": F_CLOSED | R_STANDARD | R_RUNS4 | R_RYANMEN,
    "tanyao": F_TANYAO,
    "iipeikou": R_PEIKOU1,
    **dict.fromkeys(("haku", "hatsu", "chun"), F_DRAGON_TRIPLET),
    "shousangen": F_DRAGON_TRIPLETS2,
    "daisangen": F_DRAGON_TRIPLETS3,
    **dict.fromkeys(("seat_wind", "round_wind"), F_WIND_TRIPLET),
    "shousuushii": F_WIND_TRIPLETS3,
    "daisuushii": F_WIND_TRIPLETS4,
    "north_yakuhai": F_WIND_TRIPLET | F_NORTH_VALUE,
    "haitei": F_HAITEI,
    "houtei": F_HOUTEI,
    "rinshan": F_RINSHAN,
    "chankan": F_CHANKAN,
    **dict.fromkeys(("renhou", "tenhou", "chiihou", "renhou_yakuman"), F_FIRST),
    "sanshoku": R_SANSHOKU,
    "ittsu": R_ITTSU,
    "chanta": R_OUTSIDE | F_HONORS,
    "chiitoitsu": F_CLOSED | R_CHIITOITSU,
    "toitoi": R_STANDARD | R_NO_RUNS,
    "sanankou": R_CONCEALED3,
    **dict.fromkeys(("sankantsu", "suukantsu"), F_KANS3),
    "sanshoku_doukou": R_DOUKOU,
    "honroutou": F_TERMINAL_HONOR | F_HONORS,
    "ryanpeikou": R_PEIKOU2,
    "junchan": R_OUTSIDE | F_NO_HONORS,
    "honitsu": F_ONE_SUIT | F_HONORS,
    "chinitsu": F_ONE_SUIT | F_NO_HONORS,
    **dict.fromkeys(("kokushi", "kokushi_13"), F_CLOSED | R_KOKUSHI),
    **dict.fromkeys(("suuankou", "suuankou_tanki"), F_CLOSED | R_CONCEALED4),
    "tsuuiisou": F_TERMINAL_HONOR | F_HONORS_ONLY,
    "chinroutou": F_TERMINAL_HONOR | F_NO_HONORS,
    "ryuuiisou": F_GREEN,
    **dict.fromkeys(("chuuren", "junsei_chuuren"), F_ONE_SUIT | F_CLOSED | F_NO_HONORS),
    "suurenkou": F_LOCAL | R_TRIPS4,
    "isshoku_yonjun": F_LOCAL | R_RUNS4,
}  # fmt: skip
_PER_READING: Final = frozenset(
    {
        "pinfu", "iipeikou", "ryanpeikou", "sanshoku", "ittsu", "chanta", "junchan", "toitoi", "sanankou",
        "sanshoku_doukou", "kokushi", "kokushi_13", "suuankou", "suuankou_tanki", "suurenkou",
        "isshoku_yonjun",
    }
)  # fmt: skip


YAKU: Final[tuple[Yaku, ...]] = (
    # situational
    _y("riichi", "Riichi", "立直", 1, None, 1, None),
    _y("double_riichi", "Double riichi", "ダブル立直", 2, None, 21, None),
    _y("ippatsu", "Ippatsu", "一発", 1, None, 2,
       lambda r: r.facts.situation.ippatsu and r.facts.rules.ippatsu),
    _y("menzen_tsumo", "Menzen tsumo", "門前清自摸和", 1, None, 0, None),
    _y("pinfu", "Pinfu", "平和", 1, None, 7, _pinfu),
    _y("tanyao", "Tanyao", "断幺九", 1, 1, 8, None),
    _y("iipeikou", "Iipeikou", "一盃口", 1, None, 9, None),
    _y("haku", "Haku", "役牌 白", 1, 1, 18, lambda r: bool(r.trip_mask >> 31 & 1)),
    _y("hatsu", "Hatsu", "役牌 發", 1, 1, 19, lambda r: bool(r.trip_mask >> 32 & 1)),
    _y("chun", "Chun", "役牌 中", 1, 1, 20, lambda r: bool(r.trip_mask >> 33 & 1)),
    _y("seat_wind", "Seat wind", "自風牌", 1, 1, 10, lambda r: bool(r.trip_mask >> r.facts.seat_wind & 1)),
    _y("round_wind", "Round wind", "場風牌", 1, 1, 14, lambda r: bool(r.trip_mask >> r.facts.round_wind & 1)),
    _y("north_yakuhai", "North (value tile)", "役牌 北", 1, 1, None, _north_yakuhai),
    _y("haitei", "Haitei raoyue", "海底摸月", 1, 1, 5, None),
    _y("houtei", "Houtei raoyui", "河底撈魚", 1, 1, 6, None),
    _y("rinshan", "Rinshan kaihou", "嶺上開花", 1, 1, 4, None),
    _y("chankan", "Chankan", "槍槓", 1, 1, 3, None),
    _y("renhou", "Renhou", "人和", 5, None, 36,
       lambda r: r.facts.situation.renhou and r.facts.rules.renhou in ("mangan", "baiman")),
    # shapes
    _y("sanshoku", "Sanshoku doujun", "三色同順", 2, 1, 25, None),
    _y("ittsu", "Ittsu", "一気通貫", 2, 1, 24, None),
    _y("chanta", "Chanta", "混全帯幺九", 2, 1, 23,
       lambda r: r.outside and bool(r.features & F_HONORS) and bool(r.runs)),
    _y("chiitoitsu", "Chiitoitsu", "七対子", 2, None, 22, None),
    _y("toitoi", "Toitoi", "対々和", 2, 2, 28, None),
    _y("sanankou", "Sanankou", "三暗刻", 2, 2, 29, None),
    _y("sankantsu", "Sankantsu", "三槓子", 2, 2, 27, lambda r: r.facts.kans == 3),
    _y("sanshoku_doukou", "Sanshoku doukou", "三色同刻", 2, 2, 26, None),
    _y("shousangen", "Shousangen", "小三元", 2, 2, 30,
       lambda r: r.pair in DRAGONS and (r.trip_mask & _DRAGON_MASK).bit_count() == 2),
    _y("honroutou", "Honroutou", "混老頭", 2, 2, 31,
       lambda r: r.features & (F_TERMINAL_HONOR | F_HONORS | F_HONORS_ONLY) == F_TERMINAL_HONOR | F_HONORS),
    _y("ryanpeikou", "Ryanpeikou", "二盃口", 3, None, 32, None),
    _y("junchan", "Junchan", "純全帯幺九", 3, 2, 33,
       lambda r: r.outside and not r.features & F_HONORS and bool(r.runs)),
    _y("honitsu", "Honitsu", "混一色", 3, 2, 34, None),
    _y("chinitsu", "Chinitsu", "清一色", 6, 5, 35, None),
    # yakuman
    _y("kokushi", "Kokushi musou", "国士無双", 13, None, 47,
       lambda r: r.form is _KOKUSHI and r.wait is not _THIRTEEN, True),
    _y("kokushi_13", "Kokushi musou 13-sided wait", "国士無双十三面待ち", 13, None, 48,
       lambda r: r.form is _KOKUSHI and r.wait is _THIRTEEN, True),
    _y("suuankou", "Suuankou", "四暗刻", 13, None, 40,
       lambda r: r.concealed_triplets == 4 and r.wait is not _TANKI, True),
    _y("suuankou_tanki", "Suuankou tanki", "四暗刻単騎", 13, None, 41,
       lambda r: r.concealed_triplets == 4 and r.wait is _TANKI, True),
    _y("daisangen", "Daisangen", "大三元", 13, 13, 39, None, True),
    _y("shousuushii", "Shousuushii", "小四喜", 13, 13, 50,
       lambda r: r.pair in WINDS and (r.trip_mask & _WIND_MASK).bit_count() == 3, True),
    _y("daisuushii", "Daisuushii", "大四喜", 13, 13, 49, None, True),
    _y("tsuuiisou", "Tsuuiisou", "字一色", 13, 13, 42, None, True),
    _y("chinroutou", "Chinroutou", "清老頭", 13, 13, 44, None, True),
    _y("ryuuiisou", "Ryuuiisou", "緑一色", 13, 13, 43, None, True),
    _y("chuuren", "Chuuren poutou", "九蓮宝燈", 13, None, 45,
       lambda r: _chuuren(r, False) and not _chuuren(r, True), True),
    _y("junsei_chuuren", "Junsei chuuren poutou", "純正九蓮宝燈", 13, None, 46,
       lambda r: _chuuren(r, True), True),
    _y("suukantsu", "Suukantsu", "四槓子", 13, 13, 51, lambda r: r.facts.kans == 4, True),
    _y("tenhou", "Tenhou", "天和", 13, None, 37, lambda r: r.facts.situation.tenhou, True),
    _y("chiihou", "Chiihou", "地和", 13, None, 38, lambda r: r.facts.situation.chiihou, True),
    _y("renhou_yakuman", "Renhou", "人和", 13, None, 36,
       lambda r: r.facts.situation.renhou and r.facts.rules.renhou == "yakuman", True),
    _y("suurenkou", "Suurenkou", "四連刻", 13, 13, None, _suurenkou, True),
    _y("isshoku_yonjun", "Isshoku yonjun", "一色四順", 13, 13, None, _isshoku_yonjun, True),
)  # fmt: skip

#: dora-like counters (not yaku: they never make a hand win on their own)
DORA_IDS: Final = ("dora", "aka_dora", "ura_dora", "kita")
_DORA_NAMES: Final = {
    "dora": ("Dora", "ドラ", 52),
    "aka_dora": ("Red five", "赤ドラ", 54),
    "ura_dora": ("Ura dora", "裏ドラ", 53),
    "kita": ("Kita (North dora)", "抜きドラ", None),
}
DORA: Final[dict[str, Yaku]] = {
    k: Yaku(k, n, ja, 1, 1, False, tid, lambda r: False) for k, (n, ja, tid) in _DORA_NAMES.items()
}
YAKU_BY_ID: Final[dict[str, Yaku]] = {y.id: y for y in YAKU} | DORA
#: the order yaku are reported in
YAKU_ORDER: Final[dict[str, int]] = {k: i for i, k in enumerate(YAKU_BY_ID)}
for _record in YAKU_BY_ID.values():  # (a frozen record: its place in that order set once, here)
    object.__setattr__(_record, "_index", YAKU_ORDER[_record.id])
REGULAR_YAKU: Final[tuple[Yaku, ...]] = tuple(y for y in YAKU if not y.yakuman)
YAKUMAN: Final[tuple[Yaku, ...]] = tuple(y for y in YAKU if y.yakuman)
#: the four groups the scorer asks: once per hand (and form) or once per reading
HAND_YAKUMAN: Final = tuple(y for y in YAKUMAN if not y.per_reading)
READING_YAKUMAN: Final = tuple(y for y in YAKUMAN if y.per_reading)
HAND_REGULAR: Final = tuple(y for y in REGULAR_YAKU if not y.per_reading)
READING_REGULAR: Final = tuple(y for y in REGULAR_YAKU if y.per_reading)
