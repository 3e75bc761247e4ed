"""One record replayed and compared: every hand played through the game engine and its end
compared with what the record says.

:func:`verify_record` replays one :class:`~tenbou.io.record.GameRecord`
through :class:`tenbou.engine.game.Game` and compares every hand end with the record
(:mod:`tenbou.verify.compare`): the kind of end, the winners, each win's yaku, han, fu, points and
pao, the per-seat score changes, the abortive draw's reason, the tenpai seats of an exhaustive
draw; and here, the record's own continuity: the next hand's dealer, honba and sticks, where the
game ends, and the final scores. It returns the JSON lines of ``docs/json-api.md``
("Replaying records"): one object per hand end, ``match`` telling whether
tenbou agrees with the record on all of it, and each difference under
``mismatches`` with a ready ``tenbou score`` / ``tenbou settle`` request that
reproduces it. A record under rules tenbou does not model gives one
``{"source", "skipped"}`` line instead.

Files and folders, over processes or a Dask cluster, are :mod:`tenbou.verify.run`'s; the closing
summary :mod:`tenbou.verify.summaries`'s; the table of hands :mod:`tenbou.verify.export`'s.

>>> from tenbou.io.read import parse_records
>>> from tenbou.engine.table import play_game
>>> from tenbou.rules import get_rules
>>> from tenbou.engine.events import events_to_lines
>>> text = "\\n".join(events_to_lines(play_game(get_rules("tenhou"), seed=3, length="tonpuu")))
>>> lines = verify_record(parse_records(text.encode(), "self.jsonl")[0])
>>> sum(line["match"] is False for line in lines), all(line["match"] for line in lines)
(0, True)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..engine.events import (
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
from ..io.record import GameRecord, HandEnd
from ..settle.payment import PaymentKind
from .compare import Conventions, _after_deposits, _score_request, compare_hand, settled

__all__ = ["NO_OUTCOME", "verify_record"]

#: why a hand line has no ``match``: the record gives its end neither deltas nor scores
NO_OUTCOME = "no outcome to compare: the record gives the hand's end neither deltas nor scores"


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
        st = settled(hr)
        if hr.kind == "abortive_draw" and st.reason:
            line["draw_reason"] = st.reason
        elif hr.kind == "exhaustive_draw" and any(p.kind is PaymentKind.NAGASHI for p in st.payments):
            line["draw_reason"] = "nagashi_mangan"
        end = self.rec.hands[hand] if hand < len(self.rec.hands) else None
        request: dict[str, Any] | None
        if hr.request is not None:
            request = {"rules": self.rules_json, **hr.request}
            # the engine names the liable seats it tracked; an empty list is left to inference
            request["wins"] = [{k: v for k, v in w.items() if k != "pao" or v} for w in request["wins"]]
        elif hr.kind == "chombo":  # no settle request pays a chombo (the line names its offender)
            request = None
        else:
            request = self._draw_request(rnd, hr)
        line["_request"] = request
        if request is not None:
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
        st = settled(hr)
        if hr.kind == "exhaustive_draw":
            nagashi = sorted({p.receiver for p in st.payments if p.kind is PaymentKind.NAGASHI})
            draw["tenpai"] = [s for s in range(rnd.players) if rnd.is_tenpai(s)]
            draw["nagashi"] = nagashi
        elif st.reason:
            draw["reason"] = st.reason
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
            (request or {}).get("draw"),
            line.get("recorded_deltas"),
        )
        wins = {w["winner"]: w for w in (hr.request or {}).get("wins", [])}
        for kind, detail, winner in facts:
            if request is None:  # a chombo: its replay reproduces it
                self._add(line, kind, detail, None, "settle", replay=self._replay_lines(seg))
            elif winner is None:
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
