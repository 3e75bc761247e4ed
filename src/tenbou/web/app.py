"""The FastAPI application of ``tenbou serve``: its routes (:func:`create_app`).

FastAPI is imported inside :func:`create_app` (it is the optional extra ``web``), so this
module imports without it. Every route is a thin door onto :mod:`tenbou.api` or the score
sheet's :class:`~tenbou.web.service.GameService`: request bodies are plain JSON objects handed
to :func:`~tenbou.api.score` and :func:`~tenbou.api.settle` unchanged, and their results are
returned unchanged.

The rest of the web layer lives beside it, a concern a module: :mod:`.guard` (the middleware in
front of every route: body limits and deadlines, security headers), :mod:`.responses` (the error
object and JSON bodies), :mod:`.openapi` (examples and schemas of ``/openapi.json``),
:mod:`.service` and :mod:`.store` (the score sheet's games), :mod:`.sheet` (a game replayed),
:mod:`.assets` (the page) and :mod:`.server` (uvicorn, :func:`serve`). Their public names are
importable from here as before.

Request bodies are read by :func:`tenbou.api.loads_request` (strict JSON: UTF-8, no key
twice, bounded integers and nesting), after the guard of :class:`BodyGuard` (a size limit and
a deadline for the body); every response carries ``X-Content-Type-Options: nosniff`` and the
page's Content-Security-Policy. :func:`serve` runs the app under uvicorn with a deadline for
each request's head and keep-alive, and a limit of concurrent connections.

Errors all have one shape, ``{"error": {"code": ..., "message": ...}}``: a
:class:`~tenbou.errors.TenbouError` and a body that cannot be read (not UTF-8, not JSON, a key
twice, too deep, not an object) answer 422; a body larger than the limit 413, one that does not
arrive in time 408, one that is not JSON by its Content-Type 415 (all ``request``); an unknown
path 404 (``not_found``), a wrong method 405; a bug 500 (``internal``).
"""

import json
import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .. import __version__
from ..api import loads_request, score, settle
from ..errors import TenbouError
from ..rules import get_preset
from . import sheet as sheets
from .assets import page_html, rules_catalog, static_asset
from .guard import BODY_TIMEOUT, MAX_BODY, BodyGuard, is_json
from .openapi import ERROR_422, REQUEST_SCHEMA, RESULT_SCHEMA, SCORE_EXAMPLES, SETTLE_EXAMPLES
from .responses import HTTP_CODES, error_response, json_response, validation_message
from .server import HEAD_TIMEOUT, serve, server_options
from .service import GameService
from .store import ConflictError, GameStore, NoSuchGameError, default_db_path

if TYPE_CHECKING:
    from fastapi import FastAPI

__all__ = [
    "BODY_TIMEOUT",
    "HEAD_TIMEOUT",
    "MAX_BODY",
    "BodyGuard",
    "create_app",
    "serve",
    "server_options",
    "validation_message",
]


def create_app(
    max_body: int = MAX_BODY,
    body_timeout: float = BODY_TIMEOUT,
    db_path: str | os.PathLike[str] | None = None,
) -> "FastAPI":
    """The web calculator's application (needs the ``web`` extra: FastAPI and uvicorn).
    ``max_body`` and ``body_timeout``: the limits of :class:`BodyGuard`; ``db_path``: the score
    sheet's SQLite database (:func:`~tenbou.web.store.default_db_path` when not given; created
    on the first use of the games API)."""
    try:
        from fastapi import FastAPI, Request
        from fastapi.exceptions import RequestValidationError
        from fastapi.responses import HTMLResponse, Response
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
            'Bad input answers 422 with `{"error": {"code", "message"}}`; a body over '
            f"{max_body} bytes 413, one that does not arrive within {body_timeout:g} s 408."
        ),
        # the interactive docs pages load their scripts from a CDN; the page must work offline
        docs_url=None,
        redoc_url=None,
        openapi_url="/openapi.json",
    )
    app.add_middleware(BodyGuard, max_body=max_body, body_timeout=body_timeout)

    async def on_validation(request: Request, exc: Exception) -> Response:
        errors = exc.errors() if isinstance(exc, RequestValidationError) else []
        return error_response(422, "request", validation_message(list(errors)))  # type: ignore[no-any-return]

    async def on_http(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        detail = exc.detail if isinstance(exc, HTTPException) else "error"
        code = HTTP_CODES.get(status, "http_error")
        if status == 404:
            detail = f"no such page: {request.method} {request.url.path}"
        elif status == 405:
            detail = f"{request.method} is not allowed on {request.url.path}"
        elif status == 415:
            code = "request"
        response: Response = error_response(status, code, str(detail))
        return response

    async def on_tenbou(request: Request, exc: Exception) -> Response:
        if not isinstance(exc, TenbouError):  # pragma: no cover - registered for TenbouError only
            raise exc
        status = 409 if isinstance(exc, ConflictError) else 404 if isinstance(exc, NoSuchGameError) else 422
        response: Response = error_response(status, exc.code, exc.message)
        return response

    async def on_bug(request: Request, exc: Exception) -> Response:
        response: Response = error_response(500, "internal", f"internal error: {type(exc).__name__}")
        return response

    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(HTTPException, on_http)
    app.add_exception_handler(TenbouError, on_tenbou)
    app.add_exception_handler(Exception, on_bug)

    async def json_route(
        handler: Callable[[Mapping[str, Any]], dict[str, Any]], request: Request
    ) -> Response:
        content_type = request.headers.get("content-type")
        if content_type is not None and not is_json(content_type):
            raise HTTPException(
                415,
                f"the request body must be JSON (Content-Type: application/json), not {content_type[:60]!r}",
            )
        body = await request.body()
        # scoring is CPU work of tens of microseconds on inputs bounded above: done in the event loop
        response: Response = json_response(handler(loads_request(body)))
        return response

    def body_doc(examples: dict[str, Any]) -> dict[str, Any]:
        content = {"application/json": {"schema": REQUEST_SCHEMA, "examples": examples}}
        return {"requestBody": {"required": True, "content": content}}

    @app.post(
        "/api/score",
        tags=["api"],
        summary="Score and settle one winning hand",
        description="The request and result of `tenbou score --json` (docs/json-api.md, "
        "'A winning hand'): value, yaku, fu breakdown, limit, pao (with `rule` and `meld`), "
        "payments and per-seat deltas.",
        response_class=Response,
        responses={
            200: {
                "description": "The winning-hand result",
                "content": {"application/json": {"schema": RESULT_SCHEMA}},
            },
            **ERROR_422,
        },
        openapi_extra=body_doc(SCORE_EXAMPLES),
    )
    async def api_score(request: Request) -> Response:
        return await json_route(score, request)

    @app.post(
        "/api/settle",
        tags=["api"],
        summary="Settle the end of a hand: wins (pao, multiple ron) or a draw",
        description="The request and result of `tenbou settle --json` (docs/json-api.md, "
        "'End of a hand'): every win's result, every transfer, deltas and the next hand's "
        "dealer, honba and riichi sticks.",
        response_class=Response,
        responses={
            200: {
                "description": "The settlement",
                "content": {"application/json": {"schema": RESULT_SCHEMA}},
            },
            **ERROR_422,
        },
        openapi_extra=body_doc(SETTLE_EXAMPLES),
    )
    async def api_settle(request: Request) -> Response:
        return await json_route(settle, request)

    @app.get(
        "/api/rules",
        tags=["api"],
        summary="Every rules preset with its options and their sources",
        description="`presets`: each preset as `tenbou rules show ID --json` prints it (id, names, "
        "aliases, notes, and every option's `value`, `source` and `note`); `options`: each option's "
        "kind, meaning, choices and range; `default`: the preset used when a request names none.",
        response_class=Response,
    )
    def api_rules() -> Response:
        response: Response = json_response(rules_catalog())
        return response

    @app.get(
        "/api/rules/{preset}",
        tags=["api"],
        summary="One preset by id or alias",
        response_class=Response,
        responses=ERROR_422,
    )
    def api_rule(preset: str) -> Response:
        response: Response = json_response(get_preset(preset).to_dict())
        return response

    # -- the score sheet: games kept in SQLite ------------------------------------------------------

    service = GameService(GameStore(db_path if db_path is not None else default_db_path()))
    app.state.games = service

    async def body_of(request: Request) -> Any:
        content_type = request.headers.get("content-type")
        if content_type is not None and not is_json(content_type):
            raise HTTPException(
                415,
                f"the request body must be JSON (Content-Type: application/json), not {content_type[:60]!r}",
            )
        return loads_request(await request.body())

    async def in_thread(fn: Callable[..., Any], *args: Any, status: int = 200) -> Response:
        from starlette.concurrency import run_in_threadpool

        result = await run_in_threadpool(fn, *args)
        response: Response = json_response(result)
        response.status_code = status
        return response

    games_doc: dict[str, Any] = {"tags": ["games"], "response_class": Response}
    write_doc: dict[str, Any] = {
        **games_doc,
        "responses": {
            **ERROR_422,
            404: {"description": "No such game or hand"},
            409: {"description": "The game was changed since the version given: reload it"},
        },
    }

    @app.get("/api/games", summary="Every game of the score sheet, the latest changed first", **games_doc)
    async def api_games() -> Response:
        return await in_thread(lambda: {"games": service.store.list()})

    @app.post(
        "/api/games",
        summary="Start a game: rules (preset and overrides), players, names, title",
        status_code=201,
        **write_doc,
    )
    async def api_new_game(request: Request) -> Response:
        return await in_thread(service.create, await body_of(request), status=201)

    @app.post(
        "/api/games/import", summary="A game exported as JSON, checked and kept", status_code=201, **write_doc
    )
    async def api_import_game(request: Request) -> Response:
        return await in_thread(service.import_game, await body_of(request), status=201)

    @app.get("/api/games/{game_id}", summary="A game's score sheet, replayed from its hands", **write_doc)
    async def api_game(game_id: str) -> Response:
        return await in_thread(service.doc, game_id)

    @app.delete("/api/games/{game_id}", summary="Delete a game (?version=N)", **write_doc)
    async def api_delete_game(game_id: str, request: Request) -> Response:
        return await in_thread(service.delete, game_id, request.query_params.get("version"))

    @app.post(
        "/api/games/{game_id}/hands",
        summary="Record a hand's end: {version, hand: {request, riichi}, at?}",
        **write_doc,
    )
    async def api_add_hand(game_id: str, request: Request) -> Response:
        return await in_thread(service.add_hand, game_id, await body_of(request))

    @app.put("/api/games/{game_id}/hands/{index}", summary="Edit a past hand: {version, hand}", **write_doc)
    async def api_put_hand(game_id: str, index: int, request: Request) -> Response:
        return await in_thread(service.put_hand, game_id, index, await body_of(request))

    @app.delete("/api/games/{game_id}/hands/{index}", summary="Remove a hand (?version=N)", **write_doc)
    async def api_delete_hand(game_id: str, index: int, request: Request) -> Response:
        return await in_thread(service.delete_hand, game_id, index, request.query_params.get("version"))

    @app.post(
        "/api/games/{game_id}/end",
        summary="End the game after its last hand, where the rules let it end or go on: {version}",
        **write_doc,
    )
    async def api_end_game(game_id: str, request: Request) -> Response:
        return await in_thread(service.end_game, game_id, await body_of(request))

    @app.delete(
        "/api/games/{game_id}/end",
        summary="Take back the end entered: the game goes on (?version=N)",
        **write_doc,
    )
    async def api_resume_game(game_id: str, request: Request) -> Response:
        return await in_thread(service.resume_game, game_id, request.query_params.get("version"))

    @app.get(
        "/api/games/{game_id}/export.{fmt}",
        summary="Export a game: json (setup, hands, sheet), jsonl (settle requests), csv",
        **write_doc,
    )
    async def api_export(game_id: str, fmt: str) -> Response:
        if fmt not in ("json", "jsonl", "csv"):
            raise HTTPException(404)

        def export() -> tuple[str, str]:
            game = service.store.get(game_id)
            sheet = service.sheet(game)
            if fmt == "csv":
                return sheets.export_csv(sheet), "text/csv; charset=utf-8"
            if fmt == "jsonl":
                return sheets.export_jsonl(sheet), "application/jsonl; charset=utf-8"
            doc = sheets.export_json(game.setup, game.hands, sheet)
            return json.dumps(doc, ensure_ascii=False, indent=1), "application/json"

        from starlette.concurrency import run_in_threadpool

        text, media = await run_in_threadpool(export)
        name = f"tenbou-game-{game_id}.{fmt}"
        return Response(
            text.encode("utf-8", "backslashreplace"),
            media_type=media,
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    @app.get("/", include_in_schema=False)
    def page() -> HTMLResponse:
        return HTMLResponse(page_html())

    @app.get("/static/{name}", include_in_schema=False)
    def static(name: str) -> Response:
        try:
            text, media_type = static_asset(name)
        except KeyError:
            raise HTTPException(404) from None
        return Response(text, media_type=media_type, headers={"Cache-Control": "no-cache"})

    return app
