"""Melds and winning hands, with a compact notation for people.

A :class:`Meld` is a call (chi, pon, daiminkan, kakan) or a closed kan
(ankan); ``from_seat`` is the absolute seat whose discard was called (for a
kakan, that of the original pon). A :class:`Hand` is the concealed tiles
*without* the winning tile, the melds in call order and the winning tile.

Hand notation (used by the CLI and by ``str(hand)``)::

    <concealed> +<win tile> [<meld> ...]

    meld := pon:<3 tiles>@<seat>         pon of <seat>'s discard
          | chi:<3 tiles>@<seat>         chi (a run) of <seat>'s discard
          | kan:<4 tiles>@<seat>         daiminkan (open kan of a discard)
          | kakan:<4 tiles>@<seat>       added kan; <seat> gave the original pon
          | ankan:<4 tiles>              closed kan
    any meld may end with =<tile>, the tile that was called: chi:234m@3=3m

A hand has one canonical text, ``str(hand)``, which tenbou writes wherever it writes a hand (the
command line, error messages, records): the concealed tiles in the canonical order of
:func:`~tenbou.tiles.tile_order` (by kind, 1m..9m 1p..9p 1s..9s 1z..7z, a red five right after
the plain fives of its suit; each suit's digits share its letter), a space, ``+`` and the winning
tile, then each meld in call order, a space before each, its tiles in the same canonical order
(``kan`` for a daiminkan, ``@seat`` but for an ankan, ``=tile`` where the called tile is known).
A hand and a meld keep their tiles in that order whatever order they were given in, so that two
hands of the same tiles are equal, and ``Hand.parse(str(hand)) == hand`` for every hand.

Melds are written in call order. For example the seeds' daisangen hand, won
on 4m, with the dragons called from seats 2, 0 and 3:

>>> h = Hand.parse("23m55p +4m pon:555z@2 pon:666z@0 pon:777z@3")
>>> str(h)
'23m55p +4m pon:555z@2 pon:666z@0 pon:777z@3'
>>> h.melds[2]
Meld.parse('pon:777z@3')
>>> str(Hand.parse("123m456p789s55s23s+4s"))
'123m456p2355789s +4s'
>>> Hand.parse("23m55p +4m pon:556z@2")
Traceback (most recent call last):
...
tenbou.errors.NotationError: a pon needs three tiles of one kind, not '556z' in 'pon:556z@2'
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import TYPE_CHECKING, Final

from ..errors import NotationError
from ._native import mypyc_attr
from .tiles import Tile, Wind, format_tiles, parse_tiles, sort_tiles
from .values import Record

if TYPE_CHECKING:  # (mypyc's 64-bit integer: in annotations only, see shape)
    from mypy_extensions import i64

__all__ = ["Hand", "Meld", "MeldType", "Situation"]


class MeldType(Enum):
    """The five kinds of meld, by their JSON names."""

    CHI = "chi"
    PON = "pon"
    DAIMINKAN = "daiminkan"
    KAKAN = "kakan"
    ANKAN = "ankan"

    @property
    def is_kan(self) -> bool:
        # (by identity, not ``in`` a set of the kans: that hashes the member, and Enum's __hash__ is
        # a Python function, a frame a call even compiled)
        return self is not _CHI and self is not _PON

    @property
    def is_open(self) -> bool:
        return self is not _ANKAN


# (the members as module constants: on CPython 3.11 an attribute of an Enum class is read by a slow,
# unspecialised look-up, a module constant is not)
_CHI: Final = MeldType.CHI
_PON: Final = MeldType.PON
_DAIMINKAN: Final = MeldType.DAIMINKAN
_KAKAN: Final = MeldType.KAKAN
_ANKAN: Final = MeldType.ANKAN
_NOTATION_NAMES: Final = {
    "chi": MeldType.CHI,
    "pon": MeldType.PON,
    "kan": MeldType.DAIMINKAN,
    "daiminkan": MeldType.DAIMINKAN,
    "kakan": MeldType.KAKAN,
    "ankan": MeldType.ANKAN,
}
#: the notation name of each meld type, by its JSON name (a str key: an Enum member hashes slowly)
_SHORT_NAME: Final = {
    MeldType.CHI.value: "chi",
    MeldType.PON.value: "pon",
    MeldType.DAIMINKAN.value: "kan",
    MeldType.KAKAN.value: "kakan",
    MeldType.ANKAN.value: "ankan",
}


class Meld(Record):
    """One meld. Construction validates the shape (a chi is a run of one suit,
    a pon three and a kan four of one kind) and the source (``from_seat`` is
    given for every meld but an ankan).

    A meld is a value: equal melds compare and hash equal, and its attributes are read-only
    (``Final``; a :class:`~tenbou.core.tiles.Record` rather than a frozen dataclass, as :class:`Hand`,
    because melds are built for the hands scored and this keeps that cheap, compiled or not)."""

    _fields = ("type", "tiles", "from_seat", "called")
    __slots__ = ("_notation", "called", "from_seat", "kind", "reds", "tiles", "type")
    __match_args__ = ("type", "tiles", "from_seat", "called")

    def __init__(
        self,
        type: MeldType,
        tiles: tuple[Tile, ...],
        from_seat: int | None = None,
        called: Tile | None = None,
    ) -> None:
        # (``type`` is not ``Final``: mypyc 2.4 keeps the meld of a ``Final`` attribute read alive to
        # the end of the expression, and a conditional one, as in pao's ``_suukantsu``, then frees it
        # on the branch that never read it)
        self.type: MeldType = type
        reds = 0
        last = 0
        in_order = True  # (the tiles come in the canonical order: told in the pass that counts the reds)
        for t in tiles:
            place = t.kind + t.kind
            if t.red:
                reds += 1
                place += 1
            if place < last:
                in_order = False
            last = place
        #: the tiles, in the canonical order (:func:`~tenbou.tiles.tile_order`), whatever order they
        #: were given in
        self.tiles: Final = tiles if in_order else sort_tiles(tiles)
        self.from_seat: Final = from_seat
        self.called: Final = called
        # (the notation, made when first asked for: a meld of a request is kept and used again, and
        # written in the message of every hand refused)
        self._notation = ""
        #: the lowest tile kind in the meld (the start of a chi); set from the tiles
        self.kind: Final = self._checked_kind()
        #: how many of the tiles are red fives; set from the tiles
        self.reds: Final = reds

    def _checked_kind(self) -> int:
        """The lowest kind of the tiles, when they and the source make a meld (else the
        :class:`NotationError` of :meth:`_refuse`)."""
        tiles = self.tiles
        mtype = self.type
        n = len(tiles)
        kind = tiles[0].kind if n else -1
        if mtype is _CHI:
            if n == 3:
                k1, k2 = tiles[1].kind, tiles[2].kind
                kind = min(kind, k1, k2)
                ok = kind < 27 and kind % 9 <= 6 and kind + kind + 1 + kind + 2 == tiles[0].kind + k1 + k2
                ok = ok and len({tiles[0].kind, k1, k2}) == 3
            else:
                ok = False
        else:
            ok = n == (3 if mtype is _PON else 4) and all(t.kind == kind for t in tiles)
        src = self.from_seat
        if mtype is _ANKAN:
            ok = ok and src is None and self.called is None
        else:
            ok = ok and type(src) is int and 0 <= src <= 3
            ok = ok and (self.called is None or self.called in tiles)
        if not ok:
            self._refuse()
        return kind

    def _refuse(self) -> None:
        """Raise the :class:`NotationError` that says what is wrong with this meld."""
        where = f" in {self.notation()!r}"
        kinds = sorted(t.kind for t in self.tiles)
        text = format_tiles(self.tiles)
        if self.type is _CHI:
            if len(kinds) != 3:
                raise NotationError(f"a chi needs three tiles, not {text!r}{where}")
            if (
                kinds[0] >= 27
                or kinds[0] // 9 != kinds[2] // 9
                or kinds != [kinds[0], kinds[0] + 1, kinds[0] + 2]
            ):
                raise NotationError(f"a chi must be a run of one suit, not {text!r}{where}")
        else:
            want = 3 if self.type is _PON else 4
            if len(kinds) != want or kinds[0] != kinds[-1]:
                name = "pon" if want == 3 else "kan"
                number = "three" if want == 3 else "four"
                raise NotationError(f"a {name} needs {number} tiles of one kind, not {text!r}{where}")
        if self.type is _ANKAN:
            if self.from_seat is not None:
                raise NotationError(
                    f"an ankan is not called from anyone, but has from={self.from_seat}{where}"
                )
            raise NotationError(f"an ankan has no called tile{where}")
        if self.from_seat is None:
            raise NotationError(f"a {self.type.value} needs the seat it was called from{where}")
        if type(self.from_seat) is not int or not 0 <= self.from_seat <= 3:
            raise NotationError(f"meld source must be a seat 0..3, not {self.from_seat!r}{where}")
        raise NotationError(f"the called tile {self.called} is not in the meld{where}")

    # -- notation -------------------------------------------------------------------------------

    @classmethod
    def parse(cls, text: str) -> Meld:
        """A meld from its notation, e.g. ``pon:555z@2`` or ``ankan:5555m``."""
        if not isinstance(text, str) or ":" not in text:
            raise NotationError(f"a meld is written type:tiles[@seat], e.g. 'pon:555z@2', not {text!r}")
        name, _, rest = text.partition(":")
        mtype = _NOTATION_NAMES.get(name)
        if mtype is None:
            raise NotationError(f"{name!r} is not a meld type (chi, pon, kan, kakan, ankan) in {text!r}")
        called: Tile | None = None
        if "=" in rest:
            rest, _, called_text = rest.partition("=")
            called = _one_tile(called_text, text)
        seat: int | None = None
        if "@" in rest:
            rest, _, seat_text = rest.partition("@")
            if seat_text not in ("0", "1", "2", "3"):
                raise NotationError(f"{seat_text!r} is not a seat (0-3) in {text!r}")
            seat = int(seat_text)
        tiles = _tiles_in(rest, text)
        try:
            return cls(mtype, tiles, seat, called)
        except NotationError as e:
            raise NotationError(f"{_strip_where(str(e))} in {text!r}") from None

    def notation(self) -> str:
        """This meld's notation; ``Meld.parse(m.notation()) == m``."""
        if self._notation:
            return self._notation
        name = _SHORT_NAME[self.type._value_]
        tiles = format_tiles(self.tiles)
        seat = self.from_seat
        called = self.called
        # (one string built for each form: compiled, each ``+=`` builds the text again)
        if called is None:
            out = f"{name}:{tiles}" if seat is None else f"{name}:{tiles}@{seat}"
        elif seat is None:
            out = f"{name}:{tiles}={called}"
        else:
            out = f"{name}:{tiles}@{seat}={called}"
        self._notation = out
        return out

    def __str__(self) -> str:
        return self.notation()

    def __repr__(self) -> str:
        return f"Meld.parse('{self.notation()}')"

    def to_dict(self) -> dict[str, object]:
        """The meld as a JSON object of the request format.

        >>> Meld.parse("chi:345m@3=4m").to_dict()
        {'type': 'chi', 'tiles': '345m', 'from': 3, 'called': '4m'}
        """
        out: dict[str, object] = {"type": self.type.value, "tiles": format_tiles(self.tiles)}
        if self.from_seat is not None:
            out["from"] = self.from_seat
        if self.called is not None:
            out["called"] = str(self.called)
        return out

    # -- properties -----------------------------------------------------------------------------

    @property
    def is_open(self) -> bool:
        return self.type is not _ANKAN

    @property
    def is_kan(self) -> bool:
        t = self.type  # (by identity, as MeldType.is_kan)
        return t is not _CHI and t is not _PON


def _strip_where(message: str) -> str:
    i = message.rfind(" in '")
    return message[:i] if i >= 0 else message


def _tiles_in(text: str, context: str) -> tuple[Tile, ...]:
    try:
        return parse_tiles(text)
    except NotationError as e:
        raise NotationError(f"{_strip_where(str(e))} in {context!r}") from None


def _one_tile(text: str, context: str) -> Tile:
    tiles = _tiles_in(text, context)
    if len(tiles) != 1:
        raise NotationError(f"expected one tile after '=', not {text!r} in {context!r}")
    return tiles[0]


def _one() -> i64:
    """1, as a 64-bit integer to shift (see Hand.__init__)."""
    return 1


@mypyc_attr(free_list_len=1)
class Hand:
    """A winning hand: ``concealed`` tiles without the winning tile, ``melds`` in
    call order and the ``win_tile``. Construction checks the tile count
    (13 - 3 x melds concealed tiles) and that no kind appears more than four
    times; rule-dependent checks (red fives, seats) happen when it is scored.
    The concealed tiles and each meld's are kept in the canonical order (see the module doc).

    A hand is a value: equal hands compare and hash equal, and its attributes
    are read-only (``Final``, so a type checker refuses assignments; a plain
    class rather than a frozen dataclass because one is built for every hand
    scored, and this keeps that cheap, compiled or not)."""

    __slots__ = (
        "concealed", "concealed_counts", "concealed_high", "concealed_low", "counts", "melds", "red_fives",
        "reds", "win_tile",
    )  # fmt: skip

    def __init__(self, concealed: tuple[Tile, ...], melds: tuple[Meld, ...], win_tile: Tile) -> None:
        self.melds: Final = melds
        self.win_tile: Final = win_tile
        n_melds = len(melds)
        want = 13 - 3 * n_melds
        if n_melds > 4:
            raise NotationError(f"a hand has at most four melds, not {n_melds}")
        if len(concealed) != want:
            raise NotationError(
                f"with {n_melds} meld(s) the hand must hold {want} concealed tiles besides the "
                f"winning tile, not {len(concealed)} in {format_tiles(sort_tiles(concealed))!r}"
            )
        # (``x[i] = x[i] + 1``, not ``x[i] += 1``: mypyc compiles the augmented form to a generic
        # object addition, the plain one to a native integer addition; and one test per tile, for
        # more than four copies or a red five, the usual tile meeting neither)
        # (34 zeros written out: one list made at once, compiled or not; ``[0] * 34`` makes a list
        # ``[0]`` and then repeats it)
        counts = [
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        ]  # fmt: skip
        red_m = red_p = red_s = 0  # red fives of 5m, 5p, 5s
        too_many = False  # more than four copies of a kind met
        # the concealed counts as octal digits too, three bits a kind (:func:`tenbou.core.shape.read_counts`
        # looks a hand's parts up by them): kinds 0-17 in ``low``, 18-33 in ``high`` (i64: compiled,
        # machine integers; the 1 shifted is _one()'s, not a literal, nor a local set to one, which
        # mypyc 2.4 would shift as a 32-bit C int; the kind ``k`` and the ``last`` kind of the order
        # check, too, are i64: read once from the tile, they index the counts, shift and compare as
        # machine integers, where an int would be checked for its tag at each use)
        one = _one()
        low: i64 = 0
        high: i64 = 0
        k: i64 = win_tile.kind
        counts[k] = 1
        if k < 18:
            low = one << 3 * k
        else:
            high = one << 3 * (k - 18)
        if win_tile.red:
            red_m, red_p, red_s = int(k == 4), int(k == 13), int(k == 22)
        # (whether the tiles come in the canonical order is told in the same pass, at the cost of a
        # comparison a tile: each kind never below the one before's, and after a red five, the kind
        # above it, so that a plain five after a red one is out of order -- as is, harmlessly, a
        # second red five of the kind, which only sorts tiles already in order)
        last: i64 = 0
        in_order = True
        for t in concealed:
            k = t.kind
            counts[k] = n = counts[k] + 1
            if k < 18:
                low += one << 3 * k
            else:
                high += one << 3 * (k - 18)
            if k < last:
                in_order = False
            last = k
            if n > 4 or t.red:
                if n > 4:
                    too_many = True
                if t.red:
                    last = k + 1
                    if k == 4:
                        red_m += 1
                    elif k == 13:
                        red_p += 1
                    else:
                        red_s += 1
        #: the concealed tiles, in the canonical order (:func:`~tenbou.tiles.tile_order`), whatever
        #: order they were given in
        self.concealed: Final = concealed if in_order else sort_tiles(concealed)
        #: how many tiles of each kind (34 counts) the hand holds besides its melds (the winning tile
        #: included): what is read as sets and a pair
        self.concealed_counts: Final = tuple(counts)
        #: those counts as octal digits (a count past seven spills into the next kind's: never read,
        #: as such a hand is refused below)
        self.concealed_low: Final[i64] = low
        self.concealed_high: Final[i64] = high
        for m in melds:
            k = m.kind
            if m.type is _CHI:
                a, b, c = counts[k] + 1, counts[k + 1] + 1, counts[k + 2] + 1
                counts[k], counts[k + 1], counts[k + 2] = a, b, c
                if a > 4 or b > 4 or c > 4:
                    too_many = True
            else:
                counts[k] = n = counts[k] + len(m.tiles)
                if n > 4:
                    too_many = True
            if m.reds:
                suit = k // 9
                if suit == 0:
                    red_m += m.reds
                elif suit == 1:
                    red_p += m.reds
                else:
                    red_s += m.reds
        if too_many:
            kind = next(k for k in range(34) if counts[k] > 4)
            raise NotationError(
                f"{counts[kind]} copies of {Tile(kind)} in one hand (there are only four) in {str(self)!r}"
            )
        #: how many tiles of each kind (34 counts) the hand holds, melds and winning tile included
        self.counts: Final = tuple(counts) if melds else self.concealed_counts
        #: how many of its tiles are red fives, and of each suit (m, p, s)
        self.reds: Final = red_m + red_p + red_s
        self.red_fives: Final = (red_m, red_p, red_s)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Hand):
            return NotImplemented
        return (
            self.concealed == other.concealed
            and self.melds == other.melds
            and self.win_tile == other.win_tile
        )

    def __hash__(self) -> int:
        return hash((self.concealed, self.melds, self.win_tile))

    def __reduce__(self) -> tuple[type[Hand], tuple[tuple[Tile, ...], tuple[Meld, ...], Tile]]:
        return Hand, (self.concealed, self.melds, self.win_tile)

    @classmethod
    def parse(cls, text: str) -> Hand:
        """A hand from its notation (see the module doc)."""
        if not isinstance(text, str):
            raise NotationError(f"a hand must be a string, not {type(text).__name__}")
        concealed: tuple[Tile, ...] | None = None
        win: Tile | None = None
        melds: list[Meld] = []
        for token in text.split():
            if ":" in token:
                melds.append(Meld.parse(token))
            elif token.startswith("+"):
                if win is not None:
                    raise NotationError(f"two winning tiles in {text!r}")
                win = _one_tile(token[1:], text)
            elif concealed is None and not melds:
                head, plus, tail = token.partition("+")
                concealed = _tiles_in(head, text)
                if plus:
                    win = _one_tile(tail, text)
            else:
                raise NotationError(f"unexpected {token!r} in {text!r} (melds are written type:tiles@seat)")
        if concealed is None:
            concealed = ()
        if win is None:
            raise NotationError(f"no winning tile (+tile) in {text!r}")
        return cls(concealed, tuple(melds), win)

    @classmethod
    def of(cls, concealed: str, win_tile: str, melds: Sequence[Meld] = ()) -> Hand:
        """A hand from mpsz strings: ``Hand.of("23m55p555666777z", "4m")``."""
        return cls(parse_tiles(concealed), tuple(melds), Tile.parse(win_tile))

    def all_tiles(self) -> list[Tile]:
        """Every tile of the hand: concealed, winning tile and melds."""
        out = [*self.concealed, self.win_tile]
        for m in self.melds:
            out.extend(m.tiles)
        return out

    @property
    def is_closed(self) -> bool:
        """No open meld (an ankan keeps the hand closed)."""
        return all(m.type is _ANKAN for m in self.melds)

    def request_fields(self) -> dict[str, object]:
        """``hand``, ``win_tile`` and ``melds`` fields of a JSON request.

        >>> Hand.parse("23m55p666777z +4m pon:555z@2").request_fields()
        {'hand': '23m55p666777z', 'win_tile': '4m', 'melds': [{'type': 'pon', 'tiles': '555z', 'from': 2}]}
        """
        return {
            "hand": format_tiles(self.concealed),
            "win_tile": str(self.win_tile),
            "melds": [m.to_dict() for m in self.melds],
        }

    def __str__(self) -> str:
        # (in the message of every hand refused for no yaku: kept cheap)
        concealed = format_tiles(self.concealed)
        text = f"{concealed} +{self.win_tile}" if concealed else f"+{self.win_tile}"
        for m in self.melds:
            text = f"{text} {m.notation()}"
        return text

    def __repr__(self) -> str:
        return f"Hand.parse('{self}')"

    def _repr_svg_(self) -> str:
        """The hand as a picture in a notebook (drawn by :mod:`tenbou.render.svg`, imported here
        so that ``hand`` does not depend on it); called tiles lie first, the seat they came
        from is written under each call."""
        from ..render.svg import hand_svg

        return hand_svg(self)


@mypyc_attr(free_list_len=1)
class Situation(Record):
    """Everything about a win besides the tiles: seats, winds, how it was won
    and the dora. ``discarder`` is the seat that dealt in (``None`` = tsumo).
    ``fourth_kan``: the "win" is the daiminkan of the discard that makes the winner's fourth kan,
    a suukantsu dealt in under ``suukantsu_pao_timing = "fourth_kan"`` (the hand is the winner's
    before the call; :func:`tenbou.core.scoring.score_hand`).
    (A :class:`~tenbou.core.tiles.Record`, cheap to build: one is made for every hand scored.)

    >>> s = Situation(dealer=0, winner=1, discarder=3)
    >>> s.seat_wind, s.tsumo, s.is_dealer
    (<Wind.SOUTH: 'S'>, False, False)
    """

    _fields = (
        "players", "dealer", "winner", "discarder", "round_wind", "riichi", "double_riichi", "ippatsu",
        "rinshan", "chankan", "haitei", "houtei", "tenhou", "chiihou", "renhou", "dora_indicators",
        "ura_indicators", "kita", "fourth_kan",
    )  # fmt: skip
    __slots__ = (*_fields, "in_riichi")

    def __init__(
        self,
        players: int = 4,
        dealer: int = 0,
        winner: int = 0,
        discarder: int | None = None,
        round_wind: Wind = Wind.EAST,
        riichi: bool = False,
        double_riichi: bool = False,
        ippatsu: bool = False,
        rinshan: bool = False,
        chankan: bool = False,
        haitei: bool = False,
        houtei: bool = False,
        tenhou: bool = False,
        chiihou: bool = False,
        renhou: bool = False,
        dora_indicators: tuple[Tile, ...] = (),
        ura_indicators: tuple[Tile, ...] = (),
        kita: int = 0,
        fourth_kan: bool = False,
    ) -> None:
        self.players: Final = players
        self.dealer: Final = dealer
        self.winner: Final = winner
        self.discarder: Final = discarder
        self.round_wind: Final = round_wind
        self.riichi: Final = riichi
        self.double_riichi: Final = double_riichi
        self.ippatsu: Final = ippatsu
        self.rinshan: Final = rinshan
        self.chankan: Final = chankan
        self.haitei: Final = haitei
        self.houtei: Final = houtei
        self.tenhou: Final = tenhou
        self.chiihou: Final = chiihou
        self.renhou: Final = renhou
        self.dora_indicators: Final = dora_indicators
        self.ura_indicators: Final = ura_indicators
        self.kita: Final = kita
        self.fourth_kan: Final = fourth_kan
        #: riichi or double riichi was declared (set from them: an attribute, read by the scoring of
        #: every hand, rather than a property, a call in pure Python)
        self.in_riichi: Final = riichi or double_riichi

    @property
    def tsumo(self) -> bool:
        return self.discarder is None

    @property
    def seat_wind(self) -> Wind:
        return Wind.of_index((self.winner - self.dealer) % self.players)

    @property
    def is_dealer(self) -> bool:
        return self.winner == self.dealer
