"""A game record in tenbou's terms, whatever file it came from.

Every reader of :mod:`tenbou.io` (Tenhou mjlog, tenhou.net/6 JSON, mjai JSON
Lines) turns a file into :class:`GameRecord` values: the game's mjai
:mod:`~tenbou.engine.events` (which the engine replays), the rules to play them with
(a JSON rules value, ``"tenhou"`` or ``{"preset": ..., "overrides": ...}``),
and what the record itself says about the end of every hand
(:class:`HandEnd`: who won, the yaku, han, fu, points and limit it wrote, pao,
the per-seat score changes, the draw's reason and tenpai seats, and where the
format states them the winner's tiles and melds, the indicators, the honba and
sticks, the scores), so that :mod:`tenbou.verify` can compare every fact the
record states with the engine's own state, and :mod:`tenbou.verify.convert`
can write any format from any other.

A record under rules tenbou does not model keeps its events but carries
``skip``, the reason it is not replayed.

>>> win = WinRecord(winner=1, from_seat=3, yaku={"riichi": 1, "dora": 1}, fu=40, points=2600)
>>> win.tsumo, win.han
(False, 2)
>>> end = HandEnd("win", wins=(win,), deltas=(0, 3600, 0, -2600))
>>> end.winners
(1,)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TypeAlias

from ..core.hand import Meld
from ..core.tiles import Tile
from ..engine.events import Event, ReachAccepted, StartKyoku
from ..rules import Rules, rules_from_request

__all__ = ["FORMATS", "HAND_END_KINDS", "JSON", "GameRecord", "HandEnd", "WinRecord", "final_results"]

#: A JSON value (the rules value of a record, its metadata).
JSON: TypeAlias = str | int | float | bool | list["JSON"] | dict[str, "JSON"] | None

#: the record formats tenbou reads and writes
FORMATS = ("mjlog", "tenhou6", "mjai")
#: how a hand can end in a record (``unfinished``: the record gives it no win and no draw;
#: ``chombo``: a player's chombo stopped it, the hand dealt again)
HAND_END_KINDS = ("win", "exhaustive_draw", "abortive_draw", "chombo", "unfinished")


@dataclass(frozen=True, slots=True)
class WinRecord:
    """One win as the record wrote it. ``from_seat`` is the discarder (the
    winner for a tsumo); ``yaku`` maps tenbou yaku ids to han (entries of 0 han
    left out; a yakuman counts 13 per yakuman); ``fu``, ``points`` (the hand's
    value without honba and sticks; for a tsumo, the sum of the payments) and
    ``limit`` (tenbou's names) are ``None`` where the record does not say.
    ``pao`` is the liable seat (``None``: no pao), meaningful only where
    ``pao_known``, and ``limit`` only where ``limit_known``; ``text`` is a
    tenhou.net/6 value text (``"30符4飜7700点"``) when the record had one;
    ``base_points`` the hand's base where known.

    What else a record states about the win, each ``None`` where it does not
    say: ``hand`` (the concealed tiles without the winning tile), ``melds`` (in
    call order), ``kita``, ``dora`` (the indicators shown), ``honba`` and
    ``riichi_sticks`` (as counted for this win: a double ron's second winner
    collects no sticks) and ``stated_han`` (han written apart from the yaku
    list, as in ``30符4飜``)."""

    winner: int
    from_seat: int
    yaku: Mapping[str, int] | None = None
    fu: int | None = None
    points: int | None = None
    limit: str | None = None
    pao: int | None = None
    pao_known: bool = False
    limit_known: bool = False
    deltas: tuple[int, ...] | None = None
    text: str | None = None
    base_points: int | None = None
    yakuman: tuple[str, ...] = ()
    hand: tuple[Tile, ...] | None = None
    melds: tuple[Meld, ...] | None = None
    kita: int | None = None
    dora: tuple[Tile, ...] | None = None
    honba: int | None = None
    riichi_sticks: int | None = None
    stated_han: int | None = None

    @property
    def tsumo(self) -> bool:
        return self.winner == self.from_seat

    @property
    def han(self) -> int | None:
        """The sum of the recorded han (``None`` without a yaku list)."""
        return None if self.yaku is None else sum(self.yaku.values())


@dataclass(frozen=True, slots=True)
class HandEnd:
    """How a hand ended according to the record: ``kind`` is ``win``,
    ``exhaustive_draw``, ``abortive_draw``, ``chombo`` (``offender``'s chombo stopped it) or
    ``unfinished`` (the record gives the hand neither a win nor a draw); ``reason`` the abortive draw's
    tenbou name (``kyuushu_kyuuhai``, ``suufon_renda``, ``suucha_riichi``,
    ``suukaikan``, ``sanchahou``) or ``nagashi_mangan``; ``tenpai`` the seats
    shown tenpai at an exhaustive draw where the record says; ``deltas`` the
    per-seat score changes of the hand (all wins added up).

    Where the format states them: ``shown`` the tiles each seat showed at a
    draw (seat -> concealed tiles), ``dora`` and ``ura`` the indicators the
    record lists for the hand (shown or not), ``honba`` and ``riichi_sticks`` on the table at a draw,
    ``scores_before`` every seat's points before the hand's payments (riichi
    sticks paid), ``scores_after`` every seat's points once the hand is over (mjai's
    ``scores`` of its last ``hora`` or its ``ryukyoku``: what a record that gives no
    ``deltas`` is checked by); ``defects`` are the facts the reader itself found the record
    to contradict (kind, detail), such as a tile id a seat does not hold."""

    kind: str
    wins: tuple[WinRecord, ...] = ()
    reason: str | None = None
    deltas: tuple[int, ...] | None = None
    tenpai: tuple[int, ...] | None = None
    shown: Mapping[int, tuple[Tile, ...]] | None = None
    dora: tuple[Tile, ...] | None = None
    ura: tuple[Tile, ...] | None = None
    honba: int | None = None
    riichi_sticks: int | None = None
    scores_before: tuple[int, ...] | None = None
    scores_after: tuple[int, ...] | None = None
    defects: tuple[tuple[str, str], ...] = ()
    offender: int | None = None

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(w.winner for w in self.wins)


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game of a record file.

    ``events`` run from ``start_game`` to ``end_game`` (the last only when the
    record is a whole game); ``hands`` has one :class:`HandEnd` per
    ``start_kyoku``, in order (``unfinished`` for a hand the record gives no
    end: a record cut short, or a defective one); ``rules`` is a JSON rules value; ``final_scores`` the
    points the record gives at the end (``owari``, ``sc``) where it has them;
    ``meta`` what else the record says (lobby text, title, GO type);
    ``warnings`` what a lenient read passed over."""

    source: str
    index: int
    format: str
    events: tuple[Event, ...]
    hands: tuple[HandEnd, ...]
    rules: JSON
    players: int = 4
    names: tuple[str, ...] = ()
    final_scores: tuple[int, ...] | None = None
    skip: str | None = None
    meta: Mapping[str, JSON] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()

    def get_rules(self) -> Rules:
        """The :class:`~tenbou.rules.Rules` of :attr:`rules`."""
        return rules_from_request(self.rules)

    @property
    def starts(self) -> list[StartKyoku]:
        """The ``start_kyoku`` of every hand, in order."""
        return [e for e in self.events if isinstance(e, StartKyoku)]

    def hand_events(self) -> list[list[Event]]:
        """The events of each hand: from its ``start_kyoku`` to the next one (the
        last hand's run to the end, ``end_game`` included)."""
        out: list[list[Event]] = []
        for ev in self.events:
            if isinstance(ev, StartKyoku):
                out.append([])
            if out:
                out[-1].append(ev)
        return out

    def riichi_deposits(self) -> list[int]:
        """How many riichi were accepted in each hand (their sticks leave the players' scores)."""
        return [sum(isinstance(e, ReachAccepted) for e in h) for h in self.hand_events()]


def final_results(rec: GameRecord) -> list[float]:
    """Each seat's final result with uma and oka, in thousands (Tenhou's ``owari`` and
    tenhou.net/6 ``sc``): the record's own where it gives them (``meta["final_results"]``),
    else from its final points under its rules."""
    own = rec.meta.get("final_results")
    if isinstance(own, list) and len(own) == rec.players and all(isinstance(v, (int, float)) for v in own):
        return [float(v) for v in own]  # type: ignore[arg-type]
    r = rules_from_request(rec.rules)
    n = rec.players
    points = list(rec.final_scores or ())
    ret = r.return_points if n == 4 else r.sanma_return_points
    start = r.start_points if n == 4 else r.sanma_start_points
    uma = r.uma if n == 4 else r.sanma_uma
    ranking = sorted(range(n), key=lambda s: (-points[s], s))
    out = [0.0] * n
    for rank, seat in enumerate(ranking):
        out[seat] = round(
            (points[seat] - ret) / 1000 + uma[rank] + ((ret - start) * n / 1000 if rank == 0 else 0), 1
        )
    return out
