"""Reading Tenhou mjlog records: the one walk over the XML, for every reading of the format.

An mjlog file is one ``<mjloggm>`` element (plain XML, or gzip-compressed:
told apart by the magic bytes ``1f 8b``, never by the file name). Its children
are ``GO`` (the rule bits), ``UN`` (the players), ``INIT`` (one per round: seed,
scores, dealer, starting hands), draws and discards (``T52``, ``D52`` ...), ``N``
(calls), ``REACH``, ``DORA``, ``AGARI`` (a win) and ``RYUUKYOKU`` (a draw); the last
``AGARI`` or ``RYUUKYOKU`` carries ``owari``, the final points.

:func:`walk` reads a record once and hands its elements, in order, to a
:class:`Visitor`; the attribute readers here (``_one_int``, ``_seat``, ``_ids``,
``_sc``, ``_go_rules``) turn attributes into values with messages that name them.
Two visitors make the two readings of a record: :mod:`tenbou.io.mjlog.game` its
own structure (:func:`~tenbou.io.mjlog.game.parse_mjlog`: rounds, calls, wins,
and score requests), :mod:`tenbou.io.mjlog.events` its mjai events and hand ends
(:func:`~tenbou.io.mjlog.events.mjlog_records`, what :mod:`tenbou.verify` checks).

>>> class Tags(Visitor):
...     def __init__(self) -> None:
...         self.seen: list[str] = []
...     def visit_move(self, tag: str, draw: bool, seat: int, tid: int) -> None:
...         self.seen.append(tag)
...     def visit_reach(self, a: Mapping[str, str]) -> None:
...         self.seen.append(f"REACH step {a['step']}")
>>> tags = Tags()
>>> walk(_EXAMPLE, "example.xml", tags)
>>> tags.seen
['REACH step 1', 'REACH step 2']
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
import zlib
from collections.abc import Mapping

from ..._jsonread import read_json
from ...errors import LogFormatError
from ..record import JSON
from ..source import GZIP_MAGIC, inflate
from .codes import DISCARD_SEATS, DRAW_SEATS, int_list

__all__ = ["Visitor", "is_mjlog", "walk"]


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
    visit_move = visitor.visit_move
    for el in root:
        tag = el.tag
        move = moves.get(tag)
        try:
            if move is None:
                move = _move_of(tag)
            if move is not None:
                visit_move(tag, *move)
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


# -- attributes ---------------------------------------------------------------------------------


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
