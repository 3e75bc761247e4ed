"""Writing mjai JSON Lines: games in the strict form of Mortal's libriichi."""

from __future__ import annotations

import json
from collections.abc import Sequence

from ...engine.events import EndKyoku, Hora, Ryukyoku, StartGame, StartKyoku, event_to_json
from ..record import GameRecord, HandEnd, WinRecord

__all__ = ["write_mjai"]


def write_mjai(games: Sequence[GameRecord]) -> bytes:
    """Games as mjai JSON Lines in the strict form of Mortal's libriichi (every field its
    ``Event`` requires, under its names: ``ura_markers``, mjai's draw reasons, ``scores`` and
    ``kyotaku`` on every ``start_kyoku``, ``tsumogiri`` on every ``dahai``, one name per seat):
    ``start_game`` carries the names, ``aka_flag``, ``kyoku_first`` and ``tenbou_rules``;
    ``hora`` and ``ryukyoku`` their deltas (from tenbou's replay where the record gives only
    scores, or nothing), a ``hora`` with pao the liable seat (``pao``, as the
    original mjai server and jansou write it; readers that do not know it read past it). A game
    gets its ``end_game`` unless it has one or the record ends inside a hand."""
    from ...rules import rules_from_request

    lines: list[str] = []
    for rec in games:
        r = rules_from_request(rec.rules)
        hand = -1
        wins: dict[int, WinRecord] = {}
        end: HandEnd | None = None
        for ev in rec.events:
            obj = event_to_json(ev)
            if isinstance(ev, StartGame):
                names = list(rec.names) or list(ev.names)
                obj["names"] = names + [""] * (rec.players - len(names)) if names else [""] * rec.players
                obj["kyoku_first"] = 4 if r.length == "tonpuu" else 0
                obj["aka_flag"] = bool(r.red_fives)
                obj["tenbou_rules"] = rec.rules
            elif isinstance(ev, StartKyoku):
                hand += 1
                end = rec.hands[hand] if hand < len(rec.hands) else None
                wins = {w.winner: w for w in end.wins} if end is not None else {}
            elif isinstance(ev, Hora):
                win = wins.get(ev.actor)
                if win is not None and win.pao is not None and win.pao_known:
                    obj["pao"] = win.pao
                if ev.deltas is None and win is not None and win.deltas is not None:
                    obj["deltas"] = list(win.deltas)  # a record of scores alone: the changes they make
            elif (
                isinstance(ev, Ryukyoku) and ev.deltas is None and end is not None and end.deltas is not None
            ):
                obj["deltas"] = list(end.deltas)
            lines.append(json.dumps(obj, ensure_ascii=False, separators=(",", ":")))
        # the game's end, unless the record already has it or ends inside a hand (cut short)
        if not rec.events or isinstance(rec.events[-1], (StartGame, EndKyoku)):
            lines.append('{"type":"end_game"}')
    return ("\n".join(lines) + "\n").encode("utf-8")
