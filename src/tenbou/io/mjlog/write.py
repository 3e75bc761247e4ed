"""Writing Tenhou mjlog records from games in tenbou's terms.

:func:`write_mjlog` writes a :class:`~tenbou.io.record.GameRecord` (its hand
ends carrying their win details) as mjlog XML that Tenhou tools and
:func:`tenbou.io.mjlog.events.mjlog_records` read back to the same game.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...core.tiles import Tile
from ...engine.events import (
    Ankan,
    Chi,
    Dahai,
    Daiminkan,
    Dora,
    EndGame,
    Hora,
    Kakan,
    Nukidora,
    Pon,
    Reach,
    ReachAccepted,
    Ryukyoku,
    StartKyoku,
    Tsumo,
)
from ...errors import LogFormatError
from ..record import GameRecord, HandEnd, WinRecord, final_results
from .codes import DISCARD_TAGS, DRAW_TAGS, TenhouMeldType, encode_meld, tile_from_136
from .rules import GameType
from .vocab import LIMIT_CODES, RYUUKYOKU_BY_NAME, TENHOU_YAKUMAN_IDS, tenhou_yaku_id

__all__ = ["write_mjlog"]


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
    """``yaku`` (id, han pairs) or ``yakuman`` (ids), in the record's order."""
    if win.yakuman:
        return "yakuman", _ids_text(TENHOU_YAKUMAN_IDS[y] for y in win.yakuman if y in TENHOU_YAKUMAN_IDS)
    pairs: list[int] = []
    for key, han in (win.yaku or {}).items():
        tid = tenhou_yaku_id(key, seat_wind, round_wind)
        if tid is not None:
            pairs.extend((tid, han))
    return "yaku", _ids_text(pairs)


class _Writer:
    """Writes one game, element by element: the state of the hand being written (the 136-ids of
    its tiles, the scores and sticks, the last tile another seat may take) and the parts written."""

    def __init__(self, rec: GameRecord) -> None:
        from ...rules import rules_from_request

        self.rec = rec
        self.source = rec.source
        self.n = rec.players
        self.red = bool(rules_from_request(rec.rules).red_fives)
        self.parts = ['<mjloggm ver="2.3">']
        self.hands = iter(rec.hands)
        self.ids = _Ids(self.red, self.n, rec.source)
        self.end: HandEnd | None = None
        self.wins: list[WinRecord] = []
        self.running: list[int] = []
        self.start: StartKyoku | None = None
        self.drawn: list[int | None] = [None] * 4
        self.last: int | None = None
        self.sticks = 0
        self.dora_ids: list[int] = []
        self.ura: list[int] | None = None
        self.last_end = -1  # the place of the last AGARI or RYUUKYOKU, which ``owari`` goes on
        self.riichi: set[int] = set()
        self.hand_start = 0  # where the hand's tags begin (a hand stopped by a chombo is left out)

    def hundreds(self, values: Iterable[int]) -> str:
        """Points of each seat (the empty seats of a sanma game too) in hundreds."""
        return ",".join(str(_hundreds(v, self.source)) for v in [*values, *([0] * (4 - self.n))])

    def sc(self, deltas: list[int]) -> str:
        """``sc``: each seat's points before the hand's end and their change, in hundreds."""
        pad = [0] * (4 - self.n)
        return ",".join(
            f"{_hundreds(b, self.source)},{_hundreds(d, self.source)}"
            for b, d in zip([*self.running, *pad], [*deltas, *pad], strict=True)
        )

    def head(self) -> None:
        """``GO`` (the room, and tenbou's rules where no room has them), ``UN``, ``TAIKYOKU``."""
        import json
        from urllib.parse import quote
        from xml.sax.saxutils import quoteattr

        rec = self.rec
        go = rec.meta.get("go_type")
        gt = (
            GameType(go)
            if isinstance(go, int) and GameType(go).rules_json() == rec.rules
            else GameType.of_rules(rec.rules, self.n)
        )
        go_attrs = f'type="{gt.code}" lobby="0"'
        if gt.rules_json() != rec.rules:
            go_attrs += f" rules={quoteattr(json.dumps(rec.rules, ensure_ascii=False))}"
        self.parts.append(f"<GO {go_attrs}/>")
        names = list(rec.names) + [""] * (4 - len(rec.names))
        self.parts.append(
            "<UN " + " ".join(f'n{i}="{quote(names[i])}"' for i in range(4)) + ' dan="" rate="" sx=""/>'
        )
        self.parts.append('<TAIKYOKU oya="0"/>')

    def init(self, ev: StartKyoku) -> None:
        self.hand_start = len(self.parts)
        self.start = ev
        self.end = end = next(self.hands)
        self.wins = list(end.wins)
        self.ids = ids = _Ids(self.red, self.n, self.source)
        self.running = list(ev.scores)
        self.sticks = ev.kyotaku
        self.dora_ids = [ids.new(ev.dora_marker)]
        self.ura = None
        self.riichi = set()
        for seat, h in enumerate(ev.tehais):
            ids.hands[seat] = [ids.new(t) for t in h]
        seed = f"{ev.bakaze.index * 4 + ev.kyoku - 1},{ev.honba},{ev.kyotaku},0,0,{self.dora_ids[0]}"
        hai = " ".join(f'hai{i}="{_ids_text(ids.hands[i]) if i < self.n else ""}"' for i in range(4))
        self.parts.append(f'<INIT seed="{seed}" ten="{self.hundreds(ev.scores)}" oya="{ev.oya}" {hai}/>')
        self.drawn = [None] * 4

    def draw(self, ev: Tsumo) -> None:
        tid = self.ids.new(ev.pai)
        self.ids.hands[ev.actor].append(tid)
        self.drawn[ev.actor] = tid
        self.parts.append(f"<{DRAW_TAGS[ev.actor]}{tid}/>")

    def discard(self, ev: Dahai) -> None:
        d = self.drawn[ev.actor]
        tid = self.ids.take(
            ev.actor, ev.pai, prefer=d if ev.tsumogiri else None, avoid=None if ev.tsumogiri else d
        )
        self.drawn[ev.actor] = None
        self.last = tid
        self.parts.append(f"<{DISCARD_TAGS[ev.actor]}{tid}/>")

    def call(self, ev: Chi | Pon | Daiminkan) -> None:
        """A call of the last discard: chi, pon or daiminkan."""
        last = self.last
        assert last is not None
        mine = tuple(self.ids.take(ev.actor, t) for t in ev.consumed)
        mtype = {Chi: TenhouMeldType.CHI, Pon: TenhouMeldType.PON, Daiminkan: TenhouMeldType.DAIMINKAN}[
            type(ev)
        ]
        rel = (ev.target - ev.actor) % 4
        meld_ids = (*mine, last)
        self.ids.melds[ev.actor].append((mtype, meld_ids, last, rel))
        self.parts.append(f'<N who="{ev.actor}" m="{encode_meld(mtype, meld_ids, last, rel)}"/>')

    def kakan(self, ev: Kakan) -> None:
        added = self.ids.take(ev.actor, ev.pai)
        melds = self.ids.melds[ev.actor]
        i = next(
            (i for i, m in enumerate(melds) if m[0] is TenhouMeldType.PON and m[1][0] // 4 == ev.pai.kind),
            None,
        )
        if i is None:
            raise LogFormatError(f"{self.source}: kakan of {ev.pai} by seat {ev.actor} without a pon")
        _, pon_ids, called, rel = melds[i]
        melds[i] = (TenhouMeldType.KAKAN, (*sorted(pon_ids), added), called, rel)
        self.parts.append(
            f'<N who="{ev.actor}" m="{encode_meld(TenhouMeldType.KAKAN, melds[i][1], called, rel)}"/>'
        )
        self.drawn[ev.actor] = None
        self.last = added  # a chankan robs it

    def own(self, ev: Ankan | Nukidora) -> None:
        """An ankan, or a North set aside (kita): a call of the player's own tiles."""
        if isinstance(ev, Ankan):
            ids = tuple(self.ids.take(ev.actor, t) for t in ev.consumed)
            mtype = TenhouMeldType.ANKAN
        else:
            ids = (self.ids.take(ev.actor, ev.pai),)
            mtype = TenhouMeldType.KITA
        self.ids.melds[ev.actor].append((mtype, ids, None, 0))
        self.parts.append(f'<N who="{ev.actor}" m="{encode_meld(mtype, ids)}"/>')
        self.drawn[ev.actor] = None
        self.last = ids[0]

    def dora(self, ev: Dora) -> None:
        tid = self.ids.new(ev.dora_marker)
        self.dora_ids.append(tid)
        self.parts.append(f'<DORA hai="{tid}"/>')

    def reach_accepted(self, ev: ReachAccepted) -> None:
        self.running[ev.actor] -= 1000
        self.sticks += 1
        self.riichi.add(ev.actor)
        self.parts.append(f'<REACH who="{ev.actor}" step="2" ten="{self.hundreds(self.running)}"/>')

    def agari(self, ev: Hora) -> None:
        start = self.start
        assert start is not None and self.end is not None
        win = next((w for w in self.wins if w.winner == ev.actor), None)
        if win is None:
            raise LogFormatError(f"{self.source}: the win of seat {ev.actor} has no details to write")
        self.wins.remove(win)
        hand = list(self.ids.hands[ev.actor])
        if ev.actor == ev.target:
            machi = self.drawn[ev.actor] if self.drawn[ev.actor] is not None else hand[-1]
        else:
            assert self.last is not None
            machi = self.last
            hand.append(machi)
        assert machi is not None
        if self.ura is None and ev.ura_markers:  # one set of indicators for the hand (double ron included)
            self.ura = [self.ids.new(t) for t in ev.ura_markers]
        # Tenhou shows the ura indicators to a riichi winner only
        shown = self.ura if ev.ura_markers and self.ura is not None and ev.actor in self.riichi else []
        key, value = _yaku_attr(win, (ev.actor - start.oya) % self.n, start.bakaze.index)
        codes = [encode_meld(*m) for m in reversed(self.ids.melds[ev.actor])]
        deltas = list(win.deltas) if win.deltas is not None else [0] * self.n
        attrs = [
            f'ba="{start.honba},{self.sticks}"',
            f'hai="{_ids_text(sorted(hand))}"',
            f'm="{_ids_text(codes)}"' if codes else "",
            f'machi="{machi}"',
            f'ten="{win.fu or 0},{win.points or 0},{LIMIT_CODES.get(win.limit, 0)}"',
            f'{key}="{value}"',
            f'doraHai="{_ids_text(self.dora_ids)}"',
            f'doraHaiUra="{_ids_text(shown)}"' if shown else "",
            f'who="{ev.actor}" fromWho="{ev.target}"',
            f'paoWho="{win.pao}"' if win.pao is not None else "",
            f'sc="{self.sc(deltas)}"',
        ]
        self.running = [r + d for r, d in zip(self.running, deltas, strict=True)]
        self.sticks = 0
        self.last_end = len(self.parts)
        self.parts.append("<AGARI " + " ".join(a for a in attrs if a) + "/>")

    def ryuukyoku(self, ev: Ryukyoku) -> None:
        end, start = self.end, self.start
        assert end is not None and start is not None
        if end.kind == "chombo":  # Tenhou has no chombo: the hand, dealt again, is left out
            del self.parts[self.hand_start :]
            return
        deltas = list(end.deltas) if end.deltas is not None else [0] * self.n
        attrs = [f'ba="{start.honba},{self.sticks}"', f'sc="{self.sc(deltas)}"']
        if end.reason is not None and end.reason in RYUUKYOKU_BY_NAME:
            attrs.insert(0, f'type="{RYUUKYOKU_BY_NAME[end.reason]}"')
        if end.kind == "exhaustive_draw":
            for seat in end.tenpai or ():
                attrs.append(f'hai{seat}="{_ids_text(sorted(self.ids.hands[seat]))}"')
        self.last_end = len(self.parts)
        self.parts.append("<RYUUKYOKU " + " ".join(attrs) + "/>")

    def owari(self, final_scores: tuple[int, ...]) -> None:
        """``owari`` on the last AGARI or RYUUKYOKU: each seat's final points and result."""
        pad = 4 - self.n
        owari = ",".join(
            f"{_hundreds(s, self.source)},{p:.1f}"
            for s, p in zip(
                [*final_scores, *([0] * pad)], [*final_results(self.rec), *([0.0] * pad)], strict=True
            )
        )
        self.parts[self.last_end] = self.parts[self.last_end][:-2] + f' owari="{owari}"/>'

    def write(self) -> bytes:
        self.head()
        final = self.rec.final_scores
        for ev in self.rec.events:
            if isinstance(ev, StartKyoku):
                self.init(ev)
            elif isinstance(ev, Tsumo):
                self.draw(ev)
            elif isinstance(ev, Dahai):
                self.discard(ev)
            elif isinstance(ev, (Chi, Pon, Daiminkan)):
                self.call(ev)
            elif isinstance(ev, Kakan):
                self.kakan(ev)
            elif isinstance(ev, (Ankan, Nukidora)):
                self.own(ev)
            elif isinstance(ev, Dora):
                self.dora(ev)
            elif isinstance(ev, Reach):
                self.parts.append(f'<REACH who="{ev.actor}" step="1"/>')
            elif isinstance(ev, ReachAccepted):
                self.reach_accepted(ev)
            elif isinstance(ev, Hora):
                self.agari(ev)
            elif isinstance(ev, Ryukyoku):
                self.ryuukyoku(ev)
            elif isinstance(ev, EndGame) and final is not None and self.last_end >= 0:
                self.owari(final)
        self.parts.append("</mjloggm>")
        return "".join(self.parts).encode("utf-8")


def write_mjlog(rec: GameRecord) -> bytes:
    """A game as an mjlog XML record (its hand ends must carry win details: tenbou's replay fills
    them in, as :func:`tenbou.verify.convert.write_records` does before it writes). Tiles get 136-ids in
    the order they are seen; a record under rules other than a Tenhou room's
    keeps them in a ``rules`` attribute of ``GO`` (JSON), which the reader uses. A hand stopped by a
    chombo is left out (Tenhou has none: the hand is dealt again, the next one's ``ten`` show what
    it paid)."""
    return _Writer(rec).write()
