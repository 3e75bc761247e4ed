"""The codes of a Tenhou mjlog: 136-tile ids, call codes (``m``), ``ten`` values and tags (its yaku ids,
limit codes and draw types, the words between these codes and tenbou's names, are
:mod:`tenbou.io.mjlog.vocab`'s).

Tiles are 136-ids: ``id // 4`` is the kind (see :mod:`tenbou.core.tiles`) and, in a
game with red fives, ids 16, 52 and 88 are the red 5m, 5p and 5s. Those ids do
not leave the mjlog modules: everything public speaks :class:`~tenbou.core.tiles.Tile`
and :class:`~tenbou.core.hand.Meld`, or mpsz text.

>>> tile_from_136(52, red_fives=True), tile_from_136(52, red_fives=False)
(Tile.parse('0p'), Tile.parse('5p'))
>>> m = decode_meld(15881, red_fives=True)    # a pon called from the next seat
>>> m.type, str(m.meld(caller=1, players=3))
(<TenhouMeldType.PON: 'pon'>, 'pon:222p@2=2p')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from ...core.hand import Meld, MeldType
from ...core.tiles import Tile, format_tiles
from ...errors import LogFormatError
from ..record import JSON
from .vocab import LIMIT_NAMES, tenbou_yaku_id

__all__ = [
    "Ten",
    "TenhouMeld",
    "TenhouMeldType",
    "decode_meld",
    "encode_meld",
    "parse_ten",
    "parse_yaku",
    "parse_yakuman",
    "tile_from_136",
    "tile_to_136",
]

RED_IDS = frozenset((16, 52, 88))

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
    return Tile(tid // 4, red_fives and tid in RED_IDS)


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
        """The tenbou :class:`~tenbou.core.hand.MeldType` (``None`` for kita, not a meld)."""
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
        """The tiles, as :class:`~tenbou.core.tiles.Tile`."""
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
        """The call as a tenbou :class:`~tenbou.core.hand.Meld`; a kita is not a meld
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
        return LIMIT_NAMES[self.limit]


def int_list(text: str, what: str) -> tuple[int, ...]:
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
    values = int_list(text, "ten")
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
    values = int_list(text, "yaku")
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
    values = int_list(text, "yakuman")
    for yid in values:
        tenbou_yaku_id(yid, yakuman=True)
    return values


DRAW_SEATS = {"T": 0, "U": 1, "V": 2, "W": 3}
DISCARD_SEATS = {"D": 0, "E": 1, "F": 2, "G": 3}
DRAW_TAGS = {v: k for k, v in DRAW_SEATS.items()}
DISCARD_TAGS = {v: k for k, v in DISCARD_SEATS.items()}


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
