"""A small language to write a hand event by event, for the engine tests.

Commands, separated by spaces (seats 0-3, tiles in mpsz):

- ``0t9p`` seat 0 draws 9p; ``0d6z`` discards 6z (tsumogiri when it is the drawn tile)
- ``1p6z`` seat 1 pons the last discard (6z) with two of its own; ``1k6z`` daiminkan;
  ``1c6z78m`` chi of 6m... written ``1c6m78m``: the called tile, then the two from the hand
- ``1K6z`` kakan; ``1a6z`` ankan; ``1n`` nukidora (North)
- ``1r`` riichi; ``1R`` riichi accepted; ``Dxx`` a dora indicator
- ``1h`` tsumo win; ``1h2`` ron on seat 2's tile; ``x`` ryukyoku; ``x:reason`` with an mjai reason
"""

from __future__ import annotations

from tenbou.core.tiles import Tile, Wind, parse_tiles
from tenbou.engine.events import (
    Ankan,
    Chi,
    Dahai,
    Daiminkan,
    Dora,
    EndKyoku,
    Event,
    Hora,
    Kakan,
    Nukidora,
    Pon,
    Reach,
    ReachAccepted,
    Ryukyoku,
    StartKyoku,
    Tsumo,
)
from tenbou.engine.round import Round
from tenbou.rules import Rules, get_rules


def start(hands: list[str], dealer: int = 0, dora: str = "9s", bakaze: str = "E", honba: int = 0,
          kyotaku: int = 0, scores: tuple[int, ...] | None = None) -> StartKyoku:  # fmt: skip
    tehais = tuple(tuple(parse_tiles(h)) for h in hands)
    n = len(hands)
    return StartKyoku(
        Wind(bakaze), Tile.parse(dora), 1, honba, kyotaku, dealer, scores or (25000,) * n, tehais
    )


def events(rnd: Round, script: str) -> list[Event]:
    """The events of a script, read against the round's state as it goes (call
    tiles are taken from the caller's hand)."""
    out: list[Event] = []
    for cmd in script.split():
        ev = _event(rnd, cmd)
        out.append(ev)
        rnd.apply(ev, len(out))
    return out


def _own(rnd: Round, seat: int, kind: int, n: int, exclude: Tile | None = None) -> tuple[Tile, ...]:
    hand = sorted(rnd.seats[seat].hand, key=lambda t: t.red)
    picked = [t for t in hand if t.kind == kind][:n]
    return tuple(picked)


def _event(rnd: Round, cmd: str) -> Event:
    if cmd.startswith("D"):
        return Dora(Tile.parse(cmd[1:]))
    if cmd.startswith("x"):
        return Ryukyoku(reason=cmd[2:] or None) if ":" in cmd else Ryukyoku()
    if cmd == "end":
        return EndKyoku()
    seat, op, rest = int(cmd[0]), cmd[1], cmd[2:]
    if op == "t":
        return Tsumo(seat, Tile.parse(rest))
    if op == "d":
        tile = Tile.parse(rest)
        return Dahai(seat, tile, rnd.seats[seat].drawn == tile)
    if op in "pkc":
        assert rnd.last_discard is not None
        who, tile = rnd.last_discard
        if op == "p":
            return Pon(seat, who, tile, _own(rnd, seat, tile.kind, 2))
        if op == "k":
            return Daiminkan(seat, who, tile, _own(rnd, seat, tile.kind, 3))
        tiles = parse_tiles(rest)
        return Chi(seat, who, tile, (tiles[1], tiles[2]))
    if op == "K":
        tile = Tile.parse(rest)
        pon = next(m for m in rnd.seats[seat].melds if m.kind == tile.kind)
        return Kakan(seat, _own(rnd, seat, tile.kind, 1)[0], pon.tiles)
    if op == "a":
        return Ankan(seat, _own(rnd, seat, Tile.parse(rest).kind, 4))
    if op == "n":
        return Nukidora(seat, Tile.parse("4z"))
    if op == "r":
        return Reach(seat)
    if op == "R":
        return ReachAccepted(seat)
    if op == "h":
        target = int(rest) if rest else seat
        return Hora(seat, target)
    raise ValueError(f"bad script command {cmd!r}")


def play(
    hands: list[str], script: str, rules: Rules | str = "tenhou", strict: bool = True, **kw: object
) -> Round:
    """A round of ``hands`` played by ``script`` (then end_kyoku)."""
    r = get_rules(rules) if isinstance(rules, str) else rules
    rnd = Round(r, start(hands, **kw), strict=strict)  # type: ignore[arg-type]
    events(rnd, script + " end")
    return rnd
