"""``tenbou match``: built-in bots play whole games; every game is a record ``tenbou verify``
matches hand by hand; a seed replays a match exactly; duplicate walls rotate the seats; bots that
time out, answer nonsense, play illegal moves, crash or flood commit a chombo and the match goes
on; mjai.app's own RulebaseBot plays as a real outside bot; the summary counts what happened."""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from tenbou.cli import main
from tenbou.engine.events import Ryukyoku, StartKyoku, events_from_lines
from tenbou.io.mjai import mjai_records
from tenbou.match import MatchSpec, play_one, run_match, schedule, summarize
from tenbou.match.run import entrant_names
from tenbou.verify.verifier import verify_record

BOT = Path(__file__).with_name("matchbot.py")
TONPUU = {"preset": "tenhou", "overrides": {"length": "tonpuu"}}
#: the Python of a virtual environment holding mjai.app's package (``mjai`` on PyPI), which .ci/run
#: makes; the test of mjai.app's own bot is skipped where there is none
MJAI_PYTHON = Path(os.environ.get("TENBOU_MJAI_PYTHON", "/nonexistent"))
RULEBASE = Path(__file__).resolve().parents[1] / "examples" / "mjai_rulebase.py"


def bot(mode: str, at: int = 3, marker: Path | None = None) -> str:
    return f"{sys.executable} {BOT} {mode} {at} {marker if marker is not None else '-'}"


def verified(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The verifier's lines for a game's record, each asserted to match."""
    [rec] = mjai_records(result["mjai"], f"game {result['index']}.jsonl")
    lines = verify_record(rec)
    bad = [line for line in lines if line.get("match") is not True]
    assert not bad, bad[0]
    return lines


def test_builtin_bots_play_games_that_verify() -> None:
    spec = MatchSpec(("random", "greedy", "efficient", "random"), TONPUU, games=4, seed=11)
    results = list(run_match(spec))
    assert [r["index"] for r in results] == [0, 1, 2, 3]
    for r in results:
        lines = verified(r)
        assert len(lines) == r["hands"]
        assert sorted(r["ranks"]) == [1, 2, 3, 4]
        assert sum(r["points"]) == 100_000  # (sticks left on the table go to the top)
        # each seat's wins, deal-ins and pao, counted from the engine's typed settlements, are
        # those of the verified record's lines (the JSON made apart from the record)
        seen = [dict.fromkeys(("wins", "deal_ins", "pao"), 0) for _ in range(4)]
        for line in lines:
            for x in line["results"]:
                seen[x["winner"]]["wins"] += 1
                for liability in x["pao"]:
                    seen[liability["seat"]]["pao"] += 1
            for seat in {x["from"] for x in line["results"] if x["from"] not in (None, x["winner"])}:
                seen[seat]["deal_ins"] += 1
        assert [{k: s[k] for k in ("wins", "deal_ins", "pao")} for s in r["seats"]] == seen
        assert sum(s["wins"] for s in seen) > 0
    summary = summarize(results, entrant_names(spec.bots))
    assert [b["games"] for b in summary["bots"]] == [4, 4, 4, 4]
    assert sum(b["average_rank"] for b in summary["bots"]) == pytest.approx(10)


def test_three_bots_play_sanma() -> None:
    spec = MatchSpec(("efficient", "greedy", "random"), TONPUU, games=1, seed=2)
    [result] = run_match(spec)
    verified(result)
    assert sorted(result["ranks"]) == [1, 2, 3] and sum(result["points"]) == 105_000


def test_a_seed_replays_the_match_exactly() -> None:
    spec = MatchSpec(("random", "greedy", "efficient", "random"), TONPUU, games=1, seed=5)
    first = [r["mjai"] for r in run_match(spec)]
    again = [r["mjai"] for r in run_match(spec)]
    other = [r["mjai"] for r in run_match(MatchSpec(spec.bots, TONPUU, games=1, seed=6))]
    assert first == again and first != other


def test_processes_play_the_same_games() -> None:
    spec = MatchSpec(("random", "greedy", "random", "random"), TONPUU, games=2, seed=8)
    assert [r["mjai"] for r in run_match(spec, jobs=2)] == [r["mjai"] for r in run_match(spec)]


def test_duplicate_walls_rotate_the_seats() -> None:
    spec = MatchSpec(("random", "greedy", "efficient", "random"), TONPUU, games=8, seed=3, duplicate=True)
    games = schedule(spec)
    assert len({g.seed for g in games[:4]}) == 1 and games[4].seed != games[0].seed
    assert [g.names[0] for g in games[:4]] == ["random", "greedy", "efficient", "random #2"]
    firsts = []
    for g in games[:4]:
        events = events_from_lines(play_one(g)["mjai"].splitlines())
        firsts.append(next(e for e in events if isinstance(e, StartKyoku)).tehais)
    assert firsts[0] == firsts[1] == firsts[2] == firsts[3]  # East 1's wall, dealt to each seat alike


# -- bots as processes -----------------------------------------------------------------------------

FAULTS = [
    ("timeout", "timeout"),
    ("garbage", "not_json"),
    ("shape", "wrong_shape"),
    ("illegal", "illegal"),
    ("none", "illegal"),
    ("crash", "died"),
    ("flood", "too_long"),
    ("chatter", "extra_output"),
    ("binary", "not_json"),
]


@pytest.mark.parametrize("mode, kind", FAULTS)
def test_a_misbehaving_bot_commits_a_chombo_and_the_match_goes_on(
    tmp_path: Path, mode: str, kind: str
) -> None:
    spec = MatchSpec(
        (bot(mode, 3, tmp_path / "marker"), "efficient", bot("good", 0), "random"),
        {"preset": "tenhou", "overrides": {"length": "tonpuu", "chombo": "mangan"}},
        games=1,
        seed=4,
        timeout=0.5,
    )
    [result] = run_match(spec)
    seats = result["seats"]
    assert seats[0]["chombos"] == 1 and seats[0]["faults"] == {kind: 1}
    assert all(s["chombos"] == 0 for s in seats[1:])
    lines = verified(result)
    chombo = next(line for line in lines if line["kind"] == "chombo")
    assert chombo["offender"] == 0 and chombo["deltas"][0] in (-8000, -12000)
    events = events_from_lines(result["mjai"].splitlines())
    assert Ryukyoku(reason="chombo", deltas=tuple(chombo["deltas"]), actor=0) in events
    assert sorted(result["ranks"]) == [1, 2, 3, 4]
    if mode == "crash":
        assert "crashing on purpose" in result["stderr"][0]
    assert "stopped: " + kind in result["stderr"][0]


def test_a_bot_that_never_answers_sits_the_game_out(tmp_path: Path) -> None:
    spec = MatchSpec(
        (bot("mute", 0), "efficient", "greedy", "random"), TONPUU, games=1, seed=1, timeout=0.1, max_faults=2
    )
    [result] = run_match(spec)
    seat = result["seats"][0]
    assert seat["chombos"] == 2 and seat["replaced"] is True
    assert seat["faults"]["timeout"] >= 2
    lines = verified(result)
    assert sum(line["kind"] == "chombo" for line in lines) == 2
    assert result["final_scores"][0] < -30  # twice 20.0 off its final score (final_score, the default)


def test_a_bot_that_is_not_there_is_a_chombo_too() -> None:
    spec = MatchSpec(
        ("/nonexistent/bot", "efficient", "greedy", "random"), TONPUU, games=1, seed=1, max_faults=1
    )
    [result] = run_match(spec)
    assert result["seats"][0]["faults"]["died"] >= 1 and result["seats"][0]["replaced"]
    verified(result)


@pytest.mark.skipif(not MJAI_PYTHON.exists(), reason="no venv with mjai.app's package (TENBOU_MJAI_PYTHON)")
def test_mjai_app_rulebase_bot_plays_as_an_outside_bot() -> None:
    rulebase = f"{MJAI_PYTHON} {RULEBASE}"
    spec = MatchSpec((rulebase, "efficient", rulebase, "greedy"), TONPUU, games=1, seed=2, timeout=10)
    [result] = run_match(spec)
    assert all(s["chombos"] == 0 and not s["faults"] for s in result["seats"])
    assert result["names"][0] == "mjai_rulebase.py"
    verified(result)


# -- the command -----------------------------------------------------------------------------------


def test_the_command_writes_records_that_verify(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "match"
    args = ["match", "random", "greedy", "efficient", "random", "--games", "2", "--length", "tonpuu"]
    assert main([*args, "--seed", "9", "--out", str(out), "--tenhou6", "--json", "--quiet"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["match"]["games"] == 2 and summary["match"]["seed"] == 9
    assert json.loads((out / "summary.json").read_text()) == summary
    assert len((out / "results.jsonl").read_text().splitlines()) == 2
    assert sorted(p.name for p in (out / "games").iterdir()) == [
        "0000.mjai.jsonl", "0000.tenhou6.json", "0001.mjai.jsonl", "0001.tenhou6.json",
    ]  # fmt: skip
    assert main(["verify", str(out / "games"), "--quiet"]) == 0
    assert "mismatched 0" in capsys.readouterr().out
    assert main([*args, "--seed", "9", "--quiet"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("tenbou match: 2 games") and "efficient" in text


@pytest.mark.parametrize(
    "args, message",
    [
        (["random", "greedy"], "a match needs 4 bots"),
        (["random", "greedy", "efficient", "nosuchbot"], "BOT 4: 'nosuchbot'"),
        (["random", "greedy", "efficient", "random", "--duplicate", "--games", "3"], "not a multiple of 4"),
        (["random", "greedy", "efficient", "random", "--tenhou6"], "give --out"),
        (["random", "greedy", "efficient", "--rules", "mleague"], "played by 4 players"),
        (["random", "greedy", "efficient", "random", "--set", "chombo=never"], "chombo"),
        (["random", "greedy", "efficient", "random", "--rules", "nosuch"], "nosuch"),
        (["random", "greedy", "efficient", "'unclosed"], "not a command line"),
    ],
)
def test_the_command_refuses_bad_arguments(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["match", *args, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tenbou: error: ") and message in err and err.count("\n") == 1


NO_DASK = importlib.util.find_spec("distributed") is None


@pytest.mark.skipif(NO_DASK, reason="dask[distributed] is not installed")
def test_dask_without_a_scheduler(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["match", "random", "greedy", "efficient", "random", "--dask", "nonsense://x", "--quiet"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "--dask nonsense://x: no Dask scheduler to run on" in err and "Traceback" not in err


@pytest.mark.slow
@pytest.mark.skipif(NO_DASK, reason="dask[distributed] is not installed")
def test_a_local_dask_cluster_plays_the_same_games() -> None:
    spec = MatchSpec(("random", "greedy", "efficient", "random"), TONPUU, games=3, seed=8)
    assert [r["mjai"] for r in run_match(spec, jobs=2, dask="local")] == [r["mjai"] for r in run_match(spec)]
