"""The routes of the web app (:func:`add_routes`), each a thin door onto :mod:`tenbou.api` or the
score sheet's :class:`~tenbou.web.service.GameService`, and the answers to errors
(:func:`add_error_handlers`).

A request body is read by :func:`read_json_body` alone: JSON by its Content-Type (415 otherwise:
a page of another site cannot send that without asking the server first), then
:func:`tenbou.api.loads_request` (422 for what is not strict JSON). The JSON of an answer that may
be large (a game, a page of games) is made in a worker thread, never on the event loop.

FastAPI is imported inside the functions (the optional extra ``web``); the routes' annotations
are the real classes, which FastAPI reads (this module does not postpone annotations).
"""

import math
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final

from ..api import loads_request, score, settle
from ..errors import TenbouError
from ..rules import get_preset
from .access import ForbiddenError, Grants, UnauthorizedError
from .assets import page_html, rules_catalog, static_asset
from .guard import is_json
from .limits import RateLimitedError, RateLimiter
from .openapi import ERROR_422, REQUEST_SCHEMA, RESULT_SCHEMA, SCORE_EXAMPLES, SETTLE_EXAMPLES
from .responses import HTTP_CODES, error_response, json_bytes, json_response, validation_message
from .service import EXPORTS, GameService
from .store import ConflictError, NoSuchGameError, StoreBusyError, StoreFullError

if TYPE_CHECKING:
    from fastapi import FastAPI, Request, Response

__all__ = ["COOKIE_AGE", "add_error_handlers", "add_routes", "grants_of", "read_json_body"]

#: how long a game's link is remembered by the browser that opened it (its cookie), in seconds
COOKIE_AGE: Final = 400 * 24 * 3600
#: the HTTP status of each error of the web layer (any other TenbouError is 422)
_STATUS: Final[dict[type[TenbouError], int]] = {
    ConflictError: 409,
    NoSuchGameError: 404,
    ForbiddenError: 403,
    UnauthorizedError: 401,
    RateLimitedError: 429,
    StoreFullError: 507,
    StoreBusyError: 503,
}


async def read_json_body(request: "Request") -> Any:
    """The request's body as JSON (415 unless its Content-Type says JSON; 422 unless strict JSON)."""
    from starlette.exceptions import HTTPException

    content_type = request.headers.get("content-type")
    if content_type is None or not is_json(content_type):
        given = "none" if content_type is None else repr(content_type[:60])
        raise HTTPException(
            415, f"the request body must be JSON (Content-Type: application/json), not {given}"
        )
    return loads_request(await request.body())


def grants_of(request: "Request") -> Grants:
    """What the guard found the request may do (nothing, where it found nothing)."""
    grants = getattr(request.state, "grants", None)
    return grants if isinstance(grants, Grants) else Grants()


async def in_thread(fn: Callable[..., Any], *args: Any, status: int = 200) -> "Response":
    """``fn(*args)`` and the JSON of its answer made in a worker thread (a game's sheet, a page of
    games: never encoded on the event loop, where it would hold every other request)."""
    from fastapi.responses import Response
    from starlette.concurrency import run_in_threadpool

    body: bytes = await run_in_threadpool(lambda: json_bytes(fn(*args)))
    return Response(body, status_code=status, media_type="application/json")


def add_error_handlers(app: "FastAPI") -> None:
    """Every error answers with the error object: a TenbouError by its kind (:data:`_STATUS`, else
    422), FastAPI's own validation 422, an HTTP error by its status, a bug 500 (no details)."""
    from fastapi import Request, Response
    from fastapi.exceptions import RequestValidationError
    from starlette.exceptions import HTTPException

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
        headers = {}
        if isinstance(exc, RateLimitedError):
            headers["Retry-After"] = str(max(1, math.ceil(exc.retry_after)))
        response: Response = error_response(_STATUS.get(type(exc), 422), exc.code, exc.message, headers)
        return response

    async def on_bug(request: Request, exc: Exception) -> Response:
        response: Response = error_response(500, "internal", f"internal error: {type(exc).__name__}")
        return response

    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(HTTPException, on_http)
    app.add_exception_handler(TenbouError, on_tenbou)
    app.add_exception_handler(Exception, on_bug)


def add_routes(app: "FastAPI", service: GameService, starts: RateLimiter) -> None:
    """The routes: the calculator's API, the score sheet's games (reads, writes), the page."""
    _add_api_routes(app)
    _add_game_reads(app, service)
    _add_game_writes(app, service, starts)
    _add_page_routes(app, service)


def _add_api_routes(app: "FastAPI") -> None:
    from fastapi import Request, Response

    async def json_route(
        handler: Callable[[Mapping[str, Any]], dict[str, Any]], request: Request
    ) -> Response:
        body = await read_json_body(request)
        # scoring is CPU work of tens of microseconds on inputs bounded above: done in the event loop
        response: Response = json_response(handler(body))
        return response

    def body_doc(examples: dict[str, Any]) -> dict[str, Any]:
        content = {"application/json": {"schema": REQUEST_SCHEMA, "examples": examples}}
        return {"requestBody": {"required": True, "content": content}}

    def result_doc(what: str) -> dict[int | str, dict[str, Any]]:
        return {
            200: {"description": what, "content": {"application/json": {"schema": RESULT_SCHEMA}}},
            **ERROR_422,
        }

    @app.post(
        "/api/score",
        tags=["api"],
        summary="Score and settle one winning hand",
        description="The request and result of `tenbou score --json` (docs/json-api.md, "
        "'A winning hand'): value, yaku, fu breakdown, limit, pao (with `rule` and `meld`), "
        "payments and per-seat deltas.",
        response_class=Response,
        responses=result_doc("The winning-hand result"),
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
        responses=result_doc("The settlement"),
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


def _games_doc(write: bool) -> dict[str, Any]:
    from fastapi.responses import Response

    doc: dict[str, Any] = {"tags": ["games"], "response_class": Response}
    if write:
        doc["responses"] = {
            **ERROR_422,
            403: {"description": "The request's credentials do not allow it (docs/web.md)"},
            404: {"description": "No such game or hand"},
            409: {"description": "The game was changed since the version given: reload it"},
        }
    return doc


def _add_game_reads(app: "FastAPI", service: GameService) -> None:
    from fastapi import Request, Response
    from starlette.concurrency import run_in_threadpool
    from starlette.exceptions import HTTPException

    doc = _games_doc(write=True)

    @app.get(
        "/api/session",
        summary="What this request may do: operator, and the games its links open",
        **_games_doc(write=False),
    )
    async def api_session(request: Request) -> Response:
        return await in_thread(service.session, grants_of(request))

    @app.get(
        "/api/games",
        summary="A page of the games (?limit=N&after=NEXT), the latest changed first (the operator's)",
        **doc,
    )
    async def api_games(request: Request) -> Response:
        query = request.query_params
        return await in_thread(service.page, grants_of(request), query.get("limit"), query.get("after"))

    @app.get("/api/games/{game_id}", summary="A game's score sheet, replayed from its hands", **doc)
    async def api_game(game_id: str, request: Request) -> Response:
        return await in_thread(service.doc, game_id, grants_of(request))

    @app.get(
        "/api/games/{game_id}/export.{fmt}",
        summary="Export a game: json (setup, hands, sheet), jsonl (settle requests), csv",
        **doc,
    )
    async def api_export(game_id: str, fmt: str, request: Request) -> Response:
        if fmt not in EXPORTS:
            raise HTTPException(404)
        body = await run_in_threadpool(service.export, game_id, fmt, grants_of(request))
        name = f"tenbou-game-{game_id}.{fmt}"
        return Response(
            body,
            media_type=EXPORTS[fmt],
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )


def _start_allowed(starts: RateLimiter, request: "Request") -> None:
    """A new game (or import) within what its client may start in a while (429 otherwise)."""
    client = request.client.host if request.client else "?"
    wait = starts.take(client)
    if wait > 0:
        raise RateLimitedError(
            f"too many new games from this client: wait {wait:.0f} s (at most {starts.burst} at once, "
            f"then one every {1 / starts.per_second:.0f} s)",
            retry_after=wait,
        )


def _add_game_writes(app: "FastAPI", service: GameService, starts: RateLimiter) -> None:
    from fastapi import Request, Response

    doc = _games_doc(write=True)

    @app.post(
        "/api/games",
        summary="Start a game: rules (preset and overrides), players, names, title; answers its links",
        status_code=201,
        **doc,
    )
    async def api_new_game(request: Request) -> Response:
        body = await read_json_body(request)
        if grants_of(request).operator:
            _start_allowed(starts, request)
        return await in_thread(service.create, body, grants_of(request), status=201)

    @app.post(
        "/api/games/import",
        summary="A game exported as JSON, checked and kept; answers its links",
        status_code=201,
        **doc,
    )
    async def api_import_game(request: Request) -> Response:
        body = await read_json_body(request)
        if grants_of(request).operator:
            _start_allowed(starts, request)
        return await in_thread(service.import_game, body, grants_of(request), status=201)

    @app.delete("/api/games/{game_id}", summary="Delete a game (?version=N; the operator's)", **doc)
    async def api_delete_game(game_id: str, request: Request) -> Response:
        version = request.query_params.get("version")
        return await in_thread(service.delete, game_id, version, grants_of(request))

    @app.post(
        "/api/games/{game_id}/links",
        summary="New view and edit links for a game (the old ones stop working; the operator's)",
        **doc,
    )
    async def api_new_links(game_id: str, request: Request) -> Response:
        return await in_thread(service.new_links, game_id, grants_of(request))

    @app.post(
        "/api/games/{game_id}/hands",
        summary="Record a hand's end: {version, hand: {request, riichi}, at?}",
        **doc,
    )
    async def api_add_hand(game_id: str, request: Request) -> Response:
        return await in_thread(service.add_hand, game_id, await read_json_body(request), grants_of(request))

    @app.put("/api/games/{game_id}/hands/{index}", summary="Edit a past hand: {version, hand}", **doc)
    async def api_put_hand(game_id: str, index: int, request: Request) -> Response:
        body = await read_json_body(request)
        return await in_thread(service.put_hand, game_id, index, body, grants_of(request))

    @app.delete("/api/games/{game_id}/hands/{index}", summary="Remove a hand (?version=N)", **doc)
    async def api_delete_hand(game_id: str, index: int, request: Request) -> Response:
        version = request.query_params.get("version")
        return await in_thread(service.delete_hand, game_id, index, version, grants_of(request))

    @app.post(
        "/api/games/{game_id}/end",
        summary="End the game after its last hand, where the rules let it end or go on: {version}",
        **doc,
    )
    async def api_end_game(game_id: str, request: Request) -> Response:
        return await in_thread(service.end_game, game_id, await read_json_body(request), grants_of(request))

    @app.delete(
        "/api/games/{game_id}/end", summary="Take back the end entered: the game goes on (?version=N)", **doc
    )
    async def api_resume_game(game_id: str, request: Request) -> Response:
        version = request.query_params.get("version")
        return await in_thread(service.resume_game, game_id, version, grants_of(request))


def _add_page_routes(app: "FastAPI", service: GameService) -> None:
    from fastapi import Request, Response
    from fastapi.responses import HTMLResponse, RedirectResponse
    from starlette.concurrency import run_in_threadpool
    from starlette.exceptions import HTTPException

    @app.get("/join/{key}", include_in_schema=False)
    async def join(key: str, request: Request) -> Response:
        """A game's link: the game's cookie, and the page on the game."""
        game_id, _ = await run_in_threadpool(service.join, key)
        response = RedirectResponse(f"/#game={game_id}", status_code=303)
        response.set_cookie(
            f"tb_{game_id}",
            key,
            max_age=COOKIE_AGE,
            path="/",
            httponly=True,
            samesite="lax",
            secure=request.url.scheme == "https",
        )
        response.headers["Cache-Control"] = "no-store"
        return response

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
