"""A chombo ends a hand in the engine: ``ryukyoku`` of reason ``chombo`` naming its offender
(``actor``) stops the hand at any moment of play, is settled by the rules' ``chombo``, gives the
riichi sticks of the hand back, and the game deals the same hand again; under ``final_score`` the
game's end takes ``chombo_points`` from the offender's final score."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from tenbou.cli import main
from tenbou.core.tiles import Tile
from tenbou.engine.events import (
    EndGame,
    EndKyoku,
    Hora,
    Ryukyoku,
    StartGame,
    event_from_json,
    event_to_json,
)
from tenbou.engine.game import Game
from tenbou.engine.round import Round
from tenbou.errors import IllegalEventError
from tenbou.io.mjai import mjai_records
from tenbou.rules import get_rules
from tenbou.verify import write_records
from tenbou.verify.verifier import verify_record

from .script import events, start

TENHOU = get_rules("tenhou")
MANGAN = TENHOU.replace(chombo="mangan")
#: every seat goes for riichi in turn (seat 1's 5p completes seat 0's hand)
HANDS = ["123m456m789m123p4p", "123s456s789s123p5p", "123m456s789p11z22z", "789m123s456p33z44z"]
#: seats 0 and 1 declare riichi and have their sticks accepted; seat 2 draws
TWO_RIICHI = "0t5z 0r 0d5z 0R 1t6z 1r 1d6z 1R 2t7z"


def test_a_chombo_pays_a_mangan_and_gives_the_sticks_back() -> None:
    rnd = Round(MANGAN, start(HANDS, dealer=0, honba=2, kyotaku=1))
    events(rnd, TWO_RIICHI)
    assert [s.score for s in rnd.seats] == [24000, 24000, 25000, 25000]
    rnd.apply(Ryukyoku(reason="chombo", actor=2))
    assert rnd.result is not None
    st = rnd.result.settlement
    assert st.kind == "chombo" and st.offender == 2
    # seat 2 pays 4,000 to the dealer and 2,000 to each other; seats 0 and 1 get their sticks back
    assert st.deltas == (5000, 3000, -8000, 2000)
    assert [s.score for s in rnd.seats] == [29000, 27000, 17000, 27000]
    assert (st.next.dealer, st.next.honba, st.next.riichi_sticks) == (0, 2, 1)


def test_a_chombo_under_final_score_moves_only_the_sticks() -> None:
    rnd = Round(TENHOU, start(HANDS))
    events(rnd, TWO_RIICHI)
    rnd.apply(Ryukyoku(reason="chombo", actor=0))
    assert rnd.result is not None and rnd.result.settlement.deltas == (1000, 1000, 0, 0)


@pytest.mark.parametrize(
    "event, why",
    [
        (Ryukyoku(reason="chombo"), "names its offender"),
        (Ryukyoku(reason="chombo", actor=4), "not a seat"),
    ],
)
def test_a_chombo_without_its_offender_is_refused(event: Ryukyoku, why: str) -> None:
    rnd = Round(TENHOU, start(HANDS))
    events(rnd, "0t5z")
    problems = rnd.check(event)
    assert problems and why in problems[0]
    with pytest.raises(IllegalEventError):
        rnd.apply(event)
    assert rnd.result is None  # refused: nothing changed


def test_a_chombo_cannot_follow_a_win() -> None:
    rnd = Round(TENHOU, start(HANDS))
    events(rnd, "0t5z 0d5z 1t4p 1d4p")
    rnd.apply(Hora(0, 1, Tile.parse("4p")))
    assert rnd.check(Ryukyoku(reason="chombo", actor=2))


def _game_with_chombo(rules: object, offender: int) -> Game:
    """East 1: the dealer's draw, then a chombo; the same hand again, then a draw of the wall
    that ends the game at once (tobi off, a one-hand game: length tonpuu ends with the last)."""
    g = Game(TENHOU if rules is None else rules, length="tonpuu")  # type: ignore[arg-type]
    g.apply(StartGame())
    g.apply(start(HANDS))
    rnd = g.round
    assert rnd is not None
    events(rnd, "0t5z")
    g.apply(Ryukyoku(reason="chombo", actor=offender))
    g.apply(EndKyoku())
    return g


def test_the_game_deals_the_same_hand_again() -> None:
    g = _game_with_chombo(MANGAN, 1)
    assert g.hands[-1].kind == "chombo" and g.hands[-1].settlement["offender"] == 1
    assert g.expected_start()[:5] == (start(HANDS).bakaze, 1, 0, 0, 0)
    assert g.scores == [29000, 17000, 27000, 27000]
    assert not g.ended


def test_final_score_takes_the_chombo_points_after_uma() -> None:
    for rules, expected in ((TENHOU, 20.0), (TENHOU.replace(chombo_points=8000), 8.0), (MANGAN, 0.0)):
        with_chombo = _game_with_chombo(rules, 1)
        with_chombo.apply(EndGame())
        plain = Game(rules)
        plain.apply(StartGame())
        plain.apply(EndGame())
        assert with_chombo.final is not None and plain.final is not None
        if rules is MANGAN:  # paid at the table: the points, not a penalty, differ
            assert with_chombo.final.points != plain.final.points
        else:
            assert with_chombo.final.points == plain.final.points
            got = [
                a - b for a, b in zip(with_chombo.final.final_scores, plain.final.final_scores, strict=True)
            ]
            assert got == [0.0, -expected, 0.0, 0.0]


def test_a_chombo_that_busts_a_player_ends_the_game_under_tobi() -> None:
    g = Game(MANGAN, length="tonpuu")
    g.apply(StartGame())
    g.apply(start(HANDS, scores=(25000, 5000, 35000, 35000)))
    rnd = g.round
    assert rnd is not None
    events(rnd, "0t5z")
    g.apply(Ryukyoku(reason="chombo", actor=1))
    g.apply(EndKyoku())
    assert g.ended and g.scores[1] < 0


def test_a_chombo_reads_and_writes_as_mjai() -> None:
    obj = {"type": "ryukyoku", "reason": "chombo", "actor": 3, "deltas": [2000, 2000, 4000, -8000]}
    ev = event_from_json(obj)
    assert ev == Ryukyoku(reason="chombo", deltas=(2000, 2000, 4000, -8000), actor=3)
    assert event_to_json(ev) == obj


# -- records: read, verified, written -----------------------------------------------------------


def _record_lines(deltas: list[int]) -> list[str]:
    """An mjai record: East 1 stopped by seat 1's chombo (a mangan), dealt again; seat 0 wins it."""
    import json

    hand = start(HANDS)
    lines = [
        {
            "type": "start_game",
            "names": ["a", "b", "c", "d"],
            "tenbou_rules": {"preset": "tenhou", "overrides": {"chombo": "mangan"}},
        },
        event_to_json(hand),
        {"type": "tsumo", "actor": 0, "pai": "E"},
        {"type": "ryukyoku", "reason": "chombo", "actor": 1, "deltas": deltas},
        {"type": "end_kyoku"},
        event_to_json(replace(hand, scores=(29000, 17000, 27000, 27000))),
        {"type": "tsumo", "actor": 0, "pai": "4p"},
        {"type": "hora", "actor": 0, "target": 0, "pai": "4p"},
        {"type": "end_kyoku"},
        {"type": "end_game"},
    ]
    return [json.dumps(x, ensure_ascii=False) for x in lines]


def test_a_record_with_a_chombo_verifies_hand_by_hand() -> None:
    rec = mjai_records("\n".join(_record_lines([4000, -8000, 2000, 2000])), "chombo.jsonl")[0]
    assert rec.hands[0].kind == "chombo" and rec.hands[0].offender == 1
    lines = verify_record(rec)
    assert [line["kind"] for line in lines] == ["chombo", "win"]
    assert lines[0]["offender"] == 1 and lines[0]["match"] is True


def test_a_chombo_paid_otherwise_than_the_rules_say_is_a_mismatch() -> None:
    rec = mjai_records("\n".join(_record_lines([2000, -8000, 2000, 4000])), "chombo.jsonl")[0]
    line = verify_record(rec)[0]
    assert line["match"] is False and [m["kind"] for m in line["mismatches"]] == ["deltas", "next"]


def test_tenhou6_and_mjlog_leave_the_chombo_hand_out() -> None:
    import json

    rec = mjai_records("\n".join(_record_lines([4000, -8000, 2000, 2000])), "chombo.jsonl")[0]
    six = json.loads(write_records([rec], "tenhou6"))
    assert len(six["log"]) == 1 and six["log"][0][1] == [29000, 17000, 27000, 27000]
    mjlog = write_records([rec], "mjlog").decode()
    assert mjlog.count("<INIT ") == 1
    again = mjai_records(write_records([rec], "mjai").decode(), "again.jsonl")[0]
    assert again.hands[0] == rec.hands[0]


def test_replay_names_the_offender(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``tenbou replay``'s text line of a chombo says whose it was, as its JSON line does."""
    record = tmp_path / "chombo.jsonl"
    record.write_text("\n".join(_record_lines([4000, -8000, 2000, 2000])) + "\n", encoding="utf-8")
    assert main(["replay", str(record)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert "chombo" in first and " seat 1 chombo;" in first and first.endswith(" ok")
    assert main(["replay", "--json", str(record)]) == 0
    line = json.loads(capsys.readouterr().out.splitlines()[0])
    assert line["kind"] == "chombo" and line["offender"] == 1


def test_mjai_app_error_is_refused_with_what_to_write_instead(tmp_path: Path) -> None:
    """mjai.app ends a hand with ``"reason": "error"`` for a bot's fault, naming no bot: tenbou
    does not guess whose it was, and its refusal says what to write instead."""
    lines = _record_lines([4000, -8000, 2000, 2000])
    lines[3] = json.dumps({"type": "ryukyoku", "deltas": [4000, -8000, 2000, 2000], "reason": "error"})
    rec = mjai_records("\n".join(lines), "mjai_app.jsonl")[0]
    line = verify_record(rec)[0]
    assert line["match"] is False
    (text,) = [m["detail"] for m in line["mismatches"] if m["kind"] == "illegal_event"]
    assert "'error'" in text and "mjai.app" in text and "reason 'chombo'" in text
