"""A record completed by its replay: the details a format needs that the record does not hold (an
mjai record's yaku, fu and points, a limit hand's fu, the tenpai seats of a draw) taken from
tenbou's replay of it, so that any writer (:mod:`tenbou.verify.convert`) can write it.

>>> import random
>>> from tenbou.engine.events import events_to_lines
>>> from tenbou.engine.table import GreedyAgent, play_game
>>> from tenbou.io.read import parse_records
>>> from tenbou.rules import get_rules
>>> bots = [GreedyAgent(random.Random(i)) for i in range(4)]
>>> events = play_game(get_rules("tenhou"), seed=7, length="tonpuu", agents=bots)
>>> (rec,) = parse_records("\\n".join(events_to_lines(events)).encode(), "self.jsonl")
>>> rec.hands[1].wins[0].fu, complete_record(rec).hands[1].wins[0].fu
(None, 40)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ..engine.events import Daiminkan, EndKyoku, Event, Hora, StartKyoku
from ..errors import LogFormatError
from ..io.record import GameRecord, WinRecord
from .verifier import _Verifier

__all__ = ["complete_record"]


def _merge_win(
    rec: WinRecord | None, result: Mapping[str, Any], request: Mapping[str, Any] | None
) -> WinRecord:
    """A win's record details, the missing ones taken from tenbou's result."""
    yaku: dict[str, int] = {}
    yakuman: list[str] = []
    for y in result["yaku"]:
        if y.get("yakuman"):
            yakuman.append(y["id"])
            yaku[y["id"]] = 13
        else:
            yaku[y["id"]] = yaku.get(y["id"], 0) + y["han"]
    pao = [p["seat"] for p in result["pao"] if p.get("rule") != "daiminkan_pao"]
    engine = WinRecord(
        winner=result["winner"],
        from_seat=result["winner"] if result["from"] is None else result["from"],
        yaku=yaku,
        fu=result["fu"],
        points=result["points"],
        limit=result["limit"],
        pao=pao[0] if pao else None,
        pao_known=True,
        deltas=tuple(result["deltas"]),
        base_points=result["base_points"],
        yakuman=tuple(yakuman),
    )
    if rec is None:
        return engine
    return replace(
        rec,
        yaku=rec.yaku if rec.yaku is not None else engine.yaku,
        yakuman=rec.yakuman if rec.yaku is not None else engine.yakuman,
        fu=rec.fu if rec.fu is not None else engine.fu,
        points=rec.points if rec.points is not None else engine.points,
        limit=rec.limit if rec.yaku is not None else engine.limit,
        pao=rec.pao if rec.pao_known else engine.pao,
        pao_known=True,
        deltas=rec.deltas if rec.deltas is not None else engine.deltas,
        base_points=rec.base_points if rec.base_points is not None else engine.base_points,
    )


def complete_record(rec: GameRecord, strict: bool = False) -> GameRecord:
    """The record with every hand end's missing details (an mjai record's yaku, fu
    and points, a limit hand's fu, tenpai seats) taken from tenbou's replay, so any
    writer can write it; a suukantsu dealt in at the fourth kan that the record wrote as the
    ``daiminkan`` is written as the ``hora`` of the kanning player on the discard, the one form
    every format can hold. A record tenbou does not replay is returned as it is.
    ``strict``: a hand the engine refuses (an illegal event, a hand without its end)
    raises :class:`~tenbou.errors.LogFormatError` naming it."""
    if rec.skip is not None:
        return rec
    verifier = _Verifier(rec)
    lines = verifier.run()
    refused = next((line for line in lines if "error" in line), None)
    if strict and refused is not None:
        where = f"{refused['round']}{refused['number']}-{refused['honba']}"
        raise LogFormatError(
            f"{rec.source}: game {rec.index} hand {refused['hand']} ({where}): the engine refuses the "
            f"record: {refused['error']}"
        )
    by_hand = {line["hand"]: line for line in lines if "results" in line}
    events = _fourth_kans_as_horas(rec.events, by_hand)
    hands = list(rec.hands)
    for i, end in enumerate(hands):
        line = by_hand.get(i)
        request = verifier.requests.get(i)
        if line is None or request is None:
            continue
        if end.kind == "win":
            results = {r["winner"]: r for r in line["results"]}
            wins = tuple(
                _merge_win(w, results[w.winner], request) if w.winner in results else w for w in end.wins
            )
            hands[i] = replace(
                end, wins=wins, deltas=end.deltas if end.deltas is not None else tuple(line["deltas"])
            )
        else:
            draw = request.get("draw", {})
            tenpai = end.tenpai
            if tenpai is None and end.kind == "exhaustive_draw":
                tenpai = tuple(draw.get("tenpai", ()))
            reason = end.reason
            if reason is None and end.kind == "abortive_draw":
                reason = line.get("reason") or draw.get("reason")
            hands[i] = replace(
                end,
                tenpai=tenpai,
                reason=reason,
                deltas=end.deltas if end.deltas is not None else tuple(line["deltas"]),
            )
    return replace(rec, events=events, hands=tuple(hands))


def _fourth_kans_as_horas(
    events: tuple[Event, ...], lines: Mapping[int, Mapping[str, Any]]
) -> tuple[Event, ...]:
    """The events with each fourth kan's suukantsu (``suukantsu_pao_timing = "fourth_kan"``) that a
    record wrote as the ``daiminkan`` followed by ``end_kyoku`` written as tenbou writes it: a
    ``hora`` of the kanning player on the discard (``lines``: the verify lines of the hands that
    ended, by hand index)."""
    out = list(events)
    hand = -1
    for i, ev in enumerate(events):
        if isinstance(ev, StartKyoku):
            hand += 1
        elif (
            isinstance(ev, Daiminkan)
            and i + 1 < len(events)
            and isinstance(events[i + 1], EndKyoku)
            and any(r.get("fourth_kan") for r in lines.get(hand, {}).get("results", ()))
        ):
            out[i] = Hora(ev.actor, ev.target, ev.pai)
    return tuple(out)
