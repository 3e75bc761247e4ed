"""Reading tenhou.net/6 records: each game's events, hand ends and rules."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..._jsonread import read_json
from ...engine.events import (
    EndGame,
    EndKyoku,
    Event,
    Hora,
    Ryukyoku,
    StartGame,
)
from ...errors import LogFormatError
from ..record import JSON, GameRecord, HandEnd, WinRecord
from .codes import _deltas, _parse_yaku, _points
from .order import _Round
from .rules import rules_of
from .vocab import ABORT_TEXTS, ALL_TENPAI_TEXT, EXHAUSTIVE_TEXT, NO_TENPAI_TEXT, WIN_TEXT

__all__ = ["tenhou6_records"]


def _objects(text: str, source: str) -> list[dict[str, Any]]:
    """The record's JSON objects: the whole text as one, or one per line (mjx)."""
    try:
        whole: Any = read_json(text, LogFormatError, source)
    except LogFormatError:
        whole = None
    if isinstance(whole, dict):
        return [whole]
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        obj = read_json(line, LogFormatError, f"{source}:{n}")
        if not isinstance(obj, dict):
            raise LogFormatError(f"{source}:{n}: a tenhou.net/6 record is a JSON object, not {str(obj)[:40]}")
        out.append(obj)
    if not out:
        raise LogFormatError(f"{source}: no tenhou.net/6 record")
    return out


def _game_key(obj: Mapping[str, Any]) -> str:
    return json.dumps(
        [obj.get("name"), obj.get("rule"), obj.get("title"), obj.get("ref")], ensure_ascii=False
    )


def tenhou6_records(text: str, source: str = "<tenhou6>") -> list[GameRecord]:
    """The games of a tenhou.net/6 file (one object, or one per line: consecutive
    lines with the same players, rules and title are one game)."""
    objects = _objects(text, source)
    groups: list[list[dict[str, Any]]] = []
    for obj in objects:
        if groups and _game_key(groups[-1][-1]) == _game_key(obj):
            groups[-1].append(obj)
        else:
            groups.append([obj])
    return [_record(group, source, i) for i, group in enumerate(groups)]


def _record(objs: Sequence[Mapping[str, Any]], source: str, index: int) -> GameRecord:
    head = objs[0]
    rules, players, skip = rules_of(head)
    names_raw = head.get("name", [])
    names = tuple(str(x) for x in names_raw[:players]) if isinstance(names_raw, list) else ()
    events: list[Event] = [StartGame(names)]
    hands: list[HandEnd] = []
    where_game = source if len(objs) == 1 else f"{source} (game {index})"
    for obj in objs:
        if not isinstance(obj.get("log"), list):
            raise LogFormatError(
                f"{where_game}: 'log' must be a list of rounds, not {str(obj.get('log'))[:40]}"
            )
    rounds = [k for obj in objs for k in obj["log"]]
    for i, kyoku in enumerate(rounds):
        where = f"{where_game}: log[{i}]"
        rnd = _Round(kyoku, players, where)
        events.extend(_with_result(rnd.events(), rnd, hands, where))
    final = None
    meta: dict[str, JSON] = {}
    # the final points and results: on the one object, or (one kyoku a line) on the last that has them
    sc = next((obj["sc"] for obj in reversed(objs) if "sc" in obj), None)
    if (
        isinstance(sc, list)
        and len(sc) >= 2 * players
        and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in sc)
    ):
        final = tuple(int(sc[2 * i]) for i in range(players))
        events.append(EndGame(final))
        meta["final_results"] = [float(sc[2 * i + 1]) for i in range(players)]
    rule = head.get("rule")
    if isinstance(rule, dict) and isinstance(rule.get("disp"), str):
        meta["disp"] = rule["disp"]
    if isinstance(head.get("title"), list):
        meta["title"] = [str(t) for t in head["title"]]
    if isinstance(head.get("ref"), str):
        meta["ref"] = head["ref"]
    return GameRecord(
        source=source,
        index=index,
        format="tenhou6",
        events=tuple(events),
        hands=tuple(hands),
        rules=rules,
        players=players,
        names=names,
        final_scores=final,
        skip=skip,
        meta=meta,
    )


def _with_result(events: list[Event], rnd: _Round, hands: list[HandEnd], where: str) -> list[Event]:
    res = rnd.result
    n = rnd.players
    text = res[0]
    if text == WIN_TEXT:
        wins: list[WinRecord] = []
        for j in range(1, len(res) - 1, 2):
            deltas = _deltas(res[j], n, f"{where} result")
            info = res[j + 1]
            if not isinstance(info, list) or len(info) < 4 or any(type(v) is not int for v in info[:3]):
                raise LogFormatError(
                    f"{where}: win details [who, from, pao, text, yaku...] expected, not {info!r}"
                )
            who, frm, pao = info[:3]
            if not (0 <= who < n and 0 <= frm < n and 0 <= pao < n):
                raise LogFormatError(f"{where}: win details {info[:3]!r} name no seat")
            fu, han, points, limit = _points(str(info[3]), who == frm, who == rnd.oya, n, where)
            # a win with no yaku texts (a record that leaves them out) states no yaku list: not an
            # empty one, which would read as 0 han; its value text is compared for what it says. A
            # 役満 text then does not say whether it is a yakuman or a kazoe yakuman: no limit known
            listed = len(info) > 4
            yaku, yakuman = _parse_yaku(info[4:], where)
            if limit == "yakuman" and not yakuman and listed:
                limit = "kazoe_yakuman"
            wins.append(
                WinRecord(
                    winner=who,
                    from_seat=frm,
                    yaku=yaku if listed else None,
                    fu=fu,
                    points=points,
                    limit=limit,
                    pao=None if pao == who else pao,
                    pao_known=True,
                    limit_known=listed or limit != "yakuman",
                    deltas=deltas,
                    text=str(info[3]),
                    yakuman=yakuman,
                    stated_han=han,
                )
            )
            events.append(Hora(who, frm, None, tuple(rnd.ura) or None, deltas))
        if not wins:
            raise LogFormatError(f"{where}: a win result without win details")
        total = tuple(sum(w.deltas[i] for w in wins if w.deltas) for i in range(n))
        hands.append(HandEnd("win", tuple(wins), None, total, dora=tuple(rnd.dora), ura=tuple(rnd.ura)))
    elif text in ABORT_TEXTS:
        reason, name, kind = ABORT_TEXTS[text]
        deltas = _deltas(res[1], n, f"{where} result") if len(res) > 1 else (0,) * n
        tenpai: tuple[int, ...] | None = None
        if text == ALL_TENPAI_TEXT:
            tenpai = tuple(range(n))
        elif text == NO_TENPAI_TEXT:
            tenpai = ()
        elif text == EXHAUSTIVE_TEXT:
            ups = [i for i in range(n) if deltas[i] > 0]
            tenpai = tuple(ups) if ups else None
        tenpais = tuple(i in tenpai for i in range(n)) if tenpai is not None else None
        events.append(Ryukyoku(reason, tenpais, deltas))
        tenpai = tenpai if kind == "exhaustive_draw" and name is None else None
        hands.append(HandEnd(kind, (), name, deltas, tenpai, dora=tuple(rnd.dora), ura=tuple(rnd.ura)))
    else:
        raise LogFormatError(f"{where}: unknown result {text!r}")
    events.append(EndKyoku())
    return events


_EXAMPLE = json.dumps(
    {
        "title": ["", ""],
        "name": ["A", "B", "C", "D"],
        "rule": {"disp": "鳳南喰赤", "aka": 1},
        "log": [
            [
                [0, 0, 0],
                [25000, 25000, 25000, 25000],
                [22],
                [],
                [11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 47, 47],
                [47],
                [19],
                [31, 32, 33, 34, 35, 36, 37, 38, 39, 41, 42, 43, 44],
                [],
                [],
                [21, 23, 24, 25, 26, 27, 28, 29, 41, 42, 43, 44, 45],
                [],
                [],
                [11, 12, 13, 14, 15, 16, 17, 18, 31, 32, 33, 34, 35],
                [],
                [],
                ["和了", [-1000, 0, 0, 1000], [3, 0, 3, "30符1飜1000点", "役牌 中(1飜)"]],
            ]
        ],
    },
    ensure_ascii=False,
)
