"""Tenhou mjlog records: 136-tile ids, call codes, the XML reader, and
winning hands as :func:`tenbou.api.score` requests.

An mjlog file is one ``<mjloggm>`` element (plain XML, or gzip-compressed:
told apart by the magic bytes ``1f 8b``, never by the file name). Its children
are ``GO`` (the rule bits), ``INIT`` (one per round: seed, scores, dealer,
starting hands), draws and discards (``T52``, ``D52`` ...), ``N`` (calls),
``REACH``, ``DORA``, ``AGARI`` (a win) and ``RYUUKYOKU`` (a draw).

Tiles are 136-ids: ``id // 4`` is the kind (see :mod:`tenbou.tiles`) and, in a
game with red fives, ids 16, 52 and 88 are the red 5m, 5p and 5s. Those ids do
not leave this module: everything public speaks :class:`~tenbou.tiles.Tile`
and :class:`~tenbou.hand.Meld`, or mpsz text.

>>> tile_from_136(52, red_fives=True), tile_from_136(52, red_fives=False)
(Tile.parse('0p'), Tile.parse('5p'))
>>> m = decode_meld(15881, red_fives=True)    # a pon called from the next seat
>>> m.type, str(m.meld(caller=1, players=3))
(<TenhouMeldType.PON: 'pon'>, 'pon:222p@2=2p')

Reading a record and scoring its wins:

>>> game = parse_mjlog(_EXAMPLE, source="example.xml")
>>> game.game_type.players, len(game.rounds)
(4, 1)
>>> rnd, win = next(game.wins())
>>> request = agari_to_request(win, rnd.init, game.game_type)
>>> request["hand"], request["win_tile"], request["from"], request["riichi"]
('123m566778p3566s', '4s', 0, True)
>>> from tenbou.api import score
>>> result = score(request)
>>> result["han"], result["fu"], result["points"], (win.ten.fu, win.ten.points)
(2, 40, 2600, (40, 2600))
"""

from __future__ import annotations

import gzip
import os
import xml.etree.ElementTree as ET
import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum

from ..errors import LogFormatError
from ..events import (
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
from ..hand import Meld, MeldType
from ..tiles import Tile, Wind, format_tiles
from ..yaku import DORA, YAKU
from .record import JSON, GameRecord, HandEnd, WinRecord

__all__ = [
    "GO_FAST",
    "GO_HANCHAN",
    "GO_NO_KUITAN",
    "GO_NO_RED",
    "GO_SANMA",
    "GO_VS_HUMAN",
    "JSON",
    "Agari",
    "Call",
    "GameType",
    "Init",
    "MjlogGame",
    "Round",
    "Ten",
    "TenhouMeld",
    "TenhouMeldType",
    "agari_to_request",
    "decode_meld",
    "is_mjlog",
    "parse_mjlog",
    "parse_ten",
    "parse_yaku",
    "parse_yakuman",
    "read_mjlog",
    "recorded_yaku",
    "tenbou_yaku_id",
    "tile_from_136",
]


# -- GO type bits -------------------------------------------------------------------------------

#: GO ``type`` bits (confirmed against tenhou.net/6 ``rule.disp`` of the same games).
GO_VS_HUMAN = 0x01
GO_NO_RED = 0x02
GO_NO_KUITAN = 0x04
GO_HANCHAN = 0x08
GO_SANMA = 0x10
GO_FAST = 0x40

_RED_IDS = frozenset((16, 52, 88))
_MAGIC_GZIP = b"\x1f\x8b"


@dataclass(frozen=True, slots=True)
class GameType:
    """The ``GO type`` of a game: a bit set of room rules.

    >>> g = GameType(0xA9)            # 鳳南喰赤: Phoenix room, hanchan, kuitan, red fives
    >>> g.players, g.red_fives, g.kuitan, g.hanchan, g.fast
    (4, True, True, True, False)
    >>> GameType(0xB9).players, GameType(0x07).rule_overrides()
    (3, {'red_fives': 0, 'open_tanyao': False})
    """

    code: int

    @property
    def players(self) -> int:
        return 3 if self.code & GO_SANMA else 4

    @property
    def red_fives(self) -> bool:
        """Red fives are played (bit 0x02 means *no* red fives)."""
        return not self.code & GO_NO_RED

    @property
    def kuitan(self) -> bool:
        """Open tanyao counts (bit 0x04 means kuitan-nashi)."""
        return not self.code & GO_NO_KUITAN

    @property
    def hanchan(self) -> bool:
        return bool(self.code & GO_HANCHAN)

    @property
    def fast(self) -> bool:
        return bool(self.code & GO_FAST)

    def rule_overrides(self) -> dict[str, JSON]:
        """Overrides of the ``tenhou`` preset this game's room rules need."""
        out: dict[str, JSON] = {}
        if not self.red_fives:
            out["red_fives"] = 0
        if not self.kuitan:
            out["open_tanyao"] = False
        return out

    def rules_json(self) -> JSON:
        """The rules of a whole game in this room: the ``tenhou`` preset, with
        the room's red fives, kuitan and length (東風 without bit 0x08).

        >>> GameType(0xA9).rules_json(), GameType(0xC1).rules_json()
        ('tenhou', {'preset': 'tenhou', 'overrides': {'length': 'tonpuu'}})
        """
        out = self.rule_overrides()
        if not self.hanchan:
            out["length"] = "tonpuu"
        return {"preset": "tenhou", "overrides": out} if out else "tenhou"

    def unmodelled(self) -> str | None:
        """Why tenbou does not replay games of this room (``None``: it does).

        >>> GameType(0xA9).unmodelled() is None, GameType(0x229).unmodelled()
        (True, 'unmodelled rules: a Tenhou chip room (GO type bit 0x200, 祝儀: chips, kiriage mangan)')
        """
        for bit, what in UNMODELLED_GO_BITS:
            if self.code & bit:
                return f"unmodelled rules: {what}"
        if self.code & ~0xFFF:
            return f"unmodelled rules: GO type {self.code:#x} has bits tenbou does not know"
        return None

    @classmethod
    def of_rules(cls, rules: JSON, players: int = 4) -> GameType:
        """The ``GO`` type of a room playing ``rules`` (a ``tenhou`` preset value,
        or any rules: their red fives, kuitan and length), a human game in the
        Phoenix room.

        >>> tonpuu = {"preset": "tenhou", "overrides": {"length": "tonpuu"}}
        >>> GameType.of_rules("tenhou").code, GameType.of_rules(tonpuu).code
        (169, 161)
        """
        from ..rules import rules_from_request

        r = rules_from_request(rules)
        code = GO_VS_HUMAN | 0xA0
        if not r.red_fives:
            code |= GO_NO_RED
        if not r.open_tanyao:
            code |= GO_NO_KUITAN
        if r.length != "tonpuu":
            code |= GO_HANCHAN
        if players == 3:
            code |= GO_SANMA
        return cls(code)


# -- tiles and calls ----------------------------------------------------------------------------


def tile_from_136(tid: int, red_fives: bool) -> Tile:
    """The tile of a 136-id; ids 16, 52 and 88 are red when the game has red fives.

    >>> [str(tile_from_136(i, True)) for i in (0, 16, 17, 88, 135)]
    ['1m', '0m', '5m', '0s', '7z']
    >>> tile_from_136(136, True)
    Traceback (most recent call last):
    ...
    tenbou.errors.LogFormatError: tile id 136 is out of range 0..135
    """
    if isinstance(tid, bool) or not isinstance(tid, int) or not 0 <= tid < 136:
        raise LogFormatError(f"tile id {tid!r} is out of range 0..135")
    return Tile(tid // 4, red_fives and tid in _RED_IDS)


class TenhouMeldType(Enum):
    """The kinds of call an mjlog ``m`` code encodes (``kita``: a North set aside
    in three-player games, 抜きドラ)."""

    CHI = "chi"
    PON = "pon"
    DAIMINKAN = "daiminkan"
    KAKAN = "kakan"
    ANKAN = "ankan"
    KITA = "kita"

    @property
    def meld_type(self) -> MeldType | None:
        """The tenbou :class:`~tenbou.hand.MeldType` (``None`` for kita, not a meld)."""
        return None if self is TenhouMeldType.KITA else MeldType(self.value)


@dataclass(frozen=True, slots=True)
class TenhouMeld:
    """One decoded call code. ``ids`` are the 136-ids of its tiles (a kakan:
    the pon's three, then the added one); ``called_id`` is the tile taken from
    another player (``None`` for ankan and kita); ``relative_from`` is who it
    was taken from, counted from the caller: 0 nobody, 1 the next player
    (shimocha), 2 the one after, 3 the previous player (kamicha).
    For a kakan both are those of the original pon."""

    code: int
    type: TenhouMeldType
    ids: tuple[int, ...]
    called_id: int | None
    relative_from: int
    red_fives: bool = True

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """The tiles, as :class:`~tenbou.tiles.Tile`."""
        return tuple(tile_from_136(i, self.red_fives) for i in self.ids)

    @property
    def called(self) -> Tile | None:
        """The tile taken from another player (``None`` for ankan and kita)."""
        return None if self.called_id is None else tile_from_136(self.called_id, self.red_fives)

    def from_seat(self, caller: int, players: int = 4) -> int | None:
        """The absolute seat the tile was called from (``None`` for ankan and kita).
        Tenhou counts ``relative_from`` around four seats also with three players
        (the fourth seat stays empty): seat 2 calling from seat 0 is 2 seats on.

        >>> decode_meld(47655, True).from_seat(caller=0)     # chi: always the previous seat
        3
        >>> decode_meld(15882, True).from_seat(caller=2, players=3)
        0
        """
        if not self.relative_from:
            return None
        seat = (caller + self.relative_from) % 4  # Tenhou counts around four seats, the empty one too
        if seat >= players:
            raise LogFormatError(
                f"call code {self.code}: seat {caller} calls from seat {seat}, which is empty"
            )
        return seat

    def meld(self, caller: int, players: int = 4) -> Meld:
        """The call as a tenbou :class:`~tenbou.hand.Meld`; a kita is not a meld
        and raises :class:`~tenbou.errors.LogFormatError`."""
        mtype = self.type.meld_type
        if mtype is None:
            raise LogFormatError(f"call code {self.code} is a kita (North set aside), not a meld")
        return Meld(mtype, self.tiles, self.from_seat(caller, players), self.called)

    def to_json(self, caller: int, players: int = 4) -> dict[str, JSON]:
        """The meld object of a score request (``type``, ``tiles``, ``from``, ``called``)."""
        m = self.meld(caller, players)
        out: dict[str, JSON] = {"type": m.type.value, "tiles": format_tiles(m.tiles)}
        if m.from_seat is not None:
            out["from"] = m.from_seat
        if m.called is not None:
            out["called"] = str(m.called)
        return out


def decode_meld(code: int, red_fives: bool) -> TenhouMeld:
    """Decode an mjlog call code (the ``m`` of ``N`` and ``AGARI``).

    The standard layout: bits 0-1 are the relative source; bit 2 set is a chi
    (``m >> 10`` = 3 x run start + called index; bits 3-8 the copy of each
    tile), else bit 3 a pon and bit 4 a kakan (``m >> 9`` = 3 x kind + called
    index; bits 5-6 the copy left out of the pon, the one added by a kakan),
    else bit 5 a kita (``m >> 8`` = the North's id), else a kan (``m >> 8`` =
    the called tile's id; source 0 = ankan, else daiminkan).

    >>> m = decode_meld(47655, red_fives=True)
    >>> m.type.value, m.ids, m.called_id, m.relative_from, str(m.meld(caller=0))
    ('chi', (76, 81, 84), 81, 3, 'chi:234s@3=3s')
    >>> m = decode_meld(49778, red_fives=True)   # an added kan of hatsu, the pon from across
    >>> m.type.value, m.ids, m.called_id, m.relative_from, str(m.meld(caller=0))
    ('kakan', (128, 129, 130, 131), 129, 2, 'kakan:6666z@2=6z')
    >>> [decode_meld(c, True).type.value for c in (24576, 29699, 30752)]
    ['ankan', 'daiminkan', 'kita']
    >>> decode_meld(-1, True)
    Traceback (most recent call last):
    ...
    tenbou.errors.LogFormatError: call code -1 is not a non-negative integer
    """
    if isinstance(code, bool) or not isinstance(code, int) or code < 0:
        raise LogFormatError(f"call code {code!r} is not a non-negative integer")
    rel = code & 3
    if code & 0x4:
        t = code >> 10
        called, start = t % 3, t // 3
        if start >= 21:
            raise LogFormatError(f"call code {code}: chi start {start} is out of range 0..20")
        kind = start // 7 * 9 + start % 7
        copies = ((code >> 3) & 3, (code >> 5) & 3, (code >> 7) & 3)
        ids = tuple(4 * (kind + i) + copies[i] for i in range(3))
        if rel != 3:
            raise LogFormatError(f"call code {code}: a chi comes from the previous player (3), not {rel}")
        return TenhouMeld(code, TenhouMeldType.CHI, ids, ids[called], rel, red_fives)
    if code & 0x18:
        t = code >> 9
        called, kind = t % 3, t // 3
        if kind >= 34:
            raise LogFormatError(f"call code {code}: tile kind {kind} is out of range 0..33")
        if not rel:
            raise LogFormatError(f"call code {code}: a pon or added kan needs a source (bits 0-1 are 0)")
        other = (code >> 5) & 3
        pon = tuple(4 * kind + c for c in range(4) if c != other)
        if code & 0x8:
            return TenhouMeld(code, TenhouMeldType.PON, pon, pon[called], rel, red_fives)
        return TenhouMeld(code, TenhouMeldType.KAKAN, (*pon, 4 * kind + other), pon[called], rel, red_fives)
    if code & 0x20:
        tid = code >> 8
        if not 120 <= tid < 124:
            raise LogFormatError(f"call code {code}: a kita sets aside a North (ids 120..123), not id {tid}")
        return TenhouMeld(code, TenhouMeldType.KITA, (tid,), None, 0, red_fives)
    tid = code >> 8
    if tid >= 136:
        raise LogFormatError(f"call code {code}: tile id {tid} is out of range 0..135")
    ids = tuple(range(tid // 4 * 4, tid // 4 * 4 + 4))
    if rel:
        return TenhouMeld(code, TenhouMeldType.DAIMINKAN, ids, tid, rel, red_fives)
    return TenhouMeld(code, TenhouMeldType.ANKAN, ids, None, 0, red_fives)


# -- yaku ---------------------------------------------------------------------------------------

_REGULAR_IDS: dict[int, str] = {
    **{y.tenhou_id: y.id for y in YAKU if not y.yakuman and y.tenhou_id is not None},
    **{y.tenhou_id: y.id for y in DORA.values() if y.tenhou_id is not None},
    **dict.fromkeys(range(10, 14), "seat_wind"),
    **dict.fromkeys(range(14, 18), "round_wind"),
}
_YAKUMAN_IDS: dict[int, str] = {y.tenhou_id: y.id for y in YAKU if y.yakuman and y.tenhou_id is not None}


def tenbou_yaku_id(tenhou_id: int, yakuman: bool = False) -> str:
    """The tenbou yaku id of a Tenhou yaku id (``yakuman=True`` for the ids of
    the ``yakuman`` attribute). Tenhou numbers each seat wind (10-13) and round
    wind (14-17); 52-54 are dora, ura dora and red fives.

    >>> [tenbou_yaku_id(i) for i in (0, 1, 7, 11, 15, 52, 53, 54)]
    ['menzen_tsumo', 'riichi', 'pinfu', 'seat_wind', 'round_wind', 'dora', 'ura_dora', 'aka_dora']
    >>> tenbou_yaku_id(36), tenbou_yaku_id(36, yakuman=True), tenbou_yaku_id(41, yakuman=True)
    ('renhou', 'renhou_yakuman', 'suuankou_tanki')
    >>> tenbou_yaku_id(99)
    Traceback (most recent call last):
    ...
    tenbou.errors.LogFormatError: unknown Tenhou yaku id 99
    """
    table = _YAKUMAN_IDS if yakuman else _REGULAR_IDS
    try:
        return table[tenhou_id]
    except KeyError:
        raise LogFormatError(f"unknown Tenhou {'yakuman' if yakuman else 'yaku'} id {tenhou_id!r}") from None


@dataclass(frozen=True, slots=True)
class Ten:
    """The ``ten`` of an AGARI: fu, points and limit (0 none, 1 mangan,
    2 haneman, 3 baiman, 4 sanbaiman, 5 yakuman). ``points`` is the hand's
    value without honba and riichi sticks; for a tsumo, the sum of what the
    others pay (in three-player games the missing North share is not paid)."""

    fu: int
    points: int
    limit: int

    @property
    def limit_name(self) -> str | None:
        """The limit as tenbou names it (``None`` below mangan)."""
        return (None, "mangan", "haneman", "baiman", "sanbaiman", "yakuman")[self.limit]


def _int_list(text: str, what: str) -> tuple[int, ...]:
    if not text.strip():
        return ()
    try:
        return tuple(int(x) for x in text.split(","))
    except ValueError:
        raise LogFormatError(f"{what}={text!r} is not a comma-separated list of integers") from None


def parse_ten(text: str) -> Ten:
    """``ten="fu,points,limit"``.

    >>> parse_ten("30,7700,0")
    Ten(fu=30, points=7700, limit=0)
    >>> parse_ten("40,8000")
    Traceback (most recent call last):
    ...
    tenbou.errors.LogFormatError: ten='40,8000' needs three numbers: fu, points, limit
    """
    values = _int_list(text, "ten")
    if len(values) != 3:
        raise LogFormatError(f"ten={text!r} needs three numbers: fu, points, limit")
    fu, points, limit = values
    if fu < 0 or points <= 0 or not 0 <= limit <= 5:
        raise LogFormatError(f"ten={text!r}: fu >= 0, points > 0 and a limit 0..5 are expected")
    return Ten(fu, points, limit)


def parse_yaku(text: str) -> tuple[tuple[int, int], ...]:
    """``yaku="id,han,id,han,..."`` as (Tenhou id, han) pairs, in record order.

    >>> parse_yaku("1,1,0,1,52,2,53,0")
    ((1, 1), (0, 1), (52, 2), (53, 0))
    >>> parse_yaku("1,1,7")
    Traceback (most recent call last):
    ...
    tenbou.errors.LogFormatError: yaku='1,1,7' has an odd count of numbers (expected id,han pairs)
    """
    values = _int_list(text, "yaku")
    if len(values) % 2:
        raise LogFormatError(f"yaku={text!r} has an odd count of numbers (expected id,han pairs)")
    pairs = tuple(zip(values[::2], values[1::2], strict=True))
    for yid, han in pairs:
        tenbou_yaku_id(yid)
        if han < 0:
            raise LogFormatError(f"yaku={text!r}: negative han {han} for id {yid}")
    return pairs


def parse_yakuman(text: str) -> tuple[int, ...]:
    """``yakuman="id,id,..."``: the Tenhou ids of a yakuman hand's yakuman.

    >>> parse_yakuman("49,41,42")
    (49, 41, 42)
    """
    values = _int_list(text, "yakuman")
    for yid in values:
        tenbou_yaku_id(yid, yakuman=True)
    return values


# -- records ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Init:
    """The ``INIT`` of a round. ``round_index`` counts rounds from East 1 (0-3
    East, 4-7 South, 8-11 West, 12-15 North); ``dice`` is ``None`` where a
    converter left them out; ``scores`` are in points; ``hands`` are the
    starting 136-ids of each seat (empty for the empty seat in sanma)."""

    round_index: int
    honba: int
    riichi_sticks: int
    dice: tuple[int, int] | None
    dora_indicator: int
    oya: int
    scores: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]

    @property
    def round_wind(self) -> Wind:
        return Wind.of_index(self.round_index // 4)

    @property
    def number(self) -> int:
        """The round's number within its wind (East 1 = 1)."""
        return self.round_index % 4 + 1


@dataclass(frozen=True, slots=True)
class Call:
    """An ``N`` element: seat ``who`` made call ``code`` (decode with :func:`decode_meld`)."""

    who: int
    code: int


@dataclass(frozen=True, slots=True)
class Agari:
    """An ``AGARI`` element (a win). ``hai`` are the concealed 136-ids, the
    winning tile ``machi`` among them; ``melds`` the raw call codes as the
    record lists them (the reverse of the call order, a kakan in the place of
    its pon; kita included); ``yaku`` (Tenhou id, han) pairs, empty for a
    yakuman hand, whose ids are in ``yakuman``; ``sc`` the scores and changes
    as recorded (in hundreds)."""

    who: int
    from_who: int
    honba: int
    riichi_sticks: int
    hai: tuple[int, ...]
    melds: tuple[int, ...]
    machi: int
    ten: Ten
    yaku: tuple[tuple[int, int], ...]
    yakuman: tuple[int, ...]
    dora_hai: tuple[int, ...]
    dora_hai_ura: tuple[int, ...]
    pao_who: int | None
    sc: tuple[int, ...]

    @property
    def tsumo(self) -> bool:
        return self.who == self.from_who

    @property
    def yaku_ids(self) -> frozenset[int]:
        """Every Tenhou yaku id recorded, yakuman included (han 0 entries too)."""
        return frozenset(y for y, _ in self.yaku) | frozenset(self.yakuman)


@dataclass(frozen=True, slots=True)
class Round:
    """One round: its ``INIT``, the calls (``N``) in order, the seats whose
    riichi was accepted (``REACH step=2``), the wins, and the draw's type
    (``"exhaustive"`` for a plain draw; ``None`` if the round had no draw)."""

    init: Init
    calls: tuple[Call, ...] = ()
    riichi: tuple[int, ...] = ()
    agari: tuple[Agari, ...] = ()
    draw: str | None = None


@dataclass(frozen=True, slots=True)
class MjlogGame:
    """One mjlog file: its ``GO`` rules, rounds and, when read leniently,
    the errors met on the way (the records they concern are left out)."""

    source: str
    game_type: GameType
    rounds: tuple[Round, ...]
    errors: tuple[LogFormatError, ...] = field(default=(), compare=False)

    def wins(self) -> Iterator[tuple[Round, Agari]]:
        """Every win with its round, in record order."""
        for rnd in self.rounds:
            for agari in rnd.agari:
                yield rnd, agari


def _decompress(data: bytes, source: str) -> bytes:
    if data[:2] == _MAGIC_GZIP:
        try:
            return gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as e:
            raise LogFormatError(f"{source}: gzip data cannot be decompressed: {e}") from None
    return data


def is_mjlog(data: bytes) -> bool:
    """Whether bytes look like an mjlog record (plain or gzip): an ``<mjloggm``
    root near the start. A cheap sniff for choosing a reader, not a check.

    >>> is_mjlog(b'<mjloggm ver="2.3"></mjloggm>'), is_mjlog(b'{"log": []}')
    (True, False)
    """
    try:
        head = _decompress(data, "")[:4096]
    except LogFormatError:
        return False
    return b"<mjloggm" in head


class _Reader:
    """Builds an :class:`MjlogGame` from the root element, strict or lenient."""

    def __init__(self, source: str, strict: bool) -> None:
        self.source = source
        self.strict = strict
        self.errors: list[LogFormatError] = []
        self.game_type: GameType | None = None
        self.rules: JSON = None  # tenbou's own rules attribute on <GO>, checked as JSON
        self.rounds: list[Round] = []
        self.init: Init | None = None
        self.calls: list[Call] = []
        self.riichi: list[int] = []
        self.agari: list[Agari] = []
        self.draw: str | None = None

    def fail(self, where: str, problem: str) -> None:
        err = LogFormatError(f"{self.source}: {where}: {problem}")
        if self.strict:
            raise err
        self.errors.append(err)

    @property
    def players(self) -> int:
        return self.game_type.players if self.game_type else 4

    def close_round(self) -> None:
        if self.init is not None:
            self.rounds.append(
                Round(self.init, tuple(self.calls), tuple(self.riichi), tuple(self.agari), self.draw)
            )
        self.init, self.calls, self.riichi, self.agari, self.draw = None, [], [], [], None

    def where(self, tag: str) -> str:
        return f"<{tag}> in round {len(self.rounds) + 1}" if self.init is not None else f"<{tag}>"

    def read(self, root: ET.Element) -> MjlogGame:
        for el in root:
            tag = el.tag
            try:
                self.element(tag, el.attrib)
            except LogFormatError as e:
                self.fail(self.where(tag), str(e))
        self.close_round()
        if self.game_type is None:
            self.fail("<mjloggm>", "no <GO> element (the game's rules)")
        return MjlogGame(self.source, self.game_type or GameType(0), tuple(self.rounds), tuple(self.errors))

    def element(self, tag: str, a: Mapping[str, str]) -> None:
        if tag == "GO":
            self.rules = _go_rules(a, self.rules)
            self.game_type = GameType(_one_int(a, "type"))
        elif tag == "INIT":
            self.close_round()
            self.init = _init(a, self.players)
        elif tag in ("N", "REACH", "AGARI", "RYUUKYOKU") and self.init is None:
            raise LogFormatError("comes before any <INIT>")
        elif tag == "N":
            who = _seat(a, "who", self.players)
            code = _one_int(a, "m")
            decode_meld(code, True)
            self.calls.append(Call(who, code))
        elif tag == "REACH":
            who = _seat(a, "who", self.players)
            if _one_int(a, "step") == 2:
                self.riichi.append(who)
        elif tag == "AGARI":
            red = self.game_type.red_fives if self.game_type else True
            self.agari.append(_agari(a, self.players, red))
        elif tag == "RYUUKYOKU":
            self.draw = a.get("type") or "exhaustive"


def _go_rules(a: Mapping[str, str], current: JSON) -> JSON:
    """The ``rules`` attribute tenbou writes on ``<GO>`` (JSON), or ``current`` without one."""
    if not a.get("rules"):
        return current
    import json

    try:
        rules: JSON = json.loads(a["rules"])
    except json.JSONDecodeError:
        raise LogFormatError(f"rules={a['rules']!r} is not JSON") from None
    return rules


def _one_int(a: Mapping[str, str], key: str) -> int:
    if key not in a:
        raise LogFormatError(f"missing attribute {key!r}")
    try:
        return int(a[key])
    except ValueError:
        raise LogFormatError(f"{key}={a[key]!r} is not an integer") from None


def _seat(a: Mapping[str, str], key: str, players: int) -> int:
    seat = _one_int(a, key)
    if not 0 <= seat < players:
        raise LogFormatError(f"{key}={seat} is not a seat 0..{players - 1}")
    return seat


def _ids(a: Mapping[str, str], key: str, required: bool = True) -> tuple[int, ...]:
    if key not in a:
        if required:
            raise LogFormatError(f"missing attribute {key!r}")
        return ()
    ids = _int_list(a[key], key)
    bad = [i for i in ids if not 0 <= i < 136]
    if bad:
        raise LogFormatError(f"{key}={a[key]!r}: tile id {bad[0]} is out of range 0..135")
    return ids


def _init(a: Mapping[str, str], players: int) -> Init:
    if "seed" not in a:
        raise LogFormatError("missing attribute 'seed'")
    parts = a["seed"].split(",")
    if len(parts) != 6:
        raise LogFormatError(f"seed={a['seed']!r} needs six values: round, honba, sticks, dice, dice, dora")
    try:
        rnd, honba, sticks = (int(p) for p in parts[:3])
        dora = int(parts[5])
        dice = None if parts[3] == parts[4] == "" else (int(parts[3]), int(parts[4]))
    except ValueError:
        raise LogFormatError(f"seed={a['seed']!r} is not a list of integers") from None
    if rnd < 0 or honba < 0 or sticks < 0 or not 0 <= dora < 136:
        raise LogFormatError(f"seed={a['seed']!r} is out of range")
    oya = _seat(a, "oya", players)
    scores = tuple(100 * s for s in _int_list(a.get("ten", ""), "ten"))
    hands = tuple(_ids(a, f"hai{i}", required=i < players) for i in range(4))
    for i in range(players):
        if len(hands[i]) != 13:
            raise LogFormatError(f"hai{i} holds {len(hands[i])} tiles, not 13")
    return Init(rnd, honba, sticks, dice, dora, oya, scores, hands)


def _agari(a: Mapping[str, str], players: int, red_fives: bool) -> Agari:
    who = _seat(a, "who", players)
    from_who = _seat(a, "fromWho", players)
    ba = _int_list(a.get("ba", ""), "ba")
    if len(ba) != 2 or min(ba) < 0:
        raise LogFormatError(f"ba={a.get('ba')!r} needs two numbers: honba, riichi sticks")
    hai = _ids(a, "hai")
    machi = _one_int(a, "machi")
    codes = _int_list(a.get("m", ""), "m")
    melds = [decode_meld(c, red_fives) for c in codes]
    if "ten" not in a:
        raise LogFormatError("missing attribute 'ten'")
    ten = parse_ten(a["ten"])
    yaku = parse_yaku(a.get("yaku", ""))
    yakuman = parse_yakuman(a.get("yakuman", ""))
    if not yaku and not yakuman:
        raise LogFormatError("neither 'yaku' nor 'yakuman' is given")
    dora = _ids(a, "doraHai")
    if not dora:
        raise LogFormatError("doraHai is empty")
    ura = _ids(a, "doraHaiUra", required=False)
    pao = _seat(a, "paoWho", players) if "paoWho" in a else None
    sc = _int_list(a.get("sc", ""), "sc")
    where = f"hai={a['hai']!r} m={a.get('m', '')!r}"
    if machi not in hai:
        raise LogFormatError(f"the winning tile machi={machi} is not among the concealed tiles {where}")
    sets = sum(1 for m in melds if m.type is not TenhouMeldType.KITA)
    if len(hai) != 14 - 3 * sets:
        raise LogFormatError(f"{len(hai)} concealed tiles with {sets} meld(s), not {14 - 3 * sets}: {where}")
    every = [*hai, *(i for m in melds for i in m.ids)]
    if len(set(every)) != len(every):
        dup = next(i for i in every if every.count(i) > 1)
        raise LogFormatError(f"tile id {dup} appears twice in the hand: {where}")
    return Agari(who, from_who, ba[0], ba[1], hai, codes, machi, ten, yaku, yakuman, dora, ura, pao, sc)


def parse_mjlog(data: bytes, source: str = "<mjlog>", *, strict: bool = True) -> MjlogGame:
    """Read an mjlog record from bytes (plain XML or gzip).

    Strict (the default): the first problem raises
    :class:`~tenbou.errors.LogFormatError`, its message naming ``source``, the
    element and the problem. Lenient: a bad ``INIT``/``AGARI``/... is left out,
    its error kept in :attr:`MjlogGame.errors`, and reading goes on; stray bytes
    before the root are skipped (and reported) the same way.

    >>> parse_mjlog(b'<mjloggm ver="2.3"><GO type="169"/><AGARI who="0"/></mjloggm>', "x.xml")
    Traceback (most recent call last):
    ...
    tenbou.errors.LogFormatError: x.xml: <AGARI>: comes before any <INIT>
    >>> game = parse_mjlog(b'2<mjloggm ver="2.3"><GO type="169"/></mjloggm>', "y", strict=False)
    >>> game.game_type, game.errors[0].message.split(" (")[0]
    (GameType(code=169), 'y: 1 stray character(s) before <mjloggm>: "2"')
    """
    raw = _decompress(data, source)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise LogFormatError(f"{source}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    reader = _Reader(source, strict)
    try:
        root = ET.fromstring(text)
    except ET.ParseError as e:
        problem = f"not well-formed XML: {e}"
        start = text.find("<mjloggm")
        if strict or start <= 0:
            raise LogFormatError(f"{source}: {problem}") from None
        try:
            root = ET.fromstring(text[start:])
        except ET.ParseError:
            raise LogFormatError(f"{source}: {problem}") from None
        stray = repr(text[:start][:20]).replace("'", '"')
        reader.fail(f"{start} stray character(s) before <mjloggm>", f"{stray} ({problem})")
    if root.tag != "mjloggm":
        raise LogFormatError(f"{source}: the root element is <{root.tag}>, not <mjloggm>")
    return reader.read(root)


def read_mjlog(path: str | os.PathLike[str], *, strict: bool = True) -> MjlogGame:
    """Read an mjlog file (plain or gzip, told apart by its first bytes).

    See :func:`parse_mjlog` for ``strict``; errors name the file.
    """
    with open(path, "rb") as f:
        data = f.read()
    return parse_mjlog(data, os.fspath(path), strict=strict)


# -- wins as score requests ---------------------------------------------------------------------

_FLAG_IDS = {
    1: "riichi", 21: "double_riichi", 2: "ippatsu", 3: "chankan", 4: "rinshan", 5: "haitei",
    6: "houtei", 37: "tenhou", 38: "chiihou", 36: "renhou",
}  # fmt: skip


def recorded_yaku(agari: Agari) -> dict[str, int]:
    """Tenhou's yaku of a win by tenbou id with their han (entries of 0 han,
    such as ``53,0`` for no ura dora, are dropped); a yakuman hand gives each of
    its yakuman 13 han (Tenhou counts none double).

    >>> from dataclasses import replace
    >>> win = next(parse_mjlog(_EXAMPLE).wins())[1]
    >>> recorded_yaku(win)
    {'riichi': 1, 'dora': 1}
    >>> recorded_yaku(replace(win, yaku=(), yakuman=(39, 42)))
    {'daisangen': 13, 'tsuuiisou': 13}
    """
    out: dict[str, int] = {}
    for yid, han in agari.yaku:
        if han:
            key = tenbou_yaku_id(yid)
            out[key] = out.get(key, 0) + han
    for yid in agari.yakuman:
        out[tenbou_yaku_id(yid, yakuman=True)] = 13
    return out


def _tiles_text(ids: Sequence[int], red_fives: bool) -> str:
    return format_tiles(tile_from_136(i, red_fives) for i in ids)


def agari_to_request(agari: Agari, init: Init, game_type: GameType) -> dict[str, JSON]:
    """One win as a :func:`tenbou.api.score` request (``docs/json-api.md``).

    Rules are the ``tenhou`` preset with the room's overrides; the hand is
    ``hai`` less the winning tile; melds are in call order (the record lists
    them newest first) with absolute ``from`` seats; kita are counted, not
    melds. Situational flags come from the recorded yaku ids (so a yakuman
    hand, which records no ``yaku``, carries only tenhou/chiihou); ura dora
    indicators are given only to a riichi winner.
    """
    red = game_type.red_fives
    players = game_type.players
    hand = list(agari.hai)
    if agari.machi not in hand:
        raise LogFormatError(f"the winning tile machi={agari.machi} is not among hai={agari.hai}")
    hand.remove(agari.machi)
    melds: list[JSON] = []
    kita = 0
    for code in reversed(agari.melds):
        m = decode_meld(code, red)
        if m.type is TenhouMeldType.KITA:
            kita += 1
        else:
            melds.append(m.to_json(agari.who, players))
    ids = agari.yaku_ids
    riichi = 1 in ids or 21 in ids
    req: dict[str, JSON] = {
        "rules": {"preset": "tenhou", "overrides": game_type.rule_overrides()},
        "players": players,
        "dealer": init.oya,
        "round_wind": init.round_wind.value,
        "winner": agari.who,
        "from": None if agari.tsumo else agari.from_who,
        "hand": _tiles_text(hand, red),
        "melds": melds,
        "win_tile": str(tile_from_136(agari.machi, red)),
    }
    for yid, flag in _FLAG_IDS.items():
        if yid in ids:
            req[flag] = True
    dora: list[JSON] = [str(tile_from_136(i, red)) for i in agari.dora_hai]
    ura: list[JSON] = [str(tile_from_136(i, red)) for i in agari.dora_hai_ura] if riichi else []
    req["dora_indicators"] = dora
    req["ura_indicators"] = ura
    req["kita"] = kita
    req["honba"] = agari.honba
    req["riichi_sticks"] = agari.riichi_sticks
    return req


# -- whole games as events ----------------------------------------------------------------------

_DRAW_SEATS = {"T": 0, "U": 1, "V": 2, "W": 3}
_DISCARD_SEATS = {"D": 0, "E": 1, "F": 2, "G": 3}
_DRAW_TAGS = {v: k for k, v in _DRAW_SEATS.items()}
_DISCARD_TAGS = {v: k for k, v in _DISCARD_SEATS.items()}

#: RYUUKYOKU ``type`` -> (the mjai ``ryukyoku`` reason, tenbou's name of the draw)
RYUUKYOKU_TYPES: dict[str, tuple[str, str]] = {
    "yao9": ("kyushukyuhai", "kyuushu_kyuuhai"),
    "kaze4": ("suufonrenda", "suufon_renda"),
    "reach4": ("suuchariichi", "suucha_riichi"),
    "ron3": ("sanchaho", "sanchahou"),
    "kan4": ("suukaikan", "suukaikan"),
    "nm": ("nagashimangan", "nagashi_mangan"),
}
#: tenbou's name of a draw -> RYUUKYOKU ``type``
_RYUUKYOKU_BY_NAME = {name: t for t, (_, name) in RYUUKYOKU_TYPES.items()}

#: GO type bits of rooms tenbou does not model, with what they are
UNMODELLED_GO_BITS: tuple[tuple[int, str], ...] = (
    (0x200, "a Tenhou chip room (GO type bit 0x200, 祝儀: chips, kiriage mangan)"),
    (0x800, "a Tenhou special room (GO type bit 0x800: custom start points, negative scores)"),
    (0x400, "a Tenhou special room (GO type bit 0x400)"),
    (0x100, "a Tenhou private lobby with custom rules (GO type bit 0x100)"),
)
_KNOWN_GO_BITS = 0xFF


def tile_to_136(tile: Tile, copy: int) -> int:
    """The 136-id of copy ``copy`` (0-3) of a tile; a red five is always copy 0.

    >>> tile_to_136(Tile.parse("0p"), 0), tile_to_136(Tile.parse("5p"), 2), tile_to_136(Tile.parse("7z"), 3)
    (52, 54, 135)
    """
    return 4 * tile.kind + copy


def encode_meld(
    mtype: TenhouMeldType, ids: Sequence[int], called_id: int | None = None, relative_from: int = 0
) -> int:
    """The mjlog call code of a call: the inverse of :func:`decode_meld`. ``ids``
    are the 136-ids of the meld's tiles (a kakan: the pon's three, then the added
    one; a kita: the North), ``called_id`` the tile taken, ``relative_from`` who
    gave it counted from the caller (1 next, 2 across, 3 previous).

    >>> encode_meld(TenhouMeldType.KAKAN, (128, 129, 130, 131), 129, 2)
    49778
    >>> all(encode_meld(m.type, m.ids, m.called_id, m.relative_from) == c
    ...     for c in (15881, 24576, 29699, 30752) for m in [decode_meld(c, True)])
    True
    >>> m = decode_meld(encode_meld(TenhouMeldType.CHI, (76, 81, 84), 81, 3), True)
    >>> m.type.value, m.ids, m.called_id, m.relative_from
    ('chi', (76, 81, 84), 81, 3)
    """
    ids = list(ids)
    if mtype is TenhouMeldType.CHI:
        kinds = sorted(range(3), key=lambda i: ids[i])
        ordered = [ids[i] for i in kinds]
        kind = ordered[0] // 4
        start = kind // 9 * 7 + kind % 9
        called = ordered.index(called_id) if called_id in ordered else 0
        code = ((start * 3 + called) << 10) | 0x4 | (relative_from & 3)
        for i, tid in enumerate(ordered):
            code |= (tid % 4) << (3 + 2 * i)
        return code
    if mtype in (TenhouMeldType.PON, TenhouMeldType.KAKAN):
        pon = sorted(ids[:3])
        kind = pon[0] // 4
        other = next(c for c in range(4) if 4 * kind + c not in pon)
        called = pon.index(called_id) if called_id in pon else 0
        flag = 0x8 if mtype is TenhouMeldType.PON else 0x10
        return ((kind * 3 + called) << 9) | (other << 5) | flag | (relative_from & 3)
    if mtype is TenhouMeldType.KITA:
        return (ids[0] << 8) | 0x20
    if mtype is TenhouMeldType.DAIMINKAN:
        assert called_id is not None
        return (called_id << 8) | (relative_from & 3)
    return min(ids) << 8  # ankan


def _names(a: Mapping[str, str], players: int) -> tuple[str, ...]:
    from urllib.parse import unquote

    return tuple(unquote(a.get(f"n{i}", "")) for i in range(players))


def _root(data: bytes, source: str) -> tuple[ET.Element, list[str]]:
    """The ``<mjloggm>`` element of a record; stray bytes before it are skipped with a warning."""
    raw = _decompress(data, source)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise LogFormatError(f"{source}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    warnings: list[str] = []
    try:
        root = ET.fromstring(text)
    except ET.ParseError as e:
        start = text.find("<mjloggm")
        if start <= 0:
            raise LogFormatError(f"{source}: not well-formed XML: {e}") from None
        try:
            root = ET.fromstring(text[start:])
        except ET.ParseError:
            raise LogFormatError(f"{source}: not well-formed XML: {e}") from None
        stray = repr(text[:start][:20]).replace("'", '"')
        warnings.append(f"{source}: {start} stray character(s) before <mjloggm> skipped: {stray}")
    if root.tag != "mjloggm":
        raise LogFormatError(f"{source}: the root element is <{root.tag}>, not <mjloggm>")
    return root, warnings


_TILES_RED = tuple(tile_from_136(i, True) for i in range(136))
_TILES_PLAIN = tuple(tile_from_136(i, False) for i in range(136))


class _EventReader:
    """Turns the elements of an mjlog record into mjai events and hand ends."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.game_type: GameType | None = None
        self.players = 4
        self.red = True
        self.names: tuple[str, ...] = ()
        self.events: list[Event] = [StartGame()]
        self.hands: list[HandEnd] = []
        self.skip: str | None = None
        self.final: tuple[int, ...] | None = None
        self.warnings: list[str] = []
        self.hand_start = -1  # index in events of the open hand's start_kyoku
        self.ended = True
        self.init: Init | None = None
        self.wins: list[WinRecord] = []
        self.draw: tuple[str | None, tuple[int, ...] | None, tuple[int, ...]] | None = None
        self.drawn: list[int | None] = [None] * 4
        self.running: list[int] = []
        self.rounds = 0
        self.rules: JSON = None

    def tile(self, tid: int) -> Tile:
        return (_TILES_RED if self.red else _TILES_PLAIN)[tid]

    def where(self, tag: str) -> str:
        return f"<{tag}> in round {self.rounds}" if self.rounds else f"<{tag}>"

    def inconsistent(self, problem: str) -> None:
        if self.skip is None:
            self.skip = f"inconsistent record: {problem}"

    def read(self, root: ET.Element) -> None:
        for el in root:
            tag = el.tag
            try:
                self.element(tag, el.attrib)
            except LogFormatError as e:
                raise LogFormatError(f"{self.source}: {self.where(tag)}: {e}") from None
        self.close_hand()

    def close_hand(self) -> None:
        """End the open hand: its hand end, or (cut short) drop its events with a warning."""
        if self.init is None:
            return
        if self.wins:
            deltas = _sum_deltas([w.deltas for w in self.wins], self.players)
            self.hands.append(HandEnd("win", tuple(self.wins), None, deltas))
        elif self.draw is not None:
            name, deltas, tenpai = self.draw
            kind = "abortive_draw" if name not in (None, "nagashi_mangan") else "exhaustive_draw"
            self.hands.append(HandEnd(kind, (), name, deltas, tenpai if kind == "exhaustive_draw" else None))
        else:
            del self.events[self.hand_start :]
            self.warnings.append(
                f"{self.source}: round {self.rounds} has no end (AGARI or RYUUKYOKU): left out"
            )
            self.init = None
            return
        self.events.append(EndKyoku())
        self.init = None

    def check_before(self, sc: Sequence[int], tag: str) -> tuple[int, ...] | None:
        """The deltas of ``sc``, after checking its scores-before against the hand so far."""
        n = self.players
        if len(sc) < 2 * n:
            return None
        before = [100 * x for x in sc[0 : 2 * n : 2]]
        deltas = tuple(100 * x for x in sc[1 : 2 * n : 2])
        if before != self.running:
            assert self.init is not None
            self.inconsistent(
                f"round {self.rounds} ({self.init.round_wind.value}{self.init.number}-{self.init.honba}): "
                f"<{tag}> sc gives the scores before as {before}, "
                f"the record's INIT and REACH give {self.running}"
            )
        self.running = [b + d for b, d in zip(before, deltas, strict=True)]
        return deltas

    def element(self, tag: str, a: Mapping[str, str]) -> None:
        head = tag[:1]
        if len(tag) > 1 and tag[1:].isdigit() and (head in _DRAW_SEATS or head in _DISCARD_SEATS):
            if self.init is None:
                raise LogFormatError("comes before any <INIT>")
            tid = int(tag[1:])
            if tid >= 136:
                raise LogFormatError(f"tile id {tid} is out of range 0..135")
            if head in _DRAW_SEATS:
                seat = _DRAW_SEATS[head]
                self.drawn[seat] = tid
                self.events.append(Tsumo(seat, self.tile(tid)))
            else:
                seat = _DISCARD_SEATS[head]
                self.events.append(Dahai(seat, self.tile(tid), tid == self.drawn[seat]))
                self.drawn[seat] = None
            return
        if tag == "GO":
            self.rules = _go_rules(a, self.rules)
            self.game_type = GameType(_one_int(a, "type"))
            self.players = self.game_type.players
            self.red = self.game_type.red_fives
            self.skip = self.skip or self.game_type.unmodelled()
        elif tag == "UN":
            if "n0" in a and not self.names:
                self.names = _names(a, self.players)
        elif tag == "INIT":
            self.close_hand()
            self.rounds += 1
            init = _init(a, self.players)
            if len(init.scores) < self.players:
                raise LogFormatError(
                    f"ten={a.get('ten', '')!r} needs the points of each of {self.players} seats"
                )
            self.init = init
            self.wins, self.draw = [], None
            self.drawn = [None] * 4
            self.running = list(init.scores[: self.players])
            self.hand_start = len(self.events)
            self.events.append(
                StartKyoku(
                    bakaze=init.round_wind,
                    dora_marker=self.tile(init.dora_indicator),
                    kyoku=init.number,
                    honba=init.honba,
                    kyotaku=init.riichi_sticks,
                    oya=init.oya,
                    scores=tuple(init.scores[: self.players]),
                    tehais=tuple(tuple(self.tile(i) for i in h) for h in init.hands[: self.players]),
                )
            )
        elif tag in ("N", "REACH", "DORA", "AGARI", "RYUUKYOKU") and self.init is None:
            raise LogFormatError("comes before any <INIT>")
        elif tag == "N":
            self.call(_seat(a, "who", self.players), _one_int(a, "m"))
        elif tag == "REACH":
            who = _seat(a, "who", self.players)
            if _one_int(a, "step") == 1:
                self.events.append(Reach(who))
            else:
                self.events.append(ReachAccepted(who))
                self.running[who] -= 1000
        elif tag == "DORA":
            shown = _ids(a, "hai")
            if len(shown) != 1:
                raise LogFormatError(f"hai={a.get('hai')!r} must be one tile id")
            self.events.append(Dora(self.tile(shown[0])))
        elif tag == "AGARI":
            self.agari(a)
        elif tag == "RYUUKYOKU":
            self.ryuukyoku(a)
        if a.get("owari", "").strip():
            values = _int_list_float(a["owari"], "owari")
            self.final = tuple(round(100 * v) for v in values[0 : 2 * self.players : 2])

    def call(self, who: int, code: int) -> None:
        m = decode_meld(code, self.red)
        tiles = m.tiles
        if m.type is TenhouMeldType.KITA:
            self.events.append(Nukidora(who, tiles[0]))
        elif m.type is TenhouMeldType.ANKAN:
            self.events.append(Ankan(who, tiles))
        elif m.type is TenhouMeldType.KAKAN:
            self.events.append(Kakan(who, tiles[3], tiles[:3]))
        else:
            target = m.from_seat(who, self.players)
            assert target is not None and m.called_id is not None
            called = tile_from_136(m.called_id, self.red)
            consumed = tuple(tile_from_136(i, self.red) for i in m.ids if i != m.called_id)
            if m.type is TenhouMeldType.CHI:
                self.events.append(Chi(who, target, called, consumed))
            elif m.type is TenhouMeldType.PON:
                self.events.append(Pon(who, target, called, consumed))
            else:
                self.events.append(Daiminkan(who, target, called, consumed))

    def agari(self, a: Mapping[str, str]) -> None:
        hai = _ids(a, "hai")
        machi = _one_int(a, "machi")
        if machi not in hai:
            if self.skip is None:
                self.skip = (
                    "not a genuine Tenhou record: AGARI hai lacks the winning tile "
                    "(a game converted from another platform)"
                )
            hai = (*hai, machi)
        agari = _agari({**a, "hai": ",".join(map(str, hai))}, self.players, self.red)
        deltas = self.check_before(agari.sc, "AGARI")
        ura = tuple(self.tile(i) for i in agari.dora_hai_ura)
        self.events.append(Hora(agari.who, agari.from_who, self.tile(agari.machi), ura or None, deltas))
        yaku = recorded_yaku(agari)
        if self.players == 3 and "kita" in yaku:  # pragma: no cover - Tenhou counts kita as dora
            yaku["dora"] = yaku.get("dora", 0) + yaku.pop("kita")
        self.wins.append(
            WinRecord(
                winner=agari.who,
                from_seat=agari.from_who,
                yaku=yaku,
                fu=agari.ten.fu,
                points=agari.ten.points,
                limit=agari.ten.limit_name if agari.ten.limit < 5 or not agari.yakuman else "yakuman",
                pao=agari.pao_who,
                pao_known=True,
                deltas=deltas,
                yakuman=tuple(tenbou_yaku_id(i, yakuman=True) for i in agari.yakuman),
            )
        )

    def ryuukyoku(self, a: Mapping[str, str]) -> None:
        kind = a.get("type")
        if kind is not None and kind not in RYUUKYOKU_TYPES:
            raise LogFormatError(f"type={kind!r} is not a draw type ({', '.join(RYUUKYOKU_TYPES)})")
        reason, name = RYUUKYOKU_TYPES[kind] if kind else (None, None)
        sc = _int_list(a.get("sc", ""), "sc")
        deltas = self.check_before(sc, "RYUUKYOKU")
        tenpai = tuple(i for i in range(self.players) if f"hai{i}" in a)
        tenpais = tuple(i in tenpai for i in range(self.players)) if kind in (None, "nm") else None
        self.events.append(Ryukyoku(reason, tenpais, deltas))
        self.draw = (name, deltas, tenpai)

    def record(self, index: int = 0) -> GameRecord:
        gt = self.game_type or GameType(0)
        if self.final is not None:
            self.events.append(EndGame(self.final))
        names = self.names or ()
        events = [StartGame(names), *self.events[1:]]
        return GameRecord(
            source=self.source,
            index=index,
            format="mjlog",
            events=tuple(events),
            hands=tuple(self.hands),
            rules=self.rules if self.rules is not None else gt.rules_json(),
            players=self.players,
            names=names,
            final_scores=self.final,
            skip=self.skip,
            meta={"go_type": gt.code},
            warnings=tuple(self.warnings),
        )


def _sum_deltas(parts: Sequence[tuple[int, ...] | None], players: int) -> tuple[int, ...] | None:
    if not parts or any(p is None for p in parts):
        return None
    return tuple(sum(p[i] for p in parts if p is not None) for i in range(players))


def _int_list_float(text: str, what: str) -> tuple[float, ...]:
    try:
        return tuple(float(x) for x in text.split(","))
    except ValueError:
        raise LogFormatError(f"{what}={text!r} is not a comma-separated list of numbers") from None


def mjlog_records(data: bytes, source: str = "<mjlog>") -> list[GameRecord]:
    """The game of an mjlog record (plain XML or gzip) as a :class:`~tenbou.io.record.GameRecord`:
    its mjai events, rules from the ``GO`` type bits, and what every ``AGARI``
    and ``RYUUKYOKU`` says. A game whose ``GO`` bits name rules tenbou does not
    model (chip rooms, private lobbies), or whose record contradicts itself, carries
    the reason in ``skip``.

    >>> rec = mjlog_records(_EXAMPLE, "example.xml")[0]
    >>> rec.rules, [type(e).__name__ for e in rec.events][-4:]
    ('tenhou', ['Reach', 'ReachAccepted', 'Hora', 'EndKyoku'])
    >>> end = rec.hands[0]
    >>> end.kind, end.deltas, end.wins[0].yaku, end.wins[0].points
    ('win', (-2600, 3600, 0, 0), {'riichi': 1, 'dora': 1}, 2600)
    """
    root, warnings = _root(data, source)
    reader = _EventReader(source)
    reader.warnings.extend(warnings)
    reader.read(root)
    if reader.game_type is None:
        raise LogFormatError(f"{source}: no <GO> element (the game's rules)")
    return [reader.record()]


# -- writing mjlog ------------------------------------------------------------------------------

_TENHOU_IDS: dict[str, int] = {v: k for k, v in _REGULAR_IDS.items() if k not in range(10, 18)}
_TENHOU_YAKUMAN_IDS: dict[str, int] = {v: k for k, v in _YAKUMAN_IDS.items()}


class _Ids:
    """Gives the tiles of a hand 136-ids: a red five copy 0 of its kind, other
    tiles the free copies; each seat's tiles and melds are followed by id."""

    def __init__(self, red: bool, players: int, source: str) -> None:
        self.red = red
        self.source = source
        self.free: dict[tuple[int, bool], list[int]] = {}
        for kind in range(34):
            copies = [4 * kind + c for c in range(4)]
            if red and kind in (4, 13, 22):
                self.free[(kind, True)] = copies[:1]
                self.free[(kind, False)] = copies[1:]
            else:
                self.free[(kind, False)] = copies
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.melds: list[list[tuple[TenhouMeldType, tuple[int, ...], int | None, int]]] = [
            [] for _ in range(players)
        ]

    def new(self, tile: Tile) -> int:
        pool = self.free.get((tile.kind, tile.red and self.red))
        if not pool:
            raise LogFormatError(
                f"{self.source}: more than four copies of {tile} (or a red five without red fives)"
            )
        return pool.pop(0)

    def take(self, seat: int, tile: Tile, prefer: int | None = None, avoid: int | None = None) -> int:
        hand = self.hands[seat]
        same = [i for i in hand if tile_from_136(i, self.red) == tile]
        if not same:
            raise LogFormatError(f"{self.source}: seat {seat} does not hold {tile}")
        if prefer in same:
            tid = prefer
        else:
            others = [i for i in same if i != avoid]
            tid = (others or same)[0]
        assert tid is not None
        hand.remove(tid)
        return tid


def _ids_text(ids: Iterable[int]) -> str:
    return ",".join(map(str, ids))


def _hundreds(value: int, source: str) -> int:
    if value % 100:
        raise LogFormatError(f"{source}: mjlog writes points in hundreds; {value} is not a multiple of 100")
    return value // 100


def _yaku_attr(win: WinRecord, seat_wind: int, round_wind: int) -> tuple[str, str]:
    if win.yakuman:
        return "yakuman", _ids_text(_TENHOU_YAKUMAN_IDS[y] for y in win.yakuman if y in _TENHOU_YAKUMAN_IDS)
    pairs: list[int] = []
    for key, han in (win.yaku or {}).items():
        if key == "seat_wind":
            tid = 10 + seat_wind
        elif key == "round_wind":
            tid = 14 + round_wind
        elif key == "kita":
            tid = _TENHOU_IDS["dora"]
        else:
            tid = _TENHOU_IDS.get(key, -1)
            if tid < 0:
                continue
        pairs.extend((tid, han))
    return "yaku", _ids_text(pairs)


_LIMIT_CODES = {
    None: 0,
    "mangan": 1,
    "haneman": 2,
    "baiman": 3,
    "sanbaiman": 4,
    "yakuman": 5,
    "kazoe_yakuman": 5,
}


def write_mjlog(rec: GameRecord) -> bytes:
    """A game as an mjlog XML record (its hand ends must carry win details:
    :func:`tenbou.records.complete_record` fills them in). Tiles get 136-ids in
    the order they are seen; a record under rules other than a Tenhou room's
    keeps them in a ``rules`` attribute of ``GO`` (JSON), which the reader uses."""
    import json
    from xml.sax.saxutils import quoteattr

    from ..rules import rules_from_request

    n = rec.players
    red = bool(rules_from_request(rec.rules).red_fives)
    go = rec.meta.get("go_type")
    gt = (
        GameType(go)
        if isinstance(go, int) and GameType(go).rules_json() == rec.rules
        else GameType.of_rules(rec.rules, n)
    )
    parts = ['<mjloggm ver="2.3">']
    go_attrs = f'type="{gt.code}" lobby="0"'
    if gt.rules_json() != rec.rules:
        go_attrs += f" rules={quoteattr(json.dumps(rec.rules, ensure_ascii=False))}"
    parts.append(f"<GO {go_attrs}/>")
    names = list(rec.names) + [""] * (4 - len(rec.names))
    from urllib.parse import quote

    parts.append("<UN " + " ".join(f'n{i}="{quote(names[i])}"' for i in range(4)) + ' dan="" rate="" sx=""/>')
    parts.append('<TAIKYOKU oya="0"/>')
    hands = iter(rec.hands)
    ids = _Ids(red, n, rec.source)
    end: HandEnd | None = None
    wins: list[WinRecord] = []
    running: list[int] = []
    start: StartKyoku | None = None
    drawn: list[int | None] = [None] * 4
    last: int | None = None
    sticks = 0
    dora_ids: list[int] = []
    last_end = -1
    for ev in rec.events:
        if isinstance(ev, StartKyoku):
            start = ev
            end = next(hands)
            wins = list(end.wins)
            ids = _Ids(red, n, rec.source)
            running = list(ev.scores)
            sticks = ev.kyotaku
            dora_ids = [ids.new(ev.dora_marker)]
            ura: list[int] | None = None
            for seat, h in enumerate(ev.tehais):
                ids.hands[seat] = [ids.new(t) for t in h]
            seed = f"{ev.bakaze.index * 4 + ev.kyoku - 1},{ev.honba},{ev.kyotaku},0,0,{dora_ids[0]}"
            ten = ",".join(str(_hundreds(s, rec.source)) for s in [*ev.scores, *([0] * (4 - n))])
            hai = " ".join(f'hai{i}="{_ids_text(ids.hands[i]) if i < n else ""}"' for i in range(4))
            parts.append(f'<INIT seed="{seed}" ten="{ten}" oya="{ev.oya}" {hai}/>')
            drawn = [None] * 4
        elif isinstance(ev, Tsumo):
            tid = ids.new(ev.pai)
            ids.hands[ev.actor].append(tid)
            drawn[ev.actor] = tid
            parts.append(f"<{_DRAW_TAGS[ev.actor]}{tid}/>")
        elif isinstance(ev, Dahai):
            d = drawn[ev.actor]
            tid = ids.take(
                ev.actor, ev.pai, prefer=d if ev.tsumogiri else None, avoid=None if ev.tsumogiri else d
            )
            drawn[ev.actor] = None
            last = tid
            parts.append(f"<{_DISCARD_TAGS[ev.actor]}{tid}/>")
        elif isinstance(ev, (Chi, Pon, Daiminkan)):
            assert last is not None
            mine = tuple(ids.take(ev.actor, t) for t in ev.consumed)
            mtype = {Chi: TenhouMeldType.CHI, Pon: TenhouMeldType.PON, Daiminkan: TenhouMeldType.DAIMINKAN}[
                type(ev)
            ]
            rel = (ev.target - ev.actor) % 4
            meld_ids = (*mine, last)
            ids.melds[ev.actor].append((mtype, meld_ids, last, rel))
            parts.append(f'<N who="{ev.actor}" m="{encode_meld(mtype, meld_ids, last, rel)}"/>')
        elif isinstance(ev, Kakan):
            added = ids.take(ev.actor, ev.pai)
            melds = ids.melds[ev.actor]
            i = next(
                (
                    i
                    for i, m in enumerate(melds)
                    if m[0] is TenhouMeldType.PON and m[1][0] // 4 == ev.pai.kind
                ),
                None,
            )
            if i is None:
                raise LogFormatError(f"{rec.source}: kakan of {ev.pai} by seat {ev.actor} without a pon")
            _, pon_ids, called, rel = melds[i]
            melds[i] = (TenhouMeldType.KAKAN, (*sorted(pon_ids), added), called, rel)
            parts.append(
                f'<N who="{ev.actor}" m="{encode_meld(TenhouMeldType.KAKAN, melds[i][1], called, rel)}"/>'
            )
            drawn[ev.actor] = None
            last = added  # a chankan robs it
        elif isinstance(ev, Ankan):
            kan = tuple(ids.take(ev.actor, t) for t in ev.consumed)
            ids.melds[ev.actor].append((TenhouMeldType.ANKAN, kan, None, 0))
            parts.append(f'<N who="{ev.actor}" m="{encode_meld(TenhouMeldType.ANKAN, kan)}"/>')
            drawn[ev.actor] = None
            last = kan[0]
        elif isinstance(ev, Nukidora):
            tid = ids.take(ev.actor, ev.pai)
            ids.melds[ev.actor].append((TenhouMeldType.KITA, (tid,), None, 0))
            parts.append(f'<N who="{ev.actor}" m="{encode_meld(TenhouMeldType.KITA, (tid,))}"/>')
            drawn[ev.actor] = None
            last = tid
        elif isinstance(ev, Dora):
            tid = ids.new(ev.dora_marker)
            dora_ids.append(tid)
            parts.append(f'<DORA hai="{tid}"/>')
        elif isinstance(ev, Reach):
            parts.append(f'<REACH who="{ev.actor}" step="1"/>')
        elif isinstance(ev, ReachAccepted):
            running[ev.actor] -= 1000
            sticks += 1
            ten = ",".join(str(_hundreds(s, rec.source)) for s in [*running, *([0] * (4 - n))])
            parts.append(f'<REACH who="{ev.actor}" step="2" ten="{ten}"/>')
        elif isinstance(ev, Hora):
            assert start is not None and end is not None
            win = next((w for w in wins if w.winner == ev.actor), None)
            if win is None:
                raise LogFormatError(f"{rec.source}: the win of seat {ev.actor} has no details to write")
            wins.remove(win)
            hand = list(ids.hands[ev.actor])
            if ev.actor == ev.target:
                machi = drawn[ev.actor] if drawn[ev.actor] is not None else hand[-1]
            else:
                assert last is not None
                machi = last
                hand.append(machi)
            assert machi is not None
            if ura is None and ev.ura_markers:  # one set of indicators for the hand (double ron included)
                ura = [ids.new(t) for t in ev.ura_markers]
            shown = ura if ev.ura_markers and ura is not None else []
            seat_wind = (ev.actor - start.oya) % n
            key, value = _yaku_attr(win, seat_wind, start.bakaze.index)
            codes = [encode_meld(*m) for m in reversed(ids.melds[ev.actor])]
            deltas = list(win.deltas) if win.deltas is not None else [0] * n
            sc = ",".join(
                f"{_hundreds(b, rec.source)},{_hundreds(d, rec.source)}"
                for b, d in zip([*running, *([0] * (4 - n))], [*deltas, *([0] * (4 - n))], strict=True)
            )
            attrs = [
                f'ba="{start.honba},{sticks}"',
                f'hai="{_ids_text(sorted(hand))}"',
                f'm="{_ids_text(codes)}"' if codes else "",
                f'machi="{machi}"',
                f'ten="{win.fu or 0},{win.points or 0},{_LIMIT_CODES.get(win.limit, 0)}"',
                f'{key}="{value}"',
                f'doraHai="{_ids_text(dora_ids)}"',
                f'doraHaiUra="{_ids_text(shown)}"' if shown else "",
                f'who="{ev.actor}" fromWho="{ev.target}"',
                f'paoWho="{win.pao}"' if win.pao is not None else "",
                f'sc="{sc}"',
            ]
            running = [r + d for r, d in zip(running, deltas, strict=True)]
            sticks = 0
            last_end = len(parts)
            parts.append("<AGARI " + " ".join(a for a in attrs if a) + "/>")
        elif isinstance(ev, Ryukyoku):
            assert end is not None and start is not None
            deltas = list(end.deltas) if end.deltas is not None else [0] * n
            sc = ",".join(
                f"{_hundreds(b, rec.source)},{_hundreds(d, rec.source)}"
                for b, d in zip([*running, *([0] * (4 - n))], [*deltas, *([0] * (4 - n))], strict=True)
            )
            attrs = [f'ba="{start.honba},{sticks}"', f'sc="{sc}"']
            if end.reason is not None and end.reason in _RYUUKYOKU_BY_NAME:
                attrs.insert(0, f'type="{_RYUUKYOKU_BY_NAME[end.reason]}"')
            if end.kind == "exhaustive_draw":
                for seat in end.tenpai or ():
                    attrs.append(f'hai{seat}="{_ids_text(sorted(ids.hands[seat]))}"')
            last_end = len(parts)
            parts.append("<RYUUKYOKU " + " ".join(attrs) + "/>")
        elif isinstance(ev, EndGame) and rec.final_scores is not None and last_end >= 0:
            owari = ",".join(
                f"{_hundreds(s, rec.source)},{p:.1f}"
                for s, p in zip(
                    [*rec.final_scores, *([0] * (4 - n))],
                    [*_final_points(rec), *([0.0] * (4 - n))],
                    strict=True,
                )
            )
            parts[last_end] = parts[last_end][:-2] + f' owari="{owari}"/>'
    parts.append("</mjloggm>")
    return "".join(parts).encode("utf-8")


def _final_points(rec: GameRecord) -> list[float]:
    """Final scores with uma and oka (as Tenhou's ``owari`` writes them) of the record's final points."""
    from ..rules import rules_from_request

    r = rules_from_request(rec.rules)
    n = rec.players
    points = list(rec.final_scores or ())
    ret = r.return_points if n == 4 else r.sanma_return_points
    start = r.start_points if n == 4 else r.sanma_start_points
    uma = r.uma if n == 4 else r.sanma_uma
    ranking = sorted(range(n), key=lambda s: (-points[s], s))
    out = [0.0] * n
    for rank, seat in enumerate(ranking):
        out[seat] = round(
            (points[seat] - ret) / 1000 + uma[rank] + ((ret - start) * n / 1000 if rank == 0 else 0), 1
        )
    return out


_EXAMPLE = (
    b'<mjloggm ver="2.3"><GO type="169" lobby="0"/><TAIKYOKU oya="0"/>'
    b'<INIT seed="0,0,0,3,2,20" ten="250,250,250,250" oya="0" hai0="0,4,8,12,16,20,24,28,32,36,40,44,48" '
    b'hai1="1,5,9,13,17,21,25,29,33,37,41,45,49" hai2="2,6,10,14,18,22,26,30,34,38,42,46,50" '
    b'hai3="3,7,11,15,19,23,27,31,35,39,43,47,51"/>'
    b'<REACH who="1" step="1"/><REACH who="1" step="2" ten="250,240,250,250"/>'
    b'<AGARI ba="0,1" hai="0,4,8,53,56,57,60,61,64,80,84,89,92,93" machi="84" ten="40,2600,0" '
    b'yaku="1,1,52,1,53,0" doraHai="50" doraHaiUra="120" who="1" fromWho="0" '
    b'sc="250,-26,240,36,250,0,250,0"/></mjloggm>'
)
