"""Payments for a single win: rounding per payer, dealer/non-dealer, honba,
riichi sticks, three-player tsumo."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tenbou.errors import InvalidHandError
from tenbou.settle.pao import Liability
from tenbou.settle.payment import PaymentKind, deltas, hand_shares, settle_win, win_payments

from .helpers import TENHOU, sc


@pytest.mark.parametrize(
    ("base", "dealer", "tsumo", "shares"),
    [
        (240, False, False, [1000]),  # 1 han 30 fu non-dealer ron: 960 -> 1000
        (240, True, False, [1500]),  # 1440 -> 1500
        (240, False, True, [500, 300]),  # 480/240 -> 500/300 (1100 in all)
        (240, True, True, [500, 500, 500]),
        (320, False, True, [700, 400]),  # 1 han 40 fu: 640/320 -> 700/400
        (1920, False, False, [7700]),
        (1920, True, False, [11600]),
        (1920, False, True, [3900, 2000]),
        (2000, False, True, [4000, 2000]),
        (8000, True, True, [16000, 16000, 16000]),
    ],
)
def test_hand_shares_round_up_per_payer(base: int, dealer: bool, tsumo: bool, shares: list[int]) -> None:
    got = hand_shares(base, dealer, tsumo, 4, "tsumo_loss")
    assert got[: len(shares)] == shares


def test_non_dealer_tsumo_dealer_pays_double() -> None:
    hs = sc("123m456p789s23s55s +4s", winner=2, dealer=0, riichi=True)  # riichi tsumo pinfu 3 han 20 fu
    pays = win_payments(hs)
    assert [(p.payer, p.points) for p in pays] == [(0, 1300), (1, 700), (3, 700)]
    assert deltas(pays, 4) == [-1300, -700, 2700, -700]


def test_ron_with_honba_and_sticks() -> None:
    hs = sc("123m456p789s23s55s +4s", winner=1, dealer=0, discarder=3, riichi=True)
    pays = win_payments(hs, honba=2, riichi_sticks=3)
    assert [(p.payer, p.receiver, p.points, p.kind) for p in pays] == [
        (3, 1, 2000, PaymentKind.HAND),
        (3, 1, 600, PaymentKind.HONBA),
        (None, 1, 3000, PaymentKind.RIICHI_STICKS),
    ]
    d = deltas(pays, 4)
    assert d == [0, 5600, 0, -2600]
    assert sum(d) == 3000  # what left the table


def test_three_player_tsumo_loss_and_north_split() -> None:
    # non-dealer mangan tsumo with three players (Tenhou: tsumo loss, 4000 + 2000)
    hand = "111m123p789s23s55s +4s"
    hs = sc(hand, players=3, winner=1, dealer=0, riichi=True, dora_indicators="1p1p", ippatsu=True)
    assert hs.base_points == 2000
    assert deltas(win_payments(hs, honba=1), 3) == [-4100, 6200, -2100]
    split = TENHOU.replace(sanma_tsumo="north_split")
    hs = sc(hand, split, players=3, winner=1, dealer=0, riichi=True, dora_indicators="1p1p", ippatsu=True)
    assert deltas(win_payments(hs), 3) == [-5000, 8000, -3000]


def test_dealer_tsumo_three_players() -> None:
    hs = sc(
        "111m123p789s23s55s +4s",
        players=3,
        winner=0,
        dealer=0,
        riichi=True,
        dora_indicators="1p1p",
        ippatsu=True,
    )
    assert deltas(win_payments(hs), 3) == [8000, -4000, -4000]
    split = TENHOU.replace(sanma_tsumo="north_split")
    hs = sc(
        "111m123p789s23s55s +4s",
        split,
        players=3,
        winner=0,
        dealer=0,
        riichi=True,
        dora_indicators="1p1p",
        ippatsu=True,
    )
    assert deltas(win_payments(hs), 3) == [12000, -6000, -6000]


def test_three_player_ron_honba() -> None:
    hs = sc("111m123p789s23s55s +4s", players=3, winner=1, dealer=0, discarder=2, riichi=True)
    assert [p.points for p in win_payments(hs, honba=1) if p.kind is PaymentKind.HONBA] == [200]


@settings(max_examples=60, deadline=None)
@given(seat=st.integers(min_value=-6, max_value=9), winner=st.integers(min_value=0, max_value=3))
def test_a_liability_outside_the_seats_or_on_the_winner_is_refused(seat: int, winner: int) -> None:
    # a hand-made Liability is input too: a seat that is not another player's is refused, naming it,
    # and never wraps round to a seat (it indexes the payment tables)
    discarder = (winner + 1) % 4
    hs = sc("55m555z666z777z11z +5m", winner=winner, dealer=0, discarder=discarder)
    pao = (Liability("daisangen", seat, "explicit"),)
    if 0 <= seat < 4 and seat != winner:
        got = settle_win(hs, pao)
        assert got.deltas[seat] < 0 and got.deltas[winner] == 32000 + (16000 if winner == 0 else 0)
        return
    with pytest.raises(InvalidHandError, match=f"pao: daisangen: seat {seat} cannot be liable"):
        settle_win(hs, pao)
