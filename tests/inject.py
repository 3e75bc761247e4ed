"""Illegal variants of a game's next event, and a snapshot of everything a game observably holds:
the tools of the all-or-nothing tests (an event refused changes nothing).

:func:`illegal_variants` builds, from the state a game is in and the event the record plays next,
events that cannot happen there — by construction, not by asking the engine: another actor, seats
out of range, a tile the actor does not hold, consumed tiles the caller does not have, a tile of
which every copy is already in sight, events of the wrong phase (a draw while a seat is to discard,
a call with no discard, an end of the hand before it ended, a start inside a hand), an abortive draw
whose condition does not hold, a second win by the same seat.
"""

from __future__ import annotations

import copy
import random
from dataclasses import fields, replace
from typing import Any

from tenbou.api import settlement_to_dict
from tenbou.core.tiles import Tile
from tenbou.engine.events import (
    Ankan,
    Chi,
    Dahai,
    Daiminkan,
    Dora,
    EndGame,
    EndKyoku,
    Event,
    Hora,
    Kakan,
    Nukidora,
    Pon,
    Reach,
    ReachAccepted,
    Ryukyoku,
    StartGame,
    StartKyoku,
    Tsumo,
)
from tenbou.engine.game import Game
from tenbou.engine.round import Phase, Round, SeatState

_SEAT_CACHES = frozenset({"waits_key", "waits"})
#: seats no table has
BAD_SEATS = (4, -1, 10**20, -(10**20))


def _attrs(obj: object) -> dict[str, Any]:
    """An object's attributes (a class the compiled build makes native has no ``__dict__``: each
    class of its MRO lists its own, a round's mostly in its base ``RoundState``)."""
    if not any("__mypyc_attrs__" in vars(c) for c in type(obj).__mro__):
        return dict(vars(obj))
    names = [n for c in type(obj).__mro__ for n in vars(c).get("__mypyc_attrs__", ())]
    return {name: getattr(obj, name) for name in names if name != "__dict__"}


def round_state(rnd: Round) -> dict[str, Any]:
    """All a round holds, caches left out (not copied)."""
    r = {k: v for k, v in _attrs(rnd).items() if k not in ("seats", "tiles", "pending", "result")}
    assert "phase" in r and "live_wall" in r and "strict" in r, "the round's attributes are not all seen"
    # settlements as their JSON (a reading inside compares by identity)
    if rnd.pending is not None:
        r["pending"] = (rnd.pending.fields, rnd.pending.request, settlement_to_dict(rnd.pending.settlement))
    if rnd.result is not None:
        res = rnd.result
        r["result"] = (settlement_to_dict(res.settlement), res.request, res.recorded_deltas)
    r["seats"] = [
        {f.name: getattr(s, f.name) for f in fields(SeatState) if f.name not in _SEAT_CACHES}
        for s in rnd.seats
    ]
    r["tiles"] = (list(rnd.tiles.seen), list(rnd.tiles.seen_red))
    return r


def snapshot(owner: Game | Round) -> dict[str, Any]:
    """A deep copy of all a game (its round included) or a round holds, caches left out."""
    if isinstance(owner, Round):
        return copy.deepcopy(round_state(owner))
    state = {k: v for k, v in _attrs(owner).items() if k != "round"}
    if owner.round is not None:
        state["round"] = round_state(owner.round)
    return copy.deepcopy(state)


def _all_tiles() -> list[Tile]:
    return [Tile(k) for k in range(34)] + [Tile(4, True), Tile(13, True), Tile(22, True)]


def _not_held(rnd: Round, seat: int, rng: random.Random) -> Tile:
    held = set(rnd.seats[seat].hand)
    return rng.choice([t for t in _all_tiles() if t not in held])


def _exhausted(rnd: Round) -> list[Tile]:
    """Tiles of which every copy of the set is already in sight."""
    c = rnd.tiles
    out = [Tile(k) for k in range(34) if c.seen[k] >= c.plain[k]]
    out += [Tile(k, True) for k in (4, 13, 22) if c.seen_red[k] >= c.red[k]]
    return out


def illegal_variants(game: Game, ev: Event, rng: random.Random) -> list[Event]:
    """Events that cannot come where ``ev`` comes next in ``game`` (see the module docstring)."""
    out: list[Event] = []
    rnd = game.round
    n = game.players
    bad = rng.choice(BAD_SEATS)
    # seats out of range, whatever the event
    if hasattr(ev, "actor"):
        out.append(replace(ev, actor=bad))  # type: ignore[type-var]
    if hasattr(ev, "target"):
        out.append(replace(ev, target=rng.choice(BAD_SEATS)))  # type: ignore[type-var]
    if isinstance(ev, StartKyoku | StartGame | EndGame):
        if game.started or rnd is not None:
            out.append(StartGame())
        if isinstance(ev, StartKyoku):
            out.append(replace(ev, tehais=ev.tehais[:-1]))
            out.append(replace(ev, scores=ev.scores[:-1]))
            out.append(replace(ev, kyoku=rng.choice((-1, 0, n + 1, 10**20))))
            out.append(replace(ev, kyotaku=-1))
            out.append(replace(ev, honba=-1))
            out.append(replace(ev, oya=rng.choice(BAD_SEATS)))
            out.append(replace(ev, tehais=(ev.tehais[0][:-1], *ev.tehais[1:])))
        if rnd is not None and not rnd.closed:
            out.append(EndGame())
        return out
    if rnd is None:
        return out
    phase = rnd.phase
    # events of the wrong phase
    if phase is not Phase.ENDED:
        out.append(
            StartKyoku(rnd.round_wind, rnd.dora_markers[0], 1, 0, 0, 0, (25000,) * n, rnd.start.tehais)
        )
        out.append(StartGame())
        out.append(EndGame())
    if rnd.result is None and not rnd.horas:
        out.append(EndKyoku())
    if phase is Phase.ACT or phase is Phase.ENDED:
        out.append(Tsumo(rng.randrange(n), rng.choice(_all_tiles())))
        out.append(Pon(rng.randrange(n), rng.randrange(n), rng.choice(_all_tiles()), ()))
    if phase is Phase.DRAW or phase is Phase.REACT or phase is Phase.CHANKAN or phase is Phase.ENDED:
        out.append(Dahai(rng.randrange(n), rng.choice(_all_tiles()), False))
    if rnd.live_wall > 0 and phase is not Phase.ENDED:
        out.append(Ryukyoku(reason="fanpai"))
    if rnd.discards_made > n or rnd.calls_made:
        out.append(Ryukyoku(reason="kyushukyuhai"))
    if rnd.discards_made != n or rnd.calls_made:
        out.append(Ryukyoku(reason="suufonrenda"))
    if not all(s.riichi for s in rnd.seats):
        out.append(Ryukyoku(reason="suuchariichi"))
    if rnd.kans_declared < 4:
        out.append(Ryukyoku(reason="suukaikan"))
    # the same event, made wrong
    exhausted = _exhausted(rnd)
    if isinstance(ev, Tsumo):
        if exhausted:
            out.append(Tsumo(ev.actor, rng.choice(exhausted)))
        if phase is Phase.DRAW:
            out.append(Tsumo((rnd.actor + rng.randrange(1, n)) % n, ev.pai))
    elif isinstance(ev, Dahai):
        out.append(Dahai(ev.actor, _not_held(rnd, ev.actor, rng), False))
        out.append(Dahai((ev.actor + rng.randrange(1, n)) % n, ev.pai, ev.tsumogiri))
    elif isinstance(ev, Chi | Pon | Daiminkan):
        assert rnd.last_discard is not None
        who, tile = rnd.last_discard
        missing = _not_held(rnd, ev.actor, rng)
        out.append(replace(ev, consumed=(missing, *ev.consumed[1:])))
        out.append(replace(ev, consumed=ev.consumed[1:]))
        out.append(replace(ev, target=(who + rng.randrange(1, n)) % n))
        out.append(replace(ev, pai=rng.choice([t for t in _all_tiles() if t != tile])))
        out.append(replace(ev, actor=who))
    elif isinstance(ev, Kakan):
        out.append(replace(ev, pai=_not_held(rnd, ev.actor, rng)))
        out.append(replace(ev, actor=(ev.actor + rng.randrange(1, n)) % n))
    elif isinstance(ev, Ankan):
        missing = _not_held(rnd, ev.actor, rng)
        out.append(replace(ev, consumed=(missing,) * 4))
        out.append(replace(ev, consumed=ev.consumed[:3]))
        out.append(replace(ev, actor=(ev.actor + rng.randrange(1, n)) % n))
    elif isinstance(ev, Nukidora):
        out.append(replace(ev, actor=(ev.actor + rng.randrange(1, n)) % n))
        out.append(replace(ev, pai=rng.choice([t for t in _all_tiles() if t.kind != 30])))
    elif isinstance(ev, Dora):
        if exhausted:
            out.append(Dora(rng.choice(exhausted)))
    elif isinstance(ev, Reach):
        out.append(Reach((ev.actor + rng.randrange(1, n)) % n))
    elif isinstance(ev, ReachAccepted):
        out.append(ReachAccepted((ev.actor + rng.randrange(1, n)) % n))
        if ev.deltas is not None:
            out.append(replace(ev, deltas=ev.deltas[:-1]))
    elif isinstance(ev, Hora):
        if ev.actor == ev.target:  # a tsumo: only the drawer holds a drawn tile
            other = (ev.actor + rng.randrange(1, n)) % n
            out.append(Hora(other, other, ev.pai))
        else:
            others = [s for s in range(n) if s not in (ev.actor, ev.target)]
            out.append(Hora(ev.actor, rng.choice(others), ev.pai))
            out.append(Hora(ev.actor, ev.actor, ev.pai))
        if ev.deltas is not None:
            out.append(replace(ev, deltas=ev.deltas[:-1]))
        if exhausted and rnd.seats[ev.actor].riichi_accepted:
            out.append(replace(ev, ura_markers=(rng.choice(exhausted),) * (len(rnd.ura_markers) + 1)))
    elif isinstance(ev, Ryukyoku):
        if ev.tenpais is not None:
            out.append(replace(ev, tenpais=ev.tenpais[:-1]))
        out.append(Ryukyoku(reason="no such reason"))
    elif isinstance(ev, EndKyoku) and rnd.horas:  # a second win by a seat that has won
        h = rnd.horas[0][0]
        out.append(Hora(h.actor, h.target, h.pai))
    return out
