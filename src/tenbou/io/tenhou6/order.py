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
                return self._attempt(choices, counts)
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

    def _attempt(self, choices: list[int], counts: list[int]) -> list[Event]:
        n = self.players
        hands = [Counter(h) for h in self.hands]
        ti = [0] * n
        di = [0] * n
        dora = iter(self.dora[1:])
        out: list[Event] = [self.start()]
        actor = self.oya
        pending_dora = 0
        last: tuple[int, Tile] | None = None
        drawn: Tile | None = None

        def need(seat: int, tiles: Sequence[Tile]) -> None:
            for t in tiles:
                if hands[seat][t] <= 0:
                    raise _DeadEndError(f"seat {seat} does not hold {t}")
                hands[seat][t] -= 1

        def reveal() -> None:
            marker = next(dora, None)
            if marker is not None:
                out.append(Dora(marker))

        def all_taken() -> bool:
            return all(ti[s] >= len(self.takes[s]) for s in range(n))

        def done() -> list[Event]:
            if all(di[s] >= len(self.discards[s]) for s in range(n)):
                return out
            raise _DeadEndError("the round ends with discards left")

        while True:
            # -- the actor takes: a draw, or a call of the last discard
            if ti[actor] >= len(self.takes[actor]):
                if all_taken():
                    return done()
                raise _DeadEndError(f"seat {actor} has no take left")
            take = self.takes[actor][ti[actor]]
            ti[actor] += 1
            if take.kind == "draw":
                if last is not None and actor != (last[0] + 1) % n:
                    raise _DeadEndError("a draw out of turn")
                out.append(Tsumo(actor, take.tile))
                hands[actor][take.tile] += 1
                drawn = take.tile
                for _ in range(pending_dora):
                    reveal()
                pending_dora = 0
            else:
                if last is None or last != (take.target, take.tile):
                    raise _DeadEndError(f"seat {actor}'s {take.kind} of {take.tile} matches no discard")
                need(actor, take.consumed)
                if take.kind == "chi":
                    out.append(Chi(actor, take.target, take.tile, take.consumed))
                elif take.kind == "pon":
                    out.append(Pon(actor, take.target, take.tile, take.consumed))
                else:
                    out.append(Daiminkan(actor, take.target, take.tile, take.consumed))
                drawn = None
                if take.kind == "daiminkan":
                    if (
                        di[actor] < len(self.discards[actor])
                        and self.discards[actor][di[actor]].kind == "skip"
                    ):
                        di[actor] += 1
                    pending_dora += 1
                    last = None
                    continue
            last = None
            # -- the actor's discard, kan or kita (or the round ends here: tsumo, nine terminals)
            if di[actor] >= len(self.discards[actor]):
                if all_taken():
                    return done()
                raise _DeadEndError(f"seat {actor} has no discard left")
            d = self.discards[actor][di[actor]]
            di[actor] += 1
            if d.kind in ("ankan", "kakan", "kita"):
                if d.kind == "ankan":
                    need(actor, d.consumed)
                    out.append(Ankan(actor, d.consumed))
                    reveal()
                else:
                    assert d.tile is not None
                    need(actor, [d.tile])
                    if d.kind == "kakan":
                        out.append(Kakan(actor, d.tile, d.consumed))
                        pending_dora += 1
                    else:
                        out.append(Nukidora(actor, d.tile))
                drawn = None
                if all_taken():  # robbed (chankan), or the round ends on it
                    return done()
                continue  # the same seat draws its replacement
            if d.kind == "skip":
                raise _DeadEndError("a 0 in a discard list that follows no daiminkan")
            tile = d.tile
            if d.tsumogiri:
                if drawn is None:
                    raise _DeadEndError(f"seat {actor} discards the drawn tile without having drawn")
                tile = drawn
            assert tile is not None
            if d.kind == "reach":
                out.append(Reach(actor))
            need(actor, [tile])
            out.append(Dahai(actor, tile, d.tsumogiri))
            last = (actor, tile)
            drawn = None
            if all_taken():
                if d.kind == "reach" and self.result[0] != WIN_TEXT:
                    out.append(ReachAccepted(actor))
                return done()
            if d.kind == "reach":
                out.append(ReachAccepted(actor))
            # -- who takes this discard: a call that matches it (pon/kan before chi), or the next seat
            callers = []
            for s in range(n):
                if s == actor or ti[s] >= len(self.takes[s]):
                    continue
                nxt = self.takes[s][ti[s]]
                if nxt.kind != "draw" and (nxt.target, nxt.tile) == last:
                    callers.append((0 if nxt.kind == "chi" else 1, s))
            callers.sort(reverse=True)
            options = list(dict.fromkeys([s for _, s in callers] + [(actor + 1) % n]))
            if len(options) > 1:
                k = len(counts)
                counts.append(len(options))
                actor = options[choices[k] if k < len(choices) else 0]
            else:
                actor = options[0]
