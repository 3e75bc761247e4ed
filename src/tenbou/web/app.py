"""The FastAPI application of ``tenbou serve`` (:func:`create_app`), and running it (:func:`serve`).

FastAPI is imported inside :func:`create_app` (it is the optional extra ``web``), so this
module imports without it. Every route is a thin door onto :mod:`tenbou.api` or the score
sheet's :class:`~tenbou.web.service.GameService`: request bodies are plain JSON objects handed
to :func:`~tenbou.api.score` and :func:`~tenbou.api.settle` unchanged, and their results are
returned unchanged.

The rest of the web layer lives beside it, a concern a module: :mod:`.routes` (the routes and
the answers to errors), :mod:`.guard` (the middleware in front of every route: who may come in,
body limits and deadlines, security headers), :mod:`.access` (who may do what), :mod:`.limits`
(per client), :mod:`.responses` (the error object and JSON bodies), :mod:`.openapi` (examples and
schemas of ``/openapi.json``), :mod:`.service` and :mod:`.store` (the score sheet's games),
:mod:`.sheet` (a game replayed), :mod:`.assets` (the page) and :mod:`.server` (uvicorn's
settings). Their public names are importable from here as before.

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

import os
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Final

from .. import __version__
from .access import Access, is_loopback
from .guard import BODY_TIMEOUT, MAX_BODY, MAX_IMPORT, BodyGuard
from .limits import RateLimiter
from .responses import validation_message
from .routes import add_error_handlers, add_routes
from .server import HEAD_TIMEOUT, PER_CLIENT, bind, check_tls, own_names, redact_links, server_options
from .service import GameService
from .store import GameStore, default_db_path

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
        from fastapi import FastAPI
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

    add_error_handlers(app)
    add_routes(app, service, starts)
    return app


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
