"""The order of a tenhou.net/6 round's actions, rebuilt from the four seats' lists.

The record does not say in which order the four seats acted, so the reader replays the round,
seat by seat, deciding after each discard who takes it (a call that matches it, a pon before a
chi), and backtracks where two equal discards make that ambiguous.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from ...core.tiles import Tile, Wind
from ...engine.events import (
    Ankan,
    Chi,
    Dahai,
    Daiminkan,
    Dora,
    Event,
    Kakan,
    Nukidora,
    Pon,
    Reach,
    ReachAccepted,
    StartKyoku,
    Tsumo,
)
from ...errors import LogFormatError
from .codes import _deltas, _Discard, _discard, _Take, _take, tile_of_code
from .vocab import WIN_TEXT


class _DeadEndError(Exception):
    """This ordering of the round's actions does not work out."""


class _Round:
    """Rebuilds the order of a round's actions from the four seats' lists."""

    def __init__(self, kyoku: Sequence[Any], players: int, where: str) -> None:
        self.where = where
        if not isinstance(kyoku, list) or len(kyoku) < 5 + 3 * players:
            raise LogFormatError(f"{where}: a round is a list of 17 items, not {str(kyoku)[:60]}")
        meta = kyoku[0]
        if not isinstance(meta, list) or len(meta) < 3 or any(type(v) is not int for v in meta[:3]):
            raise LogFormatError(f"{where}: [round, honba, sticks] expected, not {meta!r}")
        self.index, self.honba, self.sticks = meta[:3]
        if not 0 <= self.index < 16 or self.honba < 0 or self.sticks < 0:
            raise LogFormatError(
                f"{where}: [round, honba, sticks] = {meta[:3]!r}: a round 0..15 (East 1 to North 4), "
                "and counts that are not negative, expected"
            )
        self.players = players
        self.scores = _deltas(kyoku[1], players, f"{where} scores")
        for name, value in (("dora", kyoku[2]), ("ura", kyoku[3])):
            if not isinstance(value, list):
                raise LogFormatError(f"{where}: the {name} indicators must be a list, not {str(value)[:60]}")
        if not kyoku[2]:  # (an empty ura list is a hand with no ura shown: read as such)
            raise LogFormatError(
                f"{where}: the dora indicators are an empty list: every hand shows its first "
                "indicator from the start, and the hand's dora cannot be counted without it"
            )
        self.dora = [tile_of_code(c, f"{where} dora") for c in kyoku[2]]
        self.ura = [tile_of_code(c, f"{where} ura") for c in kyoku[3]]
        self.hands: list[list[Tile]] = []
        self.takes: list[list[_Take]] = []
        self.discards: list[list[_Discard]] = []
        for seat in range(players):
            hai, takes, discards = kyoku[4 + 3 * seat : 7 + 3 * seat]
            w = f"{where} seat {seat}"
            if not isinstance(hai, list) or len(hai) != 13:
                raise LogFormatError(f"{w}: a starting hand of 13 tiles expected, not {hai!r}")
            if not isinstance(takes, list) or not isinstance(discards, list):
                raise LogFormatError(f"{w}: takes and discards must be lists")
            self.hands.append([tile_of_code(c, w) for c in hai])
            self.takes.append([_take(t, seat, players, w) for t in takes])
            self.discards.append([_discard(d, w) for d in discards])
        self.result = kyoku[-1]  # after the four seats (the fourth empty with three players)
        if not isinstance(self.result, list) or not self.result or not isinstance(self.result[0], str):
            raise LogFormatError(
                f"{where}: the result must be a list starting with its text, not {self.result!r}"
            )
        self.oya = self.index % 4
        if self.oya >= players:
            raise LogFormatError(f"{where}: round {self.index} has dealer seat {self.oya}")

    def start(self) -> StartKyoku:
        return StartKyoku(
            bakaze=Wind.of_index(self.index // 4),
            dora_marker=self.dora[0],
            kyoku=self.index % 4 + 1,
            honba=self.honba,
            kyotaku=self.sticks,
            oya=self.oya,
            scores=self.scores,
            tehais=tuple(tuple(h) for h in self.hands),
        )

    def events(self) -> list[Event]:
        """The round's events, the first ordering that works out (odometer backtracking)."""
        choices: list[int] = []
        first: Exception | None = None
        for _ in range(4096):
            counts: list[int] = []
            try:
                return _Attempt(self, choices, counts).run()
            except (_DeadEndError, LogFormatError) as e:
                first = first or e
                while counts and len(choices) <= len(counts):
                    choices.append(0)
                # advance the last choice point that has another branch
                while choices:
                    k = len(choices) - 1
                    if k < len(counts) and choices[k] + 1 < counts[k]:
                        choices[k] += 1
                        break
                    choices.pop()
                else:
                    break
        raise LogFormatError(
            f"{self.where}: the seats' actions cannot be put in an order that works: {first}"
        )


#: what a step of an attempt leads to: the round ends, the same seat goes on (a kan's replacement
#: draw), or the discard goes to whoever takes it
_END, _AGAIN, _ON = 0, 1, 2


class _Attempt:
    """One try at an order of a round's actions: the seats' hands and their places in their lists
    of takes and discards, the events so far, the seat to act. Where two seats may take a discard,
    the ``choices`` made so far decide (the first branch past them), and ``counts`` gets how many
    branches each such point has."""

    def __init__(self, rnd: _Round, choices: list[int], counts: list[int]) -> None:
        self.rnd = rnd
        self.n = rnd.players
        self.choices = choices
        self.counts = counts
        self.hands = [Counter(h) for h in rnd.hands]
        self.ti = [0] * self.n
        self.di = [0] * self.n
        self.dora = iter(rnd.dora[1:])
        self.out: list[Event] = [rnd.start()]
        self.actor = rnd.oya
        self.pending_dora = 0
        self.last: tuple[int, Tile] | None = None
        self.drawn: Tile | None = None

    def run(self) -> list[Event]:
        while True:
            step = self.take()
            if step == _ON:
                step = self.discard()
            if step == _END:
                return self.done()
            if step == _ON:
                self.pass_turn()

    def need(self, seat: int, tiles: Sequence[Tile]) -> None:
        hand = self.hands[seat]
        for t in tiles:
            if hand[t] <= 0:
                raise _DeadEndError(f"seat {seat} does not hold {t}")
            hand[t] -= 1

    def reveal(self) -> None:
        marker = next(self.dora, None)
        if marker is not None:
            self.out.append(Dora(marker))

    def all_taken(self) -> bool:
        return all(self.ti[s] >= len(self.rnd.takes[s]) for s in range(self.n))

    def done(self) -> list[Event]:
        if all(self.di[s] >= len(self.rnd.discards[s]) for s in range(self.n)):
            return self.out
        raise _DeadEndError("the round ends with discards left")

    def take(self) -> int:
        """The actor takes: a draw, or a call of the last discard."""
        actor = self.actor
        takes = self.rnd.takes[actor]
        if self.ti[actor] >= len(takes):
            if self.all_taken():
                return _END
            raise _DeadEndError(f"seat {actor} has no take left")
        take = takes[self.ti[actor]]
        self.ti[actor] += 1
        if take.kind == "draw":
            if self.last is not None and actor != (self.last[0] + 1) % self.n:
                raise _DeadEndError("a draw out of turn")
            self.out.append(Tsumo(actor, take.tile))
            self.hands[actor][take.tile] += 1
            self.drawn = take.tile
            for _ in range(self.pending_dora):
                self.reveal()
            self.pending_dora = 0
        else:
            if self.last is None or self.last != (take.target, take.tile):
                raise _DeadEndError(f"seat {actor}'s {take.kind} of {take.tile} matches no discard")
            self.need(actor, take.consumed)
            if take.kind == "chi":
                self.out.append(Chi(actor, take.target, take.tile, take.consumed))
            elif take.kind == "pon":
                self.out.append(Pon(actor, take.target, take.tile, take.consumed))
            else:
                self.out.append(Daiminkan(actor, take.target, take.tile, take.consumed))
            self.drawn = None
            if take.kind == "daiminkan":
                discards = self.rnd.discards[actor]
                if self.di[actor] < len(discards) and discards[self.di[actor]].kind == "skip":
                    self.di[actor] += 1
                self.pending_dora += 1
                self.last = None
                return _AGAIN
        self.last = None
        return _ON

    def discard(self) -> int:
        """The actor's discard, kan or kita (or the round ends here: tsumo, nine terminals)."""
        actor = self.actor
        discards = self.rnd.discards[actor]
        if self.di[actor] >= len(discards):
            if self.all_taken():
                return _END
            raise _DeadEndError(f"seat {actor} has no discard left")
        d = discards[self.di[actor]]
        self.di[actor] += 1
        if d.kind in ("ankan", "kakan", "kita"):
            if d.kind == "ankan":
                self.need(actor, d.consumed)
                self.out.append(Ankan(actor, d.consumed))
                self.reveal()
            else:
                assert d.tile is not None
                self.need(actor, [d.tile])
                if d.kind == "kakan":
                    self.out.append(Kakan(actor, d.tile, d.consumed))
                    self.pending_dora += 1
                else:
                    self.out.append(Nukidora(actor, d.tile))
            self.drawn = None
            if self.all_taken():  # robbed (chankan), or the round ends on it
                return _END
            return _AGAIN  # the same seat draws its replacement
        if d.kind == "skip":
            raise _DeadEndError("a 0 in a discard list that follows no daiminkan")
        tile = d.tile
        if d.tsumogiri:
            if self.drawn is None:
                raise _DeadEndError(f"seat {actor} discards the drawn tile without having drawn")
            tile = self.drawn
        assert tile is not None
        if d.kind == "reach":
            self.out.append(Reach(actor))
        self.need(actor, [tile])
        self.out.append(Dahai(actor, tile, d.tsumogiri))
        self.last = (actor, tile)
        self.drawn = None
        if self.all_taken():
            if d.kind == "reach" and self.rnd.result[0] != WIN_TEXT:
                self.out.append(ReachAccepted(actor))
            return _END
        if d.kind == "reach":
            self.out.append(ReachAccepted(actor))
        return _ON

    def pass_turn(self) -> None:
        """Who takes the last discard: a call that matches it (pon/kan before chi), or the next
        seat; where more than one may, the choice made for this point."""
        actor, last = self.actor, self.last
        takes = self.rnd.takes
        callers = []
        for s in range(self.n):
            if s == actor or self.ti[s] >= len(takes[s]):
                continue
            nxt = takes[s][self.ti[s]]
            if nxt.kind != "draw" and (nxt.target, nxt.tile) == last:
                callers.append((0 if nxt.kind == "chi" else 1, s))
        callers.sort(reverse=True)
        options = list(dict.fromkeys([s for _, s in callers] + [(actor + 1) % self.n]))
        if len(options) > 1:
            k = len(self.counts)
            self.counts.append(len(options))
            self.actor = options[self.choices[k] if k < len(self.choices) else 0]
        else:
            self.actor = options[0]
