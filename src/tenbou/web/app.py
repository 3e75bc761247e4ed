"""The FastAPI application of ``tenbou serve``.

FastAPI is imported inside :func:`create_app` (it is the optional extra ``web``), so this
module imports without it. Every route is a thin door onto :mod:`tenbou.api`: request
bodies are plain JSON objects handed to :func:`~tenbou.api.score` and
:func:`~tenbou.api.settle` unchanged, and their results are returned unchanged.

Errors all have one shape, ``{"error": {"code": ..., "message": ...}}``: a
:class:`~tenbou.errors.TenbouError` and a body FastAPI cannot read (not JSON, not an
object) answer 422; an unknown path 404 (``not_found``), a wrong method 405; a bug 500
(``internal``).
"""

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Annotated, Any

from .. import __version__
from ..api import score, settle
from ..errors import TenbouError
from ..rules import get_preset
from .assets import page_html, rules_catalog, static_asset

if TYPE_CHECKING:
    from fastapi import FastAPI

__all__ = ["create_app", "validation_message"]

_DAISANGEN: dict[str, Any] = {
    "rules": "tenhou",
    "dealer": 0,
    "round_wind": "E",
    "winner": 1,
    "from": 2,
    "hand": "23m55p",
    "win_tile": "4m",
    "melds": [
        {"type": "pon", "tiles": "555z", "from": 2},
        {"type": "pon", "tiles": "666z", "from": 0},
        {"type": "pon", "tiles": "777z", "from": 3},
    ],
}
_SCORE_EXAMPLES: dict[str, Any] = {
    "daisangen_pao_ron": {
        "summary": "Daisangen with pao, ron by another player",
        "description": "Seat 3 gave the third dragon pon: seat 3 and the discarder (seat 2) pay half each.",
        "value": _DAISANGEN,
    },
    "riichi_pinfu": {
        "summary": "Riichi pinfu, ron",
        "value": {
            "rules": "tenhou",
            "dealer": 0,
            "winner": 1,
            "from": 0,
            "hand": "234m456678p5578s",
            "win_tile": "9s",
            "riichi": True,
            "dora_indicators": ["1p"],
        },
    },
}
_SETTLE_EXAMPLES: dict[str, Any] = {
    "daisangen_and_pinfu": {
        "summary": "A double ron, one of them with pao",
        "value": {
            "rules": "tenhou",
            "dealer": 0,
            "honba": 1,
            "riichi_sticks": 1,
            "wins": [
                {k: v for k, v in _DAISANGEN.items() if k not in ("rules", "dealer", "round_wind")},
                {
                    "winner": 3,
                    "from": 2,
                    "hand": "123m456p789s23s55s",
                    "win_tile": "4s",
                    "riichi": True,
                },
            ],
        },
    },
    "exhaustive_draw": {
        "summary": "An exhaustive draw, two players tenpai",
        "value": {"rules": "tenhou", "dealer": 0, "draw": {"kind": "exhaustive", "tenpai": [0, 2]}},
    },
}
_ERROR_SCHEMA = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message"],
            "properties": {
                "code": {"type": "string", "description": "stable, machine-readable (e.g. notation)"},
                "message": {"type": "string", "description": "for people; names the field or tile"},
            },
        }
    },
}
_ERROR_422: dict[int | str, dict[str, Any]] = {
    422: {
        "description": "Bad input: the error names the offending field or tile",
        "content": {
            "application/json": {
                "schema": _ERROR_SCHEMA,
                "example": {
                    "error": {
                        "code": "notation",
                        "message": "hand: '8z' is not a tile (honours are 1z-7z) in '1238z'",
                    }
                },
            }
        },
    }
}
_RESULT_SCHEMA = {"type": "object", "description": "the result object of docs/json-api.md"}
_HTTP_CODES = {404: "not_found", 405: "method_not_allowed"}
#: the page loads nothing from anywhere else
_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)


def validation_message(errors: object) -> str:
    """One sentence from FastAPI's validation errors of a request body.

    >>> validation_message([{"type": "dict_type", "loc": ("body",),
    ...                      "msg": "Input should be a valid dictionary"}])
    'the request body must be a JSON object (Input should be a valid dictionary)'
    >>> validation_message([{"type": "json_invalid", "loc": ("body", 12), "msg": "JSON decode error",
    ...                      "ctx": {"error": "Expecting value"}}])
    'the request body is not valid JSON: Expecting value at position 12'
    >>> validation_message([{"type": "missing", "loc": ("body",), "msg": "Field required"}])
    'the request body is missing (a JSON object is required)'
    """
    items = errors if isinstance(errors, list) else []
    parts = []
    for err in items:
        if not isinstance(err, Mapping):
            continue
        kind = err.get("type")
        loc = [str(x) for x in err.get("loc", ())]
        where = ".".join(loc[1:]) if loc[:1] == ["body"] else ".".join(loc)
        if kind == "json_invalid":
            ctx = err.get("ctx")
            detail = ctx.get("error") if isinstance(ctx, Mapping) else None
            at = f" at position {where}" if where else ""
            parts.append(f"the request body is not valid JSON: {detail or err.get('msg')}{at}")
        elif kind == "missing" and loc == ["body"]:
            parts.append("the request body is missing (a JSON object is required)")
        elif kind == "dict_type" and loc == ["body"]:
            parts.append(f"the request body must be a JSON object ({err.get('msg')})")
        else:
            parts.append(f"{where or 'request'}: {err.get('msg')}")
    return "; ".join(parts) or "the request could not be read"


def _error(status: int, code: str, message: str) -> Any:
    from fastapi.responses import JSONResponse

    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def create_app() -> "FastAPI":
    """The web calculator's application (needs the ``web`` extra: FastAPI and uvicorn)."""
    try:
        from fastapi import Body, FastAPI, Request
        from fastapi.exceptions import RequestValidationError
        from fastapi.responses import HTMLResponse, JSONResponse, Response
        from starlette.exceptions import HTTPException
    except ImportError as e:  # pragma: no cover - exercised only without the extra
        raise ImportError("the web calculator needs FastAPI and uvicorn: pip install 'tenbou[web]'") from e
    app = FastAPI(
        title="tenbou",
        version=__version__,
        summary="Riichi mahjong scoring and settlement, responsibility payment (pao) included",
        description=(
            "The JSON interface of docs/json-api.md over HTTP. Request bodies are the same objects "
            "as `tenbou.api.score` / `tenbou.api.settle` take; results are returned unchanged. "
            'Bad input answers 422 with `{"error": {"code", "message"}}`.'
        ),
        # the interactive docs pages load their scripts from a CDN; the page must work offline
        docs_url=None,
        redoc_url=None,
        openapi_url="/openapi.json",
    )

    async def on_validation(request: Request, exc: Exception) -> Response:
        errors = exc.errors() if isinstance(exc, RequestValidationError) else []
        return _error(422, "request", validation_message(list(errors)))  # type: ignore[no-any-return]

    async def on_http(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        detail = exc.detail if isinstance(exc, HTTPException) else "error"
        if status == 404:
            detail = f"no such page: {request.method} {request.url.path}"
        elif status == 405:
            detail = f"{request.method} is not allowed on {request.url.path}"
        response: Response = _error(status, _HTTP_CODES.get(status, "http_error"), str(detail))
        return response

    async def on_tenbou(request: Request, exc: Exception) -> Response:
        if not isinstance(exc, TenbouError):  # pragma: no cover - registered for TenbouError only
            raise exc
        return JSONResponse(exc.to_dict(), status_code=422)

    async def on_bug(request: Request, exc: Exception) -> Response:
        response: Response = _error(500, "internal", f"internal error: {type(exc).__name__}")
        return response

    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(HTTPException, on_http)
    app.add_exception_handler(TenbouError, on_tenbou)
    app.add_exception_handler(Exception, on_bug)

    def json_route(
        handler: Callable[[Mapping[str, Any]], dict[str, Any]], body: dict[str, Any]
    ) -> JSONResponse:
        return JSONResponse(handler(body))

    @app.post(
        "/api/score",
        tags=["api"],
        summary="Score and settle one winning hand",
        description="The request and result of `tenbou score --json` (docs/json-api.md, "
        "'A winning hand'): value, yaku, fu breakdown, limit, pao (with `rule` and `meld`), "
        "payments and per-seat deltas.",
        response_class=JSONResponse,
        responses={
            200: {
                "description": "The winning-hand result",
                "content": {"application/json": {"schema": _RESULT_SCHEMA}},
            },
            **_ERROR_422,
        },
    )
    def api_score(
        body: Annotated[dict[str, Any], Body(openapi_examples=_SCORE_EXAMPLES)],
    ) -> JSONResponse:
        return json_route(score, body)

    @app.post(
        "/api/settle",
        tags=["api"],
        summary="Settle the end of a hand: wins (pao, multiple ron) or a draw",
        description="The request and result of `tenbou settle --json` (docs/json-api.md, "
        "'End of a hand'): every win's result, every transfer, deltas and the next hand's "
        "dealer, honba and riichi sticks.",
        response_class=JSONResponse,
        responses={
            200: {
                "description": "The settlement",
                "content": {"application/json": {"schema": _RESULT_SCHEMA}},
            },
            **_ERROR_422,
        },
    )
    def api_settle(
        body: Annotated[dict[str, Any], Body(openapi_examples=_SETTLE_EXAMPLES)],
    ) -> JSONResponse:
        return json_route(settle, body)

    @app.get(
        "/api/rules",
        tags=["api"],
        summary="Every rules preset with its options and their sources",
        description="`presets`: each preset as `tenbou rules show ID --json` prints it (id, names, "
        "aliases, notes, and every option's `value`, `source` and `note`); `options`: each option's "
        "kind, meaning and choices; `default`: the preset used when a request names none.",
        response_class=JSONResponse,
    )
    def api_rules() -> JSONResponse:
        return JSONResponse(rules_catalog())

    @app.get(
        "/api/rules/{preset}",
        tags=["api"],
        summary="One preset by id or alias",
        response_class=JSONResponse,
        responses=_ERROR_422,
    )
    def api_rule(preset: str) -> JSONResponse:
        return JSONResponse(get_preset(preset).to_dict())

    @app.get("/", include_in_schema=False)
    def page() -> HTMLResponse:
        return HTMLResponse(page_html(), headers={"Content-Security-Policy": _CSP})

    @app.get("/static/{name}", include_in_schema=False)
    def static(name: str) -> Response:
        try:
            text, media_type = static_asset(name)
        except KeyError:
            raise HTTPException(404) from None
        return Response(text, media_type=media_type, headers={"Cache-Control": "no-cache"})

    return app
