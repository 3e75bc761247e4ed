"""mjai records rewritten in the dialects real producers write, from a strict record.

Each transformation of :data:`TRANSFORMS` turns a strict mjai record (tenbou's own form, with
every seat's ``scores`` after each ``reach_accepted``, ``hora`` and ``ryukyoku``: see
:func:`tests.alterations.enrich_mjai`) into what one producer writes, without changing a single
fact: the field renamed to an alias (``uradora_markers`` of the original mjai server, akochan's
``uradora_marker``, ``kita`` of RiichiEnv and jansou), a field the producer leaves out dropped
(``start_kyoku`` without ``scores`` or ``kyotaku``, ``hora`` with ``scores`` but no ``deltas``,
``reach_accepted`` bare), a draw reason in the producer's spelling, or a fact the producer adds
(``fan``, ``fu``, ``hora_points``, ``pao``, ``hora_tehais``) taken from tenbou's replay of the
strict record. :data:`DIALECTS` combines them as each producer does; the formats are read from the
producers' own code and logs (the original mjai server ``gimite/mjai`` ``lib/mjai/active_game.rb``
and ``lib/mjai/tenhou_archive.rb``; akochan ``match_result/haifu_log_*.json``; jansou
``docs/paifu/MJAI_JSOL.md``; RiichiEnv ``riichienv-core/src/replay/mjai_replay.rs``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

Lines = list[dict[str, Any]]

#: the draw reasons of each producer, by mjai's own
GIMITE_REASONS = {"suuchariichi": "suchareach", "suufonrenda": "sufonrenta", "suukaikan": "sukaikan"}
JANSOU_REASONS = {
    "fanpai": "exhaustive", "nagashimangan": "nm", "kyushukyuhai": "yao9", "suuchariichi": "reach4",
    "sanchaho": "ron3", "suufonrenda": "kaze4", "suukaikan": "kan4",
}  # fmt: skip


def facts_of(data: bytes, source: str = "strict.jsonl") -> dict[tuple[int, int], dict[str, Any]]:
    """tenbou's result of each win of a record that verifies whole, by (hand, winner)."""
    from tenbou.io.convert import parse_records
    from tenbou.records import _Verifier

    out: dict[tuple[int, int], dict[str, Any]] = {}
    (rec,) = parse_records(data, source)
    verifier = _Verifier(rec)
    for line in verifier.run():
        assert line.get("match") is True, line
        wins = {w["winner"]: w for w in verifier.requests[line["hand"]].get("wins", [])}
        for r in line.get("results", []):
            out[(line["hand"], r["winner"])] = {**r, "hand": wins[r["winner"]]["hand"]}
    return out


def _horas(lines: Lines) -> list[tuple[int, dict[str, Any]]]:
    """(hand index, hora line) of every win."""
    hand = -1
    out = []
    for x in lines:
        if x["type"] == "start_kyoku":
            hand += 1
        elif x["type"] == "hora":
            out.append((hand, x))
    return out


def _rename(kind: str, key: str, alias: str) -> Callable[[Lines, Any], None]:
    def change(lines: Lines, facts: Any) -> None:
        for x in lines:
            if x["type"] == kind and key in x:
                x[alias] = x.pop(key)

    return change


def _drop(kind: str, *keys: str) -> Callable[[Lines, Any], None]:
    def change(lines: Lines, facts: Any) -> None:
        for x in lines:
            if x["type"] == kind:
                for key in keys:
                    x.pop(key, None)

    return change


def _scores_only(lines: Lines, facts: Any) -> None:
    """akochan: ``hora`` and ``ryukyoku`` give the scores after them and no ``deltas``."""
    for x in lines:
        if x["type"] in ("hora", "ryukyoku") and "scores" in x:
            x.pop("deltas", None)


def _reasons(table: dict[str, str]) -> Callable[[Lines, Any], None]:
    def change(lines: Lines, facts: Any) -> None:
        for x in lines:
            if x["type"] == "ryukyoku" and x.get("reason") in table:
                x["reason"] = table[x["reason"]]

    return change


def _hora_facts(raw_fu: bool) -> Callable[[Lines, Any], None]:
    """The original server's and akochan's ``fan``, ``fu`` (akochan: before rounding) and the
    server's ``hora_points``, from tenbou's replay."""

    def change(lines: Lines, facts: Any) -> None:
        for hand, x in _horas(lines):
            r = facts[(hand, x["actor"])]
            if any(y.get("yakuman") for y in r["yaku"]):
                x["fan"] = 100 * sum(y["yakuman"] for y in r["yaku"] if y.get("yakuman"))
            else:
                x["fan"] = r["han"]
                x["fu"] = sum(i["fu"] for i in r["fu_breakdown"]) if raw_fu and r["fu_breakdown"] else r["fu"]
            if not raw_fu:
                x["hora_points"] = r["points"]

    return change


def _pao(lines: Lines, facts: Any) -> None:
    """The liable seat on ``hora`` where tenbou finds one (the original server leaves it out when
    the liable player is the discarder; jansou writes it whenever pao applied)."""
    for hand, x in _horas(lines):
        seats = [p["seat"] for p in facts[(hand, x["actor"])]["pao"] if p.get("rule") != "daiminkan_pao"]
        if seats:
            x["pao"] = seats[0]


def _hora_tehais(with_drawn: bool) -> Callable[[Lines, Any], None]:
    """The winner's concealed tiles: the original server's own games with a tsumo's drawn tile,
    Tenhou's converter and akochan without the winning tile."""
    from tenbou.events import mjai_tile
    from tenbou.tiles import parse_tiles

    def change(lines: Lines, facts: Any) -> None:
        for hand, x in _horas(lines):
            r = facts[(hand, x["actor"])]
            tiles = [mjai_tile(t) for t in parse_tiles(r["hand"])]
            if with_drawn and x["actor"] == x["target"] and "pai" in x:
                tiles.append(x["pai"])
            x["hora_tehais"] = tiles

    return change


def _jansou_tenpai(lines: Lines, facts: Any) -> None:
    """jansou: the tenpai seats of a draw as ``tehais`` (``[]`` tenpai, ``null`` noten)."""
    for x in lines:
        if x["type"] == "ryukyoku" and "tenpais" in x:
            x["tehais"] = [[] if t else None for t in x.pop("tenpais")]


#: one change each: (name, change of the lines given tenbou's results of the wins)
TRANSFORMS: dict[str, Callable[[Lines, Any], None]] = {
    "uradora_markers": _rename("hora", "ura_markers", "uradora_markers"),
    "uradora_marker": _rename("hora", "ura_markers", "uradora_marker"),
    "kita": _rename("nukidora", "type", "type"),  # replaced below
    "no start scores": _drop("start_kyoku", "scores"),
    "no kyotaku": _drop("start_kyoku", "kyotaku"),
    "scores only": _scores_only,
    "bare reach_accepted": _drop("reach_accepted", "deltas", "scores"),
    "no end_game scores": _drop("end_game", "scores"),
    "gimite reasons": _reasons(GIMITE_REASONS),
    "jansou reasons": _reasons(JANSOU_REASONS),
    "jansou tenpai": _jansou_tenpai,
    "fan fu points": _hora_facts(raw_fu=False),
    "akochan fu": _hora_facts(raw_fu=True),
    "pao": _pao,
    "hora_tehais": _hora_tehais(with_drawn=False),
    "hora_tehais with the drawn tile": _hora_tehais(with_drawn=True),
}


def _kita(lines: Lines, facts: Any) -> None:
    for x in lines:
        if x["type"] == "nukidora":
            x["type"] = "kita"


TRANSFORMS["kita"] = _kita

#: what each producer writes, as the transformations of a strict record
DIALECTS: dict[str, tuple[str, ...]] = {
    # the original mjai server (gimite/mjai ActiveGame: mjai-manue's and the first bots' games)
    "mjai server": (
        "no start scores", "uradora_markers", "gimite reasons", "fan fu points", "pao",
        "hora_tehais with the drawn tile",
    ),
    # the original server's Tenhou converter (TenhouArchive): no kyotaku either
    "mjai tenhou converter": (
        "no start scores", "no kyotaku", "uradora_markers", "gimite reasons",
        "fan fu points", "pao", "hora_tehais",
    ),
    "akochan": (
        "uradora_marker", "scores only", "bare reach_accepted", "akochan fu",
        "hora_tehais",
    ),
    "jansou": ("kita", "uradora_markers", "pao", "jansou reasons", "jansou tenpai", "bare reach_accepted"),
    "riichienv": ("kita", "bare reach_accepted"),
    "mortal": ("bare reach_accepted", "no end_game scores"),
}  # fmt: skip


def rewrite(data: bytes, names: tuple[str, ...] | list[str], facts: Any) -> bytes:
    """``data`` (a strict mjai record) with the transformations ``names`` applied in order."""
    lines = [json.loads(x) for x in data.decode().splitlines() if x.strip()]
    for name in names:
        TRANSFORMS[name](lines, facts)
    return ("\n".join(json.dumps(x, ensure_ascii=False) for x in lines) + "\n").encode()


def random_dialect(rng: random.Random) -> list[str]:
    """A random combination of transformations (any subset, in a random order)."""
    names = [n for n in TRANSFORMS if rng.random() < 0.4]
    if "hora_tehais" in names and "hora_tehais with the drawn tile" in names:
        names.remove("hora_tehais")
    if "fan fu points" in names and "akochan fu" in names:
        names.remove("akochan fu")
    rng.shuffle(names)
    return names


def one_hand(hands: list[str], script: str) -> bytes:
    """One hand played by a :mod:`tests.script` script, as a strict mjai record with the
    ``deltas`` of its end and the scores Mortal-style logs state."""
    from dataclasses import replace

    from tenbou.events import EndKyoku, Hora, Ryukyoku, StartGame, events_to_lines
    from tenbou.round import Round
    from tenbou.rules import get_rules

    from .alterations import enrich_mjai
    from .script import events, start

    first = start(hands)
    rnd = Round(get_rules("tenhou"), first)
    played = events(rnd, script + " end")
    assert rnd.result is not None
    at = next(i for i, e in enumerate(played) if isinstance(e, (Hora, Ryukyoku)))
    played[at] = replace(played[at], deltas=tuple(rnd.result.settlement.deltas))  # type: ignore[type-var]
    lines = events_to_lines([StartGame(("a", "b", "c", "d")), first, *played[: at + 1], EndKyoku()])
    return enrich_mjai(("\n".join(lines) + "\n").encode())


def pao_record(ron: bool = False) -> bytes:
    """Seat 1's daisangen, the third dragon pon from seat 3, by tsumo or (``ron``) on seat 0's discard."""
    from .test_round import CALLS, DAISANGEN

    return one_hand(DAISANGEN, CALLS + (" 0t4m 0d4m 1h0" if ron else " 0t5s 0d5s 1t4m 1h"))


def suufon_renda_record() -> bytes:
    """The four seats discard East in the first go-around: an abortive draw."""
    hands = ["123456789m1234z", "123456789p1567z", "123456789s1567z", "1199m1199p1199s1z"]
    return one_hand(hands, "0t5z 0d1z 1t6z 1d1z 2t7z 2d1z 3t2z 3d1z x:suufonrenda")
