"""Reading Tenhou mjlog records: the XML as mjai events and hand ends, and each win as a score request.

An mjlog file is one ``<mjloggm>`` element (plain XML, or gzip-compressed:
told apart by the magic bytes ``1f 8b``, never by the file name). Its children
are ``GO`` (the rule bits), ``INIT`` (one per round: seed, scores, dealer,
starting hands), draws and discards (``T52``, ``D52`` ...), ``N`` (calls),
``REACH``, ``DORA``, ``AGARI`` (a win) and ``RYUUKYOKU`` (a draw).

:func:`mjlog_records` gives the game as a :class:`~tenbou.io.record.GameRecord`
(what :mod:`tenbou.records` verifies); :func:`parse_mjlog` gives the record's
own structure (:class:`MjlogGame`: rounds, calls, wins), from which
:func:`agari_to_request` builds the score request of a win.

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

import math
import os
import xml.etree.ElementTree as ET
import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace

from ..._jsonread import read_json
from ...core.tiles import Tile, Wind, format_sorted
from ...engine.events import (
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
from ...errors import LogFormatError
from ..record import JSON, GameRecord, HandEnd, WinRecord
from ..source import GZIP_MAGIC, inflate, read_source
from .codes import (
    DISCARD_SEATS,
    DISCARD_TAGS,
    DRAW_SEATS,
    DRAW_TAGS,
    Ten,
    TenhouMeld,
    TenhouMeldType,
    decode_meld,
    int_list,
    parse_ten,
    parse_yaku,
    parse_yakuman,
    tile_from_136,
)
from .rules import GameType
from .vocab import DORA_YAKU_IDS, FLAG_IDS, RYUUKYOKU_TYPES, tenbou_yaku_id

__all__ = [
    "Agari",
    "Call",
    "Init",
    "MjlogGame",
    "Round",
    "agari_to_request",
    "is_mjlog",
    "mjlog_records",
    "parse_mjlog",
    "read_mjlog",
    "recorded_yaku",
]


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


def is_mjlog(data: bytes) -> bool:
    """Whether bytes look like an mjlog record (plain or gzip): an ``<mjloggm``
    root near the start. A cheap sniff for choosing a reader, not a check.

    >>> is_mjlog(b'<mjloggm ver="2.3"></mjloggm>'), is_mjlog(b'{"log": []}')
    (True, False)
    """
    if data[:2] == GZIP_MAGIC:
        try:
            data = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS).decompress(data, 4096)
        except zlib.error:
            return False
    return b"<mjloggm" in data[:4096]


# -- the one walk over the XML --------------------------------------------------------------------


def _xml_root(data: bytes, source: str) -> tuple[ET.Element, tuple[str, str] | None]:
    """The ``<mjloggm>`` element of a record (gzip inflated within the size limit), and
    where stray bytes before it were skipped (``None``: there were none). A document
    type or entity declaration is refused: mjlog has none, and entities are how XML
    bombs grow."""
    raw = inflate(data, source)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise LogFormatError(f"{source}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    if "<!DOCTYPE" in text or "<!ENTITY" in text:
        raise LogFormatError(f"{source}: a document type or entity declaration (an mjlog record has none)")
    stray = None
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
        shown = repr(text[:start][:20]).replace("'", '"')
        stray = (f"{start} stray character(s) before <mjloggm>", f"{shown} (not well-formed XML: {e})")
    if root.tag != "mjloggm":
        raise LogFormatError(f"{source}: the root element is <{root.tag}>, not <mjloggm>")
    return root, stray


#: the tags of draws and discards (``T52``: seat 0 draws tile id 52; ``G3``: seat 3 discards id 3)
#: as (a draw, the seat, the tile id): most of a record, decoded at once
_MOVE_TAGS: dict[str, tuple[bool, int, int]] = {
    **{f"{letter}{tid}": (True, seat, tid) for letter, seat in DRAW_SEATS.items() for tid in range(136)},
    **{f"{letter}{tid}": (False, seat, tid) for letter, seat in DISCARD_SEATS.items() for tid in range(136)},
}


def _move_of(tag: str) -> tuple[bool, int, int] | None:
    """A draw or discard tag not of the table (``T052``, ``D136``): (a draw, the seat, the tile id,
    136 for any id past the last); ``None`` for any other tag."""
    head = tag[:1]
    number = tag[1:]
    if not (number.isascii() and number.isdigit() and (head in DRAW_SEATS or head in DISCARD_SEATS)):
        return None
    seat = DRAW_SEATS[head] if head in DRAW_SEATS else DISCARD_SEATS[head]
    return head in DRAW_SEATS, seat, int(number) if len(number) <= 3 else 136


class Visitor:
    """What :func:`walk` tells a reader of an mjlog, element by element, in record order. Each
    ``visit_`` method is given an element's attributes (a draw or discard its seat and tile id) and
    does nothing unless a reader overrides it; what one raises goes to :meth:`handle_error`."""

    def visit_stray(self, what: str, detail: str) -> None:
        """Bytes before ``<mjloggm>`` were skipped: ``what`` says how many, ``detail`` shows them."""

    def visit_move(self, tag: str, draw: bool, seat: int, tid: int) -> None:
        """A draw (``draw``) or a discard of tile id ``tid`` (136: past the last) by ``seat``."""

    def visit_go(self, a: Mapping[str, str]) -> None:
        """``GO``: the room's rule bits (``type``), and tenbou's ``rules`` where tenbou wrote it."""

    def visit_un(self, a: Mapping[str, str]) -> None:
        """``UN``: the players' names (``n0`` .. ``n3``), or a player coming back."""

    def visit_init(self, a: Mapping[str, str]) -> None:
        """``INIT``: a round starts."""

    def visit_call(self, a: Mapping[str, str]) -> None:
        """``N``: a call (``who``, ``m``)."""

    def visit_reach(self, a: Mapping[str, str]) -> None:
        """``REACH``: a riichi declared (``step="1"``) or accepted (``step="2"``)."""

    def visit_dora(self, a: Mapping[str, str]) -> None:
        """``DORA``: a new dora indicator shown."""

    def visit_agari(self, a: Mapping[str, str]) -> None:
        """``AGARI``: a win."""

    def visit_ryuukyoku(self, a: Mapping[str, str]) -> None:
        """``RYUUKYOKU``: a draw."""

    def visit_owari(self, text: str) -> None:
        """``owari`` (on the last ``AGARI`` or ``RYUUKYOKU``): each seat's final points and score."""

    def handle_error(self, tag: str, error: LogFormatError) -> None:
        """An element the visitor refused: raise (the walk stops), or keep the error and go on."""
        raise error


def walk(data: bytes, source: str, visitor: Visitor) -> None:
    """Read an mjlog record (plain XML or gzip) and hand each element of its ``<mjloggm>``, in order,
    to ``visitor``: the one walk over the XML that every reading of the format makes. Elements
    of other tags (``SHUFFLE``, ``TAIKYOKU``, ``BYE`` ...) are passed over, but for an ``owari``."""
    root, stray = _xml_root(data, source)
    if stray is not None:
        visitor.visit_stray(*stray)
    moves = _MOVE_TAGS
    for el in root:
        tag = el.tag
        move = moves.get(tag)
        try:
            if move is None:
                move = _move_of(tag)
            if move is not None:
                visitor.visit_move(tag, *move)
                continue
            a = el.attrib
            if tag == "INIT":
                visitor.visit_init(a)
            elif tag == "N":
                visitor.visit_call(a)
            elif tag == "REACH":
                visitor.visit_reach(a)
            elif tag == "DORA":
                visitor.visit_dora(a)
            elif tag == "AGARI":
                visitor.visit_agari(a)
            elif tag == "RYUUKYOKU":
                visitor.visit_ryuukyoku(a)
            elif tag == "GO":
                visitor.visit_go(a)
            elif tag == "UN":
                visitor.visit_un(a)
            owari = a.get("owari")
            if owari is not None and owari.strip():
                visitor.visit_owari(owari)
        except LogFormatError as e:
            visitor.handle_error(tag, e)


class _GameBuilder(Visitor):
    """Builds an :class:`MjlogGame` from the elements :func:`walk` gives it, strict or lenient."""

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

    def visit_stray(self, what: str, detail: str) -> None:
        self.fail(what, detail)

    def handle_error(self, tag: str, error: LogFormatError) -> None:
        self.fail(self.where(tag), str(error))

    def game(self) -> MjlogGame:
        """The game read, once the walk is over."""
        self.close_round()
        if self.game_type is None:
            self.fail("<mjloggm>", "no <GO> element (the game's rules)")
        return MjlogGame(self.source, self.game_type or GameType(0), tuple(self.rounds), tuple(self.errors))

    def in_round(self) -> None:
        if self.init is None:
            raise LogFormatError("comes before any <INIT>")

    def visit_go(self, a: Mapping[str, str]) -> None:
        self.rules = _go_rules(a, self.rules)
        self.game_type = GameType(_one_int(a, "type"))

    def visit_init(self, a: Mapping[str, str]) -> None:
        self.close_round()
        self.init = _init(a, self.players)

    def visit_call(self, a: Mapping[str, str]) -> None:
        self.in_round()
        who = _seat(a, "who", self.players)
        code = _one_int(a, "m")
        decode_meld(code, True)
        self.calls.append(Call(who, code))

    def visit_reach(self, a: Mapping[str, str]) -> None:
        self.in_round()
        who = _seat(a, "who", self.players)
        if _one_int(a, "step") == 2:
            self.riichi.append(who)

    def visit_agari(self, a: Mapping[str, str]) -> None:
        self.in_round()
        red = self.game_type.red_fives if self.game_type else True
        self.agari.append(_agari(a, self.players, red))

    def visit_ryuukyoku(self, a: Mapping[str, str]) -> None:
        self.in_round()
        self.draw = a.get("type") or "exhaustive"


def _go_rules(a: Mapping[str, str], current: JSON) -> JSON:
    """The ``rules`` attribute tenbou writes on ``<GO>`` (JSON), or ``current`` without one."""
    if not a.get("rules"):
        return current
    rules: JSON = read_json(a["rules"], LogFormatError, f"<GO rules={a['rules'][:60]!r}>")
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
    ids = int_list(a[key], key)
    bad = [i for i in ids if not 0 <= i < 136]
    if bad:
        raise LogFormatError(f"{key}={a[key]!r}: tile id {bad[0]} is out of range 0..135")
    return ids


def _sc(a: Mapping[str, str], players: int) -> tuple[int, ...]:
    """``sc``: each seat's points before and their change, in hundreds (chip rooms add chips)."""
    sc = int_list(a.get("sc", ""), "sc")
    if sc and (len(sc) % 2 or len(sc) < 2 * players):
        raise LogFormatError(f"sc={a['sc']!r} needs two numbers (points, change) for each of {players} seats")
    return sc


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
    if not 0 <= rnd < 16 or honba < 0 or sticks < 0 or not 0 <= dora < 136:
        raise LogFormatError(
            f"seed={a['seed']!r}: a round 0..15 (East 1 to North 4), counts that are not negative "
            "and a dora indicator id 0..135 expected"
        )
    oya = _seat(a, "oya", players)
    scores = tuple(100 * s for s in int_list(a.get("ten", ""), "ten"))
    if not players <= len(scores) <= 4 or any(scores[players:]):
        raise LogFormatError(f"ten={a.get('ten', '')!r} needs the points of each of {players} seats")
    hands = tuple(_ids(a, f"hai{i}", required=i < players) for i in range(4))
    for i in range(4):
        if i >= players and hands[i]:
            raise LogFormatError(
                f"hai{i} deals {len(hands[i])} tiles to seat {i}, but the GO type says {players} players"
            )
        if i < players and len(hands[i]) != 13:
            raise LogFormatError(f"hai{i} holds {len(hands[i])} tiles, not 13")
    return Init(rnd, honba, sticks, dice, dora, oya, scores, hands)


def _agari(a: Mapping[str, str], players: int, red_fives: bool) -> Agari:
    who = _seat(a, "who", players)
    from_who = _seat(a, "fromWho", players)
    ba = int_list(a.get("ba", ""), "ba")
    if len(ba) != 2 or min(ba) < 0:
        raise LogFormatError(f"ba={a.get('ba')!r} needs two numbers: honba, riichi sticks")
    hai = _ids(a, "hai")
    machi = _one_int(a, "machi")
    codes = int_list(a.get("m", ""), "m")
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
    if len(dora) > 5 or len(ura) > 5:
        raise LogFormatError(f"{len(dora)} doraHai and {len(ura)} doraHaiUra: a hand shows at most 5 of each")
    pao = _seat(a, "paoWho", players) if "paoWho" in a else None
    sc = _sc(a, players)
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
    builder = _GameBuilder(source, strict)
    walk(data, source, builder)
    return builder.game()


def read_mjlog(path: str | os.PathLike[str], *, strict: bool = True) -> MjlogGame:
    """Read an mjlog file (plain or gzip, told apart by its first bytes).

    See :func:`parse_mjlog` for ``strict``; errors name the file.
    """
    return parse_mjlog(read_source(path), os.fspath(path), strict=strict)


# -- wins as score requests ---------------------------------------------------------------------


def recorded_yaku(agari: Agari) -> dict[str, int]:
    """Tenhou's yaku of a win by tenbou id with their han (the dora entries of 0
    han, such as ``53,0`` for no ura dora, are dropped; any other yaku is kept,
    0 han or not: the record says the hand has it); a yakuman hand gives each of
    its yakuman 13 han (Tenhou counts none double).

    >>> from dataclasses import replace
    >>> win = next(parse_mjlog(_EXAMPLE).wins())[1]
    >>> recorded_yaku(win)
    {'riichi': 1, 'dora': 1}
    >>> recorded_yaku(replace(win, yaku=(), yakuman=(39, 42)))
    {'daisangen': 13, 'tsuuiisou': 13}
    >>> recorded_yaku(replace(win, yaku=((1, 1), (7, 0), (53, 0))))
    {'riichi': 1, 'pinfu': 0}
    """
    out: dict[str, int] = {}
    for yid, han in agari.yaku:
        if han or yid not in DORA_YAKU_IDS:
            key = tenbou_yaku_id(yid)
            out[key] = out.get(key, 0) + han
    for yid in agari.yakuman:
        out[tenbou_yaku_id(yid, yakuman=True)] = 13
    return out


def _tiles_text(ids: Sequence[int], red_fives: bool) -> str:
    """The canonical text of tiles given by 136-ids (which put a red five before the plain ones)."""
    return format_sorted(tile_from_136(i, red_fives) for i in ids)


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
    for yid, flag in FLAG_IDS.items():
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


def _names(a: Mapping[str, str], players: int) -> tuple[str, ...]:
    from urllib.parse import unquote

    return tuple(unquote(a.get(f"n{i}", "")) for i in range(players))


_TILES_RED = tuple(tile_from_136(i, True) for i in range(136))
_TILES_PLAIN = tuple(tile_from_136(i, False) for i in range(136))


def _move_events(
    red: bool,
) -> tuple[tuple[tuple[Tsumo, ...], ...], tuple[tuple[Dahai, ...], ...], tuple[tuple[Dahai, ...], ...]]:
    """The events of every draw, discard and tsumogiri, by seat and tile id: events are values, so
    one of each serves every record."""
    tiles = [tile_from_136(tid, red) for tid in range(136)]
    return (
        tuple(tuple(Tsumo(seat, tile) for tile in tiles) for seat in range(4)),
        tuple(tuple(Dahai(seat, tile, False) for tile in tiles) for seat in range(4)),
        tuple(tuple(Dahai(seat, tile, True) for tile in tiles) for seat in range(4)),
    )


_MOVE_EVENTS = {True: _move_events(True), False: _move_events(False)}


class _Ledger:
    """The 136-ids of one hand as the record moves them: who holds which, what was
    dealt, drawn or shown, the last discard, each seat's call codes. What the
    record contradicts (an id a seat does not hold, an id seen twice) becomes a
    defect of the hand: (mismatch kind, detail)."""

    def __init__(self, init: Init, players: int) -> None:
        self.held: list[set[int]] = [set(h) for h in init.hands[:players]]
        self.seen: set[int] = {init.dora_indicator}
        self.indicators: list[int] = [init.dora_indicator]
        self.drawn: list[int | None] = [None] * players
        self.last: tuple[int, int] | None = None  # (seat, id) of a tile another seat may win on
        self.codes: list[list[int]] = [[] for _ in range(players)]
        self.defects: list[tuple[str, str]] = []
        seen = self.seen
        for seat, hand in enumerate(init.hands[:players]):
            for tid in hand:
                if tid in seen:
                    self.seen_twice(tid, f"hai{seat}")
                seen.add(tid)

    def defect(self, kind: str, detail: str) -> None:
        if len(self.defects) < 8 and (kind, detail) not in self.defects:
            self.defects.append((kind, detail))

    def seen_twice(self, tid: int, where: str) -> None:
        self.defect("tiles", f"{where}: tile id {tid} was already dealt, drawn or shown this hand")

    def see(self, tid: int, where: str) -> None:
        if tid in self.seen:
            self.seen_twice(tid, where)
        self.seen.add(tid)

    def take(self, seat: int, tids: Iterable[int], where: str) -> None:
        for tid in tids:
            if tid in self.held[seat]:
                self.held[seat].discard(tid)
            else:
                self.defect("tiles", f"{where}: seat {seat} does not hold tile id {tid}")

    # draws and discards are most of a record: their messages are made only for a defect
    def draw(self, seat: int, tid: int) -> None:
        if tid in self.seen:
            self.seen_twice(tid, f"<{DRAW_TAGS[seat]}{tid}>")
        self.seen.add(tid)
        self.held[seat].add(tid)
        self.drawn[seat] = tid
        self.last = None

    def discard(self, seat: int, tid: int) -> bool:
        """A discard; whether it is the tile just drawn (tsumogiri)."""
        held = self.held[seat]
        if tid in held:
            held.discard(tid)
        else:
            self.defect("tiles", f"<{DISCARD_TAGS[seat]}{tid}>: seat {seat} does not hold tile id {tid}")
        drawn = self.drawn[seat]
        self.drawn[seat] = None
        self.last = (seat, tid)
        return tid == drawn

    def call(self, who: int, m: TenhouMeld, target: int | None) -> None:
        where = f"<N who={who} m={m.code}>"
        codes = self.codes[who]
        if m.type in (TenhouMeldType.CHI, TenhouMeldType.PON, TenhouMeldType.DAIMINKAN):
            if self.last is None or self.last != (target, m.called_id):
                self.defect(
                    "melds",
                    f"{where}: calls tile id {m.called_id} from seat {target}; the last discard is "
                    + ("none" if self.last is None else f"id {self.last[1]} by seat {self.last[0]}"),
                )
            self.take(who, (i for i in m.ids if i != m.called_id), where)
            codes.append(m.code)
            self.last = None
            return
        self.drawn[who] = None
        if m.type is TenhouMeldType.KAKAN:
            pon = next((c for c in codes if c & ~0x18 == m.code & ~0x18 and c & 0x8), None)
            if pon is None:
                self.defect("melds", f"{where}: an added kan of a pon seat {who} has not called")
            else:
                codes[codes.index(pon)] = m.code
            self.take(who, m.ids[3:], where)
            self.last = (who, m.ids[3])  # a chankan robs it
        else:  # ankan, kita
            self.take(who, m.ids, where)
            codes.append(m.code)
            self.last = (who, m.ids[0]) if m.type is TenhouMeldType.KITA else None

    def dora(self, tid: int) -> None:
        self.see(tid, f'<DORA hai="{tid}">')
        self.indicators.append(tid)

    def agari(self, agari: Agari) -> None:
        """The AGARI's own account of the hand against the ids the record moved."""
        who, machi = agari.who, agari.machi
        held = set(self.held[who])
        if agari.tsumo:
            if machi != self.drawn[who]:
                self.defect("win_tile", f"machi {machi}: seat {who} drew id {self.drawn[who]} last")
        elif self.last is None or self.last != (agari.from_who, machi):
            got = "none" if self.last is None else f"id {self.last[1]} of seat {self.last[0]}"
            self.defect("win_tile", f"machi {machi}: the tile seat {who} can win on is {got}")
        else:
            held.add(machi)
        if set(agari.hai) != held:
            self.defect(
                "hand",
                f"seat {who}: AGARI hai lists ids {_ids_text(sorted(set(agari.hai) - held))} it does not "
                f"hold and leaves out {_ids_text(sorted(held - set(agari.hai)))}",
            )
        if sorted(agari.melds) != sorted(self.codes[who]):
            self.defect(
                "melds",
                f"seat {who}: AGARI m={_ids_text(agari.melds)}, its calls {_ids_text(self.codes[who])}",
            )
        if list(agari.dora_hai) != self.indicators:
            self.defect(
                "dora",
                f"doraHai={_ids_text(agari.dora_hai)}, the indicators shown {_ids_text(self.indicators)}",
            )
        ura = [i for i in agari.dora_hai_ura if i in self.seen]
        if ura or len(set(agari.dora_hai_ura)) != len(agari.dora_hai_ura):
            self.defect(
                "ura_dora",
                f"doraHaiUra={_ids_text(agari.dora_hai_ura)}: an id is shown twice or was dealt, drawn or "
                f"shown this hand ({_ids_text(ura)})",
            )

    def shown(self, seat: int, ids: Sequence[int]) -> None:
        """A RYUUKYOKU ``hai{seat}``: the seat's whole hand."""
        if set(ids) != self.held[seat] or len(set(ids)) != len(ids):
            self.defect(
                "hand",
                f"seat {seat}: RYUUKYOKU hai{seat}={_ids_text(ids)}, the record gives it "
                f"{_ids_text(sorted(self.held[seat]))}",
            )


def _ids_text(ids: Iterable[int]) -> str:
    return ",".join(map(str, ids))


class _EventBuilder(Visitor):
    """Turns the elements :func:`walk` gives it into mjai events and hand ends."""

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
        #: the final results with uma and oka that ``owari`` gives
        self.results: list[float] | None = None
        self.warnings: list[str] = []
        self.init: Init | None = None
        self.ledger: _Ledger | None = None
        self.wins: list[WinRecord] = []
        self.draw: HandEnd | None = None
        self.running: list[int] = []
        self.sticks = 0
        self.rounds = 0
        self.rules: JSON = None

    def tile(self, tid: int) -> Tile:
        return (_TILES_RED if self.red else _TILES_PLAIN)[tid]

    def tiles(self, ids: Iterable[int]) -> tuple[Tile, ...]:
        table = _TILES_RED if self.red else _TILES_PLAIN
        return tuple(table[i] for i in ids)

    def where(self, tag: str) -> str:
        return f"<{tag}> in round {self.rounds}" if self.rounds else f"<{tag}>"

    def inconsistent(self, problem: str) -> None:
        if self.skip is None:
            self.skip = f"inconsistent record: {problem}"

    def visit_stray(self, what: str, detail: str) -> None:
        self.warnings.append(f"{self.source}: {what} skipped: {detail}")

    def handle_error(self, tag: str, error: LogFormatError) -> None:
        raise LogFormatError(f"{self.source}: {self.where(tag)}: {error}") from None

    def in_hand(self) -> _Ledger:
        """The ledger of the hand being played (an element that belongs to one comes after an INIT)."""
        if self.ledger is None:
            raise LogFormatError("comes before any <INIT>")
        return self.ledger

    # draws and discards are most of a record: their events are made once, for every record
    def visit_move(self, tag: str, draw: bool, seat: int, tid: int) -> None:
        ledger = self.in_hand()
        if seat >= self.players:
            raise LogFormatError(f"seat {seat} does not play: the GO type says {self.players} players")
        if tid >= 136:
            raise LogFormatError(f"tile id {tag[1:21]} is out of range 0..135")
        draws, discards, tsumogiris = _MOVE_EVENTS[self.red]
        if draw:
            ledger.draw(seat, tid)
            self.events.append(draws[seat][tid])
        else:
            self.events.append((tsumogiris if ledger.discard(seat, tid) else discards)[seat][tid])

    def close_hand(self) -> None:
        """End the open hand: its wins or its draw, then ``end_kyoku``; a hand the record
        gives neither is ``unfinished`` (and has no ``end_kyoku``)."""
        if self.init is None:
            return
        defects = tuple(self.ledger.defects) if self.ledger is not None else ()
        if self.wins:
            deltas = _sum_deltas([w.deltas for w in self.wins], self.players)
            self.hands.append(HandEnd("win", tuple(self.wins), None, deltas, defects=defects))
            self.events.append(EndKyoku())
        elif self.draw is not None:
            self.hands.append(replace(self.draw, defects=defects))
            self.events.append(EndKyoku())
        else:
            self.hands.append(HandEnd("unfinished", defects=defects))
        self.init = None
        self.ledger = None

    def check_before(self, sc: Sequence[int], tag: str) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        """(scores before, deltas) of ``sc``, after checking its scores-before against the hand so far."""
        n = self.players
        if not sc:
            return None
        before = tuple(100 * x for x in sc[0 : 2 * n : 2])
        deltas = tuple(100 * x for x in sc[1 : 2 * n : 2])
        if list(before) != self.running:
            assert self.init is not None
            self.inconsistent(
                f"round {self.rounds} ({self.init.round_wind.value}{self.init.number}-{self.init.honba}): "
                f"<{tag}> sc gives the scores before as {list(before)}, "
                f"the record's INIT and REACH give {self.running}"
            )
        self.running = [b + d for b, d in zip(before, deltas, strict=True)]
        return before, deltas

    def visit_go(self, a: Mapping[str, str]) -> None:
        if self.game_type is not None or self.rounds:
            raise LogFormatError("a second <GO>, or one after the first INIT (the rules are set once)")
        self.rules = _go_rules(a, self.rules)
        self.game_type = GameType(_one_int(a, "type"))
        self.players = self.game_type.players
        self.red = self.game_type.red_fives
        self.skip = self.skip or self.game_type.unmodelled()

    def visit_un(self, a: Mapping[str, str]) -> None:
        if "n0" in a and not self.names:
            self.names = _names(a, self.players)

    def visit_init(self, a: Mapping[str, str]) -> None:
        self.close_hand()
        self.rounds += 1
        init = _init(a, self.players)
        self.init = init
        self.ledger = _Ledger(init, self.players)
        self.wins, self.draw = [], None
        self.running = list(init.scores[: self.players])
        self.sticks = init.riichi_sticks
        self.events.append(
            StartKyoku(
                bakaze=init.round_wind,
                dora_marker=self.tile(init.dora_indicator),
                kyoku=init.number,
                honba=init.honba,
                kyotaku=init.riichi_sticks,
                oya=init.oya,
                scores=tuple(init.scores[: self.players]),
                tehais=tuple(self.tiles(h) for h in init.hands[: self.players]),
            )
        )

    def visit_dora(self, a: Mapping[str, str]) -> None:
        ledger = self.in_hand()
        shown = _ids(a, "hai")
        if len(shown) != 1:
            raise LogFormatError(f"hai={a.get('hai')!r} must be one tile id")
        ledger.dora(shown[0])
        self.events.append(Dora(self.tile(shown[0])))

    def visit_owari(self, text: str) -> None:
        values = _int_list_float(text, "owari")
        if len(values) < 2 * self.players:
            raise LogFormatError(f"owari={text!r} needs two numbers (points, score) for each seat")
        self.final = tuple(round(100 * v) for v in values[0 : 2 * self.players : 2])
        self.results = [float(v) for v in values[1 : 2 * self.players : 2]]

    def visit_reach(self, a: Mapping[str, str]) -> None:
        self.in_hand()
        who = _seat(a, "who", self.players)
        step = _one_int(a, "step")
        if step == 1:
            self.events.append(Reach(who))
            return
        if step != 2:
            raise LogFormatError(f"step={step} is not a riichi step (1 declared, 2 accepted)")
        self.running[who] -= 1000
        self.sticks += 1
        scores = None
        if a.get("ten", "").strip():
            ten = int_list(a["ten"], "ten")
            if not self.players <= len(ten) <= 4:
                raise LogFormatError(f"ten={a['ten']!r} needs the points of each of {self.players} seats")
            scores = tuple(100 * x for x in ten[: self.players])
        self.events.append(ReachAccepted(who, None, scores))

    def visit_call(self, a: Mapping[str, str]) -> None:
        ledger = self.in_hand()
        who = _seat(a, "who", self.players)
        code = _one_int(a, "m")
        m = decode_meld(code, self.red)
        tiles = m.tiles
        if m.type is TenhouMeldType.KITA:
            if self.players != 3:
                raise LogFormatError(
                    f"call code {code} sets a North aside (kita), which only three players do"
                )
            ledger.call(who, m, None)
            self.events.append(Nukidora(who, tiles[0]))
        elif m.type is TenhouMeldType.ANKAN:
            ledger.call(who, m, None)
            self.events.append(Ankan(who, tiles))
        elif m.type is TenhouMeldType.KAKAN:
            ledger.call(who, m, None)
            self.events.append(Kakan(who, tiles[3], tiles[:3]))
        else:
            target = m.from_seat(who, self.players)
            if target is None or m.called_id is None:  # pragma: no cover - decode_meld gives both
                raise LogFormatError(f"call code {code} names no seat it is called from")
            ledger.call(who, m, target)
            called = self.tile(m.called_id)
            consumed = self.tiles(i for i in m.ids if i != m.called_id)
            if m.type is TenhouMeldType.CHI:
                self.events.append(Chi(who, target, called, consumed))
            elif m.type is TenhouMeldType.PON:
                self.events.append(Pon(who, target, called, consumed))
            else:
                self.events.append(Daiminkan(who, target, called, consumed))

    def visit_agari(self, a: Mapping[str, str]) -> None:
        ledger = self.in_hand()
        if self.draw is not None:
            raise LogFormatError("an AGARI after the hand's RYUUKYOKU")
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
        if any(w.winner == agari.who for w in self.wins):
            raise LogFormatError(f"a second AGARI of seat {agari.who} in one hand")
        ledger.agari(agari)
        sc = self.check_before(agari.sc, "AGARI")
        deltas = sc[1] if sc is not None else None
        ura = self.tiles(agari.dora_hai_ura)
        self.events.append(Hora(agari.who, agari.from_who, self.tile(machi), ura or None, deltas))
        yaku = recorded_yaku(agari)
        if self.players == 3 and "kita" in yaku:  # pragma: no cover - Tenhou counts kita as dora
            yaku["dora"] = yaku.get("dora", 0) + yaku.pop("kita")
        concealed = list(agari.hai)
        concealed.remove(machi)
        melds = [decode_meld(c, self.red) for c in reversed(agari.melds)]
        limit = agari.ten.limit_name
        if limit == "yakuman" and not agari.yakuman:
            limit = "kazoe_yakuman"
        self.wins.append(
            WinRecord(
                winner=agari.who,
                from_seat=agari.from_who,
                yaku=yaku,
                fu=agari.ten.fu,
                points=agari.ten.points,
                limit=limit,
                pao=agari.pao_who,
                pao_known=True,
                limit_known=True,
                deltas=deltas,
                yakuman=tuple(tenbou_yaku_id(i, yakuman=True) for i in agari.yakuman),
                hand=self.tiles(sorted(concealed)),
                melds=tuple(
                    m.meld(agari.who, self.players) for m in melds if m.type is not TenhouMeldType.KITA
                ),
                kita=sum(1 for m in melds if m.type is TenhouMeldType.KITA),
                dora=self.tiles(agari.dora_hai),
                honba=agari.honba,
                riichi_sticks=agari.riichi_sticks,
            )
        )

    def visit_ryuukyoku(self, a: Mapping[str, str]) -> None:
        ledger = self.in_hand()
        if self.wins or self.draw is not None:
            raise LogFormatError("a RYUUKYOKU after the hand's AGARI or RYUUKYOKU")
        kind = a.get("type")
        if kind is not None and kind not in RYUUKYOKU_TYPES:
            raise LogFormatError(f"type={kind!r} is not a draw type ({', '.join(RYUUKYOKU_TYPES)})")
        reason, name = RYUUKYOKU_TYPES[kind] if kind else (None, None)
        ba = int_list(a.get("ba", ""), "ba") if "ba" in a else None
        if ba is not None and (len(ba) != 2 or min(ba) < 0):
            raise LogFormatError(f"ba={a.get('ba')!r} needs two numbers: honba, riichi sticks")
        sc = self.check_before(_sc(a, self.players), "RYUUKYOKU")
        before, deltas = sc if sc is not None else (None, None)
        shown = {i: _ids(a, f"hai{i}") for i in range(self.players) if f"hai{i}" in a}
        for seat, ids in shown.items():
            ledger.shown(seat, ids)
        tenpai = tuple(shown)
        exhaustive = kind in (None, "nm")
        tenpais = tuple(i in tenpai for i in range(self.players)) if exhaustive else None
        self.events.append(Ryukyoku(reason, tenpais, deltas))
        self.draw = HandEnd(
            "exhaustive_draw" if exhaustive else "abortive_draw",
            (),
            name,
            deltas,
            tenpai if exhaustive else None,
            shown={seat: self.tiles(sorted(ids)) for seat, ids in shown.items()},
            honba=None if ba is None else ba[0],
            riichi_sticks=None if ba is None else ba[1],
            scores_before=before,
        )

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
            meta={"go_type": gt.code, **({"final_results": list(self.results)} if self.results else {})},
            warnings=tuple(self.warnings),
        )


def _sum_deltas(parts: Sequence[tuple[int, ...] | None], players: int) -> tuple[int, ...] | None:
    if not parts or any(p is None for p in parts):
        return None
    return tuple(sum(p[i] for p in parts if p is not None) for i in range(players))


def _int_list_float(text: str, what: str) -> tuple[float, ...]:
    try:
        values = tuple(float(x) for x in text.split(","))
    except ValueError:
        values = ()
    if not values or not all(math.isfinite(v) and abs(v) < 1e9 for v in values):
        raise LogFormatError(f"{what}={text[:60]!r} is not a comma-separated list of numbers") from None
    return values


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
    builder = _EventBuilder(source)
    walk(data, source, builder)
    builder.close_hand()
    if builder.game_type is None:
        raise LogFormatError(f"{source}: no <GO> element (the game's rules)")
    return [builder.record()]


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
