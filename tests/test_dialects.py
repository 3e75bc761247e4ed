"""The mjai dialects real tools write are read as what they state, and verify like the strict form.

By name: a small log in each producer's own form — akochan's (``scores`` and no ``deltas`` on
``hora``, ``uradora_marker`` in the singular, ``fan``, ``fu`` before rounding, bare
``reach_accepted``) and the original mjai server's, as mjai-manue and the first mjai bots played
it (no ``scores`` on ``start_kyoku``, ``uradora_markers``, ``yakus``, ``fan``, ``fu``,
``hora_points``, ``hora_tehais`` with the drawn tile, its own draw reasons) — each fact read and
checked. Generated: every dialect of :mod:`tests.dialects`, and random combinations of its
transformations (hypothesis), of self-play games (four and three players) and of pao hands
verify exactly as the strict record does; the facts a dialect adds, altered, never match.
"""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tenbou.engine.events import Nukidora, Ryukyoku, event_from_json
from tenbou.engine.table import GreedyAgent, play_game
from tenbou.errors import LogFormatError
from tenbou.io.mjai import mjai_records
from tenbou.rules import get_rules
from tenbou.verify.run import verify_data
from tenbou.verify.summaries import summarize
from tenbou.verify.verifier import NO_OUTCOME

from .alterations import enrich_mjai
from .dialects import (
    DIALECTS,
    TRANSFORMS,
    akochan_log,
    facts_of,
    manue_log,
    pao_record,
    random_dialect,
    rewrite,
    suufon_renda_record,
)
from .test_convert import selfplay

TONPUU = {"preset": "tenhou", "overrides": {"length": "tonpuu"}}


def _lines(data: bytes) -> list[dict[str, Any]]:
    return verify_data(data, "log.json")["lines"]


def _kinds(lines: list[dict[str, Any]]) -> set[str]:
    return {m["kind"] for line in lines for m in line.get("mismatches", [])}


# -- the producers' own logs ------------------------------------------------------------------------


def testakochan_log() -> None:
    """akochan's ura indicator (``uradora_marker``) counts: the 6-han haneman its scores say; the
    hand is checked by its scores and its ``fan``; ``fu`` before rounding is read rounded."""
    rec = mjai_records(akochan_log().decode(), "ako.json")[0]
    win = rec.hands[0].wins[0]
    assert rec.hands[0].deltas is None and rec.hands[0].scores_after == (19000, 37000, 22000, 22000)
    assert (win.stated_han, win.fu, win.deltas) == (6, 20, None)
    assert win.hand is not None and len(win.hand) == 13
    (line,) = _lines(akochan_log())
    assert (
        line["match"] is True and line["results"][0]["han"] == 6 and line["results"][0]["limit"] == "haneman"
    )
    assert line["recorded_scores"] == [19000, 37000, 22000, 22000] and "unchecked" not in line
    # read as akochan means it, never as a win without ura dora; without the indicator it differs
    unknown = _lines(akochan_log(ura="ura_dora_marker"))
    assert unknown[0]["match"] is False and _kinds(unknown) == {"han", "scores"}
    for fan, kinds in ((5, {"han"}), (6, set())):
        text = akochan_log().replace(b'"fan": 6', f'"fan": {fan}'.encode())
        assert _kinds(_lines(text)) == kinds


def test_akochan_fu_is_rounded() -> None:
    text = akochan_log().decode().replace('"fu": 20', '"fu": 22')
    assert mjai_records(text, "a")[0].hands[0].wins[0].fu == 30  # 22 rounds up to 30: not the 20 of pinfu
    assert _kinds(_lines(text.encode())) == {"fu"}


def test_original_mjai_server_log() -> None:
    """mjai-manue's games: no scores on ``start_kyoku`` (25,000 each to start, then each hand end's
    scores), every fact of the win read and checked, the second hand's kyushukyuhai too."""
    recs = mjai_records(manue_log().decode(), "manue.mjson")
    assert [s.scores for s in recs[0].starts] == [(25000,) * 4, (19000, 37000, 22000, 22000)]
    win = recs[0].hands[0].wins[0]
    assert (win.stated_han, win.fu, win.points) == (6, 20, 12000)
    assert win.hand is not None and len(win.hand) == 13  # the drawn 8s is the winning tile
    lines = _lines(manue_log())
    assert [line["match"] for line in lines] == [True, True] and not _kinds(lines)
    assert lines[1]["kind"] == "abortive_draw" and lines[1]["draw_reason"] == "kyuushu_kyuuhai"
    for old, new, kinds in (
        (b'"hora_points": 12000', b'"hora_points": 8000', {"points"}),
        (b'"fan": 6', b'"fan": 7', {"han"}),
        (b'"fu": 20', b'"fu": 30', {"fu"}),
        (b'"uradora_markers": ["4p"]', b'"uradora_markers": ["4s"]', {"han", "points", "deltas", "scores"}),
        (b'"5m", "6m", "7m", "3p", "4p", "5p", "2s"', b'"5m", "6m", "7m", "3p", "4p", "5p", "3s"', {"hand"}),
    ):
        log = manue_log()
        at = log.rindex(old)  # the win's line: its last occurrence
        assert _kinds(_lines(log[:at] + new + log[at + len(old) :])) == kinds, new


def test_start_scores_need_the_hand_before_to_end_with_them() -> None:
    with pytest.raises(
        LogFormatError, match=r"manue\.mjson:\d+: start_kyoku: missing 'scores', and the hand"
    ):
        mjai_records(manue_log(first_scores=False).decode(), "manue.mjson")


def test_start_points_of_the_rules() -> None:
    """The first hand starts with the rules' start points: 35,000 in three-player Tenhou."""
    agents = [GreedyAgent(random.Random(i), call_rate=0.3) for i in range(3)]
    strict = enrich_mjai(
        _jsonl(play_game(get_rules("tenhou"), seed=1, players=3, length="tonpuu", agents=agents))
    )
    rec = mjai_records(rewrite(strict, ["no start scores"], {}).decode(), "s")[0]
    assert rec.starts[0].scores == (35000,) * 3


def test_no_outcome_to_compare() -> None:
    """A hand whose record gives neither deltas nor scores is said to be unchecked, line and summary."""
    text = akochan_log().replace(b'"scores": [19000, 37000, 22000, 22000], ', b"")
    (line,) = _lines(text)
    assert "match" not in line and line["unchecked"] == NO_OUTCOME
    s = summarize([line])["summary"]
    assert (s["hands"], s["matched"], s["mismatched"], s["unchecked"]) == (1, 0, 0, 1)
    from tenbou.verify.report import format_summary

    assert "unchecked 1 (no outcome to compare" in format_summary(summarize([line]))


# -- field and event names ---------------------------------------------------------------------------


def test_aliases_and_their_disagreement() -> None:
    hora = {"type": "hora", "actor": 0, "target": 0}
    for key in ("ura_markers", "uradora_markers", "uradora_marker"):
        assert event_from_json({**hora, key: ["1m"]}) == event_from_json({**hora, "ura_markers": ["1m"]})
    same = event_from_json({**hora, "ura_markers": ["1m"], "uradora_markers": ["1m"]})
    assert same == event_from_json({**hora, "ura_markers": ["1m"]})
    with pytest.raises(
        LogFormatError, match="hora: ura_markers \\['1m'\\] and uradora_marker \\['2m'\\] disagree"
    ):
        event_from_json({**hora, "ura_markers": ["1m"], "uradora_marker": ["2m"]})
    kita = event_from_json({"type": "kita", "actor": 1, "pai": "N"})
    assert kita == event_from_json({"type": "nukidora", "actor": 1, "pai": "N"}) and isinstance(
        kita, Nukidora
    )


@pytest.mark.parametrize(
    ("reason", "mjai"),
    [("suchareach", "suuchariichi"), ("sufonrenta", "suufonrenda"), ("sukaikan", "suukaikan"),
     ("yao9", "kyushukyuhai"), ("kyuushuukyuuhai", "kyushukyuhai"), ("ron3", "sanchaho"),
     ("exhaustive", "fanpai"), ("exhaustive_draw", "fanpai"), ("nm", "nagashimangan"),
     ("nagashi_mangan", "nagashimangan"), ("kan4", "suukaikan"), ("fanpai", "fanpai")],
)  # fmt: skip
def test_draw_reasons(reason: str, mjai: str) -> None:
    assert event_from_json({"type": "ryukyoku", "reason": reason}) == Ryukyoku(reason=mjai)


def test_unknown_reason_stays_refused() -> None:
    assert event_from_json({"type": "ryukyoku", "reason": "Error: Illegal Action"}) == Ryukyoku(
        reason="Error: Illegal Action"
    )  # kept as written: the engine refuses a draw it does not know


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        ({"pao": 4}, "hora.pao 4 is not a seat 0..3"),
        ({"pao": "1"}, "hora.pao '1' is not a seat"),
        ({"fan": -1}, "hora.fan must be a count"),
        ({"fu": 1.5}, "hora.fu must be a count"),
        ({"hora_points": True}, "hora.hora_points must be a count"),
        ({"hora_tehais": "2m3m"}, "hora.hora_tehais: expected a list of tiles"),
        ({"hora_tehais": ["2m", "3m"]}, "hora.hora_tehais holds 2 tiles, and not the winning tile 8s"),
        ({"hora_tehais": ["2m", "3m", "4m"]}, "hora.hora_tehais holds 3 tiles, not a winning hand's"),
        ({"hora_tehais": ["2m", "3m", "9z"]}, "'9z' is not an mjai tile"),
    ],
)
def test_hora_facts_are_checked_where_read(obj: dict[str, Any], message: str) -> None:
    text = akochan_log().decode()
    hora = next(line for line in text.splitlines() if '"hora"' in line)
    bad = {**json.loads(hora), **obj}
    with pytest.raises(LogFormatError, match=message.replace("(", r"\(").replace("[", r"\[")):
        mjai_records(text.replace(hora, json.dumps(bad)), "bad.json")


# -- every dialect of generated games ------------------------------------------------------------------


def _jsonl(events: list[Any]) -> bytes:
    from tenbou.engine.events import events_to_lines

    return ("\n".join(events_to_lines(events)) + "\n").encode()


@cache
def _strict_games() -> list[tuple[str, bytes]]:
    """Strict records with every seat's scores stated: self-play (four and three players) and pao."""
    out = [(f"self{seed}", enrich_mjai(selfplay(seed), rules=TONPUU)) for seed in (3, 6, 7)]
    for seed in (1, 2):
        agents = [GreedyAgent(random.Random(seed * 4 + i), call_rate=0.3) for i in range(3)]
        game = play_game(get_rules("tenhou"), seed=seed, players=3, length="tonpuu", agents=agents)
        out.append((f"sanma{seed}", enrich_mjai(_jsonl(game), rules=TONPUU)))
    out.extend([("pao tsumo", pao_record()), ("pao ron", pao_record(ron=True))])
    out.append(("suufon renda", suufon_renda_record()))
    return out


def _verdict(data: bytes) -> list[tuple[Any, ...]]:
    """What verify says of each hand, whatever the dialect states it with."""
    return [
        (
            line.get("hand"),
            line.get("kind"),
            line.get("match"),
            tuple(line.get("deltas") or ()),
            json.dumps(line.get("results"), sort_keys=True),
            line.get("draw_reason"),
            tuple(sorted(m["kind"] for m in line.get("mismatches", []))),
            line.get("skipped"),
        )
        for line in verify_data(data, "game.jsonl")["lines"]
    ]


def test_the_strict_records_state_what_the_dialects_rename() -> None:
    """The generated games hold riichi wins with ura indicators, kita, pao, draws and sticks."""
    text = b"".join(data for _, data in _strict_games())
    for needle in (b'"ura_markers"', b'"nukidora"', b'"reach_accepted"', b'"ryukyoku"', b'"kyotaku": 1'):
        assert needle in text, needle
    assert sum(summarize(verify_data(d, "x")["lines"])["summary"]["pao"] for _, d in _strict_games()) == 2


@pytest.mark.parametrize("dialect", sorted(DIALECTS))
def test_each_dialect_verifies_as_the_strict_record(dialect: str) -> None:
    for name, strict in _strict_games():
        base = _verdict(strict)
        assert all(v[2] is True for v in base), name
        assert _verdict(rewrite(strict, DIALECTS[dialect], facts_of(strict))) == base, (dialect, name)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False), st.integers(0, 7))
def test_random_dialects_verify_as_the_strict_record(rng: random.Random, which: int) -> None:
    name, strict = _strict_games()[which]
    names = random_dialect(rng)
    assert _verdict(rewrite(strict, names, facts_of(strict))) == _verdict(strict), (name, names)


@pytest.mark.parametrize(
    ("transforms", "key", "kinds"),
    [
        (("fan fu points",), "fan", {"han"}),
        (("fan fu points",), "fu", {"fu"}),
        (("fan fu points",), "hora_points", {"points"}),
        (("scores only",), "scores", {"scores"}),
        (("no start scores", "scores only"), "scores", {"scores", "next"}),
    ],
)
def test_dialect_facts_altered_never_match(transforms: tuple[str, ...], key: str, kinds: set[str]) -> None:
    """A fact only a dialect states, changed at every win that states it, is a mismatch there."""
    rng = random.Random(5)
    for name, strict in _strict_games():
        data = rewrite(strict, transforms, facts_of(strict))
        lines = [json.loads(x) for x in data.decode().splitlines()]
        # a yakuman's fan (100 a yakuman) is not read: its value is in hora_points
        horas = [x for x in lines if x["type"] == "hora" and key in x and x.get("fan", 0) < 100]
        if not horas:
            continue
        x = rng.choice(horas)
        if isinstance(x[key], list):
            x[key][rng.randrange(len(x[key]))] += 100
        else:
            x[key] += 10 if key == "fu" else 1 if key == "fan" else 100
        altered = ("\n".join(json.dumps(y) for y in lines) + "\n").encode()
        found = _kinds(verify_data(altered, "x")["lines"])
        assert found and found <= kinds | {"next", "final_scores", "game_end"}, (name, found)
        assert found & kinds, (name, found)


def test_pao_stated_and_altered() -> None:
    for ron in (False, True):
        strict = pao_record(ron)
        data = rewrite(strict, ["pao"], facts_of(strict))
        assert b'"pao": 3' in data
        assert _kinds(verify_data(data, "p")["lines"]) == set()
        assert _kinds(verify_data(data.replace(b'"pao": 3', b'"pao": 2'), "p")["lines"]) == {"pao"}


def test_every_transformation_is_exercised() -> None:
    """Each transformation changes at least one of the generated records (none is a no-op)."""
    for name in TRANSFORMS:
        changed = any(rewrite(d, [name], facts_of(d)) != rewrite(d, [], {}) for _, d in _strict_games())
        assert changed, name


def test_every_reason_alias_is_a_reason_the_engine_plays() -> None:
    from tenbou.engine.events import _REASONS
    from tenbou.engine.round import ABORT_REASONS

    assert set(_REASONS.values()) == {"fanpai", "nagashimangan", *ABORT_REASONS.values()}
    for alias, reason in _REASONS.items():
        assert event_from_json({"type": "ryukyoku", "reason": alias}) == Ryukyoku(reason=reason)
