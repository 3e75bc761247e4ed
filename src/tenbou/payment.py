"""Payments: who pays whom for a win, as individual transfers and per-seat deltas.

Hand value: a ron is paid by the discarder (6 x base for the dealer, 4 x base
otherwise); on a tsumo the dealer pays 2 x base and each other player 1 x base
(2 x base each when the dealer wins). Every payment is rounded up to 100 on
its own. Honba: each payer of a tsumo pays ``honba_unit`` per counter
(100: 100 each), the discarder of a ron pays it for every other player (300). Riichi sticks on the table go
to the winner.

Three players: on a tsumo the North seat is missing. ``sanma_tsumo`` decides:
``tsumo_loss`` - the two others pay their four-player shares and the
missing share is simply not paid; ``north_split`` - the missing share is
split between the two payers: each pays its own share plus half the missing
one, computed from the base points and rounded up to 100.

>>> from tenbou.hand import Hand, Situation
>>> from tenbou.rules import get_rules
>>> from tenbou.scoring import score_hand
>>> hs = score_hand(Hand.parse("234m678p5578s +9s ankan:7777z"), Situation(winner=2), get_rules("tenhou"))
>>> [str(p) for p in win_payments(hs, honba=1, riichi_sticks=1)]
['0 -> 2: 2000 hand', '1 -> 2: 1000 hand', '3 -> 2: 1000 hand', '0 -> 2: 100 honba', \
'1 -> 2: 100 honba', '3 -> 2: 100 honba', 'table -> 2: 1000 riichi_sticks']
>>> deltas(win_payments(hs, honba=1, riichi_sticks=1), 4)
[-2100, -1100, 5300, -1100]
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from typing import NamedTuple

from .scoring import HandScore

__all__ = ["Payment", "PaymentKind", "deltas", "hand_shares", "win_payments"]


class PaymentKind(Enum):
    """What a transfer pays for."""

    HAND = "hand"
    HONBA = "honba"
    RIICHI_STICKS = "riichi_sticks"
    PAO = "pao"


class Payment(NamedTuple):
    """A transfer of ``points`` from ``payer`` to ``receiver`` (``payer`` is
    ``None`` for riichi sticks taken from the table)."""

    payer: int | None
    receiver: int
    points: int
    kind: PaymentKind

    def __str__(self) -> str:
        src = "table" if self.payer is None else str(self.payer)
        return f"{src} -> {self.receiver}: {self.points} {self.kind.value}"

    def to_dict(self) -> dict[str, object]:
        return {"from": self.payer, "to": self.receiver, "points": self.points, "kind": self.kind._value_}


def hand_shares(base: int, dealer_wins: bool, tsumo: bool, players: int, sanma_tsumo: str) -> list[int]:
    """The hand-value payments as a list: one amount for a ron, else one per
    payer in order dealer-first (for a non-dealer tsumo the dealer's share
    comes first).

    >>> hand_shares(2000, False, False, 4, "tsumo_loss"), hand_shares(2000, True, True, 4, "tsumo_loss")
    ([8000], [4000, 4000, 4000])
    >>> hand_shares(2000, False, True, 3, "tsumo_loss"), hand_shares(2000, False, True, 3, "north_split")
    ([4000, 2000], [5000, 3000])
    """
    if not tsumo:
        return [_ceil100(base * (6 if dealer_wins else 4))]
    if dealer_wins:
        exact = [2 * base] * (players - 1)
        missing = 2 * base
    else:
        exact = [2 * base] + [base] * (players - 2)
        missing = base
    if players == 3 and sanma_tsumo == "north_split":
        return [_ceil100_half(2 * e + missing) for e in exact]
    return [_ceil100(e) for e in exact]


def _ceil100(points: int) -> int:
    return -(-points // 100) * 100


def _ceil100_half(twice: int) -> int:
    """Round up to 100 a value given doubled (to keep halves exact)."""
    return -(-twice // 200) * 100


def win_payments(score: HandScore, honba: int = 0, riichi_sticks: int = 0) -> list[Payment]:
    """The transfers for a single win: the hand, then honba, then riichi sticks."""
    s = score.situation
    rules = score.rules
    winner = s.winner
    n = s.players
    out: list[Payment] = []
    if s.discarder is not None:
        out.append(
            Payment(
                s.discarder,
                winner,
                hand_shares(score.base_points, s.is_dealer, False, n, "")[0],
                PaymentKind.HAND,
            )
        )
        if honba:
            out.append(Payment(s.discarder, winner, honba * rules.honba_unit * (n - 1), PaymentKind.HONBA))
    else:
        payers = [seat for seat in range(n) if seat != winner]
        if not s.is_dealer:
            payers.sort(key=lambda seat: seat != s.dealer)
        shares = hand_shares(score.base_points, s.is_dealer, True, n, rules.sanma_tsumo)
        out.extend(Payment(p, winner, pts, PaymentKind.HAND) for p, pts in zip(payers, shares, strict=True))
        if honba:
            each = honba * rules.honba_unit
            out.extend(Payment(p, winner, each, PaymentKind.HONBA) for p in sorted(payers))
    if riichi_sticks:
        out.append(
            Payment(None, winner, riichi_sticks * rules.riichi_stick_points, PaymentKind.RIICHI_STICKS)
        )
    return out


def deltas(payments: Iterable[Payment], players: int) -> list[int]:
    """Per-seat score changes from transfers (riichi sticks come from the table)."""
    d = [0] * players
    for p in payments:
        if p.payer is not None:
            d[p.payer] -= p.points
        d[p.receiver] += p.points
    return d
