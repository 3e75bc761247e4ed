"""Settlement: who pays whom at the end of a hand, as transfers and per-seat deltas.

**Hand value.** A ron is paid by the discarder (6 x base for the dealer, 4 x
base otherwise); on a tsumo the dealer pays 2 x base and each other player 1 x
base (2 x base each when the dealer wins). Every payment is rounded up to 100
on its own. Three players: the North seat is missing on a tsumo, and
``sanma_tsumo`` decides: ``tsumo_loss`` (the missing share is not paid) or
``north_split`` (each payer adds half the missing share, computed from the
base points and rounded up to 100).

**Honba** (``honba_unit`` per counter per payer): each payer of a tsumo pays
the unit, the discarder of a ron pays it for every other player (300 with four
players). **Riichi sticks** on the table go to the winner.

**Pao.** The liable player (see :mod:`tenbou.settle.pao`) answers for the pao'd
yakuman (``pao_yakuman_only``) or the whole hand (``whole_hand``): on a tsumo
they pay its full (ron) value alone; on a ron by another player they and the
discarder pay half each; on their own ron they pay it all. The rest of the
hand is paid as usual. Two liable players each answer for their own yakuman
(under ``whole_hand`` the rest goes to the first of them). When the hand is
worth less than its yakuman together (``yakuman_stacking`` off, or a cap), the
pao'd yakuman are paid first, as the seed says (「包の適用を受ける役が優先される」).
Honba follow ``pao_honba``: ``liable`` pays them, or the ``discarder`` of a ron
(the liable on a tsumo), or ``split`` half each on a ron, or ``normal``, as if
there were no pao, or ``rest``: with the part of the hand pao does not cover (the
discarder of a ron; on a tsumo the usual split when some of the hand is not pao'd,
else the liable player), as majiang-core pays them. **Daiminkan pao** makes the whole hand, honba included, a
ron by the player whose discard was taken by the daiminkan.

**Wareme** doubles hand and pao payments to and from the wareme seat, after
pao. **Chips** are counted apart: the discarder pays them on a ron, every
other player on a tsumo, whatever the pao.

>>> from tenbou.core.hand import Hand, Situation
>>> from tenbou.rules import get_rules
>>> from tenbou.core.scoring import score_hand
>>> hs = score_hand(Hand.parse("234m678p5578s +9s ankan:7777z"), Situation(winner=2), get_rules("tenhou"))
>>> [str(p) for p in win_payments(hs, honba=1, riichi_sticks=1)]
['0 -> 2: 2000 hand', '1 -> 2: 1000 hand', '3 -> 2: 1000 hand', '0 -> 2: 100 honba', \
'1 -> 2: 100 honba', '3 -> 2: 100 honba', 'table -> 2: 1000 riichi_sticks']
>>> deltas(win_payments(hs, honba=1, riichi_sticks=1), 4)
[-2100, -1100, 5300, -1100]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import Enum
from typing import Any, Final, NamedTuple

from ..core._native import mypyc_attr
from ..core.scoring import HandScore
from ..core.values import Record
from ..errors import InvalidHandError
from ..rules import Rules
from .pao import Liability

__all__ = [
    "DrawSettlement",
    "NextHand",
    "Payment",
    "PaymentKind",
    "Settlement",
    "WinSettlement",
    "chombo_penalties",
    "deltas",
    "hand_shares",
    "next_after_draw",
    "payment_to_dict",
    "settle_chombo",
    "settle_draw",
    "settle_win",
    "settle_wins",
    "win_payments",
]


class PaymentKind(Enum):
    """What a transfer pays for."""

    HAND = "hand"
    HONBA = "honba"
    RIICHI_STICKS = "riichi_sticks"
    PAO = "pao"
    NOTEN = "noten"
    NAGASHI = "nagashi"
    CHOMBO = "chombo"


# (the members as module constants: on CPython 3.11 an attribute of an Enum class is read by a slow,
# unspecialised look-up, a module constant is not)
_HAND: Final = PaymentKind.HAND
_HONBA: Final = PaymentKind.HONBA
_RIICHI_STICKS: Final = PaymentKind.RIICHI_STICKS
_PAO: Final = PaymentKind.PAO
_NOTEN: Final = PaymentKind.NOTEN
_NAGASHI: Final = PaymentKind.NAGASHI
_CHOMBO: Final = PaymentKind.CHOMBO


@mypyc_attr(free_list_len=1)
class Payment(Record):
    """A transfer of ``points`` from ``payer`` to ``receiver`` (``payer`` is
    ``None`` for riichi sticks taken from the table)."""

    _fields = ("payer", "receiver", "points", "kind")
    __slots__ = _fields

    def __init__(self, payer: int | None, receiver: int, points: int, kind: PaymentKind) -> None:
        self.payer: Final = payer
        self.receiver: Final = receiver
        self.points: Final = points
        self.kind: Final = kind

    def __str__(self) -> str:
        src = "table" if self.payer is None else str(self.payer)
        return f"{src} -> {self.receiver}: {self.points} {self.kind._value_}"

    def to_dict(self) -> dict[str, object]:
        return payment_to_dict(self)


def payment_to_dict(p: Payment) -> dict[str, object]:
    """A payment as its JSON object."""
    out: list[dict[str, object]] = []
    add_payment_dicts([p], out)
    return out[0]


def add_payment_dicts(payments: list[Payment], out: list[dict[str, Any]]) -> None:
    """Append the payments' JSON objects to ``out``. (A list: compiled, a loop over a list is native.)
    The objects are those :func:`_pay` writes as it pays, copies of :func:`_to_seats`' (keep the two
    in step). A helper of the JSON writers (:mod:`tenbou.settle.results`), not in ``__all__``: its form
    follows theirs."""
    for p in payments:
        kind = p.kind  # (the usual kinds by identity: compiled, an Enum's value is a generic look-up)
        if kind is _HAND:
            text = _HAND_TEXT
        elif kind is _HONBA:
            text = _HONBA_TEXT
        else:
            text = kind._value_
        out.append({"from": p.payer, "to": p.receiver, "points": p.points, "kind": text})


# the kinds' texts (compiled, an Enum's value is a generic look-up, a Final str is not)
_HAND_TEXT: Final[str] = _HAND._value_
_HONBA_TEXT: Final[str] = _HONBA._value_
_PAO_TEXT: Final[str] = _PAO._value_
_KIND_OF_TEXT: Final[dict[str, PaymentKind]] = {kind._value_: kind for kind in PaymentKind}


def _transfer(payer: int | None, receiver: int, kind: PaymentKind) -> dict[str, Any]:
    """The JSON object of a transfer, its points left to fill."""
    return {"from": payer, "to": receiver, "points": 0, "kind": kind._value_}


def _to_seats(kind: PaymentKind) -> tuple[tuple[dict[str, Any], ...], ...]:
    """The JSON objects of the transfers of ``kind`` to each seat from each seat (by receiver, then
    payer), their points left to fill."""
    return tuple([tuple([_transfer(payer, seat, kind) for payer in range(4)]) for seat in range(4)])


# what :func:`_pay` copies for a transfer of each kind, by receiver and payer (compiled and pure, a
# copy given its points costs less than a new dict of four)
_HAND_TO: Final = _to_seats(_HAND)
_HONBA_TO: Final = _to_seats(_HONBA)
_PAO_TO: Final = _to_seats(_PAO)
_NAGASHI_TO: Final = _to_seats(_NAGASHI)
_CHOMBO_TO: Final = _to_seats(_CHOMBO)
#: riichi sticks, from the table, by receiver
_RIICHI_STICKS_TO: Final = tuple([_transfer(None, seat, _RIICHI_STICKS) for seat in range(4)])


def _payment(o: dict[str, Any]) -> Payment:
    """The :class:`Payment` of a payment's JSON object, as :func:`_pay` writes it."""
    return Payment(o["from"], o["to"], o["points"], _KIND_OF_TEXT[o["kind"]])


class NextHand(NamedTuple):
    """The dealer, honba and riichi sticks of the next hand."""

    dealer: int
    honba: int
    riichi_sticks: int

    def to_dict(self) -> dict[str, int]:
        return {"dealer": self.dealer, "honba": self.honba, "riichi_sticks": self.riichi_sticks}


def _ceil100(points: int) -> int:
    return -(-points // 100) * 100


def _ron_points(base: int, dealer_wins: bool) -> int:
    """What a ron of basic points ``base`` pays: six times for the dealer, four times else, rounded up."""
    return _ceil100(base * (6 if dealer_wins else 4))


def hand_shares(base: int, dealer_wins: bool, tsumo: bool, players: int, sanma_tsumo: str) -> list[int]:
    """The hand-value payments: one amount for a ron, else one per payer, the
    dealer's share first on a non-dealer tsumo.

    >>> hand_shares(2000, False, False, 4, "tsumo_loss"), hand_shares(2000, True, True, 4, "tsumo_loss")
    ([8000], [4000, 4000, 4000])
    >>> hand_shares(2000, False, True, 3, "tsumo_loss"), hand_shares(2000, False, True, 3, "north_split")
    ([4000, 2000], [5000, 3000])
    """
    if not tsumo:
        return [_ron_points(base, dealer_wins)]
    dealer_share, share = _tsumo_shares(base, dealer_wins, players, sanma_tsumo)
    if dealer_wins:
        return [share] * (players - 1)
    return [dealer_share] + [share] * (players - 2)


def _tsumo_shares(base: int, dealer_wins: bool, players: int, sanma_tsumo: str) -> tuple[int, int]:
    """What the dealer pays and what each other payer pays on a tsumo of basic points ``base``
    (both in one call: in pure Python a call costs more than the sum): twice the base for the
    dealer or when the dealer wins, once else; rounded up to 100 (with ``north_split``, three
    players, each adds half the missing North share). When the dealer wins, the two are the same,
    what each payer pays."""
    other = 2 * base if dealer_wins else base
    if players == 3 and sanma_tsumo == "north_split":
        missing = other  # (the North seat's share)
        return -(-(4 * base + missing) // 200) * 100, -(-(2 * other + missing) // 200) * 100
    share = _ceil100(other)
    return share if dealer_wins else _ceil100(2 * base), share


def deltas(payments: Iterable[Payment], players: int) -> list[int]:
    """Per-seat score changes from transfers (riichi sticks come from the table)."""
    d = [0] * players
    for p in payments:
        if p.payer is not None:
            d[p.payer] = d[p.payer] - p.points
        d[p.receiver] = d[p.receiver] + p.points
    return d


class WinSettlement(Record):
    """One win as settled: its score, the liabilities that applied, its own
    transfers, deltas and chips."""

    _fields = ("score", "pao", "payments", "deltas", "chips")
    __slots__ = _fields

    def __init__(
        self,
        score: HandScore,
        pao: tuple[Liability, ...],
        payments: tuple[Payment, ...],
        deltas: tuple[int, ...],
        chips: tuple[int, ...] | None = None,
    ) -> None:
        self.score: Final = score
        self.pao: Final = pao
        self.payments: Final = payments
        self.deltas: Final = deltas
        self.chips: Final = chips


class Settlement(NamedTuple):
    """The end of a hand: ``kind`` is ``win``, ``exhaustive_draw``, ``abortive_draw`` or
    ``chombo``; ``results`` the wins paid, in payment order; ``skipped`` the seats whose ron was
    not paid (atamahane); ``offender`` the seat whose chombo stopped the hand."""

    kind: str
    results: tuple[WinSettlement, ...]
    payments: tuple[Payment, ...]
    deltas: tuple[int, ...]
    next: NextHand
    chips: tuple[int, ...] | None = None
    skipped: tuple[int, ...] = ()
    reason: str | None = None
    offender: int | None = None


DrawSettlement = Settlement


# -- one win ------------------------------------------------------------------------------------


def win_payments(
    score: HandScore,
    honba: int = 0,
    riichi_sticks: int = 0,
    pao: Sequence[Liability] = (),
    wareme: int | None = None,
) -> list[Payment]:
    """The transfers for one win: hand (and pao), then honba, then riichi sticks.

    ``pao`` lists the liabilities that apply (yakuman pao, and at most one
    daiminkan pao, whose seat then pays the hand as a ron)."""
    return [_payment(o) for o in settle_win_parts(score, tuple(pao), honba, riichi_sticks, wareme)[0]]


def settle_win_parts(
    score: HandScore, pao: tuple[Liability, ...], honba: int, riichi_sticks: int, wareme: int | None
) -> tuple[list[dict[str, Any]], list[int], list[int] | None, int]:
    """:func:`settle_win`'s transfers, deltas and chips, without the :class:`WinSettlement`, for a
    caller that writes them out: the transfers as their JSON objects (made as they are paid: no
    :class:`Payment` made to be written out), the deltas counted as they are paid; and the points
    paid for the hand (its hand and pao transfers). (A helper of
    :func:`tenbou.api.score`, not in ``__all__``: its form follows the JSON writer's.)"""
    s = score.situation
    rules = score.rules
    n = s.players
    winner = s.winner
    dealer_wins = winner == s.dealer
    discarder = s.discarder
    out: list[dict[str, Any]] = []
    d = [0, 0, 0, 0] if n == 4 else [0] * n  # (compiled, [0] * n makes a list [0] and frees it)
    won = 0  # what the winner receives (put in d once, at the end: a native integer until then)
    # -- the hand: pao'd parts first, then the rest as usual
    rest = score.yakuman
    liable = -1  # the seat of the first yakuman pao, if any
    if pao:
        yakuman_pao: list[Liability] = []
        kan_pao: Liability | None = None
        for liability in pao:
            if not 0 <= liability.seat < n or liability.seat == winner:  # (a seat indexes the tables)
                raise InvalidHandError(
                    f"pao: {liability.yaku}: seat {liability.seat} cannot be liable (a seat 0..{n - 1}"
                    f" other than the winner, {winner})",
                    "contradiction",
                )
            if liability.rule != "daiminkan_pao":
                yakuman_pao.append(liability)
            elif kan_pao is None:
                kan_pao = liability
        if kan_pao is not None:
            discarder = kan_pao.seat
        parts: list[tuple[int, int]] = []  # (liable seat, yakuman multiplier)
        if yakuman_pao:
            liable = yakuman_pao[0].seat
            if score.yakuman:
                per_yaku = {y.yaku.id: y.yakuman for y in score.yaku}
                for liab in yakuman_pao:
                    m = min(per_yaku.get(liab.yaku, 0), rest)
                    rest -= m
                    parts.append((liab.seat, m))
                if rules.pao_scope == "whole_hand" and rest:
                    parts[0] = (parts[0][0], parts[0][1] + rest)
                    rest = 0
        for seat, mult in parts:
            value = _ron_points(8000 * mult, dealer_wins)  # as a ron
            if discarder is None:
                won += _pay(out, d, _PAO_TO[winner][seat], seat, value)
            elif discarder == seat:  # the liable player dealt in: an ordinary ron
                won += _pay(out, d, _HAND_TO[winner][seat], seat, value)
            else:
                half = _ceil100(value // 2)
                won += _pay(out, d, _PAO_TO[winner][seat], seat, half)
                won += _pay(out, d, _HAND_TO[winner][discarder], discarder, value - half)
    rest_base = 8000 * rest if score.yakuman else score.base_points
    if rest_base:
        if discarder is not None:
            won += _pay(out, d, _HAND_TO[winner][discarder], discarder, _ron_points(rest_base, dealer_wins))
        else:
            won += _pay_tsumo(out, d, winner, s.dealer, n, rest_base, rules.sanma_tsumo, _HAND_TO)
    points = won  # what is paid for the hand: its hand and pao transfers, made so far
    # -- honba
    if honba and rules.honba_unit:
        unit = honba * rules.honba_unit
        total = unit * (n - 1)
        pao_honba = rules.pao_honba
        if pao_honba == "rest":  # honba go with the part of the hand pao does not cover
            pao_honba = "discarder" if discarder is not None else "normal" if rest_base else "liable"
        if liable < 0 or pao_honba == "normal":
            if discarder is not None:
                won += _pay(out, d, _HONBA_TO[winner][discarder], discarder, total)
            else:
                for p in range(n):
                    if p != winner:
                        won += _pay(out, d, _HONBA_TO[winner][p], p, unit)
        elif discarder is None or discarder == liable or pao_honba == "liable":
            won += _pay(out, d, _HONBA_TO[winner][liable], liable, total)
        elif pao_honba == "discarder":
            won += _pay(out, d, _HONBA_TO[winner][discarder], discarder, total)
        else:  # split
            half = total // 2
            won += _pay(out, d, _HONBA_TO[winner][liable], liable, half)
            won += _pay(out, d, _HONBA_TO[winner][discarder], discarder, total - half)
    if wareme is not None and rules.wareme:  # paid again, hand and pao doubled to and from wareme
        paid = out
        out = []
        d = [0] * n
        won = points = 0
        for o in paid:
            amount = o["points"]
            if o["kind"] in (_HAND_TEXT, _PAO_TEXT):
                if wareme in (o["from"], o["to"]):
                    amount = 2 * amount
                points += amount
            won += _pay(out, d, o, o["from"], amount)
    if riichi_sticks:  # listed even when the rules make them worth 0, as a draw lists them
        won += _pay(out, d, _RIICHI_STICKS_TO[winner], None, riichi_sticks * rules.riichi_stick_points)
    d[winner] = d[winner] + won
    return out, d, win_chips(score, rules) if rules.chips else None, points


def _pay(
    out: list[dict[str, Any]], d: list[int], transfer: dict[str, Any], payer: int | None, points: int
) -> int:
    """Add a transfer of ``points`` from ``payer`` to ``out``, as its JSON object (the one
    :func:`add_payment_dicts` writes for a :class:`Payment`: made here at once, for a caller that only
    writes it out): a copy of ``transfer``, the object of a transfer of its kind from its payer to its
    receiver (of :func:`_to_seats`), given its points; and the payer's part to the deltas ``d``.
    Return ``points``, which the caller adds to the receiver's delta. A payer's payment of nothing is
    left out; riichi sticks, from the table (``payer`` ``None``), are listed even when worth nothing."""
    if payer is not None:
        if not points:
            return 0
        d[payer] = d[payer] - points
    o = transfer.copy()
    o["points"] = points
    out.append(o)
    return points


def _pay_tsumo(
    out: list[dict[str, Any]],
    d: list[int],
    winner: int,
    dealer: int,
    players: int,
    base: int,
    sanma_tsumo: str,
    to: tuple[tuple[dict[str, Any], ...], ...],
) -> int:
    """Pay a tsumo of basic points ``base`` (the shares of :func:`hand_shares`, no list made for
    them), the dealer first, then the others in seat order, as :func:`_pay` does (``to``: the
    objects of the kind's transfers, by receiver and payer); return what the winner receives."""
    won = 0
    dealer_share, share = _tsumo_shares(base, winner == dealer, players, sanma_tsumo)
    if winner != dealer:
        won += _pay(out, d, to[winner][dealer], dealer, dealer_share)
    for p in range(players):
        if p != winner and p != dealer:
            won += _pay(out, d, to[winner][p], p, share)
    return won


def win_chips(score: HandScore, rules: Rules) -> list[int] | None:
    """Per-seat chip changes of a win (``None`` when the rules use no chips).
    Chips go by the win as it happened: the discarder pays on a ron, every
    other player on a tsumo (a daiminkan-pao rinshan win is a tsumo here)."""
    if not rules.chips:
        return None
    values = rules.chip_values()
    s = score.situation
    count = 0
    for y in score.yaku:
        if y.yaku.id in ("aka_dora", "ura_dora"):
            count += values.get(y.yaku.id, 0) * y.han
        elif y.yaku.id == "ippatsu":
            count += values.get("ippatsu", 0)
    count += values.get("yakuman", 0) * score.yakuman
    chips = [0] * s.players
    payers = [s.discarder] if s.discarder is not None else [p for p in range(s.players) if p != s.winner]
    for p in payers:
        chips[p] = chips[p] - count
        chips[s.winner] = chips[s.winner] + count
    return chips


# -- the end of a hand ------------------------------------------------------------------------


def settle_wins(
    wins: Sequence[tuple[HandScore, Sequence[Liability]]],
    honba: int = 0,
    riichi_sticks: int = 0,
    wareme: int | None = None,
) -> Settlement:
    """Settle one tsumo, or one or more rons on the same discard, with the
    liabilities of each win. The wins are paid nearest the discarder first;
    ``multiple_ron`` decides how many are paid (a triple ron under ``double``
    aborts the hand); honba go to the nearest winner or to each
    (``multiple_ron_honba``), riichi sticks to the nearest."""
    if not wins:
        raise InvalidHandError("wins: at least one win is needed", "contradiction")
    first = wins[0][0]
    s0 = first.situation
    rules = first.rules
    n = s0.players
    for hs, _ in wins[1:]:
        s = hs.situation
        if (s.players, s.dealer, s.round_wind) != (s0.players, s0.dealer, s0.round_wind):
            raise InvalidHandError(
                "wins: all wins must share players, dealer and round wind", "contradiction"
            )
    if len(wins) > 1:
        if any(hs.situation.discarder is None for hs, _ in wins):
            raise InvalidHandError("wins: a tsumo cannot share the hand with another win", "contradiction")
        if len({hs.situation.discarder for hs, _ in wins}) != 1:
            raise InvalidHandError(
                "wins: several rons must be on the same discard (one 'from')", "contradiction"
            )
        if len({hs.situation.winner for hs, _ in wins}) != len(wins):
            raise InvalidHandError("wins: a player can win only once", "contradiction")
        if any(hs.situation.fourth_kan for hs, _ in wins):
            raise InvalidHandError(
                "wins: the fourth kan's suukantsu ends the hand alone (a ron of the same discard "
                "comes before a call)",
                "contradiction",
            )
    discarder = s0.discarder
    ordered = sorted(wins, key=lambda w: (w[0].situation.winner - (discarder or 0)) % n)
    skipped: tuple[int, ...] = ()
    if len(ordered) > 1:
        if rules.multiple_ron == "atamahane":
            skipped = tuple(hs.situation.winner for hs, _ in ordered[1:])
            ordered = ordered[:1]
        elif rules.multiple_ron == "double" and len(ordered) >= 3:
            return Settlement(
                kind="abortive_draw",
                results=(),
                payments=(),
                deltas=(0,) * n,
                next=next_after_draw(rules, s0.dealer, n, honba, riichi_sticks, dealer_tenpai=None),
                chips=(0,) * n if rules.chips else None,
                reason="sanchahou",
            )
    results: list[WinSettlement] = []
    all_payments: list[Payment] = []
    total_chips: list[int] | None = [0] * n if rules.chips else None
    for i, (hs, pao) in enumerate(ordered):
        h = honba if i == 0 or rules.multiple_ron_honba == "each" else 0
        sticks = riichi_sticks if i == 0 else 0
        result = settle_win(hs, pao, h, sticks, wareme)
        if result.chips is not None and total_chips is not None:
            total_chips = [a + b for a, b in zip(total_chips, result.chips, strict=True)]
        results.append(result)
        all_payments.extend(result.payments)
    dealer = s0.dealer
    if any(r.score.situation.winner == dealer for r in results):
        nxt = NextHand(dealer, honba + 1, 0)
    else:
        nxt = NextHand((dealer + 1) % n, 0, 0)
    return Settlement(
        kind="win",
        results=tuple(results),
        payments=tuple(all_payments),
        deltas=tuple(deltas(all_payments, n)),
        next=nxt,
        chips=None if total_chips is None else tuple(total_chips),
        skipped=skipped,
    )


def settle_win(
    hs: HandScore,
    pao: Sequence[Liability] = (),
    honba: int = 0,
    riichi_sticks: int = 0,
    wareme: int | None = None,
) -> WinSettlement:
    """One win settled on its own: its transfers (:func:`win_payments`), deltas and chips."""
    liabilities = tuple(pao)
    pays, d, chips, _ = settle_win_parts(hs, liabilities, honba, riichi_sticks, wareme)
    payments = tuple([_payment(o) for o in pays])
    return WinSettlement(hs, liabilities, payments, tuple(d), None if chips is None else tuple(chips))


def next_after_draw(
    rules: Rules, dealer: int, players: int, honba: int, riichi_sticks: int, dealer_tenpai: bool | None
) -> NextHand:
    """Dealer, honba and sticks after a draw (``dealer_tenpai`` is ``None`` for
    an abortive draw)."""
    keep = rules.abortive_renchan if dealer_tenpai is None else dealer_tenpai and rules.renchan == "tenpai"
    return NextHand(dealer if keep else (dealer + 1) % players, honba + 1, riichi_sticks)


def settle_draw(
    rules: Rules,
    players: int,
    dealer: int,
    honba: int,
    riichi_sticks: int,
    kind: str,
    tenpai: Sequence[int] = (),
    nagashi: Sequence[int] = (),
    reason: str | None = None,
) -> Settlement:
    """Settle an exhaustive draw (noten payments, or nagashi mangan) or an
    abortive one (no payment). ``next`` follows ``renchan`` and
    ``abortive_renchan``."""
    n = players
    chips = (0,) * n if rules.chips else None
    if kind == "abortive":
        return Settlement(
            kind="abortive_draw",
            results=(),
            payments=(),
            deltas=(0,) * n,
            next=next_after_draw(rules, dealer, n, honba, riichi_sticks, None),
            chips=chips,
            reason=reason,
        )
    payments: list[Payment] = []
    sticks_left = riichi_sticks
    if nagashi and rules.nagashi_mangan != "none":
        as_win = rules.nagashi_mangan == "win"
        for i, seat in enumerate(sorted(nagashi, key=lambda x: (x - dealer) % n)):
            # (paid as a mangan tsumo; the deltas are counted below, from the payments)
            paid: list[dict[str, Any]] = []
            _pay_tsumo(paid, [0] * n, seat, dealer, n, 2000, rules.sanma_tsumo, _NAGASHI_TO)
            payments.extend([_payment(o) for o in paid])
            if as_win and honba and rules.honba_unit:
                unit = honba * rules.honba_unit
                payments.extend(Payment(p, seat, unit, _HONBA) for p in range(n) if p != seat)
            if as_win and i == 0 and riichi_sticks:
                payments.append(
                    Payment(None, seat, riichi_sticks * rules.riichi_stick_points, _RIICHI_STICKS)
                )
                sticks_left = 0
    else:
        total = rules.noten_penalty if n == 4 else rules.sanma_noten_penalty
        ready = sorted(set(tenpai))
        noten = [seat for seat in range(n) if seat not in ready]
        if ready and noten and total:
            for payer in noten:
                for receiver in ready:
                    points = total // len(noten) // len(ready)
                    payments.append(Payment(payer, receiver, points, _NOTEN))
    return Settlement(
        kind="exhaustive_draw",
        results=(),
        payments=tuple(payments),
        deltas=tuple(deltas(payments, n)),
        next=next_after_draw(rules, dealer, n, honba, sticks_left, dealer in tenpai),
        chips=chips,
        reason=reason,
    )


def settle_chombo(
    rules: Rules,
    players: int,
    dealer: int,
    honba: int,
    riichi_sticks: int,
    offender: int,
    returned: Sequence[int] = (),
) -> Settlement:
    """Settle a hand stopped by ``offender``'s chombo (``chombo``): under ``mangan`` the offender
    pays a mangan tsumo in reverse at once (4,000 to the dealer and 2,000 to each other player, or
    4,000 to each when the offender deals; three players by ``sanma_tsumo``), under ``each``
    ``chombo_points`` to each other player, under ``final_score`` nothing now (the game takes
    ``chombo_points`` from the offender's final score).
    The hand does not count: the riichi sticks put down in it go back to the seats of ``returned``,
    and the same dealer deals again with the same ``honba`` and the ``riichi_sticks`` the hand
    began with.

    >>> from tenbou.rules import get_rules
    >>> rules = get_rules("tenhou").replace(chombo="mangan")
    >>> settle_chombo(rules, 4, dealer=1, honba=2, riichi_sticks=1, offender=3, returned=[0]).deltas
    (3000, 4000, 2000, -8000)
    >>> settle_chombo(rules.replace(chombo="each", chombo_points=3000), 4, 1, 2, 1, offender=1).deltas
    (3000, -9000, 3000, 3000)
    >>> settle_chombo(rules.replace(chombo="final_score"), 4, 1, 2, 1, offender=3).next
    NextHand(dealer=1, honba=2, riichi_sticks=1)
    """
    n = players
    if not 0 <= offender < n:
        raise InvalidHandError(f"chombo: {offender!r} is not a seat 0..{n - 1}", "contradiction")
    payments: list[Payment] = []
    if rules.chombo == "mangan":
        owed: list[dict[str, Any]] = []
        _pay_tsumo(owed, [0] * n, offender, dealer, n, 2000, rules.sanma_tsumo, _CHOMBO_TO)
        # (paid as a tsumo to the offender, in reverse: the payers of the tsumo are paid)
        payments.extend(Payment(o["to"], o["from"], o["points"], _CHOMBO) for o in owed)
    elif rules.chombo == "each" and rules.chombo_points:
        payments.extend(
            Payment(offender, seat, rules.chombo_points, _CHOMBO) for seat in range(n) if seat != offender
        )
    stick = rules.riichi_stick_points
    for seat in sorted(set(returned)):
        payments.append(Payment(None, seat, stick, _RIICHI_STICKS))
    return Settlement(
        kind="chombo",
        results=(),
        payments=tuple(payments),
        deltas=tuple(deltas(payments, n)),
        next=NextHand(dealer, honba, riichi_sticks),
        chips=(0,) * n if rules.chips else None,
        offender=offender,
    )


def chombo_penalties(rules: Rules, chombos: Sequence[int]) -> list[float]:
    """What the chombos of a game take from each seat's final score (in thousands, as the final
    scores with uma are counted), ``chombos`` being each seat's count: ``chombo_points`` a chombo
    under ``final_score``, nothing under ``mangan`` (paid at the table when it happened).

    >>> from tenbou.rules import get_rules
    >>> chombo_penalties(get_rules("wrc"), [0, 2, 0, 1])
    [0.0, -40.0, 0.0, -20.0]
    >>> chombo_penalties(get_rules("wrc").replace(chombo="mangan"), [0, 2, 0, 1])
    [0.0, 0.0, 0.0, 0.0]
    """
    if rules.chombo != "final_score":
        return [0.0] * len(chombos)
    return [-count * rules.chombo_points / 1000 for count in chombos]
