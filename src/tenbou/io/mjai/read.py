"""Reading mjai JSON Lines records (Mortal, mjai-reviewer, tenbou's self-play) as games.

An mjai record is one event per line, ``start_game`` to ``end_game``, possibly
several games in one file. mjai has no rules field: ``start_game`` may carry
``aka_flag`` (red fives) and ``kyoku_first`` (4 for an East-only game), as
mjai-reviewer writes them, and tenbou adds ``tenbou_rules`` (a JSON rules
value) when it writes a record; without them the rules are ``tenhou`` (or the
``rules`` given to :func:`mjai_records`). A record's ``tenbou_rules`` win over those
``rules``, and are kept in its ``meta["tenbou_rules"]`` (so that a caller can say when its own
were not used). What the record says about each hand end is in the ``deltas`` of ``hora``
and ``ryukyoku``; a ``ryukyoku`` of reason ``chombo`` names the seat whose chombo stopped the
hand (``actor``), as ``tenbou match`` writes it.

>>> lines = [
...     '{"type":"start_game","names":["a","b","c","d"],"aka_flag":false}',
...     '{"type":"end_game"}',
... ]
>>> rec = mjai_records("\\n".join(lines), "x.jsonl")[0]
>>> rec.rules, rec.names
({'preset': 'tenhou', 'overrides': {'red_fives': 0}}, ('a', 'b', 'c', 'd'))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..._jsonread import read_json as _read_json
from ...core.tiles import Tile
from ...engine.events import (
    DRAW_OF_MJAI,
    Ankan,
    Chi,
    Daiminkan,
    EndGame,
    EndKyoku,
    Event,
    Hora,
    Kakan,
    Pon,
    ReachAccepted,
    Ryukyoku,
    StartGame,
    StartKyoku,
    event_from_json,
    event_to_json,
    tile_from_mjai,
)
from ...errors import LogFormatError
from ...rules import DRAW_REASONS
from ..record import JSON, GameRecord, HandEnd, WinRecord

__all__ = ["mjai_records", "read_json"]

#: how many tiles a call takes from the caller's hand
_CONSUMED = {Chi: 2, Pon: 2, Daiminkan: 3, Kakan: 3, Ankan: 4}
#: events that belong inside a hand (everything but start_game, start_kyoku, end_game)
_GAME_LEVEL = (StartGame, StartKyoku, EndGame)


def read_json(text: str, where: str) -> Any:
    """One JSON value of a record, read strictly (:func:`tenbou._jsonread.read_json`: no key
    twice, no ``NaN``, bounded integers and nesting); anything else raises
    :class:`~tenbou.errors.LogFormatError` naming ``where``."""
    return _read_json(text, LogFormatError, where)


def _named_rules(start: dict[str, Any]) -> JSON:
    """The rules ``start_game`` names in full (``tenbou_rules``), or ``None``."""
    rules = start.get("tenbou_rules")
    return rules if isinstance(rules, (str, dict)) else None


def _rules(start: dict[str, Any], default: JSON) -> JSON:
    """The rules of a game: those its ``start_game`` names, else ``default`` with what
    ``aka_flag`` and ``kyoku_first`` say on top."""
    rules = _named_rules(start)
    if rules is not None:
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


def _check(ev: Event, players: int, where: str) -> None:
    """Refuse a field out of range for a game of ``players``: seats, list lengths, counts."""

    def seat(name: str, value: int) -> None:
        if not 0 <= value < players:
            raise LogFormatError(f"{where}: {name} {value} is not a seat 0..{players - 1}")

    def length(name: str, value: Sequence[object] | None, n: int) -> None:
        if value is not None and len(value) != n:
            raise LogFormatError(f"{where}: {name} holds {len(value)} values, not one per seat ({n})")

    if isinstance(ev, StartKyoku):
        for i, hand in enumerate(ev.tehais):
            if len(hand) != 13:
                raise LogFormatError(f"{where}: tehais[{i}] holds {len(hand)} tiles, not 13")
        length("scores", ev.scores, players)
        seat("oya", ev.oya)
        if not 1 <= ev.kyoku <= players:
            raise LogFormatError(f"{where}: kyoku {ev.kyoku} is not a hand number 1..{players}")
        if ev.honba < 0 or ev.kyotaku < 0:
            raise LogFormatError(f"{where}: honba {ev.honba} and kyotaku {ev.kyotaku} cannot be negative")
        return
    actor = getattr(ev, "actor", None)
    if actor is not None:
        seat("actor", actor)
    target = getattr(ev, "target", None)
    if target is not None:
        seat("target", target)
    need = _CONSUMED.get(type(ev))
    consumed = getattr(ev, "consumed", ())
    if need is not None and len(consumed) != need:
        raise LogFormatError(f"{where}: consumed holds {len(consumed)} tiles, not {need}")
    if isinstance(ev, (ReachAccepted, Hora, Ryukyoku, EndGame)):
        length("scores", ev.scores, players)
    if isinstance(ev, (ReachAccepted, Hora, Ryukyoku)):
        length("deltas", ev.deltas, players)
    if isinstance(ev, Ryukyoku):
        length("tenpais", ev.tenpais, players)
    if isinstance(ev, Hora) and ev.ura_markers is not None and len(ev.ura_markers) > 5:
        raise LogFormatError(f"{where}: {len(ev.ura_markers)} ura_markers (a hand shows at most 5)")


@dataclass(frozen=True, slots=True)
class _HoraFacts:
    """What a ``hora`` line states beyond the event the engine plays: the liable seat
    (``pao``: the original mjai server, jansou), the han (``fan``), fu and points
    (``hora_points``) and the winner's concealed tiles (``hora_tehais``) of the original
    server's and akochan's logs."""

    pao: int | None = None
    han: int | None = None
    fu: int | None = None
    points: int | None = None
    hand: tuple[Tile, ...] | None = None


#: the lines the reader looks at before or after their event: those whose fields a dialect may
#: leave out or add (start_kyoku's scores and kyotaku, ryukyoku's tenpai flags, hora's facts
#: beyond its event) and those that open and close a game
_START_GAME, _START_KYOKU, _RYUKYOKU, _HORA, _END_GAME = 1, 2, 3, 4, 5
_LINE_KINDS = {
    "start_game": _START_GAME, "start_kyoku": _START_KYOKU, "ryukyoku": _RYUKYOKU, "hora": _HORA,
    "end_game": _END_GAME,
}  # fmt: skip
#: the han the original mjai server writes for a yakuman (``Hora::YAKUMAN_FAN``)
_YAKUMAN_FAN = 100


def _count(obj: Mapping[str, Any], key: str, where: str) -> int | None:
    value = obj.get(key)
    if value is None:
        return None
    if type(value) is not int or value < 0:
        raise LogFormatError(f"{where}: hora.{key} must be a count (an integer from 0), not {value!r}")
    return value


def _hora_facts(obj: Mapping[str, Any], ev: Hora, players: int, where: str) -> _HoraFacts | None:
    """The facts of a ``hora`` line other than its event's fields, each checked where read;
    ``None`` when it states none (Mortal's and tenbou's own form)."""
    if not any(k in obj for k in ("pao", "fan", "fu", "hora_points", "hora_tehais")):
        return None
    pao = obj.get("pao")
    if pao is not None and (type(pao) is not int or not 0 <= pao < players):
        raise LogFormatError(f"{where}: hora.pao {pao!r} is not a seat 0..{players - 1}")
    han = _count(obj, "fan", where)
    fu = _count(obj, "fu", where)
    if fu is not None and fu % 10 and fu != 25:
        fu = -(-fu // 10) * 10  # akochan writes the fu before they are rounded up (38 for 40)
    hand = None
    raw = obj.get("hora_tehais")
    if raw is not None:
        if not isinstance(raw, list):
            raise LogFormatError(f"{where}: hora.hora_tehais: expected a list of tiles, not {raw!r}")
        tiles = [tile_from_mjai(t, f"{where}: hora.hora_tehais") for t in raw]
        if len(tiles) % 3 == 2 and ev.pai is not None:
            # the original server writes the winner's tiles with the tile drawn (a tsumo), Tenhou's
            # converter and akochan without the winning tile: the reading is the same either way
            if ev.pai not in tiles:
                raise LogFormatError(
                    f"{where}: hora.hora_tehais holds {len(tiles)} tiles, and not the winning tile {ev.pai}"
                )
            tiles.remove(ev.pai)
        if len(tiles) % 3 == 1:
            hand = tuple(tiles)
        elif ev.pai is not None or len(tiles) % 3 == 0:
            raise LogFormatError(f"{where}: hora.hora_tehais holds {len(tiles)} tiles, not a winning hand's")
    if han is not None and han >= _YAKUMAN_FAN:
        han = fu = None  # a yakuman: its value is in hora_points
    return _HoraFacts(pao, han, fu, _count(obj, "hora_points", where), hand)


class _Game:
    """The events of one game as they are read, checked line by line."""

    def __init__(self, start: dict[str, Any], default: JSON) -> None:
        self.start = start
        self.default = default
        self.events: list[Event] = []
        self.players: int | None = None
        self.in_hand = False
        #: what each hora line states beyond its event, by the event's index
        self.facts: dict[int, _HoraFacts] = {}
        #: the game's end_game has been read (a line after it starts another game)
        self.over = False

    def rules(self) -> JSON:
        return _rules(self.start, self.default)

    def fill_start(self, obj: dict[str, Any], where: str) -> dict[str, Any]:
        """A ``start_kyoku`` without ``scores`` or ``kyotaku`` (the original mjai server
        writes no scores, its Tenhou converter neither): the values the record implies.
        The first hand starts with the rules' start points and no sticks; every other
        hand with the scores the hand before ends with (its last ``hora`` or its
        ``ryukyoku``, or its start and changes) and the sticks left on the table."""
        from ...rules import rules_from_request

        tehais = obj.get("tehais")
        players = len(tehais) if isinstance(tehais, list) and len(tehais) in (3, 4) else self.players or 4
        prev = next(
            (i for i in range(len(self.events) - 1, -1, -1) if isinstance(self.events[i], StartKyoku)), None
        )
        filled = dict(obj)
        if prev is None:
            if "scores" not in obj:
                rules = rules_from_request(self.rules())
                points = rules.start_points if players == 4 else rules.sanma_start_points
                filled["scores"] = [points] * players
            filled.setdefault("kyotaku", 0)
            return filled
        start = self.events[prev]
        assert isinstance(start, StartKyoku)
        hand = self.events[prev + 1 :]
        if "kyotaku" not in obj:
            won = any(isinstance(e, Hora) for e in hand)
            filled["kyotaku"] = 0 if won else start.kyotaku + sum(isinstance(e, ReachAccepted) for e in hand)
        if "scores" not in obj:
            scores = _scores_after(start, hand, lambda: rules_from_request(self.rules()).riichi_stick_points)
            if scores is None:
                raise LogFormatError(
                    f"{where}: start_kyoku: missing 'scores', and the hand before does not end with them "
                    "(its hora or ryukyoku gives neither scores nor deltas)"
                )
            filled["scores"] = scores
        return filled

    def add(self, ev: Event, where: str) -> None:
        if isinstance(ev, StartKyoku):
            dealt = len(ev.tehais)
            if dealt not in (3, 4) or (self.players is not None and dealt != self.players):
                want = "3 or 4" if self.players is None else str(self.players)
                raise LogFormatError(f"{where}: start_kyoku deals {dealt} hands, not {want}")
            self.players = dealt
            self.in_hand = True
        elif not isinstance(ev, _GAME_LEVEL) and not self.in_hand:
            name = event_to_json(ev)["type"]
            raise LogFormatError(f"{where}: {name} comes before the game's first start_kyoku")
        if self.players is not None:
            _check(ev, self.players, where)
        elif isinstance(ev, EndGame) and ev.scores is not None and len(ev.scores) not in (3, 4):
            raise LogFormatError(f"{where}: end_game scores hold {len(ev.scores)} values, not 3 or 4")
        self.events.append(ev)

    def add_facts(self, obj: Mapping[str, Any], where: str) -> None:
        """What the ``hora`` line just added states beyond its event."""
        ev = self.events[-1]
        assert isinstance(ev, Hora) and self.players is not None
        facts = _hora_facts(obj, ev, self.players, where)
        if facts is not None:
            self.facts[len(self.events) - 1] = facts


def _scores_after(start: StartKyoku, hand: Sequence[Event], stick: Callable[[], int]) -> list[int] | None:
    """Every seat's points at the end of a hand by the record's own account: the last
    ``scores`` it states, with the ``deltas`` (or the riichi stick) of what follows;
    ``None`` where a win or draw states neither (or the hand has no end)."""
    scores = list(start.scores)
    ended = False
    for ev in hand:
        if isinstance(ev, (ReachAccepted, Hora, Ryukyoku)):
            if ev.scores is not None:
                scores = list(ev.scores)
            elif ev.deltas is not None:
                scores = [s + d for s, d in zip(scores, ev.deltas, strict=False)]
            elif isinstance(ev, ReachAccepted):
                scores[ev.actor] -= stick()
            else:
                return None
            ended = ended or not isinstance(ev, ReachAccepted)
    return scores if ended else None


def _tenpai_flags(obj: dict[str, Any]) -> dict[str, Any]:
    """jansou's ``ryukyoku``: the tenpai seats as ``tehais`` (``[]`` a tenpai seat,
    ``null`` a noten one) where mjai has ``tenpais``."""
    tehais = obj.get("tehais")
    if isinstance(tehais, list) and tehais and all(h is None or h == [] for h in tehais):
        return {**obj, "tenpais": [h is not None for h in tehais]}
    return obj


def _hands(events: Sequence[Event], players: int, facts: Mapping[int, _HoraFacts]) -> list[HandEnd]:
    """One hand end per ``start_kyoku``: its wins (``hora``), its draw (``ryukyoku``),
    or ``unfinished`` where the record gives it neither."""
    out: list[HandEnd] = []
    current: list[Event] | None = None
    first = 0  # the index of the hand's first event after its start_kyoku
    for i, ev in enumerate((*events, None)):
        if ev is None or isinstance(ev, StartKyoku):
            if current is not None:
                out.append(_hand_end(current, first, players, facts))
            current = []
            first = i + 1
        elif current is not None:
            current.append(ev)
    return out


def _win(ev: Hora, facts: _HoraFacts | None) -> WinRecord:
    if facts is None:
        return WinRecord(winner=ev.actor, from_seat=ev.target, deltas=ev.deltas)
    return WinRecord(
        winner=ev.actor,
        from_seat=ev.target,
        deltas=ev.deltas,
        fu=facts.fu,
        points=facts.points,
        pao=facts.pao,
        pao_known=facts.pao is not None,
        hand=facts.hand,
        stated_han=facts.han,
    )


def _hand_end(events: Sequence[Event], first: int, players: int, facts: Mapping[int, _HoraFacts]) -> HandEnd:
    """The hand end of a hand's events (``first``: the index of the first in the game's events). A
    ``daiminkan`` followed by ``end_kyoku`` is a win of the caller on the discard: under
    ``suukantsu_pao_timing = "fourth_kan"`` the fourth kan's suukantsu, dealt in (the engine judges
    whether it is one; the record states no more of it)."""
    wins: list[WinRecord] = []
    scores: tuple[int, ...] | None = None
    for j, ev in enumerate(events):
        if isinstance(ev, EndKyoku) and not wins and j and isinstance(events[j - 1], Daiminkan):
            kan = events[j - 1]
            assert isinstance(kan, Daiminkan)
            return HandEnd("win", (WinRecord(winner=kan.actor, from_seat=kan.target),))
        if isinstance(ev, Hora):
            wins.append(_win(ev, facts.get(first + j)))
            scores = ev.scores
        elif isinstance(ev, Ryukyoku) and not wins and ev.reason == "chombo":
            return HandEnd("chombo", deltas=ev.deltas, scores_after=ev.scores, offender=ev.actor)
        elif isinstance(ev, Ryukyoku) and not wins:
            name = DRAW_OF_MJAI.get(ev.reason or "")
            kind = "abortive_draw" if name in DRAW_REASONS else "exhaustive_draw"
            tenpai = None if ev.tenpais is None else tuple(i for i, t in enumerate(ev.tenpais) if t)
            return HandEnd(
                kind,
                (),
                name,
                ev.deltas,
                tenpai if kind == "exhaustive_draw" else None,
                scores_after=ev.scores,
            )
        elif isinstance(ev, EndKyoku) and wins:
            break
    if not wins:
        return HandEnd("unfinished")
    deltas = None
    if all(w.deltas is not None for w in wins):
        deltas = tuple(sum(w.deltas[i] for w in wins if w.deltas) for i in range(players))
    return HandEnd("win", tuple(wins), None, deltas, scores_after=scores)


def mjai_records(text: str, source: str = "<mjai>", rules: JSON = "tenhou") -> list[GameRecord]:
    """The games of mjai JSON Lines (split at ``start_game`` / ``end_game``).
    Anything malformed raises :class:`~tenbou.errors.LogFormatError` naming the
    line and the field: a line that is not an mjai event, a seat, count or list
    out of range for the game's players, an event of a hand before the first
    ``start_kyoku``. Whether the events can happen is the engine's to judge."""
    games: list[_Game] = []
    game: _Game | None = None
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = f"{source}:{n}"
        obj = read_json(line, where)
        kind = obj.get("type") if type(obj) is dict else None
        # the lines a dialect may write otherwise, and those that open or close a game; most lines
        # (draws, discards, calls) are neither (not a string: not an event, event_from_json says why)
        line_kind = _LINE_KINDS.get(kind, 0) if type(kind) is str else 0
        if game is None or game.over or line_kind == _START_GAME:
            game = _Game(obj if line_kind == _START_GAME else {}, rules)
            games.append(game)
        if line_kind == _START_KYOKU and ("scores" not in obj or "kyotaku" not in obj):
            obj = game.fill_start(obj, where)
        elif line_kind == _RYUKYOKU and "tenpais" not in obj and "tehais" in obj:
            obj = _tenpai_flags(obj)
        try:
            ev = event_from_json(obj)
        except LogFormatError as e:
            raise LogFormatError(f"{where}: {e}") from None
        game.add(ev, where)
        if line_kind:
            if line_kind == _HORA:
                game.add_facts(obj, where)
            elif line_kind == _END_GAME:
                game.over = True
    if not games:
        raise LogFormatError(f"{source}: no mjai event")
    out = []
    for index, game in enumerate(games):
        events = game.events
        facts = game.facts
        if not isinstance(events[0], StartGame):
            events.insert(0, StartGame())
            facts = {i + 1: f for i, f in facts.items()}
        players = game.players or 4
        end = events[-1]
        final = end.scores if isinstance(end, EndGame) and end.scores is not None else None
        names = events[0].names if isinstance(events[0], StartGame) else ()
        named = _named_rules(game.start)
        out.append(
            GameRecord(
                source=source,
                index=index,
                format="mjai",
                events=tuple(events),
                hands=tuple(_hands(events, players, facts)),
                rules=game.rules(),
                players=players,
                names=tuple(names),
                final_scores=tuple(final) if final is not None else None,
                # the rules the record names itself, which win over the caller's ``rules``
                meta={} if named is None else {"tenbou_rules": named},
            )
        )
    return out
