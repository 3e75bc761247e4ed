"""Real records, verified and exported: every hand replayed by the engine and
compared with what the record says, on one core, many, or a Dask cluster.

:func:`verify_record` replays one :class:`~tenbou.io.record.GameRecord`
through :class:`tenbou.engine.game.Game` and compares every hand end with the record:
the kind of end, the winners, each win's yaku, han, fu, points and pao, the
per-seat score changes, the abortive draw's reason, the tenpai seats of an
exhaustive draw, the next hand's dealer, honba and sticks, where the game ends,
and the final scores. It returns the JSON lines of ``docs/json-api.md``
("Replaying records"): one object per hand end, ``match`` telling whether
tenbou agrees with the record on all of it, and each difference under
``mismatches`` with a ready ``tenbou score`` / ``tenbou settle`` request that
reproduces it. A record under rules tenbou does not model gives one
``{"source", "skipped"}`` line instead.

:func:`verify_paths` does that for files and folders, in this process,
over local processes (``jobs``) or on a Dask cluster, with the same output in
the same order whichever way it runs; :func:`summarize` closes the run, and
:func:`export_rows` turns the lines into one table row per hand end.

>>> from tenbou.io.read import parse_records
>>> from tenbou.engine.table import play_game
>>> from tenbou.rules import get_rules
>>> from tenbou.engine.events import events_to_lines
>>> text = "\\n".join(events_to_lines(play_game(get_rules("tenhou"), seed=3, length="tonpuu")))
>>> lines = verify_record(parse_records(text.encode(), "self.jsonl")[0])
>>> summarize(lines)["summary"]["mismatched"], all(line["match"] for line in lines)
(0, True)
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TextIO

from ..engine.events import (
    Daiminkan,
    EndGame,
    EndKyoku,
    Event,
    Hora,
    ReachAccepted,
    Ryukyoku,
    StartGame,
    StartKyoku,
    event_to_json,
    events_to_lines,
)
from ..engine.game import Game, HandRecord
from ..engine.round import Round
from ..errors import LogFormatError, TenbouError
from ..files import shown_path
from ..io.read import detect_format, parse_records
from ..io.record import GameRecord, HandEnd, WinRecord
from ..io.source import MAX_RECORD_BYTES, inflate, read_source
from .compare import MISMATCH_KINDS, Conventions, _after_deposits, _score_request, compare_hand

__all__ = [
    "MISMATCH_KINDS",
    "NO_OUTCOME",
    "Defect",
    "complete_record",
    "export_rows",
    "find_record_files",
    "hand_key",
    "load_defects",
    "mark_defects",
    "summarize",
    "verify_data",
    "verify_file",
    "verify_paths",
    "verify_record",
    "write_rows",
]

#: how long ``--dask ADDRESS`` waits for the scheduler to answer
DASK_CONNECT_SECONDS = 10
#: why a hand line has no ``match``: the record gives its end neither deltas nor scores
NO_OUTCOME = "no outcome to compare: the record gives the hand's end neither deltas nor scores"


# -- one game ---------------------------------------------------------------------------------


class _Verifier:
    """Replays one record hand by hand and builds its lines."""

    def __init__(self, rec: GameRecord) -> None:
        self.rec = rec
        self.rules = rec.get_rules()
        self.rules_json = rec.rules
        self.lines: list[dict[str, Any]] = []
        self.players = rec.players
        #: what the record's rules and format make of the facts it states
        self.conv = Conventions.of(rec, self.rules)
        self.end_reported = False
        #: the record's end_game came where tenbou's game goes on
        self.ended_early = False
        self.starts = rec.starts
        self.hand_events = rec.hand_events()
        #: the settle request of each hand, by hand index (draws: the tenpai and nagashi seats tenbou found)
        self.requests: dict[int, dict[str, Any]] = {}
        #: the facts that differ during the hand being played: (kind, detail)
        self.pending: list[tuple[str, str]] = []

    def new_game(self) -> Game:
        return Game(self.rules, self.players, strict=True, check_starts=False)

    def run(self) -> list[dict[str, Any]]:
        rec = self.rec
        segments = self.hand_events
        offset = len(rec.events) - sum(len(s) for s in segments)
        game = self.new_game()
        for index, ev in enumerate(rec.events[:offset]):
            if isinstance(ev, StartGame):
                game.apply(ev, index)
            elif not isinstance(ev, EndGame):
                raise LogFormatError(
                    f"{rec.source}: event {index} ({_name(ev)}) comes before any start_kyoku"
                )
        played = False  # the hand before ended cleanly, so the next can be judged against it
        last = len(segments) - 1
        for i, seg in enumerate(segments):
            start = seg[0]
            assert isinstance(start, StartKyoku)
            if played:
                self._check_next(game, i, start)
            if i and (game.ended or not played):
                game = self.new_game()
            played = self._play(game, i, seg, offset, i == last)
            offset += len(seg)
        if played:
            self._check_end(game)
        for line in self.lines:
            line.pop("_request", None)
        return self.lines

    def _play(self, game: Game, hand: int, seg: Sequence[Event], offset: int, last: bool) -> bool:
        """Play one hand's events; whether it ended cleanly (``end_kyoku`` reached, its line made)."""
        ended = False
        self.pending = []
        for k, ev in enumerate(seg):
            index = offset + k
            if isinstance(ev, EndGame):
                if not ended:
                    self._illegal(
                        hand, ev, "end_game inside a hand (the hand has no end_kyoku)", seg[: k + 1]
                    )
                    return False
                # ``end_game`` ends any game; whether tenbou would have ended it there, the game says
                game.apply(EndGame(), index)
                self.ended_early = game.ended_early
                continue
            if ended:  # the hand's line is made: it is defective after all
                why = f"event {index}: {_name(ev)} after the hand's end_kyoku"
                line = self.lines[-1]
                line["error"] = why
                self._add(
                    line,
                    "illegal_event",
                    f"the engine refuses the record: {why}",
                    self._replay_lines(seg[: k + 1]),
                    "replay",
                )
                return False
            try:
                game.apply(ev, index)
            except TenbouError as e:
                self._illegal(hand, ev, str(e), seg[: k + 1])
                return False
            if isinstance(ev, ReachAccepted) and (ev.scores is not None or ev.deltas is not None):
                self._check_reach(game, ev)
            elif isinstance(ev, EndKyoku):
                ended = True
                self._hand_line(game, hand, seg)
        if ended:
            return True
        if not last:
            nxt = offset + len(seg)
            self._illegal(
                hand,
                seg[-1],
                f"the hand has no end: the next start_kyoku (event {nxt}) comes before its "
                + ("end_kyoku" if any(isinstance(e, (Hora, Ryukyoku)) for e in seg) else "win or draw"),
                list(seg),
            )
        return False  # the last hand, cut short: the record ends inside it

    # -- the record's own continuity ------------------------------------------------------

    def _continuous(self, i: int) -> tuple[int, ...] | None:
        """The scores hand ``i + 1`` should start with by the record's own account (hand
        ``i``'s scores with its recorded changes, less the riichi sticks put down), where
        they are not what it starts with (``None``: they are, or the record gives no changes)."""
        end = self.rec.hands[i] if i < len(self.rec.hands) else None
        if end is None:
            return None
        if end.deltas is not None:
            expected = [s + d for s, d in zip(self.starts[i].scores, end.deltas, strict=True)]
            after = _after_deposits(expected, self.hand_events[i], self.conv.stick)
        elif end.scores_after is not None:
            after = tuple(end.scores_after)  # a record of scores alone: the hand ends with these
        else:
            return None
        return None if tuple(self.starts[i + 1].scores) == after else after

    def _check_next(self, game: Game, i: int, ev: StartKyoku) -> None:
        line = self.lines[-1]
        expected = self._continuous(i - 1)
        if expected is not None:
            self._add(
                line,
                "next",
                f"next hand: the record starts it with scores {list(ev.scores)}; this hand's scores and "
                f"changes give {list(expected)}",
                line.get("_request"),
                "settle",
            )
        if game.ended:
            if self.end_reported:
                return
            self.end_reported = True
            self._add(
                line,
                "game_end",
                "tenbou ends the game after this hand; the record plays on",
                line.get("_request"),
                "settle",
                # the hand, and the next start_kyoku that the replay refuses: the game is over
                self._replay_lines([*self.hand_events[i - 1], ev]),
            )
            return
        wind, kyoku, honba, sticks, dealer, _ = game.expected_start()
        got = (ev.bakaze, ev.kyoku, ev.honba, ev.kyotaku, ev.oya)
        want = (wind, kyoku, honba, sticks, dealer)
        if got != want:
            names = ("round wind", "hand number", "honba", "riichi sticks", "dealer")
            diffs = [
                f"{n} {_plain(w)} (the record {_plain(g)})"
                for n, g, w in zip(names, got, want, strict=True)
                if g != w
            ]
            self._add(
                line, "next", "next hand: tenbou gives " + ", ".join(diffs), line.get("_request"), "settle"
            )

    def _check_end(self, game: Game) -> None:
        rec = self.rec
        if rec.final_scores is None or not self.lines:
            return
        line = self.lines[-1]
        if (self.ended_early or not game.ended) and not self.end_reported:
            self._add(
                line,
                "game_end",
                "the record ends the game here; tenbou plays on",
                line.get("_request"),
                "settle",
                self._last_hand_replay(),
            )
        final = game.final
        if final is not None and tuple(final.points) != tuple(rec.final_scores):
            self._add(
                line,
                "final_scores",
                f"final points {list(final.points)}, the record {list(rec.final_scores)}",
                line.get("_request"),
                "settle",
                self._last_hand_replay(),
            )

    def _last_hand_replay(self) -> list[str]:
        """The replay of the game's last hand to its end_game (one is added where the record ends
        otherwise, as mjlog's ``owari`` does): ``tenbou replay`` ends the game there, prints the
        final points, and says whether the rules end it there too."""
        last = list(self.hand_events[-1])
        if not isinstance(last[-1], EndGame):
            last.append(EndGame(self.rec.final_scores))
        return self._replay_lines(last)

    # -- lines ----------------------------------------------------------------------------

    def _add(
        self,
        line: dict[str, Any],
        kind: str,
        detail: str,
        request: Any,
        command: str,
        replay: list[str] | None = None,
    ) -> None:
        """A mismatch on ``line``: its kind, detail and the ``command`` request that reproduces it,
        and ``replay``, mjai lines for ``tenbou replay``, where only a replay shows it (the end
        of the game)."""
        entry: dict[str, Any] = {"kind": kind, "detail": detail}
        if request is not None:
            entry[command] = request
        if replay is not None:
            entry["replay"] = replay
        line.setdefault("mismatches", []).append(entry)
        line["match"] = False

    def _replay_lines(self, events: Sequence[Event]) -> list[str]:
        """The mjai lines that replay ``events`` (a hand, or its start) under the record's rules:
        a ``start_game`` naming them (``tenbou_rules``), then the events."""
        start: dict[str, Any] = {"type": "start_game", "tenbou_rules": self.rules_json}
        return [json.dumps(start, ensure_ascii=False, separators=(",", ":")), *events_to_lines(events)]

    def _base(self, hand: int) -> dict[str, Any]:
        start = self.starts[hand]
        return {
            "source": self.rec.source,
            "game": self.rec.index,
            "hand": hand,
            "round": start.bakaze.value,
            "number": start.kyoku,
            "honba": start.honba,
        }

    def _illegal(self, hand: int, ev: Event, why: str, upto: Sequence[Event]) -> None:
        end = self.rec.hands[hand] if hand < len(self.rec.hands) else None
        line = self._base(hand)
        line.update({"kind": end.kind if end and end.kind != "unfinished" else None, "deltas": None})
        line["results"] = []
        if end is not None and end.deltas is not None:
            line["recorded_deltas"] = list(end.deltas)
        line["error"] = why
        self._add(
            line, "illegal_event", f"the engine refuses the record: {why}", self._replay_lines(upto), "replay"
        )
        self.lines.append(line)

    def _check_reach(self, game: Game, ev: ReachAccepted) -> None:
        rnd = game.round
        assert rnd is not None
        scores = [s.score for s in rnd.seats]
        if ev.scores is not None and list(ev.scores) != scores:
            self.pending.append(
                ("scores", f"after seat {ev.actor}'s riichi: scores {scores}, the record {list(ev.scores)}")
            )
        want = [-self.conv.stick if s == ev.actor else 0 for s in range(rnd.players)]
        if ev.deltas is not None and list(ev.deltas) != want:
            self.pending.append(
                ("scores", f"seat {ev.actor}'s riichi stick: deltas {want}, the record {list(ev.deltas)}")
            )

    def _hand_line(self, game: Game, hand: int, seg: Sequence[Event]) -> None:
        hr: HandRecord = game.hands[-1]
        rnd = game.round
        assert rnd is not None
        start = self.starts[hand]
        line = self._base(hand)
        line.update(hr.to_dict())
        line["hand"] = hand
        line["dealer"] = start.oya
        line["riichi_sticks"] = start.kyotaku
        line["scores"] = list(start.scores)
        if hr.kind == "abortive_draw" and hr.settlement.get("reason"):
            line["draw_reason"] = hr.settlement["reason"]
        elif hr.kind == "exhaustive_draw" and any(p["kind"] == "nagashi" for p in hr.settlement["payments"]):
            line["draw_reason"] = "nagashi_mangan"
        end = self.rec.hands[hand] if hand < len(self.rec.hands) else None
        if hr.request is not None:
            request = {"rules": self.rules_json, **hr.request}
            # the engine names the liable seats it tracked; an empty list is left to inference
            request["wins"] = [{k: v for k, v in w.items() if k != "pao" or v} for w in request["wins"]]
        else:
            request = self._draw_request(rnd, hr)
        line["_request"] = request
        self.requests[hand] = request
        if end is not None and end.deltas is not None:
            line["recorded_deltas"] = list(end.deltas)
            line["match"] = True
        elif end is not None and end.scores_after is not None:
            # no deltas, but the scores after the hand: they are compared (a hand checked all the same)
            line["recorded_scores"] = list(end.scores_after)
            line["match"] = True
        for kind, detail in self.pending:
            self._add(line, kind, detail, request, "settle")
        if end is not None:
            for kind, detail in end.defects:
                self._add(line, kind, f"the record contradicts itself: {detail}", request, "settle")
            self._compare(line, end, hr, rnd, request, seg)
        if "match" not in line:
            line["unchecked"] = NO_OUTCOME
        self.lines.append(line)

    def _draw_request(self, rnd: Round, hr: HandRecord) -> dict[str, Any]:
        draw: dict[str, Any] = {"kind": "exhaustive" if hr.kind == "exhaustive_draw" else "abortive"}
        st = hr.settlement
        if hr.kind == "exhaustive_draw":
            nagashi = sorted({p["to"] for p in st["payments"] if p["kind"] == "nagashi"})
            draw["tenpai"] = [s for s in range(rnd.players) if rnd.is_tenpai(s)]
            draw["nagashi"] = nagashi
        elif st.get("reason"):
            draw["reason"] = st["reason"]
        return {
            "rules": self.rules_json,
            "players": rnd.players,
            "dealer": rnd.dealer,
            "round_wind": rnd.round_wind.value,
            "honba": rnd.honba,
            "riichi_sticks": rnd.start.kyotaku,
            "draw": draw,
        }

    def _compare(
        self,
        line: dict[str, Any],
        end: HandEnd,
        hr: HandRecord,
        rnd: Round,
        request: Any,
        seg: Sequence[Event],
    ) -> None:
        """Put on ``line`` each way the hand's end differs from the record's ``end``
        (:func:`~tenbou.verify.compare.compare_hand`), with the request that reproduces it: the
        hand's settle ``request``, or the ``tenbou score`` request of the win it is about."""
        facts = compare_hand(
            self.conv,
            end,
            hr,
            rnd,
            seg,
            self.starts[line["hand"]].scores,
            request.get("draw"),
            line.get("recorded_deltas"),
        )
        wins = {w["winner"]: w for w in (hr.request or {}).get("wins", [])}
        for kind, detail, winner in facts:
            if winner is None:
                self._add(line, kind, detail, request, "settle")
            else:
                self._add(line, kind, detail, _score_request(self.rules_json, request, wins[winner]), "score")


def _name(event: Event) -> str:
    return str(event_to_json(event)["type"])


def _plain(value: Any) -> Any:
    return getattr(value, "value", value)


def verify_record(rec: GameRecord) -> list[dict[str, Any]]:
    """The lines of one game: one per hand end, or one ``skipped`` line. A game tenbou
    cannot replay at all (rules it does not know, an event before any hand) raises
    :class:`~tenbou.errors.TenbouError`; a hand the engine refuses is a line of its own
    (``illegal_event``) and the game goes on with the next hand."""
    cut = {"source": rec.source, "game": rec.index, "skipped": "no complete hand (a record cut short)"}
    if rec.skip is not None:
        return [{"source": rec.source, "game": rec.index, "skipped": rec.skip}]
    if all(h.kind == "unfinished" for h in rec.hands):
        return [cut]
    return _Verifier(rec).run() or [cut]


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


# -- files, in parallel ---------------------------------------------------------------------------


def find_record_files(paths: Iterable[str]) -> list[tuple[str, bool]]:
    """The files to read: (path, named) for each file given, and each file under a
    folder given (sorted, hidden ones left out); ``named`` is whether it was given
    by name (a folder's file that is not a record is skipped, a named one is an error).
    A folder's entry that cannot even be looked at (a link into ``/proc`` of another
    process, a folder tenbou may not enter) is listed as a file, to be reported as unreadable
    with the reason when read, never a traceback nor passed over in silence.
    A file is read once however often it is given (``F F ./F``, a folder and a file in it):
    where it first comes, by the name it first has, and named if it is named anywhere."""
    out: list[tuple[str, bool]] = []
    where: dict[str, int] = {}  # the resolved path of each file, and its place in ``out``
    for raw in paths:
        p = Path(raw)
        if raw and p.is_dir():  # an empty name names no file (Path("") is ".")
            found = sorted(
                q
                for q in p.rglob("*")
                if _is_file(q) and not any(part.startswith(".") for part in q.relative_to(p).parts)
            )
            files = [(str(q), False) for q in found]
        else:
            files = [(str(p) if raw else raw, True)]
        for path, named in files:
            key = os.path.realpath(path)
            if key not in where:
                where[key] = len(out)
                out.append((path, named))
            elif named:
                out[where[key]] = (out[where[key]][0], True)
    return out


def _is_file(path: Path) -> bool:
    """Whether a folder's entry is a file to read: a file, or an entry that cannot be looked at
    (``Path.is_file`` raises ``PermissionError`` for it: it is read, and reported, as a file)."""
    try:
        return path.is_file()
    except OSError:
        return True


def _error_line(source: str, game: int | None, error: TenbouError, category: str) -> dict[str, Any]:
    """A record tenbou refuses (the run's exit status 2): skipped, with the error object."""
    line: dict[str, Any] = {"source": source}
    if game is not None:
        line["game"] = game
    line["skipped"] = f"{category}: {error}"
    line["error"] = {"code": error.code, "message": str(error)}
    return line


def verify_file(
    path: str, named: bool = True, rules: Any = None, max_bytes: int = MAX_RECORD_BYTES
) -> dict[str, Any]:
    """Verify every game of one file: ``{"lines": [...], "error": message or None}``.

    Nothing a file holds stops the run: a file that cannot be read, is past
    ``max_bytes`` or is malformed gives one ``skipped`` line with its ``error``; a
    game tenbou cannot replay at all (unknown rules) the same, and the file's other
    games are still verified. A file that is not a record gives a ``skipped`` line,
    with an ``error`` only when it was ``named`` (a file found in a folder may be
    anything). A record whose file name is not UTF-8 is refused the same way (see
    :func:`verify_data`). Any ``error`` makes the run's exit status 2."""
    source = shown_path(path)
    try:
        data = read_source(path, source, max_bytes)
    except TenbouError as e:
        return {"lines": [_error_line(source, None, e, "unreadable")], "error": str(e)}
    return verify_data(data, path, named, rules, max_bytes)


def verify_data(
    data: bytes, path: str, named: bool = True, rules: Any = None, max_bytes: int = MAX_RECORD_BYTES
) -> dict[str, Any]:
    """:func:`verify_file` of a record's bytes (``path`` names it).

    A record whose name is not UTF-8 (bytes that Python holds as surrogate escapes) is refused,
    named with backslash escapes (:func:`~tenbou.files.shown_path`): the lines name each
    record by its path in UTF-8 JSON and text, which such a name cannot be."""
    source = shown_path(path)
    try:
        data = inflate(data, source, max_bytes)
    except TenbouError as e:
        return {"lines": [_error_line(source, None, e, "unreadable")], "error": str(e)}
    try:
        fmt = detect_format(data, source)
    except TenbouError as e:
        if named:
            return {"lines": [_error_line(source, None, e, "not a record")], "error": str(e)}
        return {"lines": [{"source": source, "skipped": f"not a record: {e}"}], "error": None}
    try:
        if source != path:
            raise LogFormatError(
                f"{source}: the file name is not UTF-8 (a record is named by its path: rename it)"
            )
        games = parse_records(data, path, fmt, rules=rules, max_bytes=max_bytes)
    except TenbouError as e:
        return {"lines": [_error_line(source, None, e, "unreadable")], "error": str(e)}
    lines: list[dict[str, Any]] = []
    errors: list[str] = []
    for rec in games:
        try:
            lines.extend(verify_record(rec))
        except TenbouError as e:
            lines.append(_error_line(path, rec.index, e, "not replayed"))
            errors.append(f"game {rec.index}: {e}")
    return {"lines": lines, "error": "; ".join(errors) or None}


def _verify_chunk(
    items: Sequence[tuple[str, bool]], rules: Any = None, max_bytes: int = MAX_RECORD_BYTES
) -> list[dict[str, Any]]:
    return [verify_file(path, named, rules, max_bytes) for path, named in items]


def _chunks(items: Sequence[tuple[str, bool]], workers: int) -> list[list[tuple[str, bool]]]:
    size = max(1, min(16, len(items) // max(1, workers * 8)))
    return [list(items[i : i + size]) for i in range(0, len(items), size)]


def verify_paths(
    paths: Iterable[str],
    *,
    jobs: int = 1,
    dask: str | None = None,
    rules: Any = None,
    progress: Callable[[int, int, int], None] | None = None,
    max_bytes: int = MAX_RECORD_BYTES,
) -> Generator[dict[str, Any], None, None]:
    """Verify files and folders; yields each file's result (:func:`verify_file`)
    in the order of the files, whichever way the work runs: in this process
    (``jobs=1``), over ``jobs`` local processes, or on the Dask cluster at
    ``dask`` (``"local"`` starts a LocalCluster of ``jobs`` workers).
    ``progress(files_done, files, hands_done)`` is called as files finish; no
    file records larger than ``max_bytes`` (stored or inflated) are read.

    ``jobs`` below 1 is refused; no more processes are started than there are files or
    cores this process may use (``--dask local`` the same), so ``jobs`` is an upper bound."""
    if jobs < 1:
        raise TenbouError(f"--jobs {jobs}: the number of processes is 1 or more", "request")
    items = find_record_files(paths)
    total = len(items)
    hands = 0
    done = 0

    def note(result: dict[str, Any]) -> None:
        nonlocal hands, done
        done += 1
        hands += sum(1 for line in result["lines"] if "kind" in line)
        if progress is not None:
            progress(done, total, hands)

    workers = min(jobs, total, local_cores())
    if dask is None and workers <= 1:
        for path, named in items:
            result = verify_file(path, named, rules, max_bytes)
            note(result)
            yield result
        return
    if dask is not None:  # a remote cluster's workers are its own: the chunks are cut for ``jobs`` of them
        chunks = _chunks(items, max(1, min(jobs, total)))
        yield from _run_dask(chunks, dask, max(1, workers), rules, note, max_bytes)
        return
    from concurrent.futures import ProcessPoolExecutor, as_completed

    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {
            pool.submit(_verify_chunk, chunk, rules, max_bytes): i
            for i, chunk in enumerate(_chunks(items, workers))
        }
        try:
            yield from _in_order(((futures[f], f.result()) for f in as_completed(futures)), note)
        finally:  # stopped early (an output lost, an interruption): the chunks not begun are not run
            for f in futures:
                f.cancel()


def local_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it, else
    :func:`os.cpu_count`): the most processes ``--jobs`` starts."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):  # no sched_getaffinity (macOS, Windows)
        return os.cpu_count() or 1


def _in_order(
    finished: Iterable[tuple[int, list[dict[str, Any]]]], note: Callable[[dict[str, Any]], None]
) -> Iterator[dict[str, Any]]:
    """Results of chunks finishing in any order, yielded in chunk order."""
    waiting: dict[int, list[dict[str, Any]]] = {}
    nxt = 0
    for index, results in finished:
        for r in results:
            note(r)
        waiting[index] = results
        while nxt in waiting:
            yield from waiting.pop(nxt)
            nxt += 1


def _run_dask(
    chunks: list[list[tuple[str, bool]]],
    address: str,
    jobs: int,
    rules: Any,
    note: Callable[[dict[str, Any]], None],
    max_bytes: int = MAX_RECORD_BYTES,
) -> Iterator[dict[str, Any]]:
    import importlib

    try:
        distributed: Any = importlib.import_module("distributed")
    except ImportError as e:
        raise TenbouError(
            f"--dask needs the optional extra 'dask': pip install 'tenbou[dask]' ({e})", "missing_extra"
        ) from None
    cluster = None
    try:
        if address == "local":
            cluster = distributed.LocalCluster(
                n_workers=max(1, jobs), threads_per_worker=1, processes=True, dashboard_address=None
            )
            client = distributed.Client(cluster)
        else:
            client = distributed.Client(address, timeout=DASK_CONNECT_SECONDS)
    except (OSError, ValueError) as e:  # no scheduler answers (a timeout is an OSError), a bad address
        if cluster is not None:
            cluster.close()
        raise TenbouError(f"--dask {address}: no Dask scheduler to run on: {e}", "dask") from None
    try:
        futures = client.map(_verify_chunk, chunks, rules=rules, max_bytes=max_bytes, pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        yield from _in_order(((index[f.key], f.result()) for f in distributed.as_completed(futures)), note)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


# -- known defects -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Defect:
    """A hand known to contradict itself (``--expect-defects``): the end of its record's path,
    its index in the game, the mismatch kinds it shows, and why the record is defective."""

    path: str
    hand: int
    kinds: frozenset[str]
    reason: str

    def names(self, source: str) -> bool:
        """Whether ``source`` is this defect's record (its path ends with :attr:`path`)."""
        text = Path(source).as_posix()
        return text == self.path or text.endswith("/" + self.path)


def load_defects(path: str) -> list[Defect]:
    """The known defects of a file: one a line, ``PATH<TAB>HAND<TAB>KINDS<TAB>REASON`` (KINDS
    comma-separated mismatch kinds, PATH the end of the record's path); ``#`` starts a comment.
    A malformed line raises :class:`~tenbou.errors.TenbouError` naming it."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise TenbouError(
            f"--expect-defects {shown_path(path)}: cannot be read ({e.strerror})", "request"
        ) from None
    except UnicodeDecodeError as e:
        raise TenbouError(
            f"--expect-defects {shown_path(path)}: not UTF-8 text ({e.reason} at byte {e.start})", "request"
        ) from None
    out: list[Defect] = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = line.split("\t")
        kinds = frozenset(k.strip() for k in parts[2].split(",")) if len(parts) == 4 else frozenset()
        if len(parts) != 4 or not parts[1].strip().isdigit() or not kinds or not kinds <= set(MISMATCH_KINDS):
            raise TenbouError(
                f"{shown_path(path)}:{n}: a known defect is PATH<TAB>HAND<TAB>KINDS<TAB>REASON, with "
                f"mismatch kinds of {', '.join(MISMATCH_KINDS)}; not {line[:80]!r}",
                "request",
            )
        out.append(Defect(parts[0].strip(), int(parts[1]), kinds, parts[3].strip()))
    return out


def mark_defects(lines: Sequence[dict[str, Any]], defects: Sequence[Defect]) -> list[str]:
    """Mark the hand lines that show exactly a known defect (``expected_defect``: its reason; they
    stay ``match: false``, and :func:`summarize` counts them apart); returns what does not hold
    of the list: a listed hand of a verified record that matches, or differs otherwise."""
    seen: dict[Defect, bool] = {}
    for line in lines:
        if "kind" not in line:
            continue
        for d in defects:
            if d.hand == line["hand"] and d.names(str(line["source"])):
                kinds = frozenset(m["kind"] for m in line.get("mismatches", []))
                seen[d] = kinds == d.kinds
                if kinds == d.kinds:
                    line["expected_defect"] = d.reason
                break
    return [
        f"{d.path} hand {d.hand}: listed as a known defect ({', '.join(sorted(d.kinds))}) but "
        + ("it shows other mismatches" if d in seen else "no such hand was verified")
        for d in defects
        if not seen.get(d, False) and (d in seen or _verified(d, lines))
    ]


def _verified(d: Defect, lines: Sequence[Mapping[str, Any]]) -> bool:
    return any(d.names(str(line.get("source", ""))) for line in lines)


# -- summaries -----------------------------------------------------------------------------------


def _category(reason: str) -> str:
    return reason.split(":", 1)[0]


def summarize(lines: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The closing summary line of ``docs/json-api.md`` (games, hands, wins,
    matched, mismatched, skipped), with ``known_defects`` (the hands that show exactly
    the defect a ``--expect-defects`` list gives them: not counted as mismatched),
    ``unchecked`` (the hands whose record gives no outcome to compare: no deltas, no
    scores), ``distinct`` (hands, pao hands and double rons counted once however many
    copies of their game were verified: :func:`hand_key`), the mismatches by kind, the skipped
    records by reason, ``errors`` (the skipped records refused as bad input: exit
    status 2), and counts of double rons, pao wins, yakuman and draws."""
    games: set[tuple[Any, Any]] = set()
    hands = wins = matched = mismatched = unchecked = defects = skipped = errors = 0
    double_ron = pao = yakuman = abortive = exhaustive = win_results = 0
    kinds: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    distinct: dict[str, set[tuple[Any, ...]]] = {"hands": set(), "pao": set(), "double_ron": set()}
    for line in lines:
        if "skipped" in line:
            skipped += 1
            errors += "error" in line
            reasons[_category(str(line["skipped"]))] += 1
            continue
        games.add((line["source"], line["game"]))
        hands += 1
        kind = line.get("kind")
        results = line.get("results") or []
        key = hand_key(line)
        distinct["hands"].add(key)
        if kind == "win":
            wins += 1
            win_results += len(results)
            double_ron += len(results) > 1
            pao += sum(1 for r in results if r.get("pao"))
            if len(results) > 1:
                distinct["double_ron"].add(key)
            if any(r.get("pao") for r in results):
                distinct["pao"].add(key)
            yakuman += sum(1 for r in results if any(y.get("yakuman") for y in r["yaku"]))
        elif kind == "abortive_draw":
            abortive += 1
        elif kind == "exhaustive_draw":
            exhaustive += 1
        if line.get("match") is True:
            matched += 1
        elif "expected_defect" in line:
            defects += 1
        elif line.get("match") is False:
            mismatched += 1
            kinds.update(dict.fromkeys(m["kind"] for m in line.get("mismatches", [])).keys())
        else:
            unchecked += 1
    return {
        "summary": {
            "games": len(games),
            "hands": hands,
            "wins": wins,
            "matched": matched,
            "mismatched": mismatched,
            "unchecked": unchecked,
            "known_defects": defects,
            "skipped": skipped,
            "errors": errors,
            "win_results": win_results,
            "double_ron": double_ron,
            "pao": pao,
            "yakuman": yakuman,
            "exhaustive_draws": exhaustive,
            "abortive_draws": abortive,
            "mismatches": {k: kinds[k] for k in MISMATCH_KINDS if kinds[k]},
            "skipped_reasons": dict(sorted(reasons.items())),
            "distinct": {k: len(v) for k, v in distinct.items()},
        }
    }


def hand_key(line: Mapping[str, Any]) -> tuple[Any, ...]:
    """A hand's identity across copies of its game (the same game in several files or formats):
    its scores at the start, round, number, honba and score changes."""
    return (
        tuple(line.get("scores") or ()),
        line.get("round"),
        line.get("number"),
        line.get("honba"),
        tuple(line.get("deltas") or ()),
    )


# -- export ---------------------------------------------------------------------------------------

#: the columns of :func:`export_rows`, in order
COLUMNS = (
    "source", "game", "hand", "round", "number", "honba", "riichi_sticks", "dealer", "players", "kind",
    "draw_reason", "winners", "loser", "tsumo", "yaku", "han", "fu", "points", "limit", "pao",
    "delta_0", "delta_1", "delta_2", "delta_3", "score_0", "score_1", "score_2", "score_3", "match",
)  # fmt: skip


#: each column's type in parquet: ``int`` (nullable), ``str``, ``bool``, or a list per win
COLUMN_TYPES: dict[str, str] = {
    **dict.fromkeys(("source", "round", "kind", "draw_reason"), "str"),
    **dict.fromkeys(("game", "hand", "number", "honba", "riichi_sticks", "dealer", "players"), "int"),
    "loser": "int",
    **{f"{c}_{i}": "int" for c in ("delta", "score") for i in range(4)},
    **dict.fromkeys(("winners", "han", "fu", "points", "pao"), "ints"),
    "limit": "strs",
    "yaku": "yaku",
    "tsumo": "bool",
    "match": "bool",
}


def export_rows(lines: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One row per hand end of verified lines (skipped records left out).

    Per-win columns (``winners``, ``yaku``, ``han``, ``fu``, ``points``, ``limit``,
    ``pao``) are lists in payment order, one item per win, so that
    ``df.explode(["winners", "yaku", "han", "fu", "points", "limit", "pao"])``
    gives one row per win; ``loser`` is the discarder (``None`` for a tsumo or a
    draw); ``delta_i`` and ``score_i`` (points at the start of the hand) are
    ``None`` for a seat that does not play.
    """
    rows: list[dict[str, Any]] = []
    for line in lines:
        if "skipped" in line:
            continue
        results = line.get("results") or []
        deltas = list(line.get("deltas") or [])
        scores = list(line.get("scores") or [])
        loser = next((r["from"] for r in results if r["from"] is not None), None)
        row: dict[str, Any] = {
            "source": line["source"],
            "game": line["game"],
            "hand": line["hand"],
            "round": line["round"],
            "number": line["number"],
            "honba": line["honba"],
            "riichi_sticks": line.get("riichi_sticks"),
            "dealer": line.get("dealer"),
            "players": len(scores) or len(deltas) or None,
            "kind": line.get("kind"),
            "draw_reason": line.get("draw_reason"),
            "winners": [r["winner"] for r in results],
            "loser": loser,
            "tsumo": bool(results) and results[0]["from"] is None,
            "yaku": [[y["id"] for y in r["yaku"]] for r in results],
            "han": [r["han"] for r in results],
            "fu": [r["fu"] for r in results],
            "points": [r["points"] for r in results],
            "limit": [r["limit"] for r in results],
            "pao": [next((p["seat"] for p in r["pao"]), None) for r in results],
            "match": line.get("match"),
        }
        for i in range(4):
            row[f"delta_{i}"] = deltas[i] if i < len(deltas) else None
            row[f"score_{i}"] = scores[i] if i < len(scores) else None
        rows.append({k: row[k] for k in COLUMNS})
    return rows


def _csv_cell(value: object) -> object:
    """A value as a CSV cell: JSON's words for lists and booleans (``true``/``false``, as in the
    JSON Lines export; Python's ``True`` is no word of CSV readers), the rest as it is."""
    if isinstance(value, list | bool):
        return json.dumps(value, ensure_ascii=False)
    return value


def write_rows(rows: Sequence[Mapping[str, Any]], out: str) -> None:
    """Write rows to ``out`` by its suffix: ``.jsonl``, ``.csv`` (lists as JSON text, booleans
    ``true``/``false``) or ``.parquet`` (needs the optional extra ``analysis``: pandas and pyarrow)."""
    suffix = Path(out).suffix.lower()
    if suffix == ".jsonl":
        with open(out, "w", encoding="utf-8") as f:
            for row in rows:
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
    elif suffix == ".csv":
        import csv

        with open(out, "w", encoding="utf-8", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(COLUMNS))
            writer.writeheader()
            for row in rows:
                writer.writerow({k: _csv_cell(v) for k, v in row.items()})
    elif suffix == ".parquet":
        import importlib

        try:
            pd: Any = importlib.import_module("pandas")
        except ImportError as e:
            raise TenbouError(
                f"{out}: writing parquet needs the optional extra 'analysis': pip install 'tenbou[analysis]' "
                f"(pandas and pyarrow; {e})",
                "missing_extra",
            ) from None
        try:
            pa: Any = importlib.import_module("pyarrow")
            pq: Any = importlib.import_module("pyarrow.parquet")
        except ImportError as e:
            raise TenbouError(
                f"{out}: writing parquet needs pyarrow (the optional extra 'analysis'): {e}", "missing_extra"
            ) from None
        frame = pd.DataFrame(list(rows), columns=list(COLUMNS))
        # nullable scalars (a tsumo's loser, a seat that does not play: <NA>, never a float NaN),
        # and the per-win columns as typed lists in the file
        types = {"int": "Int64", "str": "string", "bool": "boolean"}
        arrow = {
            "int": pa.int64(), "str": pa.string(), "bool": pa.bool_(), "ints": pa.list_(pa.int64()),
            "strs": pa.list_(pa.string()), "yaku": pa.list_(pa.list_(pa.string())),
        }  # fmt: skip
        for name, kind in COLUMN_TYPES.items():
            if kind in types:
                frame[name] = frame[name].astype(types[kind])
        schema = pa.schema([(name, arrow[COLUMN_TYPES[name]]) for name in COLUMNS])
        # through a Python file: pyarrow opens a path itself, which fails on a name that is not
        # UTF-8 (a surrogate escape), where open() takes the name's bytes as they are
        with open(out, "wb") as f:
            pq.write_table(pa.Table.from_pandas(frame, schema=schema, preserve_index=False), f)
    else:
        raise TenbouError(f"{out}: the output must end in .parquet, .csv or .jsonl", "request")


# -- for people -----------------------------------------------------------------------------------


class Progress:
    """A progress bar on a stream (stderr): files done, hands and hands per second.
    On a terminal it redraws one line; elsewhere it prints a line now and then."""

    def __init__(self, stream: TextIO, enabled: bool = True) -> None:
        self.stream = stream
        self.enabled = enabled
        self.tty = stream.isatty()
        self.start = time.monotonic()
        self.last = 0.0

    def __call__(self, done: int, total: int, hands: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if done < total and now - self.last < (0.1 if self.tty else 5.0):
            return
        self.last = now
        rate = hands / max(now - self.start, 1e-9)
        width = 30
        filled = width * done // max(total, 1)
        bar = "#" * filled + "-" * (width - filled)
        text = f"[{bar}] {done}/{total} files  {hands:,} hands  {rate:,.0f} hands/s"
        if self.tty:
            self.stream.write("\r" + text + ("\n" if done >= total else ""))
        else:
            self.stream.write(text + "\n")
        self.stream.flush()


def format_mismatch(line: Mapping[str, Any]) -> str:
    """A hand's mismatches for people, then each request that reproduces them (once)."""
    where = f"{line['round']}{line['number']}-{line['honba']}"
    label = f"{line['source']} game {line['game']} hand {line['hand']} ({where})"
    out = []
    requests: dict[str, str] = {}
    replays: dict[tuple[str, ...], None] = {}
    for m in line.get("mismatches", []):
        out.append(f"MISMATCH {label}: {m['kind']}: {m['detail']}")
        if "replay" in m:  # (the end of a game: only a replay shows it, whatever request comes with it)
            replays.setdefault(tuple(m["replay"]), None)
            continue
        for command in ("score", "settle"):
            if command in m:
                requests.setdefault(json.dumps(m[command], ensure_ascii=False), command)
    for text, command in requests.items():
        out.append(f"  reproduce: echo '{text}' | tenbou {command} --json -")
    for replay in replays:
        out.append(f"  reproduce: tenbou replay HAND.jsonl with these {len(replay)} mjai lines:")
        out.extend(f"    {e}" for e in replay)
    return "\n".join(out)


def format_summary(summary: Mapping[str, Any], seconds: float | None = None) -> str:
    """The end summary for people."""
    s = summary["summary"]
    d = s.get("distinct", {})

    def apart(key: str) -> str:
        return f" ({d[key]:,} distinct)" if key in d and d[key] != s[key] else ""

    lines = [
        f"games {s['games']:,}, hands {s['hands']:,}{apart('hands')}, wins {s['wins']:,} "
        f"({s['win_results']:,} winners: {s['double_ron']} double ron{apart('double_ron')}, {s['pao']} pao"
        f"{apart('pao')}, {s['yakuman']} yakuman), "
        f"draws {s['exhaustive_draws']:,} exhaustive, {s['abortive_draws']:,} abortive",
        f"matched {s['matched']:,}, mismatched {s['mismatched']:,}"
        + (": " + ", ".join(f"{k} {v}" for k, v in s["mismatches"].items()) if s["mismatches"] else "")
        + (
            f"; unchecked {s['unchecked']:,} (no outcome to compare: the record gives neither deltas "
            "nor scores)"
            if s.get("unchecked")
            else ""
        )
        + (
            f"; known defects {s['known_defects']:,} (records that contradict themselves, as listed)"
            if s.get("known_defects")
            else ""
        ),
        f"skipped {s['skipped']:,}"
        + (
            ": " + ", ".join(f"{k} {v}" for k, v in s["skipped_reasons"].items())
            if s["skipped_reasons"]
            else ""
        )
        + (f"; {s['errors']:,} refused as bad input (exit status 2)" if s.get("errors") else ""),
    ]
    if seconds is not None and seconds > 0:
        lines.append(
            f"{seconds:.1f} s, {s['hands'] / seconds:,.0f} hands/s, {s['games'] / seconds:,.1f} games/s"
        )
    return "\n".join(lines)
