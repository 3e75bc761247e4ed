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


def write_mjlog(rec: GameRecord) -> bytes:
    """A game as an mjlog XML record (its hand ends must carry win details:
    :func:`tenbou.records.complete_record` fills them in). Tiles get 136-ids in
    the order they are seen; a record under rules other than a Tenhou room's
    keeps them in a ``rules`` attribute of ``GO`` (JSON), which the reader uses."""
    import json
    from xml.sax.saxutils import quoteattr

    from ...rules import rules_from_request

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
    riichi: set[int] = set()
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
            riichi = set()
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
            parts.append(f"<{DRAW_TAGS[ev.actor]}{tid}/>")
        elif isinstance(ev, Dahai):
            d = drawn[ev.actor]
            tid = ids.take(
                ev.actor, ev.pai, prefer=d if ev.tsumogiri else None, avoid=None if ev.tsumogiri else d
            )
            drawn[ev.actor] = None
            last = tid
            parts.append(f"<{DISCARD_TAGS[ev.actor]}{tid}/>")
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
            riichi.add(ev.actor)
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
            # Tenhou shows the ura indicators to a riichi winner only
            shown = ura if ev.ura_markers and ura is not None and ev.actor in riichi else []
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
                f'ten="{win.fu or 0},{win.points or 0},{LIMIT_CODES.get(win.limit, 0)}"',
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
            if end.reason is not None and end.reason in RYUUKYOKU_BY_NAME:
                attrs.insert(0, f'type="{RYUUKYOKU_BY_NAME[end.reason]}"')
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
                    [*final_results(rec), *([0.0] * (4 - n))],
                    strict=True,
                )
            )
            parts[last_end] = parts[last_end][:-2] + f' owari="{owari}"/>'
    parts.append("</mjloggm>")
    return "".join(parts).encode("utf-8")
