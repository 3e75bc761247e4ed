"""The mjlog reader as events (``mjlog_records``) and the mjlog writer, on small inline records."""

from __future__ import annotations

import gzip

import pytest

from tenbou.core.tiles import Tile, Wind
from tenbou.engine.events import (
    Chi,
    Dahai,
    Daiminkan,
    Dora,
    EndGame,
    EndKyoku,
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
from tenbou.errors import LogFormatError
from tenbou.io.read import detect_format, parse_records
from tenbou.io.tenhou import (
    GameType,
    TenhouMeldType,
    decode_meld,
    encode_meld,
    mjlog_records,
    write_mjlog,
)
from tenbou.verify.verifier import verify_record

# One hand (South 3, seat 2 deals) with a pon, a daiminkan and its dora, a kakan, a chi, a riichi and an
# ippatsu ron; written by tenbou from a self-play game.
HAND = (
    b'<mjloggm ver="2.3"><GO type="169" lobby="0"/><UN n0="A" n1="B" n2="C" n3="D" dan="" rate="" sx=""/>'
    b'<TAIKYOKU oya="0"/><INIT seed="2,0,0,0,0,44" ten="384,206,196,214" oya="2" '
    b'hai0="72,112,68,12,113,40,28,29,108,48,84,73,76" hai1="104,36,0,69,24,92,20,70,105,106,4,132,120" '
    b'hai2="74,96,1,21,85,124,41,2,100,25,64,133,32" hai3="60,52,56,109,26,125,89,114,80,65,110,107,57"/>'
    b'<V8/><F74/><N who="0" m="28778"/><D68/><U33/><E36/><V116/><F85/><W121/><G107/><N who="1" m="27394"/>'
    b'<U93/><E132/><DORA hai="9"/><V13/><F124/><W61/><G125/><T117/><D12/><U22/><E120/><V122/><F133/><W49/>'
    b'<G114/><T45/><D108/><N who="3" m="41577"/><G26/><T77/><D117/><U94/><E33/><V27/><F122/><W81/><G121/>'
    b'<T75/><N who="0" m="28786"/><T128/><D128/><DORA hai="53"/><U50/><E50/><V66/><F41/><W62/><G89/><T34/>'
    b'<D84/><U54/><E54/><V5/><F116/><W42/><G42/><N who="0" m="24631"/><D112/><U88/><E0/><V134/><F134/>'
    b"<W16/><G16/><T35/><D40/><U86/><E4/><V30/><F100/><W129/><G129/><T71/><D71/><U78/><E78/><V58/><F96/>"
    b'<W46/><G60/><T37/><D37/><U38/><E38/><V17/><REACH who="2" step="1"/><F58/>'
    b'<REACH who="2" step="2" ten="384,206,186,214"/><W3/><G3/><AGARI ba="0,1" '
    b'hai="1,2,3,5,8,13,17,21,25,27,30,32,64,66" machi="3" ten="40,7700,0" yaku="1,1,2,1,52,1" '
    b'doraHai="44,9,53" doraHaiUra="67,43,97" who="2" fromWho="3" sc="384,0,206,0,186,87,214,-77"/></mjloggm>'
)


def _draws(kind: str, sc: str, extra: str = "", owari: str = "") -> bytes:
    """A record whose only hand ends at once in a RYUUKYOKU (no tiles played)."""
    return (
        '<mjloggm ver="2.3"><GO type="169"/><INIT seed="0,0,0,1,1,5" ten="250,250,250,250" oya="0" '
        'hai0="0,1,2,3,4,5,6,7,8,9,10,11,12" hai1="13,14,15,16,17,18,19,20,21,22,23,24,25" '
        'hai2="26,27,28,29,30,31,32,33,34,35,36,37,38" hai3="39,40,41,42,43,44,45,46,47,48,49,50,51"/>'
        f'<RYUUKYOKU {kind} ba="0,0" sc="{sc}" {extra} {owari}/></mjloggm>'
    ).encode()


def test_hand_events() -> None:
    rec = mjlog_records(HAND, "hand.xml")[0]
    assert rec.rules == "tenhou" and rec.skip is None and rec.names == ("A", "B", "C", "D")
    ev = rec.events
    assert isinstance(ev[0], StartGame)
    start = ev[1]
    assert isinstance(start, StartKyoku)
    assert (start.bakaze, start.kyoku, start.oya, start.honba, start.kyotaku) == (Wind.EAST, 3, 2, 0, 0)
    assert start.scores == (38400, 20600, 19600, 21400) and start.dora_marker == Tile.parse("3p")
    assert ev[2:5] == (
        Tsumo(2, Tile.parse("3m")),
        Dahai(2, Tile.parse("1s"), False),
        Pon(0, 2, Tile.parse("1s"), (Tile.parse("1s"), Tile.parse("1s"))),
    )
    kinds = [type(e) for e in ev]
    assert kinds.count(Daiminkan) == 1 and kinds.count(Kakan) == 1 and kinds.count(Chi) == 1
    dm = next(e for e in ev if isinstance(e, Daiminkan))
    assert (dm.actor, dm.target, dm.pai) == (1, 3, Tile.parse("9s"))
    # the daiminkan's dora is shown after the replacement draw, as Tenhou writes it
    i = ev.index(dm)
    assert isinstance(ev[i + 1], Tsumo) and ev[i + 3] == Dora(Tile.parse("3m"))
    kakan = next(e for e in ev if isinstance(e, Kakan))
    assert (kakan.actor, kakan.pai) == (0, Tile.parse("1s"))
    tsumogiri = [e for e in ev if isinstance(e, Dahai) and e.tsumogiri]
    assert tsumogiri and all(isinstance(ev[ev.index(e) - 1], Tsumo) for e in tsumogiri)
    assert Reach(2) in ev and ReachAccepted(2, None, (38400, 20600, 18600, 21400)) in ev  # REACH ten
    hora = ev[-2]
    assert isinstance(hora, Hora) and (hora.actor, hora.target, hora.pai) == (2, 3, Tile.parse("1m"))
    assert hora.deltas == (0, 0, 8700, -7700) and hora.ura_markers is not None and len(hora.ura_markers) == 3
    assert ev[-1] == EndKyoku()
    end = rec.hands[0]
    assert end.kind == "win" and end.deltas == (0, 0, 8700, -7700)
    win = end.wins[0]
    assert (win.yaku, win.fu, win.points, win.pao, win.pao_known) == (
        {"riichi": 1, "ippatsu": 1, "dora": 1},
        40,
        7700,
        None,
        True,
    )


def test_hand_replays_like_the_record() -> None:
    lines = verify_record(mjlog_records(HAND, "hand.xml")[0])
    assert len(lines) == 1 and lines[0]["match"] is True and lines[0]["deltas"] == [0, 0, 8700, -7700]
    assert [y["id"] for y in lines[0]["results"][0]["yaku"]] == ["riichi", "ippatsu", "dora"]


@pytest.mark.parametrize(
    ("kind", "reason", "name", "hand_kind"),
    [
        ('type="yao9"', "kyushukyuhai", "kyuushu_kyuuhai", "abortive_draw"),
        ('type="kaze4"', "suufonrenda", "suufon_renda", "abortive_draw"),
        ('type="reach4"', "suuchariichi", "suucha_riichi", "abortive_draw"),
        ('type="ron3"', "sanchaho", "sanchahou", "abortive_draw"),
        ('type="kan4"', "suukaikan", "suukaikan", "abortive_draw"),
        ('type="nm"', "nagashimangan", "nagashi_mangan", "exhaustive_draw"),
        ("", None, None, "exhaustive_draw"),
    ],
)
def test_ryuukyoku_types(kind: str, reason: str | None, name: str | None, hand_kind: str) -> None:
    rec = mjlog_records(_draws(kind, "250,0,250,0,250,0,250,0"), "d.xml")[0]
    ryu = rec.events[-2]
    assert isinstance(ryu, Ryukyoku) and ryu.reason == reason and ryu.deltas == (0, 0, 0, 0)
    assert rec.hands[0].kind == hand_kind and rec.hands[0].reason == name


def test_exhaustive_draw_tenpai_and_owari() -> None:
    data = _draws(
        "",
        "250,15,250,-15,250,15,250,-15",
        'hai0="0,1" hai2="26,27"',
        'owari="265,5.5,235,-12.5,265,24.5,235,-17.5"',
    )
    rec = mjlog_records(data, "d.xml")[0]
    ryu = rec.events[-3]
    assert isinstance(ryu, Ryukyoku) and ryu.tenpais == (True, False, True, False)
    assert rec.hands[0].tenpai == (0, 2) and rec.hands[0].deltas == (1500, -1500, 1500, -1500)
    assert rec.events[-1] == EndGame((26500, 23500, 26500, 23500)) and rec.final_scores == (
        26500,
        23500,
        26500,
        23500,
    )


@pytest.mark.parametrize(
    ("code", "rules", "skip"),
    [
        (0xA9, "tenhou", None),
        (0xE1, {"preset": "tenhou", "overrides": {"length": "tonpuu"}}, None),
        (0x0B, {"preset": "tenhou", "overrides": {"red_fives": 0}}, None),
        (0x0D, {"preset": "tenhou", "overrides": {"open_tanyao": False}}, None),
        (0x229, {"preset": "tenhou", "overrides": {}}, "chip room"),
        (0x841, None, "0x800"),
        (0x101, None, "private lobby"),
    ],
)
def test_go_type_rules(code: int, rules: object, skip: str | None) -> None:
    gt = GameType(code)
    if rules is not None and skip is None:
        assert gt.rules_json() == rules
    reason = gt.unmodelled()
    assert (reason is None) == (skip is None)
    if skip:
        assert reason is not None and skip in reason and reason.startswith("unmodelled rules")


def test_unmodelled_record_is_skipped() -> None:
    data = _draws("", "250,0,250,0,250,0,250,0").replace(b'type="169"', b'type="553"')
    rec = mjlog_records(data, "chip.xml")[0]
    assert rec.skip is not None and "chip room" in rec.skip
    assert verify_record(rec) == [{"source": "chip.xml", "game": 0, "skipped": rec.skip}]


def test_inconsistent_record_is_skipped() -> None:
    rec = mjlog_records(_draws("", "240,0,250,0,250,0,260,0"), "x.xml")[0]
    assert rec.skip is not None and rec.skip.startswith("inconsistent record:")


def test_gzip_and_stray_prefix() -> None:
    data = _draws("", "250,0,250,0,250,0,250,0")
    packed = gzip.compress(data)
    assert detect_format(packed) == "mjlog"
    assert parse_records(packed, "g.mjlog")[0].events == mjlog_records(data)[0].events
    rec = mjlog_records(b"2" + data, "stray")[0]
    assert rec.warnings and "stray" in rec.warnings[0]


def test_errors_name_the_file_and_element() -> None:
    with pytest.raises(LogFormatError, match=r"bad\.xml: <RYUUKYOKU> in round 1: type='x'"):
        mjlog_records(_draws('type="x"', "250,0,250,0,250,0,250,0"), "bad.xml")
    with pytest.raises(LogFormatError, match=r"bad\.xml: no <GO>"):
        mjlog_records(b'<mjloggm ver="2.3"></mjloggm>', "bad.xml")
    with pytest.raises(LogFormatError, match="not well-formed"):
        mjlog_records(b"<mjloggm", "bad.xml")


def test_sanma_calls_count_four_seats() -> None:
    # Tenhou's relative source counts around four seats with three players: seat 2 calling seat 0's
    # discard is 2 seats on (the empty fourth seat counted), seat 0 calling seat 1's is 1 on.
    assert decode_meld(15882, True).from_seat(2, players=3) == 0
    assert decode_meld(15881, True).from_seat(0, players=3) == 1
    with pytest.raises(LogFormatError, match="empty"):
        decode_meld(15883, True).from_seat(0, players=3)
    kita = decode_meld(31008, True)
    assert kita.type is TenhouMeldType.KITA
    data = (
        b'<mjloggm ver="2.3"><GO type="185"/><INIT seed="0,0,0,2,1,70" ten="350,350,350,0" oya="0" '
        b'hai0="0,1,2,3,32,33,34,35,36,37,38,39,120" hai1="40,41,42,43,44,45,46,47,48,49,50,51,121" '
        b'hai2="56,57,58,59,60,61,62,63,64,65,66,67,124" hai3=""/><T68/><N who="0" m="30752"/><T69/>'
        b'<RYUUKYOKU type="yao9" ba="0,0" sc="350,0,350,0,350,0,0,0"/></mjloggm>'
    )
    rec = mjlog_records(data, "sanma.xml")[0]
    assert rec.players == 3 and len(rec.starts[0].tehais) == 3 and rec.starts[0].scores == (35000,) * 3
    assert Nukidora(0, Tile.parse("4z")) in rec.events


def test_encode_meld_inverts_decode() -> None:
    for code in (47655, 15881, 49778, 24576, 29699, 30752, 28778, 27394, 41577, 24631):
        m = decode_meld(code, True)
        again = decode_meld(encode_meld(m.type, m.ids, m.called_id, m.relative_from), True)
        assert (again.type, again.ids, again.called_id, again.relative_from) == (
            m.type,
            m.ids,
            m.called_id,
            m.relative_from,
        )


def test_writer_round_trip() -> None:
    rec = mjlog_records(HAND, "hand.xml")[0]
    again = mjlog_records(write_mjlog(rec), "again.xml")[0]
    assert again.events == rec.events and again.hands == rec.hands and again.rules == rec.rules


def test_writer_keeps_other_rules() -> None:
    from dataclasses import replace

    rec = replace(mjlog_records(HAND, "hand.xml")[0], rules="mahjongsoul")
    data = write_mjlog(rec)
    assert b"rules=" in data
    assert mjlog_records(data)[0].rules == "mahjongsoul"
