from __future__ import annotations

import pytest

from tenbou.core.hand import Hand, Meld, MeldType, Situation
from tenbou.core.tiles import Tile, Wind, parse_tiles
from tenbou.errors import NotationError


def test_meld_notation_round_trip() -> None:
    for text in ("pon:555z@2", "chi:345m@3", "chi:340m@3=0m", "kan:5555p@1", "kakan:7777z@0", "ankan:1111s"):
        m = Meld.parse(text)
        assert Meld.parse(m.notation()) == m
        assert eval(repr(m)) == m


def test_meld_properties() -> None:
    m = Meld.parse("kan:5555p@1")
    assert m.type is MeldType.DAIMINKAN and m.is_kan and m.is_open and m.from_seat == 1 and m.kind == 13
    a = Meld.parse("ankan:1111s")
    assert a.type is MeldType.ANKAN and not a.is_open and a.from_seat is None


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("chi:135m@3", "a chi must be a run"),
        ("chi:123z@3", "a chi must be a run"),
        ("chi:789m1p@3", "a chi needs three tiles"),
        ("chi:891m@3", "a chi must be a run"),
        ("pon:556z@2", "a pon needs three tiles of one kind"),
        ("kan:555z@2", "a kan needs four tiles of one kind"),
        ("ankan:5555z@2", "an ankan is not called from anyone"),
        ("pon:555z", "needs the seat it was called from"),
        ("pon:555z@7", "'7' is not a seat"),
        ("pon:555z@2=6z", "the called tile 6z is not in the meld"),
        ("pan:555z@2", "'pan' is not a meld type"),
        ("555z@2", "a meld is written type:tiles"),
        ("pon:558z@2", "'8z' is not a tile"),
    ],
)
def test_bad_melds_are_refused(text: str, fragment: str) -> None:
    with pytest.raises(NotationError) as e:
        Meld.parse(text)
    assert fragment in str(e.value)
    assert repr(text) in str(e.value) or text in str(e.value)


def test_hand_notation_round_trip_and_repr() -> None:
    h = Hand.parse("23m55p +4m pon:555z@2 pon:666z@0 pon:777z@3")
    assert str(h) == "23m55p +4m pon:555z@2 pon:666z@0 pon:777z@3"
    assert Hand.parse(str(h)) == h
    assert eval(repr(h)) == h
    assert Hand.parse("123m456p789s1122z+2z") == Hand.parse("123m456p789s1122z +2z")
    assert h.win_tile == Tile.parse("4m") and len(h.melds) == 3 and not h.is_closed


def test_hand_request_fields() -> None:
    h = Hand.parse("234m678p5578s +9s ankan:7777z")
    assert h.request_fields() == {
        "hand": "234m678p5578s",
        "win_tile": "9s",
        "melds": [{"type": "ankan", "tiles": "7777z"}],
    }
    assert h.is_closed


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("123m456p789s112z +2z", "must hold 13 concealed tiles"),
        ("23m55p +4m pon:555z@2", "must hold 10 concealed tiles"),
        ("1111m456p789s122z +1m", "5 copies of 1m"),
        ("1111m234p567s +9p chi:123m@3", "5 copies of 1m"),
        ("1111m23456p7s +7s pon:111m@2", "7 copies of 1m"),
        ("2m456p789s112z +2z kan:2222m@1", "5 copies of 2m"),
        ("123m456p789s1122z", "no winning tile"),
        ("123m456p789s1122z +2z +3z", "two winning tiles"),
        ("123m456p789s1122z +2z3z", "expected one tile"),
        ("23m55p pon:555z@2 +4m junk", "unexpected 'junk'"),
    ],
)
def test_bad_hands_are_refused(text: str, fragment: str) -> None:
    with pytest.raises(NotationError) as e:
        Hand.parse(text)
    assert fragment in str(e.value)


def test_hand_counts_kans_as_four_copies() -> None:
    with pytest.raises(NotationError, match="5 copies of 7z"):
        Hand(parse_tiles("234m678p5577s"), (Meld.parse("ankan:7777z"),), Tile.parse("7z"))


def test_situation_is_a_value_record() -> None:
    s = Situation(players=4, dealer=1, winner=2, discarder=0, riichi=True, dora_indicators=(Tile(4),))
    same = Situation(4, 1, 2, 0, Wind.EAST, True, dora_indicators=(Tile(4),))
    assert s == same and hash(s) == hash(same) and len({s, same}) == 1
    assert s != Situation(players=4, dealer=1, winner=2, discarder=0) and s != ("not", "a", "situation")
    assert s._fields[:5] == ("players", "dealer", "winner", "discarder", "round_wind")
    assert repr(s).startswith("Situation(players=4, dealer=1, winner=2, discarder=0, round_wind=<Wind.EAST")
    moved = s._replace(winner=3, riichi=False)
    assert (moved.winner, moved.riichi, moved.dealer, s.winner) == (3, False, 1, 2)
    with pytest.raises(TypeError, match="no field 'seat'"):
        s._replace(seat=1)


def test_records_rebuild_from_their_fields_by_position_and_name_and_pickle() -> None:
    import copy
    import pickle

    from tenbou.core.scoring import score_hand
    from tenbou.core.values import Record
    from tenbou.rules import get_rules
    from tenbou.settle.payment import Payment, PaymentKind, settle_win

    s = Situation(winner=2, discarder=1, riichi=True, dora_indicators=(Tile(4),))
    hs = score_hand(
        Hand.parse("234m678p55s77z +7z chi:456p@1"), s._replace(riichi=False), get_rules("tenhou")
    )
    win = settle_win(hs, (), 1, 1)
    p = win.payments[-1]
    assert p == Payment(None, 2, 1000, PaymentKind.RIICHI_STICKS)
    for record in (s, hs, win, p):
        assert isinstance(record, Record)
        cls, values = type(record), record._values()
        assert len(set(map(id, values))) > 1 and len(values) == len(cls._fields)
        assert cls(*values) == record == cls(**dict(zip(cls._fields, values, strict=True)))
        assert copy.copy(record) == record
    for value in (s, p, hs.hand, *hs.hand.melds):  # (a HandScore holds its Reading, compared by identity)
        assert pickle.loads(pickle.dumps(value)) == value == copy.deepcopy(value)
    kind = "<PaymentKind.RIICHI_STICKS: 'riichi_sticks'>"
    assert repr(p) == f"Payment(payer=None, receiver=2, points=1000, kind={kind})"
