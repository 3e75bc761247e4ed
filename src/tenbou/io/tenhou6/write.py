"""Writing games as tenhou.net/6 records, as Tenhou writes its own."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ...core.tiles import Tile, sort_tiles
from ...engine.events import (
    Ankan,
    Chi,
    Dahai,
    Daiminkan,
    Dora,
    EndKyoku,
    Hora,
    Kakan,
    Nukidora,
    Pon,
    Reach,
    StartKyoku,
    Tsumo,
)
from ...errors import LogFormatError
from ...rules import NAGASHI_MANGAN
from ..record import GameRecord, HandEnd, WinRecord, final_results
from .codes import code_of_tile
from .rules import _aka_counts, disp_of, rules_of
from .vocab import (
    _LIMIT_TEXT,
    _WIND_JA,
    ALL_TENPAI_TEXT,
    DRAW_TEXTS,
    EXHAUSTIVE_TEXT,
    NO_TENPAI_TEXT,
    WIN_TEXT,
    YAKU_NAMES,
)

__all__ = ["write_tenhou6"]


def _code_text(tiles: Sequence[Tile]) -> str:
    """Tiles of a call as Tenhou writes them: by tile, a red five after the plain ones."""
    return "".join(str(code_of_tile(t)) for t in sort_tiles(tiles))


def _yaku_texts(win: WinRecord, seat_wind: int, round_wind: int) -> list[str]:
    """The win's yaku as Tenhou writes them (``立直(1飜)``, ``大三元(役満)``), in the record's
    order (Tenhou's own order depends on the hand; an mjai record's is tenbou's); a yaku of 0 han
    (no ura dora) is left out, as Tenhou leaves it out."""
    out = []
    for key, han in (win.yaku or {}).items():
        yakuman = key in win.yakuman
        if not han and not yakuman:
            continue
        if key == "seat_wind":
            name = f"自風 {_WIND_JA[seat_wind]}"
        elif key == "round_wind":
            name = f"場風 {_WIND_JA[round_wind]}"
        else:
            name = YAKU_NAMES.get(key, key)
        out.append(f"{name}(役満)" if yakuman else f"{name}({han}飜)")
    return out


def _value_text(win: WinRecord, dealer: bool, players: int) -> str:
    if win.text:
        return win.text
    from ...settle.payment import hand_shares

    base = win.base_points or 0
    head = _LIMIT_TEXT.get(win.limit or "", "") if win.limit else f"{win.fu}符{win.han}飜"
    if not win.tsumo:
        return f"{head}{win.points}点"
    shares = hand_shares(base, dealer, True, players, "tsumo_loss")
    if dealer:
        return f"{head}{shares[0]}点∀"
    return f"{head}{min(shares)}-{max(shares)}点"


def _sorted_hand(tiles: Sequence[Tile]) -> list[int]:
    """A starting hand as Tenhou writes it: sorted, a red five after the plain fives of its suit."""
    return [code_of_tile(t) for t in sort_tiles(tiles)]


def _result_number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def _head(rec: GameRecord) -> dict[str, Any]:
    """The record's head: ``title``, ``name``, ``rule`` (the room's own ``disp`` where the record
    came from Tenhou and its rules are the room's), ``ref``, and ``tenbou_rules`` where ``rule``
    cannot say the rules; ``log`` empty."""
    disp, aka = disp_of(rec.rules, rec.players)
    original = rec.meta.get("disp")
    go_type = rec.meta.get("go_type")
    if original is None and isinstance(go_type, int):  # an mjlog's room, as Tenhou's JSON names it
        from ..mjlog.rules import GameType

        original = GameType(go_type).disp
    if (
        isinstance(original, str)
        and rules_of({"rule": {"disp": original, "aka": aka}, "title": rec.meta.get("title", "")})[0]
        == rec.rules
    ):
        disp = original
    title = rec.meta.get("title")
    from ...rules import rules_from_request

    red = rules_from_request(rec.rules).red_fives
    out: dict[str, Any] = {
        "title": title if isinstance(title, list) else ["", ""],
        "name": list(rec.names) + [""] * (4 - len(rec.names)),
        "rule": {"disp": disp, "aka": aka, **_aka_counts(red)},
        "log": [],
    }
    if isinstance(rec.meta.get("ref"), str):
        out["ref"] = rec.meta["ref"]
    if rules_of(out)[0] != rec.rules:
        out["tenbou_rules"] = rec.rules
    return out


def write_tenhou6(rec: GameRecord, per_kyoku: bool = False) -> bytes:
    """A game as a tenhou.net/6 JSON object (its hand ends must carry win details:
    :func:`tenbou.records.complete_record` fills them in), as Tenhou writes its own: the
    hands sorted, each win's value text (``30符2飜1000点``, ``満貫8000点``, ``1000-2000点``,
    ``4000点∀``) and yaku (``立直(1飜)``), the liable seat third in the
    win's entry (the winner where there is no pao), ``rule`` with ``disp``, ``aka`` and
    ``aka51``-``aka53``, ``sc`` with each seat's final points and result. A hand stopped by a
    chombo is left out (the format has no result for one; the hand is dealt again, and the next
    kyoku's scores show what the chombo paid at the table).
    ``per_kyoku``: one object a kyoku, one a line (the form NAGA's and Tenhou's editor
    take, and mjx writes), the final ``sc`` on the last."""
    n = rec.players
    out = _head(rec)
    hand = -1
    kyoku: list[Any] = []
    seats: list[tuple[list[Any], list[Any], list[Any]]] = []
    pons: list[dict[int, str]] = []
    reach: set[int] = set()
    ura: list[int] = []
    dealer = 0
    wind = 0
    for ev in rec.events:
        if isinstance(ev, StartKyoku):
            hand += 1
            dealer, wind = ev.oya, ev.bakaze.index
            kyoku = [
                [wind * 4 + ev.kyoku - 1, ev.honba, ev.kyotaku],
                list(ev.scores),
                [code_of_tile(ev.dora_marker)],
                [],
            ]
            seats = [(_sorted_hand(h), [], []) for h in ev.tehais]
            pons = [{} for _ in range(n)]
            reach = set()
            ura = []
        elif isinstance(ev, Tsumo):
            seats[ev.actor][1].append(code_of_tile(ev.pai))
        elif isinstance(ev, Chi):
            seats[ev.actor][1].append(f"c{code_of_tile(ev.pai)}{_code_text(ev.consumed)}")
        elif isinstance(ev, (Pon, Daiminkan)):
            letter = "p" if isinstance(ev, Pon) else "m"
            rel = (ev.target - ev.actor) % 4
            c, called = _code_text(ev.consumed), f"{letter}{code_of_tile(ev.pai)}"
            text = {3: called + c, 2: c[:2] + called + c[2:], 1: c + called}[rel]
            seats[ev.actor][1].append(text)
            if isinstance(ev, Pon):
                pons[ev.actor][ev.pai.kind] = text
            else:
                seats[ev.actor][2].append(0)
        elif isinstance(ev, Kakan):
            pon = pons[ev.actor].get(ev.pai.kind)
            if pon is None:
                raise LogFormatError(f"{rec.source}: kakan of {ev.pai} by seat {ev.actor} without a pon")
            seats[ev.actor][2].append(pon.replace("p", f"k{code_of_tile(ev.pai)}"))
        elif isinstance(ev, Ankan):
            c = _code_text(ev.consumed)
            seats[ev.actor][2].append(c[:6] + "a" + c[6:])
        elif isinstance(ev, Nukidora):
            seats[ev.actor][2].append(f"f{code_of_tile(ev.pai)}")
        elif isinstance(ev, Reach):
            reach.add(ev.actor)
        elif isinstance(ev, Dahai):
            code = 60 if ev.tsumogiri else code_of_tile(ev.pai)
            if ev.actor in reach:
                reach.discard(ev.actor)
                seats[ev.actor][2].append(f"r{code}")
            else:
                seats[ev.actor][2].append(code)
        elif isinstance(ev, Dora):
            kyoku[2].append(code_of_tile(ev.dora_marker))
        elif isinstance(ev, Hora):
            if ev.ura_markers and not ura:
                ura = [code_of_tile(t) for t in ev.ura_markers]
        elif isinstance(ev, EndKyoku):
            end = rec.hands[hand]
            if end.kind == "chombo":  # the format has no word for one: the hand, dealt again, is left out
                continue
            kyoku[3] = ura
            for s in range(4):
                kyoku.extend(seats[s] if s < n else ([], [], []))
            kyoku.append(_result(end, dealer, wind, n))
            out["log"].append(kyoku)
    if rec.final_scores is not None:
        results = final_results(rec)
        out["sc"] = [
            v for s, p in zip(rec.final_scores, results, strict=False) for v in (s, _result_number(p))
        ]
    if not per_kyoku:
        return (json.dumps(out, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
    lines = []
    head = {k: v for k, v in out.items() if k not in ("log", "sc")}
    for i, kyoku in enumerate(out["log"]):
        one = {**head, "log": [kyoku]}
        if i == len(out["log"]) - 1 and "sc" in out:
            one["sc"] = out["sc"]
        lines.append(json.dumps(one, ensure_ascii=False, separators=(",", ":")))
    return ("\n".join(lines) + "\n").encode("utf-8")


def _result(end: HandEnd, dealer: int, wind: int, players: int) -> list[Any]:
    if end.kind == "win":
        res: list[Any] = [WIN_TEXT]
        for w in end.wins:
            deltas = list(w.deltas) if w.deltas is not None else [0] * players
            seat_wind = (w.winner - dealer) % players
            pao = w.winner if w.pao is None else w.pao
            value = _value_text(w, w.winner == dealer, players)
            info = [w.winner, w.from_seat, pao, value, *_yaku_texts(w, seat_wind, wind)]
            res.extend([deltas, info])
        return res
    deltas = list(end.deltas) if end.deltas is not None else [0] * players
    if end.kind == "abortive_draw":
        return [DRAW_TEXTS.get(end.reason or "", DRAW_TEXTS["kyuushu_kyuuhai"])]
    if end.reason == NAGASHI_MANGAN:
        return [DRAW_TEXTS[NAGASHI_MANGAN], deltas]
    if not any(deltas) and end.tenpai is not None and len(end.tenpai) in (0, players):
        return [ALL_TENPAI_TEXT if end.tenpai else NO_TENPAI_TEXT]
    return [EXHAUSTIVE_TEXT, deltas]
