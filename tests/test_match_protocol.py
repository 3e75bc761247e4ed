"""The referee's side of mjai.app's protocol: a seat sees only what it may; an answer becomes one
of the legal actions offered, or a fault naming what was wrong, whatever the bot sends (hypothesis
over text, JSON values and mutated actions); a bot process cannot hang the referee."""

from __future__ import annotations

import json
import sys
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tenbou.core.tiles import Tile
from tenbou.engine.events import Dahai, Event, Hora, Pon, Reach, Ryukyoku, Tsumo, event_to_json
from tenbou.engine.round import Round
from tenbou.match.process import BotProcess
from tenbou.match.protocol import FAULT_KINDS, BotError, message, read_answer, seat_view
from tenbou.rules import get_rules

from .script import events, start

HANDS = ["123m456m789m123p4p", "123s456s789s123p5p", "123m456s789p11z22z", "789m123s456p33z44z"]


def _offers() -> list[tuple[int, list[Event]]]:
    """Legal action lists of real rounds: the dealer after its draw, seat 2 on a discard it may pon."""
    rnd = Round(get_rules("tenhou"), start(HANDS))
    events(rnd, "0t5z")
    own = (0, rnd.legal_actions(0))
    rnd = Round(get_rules("tenhou"), start(HANDS))
    events(rnd, "0t1z 0d1z")
    react = (2, rnd.legal_actions(2))
    assert any(isinstance(a, Pon) for a in react[1])
    return [own, react]


OFFERS = _offers()


def test_a_seat_sees_its_own_tiles_only() -> None:
    hand = start(HANDS)
    view = seat_view(hand, 2)
    assert view["tehais"][2] == [event_to_json(hand)["tehais"][2][i] for i in range(13)]
    assert view["tehais"][0] == ["?"] * 13
    assert seat_view(Tsumo(1, Tile.parse("5z")), 2)["pai"] == "?"
    assert seat_view(Tsumo(2, Tile.parse("5z")), 2)["pai"] == "P"
    line = message([hand, Tsumo(0, Tile.parse("5z"))], 1)
    assert json.loads(line)[1] == {"type": "tsumo", "actor": 0, "pai": "?"} and "\n" not in line


def test_an_answer_names_a_legal_action() -> None:
    seat, actions = OFFERS[0]
    assert read_answer('{"type":"dahai","actor":0,"pai":"P","tsumogiri":true}', seat, actions) == Dahai(
        0, Tile.parse("5z"), True
    )
    assert read_answer('{"type":"reach","actor":0}', seat, actions) == Reach(0)
    seat, actions = OFFERS[1]
    pon = next(a for a in actions if isinstance(a, Pon))
    answer = {"type": "pon", "actor": 2, "target": 0, "pai": "E", "consumed": ["E", "E"]}
    assert read_answer(json.dumps(answer), seat, actions) == pon
    assert read_answer('{"type":"none"}', seat, actions) is None


@pytest.mark.parametrize(
    "line, kind",
    [
        ("", "not_json"),
        ("[1, 2", "not_json"),
        ('{"type":"none","type":"dahai"}', "not_json"),
        ("[]", "wrong_shape"),
        ('{"type":3}', "wrong_shape"),
        ('{"type":"tsumo","actor":0,"pai":"1m"}', "wrong_shape"),
        ('{"type":"dahai","actor":0,"pai":"P"}', "wrong_shape"),
        ('{"type":"dahai","actor":0,"pai":"9z","tsumogiri":true}', "wrong_shape"),
        ('{"type":"dahai","actor":1,"pai":"P","tsumogiri":true}', "illegal"),
        ('{"type":"dahai","actor":0,"pai":"P","tsumogiri":false}', "illegal"),
        ('{"type":"dahai","actor":0,"pai":"C","tsumogiri":false}', "illegal"),
        ('{"type":"hora","actor":0,"target":0}', "illegal"),
        ('{"type":"ryukyoku","reason":"suufonrenda"}', "illegal"),
        ('{"type":"none"}', "illegal"),
    ],
)
def test_a_bad_answer_is_a_fault_of_its_kind(line: str, kind: str) -> None:
    seat, actions = OFFERS[0]
    with pytest.raises(BotError) as e:
        read_answer(line, seat, actions)
    assert e.value.kind == kind


def _mutated(action: Event) -> st.SearchStrategy[dict[str, Any]]:
    obj = event_to_json(action)
    values = st.one_of(
        st.none(),
        st.integers(-5, 5),
        st.text(max_size=4),
        st.sampled_from(["P", "5mr", "?", "E", "1m", "none"]),
        st.lists(st.sampled_from(["E", "1m", "5pr", "?"]), max_size=4),
    )
    return st.dictionaries(st.sampled_from([*obj, "type", "meta", "can_act"]), values, max_size=3).map(
        lambda change: {**obj, **change}
    )


ANSWERS = st.one_of(
    st.text(max_size=60),
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
        max_leaves=8,
    ).map(json.dumps),
    st.sampled_from([a for _, actions in OFFERS for a in actions]).flatmap(_mutated).map(json.dumps),
)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(range(len(OFFERS))), ANSWERS)
def test_any_answer_is_a_legal_action_or_a_fault(which: int, line: str) -> None:
    seat, actions = OFFERS[which]
    try:
        chosen = read_answer(line, seat, actions)
    except BotError as e:
        assert e.kind in FAULT_KINDS and e.detail
        return
    assert chosen is None or chosen in actions
    if chosen is None:
        assert not any(isinstance(a, Dahai) for a in actions)


def test_a_win_or_nine_terminals_need_not_repeat_what_they_imply() -> None:
    win = [Hora(1, 0, Tile.parse("4p"))]
    assert read_answer('{"type":"hora","actor":1,"target":0}', 1, win) == win[0]
    with pytest.raises(BotError):
        read_answer('{"type":"hora","actor":1,"target":0,"pai":"5p"}', 1, win)  # not the tile it wins on
    kyuushu = [Dahai(0, Tile.parse("1m"), True), Ryukyoku(reason="kyushukyuhai")]
    assert read_answer('{"type":"ryukyoku","actor":0}', 0, kyuushu) == kyuushu[1]


def test_a_silent_bot_cannot_hang_the_referee(tmp_path: Any) -> None:
    proc = BotProcess([sys.executable, "-c", "import time; time.sleep(60)"], 0)
    proc.start()
    began = time.monotonic()
    with pytest.raises(BotError) as e:
        proc.ask("[]", 0.3)
    assert e.value.kind == "timeout" and time.monotonic() - began < 5
    proc.stop()
    assert not proc.running


def test_a_bot_that_does_not_read_cannot_block_the_referee(tmp_path: Any) -> None:
    proc = BotProcess([sys.executable, "-c", "import time; time.sleep(60)"], 0)
    proc.start()
    with pytest.raises(BotError) as e:
        proc.ask("x" * (1 << 20), 0.3)  # more than a pipe holds: the write itself must give up
    assert e.value.kind == "timeout"
    proc.stop()


def test_a_bot_and_its_children_are_stopped(tmp_path: Any) -> None:
    child = tmp_path / "child.pid"
    code = (
        "import subprocess, sys, time; "
        f"p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)']); "
        f"open({str(child)!r}, 'w').write(str(p.pid)); print('{{}}', flush=True); time.sleep(60)"
    )
    proc = BotProcess([sys.executable, "-c", code], 0)
    proc.start()
    assert proc.ask("[]", 10) == "{}"
    proc.stop()
    import os

    pid = int(child.read_text())
    for _ in range(50):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        pytest.fail("the bot's child outlived it")


def test_the_fourth_kan_dealt_in_may_be_answered_as_its_daiminkan() -> None:
    offered = [Hora(1, 0, Tile.parse("5z"))]  # what legal_actions offers for it (suukantsu_pao_timing)
    answer = {"type": "daiminkan", "actor": 1, "target": 0, "pai": "P", "consumed": ["P", "P", "P"]}
    assert read_answer(json.dumps(answer), 1, offered) == offered[0]


def test_a_bot_flooding_its_stderr_is_kept_to_its_end(tmp_path: Any) -> None:
    code = (
        "import sys\n"
        "sys.stdin.readline()\n"
        "sys.stderr.write('x' * 3_000_000 + 'the end')\n"
        "sys.stderr.flush()\n"
        "print('{}', flush=True)\n"
    )
    proc = BotProcess([sys.executable, "-c", code], 0)
    proc.start()
    assert proc.ask("[]", 20) == "{}"  # (it could not have answered had its stderr not been read)
    proc.stop()
    text = proc.stderr_text()
    assert text.endswith("the end") and "bytes cut" in text and len(text) < 1_100_000
