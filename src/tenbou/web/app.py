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

import math
import os
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final

from .. import __version__
from ..api import loads_request, score, settle
from ..errors import TenbouError
from ..rules import get_preset
from .access import Access, ForbiddenError, Grants, UnauthorizedError, is_loopback
from .assets import page_html, rules_catalog, static_asset
from .guard import BODY_TIMEOUT, MAX_BODY, MAX_IMPORT, BodyGuard, is_json
from .limits import RateLimitedError, RateLimiter
from .openapi import ERROR_422, REQUEST_SCHEMA, RESULT_SCHEMA, SCORE_EXAMPLES, SETTLE_EXAMPLES
from .responses import HTTP_CODES, error_response, json_bytes, json_response, validation_message
from .server import HEAD_TIMEOUT, PER_CLIENT, bind, check_tls, own_names, redact_links, server_options
from .service import EXPORTS, GameService
from .store import ConflictError, GameStore, NoSuchGameError, StoreBusyError, StoreFullError, default_db_path

if TYPE_CHECKING:
    from fastapi import FastAPI

__all__ = [
    "BODY_TIMEOUT",
    "HEAD_TIMEOUT",
    "MAX_BODY",
    "MAX_GAMES",
    "NEW_GAMES",
    "BodyGuard",
    "create_app",
    "serve",
    "server_options",
    "validation_message",
]

#: the most games a database keeps by default (``tenbou serve --max-games``)
MAX_GAMES: Final = 100_000
#: new games and imports per client: 20 at once, then one every 6 seconds (else 429)
NEW_GAMES: Final = (20, 1 / 6)
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


def create_app(
    max_body: int = MAX_BODY,
    body_timeout: float = BODY_TIMEOUT,
    db_path: str | os.PathLike[str] | None = None,
    *,
    access: Access | None = None,
    max_games: int | None = MAX_GAMES,
    new_games: RateLimiter | None = None,
    make_folder: bool = True,
) -> "FastAPI":
    """The web calculator's application (needs the ``web`` extra: FastAPI and uvicorn).

    ``max_body`` and ``body_timeout``: the limits of :class:`BodyGuard`; ``db_path``: the score
    sheet's SQLite database (:func:`~tenbou.web.store.default_db_path` when not given; created
    on the first use of the games API, its folder too unless ``make_folder`` is false);
    ``access``: who may do what (:class:`~tenbou.web.access.Access`; by default open to the
    person at the machine, answering to ``localhost`` and IP addresses only); ``max_games``: the
    most games the database keeps (``None``: no limit); ``new_games``: how many games (and
    imports) one client may start in a while (:data:`NEW_GAMES` by default)."""
    try:
        from fastapi import FastAPI, Request
        from fastapi.exceptions import RequestValidationError
        from fastapi.responses import HTMLResponse, RedirectResponse, Response
        from starlette.concurrency import run_in_threadpool
        from starlette.exceptions import HTTPException
    except ImportError as e:  # pragma: no cover - exercised only without the extra
        raise ImportError("the web calculator needs FastAPI and uvicorn: pip install 'tenbou[web]'") from e
    access = access if access is not None else Access()
    starts = new_games if new_games is not None else RateLimiter(*NEW_GAMES)
    store = GameStore(db_path if db_path is not None else default_db_path(), make_folder=make_folder)
    service = GameService(store, max_games=max_games)
    app = FastAPI(
        title="tenbou",
        version=__version__,
        summary="Riichi mahjong scoring and settlement, responsibility payment (pao) included",
        description=(
            "The JSON interface of docs/json-api.md over HTTP. Request bodies are the same objects "
            "as `tenbou.api.score` / `tenbou.api.settle` take (`Content-Type: application/json`); "
            'results are returned unchanged. Bad input answers 422 with `{"error": {"code", '
            f'"message"}}}}`; a body over {max_body} bytes 413, one that does not arrive within '
            f"{body_timeout:g} s 408. Who may do what: docs/web.md."
        ),
        # the interactive docs pages load their scripts from a CDN; the page must work offline
        docs_url=None,
        redoc_url=None,
        openapi_url="/openapi.json",
    )
    app.add_middleware(
        BodyGuard,
        max_body=max_body,
        body_timeout=body_timeout,
        limits={"/api/games/import": max(max_body, MAX_IMPORT)},
        access=access,
        resolve=store.key_access,
    )
    app.state.games = service
    app.state.access = access

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
        status = _STATUS.get(type(exc), 422)
        headers = {}
        if isinstance(exc, RateLimitedError):
            headers["Retry-After"] = str(max(1, math.ceil(exc.retry_after)))
        response: Response = error_response(status, exc.code, exc.message, headers)
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
        if content_type is None or not is_json(content_type):
            raise HTTPException(415, _not_json(content_type))
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

    def grants_of(request: Request) -> Grants:
        grants = getattr(request.state, "grants", None)
        return grants if isinstance(grants, Grants) else Grants()

    async def body_of(request: Request) -> Any:
        content_type = request.headers.get("content-type")
        if content_type is None or not is_json(content_type):
            raise HTTPException(415, _not_json(content_type))
        return loads_request(await request.body())

    def start_allowed(request: Request) -> None:
        client = request.client.host if request.client else "?"
        wait = starts.take(client)
        if wait > 0:
            raise RateLimitedError(
                f"too many new games from this client: wait {wait:.0f} s (at most {starts.burst} at once, "
                f"then one every {1 / starts.per_second:.0f} s)",
                retry_after=wait,
            )

    async def in_thread(fn: Callable[..., Any], *args: Any, status: int = 200) -> Response:
        """``fn(*args)`` and the JSON of its answer made in a worker thread (a game's sheet, a page
        of games: never encoded on the event loop, where it would hold every other request)."""
        body: bytes = await run_in_threadpool(lambda: json_bytes(fn(*args)))
        return Response(body, status_code=status, media_type="application/json")

    games_doc: dict[str, Any] = {"tags": ["games"], "response_class": Response}
    write_doc: dict[str, Any] = {
        **games_doc,
        "responses": {
            **ERROR_422,
            403: {"description": "The request's credentials do not allow it (docs/web.md)"},
            404: {"description": "No such game or hand"},
            409: {"description": "The game was changed since the version given: reload it"},
        },
    }

    @app.get(
        "/api/session",
        summary="What this request may do: operator, and the games its links open",
        **games_doc,
    )
    async def api_session(request: Request) -> Response:
        return await in_thread(service.session, grants_of(request))

    @app.get(
        "/api/games",
        summary="A page of the games (?limit=N&after=NEXT), the latest changed first (the operator's)",
        **write_doc,
    )
    async def api_games(request: Request) -> Response:
        query = request.query_params
        return await in_thread(service.page, grants_of(request), query.get("limit"), query.get("after"))

    @app.post(
        "/api/games",
        summary="Start a game: rules (preset and overrides), players, names, title; answers its links",
        status_code=201,
        **write_doc,
    )
    async def api_new_game(request: Request) -> Response:
        body = await body_of(request)
        if grants_of(request).operator:
            start_allowed(request)
        return await in_thread(service.create, body, grants_of(request), status=201)

    @app.post(
        "/api/games/import",
        summary="A game exported as JSON, checked and kept; answers its links",
        status_code=201,
        **write_doc,
    )
    async def api_import_game(request: Request) -> Response:
        body = await body_of(request)
        if grants_of(request).operator:
            start_allowed(request)
        return await in_thread(service.import_game, body, grants_of(request), status=201)

    @app.get("/api/games/{game_id}", summary="A game's score sheet, replayed from its hands", **write_doc)
    async def api_game(game_id: str, request: Request) -> Response:
        return await in_thread(service.doc, game_id, grants_of(request))

    @app.delete("/api/games/{game_id}", summary="Delete a game (?version=N; the operator's)", **write_doc)
    async def api_delete_game(game_id: str, request: Request) -> Response:
        version = request.query_params.get("version")
        return await in_thread(service.delete, game_id, version, grants_of(request))

    @app.post(
        "/api/games/{game_id}/links",
        summary="New view and edit links for a game (the old ones stop working; the operator's)",
        **write_doc,
    )
    async def api_new_links(game_id: str, request: Request) -> Response:
        return await in_thread(service.new_links, game_id, grants_of(request))

    @app.post(
        "/api/games/{game_id}/hands",
        summary="Record a hand's end: {version, hand: {request, riichi}, at?}",
        **write_doc,
    )
    async def api_add_hand(game_id: str, request: Request) -> Response:
        return await in_thread(service.add_hand, game_id, await body_of(request), grants_of(request))

    @app.put("/api/games/{game_id}/hands/{index}", summary="Edit a past hand: {version, hand}", **write_doc)
    async def api_put_hand(game_id: str, index: int, request: Request) -> Response:
        return await in_thread(service.put_hand, game_id, index, await body_of(request), grants_of(request))

    @app.delete("/api/games/{game_id}/hands/{index}", summary="Remove a hand (?version=N)", **write_doc)
    async def api_delete_hand(game_id: str, index: int, request: Request) -> Response:
        version = request.query_params.get("version")
        return await in_thread(service.delete_hand, game_id, index, version, grants_of(request))

    @app.post(
        "/api/games/{game_id}/end",
        summary="End the game after its last hand, where the rules let it end or go on: {version}",
        **write_doc,
    )
    async def api_end_game(game_id: str, request: Request) -> Response:
        return await in_thread(service.end_game, game_id, await body_of(request), grants_of(request))

    @app.delete(
        "/api/games/{game_id}/end",
        summary="Take back the end entered: the game goes on (?version=N)",
        **write_doc,
    )
    async def api_resume_game(game_id: str, request: Request) -> Response:
        version = request.query_params.get("version")
        return await in_thread(service.resume_game, game_id, version, grants_of(request))

    @app.get(
        "/api/games/{game_id}/export.{fmt}",
        summary="Export a game: json (setup, hands, sheet), jsonl (settle requests), csv",
        **write_doc,
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

    return app


def _not_json(content_type: str | None) -> str:
    given = "none" if content_type is None else repr(content_type[:60])
    return f"the request body must be JSON (Content-Type: application/json), not {given}"


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    log_level: str = "info",
    max_body: int = MAX_BODY,
    body_timeout: float = BODY_TIMEOUT,
    head_timeout: float = HEAD_TIMEOUT,
    db_path: str | os.PathLike[str] | None = None,
    password: str | None = None,
    allow_hosts: Iterable[str] = (),
    max_games: int | None = None,
    per_client: int = PER_CLIENT,
    certfile: str | None = None,
    keyfile: str | None = None,
    make_folder: bool = True,
    started: Callable[[Any], None] | None = None,
) -> None:
    """Run the web calculator under uvicorn (``tenbou serve``) with the limits above; the score
    sheet's games are kept in ``db_path`` (:func:`~tenbou.web.store.default_db_path` by default).

    Bound to loopback with no ``password`` the page is open to the person at the machine; bound
    beyond it a password is required (:class:`~tenbou.web.access.AccessError` otherwise), and
    the server answers to this machine's names (:func:`own_names`) besides ``localhost``, IP
    addresses and ``allow_hosts``. The database is opened and the port bound before anything is
    served, so that a bad ``db_path`` or a port in use raises here (:class:`ServeError`,
    :class:`~tenbou.web.store.StoreError`); then ``started(address)`` is called, if given, with
    the address listened on. ``certfile`` and ``keyfile``: serve HTTPS (cookies marked
    ``Secure``)."""
    import uvicorn

    if certfile is not None or keyfile is not None:
        check_tls(certfile, keyfile)
    names = list(allow_hosts) if is_loopback(host) else [*allow_hosts, *own_names()]
    access = Access.for_bind(host, password, names)
    app = create_app(
        max_body=max_body,
        body_timeout=body_timeout,
        db_path=db_path,
        access=access,
        max_games=MAX_GAMES if max_games is None else max_games,
        make_folder=make_folder,
    )
    app.state.games.store.open()
    sock = bind(host, port)
    if started is not None:
        started(sock.getsockname())
    redact_links()
    config = uvicorn.Config(
        app,
        log_level=log_level,
        ssl_certfile=certfile,
        ssl_keyfile=keyfile,
        **server_options(head_timeout, per_client),
    )
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
