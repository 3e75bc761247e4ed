"""An mjlog record as a game of mjai events and hand ends (what :mod:`tenbou.verify` replays).

:func:`mjlog_records` reads a record (with :func:`tenbou.io.mjlog.read.walk`) into a
:class:`~tenbou.io.record.GameRecord`: ``INIT`` becomes ``start_kyoku``, draws and
discards ``tsumo`` and ``dahai``, ``N`` the calls, ``REACH`` ``reach`` and
``reach_accepted``, ``DORA`` ``dora``, ``AGARI`` ``hora`` and ``RYUUKYOKU``
``ryukyoku``; the 136-ids the record moves are kept in a ledger, whose
contradictions (an id a seat does not hold, one seen twice) become the hand's defects.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from ...core.tiles import Tile
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
from .codes import DISCARD_TAGS, DRAW_TAGS, TenhouMeld, TenhouMeldType, decode_meld, int_list, tile_from_136
from .game import Agari, Init, _agari, _init, recorded_yaku
from .read import _EXAMPLE as _EXAMPLE  # (the docstrings' example)
from .read import Visitor, _go_rules, _ids, _one_int, _sc, _seat, walk
from .rules import GameType
from .vocab import RYUUKYOKU_TYPES, tenbou_yaku_id

__all__ = ["mjlog_records"]


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
        self.draw_events, self.discard_events, self.tsumogiri_events = _MOVE_EVENTS[True]
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
        ledger = self.ledger
        if ledger is None or seat >= self.players or tid >= 136:
            self.refuse_move(tag, seat)
            return
        if draw:
            ledger.draw(seat, tid)
            self.events.append(self.draw_events[seat][tid])
        else:
            tsumogiri = ledger.discard(seat, tid)
            self.events.append((self.tsumogiri_events if tsumogiri else self.discard_events)[seat][tid])

    def refuse_move(self, tag: str, seat: int) -> None:
        """A draw or discard before any INIT, by a seat that does not play, or of no tile."""
        self.in_hand()
        if seat >= self.players:
            raise LogFormatError(f"seat {seat} does not play: the GO type says {self.players} players")
        raise LogFormatError(f"tile id {tag[1:21]} is out of range 0..135")

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
        self.draw_events, self.discard_events, self.tsumogiri_events = _MOVE_EVENTS[self.red]
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
