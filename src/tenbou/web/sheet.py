"""The score sheet of a whole game, replayed from what was entered: the game's setup, its
ordered hand ends, each the settle request of the calculator (docs/json-api.md, "End of a
hand") and the seats that declared riichi in that hand, and where the players chose to end
the game (the hand after which it ended, where the rules let it end or go on:
``Game.may_end``). Nothing derived is kept: every
number of the sheet (scores, who deals next, honba and sticks, the end of the game, the
final ranking with uma and oka) comes from replaying the hands through
:func:`tenbou.api.settle_request` and :meth:`tenbou.engine.game.Game.record_settlement`, so an edit
of a past hand recomputes every hand after it.

A hand's request leaves out what the game knows: ``rules``, ``players``, ``dealer``,
``round_wind``, ``honba`` and ``riichi_sticks`` are filled in from the game at that point (a
request that gives one of them must give the game's value). Plain Python (no FastAPI).

>>> setup = read_setup({"rules": "tenhou", "names": ["A", "B", "C", "D"]})
>>> draw = read_hand({"request": {"draw": {"kind": "exhaustive", "tenpai": [0, 2]}}, "riichi": [2]})
>>> sheet = replay(setup, [draw])
>>> sheet["hands"][0]["deltas"], sheet["hands"][0]["scores"]
([1500, -1500, 1500, -1500], [26500, 23500, 25500, 23500])
>>> sheet["next"]["dealer"], sheet["next"]["honba"], sheet["next"]["riichi_sticks"]
(0, 1, 1)
>>> replay(setup, [draw], end=0)
Traceback (most recent call last):
...
tenbou.errors.IllegalEventError: end: the game cannot end after hands[0] (East 1): the rules go on ...
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from typing import Any, Final

from ..api import settle_request
from ..core.tiles import Wind
from ..engine.events import EndGame
from ..engine.game import Game
from ..errors import IllegalEventError, RequestError, TenbouError, shown
from ..rules import Rules, rules_from_request

__all__ = [
    "EXPORT_FORMAT",
    "MAX_HANDS",
    "check_export",
    "export_csv",
    "export_json",
    "export_jsonl",
    "read_end",
    "read_export",
    "read_hand",
    "read_setup",
    "replay",
    "stored_hands",
    "table_fields",
]

#: the ``format`` of a game exported as JSON (:func:`replay`'s sheet with its setup and hands)
EXPORT_FORMAT: Final = "tenbou-score-sheet"
#: at most this many hands in one game (a long game with its extension has fewer than 40)
MAX_HANDS: Final = 200
_MAX_NAME: Final = 40
_SETUP_KEYS: Final = ("rules", "players", "names", "title")
_HAND_KEYS: Final = ("request", "riichi")
#: the fields of a settle request that the game fills in
_TABLE: Final = ("players", "dealer", "round_wind", "honba", "riichi_sticks")
_WIN_TABLE: Final = ("rules", "players", "dealer", "round_wind")


def _text(value: object, field: str, limit: int = _MAX_NAME) -> str:
    if type(value) is not str:
        raise RequestError(f"{field}: expected a string, not {shown(value)}")
    if len(value) > limit or any(c < " " for c in value):
        raise RequestError(
            f"{field}: at most {limit} characters and no control characters, not {shown(value)}"
        )
    return value


def read_setup(obj: object) -> dict[str, Any]:
    """A new game's setup, checked: ``rules`` (a preset id or ``{"preset", "overrides"}``;
    ``start_points`` and the rest of the game's options are overrides), ``players`` (one of the
    rules' player counts), ``names`` (one per seat, or none) and a ``title``.

    >>> read_setup({"rules": {"preset": "mleague", "overrides": {"start_points": 30000}}})["players"]
    4
    >>> read_setup({"rules": "tenhou", "names": ["A"]})
    Traceback (most recent call last):
    ...
    tenbou.errors.RequestError: names: one name for each of the 4 players, not 1
    """
    if not isinstance(obj, Mapping):
        raise RequestError(f"a game is a JSON object with rules, players and names, not {shown(obj)}")
    for key in obj:
        if key not in _SETUP_KEYS:
            raise RequestError(f"unknown field {shown(key)} (a game has {', '.join(_SETUP_KEYS)})")
    raw_rules = obj.get("rules", "tenhou")
    rules = rules_from_request(raw_rules)
    players = obj.get("players", rules.players[0])
    if type(players) is not int or players not in rules.players:
        raise RequestError(
            f"players: these rules are played by {' or '.join(map(str, rules.players))} players, "
            f"not {shown(players)}"
        )
    names = obj.get("names", [])
    if type(names) is not list:
        raise RequestError(f"names: expected a list of names, not {shown(names)}")
    if names and len(names) != players:
        raise RequestError(f"names: one name for each of the {players} players, not {len(names)}")
    names = [_text(n, f"names[{i}]") for i, n in enumerate(names)] or [""] * players
    title = _text(obj.get("title", ""), "title", 80)
    return {"rules": raw_rules, "players": players, "names": names, "title": title}


def read_hand(obj: object, field: str = "hand") -> dict[str, Any]:
    """One hand's end as entered: ``request`` (a settle request, :func:`tenbou.api.settle`) and
    ``riichi``, the seats that declared riichi in the hand (each puts a stick on the table). The
    request is checked when the game is replayed, where its seats and sticks are known."""
    if not isinstance(obj, Mapping):
        raise RequestError(f"{field}: expected an object with 'request' and 'riichi', not {shown(obj)}")
    for key in obj:
        if key not in _HAND_KEYS:
            raise RequestError(f"{field}: unknown field {shown(key)} (a hand has request and riichi)")
    request = obj.get("request")
    if not isinstance(request, Mapping):
        raise RequestError(f"{field}.request: expected a settle request (an object), not {shown(request)}")
    riichi = obj.get("riichi", [])
    if type(riichi) is not list or any(type(s) is not int for s in riichi):
        raise RequestError(f"{field}.riichi: expected a list of seats, not {shown(riichi)}")
    return {"request": dict(request), "riichi": list(riichi)}


def read_end(obj: object, hands: int, field: str = "end") -> int | None:
    """The end of a game as entered: ``{"after": k}``, the index of the hand after which the
    players ended it (``None``: not ended by them). Whether the rules let it end there is
    checked by :func:`replay`."""
    if obj is None:
        return None
    if not isinstance(obj, Mapping) or set(obj) != {"after"}:
        raise RequestError(
            f'{field}: expected {{"after": N}}, the hand after which the game was ended, not {shown(obj)}'
        )
    after = obj["after"]
    if type(after) is not int or not 0 <= after < hands:
        last = f"0..{hands - 1}" if hands else "none: the game has no hands"
        raise RequestError(f"{field}.after: expected the index of a hand ({last}), not {shown(after)}")
    return after


def table_fields(game: Game) -> dict[str, Any]:
    """The fields of the next hand's settle request that the game decides."""
    wind, _, honba, sticks, dealer, _ = game.expected_start()
    return {
        "players": game.players,
        "dealer": dealer,
        "round_wind": wind.value,
        "honba": honba,
        "riichi_sticks": sticks,
    }


def _fill(
    request: dict[str, Any], game: Game, riichi: Sequence[int], rules_value: object, where: str
) -> dict[str, Any]:
    """The request with the game's fields; one it gives with another value is refused."""
    table = table_fields(game)
    table["riichi_sticks"] += len(riichi)
    names = {
        "dealer": "dealer",
        "round_wind": "round wind",
        "honba": "honba",
        "riichi_sticks": "riichi sticks",
    }
    out = dict(request)
    if "rules" in out:
        if out["rules"] != rules_value:
            raise RequestError(
                f"{where}.rules: the game's rules are {shown(rules_value)}, not {shown(out['rules'])}"
            )
        del out["rules"]
    for key, value in table.items():
        if key in out and (type(out[key]) is not type(value) or out[key] != value):
            what = names.get(key, key)
            extra = (
                f" ({game.kyotaku} carried, {len(riichi)} declared in this hand)"
                if key == "riichi_sticks"
                else ""
            )
            raise RequestError(
                f"{where}.{key}: the game's {what} is {shown(value)}{extra}, not {shown(out[key])}"
            )
        out[key] = value
    wins = out.get("wins")
    if type(wins) is list:
        stripped = []
        for i, win in enumerate(wins):
            if isinstance(win, Mapping):
                win = dict(win)
                for key in _WIN_TABLE:
                    if key in win:
                        want = rules_value if key == "rules" else out[key]
                        if win[key] != want:
                            raise RequestError(
                                f"{where}.wins[{i}].{key}: the game's is {shown(want)}, not {shown(win[key])}"
                            )
                        del win[key]
            stripped.append(win)
        out["wins"] = stripped
    return out


def _game(setup: Mapping[str, Any]) -> tuple[Game, Rules]:
    rules = rules_from_request(setup["rules"])
    return Game(rules, setup["players"]), rules


def _hand_row(
    game: Game,
    record_index: int,
    hand: Mapping[str, Any],
    sticks: int,
    dealer: int,
    before: Sequence[int],
) -> dict[str, Any]:
    """A hand of the sheet. ``deltas`` are the settlement's (``tenbou settle``: what the hand's
    end paid, the riichi sticks on the table to the winner included); ``score_change`` is what
    each score did in the hand (``scores`` less the scores ``before`` it): the deltas less a
    riichi stick from each seat that declared riichi in the hand."""
    rec = game.hands[record_index]
    st = rec.settlement
    request = rec.request or {}
    wins = request.get("wins") or []
    draw = request.get("draw")
    return {
        "hand": record_index,
        "round": rec.round_wind.value,
        "number": rec.number,
        "honba": rec.honba,
        "riichi_sticks": sticks,
        "dealer": dealer,
        "riichi": list(hand["riichi"]),
        "kind": rec.kind,
        "reason": st.get("reason"),
        "winners": [r["winner"] for r in st["results"]],
        "from": wins[0].get("from") if wins else None,
        "draw": draw,
        "deltas": list(rec.deltas),
        "score_change": [after - was for after, was in zip(game.scores, before, strict=True)],
        "scores": list(game.scores),
        "request": request,
        "settlement": st,
    }


def replay(
    setup: Mapping[str, Any],
    hands: Sequence[Mapping[str, Any]],
    end: int | None = None,
    *,
    drop_end: bool = False,
) -> dict[str, Any]:
    """The score sheet of a game (``setup`` from :func:`read_setup`, ``hands`` from
    :func:`read_hand`, ``end`` from :func:`read_end`): each hand with its place (round, number,
    honba, sticks, dealer), its settlement, deltas and the scores after it; the next hand; the
    end of the game and the final ranking. A hand that does not fit the game raises
    :class:`~tenbou.errors.TenbouError` naming it (``hands[3].request.wins[0]...``).

    ``end``: the players ended the game after that hand, which the rules must allow there
    (:meth:`~tenbou.engine.game.Game.check` of an ``end_game``, and ``Game.may_end``: the rules let
    the game end or go on); it ends as an event-stream game does (``Game.apply(EndGame())``,
    the final ranking of ``Game._final``), and no hand may follow. An end the rules do not
    allow raises :class:`~tenbou.errors.IllegalEventError`; with ``drop_end`` (a change to the
    hands: an edit may make the end impossible) the game goes on instead, and the sheet says
    why in ``end_removed``."""
    if len(hands) > MAX_HANDS:
        raise RequestError(f"a game has at most {MAX_HANDS} hands")
    if end is not None and not 0 <= end < len(hands):
        raise RequestError(f"end.after: expected the index of a hand (0..{len(hands) - 1}), not {end}")
    game, rules = _game(setup)
    removed: dict[str, Any] | None = None
    rows = []
    chips = [0] * game.players if rules.chips else None
    for i, hand in enumerate(hands):
        where = f"hands[{i}]"
        if game.ended:
            how = ", ended there by the players" if i - 1 == end else ""
            raise RequestError(f"{where}: the game ended with hands[{i - 1}] ({_ending(game)}{how})")
        riichi = hand["riichi"]
        dealer = game.dealer
        before = list(game.scores)
        try:
            for j, seat in enumerate(riichi):
                if not 0 <= seat < game.players:
                    raise RequestError(f"riichi[{j}]: {shown(seat)} is not a seat 0..{game.players - 1}")
            filled = _fill(hand["request"], game, riichi, setup["rules"], "request")
            low = [s for s in riichi if game.scores[s] < rules.riichi_min_points]
            if low:
                raise RequestError(
                    f"riichi: seat {low[0]} has {game.scores[low[0]]} points, "
                    f"{rules.riichi_min_points} are needed to declare riichi"
                )
            settlement = settle_request(filled, rules=rules)
            game.record_settlement(settlement, filled, riichi=riichi)
        except TenbouError as e:
            raise type(e)(f"{where}: {e}", e.code) from None
        if chips is not None and settlement.chips is not None:
            chips = [a + b for a, b in zip(chips, settlement.chips, strict=True)]
        rows.append(_hand_row(game, i, hand, filled["riichi_sticks"], dealer, before))
        if i == end:
            try:
                _end_game(game, i)
            except IllegalEventError as e:
                if not drop_end:
                    raise
                removed = {"after": i, "reason": e.message.removeprefix("end: ")}
                end = None
    final = game.final or (game._final() if game.may_end else None)
    names = list(setup["names"])
    out: dict[str, Any] = {
        "setup": dict(setup),
        "start_points": game.start_points,
        "hands": rows,
        "scores": list(game.scores),
        "riichi_sticks": game.kyotaku,
        "next": None
        if game.ended
        else {**table_fields(game), "number": game.kyoku, "scores": list(game.scores)},
        "ended": game.ended,
        "may_end": game.may_end and not game.ended,
        "ending": _ending(game) if game.ended else None,
        "end": None if end is None else {"after": end},
        "final": None if final is None else {**final.to_dict(), "names": [names[s] for s in final.ranking]},
    }
    if chips is not None:
        out["chips"] = chips
    if removed is not None:
        out["end_removed"] = removed
    return out


def _end_game(game: Game, index: int) -> None:
    """End the game after ``hands[index]`` as the players chose: where the rules let it end or go
    on (``Game.may_end``), by an ``end_game`` event (:meth:`Game.check` first, then
    :meth:`Game.apply`), which ranks the players (``Game._final``)."""
    rec = game.hands[index]
    where = f"hands[{index}] ({rec.round_wind.name.title()} {rec.number})"
    if game.ended:
        raise IllegalEventError(f"end: the game already ended after {where} by the rules ({_ending(game)})")
    if not game.may_end:
        raise IllegalEventError(
            f"end: the game cannot end after {where}: the rules go on here (it may end by the "
            "players' choice only where the rules let it end or go on, e.g. tenpai_yame = "
            "'optional': the dealer tenpai and first at all-last)"
        )
    problems = game.check(EndGame())
    if problems:
        raise IllegalEventError(f"end: the game cannot end after {where}: {problems[0]}")
    game.apply(EndGame(), index)


def _ending(game: Game) -> str:
    """Why the game ended after its last hand: ``tobi`` (a score below zero), ``agari_yame`` or
    ``tenpai_yame`` (the dealer kept the deal in the lead), or ``last_hand``."""
    if game.rules.tobi and min(game.scores) < 0:
        return "tobi"
    last = game.hands[-1]
    if last.settlement["next"]["dealer"] == game.dealer:
        return "agari_yame" if last.kind == "win" else "tenpai_yame"
    return "last_hand"


def export_jsonl(sheet: Mapping[str, Any]) -> str:
    """The game as JSON Lines: one settle request a line, each whole (rules, players, dealer,
    round wind, honba, riichi sticks as the game had them), so that ``tenbou settle --json FILE``
    settles every hand again (its deltas are the sheet's)."""
    rules = sheet["setup"]["rules"]
    lines = [json.dumps({"rules": rules, **row["request"]}, ensure_ascii=False) for row in sheet["hands"]]
    return "".join(line + "\n" for line in lines)


def export_csv(sheet: Mapping[str, Any]) -> str:
    """One row per hand: round, hand number, honba, riichi sticks, dealer, kind, winners, the
    discarder, who declared riichi, each seat's ``change`` of score in the hand (the sheet's
    ``score_change``: a riichi stick put down included, so that each row's change is its score
    less the row above) and ``score`` after the hand; the start points first and, once the game
    is over, a ``final`` row: why it ended in the kind column (``tobi``, ``agari_yame``,
    ``tenpai_yame``, ``last_hand``; ``... (ended by the players)`` where they chose to end it) and
    the final scores with uma and oka. Seats are lists of numbers separated by spaces; the file
    holds no booleans.

    >>> setup = read_setup({"rules": "tenhou", "names": ["A", "B", "C", "D"]})
    >>> ron = {"winner": 1, "from": 2, "hand": "123m456p789s23s55s", "win_tile": "4s", "riichi": True}
    >>> sheet = replay(setup, [read_hand({"request": {"wins": [ron]}, "riichi": [1]})])
    >>> sheet["hands"][0]["deltas"], sheet["hands"][0]["score_change"]
    ([0, 3000, -2000, 0], [0, 2000, -2000, 0])
    >>> rows = export_csv(sheet).splitlines()
    >>> rows[0].split(",")[9:]
    ['riichi', 'change A', 'change B', 'change C', 'change D', 'score A', 'score B', 'score C', 'score D']
    >>> rows[2]
    '1,E,1,0,1,0,win,1,2,1,0,2000,-2000,0,25000,27000,23000,25000'
    """
    names = sheet["setup"]["names"]
    n = len(sheet["scores"])
    label = [names[s] or f"seat {s}" for s in range(n)]
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(
        ["hand", "round", "number", "honba", "riichi_sticks", "dealer", "kind", "winners", "from", "riichi"]
        + [f"change {x}" for x in label]
        + [f"score {x}" for x in label]
    )
    w.writerow(["start", "", "", "", "", "", "", "", "", ""] + [""] * n + [sheet["start_points"]] * n)
    for row in sheet["hands"]:
        kind = row["kind"] if not row.get("reason") else f"{row['kind']} ({row['reason']})"
        w.writerow(
            [
                row["hand"] + 1,
                Wind(row["round"]).value,
                row["number"],
                row["honba"],
                row["riichi_sticks"],
                row["dealer"],
                kind,
                " ".join(map(str, row["winners"])),
                "" if row["from"] is None else row["from"],
                " ".join(map(str, row["riichi"])),
                *row["score_change"],
                *row["scores"],
            ]
        )
    final = sheet.get("final")
    if sheet["ended"] and final:
        why = sheet["ending"] + (" (ended by the players)" if sheet.get("end") else "")
        w.writerow(["final", "", "", "", "", "", why, "", "", ""] + [""] * n + list(final["final_scores"]))
    return buf.getvalue()


#: what the JSON export keeps of each hand of the sheet (the numbers an import must find again)
_EXPORT_ROW: Final = ("round", "number", "honba", "riichi_sticks", "dealer", "kind", "deltas", "scores")


def read_export(obj: object) -> tuple[dict[str, Any], list[dict[str, Any]], int | None]:
    """A game exported as JSON (``format`` :data:`EXPORT_FORMAT`): its setup, hands and end (the
    hand after which the players ended it, or ``None``), checked again (:func:`replay` checks
    the end against the rules, :func:`check_export` compares the replay with the numbers of the
    export)."""
    if not isinstance(obj, Mapping) or obj.get("format") != EXPORT_FORMAT:
        raise RequestError(f"expected a game exported by tenbou (format {EXPORT_FORMAT!r})")
    for key in obj:
        if key not in ("format", "version", "setup", "hands", "end", "sheet"):
            raise RequestError(
                f"unknown field {shown(key)} (an export has format, version, setup, hands, end, sheet)"
            )
    hands = obj.get("hands")
    if type(hands) is not list:
        raise RequestError(f"hands: expected a list, not {shown(hands)}")
    setup = read_setup(obj.get("setup"))
    entries = [read_hand(h, f"hands[{i}]") for i, h in enumerate(hands)]
    return setup, entries, read_end(obj.get("end"), len(entries))


def check_export(obj: Mapping[str, Any], sheet: Mapping[str, Any]) -> None:
    """Refuse an export whose numbers (each hand's place, deltas and scores after it, the scores
    and the final ranking) are not those the replay of its hands gives: an import verifies a game."""
    exported = obj.get("sheet")
    if exported is None:
        return
    if not isinstance(exported, Mapping):
        raise RequestError(f"sheet: expected an object, not {shown(exported)}")
    mine = _export_sheet(sheet)
    for key, value in exported.items():
        if key not in mine:
            raise RequestError(f"sheet: unknown field {shown(key)}")
        if key == "hands" and type(value) is list:
            for i, (got, want) in enumerate(zip(value, mine["hands"], strict=False)):
                if got != want:
                    raise RequestError(
                        f"sheet.hands[{i}]: the export says {shown(got)}, the hands give {shown(want)}"
                    )
        if value != mine[key]:
            raise RequestError(
                f"sheet.{key}: the export says {shown(value)}, the hands give {shown(mine[key])}"
            )


def _export_sheet(sheet: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "start_points": sheet["start_points"],
        "hands": [{k: row[k] for k in _EXPORT_ROW} for row in sheet["hands"]],
        "scores": sheet["scores"],
        "riichi_sticks": sheet["riichi_sticks"],
        "ended": sheet["ended"],
        "final": sheet["final"],
    }


def export_json(
    setup: Mapping[str, Any], hands: Sequence[Mapping[str, Any]], sheet: Mapping[str, Any]
) -> dict[str, Any]:
    """The game as one JSON object: the setup, the hands and the end as entered (what
    :func:`read_export` reads back; ``end`` only where the players ended the game) and the
    numbers of the sheet computed from them (each hand's place, deltas and scores after it; the
    final ranking), which an import checks again (:func:`check_export`)."""
    out: dict[str, Any] = {
        "format": EXPORT_FORMAT,
        "version": 1,
        "setup": dict(setup),
        "hands": [{"request": h["request"], "riichi": h["riichi"]} for h in hands],
    }
    if sheet.get("end") is not None:
        out["end"] = dict(sheet["end"])
    out["sheet"] = _export_sheet(sheet)
    return out


def stored_hands(sheet: Mapping[str, Any]) -> list[dict[str, Any]]:
    """What the database keeps of the hands of a sheet: each request without the fields the game
    fills in (so that an edit of an earlier hand moves them in every hand after it)."""
    return [
        {
            "request": {k: v for k, v in row["request"].items() if k not in _TABLE},
            "riichi": list(row["riichi"]),
        }
        for row in sheet["hands"]
    ]
