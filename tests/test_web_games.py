"""The score sheet's API: games kept in SQLite (``tenbou serve --db FILE``), their hands replayed
through tenbou (``settle_request`` and ``Game.record_settlement``), edits and undo that recompute
every later hand, optimistic concurrency (409 on a stale version, nothing written), the
database surviving a restart, and the exports read back by tenbou's own tools (``tenbou settle
--json`` for the JSON Lines, the import for the JSON, the CSV's rows). Bad input, generated,
answers 422 with the error object and leaves the game unchanged."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install 'tenbou[web]')")
pytest.importorskip("httpx", reason="FastAPI's test client needs httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from tenbou import cli
from tenbou.api import settle
from tenbou.rules import rules_from_request
from tenbou.web import create_app
from tenbou.web.limits import RateLimiter
from tenbou.web.store import default_db_path

from .requestgen import DAISANGEN, SETTLES, bad_settle_requests
from .test_web_api import assert_error, assert_secure

JSON_TYPE = {"content-type": "application/json"}
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

NAMES = ["Ai", "Bo", "Chen", "Dai"]
MANGAN = {"hand": "123m456p789s23s55s", "win_tile": "4s", "riichi": True, "dora_indicators": ["4s"] * 3}
#: the seeds' daisangen (seat 3 gave the third dragon pon), won by ron on seat 2's discard
DAISANGEN_WIN = {k: v for k, v in DAISANGEN.items() if k not in ("rules", "dealer", "round_wind")}
PINFU_WIN = {"winner": 3, "from": 2, "hand": "123m456p789s23s55s", "win_tile": "4s", "riichi": True}


def tsumo(winner: int) -> dict[str, Any]:
    return {"request": {"wins": [{**MANGAN, "winner": winner}]}, "riichi": [winner]}


def draw(*tenpai: int) -> dict[str, Any]:
    return {"request": {"draw": {"kind": "exhaustive", "tenpai": list(tenpai)}}, "riichi": []}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


def app_on(db: Path | None = None) -> TestClient:
    """A test client of an app on ``db``, as the person at the machine (loopback, no password):
    the operator, starting as many games as a test needs (the limit per client has its tests)."""
    app = create_app(db_path=db, new_games=RateLimiter(100_000, 1000.0))
    return TestClient(app, base_url="http://localhost", raise_server_exceptions=False)


@pytest.fixture
def client(db: Path) -> TestClient:
    return app_on(db)


def new_game(client: TestClient, **setup: Any) -> dict[str, Any]:
    body = {"rules": {"preset": "tenhou", "overrides": {"length": "tonpuu"}}, "names": NAMES, **setup}
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    assert_secure(r)
    return dict(r.json())


def add(client: TestClient, game: dict[str, Any], hand: dict[str, Any], **extra: Any) -> dict[str, Any]:
    r = client.post(
        f"/api/games/{game['id']}/hands", json={"version": game["version"], "hand": hand, **extra}
    )
    assert r.status_code == 200, r.text
    return dict(r.json())


def play_four(client: TestClient) -> dict[str, Any]:
    """East 1-4 of a tonpuu game: seat 1, 2, 1, 1 win a riichi haneman tsumo; East 4 ends it."""
    game = new_game(client)
    for winner in (1, 2, 1, 1):
        game = add(client, game, tsumo(winner))
    return game


def test_a_four_hand_game_ends_with_the_ranking(client: TestClient) -> None:
    game = play_four(client)
    assert [h["scores"] for h in game["hands"]] == [
        [17000, 41000, 21000, 21000],
        [13000, 33000, 37000, 17000],
        [9000, 49000, 29000, 13000],
        [5000, 65000, 25000, 5000],
    ]
    assert [(h["round"], h["number"], h["dealer"], h["riichi_sticks"]) for h in game["hands"]] == [
        ("E", 1, 0, 1),
        ("E", 2, 1, 1),
        ("E", 3, 2, 1),
        ("E", 4, 3, 1),
    ]
    assert game["ended"] and game["next"] is None and game["ending"] == "last_hand"
    assert game["final"] == {
        "points": [5000, 65000, 25000, 5000],
        "ranking": [1, 2, 0, 3],
        "final_scores": [-35.0, 75.0, 5.0, -45.0],
        "names": ["Bo", "Chen", "Ai", "Dai"],
    }
    assert game["version"] == 5
    # no hand after the end of the game
    r = client.post(f"/api/games/{game['id']}/hands", json={"version": 5, "hand": draw()})
    assert "ended" in assert_error(r, 422)["message"]


def test_the_next_hand_is_the_games_honba_sticks_and_dealer(client: TestClient) -> None:
    game = new_game(client)
    game = add(client, game, {**draw(0, 2), "riichi": [2]})  # the dealer tenpai: renchan, 1 honba
    assert game["next"] == {
        "players": 4,
        "dealer": 0,
        "round_wind": "E",
        "honba": 1,
        "riichi_sticks": 1,
        "number": 1,
        "scores": [26500, 23500, 25500, 23500],
    }
    # the double ron of the seeds, one with pao: honba 1 and the carried stick go to the nearest
    game = add(client, game, {"request": {"wins": [DAISANGEN_WIN, PINFU_WIN]}, "riichi": [3]})
    hand = game["hands"][1]
    expected = settle({"rules": {"preset": "tenhou", "overrides": {"length": "tonpuu"}}, **hand["request"]})
    assert hand["settlement"] == expected
    assert hand["request"]["riichi_sticks"] == 2 and hand["request"]["honba"] == 1
    assert hand["winners"] == [3, 1] and hand["from"] == 2
    assert [p["seat"] for p in hand["settlement"]["results"][1]["pao"]] == [3]
    assert game["next"]["dealer"] == 1 and game["next"]["honba"] == 0 and game["next"]["riichi_sticks"] == 0
    assert sum(game["scores"]) == 100000


def test_a_request_that_says_another_hand_is_refused(client: TestClient) -> None:
    game = new_game(client)
    for field, value, word in (
        ("dealer", 1, "dealer"),
        ("honba", 3, "honba"),
        ("riichi_sticks", 0, "riichi sticks"),
        ("round_wind", "S", "round wind"),
        ("rules", "mleague", "rules"),
    ):
        hand = {"request": {**draw(1)["request"], field: value}, "riichi": [1]}
        r = client.post(f"/api/games/{game['id']}/hands", json={"version": 1, "hand": hand})
        assert word in assert_error(r, 422)["message"]
    assert client.get(f"/api/games/{game['id']}").json()["version"] == 1
    # the game's own values are accepted, and not stored (an edit of an earlier hand moves them)
    hand = {"request": {**draw(1)["request"], "dealer": 0, "honba": 0, "riichi_sticks": 1}, "riichi": [1]}
    assert add(client, game, hand)["hands"][0]["riichi_sticks"] == 1


def test_edit_and_undo_recompute_every_later_hand(client: TestClient) -> None:
    game = play_four(client)
    # hand 0 becomes an exhaustive draw with the dealer tenpai: the dealer keeps the deal, and the
    # three hands after it move (their dealers, honba and sticks are the game's): seat 1's third
    # win is now a dealer's win, a renchan
    r = client.put(f"/api/games/{game['id']}/hands/0", json={"version": game["version"], "hand": draw(0)})
    assert r.status_code == 200, r.text
    edited = r.json()
    assert [(h["round"], h["number"], h["honba"], h["dealer"]) for h in edited["hands"]] == [
        ("E", 1, 0, 0),
        ("E", 1, 1, 0),
        ("E", 2, 0, 1),
        ("E", 2, 1, 1),
    ]
    assert not edited["ended"] and (edited["next"]["dealer"], edited["next"]["honba"]) == (1, 2)
    assert edited["version"] == game["version"] + 1
    # undo: the last hand removed
    r = client.delete(f"/api/games/{game['id']}/hands/3?version={edited['version']}")
    assert r.status_code == 200, r.text
    undone = r.json()
    assert len(undone["hands"]) == 3 and (undone["next"]["dealer"], undone["next"]["honba"]) == (1, 1)
    assert undone["scores"] == edited["hands"][2]["scores"]
    # a hand inserted at the start
    inserted = add(client, undone, draw(), at=0)
    assert [h["kind"] for h in inserted["hands"]] == ["exhaustive_draw"] * 2 + ["win"] * 2
    assert inserted["hands"][1]["dealer"] == 1  # the all-noten draw passed the deal


def test_an_edit_that_breaks_a_later_hand_is_refused(client: TestClient) -> None:
    game = new_game(client)
    game = add(client, game, draw(0))
    game = add(client, game, tsumo(0))
    # hand 0 made a daisangen ron on the liable seat 3's own discard: 32,000 busts seat 3 (tobi),
    # the game ends there, and hand 1 cannot follow
    bust = {"request": {"wins": [{**DAISANGEN_WIN, "from": 3}]}, "riichi": []}
    r = client.put(f"/api/games/{game['id']}/hands/0", json={"version": game["version"], "hand": bust})
    message = assert_error(r, 422)["message"]
    assert message.startswith("hands[1]: the game ended with hands[0] (tobi)"), message
    assert client.get(f"/api/games/{game['id']}").json() == game
    # a riichi below the rules' minimum is refused the same way
    r = client.put(f"/api/games/{game['id']}/hands/1", json={"version": game["version"], "hand": tsumo(0)})
    assert r.status_code == 200
    one = new_game(client, rules={"preset": "tenhou", "overrides": {"tobi": False, "length": "tonpuu"}})
    one = add(client, one, bust)
    r = client.post(f"/api/games/{one['id']}/hands", json={"version": one["version"], "hand": tsumo(3)})
    assert "riichi: seat 3 has -7000 points, 1000 are needed" in assert_error(r, 422)["message"]


def test_a_stale_write_is_409_and_writes_nothing(client: TestClient) -> None:
    game = new_game(client)
    tab_a = add(client, game, draw(0))  # tab A records a hand: version 2
    # tab B still shows version 1
    for r in (
        client.post(f"/api/games/{game['id']}/hands", json={"version": 1, "hand": draw(1)}),
        client.put(f"/api/games/{game['id']}/hands/0", json={"version": 1, "hand": draw(1)}),
        client.delete(f"/api/games/{game['id']}/hands/0?version=1"),
        client.delete(f"/api/games/{game['id']}?version=1"),
    ):
        error = assert_error(r, 409, "conflict")
        assert "reload" in error["message"] and "version 2" in error["message"]
    now = client.get(f"/api/games/{game['id']}").json()
    assert now == tab_a


def test_the_database_survives_a_restart(db: Path) -> None:
    first = app_on(db)
    game = play_four(first)
    del first
    again = app_on(db)
    listed = again.get("/api/games").json()["games"]
    assert [g["id"] for g in listed] == [game["id"]]
    assert listed[0]["summary"]["hands"] == 4 and listed[0]["summary"]["ended"] is True
    assert again.get(f"/api/games/{game['id']}").json() == game
    # what is kept is what was entered, never a derived number
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        entries = [json.loads(e) for (e,) in con.execute("SELECT entry FROM hands ORDER BY position")]
    assert entries[0] == tsumo(1)


def test_games_are_listed_and_deleted(client: TestClient) -> None:
    a = new_game(client, title="club night")
    b = new_game(client, players=3, rules="tenhou", names=["A", "B", "C"])
    assert b["next"]["scores"] == [35000] * 3
    listed = client.get("/api/games").json()["games"]
    assert {g["id"] for g in listed} == {a["id"], b["id"]}
    r = client.delete(f"/api/games/{a['id']}?version=1")
    assert r.status_code == 200 and r.json() == {"deleted": a["id"]}
    assert_error(client.get(f"/api/games/{a['id']}"), 404, "not_found")
    assert [g["id"] for g in client.get("/api/games").json()["games"]] == [b["id"]]


BAD_SETUPS = [
    ({"rules": "tenhuo"}, "rule"),
    ({"rules": {"preset": "tenhou", "overrides": {"start_points": "many"}}}, "rule"),
    ({"players": 5}, "request"),
    ({"rules": "mleague", "players": 3}, "request"),
    ({"names": ["A", "B"]}, "request"),
    ({"names": ["A", "B", "C", 4]}, "request"),
    ({"names": ["A", "B", "C", "x" * 41]}, "request"),
    ({"title": "\x00"}, "request"),
    ({"colour": "red"}, "request"),
]


@pytest.mark.parametrize(("body", "code"), BAD_SETUPS)
def test_a_bad_game_is_422(client: TestClient, body: dict[str, Any], code: str) -> None:
    assert_error(client.post("/api/games", json=body), 422, code)
    assert client.get("/api/games").json()["games"] == []


def test_bad_writes_are_422_or_404(client: TestClient) -> None:
    game = new_game(client)
    gid = game["id"]
    for body, word in (
        ({"hand": draw()}, "version: missing"),
        ({"version": "1", "hand": draw()}, "version"),
        ({"version": 1}, "hand"),
        ({"version": 1, "hand": draw(), "extra": 1}, "unknown field"),
        ({"version": 1, "hand": {"request": [], "riichi": []}}, "request"),
        ({"version": 1, "hand": {**draw(), "riichi": [9]}}, "riichi"),
        ({"version": 1, "hand": {**draw(), "riichi": "0"}}, "riichi"),
        ({"version": 1, "hand": draw(), "at": 5}, "at"),
        (
            {"version": 1, "hand": {"request": {"wins": [{"winner": 0, "hand": "1238z", "win_tile": "1m"}]}}},
            "8z",
        ),
    ):
        assert word in assert_error(client.post(f"/api/games/{gid}/hands", json=body), 422)["message"]
    assert_error(client.delete(f"/api/games/{gid}/hands/0?version=1"), 404, "not_found")
    assert_error(client.delete(f"/api/games/{gid}/hands/0"), 422, "request")
    assert_error(client.delete(f"/api/games/{gid}/hands/0?version=x"), 422, "request")
    assert_error(client.get("/api/games/000000000000"), 404, "not_found")
    assert_error(client.get("/api/games/..%2Fetc"), 404, "not_found")
    assert_error(client.get(f"/api/games/{gid}/export.exe"), 404, "not_found")
    r = client.post(f"/api/games/{gid}/hands", content="{bad", headers={"content-type": "application/json"})
    assert_error(r, 422, "request")
    r = client.post(f"/api/games/{gid}/hands", content="{}", headers={"content-type": "text/plain"})
    assert_error(r, 415, "request")
    assert client.get(f"/api/games/{gid}").json()["version"] == 1


_TABLE_KEYS = ("rules", "players", "dealer", "round_wind", "honba", "riichi_sticks")


def _as_hand(req: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in req.items() if k not in _TABLE_KEYS}
    wins = out.get("wins")
    if isinstance(wins, list):
        out["wins"] = [
            {k: v for k, v in w.items() if k not in _TABLE_KEYS} if isinstance(w, dict) else w for w in wins
        ]
    return out


@st.composite
def entered_hands(draw: st.DrawFn) -> tuple[dict[str, Any], list[int]]:
    """A hand's end as the page could send it: a settle request the API accepts or one bent by
    ``requestgen``, and the riichi seats: odd ones, or a set of seats with the riichi winners."""
    req = draw(
        st.one_of(st.sampled_from([r for r in SETTLES if r.get("rules") == "tenhou"]), bad_settle_requests())
    )
    hand = _as_hand(req)
    if draw(st.booleans()):
        return hand, draw(st.lists(st.integers(-1, 4), max_size=3))
    seats = set(draw(st.sets(st.integers(0, 3), max_size=3)))
    wins = hand.get("wins")
    if isinstance(wins, list) and draw(st.booleans()):
        seats |= {
            w["winner"]
            for w in wins
            if isinstance(w, dict) and w.get("riichi") is True and type(w.get("winner")) is int
        }
    return hand, sorted(seats)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entered=entered_hands())
def test_generated_hands_answer_422_or_settle_as_the_api(
    client: TestClient, entered: tuple[dict[str, Any], list[int]]
) -> None:
    hand_request, riichi = entered
    game = client.post("/api/games", json={"rules": "tenhou"}).json()
    hand = {"request": hand_request, "riichi": riichi}
    r = client.post(
        f"/api/games/{game['id']}/hands",
        headers=JSON_TYPE,
        content=json.dumps({"version": 1, "hand": hand}).encode(),
    )
    assert_secure(r)
    assert r.status_code in (200, 422), r.text
    after = client.get(f"/api/games/{game['id']}").json()
    if r.status_code == 422:
        assert_error(r, 422)
        assert after["version"] == 1 and after["hands"] == []
        return
    row = r.json()["hands"][0]
    assert row["settlement"] == settle({"rules": "tenhou", **row["request"]})
    assert row["request"]["riichi_sticks"] == len(riichi)
    # no point made or lost: the scores and the sticks left on the table add up to the start
    assert sum(row["scores"]) + 1000 * r.json()["riichi_sticks"] == 100000
    # the hand's change of score: the settlement's deltas less the sticks put down
    assert row["score_change"] == [s - 25000 for s in row["scores"]]
    assert row["score_change"] == [d - 1000 * (s in riichi) for s, d in enumerate(row["deltas"])]
    assert after == r.json()
    assert_csv_adds_up(client, after)


def test_exports_are_read_back_by_tenbous_tools(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = new_game(client)
    game = add(client, game, {**draw(0, 2), "riichi": [2]})
    game = add(client, game, {"request": {"wins": [DAISANGEN_WIN, PINFU_WIN]}, "riichi": [3]})
    game = add(
        client, game, {"request": {"draw": {"kind": "abortive", "reason": "suufon_renda"}}, "riichi": []}
    )
    gid = game["id"]
    # JSON Lines of settle requests: `tenbou settle --json` settles each hand again
    r = client.get(f"/api/games/{gid}/export.jsonl")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    path = tmp_path / "game.jsonl"
    path.write_bytes(r.content)
    assert cli.main(["settle", str(path), "--json"]) == 0
    results = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [x["deltas"] for x in results] == [h["deltas"] for h in game["hands"]]
    assert [x["next"] for x in results] == [h["settlement"]["next"] for h in game["hands"]]
    # CSV: one row per hand, the scores after each
    rows = list(csv.reader(io.StringIO(client.get(f"/api/games/{gid}/export.csv").text)))
    assert rows[0][:7] == ["hand", "round", "number", "honba", "riichi_sticks", "dealer", "kind"]
    assert rows[0][-4:] == [f"score {n}" for n in NAMES]
    assert [list(map(int, row[-4:])) for row in rows[2:]] == [h["scores"] for h in game["hands"]]
    assert [row[6] for row in rows[2:]] == ["exhaustive_draw", "win", "abortive_draw (suufon_renda)"]
    # JSON: imported again, the same sheet (replayed, not copied)
    exported = client.get(f"/api/games/{gid}/export.json").json()
    assert exported["format"] == "tenbou-score-sheet"
    r = client.post("/api/games/import", json=exported)
    assert r.status_code == 201, r.text
    imported = r.json()
    assert imported["id"] != gid
    assert imported["hands"] == game["hands"] and imported["scores"] == game["scores"]
    # an export whose numbers do not follow from its hands is refused, and nothing is kept
    assert len(exported["sheet"]["hands"]) == 3 and "settlement" not in exported["sheet"]["hands"][0]
    exported["sheet"]["hands"][1]["deltas"][0] += 1000
    message = assert_error(client.post("/api/games/import", json=exported), 422)["message"]
    assert message.startswith("sheet.hands[1]: the export says"), message
    exported["sheet"]["hands"][1]["deltas"][0] -= 1000
    exported["sheet"]["scores"][0] += 1000
    assert "sheet.scores" in assert_error(client.post("/api/games/import", json=exported), 422)["message"]
    exported["hands"][0]["riichi"] = [0, 2]  # a hand changed: its replay differs from the numbers
    assert "sheet." in assert_error(client.post("/api/games/import", json=exported), 422)["message"]
    assert len(client.get("/api/games").json()["games"]) == 2
    exported["format"] = "other"
    assert_error(client.post("/api/games/import", json=exported), 422, "request")


def csv_rows(client: TestClient, game: dict[str, Any]) -> list[list[str]]:
    return list(csv.reader(io.StringIO(client.get(f"/api/games/{game['id']}/export.csv").text)))


def assert_csv_adds_up(client: TestClient, game: dict[str, Any]) -> None:
    """Each row of the CSV: its changes are its scores less the row above (the start points
    first), the sheet's ``score_change``; no cell is a Python boolean."""
    rows = csv_rows(client, game)
    n = len(game["scores"])
    change = [i for i, name in enumerate(rows[0]) if name.startswith("change ")]
    score = [i for i, name in enumerate(rows[0]) if name.startswith("score ")]
    assert len(change) == len(score) == n and not any(x.startswith("delta") for x in rows[0])
    before = [int(rows[1][i]) for i in score]
    assert before == [game["start_points"]] * n
    hands = rows[2:-1] if game["ended"] and game["final"] else rows[2:]
    assert [row[0] for row in rows[len(hands) + 2 :]] == (["final"] if game["ended"] else [])
    for row, hand in zip(hands, game["hands"], strict=True):
        now = [int(row[i]) for i in score]
        assert [int(row[i]) for i in change] == [a - b for a, b in zip(now, before, strict=True)]
        assert [int(row[i]) for i in change] == hand["score_change"] and now == hand["scores"]
        before = now
    assert not {cell for row in rows for cell in row} & {"True", "False", "None"}


def test_each_rows_change_is_its_change_of_score(client: TestClient) -> None:
    """The sheet's deltas are the settlement's (the winner's +3,000 of a riichi ron of 2,000 takes
    back its own stick); ``score_change`` and the CSV's ``change`` columns are what each score did
    (+2,000, as the sheet shows): a stick put down is part of the hand's change."""
    game = new_game(client)
    game = add(client, game, {"request": {"wins": [{**PINFU_WIN, "winner": 1}]}, "riichi": [1]})
    first = game["hands"][0]
    assert first["deltas"] == [0, 3000, -2000, 0]
    assert first["score_change"] == [0, 2000, -2000, 0] and first["scores"] == [25000, 27000, 23000, 25000]
    # a draw: a riichi by a noten player, a tenpai one, and the sticks left on the table
    game = add(client, game, {**draw(0, 2), "riichi": [2, 3]})
    second = game["hands"][1]
    assert second["deltas"] == [1500, -1500, 1500, -1500]
    assert second["score_change"] == [1500, -1500, 500, -2500]
    # a double ron: the sticks (2 on the table, 1 put down now) go to the winner nearest the discarder
    game = add(client, game, {"request": {"wins": [DAISANGEN_WIN, PINFU_WIN]}, "riichi": [3]})
    third = game["hands"][2]
    assert third["riichi_sticks"] == 3
    assert [a - b for a, b in zip(third["score_change"], third["deltas"], strict=True)] == [0, 0, 0, -1000]
    assert sum(third["score_change"]) == 2000  # the two sticks carried came back to a player
    assert_csv_adds_up(client, game)
    rows = csv_rows(client, game)
    assert rows[0][10:] == [f"change {n}" for n in NAMES] + [f"score {n}" for n in NAMES]
    assert rows[2][10:14] == ["0", "2000", "-2000", "0"]


def test_the_default_database_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_db_path() == tmp_path / "tenbou" / "games.sqlite3"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/path")  # not absolute: ignored, as the spec says
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_db_path() == tmp_path / ".local" / "share" / "tenbou" / "games.sqlite3"
    # the file (and its folder) are made on the first use of the games API, not before
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    client = app_on()
    assert client.post(
        "/api/score", json={"winner": 0, "hand": "123m456p789s23s55s", "win_tile": "4s"}
    ).is_success
    assert not (tmp_path / "data").exists()
    assert client.get("/api/games").json() == {"games": [], "next": None}
    assert (tmp_path / "data" / "tenbou" / "games.sqlite3").exists()


def test_serve_takes_a_db_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    seen: dict[str, Any] = {}
    from tenbou.web import app as web_app

    monkeypatch.setattr(web_app, "serve", lambda *a, **k: seen.update(k))
    assert cli.main(["serve", "--db", str(tmp_path / "x.sqlite3"), "--port", "1"]) == 0
    assert seen["db_path"] == tmp_path / "x.sqlite3"


def _simple_hands() -> st.SearchStrategy[dict[str, Any]]:
    """Hands any game can take at any point: an exhaustive draw, or a riichi haneman tsumo."""
    draw_ = st.sets(st.integers(0, 3)).map(lambda seats: draw(*sorted(seats)))
    return st.one_of(draw_, st.integers(0, 3).map(tsumo))


def _sheet(game: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in game.items() if k not in ("id", "version", "created", "updated", "links")}


def enter_until_refused(client: TestClient, hands: list[dict[str, Any]]) -> tuple[dict[str, Any], int | None]:
    """A new game entered hand by hand: the game, and the first hand refused (``None``: none)."""
    game = new_game(client)
    for i, hand in enumerate(hands):
        step = client.post(f"/api/games/{game['id']}/hands", json={"version": game["version"], "hand": hand})
        if step.status_code != 200:
            return game, i
        game = step.json()
    return game, None


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(hands=st.lists(_simple_hands(), min_size=2, max_size=6), data=st.data())
def test_an_edit_is_the_game_entered_again_with_the_change(
    client: TestClient, hands: list[dict[str, Any]], data: st.DataObject
) -> None:
    """Editing hand k (or removing it) gives the sheet of a new game entered hand by hand with
    the change: every later hand is recomputed, none is kept from before."""
    game = new_game(client)
    entered: list[dict[str, Any]] = []
    for hand in hands:
        r = client.post(f"/api/games/{game['id']}/hands", json={"version": game["version"], "hand": hand})
        if r.status_code != 200:
            break  # the game has ended
        game = r.json()
        entered.append(hand)
    k = data.draw(st.integers(0, len(entered) - 1))
    if data.draw(st.booleans()):
        change = data.draw(_simple_hands())
        r = client.put(
            f"/api/games/{game['id']}/hands/{k}", json={"version": game["version"], "hand": change}
        )
        changed = [*entered[:k], change, *entered[k + 1 :]]
    else:
        r = client.delete(f"/api/games/{game['id']}/hands/{k}?version={game['version']}")
        changed = [*entered[:k], *entered[k + 1 :]]
    again, refused = enter_until_refused(client, changed)
    if refused is None:
        assert r.status_code == 200, r.text
        assert _sheet(r.json()) == _sheet(again)
        assert_csv_adds_up(client, again)
    else:  # the change makes a later hand impossible (the game ends before it): refused, and named
        assert r.status_code == 422
        assert assert_error(r, 422)["message"].startswith(f"hands[{refused}]")
        assert client.get(f"/api/games/{game['id']}").json() == game


# -- the end of a game entered by the players, where the rules let it end or go on ----------------

#: Tenhou tonpuu: seat 3 wins a haneman tsumo in East 1, two hands are drawn all noten, and in
#: East 4 the dealer (seat 3), first with 44,000, is alone tenpai: tenpai_yame = "optional", so the
#: game may end here or go on
ALL_LAST_TENPAI = [tsumo(3), draw(), draw(), draw(3)]
#: the ranking if it ends there: 16,000 / 20,000 / 20,000 / 44,000 against 30,000 return points,
#: uma 20-10, the oka (4 x 5,000) to the top
ENDED_FINAL = {
    "points": [16000, 20000, 20000, 44000],
    "ranking": [3, 1, 2, 0],
    "final_scores": [-34.0, 0.0, -20.0, 54.0],
    "names": ["Dai", "Bo", "Chen", "Ai"],
}


def enter(client: TestClient, hands: list[dict[str, Any]], **setup: Any) -> dict[str, Any]:
    game = new_game(client, **setup)
    for hand in hands:
        game = add(client, game, hand)
    return game


def end(client: TestClient, game: dict[str, Any]) -> Any:
    return client.post(f"/api/games/{game['id']}/end", json={"version": game["version"]})


def test_the_players_end_the_game_where_the_rules_let_it(client: TestClient) -> None:
    game = enter(client, ALL_LAST_TENPAI)
    assert game["may_end"] and not game["ended"] and game["end"] is None
    assert game["final"] == ENDED_FINAL  # the ranking as it would stand
    assert game["next"]["dealer"] == 3 and game["next"]["honba"] == 3
    r = end(client, game)
    assert r.status_code == 200, r.text
    assert_secure(r)
    ended = r.json()
    assert ended["ended"] and not ended["may_end"] and ended["next"] is None
    assert ended["ending"] == "tenpai_yame" and ended["end"] == {"after": 3}
    assert ended["final"] == ENDED_FINAL
    assert ended["hands"] == game["hands"] and ended["version"] == game["version"] + 1
    assert client.get(f"/api/games/{game['id']}").json() == ended
    assert client.get("/api/games").json()["games"][0]["summary"]["ended"] is True
    # the final ranking is the one an event-stream game gives on end_game (Game.apply(EndGame()))
    from tenbou.api import settle_request
    from tenbou.engine.events import EndGame
    from tenbou.engine.game import Game
    from tenbou.rules import rules_from_request

    rules = rules_from_request(game["setup"]["rules"])
    events = Game(rules)
    for row in ended["hands"]:
        events.record_settlement(
            settle_request(row["request"], rules=rules), row["request"], riichi=row["riichi"]
        )
    events.apply(EndGame())
    assert events.final is not None and events.final.to_dict() == {
        k: v for k, v in ENDED_FINAL.items() if k != "names"
    }
    # no hand after it, no second end; nothing changes
    r = client.post(f"/api/games/{game['id']}/hands", json={"version": ended["version"], "hand": draw(3)})
    message = assert_error(r, 422, "request")["message"]
    assert message == "hands[4]: the game ended with hands[3] (tenpai_yame, ended there by the players)"
    assert "already ended after hands[3]" in assert_error(end(client, ended), 422)["message"]
    # a stale tab cannot end or take back the end (409), and nothing is written
    assert_error(end(client, game), 409, "conflict")
    assert_error(client.delete(f"/api/games/{game['id']}/end?version={game['version']}"), 409, "conflict")
    assert client.get(f"/api/games/{game['id']}").json() == ended
    # taking back the end: the game goes on from East 4, honba 3
    r = client.delete(f"/api/games/{game['id']}/end?version={ended['version']}")
    assert r.status_code == 200, r.text
    again = r.json()
    assert {k: v for k, v in again.items() if k not in ("version", "updated")} == {
        k: v for k, v in game.items() if k not in ("version", "updated")
    }
    played_on = add(client, again, tsumo(0))
    assert played_on["hands"][4]["honba"] == 3 and played_on["end"] is None
    assert_error(
        client.delete(f"/api/games/{game['id']}/end?version={played_on['version']}"), 404, "not_found"
    )


def test_a_game_ended_by_the_rules_cannot_be_ended_or_taken_back(client: TestClient) -> None:
    game = play_four(client)  # East 4 passes the deal: the last hand ends it
    message = assert_error(end(client, game), 422, "illegal_event")["message"]
    assert message == "end: the game already ended after hands[3] (East 4) by the rules (last_hand)"
    assert_error(client.delete(f"/api/games/{game['id']}/end?version={game['version']}"), 404, "not_found")
    # the dealer's tenpai ends a Mahjong Soul game by itself (tenpai_yame = "auto"): nothing to choose
    auto = enter(client, ALL_LAST_TENPAI, rules={"preset": "mahjongsoul", "overrides": {"length": "tonpuu"}})
    assert auto["ended"] and auto["ending"] == "tenpai_yame" and auto["end"] is None
    assert "by the rules (tenpai_yame)" in assert_error(end(client, auto), 422, "illegal_event")["message"]


def test_bad_end_requests(client: TestClient) -> None:
    game = enter(client, ALL_LAST_TENPAI)
    gid = game["id"]
    v = game["version"]
    for body, word in (
        ({}, "version: missing"),
        ({"version": "1"}, "version"),
        ({"version": v, "after": 3}, "unknown field"),
        ([], "JSON object"),
    ):
        assert (
            word in assert_error(client.post(f"/api/games/{gid}/end", json=body), 422, "request")["message"]
        )
    r = client.post(f"/api/games/{gid}/end", content="{}", headers={"content-type": "text/plain"})
    assert_error(r, 415, "request")
    r = client.post(f"/api/games/{gid}/end", headers=JSON_TYPE, content=b'{"version": 5, "version": 5}')
    assert_error(r, 422, "request")
    assert_error(client.post("/api/games/000000000000/end", json={"version": 1}), 404, "not_found")
    assert_error(client.delete(f"/api/games/{gid}/end"), 422, "request")
    assert "no hands yet" in assert_error(end(client, new_game(client)), 422, "request")["message"]
    assert client.get(f"/api/games/{gid}").json() == game


_PRESETS = [
    {"preset": "tenhou", "overrides": {"length": "tonpuu"}},
    {"preset": "mahjongsoul", "overrides": {"length": "tonpuu"}},
    {"preset": "mleague", "overrides": {"length": "tonpuu", "tenpai_yame": "optional"}},
]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    rules=st.sampled_from(_PRESETS),
    hands=st.lists(st.one_of(_simple_hands(), st.just(draw(3)), st.just(draw(0, 3))), min_size=1, max_size=9),
)
def test_the_end_is_allowed_exactly_where_the_game_may_end(
    client: TestClient, rules: dict[str, Any], hands: list[dict[str, Any]]
) -> None:
    """After every hand of a generated game, ending it is accepted exactly where the sheet says
    ``may_end`` (the rules let it end or go on), with the ranking the sheet showed; elsewhere it is
    422 with the error object and changes nothing."""
    game = new_game(client, rules=rules)
    least = rules_from_request(rules).riichi_min_points
    for hand in [*ALL_LAST_TENPAI[:1], *hands]:
        r = client.post(f"/api/games/{game['id']}/hands", json={"version": game["version"], "hand": hand})
        if r.status_code != 200:
            # the game has ended, or a riichi is refused: a player below the points riichi needs (the
            # game goes on below zero under rules without tobi)
            if not game["ended"]:
                (seat,) = hand["riichi"]
                assert game["next"]["scores"][seat] < least
                assert "riichi" in assert_error(r, 422, "request")["message"]
            break
        game = r.json()
        tried = end(client, game)
        event("may end" if game["may_end"] else "goes on")
        if game["may_end"]:
            assert tried.status_code == 200, tried.text
            ended = tried.json()
            assert (
                ended["ended"]
                and ended["final"] == game["final"]
                and ended["end"] == {"after": len(game["hands"]) - 1}
            )
            return
        assert_error(tried, 422, "illegal_event")
        assert client.get(f"/api/games/{game['id']}").json() == game


def test_the_end_survives_a_restart(db: Path) -> None:
    first = app_on(db)
    game = end(first, enter(first, ALL_LAST_TENPAI)).json()
    del first
    again = app_on(db)
    assert again.get(f"/api/games/{game['id']}").json() == game
    assert again.get("/api/games").json()["games"][0]["summary"]["ended"] is True
    with sqlite3.connect(db) as con:  # kept as entered: the hand it was entered after
        assert con.execute("SELECT game, after FROM ends").fetchall() == [(game["id"], 3)]


def test_a_database_of_the_first_schema_opens_and_keeps_ends(db: Path) -> None:
    """A database made before the end of a game could be entered (no ``ends`` table) opens, and
    its games can be ended."""
    first = app_on(db)
    game = enter(first, ALL_LAST_TENPAI)
    del first
    with sqlite3.connect(db) as con:
        con.execute("DROP TABLE ends")
    again = app_on(db)
    assert again.get(f"/api/games/{game['id']}").json() == game
    assert end(again, game).json()["end"] == {"after": 3}


def test_edits_and_undo_keep_move_or_remove_the_end(client: TestClient) -> None:
    game = end(client, enter(client, ALL_LAST_TENPAI)).json()
    gid = game["id"]

    def put(g: dict[str, Any], i: int, hand: dict[str, Any]) -> dict[str, Any]:
        r = client.put(f"/api/games/{gid}/hands/{i}", json={"version": g["version"], "hand": hand})
        assert r.status_code == 200, r.text
        return dict(r.json())

    def delete(g: dict[str, Any], i: int) -> dict[str, Any]:
        r = client.delete(f"/api/games/{gid}/hands/{i}?version={g['version']}")
        assert r.status_code == 200, r.text
        return dict(r.json())

    # an edit after which the game may still end there keeps the end (seat 0 tenpai too)
    kept = put(game, 3, draw(0, 3))
    assert kept["end"] == {"after": 3} and kept["ended"] and "end_removed" not in kept
    assert kept["final"]["points"] == [18500, 19500, 19500, 42500]
    # a hand inserted before it moves it; removed again, it moves back
    abort = {"request": {"draw": {"kind": "abortive", "reason": "suufon_renda"}}, "riichi": []}
    moved = add(client, kept, abort, at=1)
    assert moved["end"] == {"after": 4} and moved["ended"] and moved["hands"][4]["honba"] == 3
    back = delete(moved, 1)
    assert back["end"] == {"after": 3} and _sheet(back) == _sheet(kept)
    # an edit after which the rules go on there removes the end, and says why: the dealer (seat 0)
    # wins East 1 and keeps the deal, so hands[3] is East 3 now, not the last hand
    gone = put(back, 0, tsumo(0))
    assert gone["end"] is None and not gone["ended"] and gone["next"] is not None
    assert gone["end_removed"]["after"] == 3
    assert gone["end_removed"]["reason"].startswith(
        "the game cannot end after hands[3] (East 3): the rules go on"
    )
    assert client.get(f"/api/games/{gid}").json() == {k: v for k, v in gone.items() if k != "end_removed"}
    # an edit after which the rules end the game there: the end is removed, the game is over anyway
    game = end(client, put(gone, 0, tsumo(3))).json()
    assert game["end"] == {"after": 3}
    by_rules = put(game, 3, draw())
    assert by_rules["end"] is None and by_rules["ended"] and by_rules["ending"] == "last_hand"
    assert (
        by_rules["end_removed"]["reason"]
        == "the game already ended after hands[3] (East 4) by the rules (last_hand)"
    )
    # undo of the hand it was entered after removes it: the game goes on after hands[2]
    game = end(client, put(by_rules, 3, draw(3))).json()
    undone = delete(game, 3)
    assert undone["end"] is None and not undone["ended"] and len(undone["hands"]) == 3
    assert undone["end_removed"] == {
        "after": 3,
        "reason": "hands[3], the hand it was entered after, was removed",
    }
    # a refused edit (a later hand cannot follow) leaves the end where it was
    game = end(client, add(client, undone, draw(3))).json()
    bust = {"request": {"wins": [{**DAISANGEN_WIN, "from": 3}]}, "riichi": []}
    r = client.put(f"/api/games/{gid}/hands/0", json={"version": game["version"], "hand": bust})
    assert assert_error(r, 422)["message"].startswith("hands[1]: the game ended with hands[0] (tobi)")
    assert client.get(f"/api/games/{gid}").json() == game


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_an_edit_of_an_ended_game_is_the_game_entered_again_and_ended_where_it_may(
    client: TestClient, data: st.DataObject
) -> None:
    """A generated edit, removal or insertion in a game the players ended: the answer is the sheet
    of a new game entered with the change and ended after the same hand if it may end there
    (else it goes on, or the change is refused naming the hand that cannot follow)."""
    game = end(client, enter(client, ALL_LAST_TENPAI)).json()
    entered = list(ALL_LAST_TENPAI)
    k = data.draw(st.integers(0, len(entered) - 1), label="hand")
    change = data.draw(st.one_of(_simple_hands(), st.just(draw(3))), label="change")
    how = data.draw(st.sampled_from(["put", "delete", "insert"]), label="how")
    end_at: int | None = 3
    if how == "put":
        r = client.put(
            f"/api/games/{game['id']}/hands/{k}", json={"version": game["version"], "hand": change}
        )
        changed = [*entered[:k], change, *entered[k + 1 :]]
    elif how == "delete":
        r = client.delete(f"/api/games/{game['id']}/hands/{k}?version={game['version']}")
        changed = [*entered[:k], *entered[k + 1 :]]
        end_at = None if k == 3 else 2
    else:
        r = client.post(
            f"/api/games/{game['id']}/hands", json={"version": game["version"], "hand": change, "at": k}
        )
        changed = [*entered[:k], change, *entered[k:]]
        end_at = 4
    again, refused = enter_until_refused(client, changed)
    if refused is not None:
        event("refused")
        assert assert_error(r, 422)["message"].startswith(f"hands[{refused}]")
        assert client.get(f"/api/games/{game['id']}").json() == game
        return
    assert r.status_code == 200, r.text
    got = r.json()
    event("end kept" if got["end"] else "end removed")
    if end_at is not None and again["may_end"] and len(again["hands"]) == end_at + 1:
        again = end(client, again).json()
        assert "end_removed" not in got
    else:
        assert got["end"] is None and got["end_removed"]["after"] == 3
    assert _sheet({k: v for k, v in got.items() if k != "end_removed"}) == _sheet(again)


def test_the_end_is_exported_and_imported_checked(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = end(client, enter(client, ALL_LAST_TENPAI)).json()
    gid = game["id"]
    exported = client.get(f"/api/games/{gid}/export.json").json()
    assert exported["end"] == {"after": 3}
    assert exported["sheet"]["ended"] is True and exported["sheet"]["final"] == ENDED_FINAL
    r = client.post("/api/games/import", json=exported)
    assert r.status_code == 201, r.text
    imported = r.json()
    assert _sheet(imported) == _sheet(game) and imported["id"] != gid
    # taken back after the import, it goes on: the end was kept as the fact entered
    assert client.delete(f"/api/games/{imported['id']}/end?version=1").json()["may_end"] is True
    # an export without its end, or with an end where the rules go on, or none of its hands: refused
    count = len(client.get("/api/games").json()["games"])
    without = {k: v for k, v in exported.items() if k != "end"}
    assert "sheet.ended" in assert_error(client.post("/api/games/import", json=without), 422)["message"]
    early = {**exported, "end": {"after": 1}}
    message = assert_error(client.post("/api/games/import", json=early), 422, "illegal_event")["message"]
    assert message.startswith("end: the game cannot end after hands[1] (East 2)"), message
    for bad in ({"after": 4}, {"after": "3"}, {"after": 3, "by": "Ai"}, 3, True):
        assert_error(client.post("/api/games/import", json={**exported, "end": bad}), 422, "request")
    # without the sheet's numbers the import still checks the end against the rules
    assert (
        client.post("/api/games/import", json={k: v for k, v in early.items() if k != "sheet"}).status_code
        == 422
    )
    assert len(client.get("/api/games").json()["games"]) == count
    # the end of an export that did not end: an end where the rules let it is accepted
    open_game = enter(client, ALL_LAST_TENPAI)
    plain = client.get(f"/api/games/{open_game['id']}/export.json").json()
    assert "end" not in plain
    plain = {k: v for k, v in plain.items() if k != "sheet"}
    assert (
        client.post("/api/games/import", json={**plain, "end": {"after": 3}}).json()["final"] == ENDED_FINAL
    )
    # CSV: the final row says why the game ended and that the players ended it, with uma and oka
    rows = list(csv.reader(io.StringIO(client.get(f"/api/games/{gid}/export.csv").text)))
    assert rows[-1][0] == "final" and rows[-1][6] == "tenpai_yame (ended by the players)"
    assert [float(x) for x in rows[-1][-4:]] == ENDED_FINAL["final_scores"]
    # JSON Lines stays settle requests only: `tenbou settle --json` settles every hand again
    path = tmp_path / "game.jsonl"
    path.write_bytes(client.get(f"/api/games/{gid}/export.jsonl").content)
    assert cli.main(["settle", str(path), "--json"]) == 0
    results = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [x["deltas"] for x in results] == [h["deltas"] for h in game["hands"]]
