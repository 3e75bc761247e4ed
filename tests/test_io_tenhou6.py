"""The tenhou.net/6 reader and writer (tenbou.io.tenhou6) on small inline records."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from tenbou.core.tiles import Tile
from tenbou.engine.events import (
    Chi,
    Daiminkan,
    Dora,
    EndGame,
    Hora,
    Kakan,
    Pon,
    ReachAccepted,
    Ryukyoku,
    Tsumo,
)
from tenbou.errors import LogFormatError
from tenbou.io.tenhou import mjlog_records
from tenbou.io.tenhou6 import code_of_tile, rules_of, tenhou6_records, tile_of_code, write_tenhou6
from tenbou.verify.verifier import verify_record

from .test_io_tenhou import HAND

# The same hand as tests/test_io_tenhou.py's HAND, as tenbou writes it in tenhou.net/6.
ROUND: list[Any] = json.loads(
    "[[2,0,0],[38400,20600,19600,21400],[23,13,25],[28,22,37],"
    '[31,42,29,14,42,22,18,18,41,24,34,31,32],["31p3131",43,23,32,31,46,19,"c222324",19,29,21],'
    '[29,14,41,43,"31k313131",60,34,42,22,60,60],'
    '[39,21,11,29,17,36,16,29,39,39,12,47,44],[19,"39m393939",36,16,36,24,25,53,34,32,21],'
    "[21,0,47,44,19,60,60,11,12,60,60],"
    "[31,37,11,16,34,45,22,11,38,17,28,47,19],[13,43,14,44,17,28,12,47,18,26,15],"
    '[31,34,45,47,44,22,43,60,38,37,"r26"],'
    '[27,52,26,41,17,45,35,42,33,28,41,39,26],[44,27,24,"4141p41",33,27,22,51,46,23,11],'
    "[39,45,42,17,44,35,60,60,60,27,60],"
    '["和了",[0,0,8700,-7700],[2,3,2,"40符3飜7700点","立直(1飜)","一発(1飜)","ドラ(1飜)"]]]'
)


def record(rounds: list[Any], **top: Any) -> str:
    obj = {
        "title": ["", ""],
        "name": ["A", "B", "C", "D"],
        "rule": {"disp": "鳳南喰赤", "aka": 1},
        "log": rounds,
    }
    obj.update(top)
    return json.dumps(obj, ensure_ascii=False)


def test_tiles() -> None:
    assert [str(tile_of_code(c)) for c in (11, 19, 21, 39, 41, 47, 51, 52, 53)] == [
        "1m", "9m", "1p", "9s", "1z", "7z", "0m", "0p", "0s",
    ]  # fmt: skip
    assert all(code_of_tile(tile_of_code(c)) == c for c in [*range(11, 20), *range(41, 48), 51, 52, 53])
    with pytest.raises(LogFormatError, match=r"not a tenhou\.net/6 tile"):
        tile_of_code(10)


def test_round_is_the_mjlog_hand() -> None:
    """The tenhou.net/6 round gives the very events the mjlog gives (its order rebuilt from the
    seats' lists, the kan dora where Tenhou shows them), without the 136-id detail."""
    rec = tenhou6_records(record([ROUND]), "r.json")[0]
    mjlog = mjlog_records(HAND, "hand.xml")[0]
    # the mjlog (written from a self-play game) shows the daiminkan's dora after the discard, Tenhou
    # right after the replacement draw: compare the other events, and the indicators (the mjlog
    # also states the winning tile and, on REACH, the scores after the stick)
    plain = [
        Hora(e.actor, e.target, None, e.ura_markers, e.deltas)
        if isinstance(e, Hora)
        else ReachAccepted(e.actor)
        if isinstance(e, ReachAccepted)
        else e
        for e in mjlog.events[1:]
        if not isinstance(e, Dora)
    ]
    assert [e for e in rec.events[1:] if not isinstance(e, Dora)] == plain
    assert [e for e in rec.events if isinstance(e, Dora)] == [e for e in mjlog.events if isinstance(e, Dora)]
    assert rec.hands[0].wins[0].yaku == mjlog.hands[0].wins[0].yaku
    assert rec.hands[0].wins[0].points == 7700 and rec.hands[0].wins[0].fu == 40
    lines = verify_record(rec)
    assert lines[0]["match"] is True


def test_calls() -> None:
    ev = tenhou6_records(record([ROUND]), "r.json")[0].events
    assert Pon(0, 2, Tile.parse("1s"), (Tile.parse("1s"), Tile.parse("1s"))) in ev  # "31p3131": from across
    assert Daiminkan(1, 3, Tile.parse("9s"), (Tile.parse("9s"),) * 3) in ev  # "39m393939": from the left
    assert (
        Pon(3, 0, Tile.parse("1z"), (Tile.parse("1z"), Tile.parse("1z"))) in ev
    )  # "4141p41": from the right
    assert Chi(0, 3, Tile.parse("2p"), (Tile.parse("3p"), Tile.parse("4p"))) in ev
    kakan = next(e for e in ev if isinstance(e, Kakan))
    assert kakan.pai == Tile.parse("1s") and kakan.actor == 0
    dm = next(i for i, e in enumerate(ev) if isinstance(e, Daiminkan))
    assert isinstance(ev[dm + 1], Tsumo) and isinstance(ev[dm + 2], Dora)
    assert ReachAccepted(2) in ev


@pytest.mark.parametrize(
    ("obj", "rules", "players", "skip"),
    [
        ({"rule": {"disp": "鳳南喰赤", "aka": 1}}, "tenhou", 4, None),
        ({"rule": {"disp": "特東喰赤速", "aka51": 1, "aka52": 1, "aka53": 1}},
         {"preset": "tenhou", "overrides": {"length": "tonpuu"}}, 4, None),
        ({"rule": {"disp": "般南喰", "aka": 0}}, {"preset": "tenhou", "overrides": {"red_fives": 0}},
         4, None),
        ({"rule": {"disp": "三鳳南喰赤", "aka": 1}}, "tenhou", 3, None),
        ({"rule": {"disp": "銅の間東喰赤", "aka": 1}},
         {"preset": "mahjongsoul", "overrides": {"length": "tonpuu"}}, 4, None),
        ({"rule": {"disp": "Gold Room South", "aka": 1}}, "mahjongsoul", 4, None),
        ({"rule": {"disp": "大会戦南喰", "aka": 1}}, "mahjongsoul", 4, None),
        ({"rule": {"disp": "x", "aka": 1}, "playerMapping": {}}, "mahjongsoul", 4, None),
        ({"rule": {"disp": "", "aka": 1}, "title": ["22-23赛季 半决赛", "2023/04/28"]}, "mleague", 4, None),
        ({"rule": {"disp": "", "aka": 1}, "title": ["M.LEAGUE 2023", ""]}, "mleague", 4, None),
        ({"rule": {"disp": "", "aka": 1}}, "tenhou", 4, "unmodelled rules"),
        ({"rule": {"disp": "鳳南喰赤祝5", "aka": 1}}, "tenhou", 4, "unmodelled rules"),
        ({"rule": {"disp": "x"}, "tenbou_rules": "ron2"}, "ron2", 4, None),
    ],
)  # fmt: skip
def test_rules(obj: dict[str, Any], rules: object, players: int, skip: str | None) -> None:
    got_rules, got_players, got_skip = rules_of(obj)
    assert got_players == players
    if skip is None:
        assert got_skip is None and got_rules == rules
    else:
        assert got_skip is not None and got_skip.startswith(skip)


@pytest.mark.parametrize(
    ("result", "kind", "reason", "deltas", "tenpai"),
    [
        (["流局", [1500, -1500, 1500, -1500]], "exhaustive_draw", None, (1500, -1500, 1500, -1500), (0, 2)),
        (["全員聴牌"], "exhaustive_draw", None, (0, 0, 0, 0), (0, 1, 2, 3)),
        (["全員不聴"], "exhaustive_draw", None, (0, 0, 0, 0), ()),
        (["流し満貫", [-4000, 12000, -4000, -4000]], "exhaustive_draw", "nagashi_mangan",
         (-4000, 12000, -4000, -4000), None),
        (["九種九牌"], "abortive_draw", "kyuushu_kyuuhai", (0, 0, 0, 0), None),
        (["四家立直"], "abortive_draw", "suucha_riichi", (0, 0, 0, 0), None),
        (["四風連打"], "abortive_draw", "suufon_renda", (0, 0, 0, 0), None),
        (["四槓散了"], "abortive_draw", "suukaikan", (0, 0, 0, 0), None),
        (["三家和了"], "abortive_draw", "sanchahou", (0, 0, 0, 0), None),
    ],
)  # fmt: skip
def test_draw_results(
    result: list[Any], kind: str, reason: str | None, deltas: tuple[int, ...], tenpai: object
) -> None:
    rnd = [*ROUND[:16], result]
    rec = tenhou6_records(record([rnd]), "d.json")[0]
    end = rec.hands[0]
    assert (end.kind, end.reason, end.deltas, end.tenpai) == (kind, reason, deltas, tenpai)
    assert isinstance(rec.events[-2], Ryukyoku)


@pytest.mark.parametrize(
    ("text", "who", "frm", "fu", "points", "limit"),
    [
        ("30符4飜7700点", 1, 0, 30, 7700, None),
        ("30符1飜500-1000点", 1, 1, 30, 2000, None),
        ("30符1飜500点∀", 2, 2, 30, 1500, None),
        ("満貫2000-4000点", 1, 1, None, 8000, "mangan"),
        ("役満16000-32000点", 3, 3, None, 64000, "kazoe_yakuman"),
        ("跳満12000点", 1, 3, None, 12000, "haneman"),
    ],
)
def test_win_values(text: str, who: int, frm: int, fu: int | None, points: int, limit: str) -> None:
    """Values from the text (the dealer is seat 2): a tsumo's points are the sum of the payments."""
    result = ["和了", [0, 0, 0, 0], [who, frm, who, text, "立直(1飜)"]]
    rnd = [*ROUND[:16], result]
    win = tenhou6_records(record([rnd]), "w.json")[0].hands[0].wins[0]
    assert (win.fu, win.points, win.limit) == (fu, points, limit)


def test_yaku_texts_and_pao() -> None:
    result = ["和了", [0, 49000, -24000, -24000], [1, 0, 2, "役満48000点", "大三元(役満)", "自風 東(1飜)"]]
    rnd = [*ROUND[:16], result]
    win = tenhou6_records(record([rnd]), "p.json")[0].hands[0].wins[0]
    assert win.yaku == {"daisangen": 13, "seat_wind": 1} and win.yakuman == ("daisangen",) and win.pao == 2
    bad = ["和了", [0, 0, 0, 0], [1, 0, 1, "30符1飜1000点", "謎の役(1飜)"]]
    with pytest.raises(LogFormatError, match="unknown yaku '謎の役'"):
        tenhou6_records(record([[*ROUND[:16], bad]]), "bad.json")


def test_json_lines_and_final_scores() -> None:
    one = record([ROUND])
    text = one + "\n" + one + "\n"
    recs = tenhou6_records(text, "lines.json")
    assert len(recs) == 1 and len(recs[0].hands) == 2  # the same players and rules: one game
    other = record([ROUND], name=["E", "F", "G", "H"])
    assert len(tenhou6_records(one + "\n" + other, "two.json")) == 2
    rec = tenhou6_records(record([ROUND], sc=[38400, 20.4, 20600, -9.4, 27300, 7.3, 13700, -18.3]), "f.json")[
        0
    ]
    assert rec.final_scores == (38400, 20600, 27300, 13700) and rec.events[-1] == EndGame(rec.final_scores)


def test_errors_name_the_round() -> None:
    broken = [*ROUND[:5], ["31q3131"], *ROUND[6:]]
    with pytest.raises(LogFormatError, match=r"b\.json: log\[0\] seat 0: '31q3131'"):
        tenhou6_records(record([broken]), "b.json")
    unordered = [*ROUND[:6], [37, *ROUND[6][1:]], *ROUND[7:]]  # seat 0 discards a 7s it never held
    with pytest.raises(
        LogFormatError, match=r"u\.json: log\[0\]: the seats' actions cannot be put in an order"
    ):
        tenhou6_records(record([unordered]), "u.json")


def _tenhou_sorted(hand: list[int]) -> list[int]:
    """A starting hand as Tenhou writes it: by tile, a red five (51-53) after the plain fives."""
    return sorted(hand, key=lambda c: (c % 10, 5.5) if c > 50 else (c // 10, c % 10))


def test_writer_round_trip() -> None:
    rec = tenhou6_records(record([ROUND]), "r.json")[0]
    sorted_round = [_tenhou_sorted(x) if i in (4, 7, 10, 13) else x for i, x in enumerate(ROUND)]
    assert sorted_round != ROUND and sorted_round[13][:3] == [17, 52, 26]  # 7m, the red 5p, 6p
    again = tenhou6_records(write_tenhou6(rec).decode(), "again.json")[0]
    assert again == tenhou6_records(record([sorted_round]), "again.json")[0]
    assert again.hands == rec.hands and again.rules == rec.rules and again.events[2:] == rec.events[2:]
    out = json.loads(write_tenhou6(rec))
    assert out["log"][0] == sorted_round
    assert out["rule"] == {"disp": "鳳南喰赤", "aka": 1, "aka51": 1, "aka52": 1, "aka53": 1}


def test_writer_per_kyoku_and_final_results() -> None:
    """One kyoku a line (NAGA, Tenhou's editor, mjx), the final sc on the last; the record's own
    final results kept (Tenhou's rounding), else worked out from the points under the rules."""
    sc = [38400, 20.4, 20600, -9.4, 27300, 7.3, 13700, -18.3]
    rec = tenhou6_records(record([ROUND, ROUND], sc=sc), "two.json")[0]
    assert rec.meta["final_results"] == [20.4, -9.4, 7.3, -18.3]
    lines = write_tenhou6(rec, per_kyoku=True).decode().splitlines()
    objs = [json.loads(x) for x in lines]
    assert len(objs) == 2 and all(len(o["log"]) == 1 for o in objs)
    assert "sc" not in objs[0] and objs[1]["sc"] == sc
    again = tenhou6_records("\n".join(lines), "lines.json")
    assert len(again) == 1 and again[0].hands == rec.hands and again[0].final_scores == rec.final_scores
    assert json.loads(write_tenhou6(again[0]))["sc"] == sc
    plain = tenhou6_records(record([ROUND], sc=[38400, 0, 20600, 0, 27300, 0, 13700, 0]), "p.json")[0]
    worked_out = replace(plain, meta={})
    # 38,400 first: +8.4 + 20 uma + 20 oka; 27,300: -2.7 + 10; 20,600: -9.4 - 10; 13,700: -16.3 - 20
    assert json.loads(write_tenhou6(worked_out))["sc"] == [
        38400,
        48.4,
        20600,
        -19.4,
        27300,
        7.3,
        13700,
        -36.3,
    ]


def test_damaged_records_raise_only_log_format_errors() -> None:
    """Every one-character change or cut of a record either reads or raises LogFormatError."""
    import contextlib
    import random

    from tenbou.io.read import parse_records

    rng = random.Random(5)
    texts = [record([ROUND]), HAND.decode()]
    for _ in range(400):
        text = rng.choice(texts)
        i = rng.randrange(len(text))
        damaged = text[:i] + rng.choice('0123456789,[]{}"prkacmf- ') + text[i + 1 :]
        if rng.random() < 0.2:
            damaged = text[:i]
        with contextlib.suppress(LogFormatError):
            parse_records(damaged.encode(), "damaged")


def test_a_win_without_yaku_texts_is_checked_on_its_value_text() -> None:
    """A win that lists no yaku (only the value text) has no yaku list, not an empty one: its
    han are those its text states, never '0 han'."""
    bare = ["和了", [0, 0, 8700, -7700], [2, 3, 2, "40符3飜7700点"]]
    win = tenhou6_records(record([[*ROUND[:16], bare]]), "bare.json")[0].hands[0].wins[0]
    assert win.yaku is None and win.yakuman == () and win.han is None
    assert (win.stated_han, win.fu, win.points, win.limit, win.limit_known) == (3, 40, 7700, None, True)
    (line,) = verify_record(tenhou6_records(record([[*ROUND[:16], bare]]), "bare.json")[0])
    assert line["match"] is True and "mismatches" not in line
    # a value text that disagrees is reported for what it says (the text's han), not as 0 han
    wrong = ["和了", [0, 0, 8700, -7700], [2, 3, 2, "40符2飜7700点"]]
    (line,) = verify_record(tenhou6_records(record([[*ROUND[:16], wrong]]), "wrong.json")[0])
    assert [(m["kind"], m["detail"]) for m in line["mismatches"]] == [
        ("han", "seat 2: 3 han, the record's value text 2")
    ]
    # the same win with its yaku listed is compared on them too
    listed = ["和了", [0, 0, 8700, -7700], [2, 3, 2, "40符3飜7700点", "立直(1飜)", "ドラ(1飜)"]]
    (line,) = verify_record(tenhou6_records(record([[*ROUND[:16], listed]]), "listed.json")[0])
    assert {m["kind"] for m in line["mismatches"]} == {"yaku", "han"}
    assert "the record 2" in next(m["detail"] for m in line["mismatches"] if m["kind"] == "han")


@pytest.mark.parametrize(
    ("texts", "limit", "known"),
    [
        ([], "yakuman", False),  # a yakuman, or a kazoe yakuman: the text does not say
        (["大三元(役満)"], "yakuman", True),
        (["立直(1飜)", "ドラ(12飜)"], "kazoe_yakuman", True),
    ],
)
def test_a_yakuman_text_without_yaku_says_no_limit(texts: list[str], limit: str, known: bool) -> None:
    result = ["和了", [0, 49000, -24000, -24000], [1, 0, 1, "役満48000点", *texts]]
    win = tenhou6_records(record([[*ROUND[:16], result]]), "y.json")[0].hands[0].wins[0]
    assert (win.limit, win.limit_known, win.points) == (limit, known, 48000)
    assert (win.yaku is None) is (not texts)


def test_indicator_lists() -> None:
    """An empty ura list is a hand with no ura shown; an empty dora list cannot be (every hand
    shows its first indicator), and is refused saying so; a list that is not one names its field."""
    rec = tenhou6_records(record([[*ROUND[:3], [], *ROUND[4:]]]), "no_ura.json")[0]
    assert rec.hands[0].ura == () and rec.hands[0].dora == tuple(tile_of_code(c) for c in ROUND[2])
    with pytest.raises(LogFormatError) as refused:
        tenhou6_records(record([[*ROUND[:2], [], *ROUND[3:]]]), "no_dora.json")
    assert str(refused.value) == (
        "no_dora.json: log[0]: the dora indicators are an empty list: every hand shows its first "
        "indicator from the start, and the hand's dora cannot be counted without it"
    )
    for at, name in ((2, "dora"), (3, "ura")):
        broken = [*ROUND[:at], 23, *ROUND[at + 1 :]]
        with pytest.raises(LogFormatError, match=rf"log\[0\]: the {name} indicators must be a list, not 23$"):
            tenhou6_records(record([broken]), "x.json")
