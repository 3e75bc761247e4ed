"""The command line: hand notation, JSON files, JSON Lines batches, exit status."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tenbou.cli import main

DAISANGEN = "23m55p +4m pon:555z@2 pon:666z@0 pon:777z@3"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_score_human(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["score", DAISANGEN, "--winner", "1", "--from", "3"], capsys)
    assert code == 0
    assert "Daisangen" in out and "大三元" in out and "seat 3 -> seat 1   32,000  hand" in out
    assert "base 20 + open honor pon 4" in out


def test_score_json_from_notation(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        ["score", "--json", "123456789m1122z +1z", "--riichi", "--dora", "9m", "--honba", "1"], capsys
    )
    assert code == 0
    result = json.loads(out)
    assert result["han"] == 10 and result["limit"] == "baiman" and result["deltas"][0] == 24300


def test_score_seat_wind_sets_the_dealer(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        [
            "score",
            "--json",
            "123m456p789s2z2z2z5s +5s",
            "--round",
            "S",
            "--seat-wind",
            "S",
            "--winner",
            "2",
            "--from",
            "0",
        ],
        capsys,
    )
    assert code == 0
    assert [y["id"] for y in json.loads(out)["yaku"]] == ["seat_wind", "round_wind"]


def test_rule_overrides(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        [
            "score",
            "--json",
            "123m456p789s23s55s +4s",
            "--riichi",
            "--from",
            "1",
            "--dora",
            "3s3s3s",
            "--set",
            "kiriage=true",
        ],
        capsys,
    )
    assert code == 0 and json.loads(out)["limit"] == "mangan"


def test_bad_hand_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["score", "1238z +1m"], capsys)
    assert code == 2 and "'8z' is not a tile" in err
    code, out, _ = run(["score", "--json", "1238z +1m"], capsys)
    assert code == 2 and json.loads(out)["error"]["code"] == "notation"


def test_json_lines_batch_goes_on_after_a_bad_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = {"winner": 1, "from": 2, "hand": "123m456p789s23s55s", "win_tile": "4s"}
    bad = {"winner": 1, "from": 2, "hand": "123m456p789s23s55s", "win_tile": "9z"}
    f = tmp_path / "batch.jsonl"
    f.write_text("\n".join([json.dumps(good), json.dumps(bad), "{not json", json.dumps(good)]) + "\n")
    code, out, _ = run(["score", "--json", str(f)], capsys)
    lines = [json.loads(x) for x in out.splitlines()]
    assert code == 2 and len(lines) == 4
    assert lines[0]["deltas"] == [0, 1000, -1000, 0] == lines[3]["deltas"]
    assert lines[1]["error"]["code"] == "notation" and "win_tile" in lines[1]["error"]["message"]
    assert lines[2]["error"]["code"] == "request"


def test_a_key_given_twice_is_refused_not_resolved(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """JSON read by tenbou.api.loads_request: the last ``riichi`` does not silently win."""
    good = '{"winner": 1, "from": 2, "hand": "123m456p789s23s55s", "win_tile": "4s"}'
    twice = good[:-1] + ', "riichi": true, "riichi": false}'
    f = tmp_path / "batch.jsonl"
    f.write_text(f"{good}\n{twice}\n")
    code, out, _ = run(["score", "--json", str(f)], capsys)
    lines = [json.loads(x) for x in out.splitlines()]
    assert code == 2 and "deltas" in lines[0]
    assert lines[1]["error"] == {
        "code": "request",
        "message": "line 2: the key 'riichi' is given twice in one object",
    }
    one = tmp_path / "one.json"
    one.write_text(twice.replace(", ", ",\n  "))
    code, out, _ = run(["score", "--json", str(one)], capsys)
    assert code == 2 and "given twice" in json.loads(out)["error"]["message"]


def test_single_pretty_json_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "one.json"
    f.write_text(
        json.dumps({"winner": 1, "from": 2, "hand": "123m456p789s23s55s", "win_tile": "4s"}, indent=2)
    )
    code, out, _ = run(["score", str(f)], capsys)
    assert code == 0 and "Pinfu" in out


def test_rules_commands(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["rules", "list", "--json"], capsys)
    listed = json.loads(out)
    assert code == 0 and {"id": "tenhou", "name": "天鳳", "name_en": "Tenhou"} in listed
    assert all(set(item) >= {"id", "name"} for item in listed)
    code, out, _ = run(["rules", "show", "tenhou"], capsys)
    assert code == 0 and "double_wind_pair_fu = 4" in out and "source:" in out
    code, out, _ = run(["rules", "show", "saikouisen"], capsys)
    shown = out.split("  kiriage_dealer_only = true\n", 1)[1].split("\n  pao_yaku", 1)[0]
    assert code == 0 and "means: with kiriage: only the dealer's 11,600" in shown
    assert "a non-dealer's 4 han 30 fu is 7,700 by ron and 2,000-3,900 by tsumo" in shown
    code, out, _ = run(["rules", "diff", "tenhou", "tenhou"], capsys)
    assert code == 0 and "same options" in out
    code, _, err = run(["rules", "show", "nope"], capsys)
    assert code == 2 and "unknown rules preset" in err


def test_score_a_suukantsu_dealt_in_at_the_fourth_kan(capsys: pytest.CaptureFixture[str]) -> None:
    hand = "2225p +2p ankan:1111m ankan:3333p kan:4444s@3"
    rules = ["--rules", "ron2", "--set", "suukantsu_pao_timing=fourth_kan"]
    code, out, _ = run(["score", hand, "--winner", "1", "--from", "2", "--fourth-kan", *rules], capsys)
    assert code == 0 and "fourth kan, a daiminkan of seat 2's discard" in out and "-32,000" in out
    code, _, err = run(["score", hand, "--winner", "1", "--from", "2", "--fourth-kan"], capsys)
    assert code == 2 and "do not make the fourth kan a suukantsu dealt in" in err


def test_rules_list_writes_a_name_once(capsys: pytest.CaptureFixture[str]) -> None:
    """The English name in brackets where it says more than the preset's own name: never
    'M.LEAGUE (M.LEAGUE)'; the JSON keeps both fields."""
    code, out, _ = run(["rules", "list"], capsys)
    rows = dict(line.split(None, 1) for line in out.splitlines())
    assert code == 0 and rows["mleague"] == "M.LEAGUE" and rows["wrc"] == "World Riichi Championship"
    assert rows["tenhou"] == "天鳳 (Tenhou)" and rows["riichicity"] == "麻雀一番街 Riichi City"
    for title in rows.values():
        name, _, rest = title.partition(" (")
        assert name != rest.removesuffix(")"), title
    code, out, _ = run(["rules", "show", "mleague"], capsys)
    assert out.splitlines()[0] == "mleague: M.LEAGUE"
    code, out, _ = run(["rules", "list", "--json"], capsys)
    assert {"id": "mleague", "name": "M.LEAGUE", "name_en": "M.LEAGUE"} in json.loads(out)


def test_module_entry_point_and_stdin() -> None:
    req = json.dumps({"winner": 0, "hand": "123m456p789s23s55s", "win_tile": "4s"})
    proc = subprocess.run(
        [sys.executable, "-m", "tenbou", "score", "--json", "-"],
        input=req,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["deltas"] == [2100, -700, -700, -700]


def test_the_command_is_tenbou_cli_main() -> None:
    """The console script of pyproject.toml (``tenbou.cli:main``) is the package's ``main``, and
    ``python -m tenbou.cli`` runs it as ``python -m tenbou`` does."""
    import importlib
    import tomllib

    import tenbou.cli

    pyproject = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())
    module, _, name = pyproject["project"]["scripts"]["tenbou"].partition(":")
    assert getattr(importlib.import_module(module), name) is main is sys.modules["tenbou.cli.main"].main
    assert tenbou.cli.__all__ == ["build_parser", "main"]
    for entry in ("tenbou", "tenbou.cli"):
        proc = subprocess.run(
            [sys.executable, "-m", entry, "rules", "show", "nope"],
            capture_output=True,
            text=True,
            check=False,
        )
        assert proc.returncode == 2 and proc.stdout == ""
        assert proc.stderr.startswith("tenbou: error: ") and proc.stderr.count("\n") == 1, proc.stderr


def test_settle_human_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    req = {
        "rules": "tenhou", "dealer": 0, "honba": 1, "riichi_sticks": 1,
        "wins": [{"winner": 1, "hand": "23m55p", "win_tile": "4m", "melds": [
            {"type": "pon", "tiles": "555z", "from": 2}, {"type": "pon", "tiles": "666z", "from": 0},
            {"type": "pon", "tiles": "777z", "from": 3}]}],
    }  # fmt: skip
    f = tmp_path / "hand.json"
    f.write_text(json.dumps(req))
    code, out, _ = run(["settle", str(f)], capsys)
    assert code == 0 and "seat 3 is liable for daisangen" in out and "seat 3 -> seat 1   32,000  pao" in out
    assert "Next      dealer seat 1, 0 honba, 0 riichi stick(s)" in out
    code, out, _ = run(["settle", "--json", str(f)], capsys)
    result = json.loads(out)
    assert code == 0 and result["deltas"] == [0, 33300, 0, -32300] and result["next"]["dealer"] == 1
    draw = tmp_path / "draw.jsonl"
    draw.write_text(json.dumps({"dealer": 0, "draw": {"kind": "exhaustive", "tenpai": [1]}}) + "\n{}\n")
    code, out, _ = run(["settle", "--json", str(draw)], capsys)
    lines = [json.loads(x) for x in out.splitlines()]
    assert code == 2 and lines[0]["deltas"] == [-1000, 3000, -1000, -1000] and "error" in lines[1]


def test_settle_needs_a_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["settle", "no-such-file.json"], capsys)
    assert code == 2 and "no such file" in err


def test_replay_mjai(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import random

    from tenbou.engine.events import events_to_lines
    from tenbou.engine.table import GreedyAgent, Table
    from tenbou.rules import get_rules

    table = Table(
        get_rules("tenhou"), 5, agents=[GreedyAgent(random.Random(i)) for i in range(4)], length="tonpuu"
    )
    table.play()
    f = tmp_path / "game.jsonl"
    f.write_text("\n".join(events_to_lines(table.events)) + "\n")
    code, out, _ = run(["replay", str(f)], capsys)
    assert code == 0 and "E1-0" in out and "summary: games 1" in out
    code, out, _ = run(["replay", "--json", str(f)], capsys)
    lines = [json.loads(x) for x in out.splitlines()]
    assert code == 0 and lines[-1]["summary"]["mismatched"] == 0
    assert {"source", "game", "hand", "round", "number", "honba", "kind", "deltas", "results"} <= set(
        lines[0]
    )
    assert all(line.get("match") for line in lines[:-1])
    # a changed record: the difference is reported and the exit status is 1
    bad = tmp_path / "bad.jsonl"
    lines_in = f.read_text().splitlines()
    for i, line in enumerate(lines_in):
        if '"type":"hora"' in line:
            obj = json.loads(line)
            obj["deltas"] = [
                d + (100 if k == 0 else -100 if k == 1 else 0) for k, d in enumerate(obj["deltas"])
            ]
            lines_in[i] = json.dumps(obj)
            break
    bad.write_text("\n".join(lines_in) + "\n")
    code, out, _ = run(["replay", str(bad)], capsys)
    assert code == 1 and "DIFFERS" in out
    code, _, _ = run(["replay", str(tmp_path / "missing.jsonl")], capsys)
    assert code == 2


# -- no surprises -----------------------------------------------------------------------------------

HAND = "123m456p789s23s55s +4s"


@pytest.mark.parametrize(
    "word", ["nosuch.json", "nosuch.JSONL", "dir/hand", "hands.txt", "nosuch", "foo-bar"]
)
def test_score_of_a_missing_file(word: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A word that names no file and no hand is a missing file, never a hand that fails to parse."""
    code, out, err = run(["score", word], capsys)
    assert code == 2 and f"{word}: no such file" in err and "unexpected character" not in err
    code, out, _ = run(["score", "--json", word], capsys)
    assert code == 2 and "no such file" in json.loads(out)["error"]["message"]


def test_score_of_a_file_and_of_a_bad_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    req = tmp_path / "req.json"
    req.write_text(json.dumps({"winner": 0, "hand": "123m456p789s23s55s", "win_tile": "4s"}))
    assert run(["score", str(req)], capsys)[0] == 0
    code, _, err = run(["score", "1238z +1m"], capsys)  # a hand: its notation error, not a missing file
    assert code == 2 and "'8z' is not a tile" in err and "no such file" not in err


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 3), st.integers(0, 3), st.sampled_from("ESWN"), st.sampled_from([3, 4]))
def test_dealer_and_seat_wind_never_settled_silently(
    winner: int, dealer: int, wind: str, players: int
) -> None:
    """--dealer and --seat-wind together: accepted only when they name the same dealer."""
    from tenbou.cli import build_parser
    from tenbou.errors import RequestError

    if winner >= players or dealer >= players:
        return
    hand = "123m456p789s23s55s +4s" if players == 4 else "111m456p789s23s55s +4s"
    args = build_parser().parse_args(
        ["score", hand, "--winner", str(winner), "--dealer", str(dealer), "--seat-wind", wind,
         "--players", str(players)]
    )  # fmt: skip
    from tenbou.cli.hands import _request_from_args

    implied = (winner - "ESWN".index(wind)) % players
    if "ESWN".index(wind) >= players:
        with pytest.raises(RequestError, match="have no N seat"):
            _request_from_args(args)
    elif implied != dealer:
        with pytest.raises(RequestError, match="disagree"):
            _request_from_args(args)
    else:
        assert _request_from_args(args)["dealer"] == dealer


def test_conflicting_flags_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["score", HAND, "--winner", "1", "--dealer", "0", "--seat-wind", "E"], capsys)
    assert code == 2 and "--dealer 0 and --seat-wind E disagree" in err
    code, _, err = run(["score", HAND, "--riichi", "--double-riichi"], capsys)
    assert code == 2 and "--riichi and --double-riichi" in err
    code, out, _ = run(["score", "--json", HAND, "--double-riichi"], capsys)
    assert code == 0 and json.loads(out)["yaku"][0]["id"] == "double_riichi"
    code, out, _ = run(["score", "--json", HAND, "--winner", "1", "--seat-wind", "E"], capsys)
    assert code == 0 and json.loads(out)["dealer"] is True


def test_score_help_lists_every_flag(capsys: pytest.CaptureFixture[str]) -> None:
    from tenbou.cli.hands import _FLAG_NAMES

    with pytest.raises(SystemExit):
        main(["score", "--help"])
    text = capsys.readouterr().out
    for flag in (*_FLAG_NAMES, "honba", "riichi_sticks", "kita", "dora", "ura"):
        line = next((x for x in text.splitlines() if f"--{flag.replace('_', '-')} " in x + " "), None)
        assert line is not None and len(line.split()) > 1, flag  # listed, with its help
    assert "situation:" in text


@pytest.mark.parametrize("name", ["x.jpg", "x.pdf", "x", "x.svgz"])
def test_svg_refuses_formats_it_cannot_write(
    tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(["svg", "123m", "-o", str(tmp_path / name)], capsys)
    assert code == 2 and "writes .svg or .png" in err and not (tmp_path / name).exists()
    assert run(["svg", "123m", "-o", str(tmp_path / "x.svg")], capsys)[0] == 0


@pytest.mark.skipif(
    importlib.util.find_spec("distributed") is None, reason="dask[distributed] is not installed"
)
@pytest.mark.parametrize("address", ["tcp://unreachable", "nonsense://x"])
def test_dask_without_a_scheduler(tmp_path: Path, address: str, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.jsonl").write_bytes(b'{"type":"start_game"}\n{"type":"end_game"}\n')
    code, out, err = run(["verify", str(tmp_path), "--dask", address, "--quiet"], capsys)
    assert code == 2 and f"--dask {address}: no Dask scheduler to run on" in err
    assert "Traceback" not in out + err


def test_replay_and_verify_read_the_records_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--rules means the same in both: the rules of a record that does not name its own. An
    East-only game whose start_game says so (kyoku_first 4) is played East-only, whatever --rules."""
    from .alterations import enrich_mjai
    from .test_convert import selfplay

    tonpuu = {"preset": "tenhou", "overrides": {"length": "tonpuu"}}
    text = enrich_mjai(selfplay(7), rules=tonpuu).decode()  # with the final points on end_game
    start = next(x for x in text.splitlines() if '"start_game"' in x)
    obj = {k: v for k, v in json.loads(start).items() if k != "tenbou_rules"}
    f = tmp_path / "tonpuu.jsonl"
    f.write_text(text.replace(start, json.dumps({**obj, "kyoku_first": 4})))
    for command in (["replay", "--json"], ["verify", "--json", "--quiet"]):
        for rules in ([], ["--rules", "tenhou"], ["--rules", "mahjongsoul"]):
            code, out, _ = run([*command, str(f), *rules], capsys)
            lines = [json.loads(x) for x in out.splitlines()]
            assert code == 0 and lines[-1]["summary"]["mismatched"] == 0, (command, rules)
            assert all(line.get("match") for line in lines[:-1]), (command, rules)
    # without the record's word, --rules decides: a hanchan under tenhou goes on after East 4
    f.write_text(text.replace(start, json.dumps(obj)))
    code, out, _ = run(["verify", "--json", "--quiet", str(f), "--rules", "tenhou"], capsys)
    assert code == 1 and "game_end" in json.loads(out.splitlines()[-1])["summary"]["mismatches"]


def test_replay_says_when_a_records_own_rules_win_over_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A record that names its rules (start_game's tenbou_rules) is played under them whatever
    --rules says; replay says so on stderr, naming both, once a game -- and only where they differ."""
    from .alterations import enrich_mjai
    from .test_convert import selfplay

    f = tmp_path / "ml.jsonl"
    f.write_bytes(enrich_mjai(selfplay(7), rules="mleague"))
    baseline = run(["replay", "--json", str(f)], capsys)
    assert baseline[0] == 0 and baseline[2] == ""
    warning = (
        f"tenbou: warning: {f} game 0 names its own rules (mleague): played under them, not under "
        "--rules {}\n"
    )
    for args, asked in (
        (["--rules", "tenhou"], "tenhou"),
        (["--set", "kiriage=true"], '{"preset": "tenhou", "overrides": {"kiriage": true}}'),
        (["--rules", "mahjongsoul", "--set", "uma=[20,10,-10,-20]"], None),
        (["--rules", "mleague"], ""),
    ):
        code, out, err = run(["replay", "--json", str(f), *args], capsys)
        assert code == 0 and out == baseline[1]  # the game is played under mleague all the same
        if asked is None:
            assert err.startswith(f"tenbou: warning: {f} game 0 names its own rules (mleague)")
            assert err.count("\n") == 1 and '"preset": "mahjongsoul"' in err
        else:
            assert err == (warning.format(asked) if asked else "")
    # a record that does not name its rules is played under --rules, without a word
    g = tmp_path / "plain.jsonl"
    g.write_bytes(selfplay(7))
    code, _, err = run(["replay", "--json", str(g), "--rules", "mahjongsoul"], capsys)
    assert code == 0 and err == ""
