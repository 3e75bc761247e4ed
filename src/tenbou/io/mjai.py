"""mjai JSON Lines records (Mortal, mjai-reviewer, tenbou's self-play): games in, games out.

An mjai record is one event per line, ``start_game`` to ``end_game``, possibly
several games in one file. mjai has no rules field: ``start_game`` may carry
``aka_flag`` (red fives) and ``kyoku_first`` (4 for an East-only game), as
mjai-reviewer writes them, and tenbou adds ``tenbou_rules`` (a JSON rules
value) when it writes a record; without them the rules are ``tenhou`` (or the
``rules`` given to :func:`mjai_records`). What the record says about each
hand end is in the ``deltas`` of ``hora`` and ``ryukyoku``.

>>> lines = [
...     '{"type":"start_game","names":["a","b","c","d"],"aka_flag":false}',
...     '{"type":"end_game"}',
... ]
>>> rec = mjai_records("\\n".join(lines), "x.jsonl")[0]
>>> rec.rules, rec.names
({'preset': 'tenhou', 'overrides': {'red_fives': 0}}, ('a', 'b', 'c', 'd'))
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..errors import LogFormatError
from ..events import (
    Ankan,
    Chi,
    Daiminkan,
    EndGame,
    EndKyoku,
    Event,
    Hora,
    Kakan,
    Pon,
    ReachAccepted,
    Ryukyoku,
    StartGame,
    StartKyoku,
    event_from_json,
    event_to_json,
)
from .record import JSON, GameRecord, HandEnd, WinRecord

__all__ = ["mjai_records", "read_json", "write_mjai"]

_ABORTIVE = {
    "kyushukyuhai": "kyuushu_kyuuhai",
    "suufonrenda": "suufon_renda",
    "suuchariichi": "suucha_riichi",
    "suukaikan": "suukaikan",
    "sanchaho": "sanchahou",
}
#: how many tiles a call takes from the caller's hand
_CONSUMED = {Chi: 2, Pon: 2, Daiminkan: 3, Kakan: 3, Ankan: 4}
#: events that belong inside a hand (everything but start_game, start_kyoku, end_game)
_GAME_LEVEL = (StartGame, StartKyoku, EndGame)


def read_json(text: str, where: str) -> Any:
    """One JSON value; anything that is not JSON (or nests too deep, or writes a
    number too long to read) raises :class:`~tenbou.errors.LogFormatError` naming ``where``."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise LogFormatError(f"{where}: not JSON ({e.msg})") from None
    except ValueError as e:  # a number past the interpreter's digit limit
        raise LogFormatError(f"{where}: not JSON tenbou reads ({e})") from None
    except RecursionError:
        raise LogFormatError(f"{where}: JSON nested too deep") from None


def _rules(start: dict[str, Any], default: JSON) -> JSON:
    rules = start.get("tenbou_rules")
    if isinstance(rules, (str, dict)):
        return rules
    overrides: dict[str, JSON] = {}
    if start.get("aka_flag") is False:
        overrides["red_fives"] = 0
    if start.get("kyoku_first") == 4:
        overrides["length"] = "tonpuu"
    if not overrides:
        return default
    if isinstance(default, str):
        return {"preset": default, "overrides": overrides}
    if isinstance(default, dict):
        base = default.get("overrides")
        merged = {**(base if isinstance(base, dict) else {}), **overrides}
        return {"preset": default.get("preset", "tenhou"), "overrides": merged}
    return default


def _check(ev: Event, players: int, where: str) -> None:
    """Refuse a field out of range for a game of ``players``: seats, list lengths, counts."""

    def seat(name: str, value: int) -> None:
        if not 0 <= value < players:
            raise LogFormatError(f"{where}: {name} {value} is not a seat 0..{players - 1}")

    def length(name: str, value: Sequence[object] | None, n: int) -> None:
        if value is not None and len(value) != n:
            raise LogFormatError(f"{where}: {name} holds {len(value)} values, not one per seat ({n})")

    if isinstance(ev, StartKyoku):
        for i, hand in enumerate(ev.tehais):
            if len(hand) != 13:
                raise LogFormatError(f"{where}: tehais[{i}] holds {len(hand)} tiles, not 13")
        length("scores", ev.scores, players)
        seat("oya", ev.oya)
        if not 1 <= ev.kyoku <= players:
            raise LogFormatError(f"{where}: kyoku {ev.kyoku} is not a hand number 1..{players}")
        if ev.honba < 0 or ev.kyotaku < 0:
            raise LogFormatError(f"{where}: honba {ev.honba} and kyotaku {ev.kyotaku} cannot be negative")
        return
    actor = getattr(ev, "actor", None)
    if actor is not None:
        seat("actor", actor)
    target = getattr(ev, "target", None)
    if target is not None:
        seat("target", target)
    need = _CONSUMED.get(type(ev))
    consumed = getattr(ev, "consumed", ())
    if need is not None and len(consumed) != need:
        raise LogFormatError(f"{where}: consumed holds {len(consumed)} tiles, not {need}")
    if isinstance(ev, (ReachAccepted, Hora, Ryukyoku, EndGame)):
        length("scores", ev.scores, players)
    if isinstance(ev, (ReachAccepted, Hora, Ryukyoku)):
        length("deltas", ev.deltas, players)
    if isinstance(ev, Ryukyoku):
        length("tenpais", ev.tenpais, players)
    if isinstance(ev, Hora) and ev.ura_markers is not None and len(ev.ura_markers) > 5:
        raise LogFormatError(f"{where}: {len(ev.ura_markers)} ura_markers (a hand shows at most 5)")


class _Game:
    """The events of one game as they are read, checked line by line."""

    def __init__(self, start: dict[str, Any]) -> None:
        self.start = start
        self.events: list[Event] = []
        self.players: int | None = None
        self.in_hand = False

    def add(self, ev: Event, where: str) -> None:
        if isinstance(ev, StartKyoku):
            dealt = len(ev.tehais)
            if dealt not in (3, 4) or (self.players is not None and dealt != self.players):
                want = "3 or 4" if self.players is None else str(self.players)
                raise LogFormatError(f"{where}: start_kyoku deals {dealt} hands, not {want}")
            self.players = dealt
            self.in_hand = True
        elif not isinstance(ev, _GAME_LEVEL) and not self.in_hand:
            name = event_to_json(ev)["type"]
            raise LogFormatError(f"{where}: {name} comes before the game's first start_kyoku")
        if self.players is not None:
            _check(ev, self.players, where)
        elif isinstance(ev, EndGame) and ev.scores is not None and len(ev.scores) not in (3, 4):
            raise LogFormatError(f"{where}: end_game scores hold {len(ev.scores)} values, not 3 or 4")
        self.events.append(ev)


def _hands(events: Sequence[Event], players: int) -> list[HandEnd]:
    """One hand end per ``start_kyoku``: its wins (``hora``), its draw (``ryukyoku``),
    or ``unfinished`` where the record gives it neither."""
    out: list[HandEnd] = []
    current: list[Event] | None = None
    for ev in (*events, None):
        if ev is None or isinstance(ev, StartKyoku):
            if current is not None:
                out.append(_hand_end(current, players))
            current = []
        elif current is not None:
            current.append(ev)
    return out


def _hand_end(events: Sequence[Event], players: int) -> HandEnd:
    wins: list[WinRecord] = []
    for ev in events:
        if isinstance(ev, Hora):
            wins.append(WinRecord(winner=ev.actor, from_seat=ev.target, deltas=ev.deltas))
        elif isinstance(ev, Ryukyoku) and not wins:
            abortive = _ABORTIVE.get(ev.reason or "")
            kind = "abortive_draw" if abortive else "exhaustive_draw"
            name = abortive or ("nagashi_mangan" if ev.reason == "nagashimangan" else None)
            tenpai = None if ev.tenpais is None else tuple(i for i, t in enumerate(ev.tenpais) if t)
            return HandEnd(kind, (), name, ev.deltas, tenpai if kind == "exhaustive_draw" else None)
        elif isinstance(ev, EndKyoku) and wins:
            break
    if not wins:
        return HandEnd("unfinished")
    deltas = None
    if all(w.deltas is not None for w in wins):
        deltas = tuple(sum(w.deltas[i] for w in wins if w.deltas) for i in range(players))
    return HandEnd("win", tuple(wins), None, deltas)


def mjai_records(text: str, source: str = "<mjai>", rules: JSON = "tenhou") -> list[GameRecord]:
    """The games of mjai JSON Lines (split at ``start_game`` / ``end_game``).
    Anything malformed raises :class:`~tenbou.errors.LogFormatError` naming the
    line and the field: a line that is not an mjai event, a seat, count or list
    out of range for the game's players, an event of a hand before the first
    ``start_kyoku``. Whether the events can happen is the engine's to judge."""
    games: list[_Game] = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = f"{source}:{n}"
        obj = read_json(line, where)
        try:
            ev = event_from_json(obj)
        except LogFormatError as e:
            raise LogFormatError(f"{where}: {e}") from None
        if isinstance(ev, StartGame) or not games or isinstance(games[-1].events[-1], EndGame):
            games.append(_Game(obj if isinstance(ev, StartGame) else {}))
        games[-1].add(ev, where)
    if not games:
        raise LogFormatError(f"{source}: no mjai event")
    out = []
    for index, game in enumerate(games):
        events = game.events
        if not isinstance(events[0], StartGame):
            events.insert(0, StartGame())
        players = game.players or 4
        end = events[-1]
        final = end.scores if isinstance(end, EndGame) and end.scores is not None else None
        names = events[0].names if isinstance(events[0], StartGame) else ()
        out.append(
            GameRecord(
                source=source,
                index=index,
                format="mjai",
                events=tuple(events),
                hands=tuple(_hands(events, players)),
                rules=_rules(game.start, rules),
                players=players,
                names=tuple(names),
                final_scores=tuple(final) if final is not None else None,
            )
        )
    return out


def write_mjai(games: Sequence[GameRecord]) -> bytes:
    """Games as mjai JSON Lines: ``start_game`` carries the names, ``aka_flag``,
    ``kyoku_first`` and ``tenbou_rules``; ``hora`` and ``ryukyoku`` their deltas. A game
    gets its ``end_game`` unless it has one or the record ends inside a hand."""
    from ..rules import rules_from_request

    lines: list[str] = []
    for rec in games:
        r = rules_from_request(rec.rules)
        for ev in rec.events:
            obj = event_to_json(ev)
            if isinstance(ev, StartGame):
                obj["names"] = list(rec.names) or list(ev.names)
                obj["kyoku_first"] = 4 if r.length == "tonpuu" else 0
                obj["aka_flag"] = bool(r.red_fives)
                obj["tenbou_rules"] = rec.rules
            lines.append(json.dumps(obj, ensure_ascii=False, separators=(",", ":")))
        # the game's end, unless the record already has it or ends inside a hand (cut short)
        if not rec.events or isinstance(rec.events[-1], (StartGame, EndKyoku)):
            lines.append('{"type":"end_game"}')
    return ("\n".join(lines) + "\n").encode("utf-8")
