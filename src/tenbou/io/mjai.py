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
from ..events import EndGame, Event, Hora, Ryukyoku, StartGame, StartKyoku, event_to_json, mjai_lines
from .record import JSON, GameRecord, HandEnd, WinRecord

__all__ = ["mjai_records", "write_mjai"]

_ABORTIVE = {
    "kyushukyuhai": "kyuushu_kyuuhai",
    "suufonrenda": "suufon_renda",
    "suuchariichi": "suucha_riichi",
    "suukaikan": "suukaikan",
    "sanchaho": "sanchahou",
}


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


def _hands(events: Sequence[Event], players: int) -> list[HandEnd]:
    out: list[HandEnd] = []
    wins: list[WinRecord] = []
    for ev in events:
        if isinstance(ev, StartKyoku):
            wins = []
        elif isinstance(ev, Hora):
            wins.append(WinRecord(winner=ev.actor, from_seat=ev.target, deltas=ev.deltas))
        elif isinstance(ev, Ryukyoku):
            abortive = _ABORTIVE.get(ev.reason or "")
            kind = "abortive_draw" if abortive else "exhaustive_draw"
            name = abortive or ("nagashi_mangan" if ev.reason == "nagashimangan" else None)
            tenpai = None if ev.tenpais is None else tuple(i for i, t in enumerate(ev.tenpais) if t)
            out.append(HandEnd(kind, (), name, ev.deltas, tenpai if kind == "exhaustive_draw" else None))
        elif type(ev).__name__ == "EndKyoku" and wins:
            deltas = None
            if all(w.deltas is not None for w in wins):
                deltas = tuple(sum(w.deltas[i] for w in wins if w.deltas) for i in range(players))
            out.append(HandEnd("win", tuple(wins), None, deltas))
            wins = []
    return out


def mjai_records(text: str, source: str = "<mjai>", rules: JSON = "tenhou") -> list[GameRecord]:
    """The games of mjai JSON Lines (split at ``start_game`` / ``end_game``);
    errors name the line."""
    games: list[tuple[dict[str, Any], list[Event]]] = []
    for obj, ev in mjai_lines(text.splitlines(), source):
        if isinstance(ev, StartGame) or not games or isinstance(games[-1][1][-1], EndGame):
            games.append((obj if isinstance(ev, StartGame) else {}, []))
        games[-1][1].append(ev)
    if not games:
        raise LogFormatError(f"{source}: no mjai event")
    out = []
    for index, (start, events) in enumerate(games):
        if not isinstance(events[0], StartGame):
            events.insert(0, StartGame())
        first = next((e for e in events if isinstance(e, StartKyoku)), None)
        players = len(first.tehais) if first is not None else 4
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
                rules=_rules(start, rules),
                players=players,
                names=tuple(names),
                final_scores=tuple(final) if final is not None else None,
            )
        )
    return out


def write_mjai(games: Sequence[GameRecord]) -> bytes:
    """Games as mjai JSON Lines: ``start_game`` carries the names, ``aka_flag``,
    ``kyoku_first`` and ``tenbou_rules``; ``hora`` and ``ryukyoku`` their deltas."""
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
        if not rec.events or not isinstance(rec.events[-1], EndGame):
            lines.append('{"type":"end_game"}')
    return ("\n".join(lines) + "\n").encode("utf-8")
