"""The web API with FastAPI's test client: the JSON contract of docs/json-api.md over HTTP,
errors as 422 with the error object, the OpenAPI document, the rules catalogue, the page."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import warnings
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install 'tenbou[web]')")
pytest.importorskip("httpx", reason="FastAPI's test client needs httpx")

with warnings.catch_warnings():  # newer Starlette warns that its test client still uses httpx
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from tenbou import cli
from tenbou.api import score, settle
from tenbou.errors import TenbouError
from tenbou.rules import OPTION_SPECS, get_preset, preset_ids
from tenbou.web import app as web_app
from tenbou.web import create_app, tile_pictures

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
    return TestClient(create_app(), raise_server_exceptions=False)


def assert_error(response: Any, status: int = 422, code: str | None = None) -> dict[str, str]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
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
    ],
)
@pytest.mark.parametrize("path", ["/api/score", "/api/settle"])
def test_unreadable_body_is_422_with_the_error_object(
    client: TestClient, path: str, content: str, words: str
) -> None:
    r = client.post(path, content=content, headers={"content-type": "application/json"})
    assert words in assert_error(r, code="request")["message"]


def test_unknown_path_and_method_keep_the_error_shape(client: TestClient) -> None:
    assert_error(client.get("/api/nothing"), status=404, code="not_found")
    assert_error(client.get("/api/score"), status=405, code="method_not_allowed")


def test_a_bug_is_500_with_the_error_object(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(request: object) -> dict[str, Any]:
        raise RuntimeError("boom")

    monkeypatch.setattr(web_app, "score", broken)
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
    assert len(texts) == 3  # the page, its script and its style
    for text in texts:
        # the only absolute URL is the SVG namespace, which is never fetched
        urls = set(re.findall(r"https?://[^\s\"'<>)\\]+", text)) - {"http://www.w3.org/2000/svg"}
        assert not urls, urls
        assert "@import" not in text and "@font-face" not in text


def test_static_files_are_only_the_page_assets(client: TestClient) -> None:
    assert client.get("/static/app.js").headers["content-type"].startswith("text/javascript")
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


def test_serve_runs_uvicorn(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    seen: dict[str, Any] = {}

    def fake_run(app: object, **kwargs: Any) -> None:
        seen.update(kwargs, app=app)

    monkeypatch.setattr(uvicorn, "run", fake_run)
    assert cli.main(["serve", "--host", "0.0.0.0", "--port", "8123"]) == 0
    assert seen["host"] == "0.0.0.0" and seen["port"] == 8123
    assert type(seen["app"]).__name__ == "FastAPI"
