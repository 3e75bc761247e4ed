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

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

from .hand import Hand, Situation
from .rules import Rules
from .tiles import DRAGONS, TERMINALS_AND_HONORS, WINDS

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


@dataclass(frozen=True, slots=True)
class Mentsu:
    """A set of a reading: ``tile`` is its kind (the lowest for a run);
    ``melded`` if it is a call or kan declared; ``exposed`` if it counts as open
    for fu and concealed triplets (a call, or a triplet completed by ron)."""

    kind: MentsuKind
    tile: int
    melded: bool
    exposed: bool


_GREEN = frozenset((19, 20, 21, 23, 25, 32))  # 2s 3s 4s 6s 8s hatsu
_TERMINALS = frozenset((0, 8, 9, 17, 18, 26))


@dataclass(slots=True)
class HandFacts:
    """What every reading of one hand shares: tile counts, situation, rules."""

    hand: Hand
    situation: Situation
    rules: Rules
    counts: list[int]  # every tile, melds included (a kan counts 4)
    concealed: list[int]  # concealed tiles with the winning tile
    win: int
    closed: bool
    tsumo: bool
    seat_wind: int
    round_wind: int
    suits: int = 0  # bit 1 man, 2 pin, 4 sou
    honors: bool = False
    all_simple: bool = True
    all_terminal_honor: bool = True
    all_green: bool = True
    value_kinds: frozenset[int] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        suits = 0
        simple = term_honor = green = True
        honors = False
        for k, n in enumerate(self.counts):
            if not n:
                continue
            if k >= 27:
                honors = True
            else:
                suits |= 1 << (k // 9)
            if k in TERMINALS_AND_HONORS:
                simple = False
            else:
                term_honor = False
            if k not in _GREEN:
                green = False
        self.suits, self.honors = suits, honors
        self.all_simple, self.all_terminal_honor, self.all_green = simple, term_honor, green
        value = {31, 32, 33, self.seat_wind, self.round_wind}
        if self.rules.north_yakuhai and self.situation.players == 3:
            value.add(30)
        self.value_kinds = frozenset(value)


@dataclass(slots=True)
class Reading:
    """One reading of a winning hand. ``sets`` includes the melds; ``runs`` and
    ``triplets`` (kans included) are kinds; ``concealed_triplets`` counts
    triplets and kans that are neither called nor completed by a ron."""

    form: Form
    sets: tuple[Mentsu, ...]
    pair: int
    wait: Wait
    facts: HandFacts
    runs: tuple[int, ...] = ()
    triplets: tuple[int, ...] = ()
    concealed_triplets: int = 0
    kans: int = 0

    def __post_init__(self) -> None:
        runs: list[int] = []
        trips: list[int] = []
        concealed = kans = 0
        for m in self.sets:
            if m.kind is MentsuKind.RUN:
                runs.append(m.tile)
            else:
                trips.append(m.tile)
                if m.kind is MentsuKind.KAN:
                    kans += 1
                if not m.exposed:
                    concealed += 1
        self.runs, self.triplets = tuple(runs), tuple(trips)
        self.concealed_triplets, self.kans = concealed, kans


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

    def han(self, closed: bool) -> int | None:
        """Han on a closed or open hand (``None`` where it does not count)."""
        return self.han_closed if closed else self.han_open


# -- predicates ---------------------------------------------------------------------------------


def _peikou(r: Reading) -> int:
    if r.form is not Form.STANDARD or not r.facts.closed or len(r.runs) < 2:
        return 0
    seen: dict[int, int] = {}
    for k in r.runs:
        seen[k] = seen.get(k, 0) + 1
    return sum(n // 2 for n in seen.values())


def _one_suit(r: Reading) -> bool:
    return r.facts.suits in (1, 2, 4)


def _outside(r: Reading, honors_ok: bool) -> bool:
    """Every set and the pair hold a terminal (or an honour), with a run."""
    if r.form is not Form.STANDARD or not r.runs:
        return False
    ok = TERMINALS_AND_HONORS if honors_ok else _TERMINALS
    if r.pair not in ok:
        return False
    for k in r.triplets:
        if k not in ok:
            return False
    return all(k % 9 in (0, 6) for k in r.runs)


def _riichi(r: Reading) -> bool:
    s = r.facts.situation
    return s.riichi and not s.double_riichi


def _pinfu(r: Reading) -> bool:
    f = r.facts
    return (
        r.form is Form.STANDARD
        and f.closed
        and len(r.runs) == 4
        and r.wait is Wait.RYANMEN
        and r.pair not in f.value_kinds
    )


def _count_in(kinds: tuple[int, ...], targets: tuple[int, ...]) -> int:
    return sum(1 for k in kinds if k in targets)


def _sanshoku(r: Reading) -> bool:
    runs = set(r.runs)
    return any(n in runs and n + 9 in runs and n + 18 in runs for n in range(7))


def _ittsu(r: Reading) -> bool:
    runs = set(r.runs)
    return any(b in runs and b + 3 in runs and b + 6 in runs for b in (0, 9, 18))


def _doukou(r: Reading) -> bool:
    trips = set(r.triplets)
    return any(n in trips and n + 9 in trips and n + 18 in trips for n in range(9))


def _north_yakuhai(r: Reading) -> bool:
    f = r.facts
    return 30 in f.value_kinds and 30 not in (f.seat_wind, f.round_wind) and 30 in r.triplets


def _chuuren(r: Reading, junsei: bool) -> bool:
    f = r.facts
    if f.hand.melds or f.honors or not _one_suit(r):
        return False
    base = 9 * (f.suits.bit_length() - 1)
    c = f.concealed[base : base + 9]
    if junsei:
        c = list(c)
        c[f.win - base] -= 1
        return c == [3, 1, 1, 1, 1, 1, 1, 1, 3]
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


def _y(
    id: str,
    name: str,
    name_ja: str,
    han_closed: int,
    han_open: int | None,
    tenhou_id: int | None,
    predicate: Predicate,
    yakuman: bool = False,
) -> Yaku:
    return Yaku(id, name, name_ja, han_closed, han_open, yakuman, tenhou_id, predicate)


YAKU: tuple[Yaku, ...] = (
    # situational
    _y("riichi", "Riichi", "立直", 1, None, 1, _riichi),
    _y("double_riichi", "Double riichi", "ダブル立直", 2, None, 21,
       lambda r: r.facts.situation.double_riichi),
    _y("ippatsu", "Ippatsu", "一発", 1, None, 2,
       lambda r: r.facts.situation.ippatsu and r.facts.rules.ippatsu),
    _y("menzen_tsumo", "Menzen tsumo", "門前清自摸和", 1, None, 0,
       lambda r: r.facts.closed and r.facts.tsumo),
    _y("pinfu", "Pinfu", "平和", 1, None, 7, _pinfu),
    _y("tanyao", "Tanyao", "断幺九", 1, 1, 8,
       lambda r: r.facts.all_simple and (r.facts.closed or r.facts.rules.open_tanyao)),
    _y("iipeikou", "Iipeikou", "一盃口", 1, None, 9, lambda r: _peikou(r) == 1),
    _y("haku", "Haku", "役牌 白", 1, 1, 18, lambda r: 31 in r.triplets),
    _y("hatsu", "Hatsu", "役牌 發", 1, 1, 19, lambda r: 32 in r.triplets),
    _y("chun", "Chun", "役牌 中", 1, 1, 20, lambda r: 33 in r.triplets),
    _y("seat_wind", "Seat wind", "自風牌", 1, 1, 10, lambda r: r.facts.seat_wind in r.triplets),
    _y("round_wind", "Round wind", "場風牌", 1, 1, 14, lambda r: r.facts.round_wind in r.triplets),
    _y("north_yakuhai", "North (value tile)", "役牌 北", 1, 1, None, _north_yakuhai),
    _y("haitei", "Haitei raoyue", "海底摸月", 1, 1, 5, lambda r: r.facts.situation.haitei),
    _y("houtei", "Houtei raoyui", "河底撈魚", 1, 1, 6, lambda r: r.facts.situation.houtei),
    _y("rinshan", "Rinshan kaihou", "嶺上開花", 1, 1, 4, lambda r: r.facts.situation.rinshan),
    _y("chankan", "Chankan", "槍槓", 1, 1, 3, lambda r: r.facts.situation.chankan),
    _y("renhou", "Renhou", "人和", 5, None, 36,
       lambda r: r.facts.situation.renhou and r.facts.rules.renhou in ("mangan", "baiman")),
    # shapes
    _y("sanshoku", "Sanshoku doujun", "三色同順", 2, 1, 25, _sanshoku),
    _y("ittsu", "Ittsu", "一気通貫", 2, 1, 24, _ittsu),
    _y("chanta", "Chanta", "混全帯幺九", 2, 1, 23, lambda r: r.facts.honors and _outside(r, True)),
    _y("chiitoitsu", "Chiitoitsu", "七対子", 2, None, 22, lambda r: r.form is Form.CHIITOITSU),
    _y("toitoi", "Toitoi", "対々和", 2, 2, 28,
       lambda r: r.form is Form.STANDARD and not r.runs),
    _y("sanankou", "Sanankou", "三暗刻", 2, 2, 29, lambda r: r.concealed_triplets == 3),
    _y("sankantsu", "Sankantsu", "三槓子", 2, 2, 27, lambda r: r.kans == 3),
    _y("sanshoku_doukou", "Sanshoku doukou", "三色同刻", 2, 2, 26, _doukou),
    _y("shousangen", "Shousangen", "小三元", 2, 2, 30,
       lambda r: r.pair in DRAGONS and _count_in(r.triplets, DRAGONS) == 2),
    _y("honroutou", "Honroutou", "混老頭", 2, 2, 31,
       lambda r: r.facts.all_terminal_honor and r.facts.honors and bool(r.facts.suits)),
    _y("ryanpeikou", "Ryanpeikou", "二盃口", 3, None, 32, lambda r: _peikou(r) == 2),
    _y("junchan", "Junchan", "純全帯幺九", 3, 2, 33, lambda r: not r.facts.honors and _outside(r, False)),
    _y("honitsu", "Honitsu", "混一色", 3, 2, 34, lambda r: r.facts.honors and _one_suit(r)),
    _y("chinitsu", "Chinitsu", "清一色", 6, 5, 35, lambda r: not r.facts.honors and _one_suit(r)),
    # yakuman
    _y("kokushi", "Kokushi musou", "国士無双", 13, None, 47,
       lambda r: r.form is Form.KOKUSHI and r.wait is not Wait.THIRTEEN, True),
    _y("kokushi_13", "Kokushi musou 13-sided wait", "国士無双十三面待ち", 13, None, 48,
       lambda r: r.form is Form.KOKUSHI and r.wait is Wait.THIRTEEN, True),
    _y("suuankou", "Suuankou", "四暗刻", 13, None, 40,
       lambda r: r.concealed_triplets == 4 and r.wait is not Wait.TANKI, True),
    _y("suuankou_tanki", "Suuankou tanki", "四暗刻単騎", 13, None, 41,
       lambda r: r.concealed_triplets == 4 and r.wait is Wait.TANKI, True),
    _y("daisangen", "Daisangen", "大三元", 13, 13, 39, lambda r: _count_in(r.triplets, DRAGONS) == 3, True),
    _y("shousuushii", "Shousuushii", "小四喜", 13, 13, 50,
       lambda r: r.pair in WINDS and _count_in(r.triplets, WINDS) == 3, True),
    _y("daisuushii", "Daisuushii", "大四喜", 13, 13, 49, lambda r: _count_in(r.triplets, WINDS) == 4, True),
    _y("tsuuiisou", "Tsuuiisou", "字一色", 13, 13, 42, lambda r: not r.facts.suits, True),
    _y("chinroutou", "Chinroutou", "清老頭", 13, 13, 44,
       lambda r: r.facts.all_terminal_honor and not r.facts.honors, True),
    _y("ryuuiisou", "Ryuuiisou", "緑一色", 13, 13, 43, lambda r: r.facts.all_green, True),
    _y("chuuren", "Chuuren poutou", "九蓮宝燈", 13, None, 45,
       lambda r: _chuuren(r, False) and not _chuuren(r, True), True),
    _y("junsei_chuuren", "Junsei chuuren poutou", "純正九蓮宝燈", 13, None, 46,
       lambda r: _chuuren(r, True), True),
    _y("suukantsu", "Suukantsu", "四槓子", 13, 13, 51, lambda r: r.kans == 4, True),
    _y("tenhou", "Tenhou", "天和", 13, None, 37, lambda r: r.facts.situation.tenhou, True),
    _y("chiihou", "Chiihou", "地和", 13, None, 38, lambda r: r.facts.situation.chiihou, True),
    _y("renhou_yakuman", "Renhou", "人和", 13, None, 36,
       lambda r: r.facts.situation.renhou and r.facts.rules.renhou == "yakuman", True),
    _y("suurenkou", "Suurenkou", "四連刻", 13, 13, None, _suurenkou, True),
    _y("isshoku_yonjun", "Isshoku yonjun", "一色四順", 13, 13, None, _isshoku_yonjun, True),
)  # fmt: skip

#: dora-like counters (not yaku: they never make a hand win on their own)
DORA_IDS = ("dora", "aka_dora", "ura_dora", "kita")
_DORA_NAMES = {
    "dora": ("Dora", "ドラ", 52),
    "aka_dora": ("Red five", "赤ドラ", 54),
    "ura_dora": ("Ura dora", "裏ドラ", 53),
    "kita": ("Kita (North dora)", "抜きドラ", None),
}
DORA: dict[str, Yaku] = {
    k: Yaku(k, n, ja, 1, 1, False, tid, lambda r: False) for k, (n, ja, tid) in _DORA_NAMES.items()
}
YAKU_BY_ID: dict[str, Yaku] = {y.id: y for y in YAKU} | DORA
#: the order yaku are reported in
YAKU_ORDER: dict[str, int] = {k: i for i, k in enumerate(YAKU_BY_ID)}
REGULAR_YAKU: tuple[Yaku, ...] = tuple(y for y in YAKU if not y.yakuman)
YAKUMAN: tuple[Yaku, ...] = tuple(y for y in YAKU if y.yakuman)
