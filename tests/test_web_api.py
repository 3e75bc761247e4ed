"""The web API with FastAPI's test client: the JSON contract of docs/json-api.md over HTTP,
errors as 422 with the error object, the OpenAPI document, the rules catalogue, the page."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install 'tenbou[web]')")
pytest.importorskip("httpx", reason="FastAPI's test client needs httpx")

with warnings.catch_warnings():  # newer Starlette warns that its test client still uses httpx
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from tenbou import cli
from tenbou.api import loads_request, score, settle
from tenbou.core.yaku import YAKU_BY_ID
from tenbou.errors import TenbouError
from tenbou.rules import OPTION_SPECS, get_preset, preset_ids
from tenbou.web import app as web_app
from tenbou.web import create_app, tile_pictures
from tenbou.web import guard as web_guard
from tenbou.web import routes as web_routes
from tenbou.web.app import MAX_BODY, BodyGuard

from .requestgen import bad_bodies, bad_score_requests, bad_settle_requests

JSON_TYPE = {"content-type": "application/json"}
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

DAISANGEN: dict[str, Any] = {
    "rules": "tenhou",
    "dealer": 0,
    "round_wind": "E",
    "winner": 1,
    "hand": "23m55p",
    "win_tile": "4m",
    "melds": [
        {"type": "pon", "tiles": "555z", "from": 2},
        {"type": "pon", "tiles": "666z", "from": 0},
        {"type": "pon", "tiles": "777z", "from": 3},
    ],
}


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(), base_url="http://localhost", raise_server_exceptions=False)


def assert_secure(response: Any) -> None:
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["content-security-policy"].startswith("default-src 'self'")


def assert_error(response: Any, status: int = 422, code: str | None = None) -> dict[str, str]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    assert_secure(response)
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}, body
    assert isinstance(body["error"]["code"], str) and body["error"]["message"]
    if code is not None:
        assert body["error"]["code"] == code, body
    return dict(body["error"])


# -- score and settle: the same objects as tenbou.api -------------------------------------------------


def test_score_daisangen_tsumo_liable_pays_all(client: TestClient) -> None:
    r = client.post("/api/score", json=DAISANGEN)
    assert r.status_code == 200
    body = r.json()
    assert body == score(DAISANGEN)
    assert body["payments"] == [{"from": 3, "to": 1, "points": 32000, "kind": "pao"}]
    assert body["pao"] == [{"yaku": "daisangen", "seat": 3, "rule": "pao_yaku", "meld": 2}]
    assert body["deltas"] == [0, 32000, 0, -32000]


def test_score_daisangen_ron_half_each(client: TestClient) -> None:
    req = {**DAISANGEN, "from": 2}
    body = client.post("/api/score", json=req).json()
    assert body == score(req)
    assert [(p["from"], p["points"], p["kind"]) for p in body["payments"]] == [
        (3, 16000, "pao"),
        (2, 16000, "hand"),
    ]
    assert body["deltas"] == [0, 32000, -16000, -16000]


def test_score_keeps_japanese_names(client: TestClient) -> None:
    r = client.post("/api/score", json=DAISANGEN)
    assert "大三元".encode() in r.content  # not \\u escapes
    assert r.json()["yaku"][0]["name_ja"] == "大三元"


def test_settle_matches_the_api(client: TestClient) -> None:
    pinfu = {"winner": 3, "from": 2, "hand": "123m456p789s23s55s", "win_tile": "4s", "riichi": True}
    win = {k: v for k, v in DAISANGEN.items() if k not in ("rules", "dealer", "round_wind")}
    req = {
        "rules": "tenhou",
        "dealer": 0,
        "honba": 1,
        "riichi_sticks": 1,
        "wins": [{**win, "from": 2}, pinfu],
    }
    body = client.post("/api/settle", json=req).json()
    assert body == settle(req)
    assert body["deltas"] == [0, 32000, -18300, -12700]
    assert body["next"] == {"dealer": 1, "honba": 0, "riichi_sticks": 0}


def test_settle_draw(client: TestClient) -> None:
    req = {"rules": "tenhou", "dealer": 0, "honba": 1, "draw": {"kind": "exhaustive", "tenpai": [0, 2]}}
    body = client.post("/api/settle", json=req).json()
    assert body["deltas"] == [1500, -1500, 1500, -1500]
    assert body["next"] == {"dealer": 0, "honba": 2, "riichi_sticks": 0}


# -- bad input: 422 with the error object -------------------------------------------------------------

BAD_SCORE = [
    pytest.param({"winner": 0, "hand": "1238z", "win_tile": "1m"}, "notation", id="bad-tile"),
    pytest.param({**DAISANGEN, "colour": "red"}, "request", id="unknown-field"),
    pytest.param({k: v for k, v in DAISANGEN.items() if k != "hand"}, "request", id="missing-hand"),
    pytest.param({**DAISANGEN, "winner": "one"}, "request", id="ill-typed"),
    pytest.param({**DAISANGEN, "rules": "tenhuo"}, "rule", id="unknown-preset"),
    pytest.param({**DAISANGEN, "hand": "23m56p"}, None, id="not-winning"),
    pytest.param({**DAISANGEN, "winner": 0}, None, id="call-from-own-seat"),
    pytest.param({**DAISANGEN, "ippatsu": True}, None, id="ippatsu-without-riichi"),
]


@pytest.mark.parametrize(("request_body", "code"), BAD_SCORE)
def test_bad_score_request_is_422_with_the_api_error(
    client: TestClient, request_body: dict[str, Any], code: str | None
) -> None:
    with pytest.raises(TenbouError) as raised:
        score(request_body)
    error = assert_error(client.post("/api/score", json=request_body), code=code)
    assert {"error": error} == raised.value.to_dict()


def test_bad_settle_request_is_422(client: TestClient) -> None:
    req = {"rules": "tenhou", "wins": [{**DAISANGEN, "rules": "tenhou"}], "draw": {"kind": "exhaustive"}}
    error = assert_error(client.post("/api/settle", json=req), code="request")
    assert "exactly one" in error["message"]
    error = assert_error(
        client.post("/api/settle", json={"wins": [{"winner": 0, "hand": "1238z", "win_tile": "1m"}]})
    )
    assert error["message"].startswith("wins[0]")


@pytest.mark.parametrize(
    ("content", "words"),
    [
        pytest.param("{bad json", "not valid JSON", id="not-json"),
        pytest.param("[1, 2]", "must be a JSON object", id="array"),
        pytest.param('"23m55p"', "must be a JSON object", id="string"),
        pytest.param("", "missing", id="empty"),
        pytest.param(b'{"winner": 1, "hand": "23m\xff"}', "not UTF-8", id="not-utf8"),
        pytest.param('{"riichi": true, "riichi": false}', "the key 'riichi' is given twice", id="key-twice"),
        pytest.param('{"honba": ' + "1" * 5000 + "}", "an integer of 5000 digits", id="5000-digits"),
        pytest.param("[" * 30_000 + "]" * 30_000, "more than 20 deep", id="nested-30000"),
        pytest.param('{"honba": NaN}', "NaN is not JSON", id="nan"),
        pytest.param('{"hand": "\\ud800"}', "not Unicode text", id="lone-surrogate"),
    ],
)
@pytest.mark.parametrize("path", ["/api/score", "/api/settle"])
def test_unreadable_body_is_422_with_the_error_object(
    client: TestClient, path: str, content: str, words: str
) -> None:
    r = client.post(path, content=content, headers={"content-type": "application/json"})
    assert words in assert_error(r, code="request")["message"]


def test_a_body_that_is_not_json_by_its_type_is_415(client: TestClient) -> None:
    r = client.post("/api/score", content=json.dumps(DAISANGEN), headers={"content-type": "text/plain"})
    assert "must be JSON" in assert_error(r, status=415, code="request")["message"]
    for media in ("application/json; charset=utf-8", "application/problem+json"):
        assert client.post(
            "/api/score", content=json.dumps(DAISANGEN), headers={"content-type": media}
        ).is_success
    r = client.post("/api/score", content=json.dumps(DAISANGEN).encode(), headers={"content-type": ""})
    assert r.status_code == 415
    # no Content-Type at all: refused too (a foreign page's no-cors fetch or sendBeacon sends
    # exactly that, with no preflight)
    no_type = client.build_request("POST", "/api/score", content=json.dumps(DAISANGEN))
    assert "content-type" not in no_type.headers
    assert "not none" in assert_error(client.send(no_type), status=415, code="request")["message"]


def test_a_body_over_the_limit_is_413(monkeypatch: pytest.MonkeyPatch) -> None:
    # (the test client waits for the answer before it says the body is over: no lingering here)
    monkeypatch.setattr(web_guard, "_LINGER_SECONDS", 0.05)
    small = TestClient(create_app(max_body=1000), base_url="http://localhost", raise_server_exceptions=False)
    body = json.dumps({**DAISANGEN, "ura_indicators": []}).encode()
    assert small.post("/api/score", headers=JSON_TYPE, content=body).status_code == 200
    padded = body[:-1] + b" " * (1001 - len(body)) + b"}"
    error = assert_error(
        small.post("/api/score", headers=JSON_TYPE, content=padded), status=413, code="request"
    )
    assert error["message"] == "the request body is larger than 1000 bytes"
    # chunked (no Content-Length)
    assert_error(
        small.post("/api/score", headers=JSON_TYPE, content=iter([b" " * 400] * 3)),
        status=413,
        code="request",
    )
    # the default limit
    assert_error(
        TestClient(create_app(), base_url="http://localhost").post(
            "/api/score", headers=JSON_TYPE, content=b" " * (MAX_BODY + 1)
        ),
        status=413,
    )


def _run_guard(guard: BodyGuard, messages: list[dict[str, Any]], *, stall: bool) -> list[dict[str, Any]]:
    """Run the guard on one request whose body arrives as ``messages`` (then nothing, if ``stall``)."""
    sent: list[dict[str, Any]] = []

    async def go() -> None:
        queue = list(messages)

        async def receive() -> dict[str, Any]:
            if queue:
                return queue.pop(0)
            if stall:
                await asyncio.sleep(3600)
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        scope = {"type": "http", "method": "POST", "path": "/api/score", "headers": []}
        await asyncio.wait_for(guard(scope, receive, send), 10)

    asyncio.run(go())
    return sent


def test_a_body_that_does_not_arrive_in_time_is_408() -> None:
    async def app(scope: Any, receive: Any, send: Any) -> None:  # pragma: no cover - never reached
        raise AssertionError("the app must not see a request whose body did not arrive")

    guard = BodyGuard(app, body_timeout=0.2)
    sent = _run_guard(guard, [{"type": "http.request", "body": b'{"win', "more_body": True}], stall=True)
    assert sent[0]["status"] == 408 and (b"connection", b"close") in sent[0]["headers"]
    assert (b"x-content-type-options", b"nosniff") in sent[0]["headers"]
    error = json.loads(b"".join(m.get("body", b"") for m in sent[1:]))
    assert error == {"error": {"code": "request", "message": "the request body did not arrive within 0.2 s"}}
    # a client that goes away: nothing is answered, the app is not called
    assert _run_guard(guard, [{"type": "http.request", "body": b"{", "more_body": True}], stall=False) == []


def test_a_body_over_the_limit_is_never_held(monkeypatch: pytest.MonkeyPatch) -> None:
    async def app(scope: Any, receive: Any, send: Any) -> None:  # pragma: no cover - never reached
        raise AssertionError("the app must not see a request over the limit")

    monkeypatch.setattr(web_guard, "_LINGER_BYTES", 10_000)
    pieces = [{"type": "http.request", "body": b" " * 400, "more_body": True} for _ in range(1000)]
    sent = _run_guard(BodyGuard(app, max_body=1000), pieces, stall=False)
    assert sent[0]["status"] == 413
    # the answer is sent at once; then at most _LINGER_BYTES more are read (and dropped) before it
    # ends, so that a client still sending reads the answer instead of a reset
    assert sent[1]["more_body"] is True and sent[-1] == {"type": "http.response.body", "body": b""}
    assert json.loads(sent[1]["body"])["error"]["code"] == "request"


def test_the_guard_hands_the_whole_body_to_the_app_once() -> None:
    seen: list[Any] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen.append(await receive())
        seen.append(await receive())
        await send(
            {"type": "http.response.start", "status": 200, "headers": [(b"x-content-type-options", b"x")]}
        )
        await send({"type": "http.response.body", "body": b"ok"})

    pieces = [{"type": "http.request", "body": b, "more_body": b != b"}"} for b in (b"{", b'"a": 1', b"}")]
    sent = _run_guard(BodyGuard(app), pieces, stall=False)
    assert seen == [
        {"type": "http.request", "body": b'{"a": 1}', "more_body": False},
        {"type": "http.disconnect"},
    ]
    headers = sent[0]["headers"]
    assert [v for k, v in headers if k == b"x-content-type-options"] == [b"x"]  # the app's own is kept
    assert any(k == b"content-security-policy" for k, _ in headers)


def test_every_response_carries_nosniff_and_the_csp(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    responses = [
        client.get("/"),
        client.get("/static/app.js"),
        client.get("/api/rules"),
        client.get("/api/rules/tenhou"),
        client.post("/api/score", json=DAISANGEN),
        client.get("/nothing"),
        client.get("/api/score"),
        client.post("/api/score", json={"hand": 1}),
        client.post("/api/score", headers=JSON_TYPE, content=b" " * (MAX_BODY + 1)),
        client.post("/api/score", content=b"{}", headers={"content-type": "text/plain"}),
        client.get("/api/rules/nothing"),
    ]
    assert sorted({r.status_code for r in responses}) == [200, 404, 405, 413, 415, 422]
    for r in responses:
        assert_secure(r)

    def broken(request: object) -> dict[str, Any]:
        raise RuntimeError("boom")

    monkeypatch.setattr(web_routes, "score", broken)
    assert_secure(client.post("/api/score", json=DAISANGEN))


# -- generated bad requests: 422 with the error object, never 500 -----------------------------------

WEB = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
WEB_SLOW = settings(max_examples=2500, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _same_as_the_api(client: TestClient, path: str, request: dict[str, Any]) -> None:
    handler = score if path == "/api/score" else settle
    r = client.post(path, headers=JSON_TYPE, content=json.dumps(request, allow_nan=True).encode())
    assert_secure(r)
    try:
        expected = handler(loads_request(json.dumps(request, allow_nan=True)))
    except TenbouError as e:
        assert {"error": assert_error(r)} == e.to_dict()
    else:
        assert r.status_code == 200 and r.json() == expected


def _a_body(client: TestClient, path: str, body: bytes) -> None:
    r = client.post(path, content=body, headers={"content-type": "application/json"})
    assert r.status_code != 500, r.text
    assert_secure(r)
    if r.status_code != 200:
        assert_error(r, status=r.status_code)
        assert r.status_code == (413 if len(body) > MAX_BODY else 422)


@WEB
@given(bad_score_requests())
def test_generated_score_requests_answer_as_the_api(client: TestClient, request_body: dict[str, Any]) -> None:
    _same_as_the_api(client, "/api/score", request_body)


@WEB
@given(bad_settle_requests())
def test_generated_settle_requests_answer_as_the_api(
    client: TestClient, request_body: dict[str, Any]
) -> None:
    _same_as_the_api(client, "/api/settle", request_body)


@WEB
@given(bad_bodies())
def test_generated_bodies_are_422_never_500(client: TestClient, body: bytes) -> None:
    _a_body(client, "/api/score", body)
    _a_body(client, "/api/settle", body)


@pytest.mark.slow
@WEB_SLOW
@given(bad_score_requests(), bad_settle_requests(), bad_bodies())
def test_generated_requests_and_bodies_long(
    client: TestClient, score_body: dict[str, Any], settle_body: dict[str, Any], body: bytes
) -> None:
    _same_as_the_api(client, "/api/score", score_body)
    _same_as_the_api(client, "/api/settle", settle_body)
    _a_body(client, "/api/score", body)


def test_unknown_path_and_method_keep_the_error_shape(client: TestClient) -> None:
    assert_error(client.get("/api/nothing"), status=404, code="not_found")
    assert_error(client.get("/api/score"), status=405, code="method_not_allowed")


def test_a_bug_is_500_with_the_error_object(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(request: object) -> dict[str, Any]:
        raise RuntimeError("boom")

    monkeypatch.setattr(web_routes, "score", broken)
    error = assert_error(client.post("/api/score", json=DAISANGEN), status=500, code="internal")
    assert "boom" not in error["message"]  # no internals leak out


# -- rules ----------------------------------------------------------------------------------------------


def test_rules_lists_every_preset_with_sources(client: TestClient) -> None:
    r = client.get("/api/rules")
    assert r.status_code == 200
    body = r.json()
    assert [p["id"] for p in body["presets"]] == preset_ids()
    assert body["default"] == "tenhou"
    assert set(body["options"]) == set(OPTION_SPECS)
    for p in body["presets"]:
        assert p == json.loads(json.dumps(get_preset(p["id"]).to_dict()))
        assert set(p["options"]) == set(OPTION_SPECS)
        for entry in p["options"].values():
            assert "value" in entry and entry["source"]
    assert body["options"]["pao_honba"]["choices"] == ["liable", "discarder", "split", "normal", "rest"]
    assert body["options"]["honba_unit"]["range"] == [0, 10_000] and "range" not in body["options"]["kiriage"]
    assert body["options"]["uma"]["range"] == [-1000, 1000]
    # the names of every yaku (the page shows an option's yaku by name), as a result gives them
    assert set(body["yaku"]) == set(YAKU_BY_ID)
    assert body["yaku"]["daisangen"] == {"name": "Daisangen", "name_ja": "大三元"}
    assert all(body["yaku"][k]["name_ja"] == y.name_ja for k, y in YAKU_BY_ID.items())


def test_one_preset_by_id_or_alias(client: TestClient) -> None:
    assert client.get("/api/rules/tenhou").json()["id"] == "tenhou"
    assert client.get("/api/rules/tenhou.net").json()["id"] == "tenhou"
    assert "did you mean 'tenhou'" in assert_error(client.get("/api/rules/tenhuo"), code="rule")["message"]


# -- OpenAPI ------------------------------------------------------------------------------------------


def test_openapi_document(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    assert doc["openapi"].startswith("3.")
    assert doc["info"]["title"] == "tenbou"
    paths = doc["paths"]
    assert {"/api/score", "/api/settle", "/api/rules", "/api/rules/{preset}"} <= set(paths)
    for path in ("/api/score", "/api/settle"):
        op = paths[path]["post"]
        body = op["requestBody"]["content"]["application/json"]
        assert body["schema"]["type"] == "object"
        error = op["responses"]["422"]["content"]["application/json"]["schema"]
        assert error["properties"]["error"]["required"] == ["code", "message"]
        # every documented example is a request the API accepts
        for example in body["examples"].values():
            assert client.post(path, json=example["value"]).status_code == 200, example["summary"]
    assert "get" in paths["/api/rules"]
    assert "/" not in paths and "/static/{name}" not in paths


# -- the page -----------------------------------------------------------------------------------------


def test_page_is_self_contained(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in r.headers["content-security-policy"]
    html = r.text
    found = re.search(r'<script id="tile-svgs" type="application/json">(.*?)</script>', html, re.S)
    assert found
    pictures = json.loads(found.group(1))
    assert pictures == tile_pictures() and len(pictures) == 38
    texts = [html]
    for src in re.findall(r'(?:src|href)="([^"]+)"', html):
        assert not src.startswith(("http:", "https:", "//")), src
        if src.startswith("/static/"):
            asset = client.get(src)
            assert asset.status_code == 200
            texts.append(asset.text)
    assert len(texts) == 4  # the page, its scripts (the app and its words) and its style
    for text in texts:
        # the only absolute URL is the SVG namespace, which is never fetched
        urls = set(re.findall(r"https?://[^\s\"'<>)\\]+", text)) - {"http://www.w3.org/2000/svg"}
        assert not urls, urls
        assert "@import" not in text and "@font-face" not in text


def test_static_files_are_only_the_page_assets(client: TestClient) -> None:
    assert client.get("/static/app.js").headers["content-type"].startswith("text/javascript")
    assert client.get("/static/i18n.js").headers["content-type"].startswith("text/javascript")
    assert client.get("/static/style.css").headers["content-type"].startswith("text/css")
    assert_error(client.get("/static/index.html"), status=404)
    assert_error(client.get("/static/..%2Fapp.py"), status=404)


# -- the command ----------------------------------------------------------------------------------------


def test_cli_does_not_import_fastapi() -> None:
    code = (
        "import sys\n"
        "from tenbou.cli import main\n"
        "import tenbou.web\n"
        "main(['rules', 'list', '--json'])\n"
        "print([m for m in ('fastapi', 'uvicorn', 'starlette') if m in sys.modules])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "[]"


def test_serve_without_the_extra_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    assert cli.main(["serve", "--port", "1"]) == 2
    assert "pip install 'tenbou[web]'" in capsys.readouterr().err


def _fake_server(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """uvicorn's server, replaced: what it would have run with (its config, the sockets)."""
    import uvicorn

    seen: dict[str, Any] = {}

    def fake_run(self: uvicorn.Server, sockets: list[Any] | None = None) -> None:
        seen.update(config=self.config, address=sockets[0].getsockname() if sockets else None)

    monkeypatch.setattr(uvicorn.Server, "run", fake_run)
    return seen


def test_serve_runs_uvicorn(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    seen = _fake_server(monkeypatch)
    db = str(tmp_path / "g.sqlite3")
    monkeypatch.delenv("TENBOU_PASSWORD", raising=False)
    # beyond loopback without a password: refused before anything listens
    assert cli.main(["serve", "--host", "0.0.0.0", "--port", "0", "--db", db]) == 2
    err = capsys.readouterr().err
    assert (
        err.startswith("tenbou: error: --host 0.0.0.0 is reachable from other machines")
        and "TENBOU_PASSWORD" in err
    )
    assert err.count("\n") == 1 and not seen
    monkeypatch.setenv("TENBOU_PASSWORD", "correct horse")
    assert cli.main(["serve", "--host", "0.0.0.0", "--port", "0", "--db", db]) == 0
    assert seen["address"][0] == "0.0.0.0" and seen["address"][1] > 0
    app = seen["config"].app
    assert type(app).__name__ == "FastAPI"
    assert app.state.access.password == "correct horse" and not app.state.access.open
    assert "every request needs the operator's password" in capsys.readouterr().err


def test_serve_runs_uvicorn_with_the_limits(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from uvicorn.protocols.http.h11_impl import H11Protocol

    seen = _fake_server(monkeypatch)
    web_app.serve("127.0.0.1", 0, log_level="warning", head_timeout=3, db_path=tmp_path / "g.sqlite3")
    config = seen["config"]
    assert seen["address"][0] == "127.0.0.1" and config.log_level == "warning"
    assert issubclass(config.http, H11Protocol) and config.timeout_keep_alive == 5
    assert config.limit_concurrency == 1000 and config.h11_max_incomplete_event_size == 16 * 1024
    assert type(config.app).__name__ == "FastAPI" and config.app.state.access.open
