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
    from tenbou.io.read import parse_records
    from tenbou.verify.verifier import _Verifier

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
    from tenbou.core.tiles import parse_tiles
    from tenbou.engine.events import mjai_tile

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

    from tenbou.engine.events import EndKyoku, Hora, Ryukyoku, StartGame, events_to_lines
    from tenbou.engine.round import Round
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


#: the hand of both small logs: seat 1 in riichi wins by tsumo on 8s (riichi, tsumo, pinfu, tanyao,
#: one dora: 5 han, a mangan), and the ura indicator 4p makes it 6 han: a haneman
_TEHAIS = [
    ["1p", "1p", "9p", "9p", "1s", "1s", "9s", "9s", "E", "S", "W", "N", "P"],
    ["2m", "3m", "4m", "5m", "6m", "7m", "3p", "4p", "5p", "2s", "2s", "6s", "7s"],
    ["1m", "5m", "9m", "9m", "2p", "6p", "3s", "4s", "5s", "7s", "F", "F", "F"],
    ["1m", "5m", "9m", "9m", "2p", "6p", "3s", "4s", "5s", "7s", "F", "C", "C"],
]
_DRAWS = [
    (0, "P"), (1, "C"), (2, "N"), (3, "W"), (0, "8m"), (1, "E", "reach"), (2, "S"), (3, "9p"),
    (0, "1p"), (1, "9s"), (2, "1s"), (3, "7p"), (0, "8p"),
]  # fmt: skip
_WINNER_TILES = ["2m", "3m", "4m", "5m", "6m", "7m", "3p", "4p", "5p", "2s", "2s", "6s", "7s"]


def _play(reach: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The draws and tsumogiri discards of the hand, the riichi with ``reach`` as its acceptance."""
    out: list[dict[str, Any]] = []
    for seat, tile, *what in _DRAWS:
        out.append({"actor": seat, "pai": tile, "type": "tsumo"})
        if what:
            out.append({"actor": seat, "type": "reach"})
        out.append({"actor": seat, "pai": tile, "tsumogiri": True, "type": "dahai"})
        if what:
            out.extend(reach)
    out.append({"actor": 1, "pai": "8s", "type": "tsumo"})
    return out


def akochan_log(ura: str = "uradora_marker") -> bytes:
    """The hand as akochan writes a game (``match_result/haifu_log_*.json``): keys sorted, rules on
    ``start_game``, ``scores`` on ``start_kyoku`` and ``hora`` and no ``deltas``, a bare
    ``reach_accepted``, the ura indicators in ``uradora_marker``, ``fan`` and ``fu``."""
    lines: list[dict[str, Any]] = [
        {"aka_flag": True, "kyoku_first": 0, "type": "start_game"},
        {"bakaze": "E", "dora_marker": "1m", "honba": 0, "kyoku": 1, "kyotaku": 0, "oya": 0,
         "scores": [25000] * 4, "tehais": _TEHAIS, "type": "start_kyoku"},
        *_play([{"actor": 1, "type": "reach_accepted"}]),
        {"actor": 1, "fan": 6, "fu": 20, "hora_tehais": _WINNER_TILES, "pai": "8s",
         "scores": [19000, 37000, 22000, 22000], "target": 1, "type": "hora", ura: ["4p"]},
        {"type": "end_kyoku"},
    ]  # fmt: skip
    return ("\n".join(json.dumps(x) for x in lines) + "\n").encode()


def manue_log(first_scores: bool = True) -> bytes:
    """Two hands as the original mjai server writes a game (gimite/mjai ``ActiveGame``, the server
    mjai-manue and the first mjai bots played on): ``start_kyoku`` without ``scores``, the riichi
    stick's ``deltas`` and ``scores`` on ``reach_accepted``, the win's ``hora_tehais`` (a tsumo's with
    the tile drawn), ``uradora_markers``, ``yakus``, ``fu``, ``fan``, ``hora_points``, ``deltas`` and
    ``scores``; the second hand ends by kyushukyuhai (``ryukyoku`` with its ``actor``, the hands it
    shows and ``?`` for the others)."""
    hidden = ["?"] * 13
    win: dict[str, Any] = {
        "type": "hora", "actor": 1, "target": 1, "pai": "8s", "hora_tehais": [*_WINNER_TILES, "8s"],
        "uradora_markers": ["4p"], "yakus": [["reach", 1], ["menzenchin_tsumoho", 1], ["pinfu", 1],
        ["tanyaochu", 1], ["dora", 1], ["uradora", 1]], "fu": 20, "fan": 6, "hora_points": 12000,
        "deltas": [-6000, 13000, -3000, -3000], "scores": [19000, 37000, 22000, 22000],
    }  # fmt: skip
    if not first_scores:
        del win["scores"], win["deltas"]
    lines: list[dict[str, Any]] = [
        {"type": "start_game", "names": ["manue", "shanten", "tsumogiri", "tsumogiri2"]},
        {"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0,
         "dora_marker": "1m", "tehais": _TEHAIS},
        *_play([{"type": "reach_accepted", "actor": 1, "deltas": [0, -1000, 0, 0],
                 "scores": [25000, 24000, 25000, 25000]}]),
        win,
        {"type": "end_kyoku"},
        {"type": "start_kyoku", "bakaze": "E", "kyoku": 2, "honba": 0, "kyotaku": 0, "oya": 1,
         "dora_marker": "3m", "tehais": [
             ["2m", "3m", "4m", "5m", "6m", "7m", "8m", "2p", "3p", "4p", "5p", "6s", "7s"],
             ["1m", "9m", "1p", "9p", "1s", "9s", "E", "S", "W", "N", "5m", "6m", "7m"],
             ["2p", "3p", "4p", "5p", "6p", "7p", "8p", "2s", "3s", "4s", "5s", "6m", "7m"],
             ["3s", "4s", "5s", "6s", "7s", "8s", "9s", "3m", "4m", "5m", "6m", "7p", "8p"]]},
        {"type": "tsumo", "actor": 1, "pai": "C"},
        {"type": "ryukyoku", "actor": 1, "reason": "kyushukyuhai", "tenpais": [False] * 4,
         "tehais": [hidden, ["1m", "9m", "1p", "9p", "1s", "9s", "E", "S", "W", "N", "5m", "6m", "7m", "C"],
                    hidden, hidden],
         "deltas": [0, 0, 0, 0], "scores": [19000, 37000, 22000, 22000]},
        {"type": "end_kyoku"},
    ]  # fmt: skip
    return ("\n".join(json.dumps(x, ensure_ascii=False) for x in lines) + "\n").encode()
