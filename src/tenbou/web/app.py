"""The FastAPI application of ``tenbou serve``.

FastAPI is imported inside :func:`create_app` (it is the optional extra ``web``), so this
module imports without it. Every route is a thin door onto :mod:`tenbou.api`: request
bodies are plain JSON objects handed to :func:`~tenbou.api.score` and
:func:`~tenbou.api.settle` unchanged, and their results are returned unchanged.

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

import asyncio
import json
import os
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from typing import TYPE_CHECKING, Any

from .. import __version__
from ..api import loads_request, score, settle
from ..errors import RequestError, TenbouError, shown
from ..rules import get_preset
from . import sheet as sheets
from .assets import page_html, rules_catalog, static_asset
from .store import ConflictError, GameStore, NoSuchGameError, StoredGame, default_db_path

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

#: the largest request body read, in bytes (a settle of three wins is about 2 KB)
MAX_BODY = 64 * 1024
#: seconds a client has to send a request body, from the request's head
BODY_TIMEOUT = 10.0
#: after a 413, how much more of the body is read and dropped before the connection closes
_LINGER_BYTES = 8 * 1024 * 1024
_LINGER_SECONDS = 2.0
#: seconds a client has to send a request's head (request line and headers), from its connection
#: or its first byte after a response (:func:`serve`)
HEAD_TIMEOUT = 10.0

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
_REQUEST_SCHEMA = {"type": "object", "description": "the request object of docs/json-api.md"}
_HTTP_CODES = {404: "not_found", 405: "method_not_allowed"}
#: the page loads nothing from anywhere else
_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
#: the headers of every response, errors and 404s included
_SECURITY_HEADERS = ((b"x-content-type-options", b"nosniff"), (b"content-security-policy", _CSP.encode()))

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


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


def _error_body(code: str, message: str) -> bytes:
    return json.dumps({"error": {"code": code, "message": message}}, ensure_ascii=False).encode(
        "utf-8", "backslashreplace"
    )


def _error(status: int, code: str, message: str) -> Any:
    from fastapi.responses import Response

    headers = {k.decode(): v.decode() for k, v in _SECURITY_HEADERS}
    return Response(
        _error_body(code, message), status_code=status, media_type="application/json", headers=headers
    )


def _json(content: object) -> Any:
    """A JSON response (UTF-8 as it is; a string that is not Unicode text is escaped, never a 500)."""
    from fastapi.responses import Response

    body = json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return Response(body.encode("utf-8", "backslashreplace"), media_type="application/json")


class BodyGuard:
    """ASGI middleware: every response gets the security headers (``nosniff``, the CSP), and a
    request body is read here, whole, before the app sees the request -- at most ``max_body``
    bytes (413 at once when Content-Length says more, or as soon as more arrives) within
    ``body_timeout`` seconds (408 otherwise); both close the connection. So no body larger than
    the limit is ever held in memory, and a slow client holds its connection for a bounded time."""

    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY, body_timeout: float = BODY_TIMEOUT) -> None:
        self.app = app
        self.max_body = max_body
        self.body_timeout = body_timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                names = {name.lower() for name, _ in headers}
                headers.extend(h for h in _SECURITY_HEADERS if h[0] not in names)
                message["headers"] = headers
            await send(message)

        body = await self._read_body(scope, receive, send_with_headers)
        if body is None:
            return  # answered here, or the client went away
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # after the body: the disconnect, when it comes

        await self.app(scope, replay, send_with_headers)

    async def _read_body(self, scope: Scope, receive: Receive, send: Send) -> bytes | None:
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and (len(value) > 18 or int(value) > self.max_body):
                # (uvicorn has refused a Content-Length that is not digits)
                await self._refuse(
                    send, 413, f"the request body is larger than {self.max_body} bytes", (scope, receive)
                )
                return None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.body_timeout
        chunks: list[bytes] = []
        size = 0
        while True:
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - loop.time()))
            except TimeoutError:
                await self._refuse(
                    send, 408, f"the request body did not arrive within {self.body_timeout:g} s"
                )
                return None
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                await self._refuse(
                    send, 413, f"the request body is larger than {self.max_body} bytes", (scope, receive)
                )
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    async def _refuse(
        self, send: Send, status: int, message: str, drain: tuple[Scope, Receive] | None = None
    ) -> None:
        """Answer with the error object and close. With ``drain``, the rest of the body is read
        and dropped for a moment (at most ``_LINGER_BYTES`` or ``_LINGER_SECONDS``) before the
        connection closes, so that a client still sending reads the answer instead of a reset."""
        body = _error_body("request", message)
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
        ]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body, "more_body": drain is not None})
        if drain is None:
            return
        scope, receive = drain
        if all(name != b"expect" for name, _ in scope.get("headers", ())):  # (else it waits for us)
            loop = asyncio.get_running_loop()
            deadline = loop.time() + _LINGER_SECONDS
            dropped = 0
            while dropped < _LINGER_BYTES:
                try:
                    message_in = await asyncio.wait_for(receive(), max(0.0, deadline - loop.time()))
                except TimeoutError:
                    break
                if message_in["type"] != "http.request" or not message_in.get("more_body", False):
                    break
                dropped += len(message_in.get("body", b""))
        await send({"type": "http.response.body", "body": b""})


def _is_json(content_type: str) -> bool:
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or (media.startswith("application/") and media.endswith("+json"))


def _game_doc(game: StoredGame, sheet: Mapping[str, Any]) -> dict[str, Any]:
    return {"id": game.id, "version": game.version, "created": game.created, "updated": game.updated, **sheet}


def _summary(sheet: Mapping[str, Any]) -> dict[str, Any]:
    """What the list of games shows of one, kept beside it (recomputed at every write)."""
    nxt = sheet["next"]
    return {
        "hands": len(sheet["hands"]),
        "scores": sheet["scores"],
        "ended": sheet["ended"],
        "next": None if nxt is None else {k: nxt[k] for k in ("round_wind", "number", "honba")},
    }


def _version(body: Mapping[str, Any] | None, query: str | None = None) -> int:
    """The ``version`` a write was made on: in the body, or the query (``?version=N``)."""
    if body is not None:
        if "version" not in body:
            raise RequestError("version: missing (the version of the game this change was made on)")
        value = body["version"]
        if type(value) is not int or value < 1:
            raise RequestError(
                f"version: expected the game's version (an integer from 1), not {shown(value)}"
            )
        return value
    if query is None or not query.isdigit() or len(query) > 18 or int(query) < 1:
        raise RequestError(
            "version: expected ?version=N, the version of the game this change was made on, "
            f"not {shown(query)}"
        )
    return int(query)


def _body_fields(body: object, allowed: tuple[str, ...]) -> Mapping[str, Any]:
    if not isinstance(body, Mapping):
        raise RequestError(
            f"the request body must be a JSON object with {', '.join(allowed)}, not {shown(body)}"
        )
    for key in body:
        if key not in allowed:
            raise RequestError(f"unknown field {shown(key)} (expected {', '.join(allowed)})")
    return body


#: a change to a game's hands: it edits the list in place and returns the game's end after it
#: (the index of the hand after which the players ended the game, or ``None``) and, where the
#: change removed the end, why
Edit = Callable[[list[dict[str, Any]], int | None], tuple[int | None, str | None]]


class GameService:
    """The score sheet's operations on a :class:`~tenbou.web.store.GameStore`: every write
    replays the game with the change (:func:`tenbou.web.sheet.replay`) and keeps it only if the
    replay succeeds and the game is still at the version the change was made on.

    The end of a game entered by the players (:meth:`end_game`) follows the hand it was entered
    after: a hand inserted or removed before it moves it; removing that hand removes the end;
    after any change to the hands it must still be allowed where it is (the rules let the game
    end or go on there), or it is removed and the game goes on -- the answer says so in
    ``end_removed`` (``after``, ``reason``)."""

    def __init__(self, store: GameStore) -> None:
        self.store = store

    def sheet(self, game: StoredGame) -> dict[str, Any]:
        return sheets.replay(game.setup, game.hands, game.end)

    def doc(self, game_id: str) -> dict[str, Any]:
        game = self.store.get(game_id)
        return _game_doc(game, self.sheet(game))

    def create(self, body: object) -> dict[str, Any]:
        setup = sheets.read_setup(body)
        sheet = sheets.replay(setup, [])
        game = self.store.create(setup, _summary(sheet))
        return _game_doc(game, sheet)

    def import_game(self, body: object) -> dict[str, Any]:
        setup, hands, end = sheets.read_export(body)
        sheet = sheets.replay(setup, hands, end)
        if isinstance(body, Mapping):
            sheets.check_export(body, sheet)
        game = self.store.create(setup, _summary(sheet), sheets.stored_hands(sheet), end)
        return _game_doc(game, sheet)

    def change(self, game_id: str, version: int, edit: Edit, *, drop_end: bool = True) -> dict[str, Any]:
        """Apply ``edit`` to the game's hands and end, replay, and keep the result. With
        ``drop_end`` (a change to the hands) an end that the rules no longer allow where it is
        is removed; without (a change to the end itself) it is refused."""
        game = self.store.get(game_id)
        if game.version != version:
            raise ConflictError(
                f"the game was changed elsewhere (it is at version {game.version}, this change was made "
                f"on version {version}): reload it"
            )
        hands = [dict(h) for h in game.hands]
        end, removed = edit(hands, game.end)
        sheet = sheets.replay(game.setup, hands, end, drop_end=drop_end)
        stored = self.store.write(
            game_id,
            version,
            sheets.stored_hands(sheet),
            _summary(sheet),
            end=None if sheet["end"] is None else sheet["end"]["after"],
        )
        if removed is not None:
            sheet["end_removed"] = {"after": game.end, "reason": removed}
        elif "end_removed" in sheet:  # (where the end was before the change, as the page showed it)
            sheet["end_removed"]["after"] = game.end
        return _game_doc(stored, sheet)

    def add_hand(self, game_id: str, body: object) -> dict[str, Any]:
        fields = _body_fields(body, ("version", "hand", "at"))
        hand = sheets.read_hand(fields.get("hand"))

        def edit(hands: list[dict[str, Any]], end: int | None) -> tuple[int | None, str | None]:
            at = fields.get("at", len(hands))
            if type(at) is not int or not 0 <= at <= len(hands):
                raise RequestError(f"at: expected a place 0..{len(hands)} among the hands, not {shown(at)}")
            hands.insert(at, hand)
            # (a hand after the end is refused by the replay: the game ended there)
            return (end + 1 if end is not None and at <= end else end), None

        return self.change(game_id, _version(fields), edit)

    def put_hand(self, game_id: str, index: int, body: object) -> dict[str, Any]:
        fields = _body_fields(body, ("version", "hand"))
        hand = sheets.read_hand(fields.get("hand"))

        def edit(hands: list[dict[str, Any]], end: int | None) -> tuple[int | None, str | None]:
            hands[self._index(index, hands)] = hand
            return end, None

        return self.change(game_id, _version(fields), edit)

    def delete_hand(self, game_id: str, index: int, version: str | None) -> dict[str, Any]:
        def edit(hands: list[dict[str, Any]], end: int | None) -> tuple[int | None, str | None]:
            del hands[self._index(index, hands)]
            if end is None or index > end:
                return end, None
            if index == end:
                return None, f"hands[{index}], the hand it was entered after, was removed"
            return end - 1, None

        return self.change(game_id, _version(None, version), edit)

    def end_game(self, game_id: str, body: object) -> dict[str, Any]:
        """End the game after its last hand, where the rules let it end or go on (``may_end``)."""
        fields = _body_fields(body, ("version",))

        def edit(hands: list[dict[str, Any]], end: int | None) -> tuple[int | None, str | None]:
            if end is not None:
                raise RequestError(f"end: the game was already ended after hands[{end}]")
            if not hands:
                raise RequestError("end: the game has no hands yet (it can end only after a hand)")
            return len(hands) - 1, None

        return self.change(game_id, _version(fields), edit, drop_end=False)

    def resume_game(self, game_id: str, version: str | None) -> dict[str, Any]:
        """Remove the end the players entered: the game goes on after its last hand."""

        def edit(hands: list[dict[str, Any]], end: int | None) -> tuple[int | None, str | None]:
            if end is None:
                raise NoSuchGameError(
                    "the game has no end entered (it goes on, or it ended by the rules and cannot go on)"
                )
            return None, None

        return self.change(game_id, _version(None, version), edit)

    def delete(self, game_id: str, version: str | None) -> dict[str, Any]:
        self.store.delete(game_id, _version(None, version))
        return {"deleted": game_id}

    @staticmethod
    def _index(index: int, hands: list[dict[str, Any]]) -> int:
        if not 0 <= index < len(hands):
            raise NoSuchGameError(f"no hand {index} (the game has {len(hands)} hands, 0..{len(hands) - 1})")
        return index


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
        return _error(422, "request", validation_message(list(errors)))  # type: ignore[no-any-return]

    async def on_http(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        detail = exc.detail if isinstance(exc, HTTPException) else "error"
        code = _HTTP_CODES.get(status, "http_error")
        if status == 404:
            detail = f"no such page: {request.method} {request.url.path}"
        elif status == 405:
            detail = f"{request.method} is not allowed on {request.url.path}"
        elif status == 415:
            code = "request"
        response: Response = _error(status, code, str(detail))
        return response

    async def on_tenbou(request: Request, exc: Exception) -> Response:
        if not isinstance(exc, TenbouError):  # pragma: no cover - registered for TenbouError only
            raise exc
        status = 409 if isinstance(exc, ConflictError) else 404 if isinstance(exc, NoSuchGameError) else 422
        response: Response = _error(status, exc.code, exc.message)
        return response

    async def on_bug(request: Request, exc: Exception) -> Response:
        response: Response = _error(500, "internal", f"internal error: {type(exc).__name__}")
        return response

    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(HTTPException, on_http)
    app.add_exception_handler(TenbouError, on_tenbou)
    app.add_exception_handler(Exception, on_bug)

    async def json_route(
        handler: Callable[[Mapping[str, Any]], dict[str, Any]], request: Request
    ) -> Response:
        content_type = request.headers.get("content-type")
        if content_type is not None and not _is_json(content_type):
            raise HTTPException(
                415,
                f"the request body must be JSON (Content-Type: application/json), not {content_type[:60]!r}",
            )
        body = await request.body()
        # scoring is CPU work of tens of microseconds on inputs bounded above: done in the event loop
        response: Response = _json(handler(loads_request(body)))
        return response

    def body_doc(examples: dict[str, Any]) -> dict[str, Any]:
        content = {"application/json": {"schema": _REQUEST_SCHEMA, "examples": examples}}
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
                "content": {"application/json": {"schema": _RESULT_SCHEMA}},
            },
            **_ERROR_422,
        },
        openapi_extra=body_doc(_SCORE_EXAMPLES),
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
                "content": {"application/json": {"schema": _RESULT_SCHEMA}},
            },
            **_ERROR_422,
        },
        openapi_extra=body_doc(_SETTLE_EXAMPLES),
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
        response: Response = _json(rules_catalog())
        return response

    @app.get(
        "/api/rules/{preset}",
        tags=["api"],
        summary="One preset by id or alias",
        response_class=Response,
        responses=_ERROR_422,
    )
    def api_rule(preset: str) -> Response:
        response: Response = _json(get_preset(preset).to_dict())
        return response

    # -- the score sheet: games kept in SQLite ------------------------------------------------------

    service = GameService(GameStore(db_path if db_path is not None else default_db_path()))
    app.state.games = service

    async def body_of(request: Request) -> Any:
        content_type = request.headers.get("content-type")
        if content_type is not None and not _is_json(content_type):
            raise HTTPException(
                415,
                f"the request body must be JSON (Content-Type: application/json), not {content_type[:60]!r}",
            )
        return loads_request(await request.body())

    async def in_thread(fn: Callable[..., Any], *args: Any, status: int = 200) -> Response:
        from starlette.concurrency import run_in_threadpool

        result = await run_in_threadpool(fn, *args)
        response: Response = _json(result)
        response.status_code = status
        return response

    games_doc: dict[str, Any] = {"tags": ["games"], "response_class": Response}
    write_doc: dict[str, Any] = {
        **games_doc,
        "responses": {
            **_ERROR_422,
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


def server_options(head_timeout: float = HEAD_TIMEOUT) -> dict[str, Any]:
    """The uvicorn settings of :func:`serve`: the HTTP/1.1 protocol with a deadline for each
    request's head (:func:`head_timeout_protocol`), 5 s keep-alive, at most 1,000 connections at a
    time (uvicorn answers more with a plain 503), headers of at most 16 KiB, and no server header."""
    return {
        "http": head_timeout_protocol(head_timeout),
        "timeout_keep_alive": 5,
        "limit_concurrency": 1000,
        "h11_max_incomplete_event_size": 16 * 1024,
        "timeout_graceful_shutdown": 5,
        "server_header": False,
    }


def head_timeout_protocol(seconds: float = HEAD_TIMEOUT) -> type:
    """uvicorn's h11 protocol with a deadline for each request's head: a client that has not sent
    its request line and headers within ``seconds`` of connecting (or of its first byte after a
    response) is disconnected. (uvicorn itself times out only idle keep-alive connections, and
    any byte stops that clock.) A request uvicorn cannot parse is answered 400 with the error
    object and the security headers."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class HeadTimeoutH11Protocol(H11Protocol):
        head_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)  # type: ignore[arg-type]
            self._arm()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state is h11.IDLE:  # a head has begun, and is not complete
                if self.head_timer is None:
                    self._arm()
            elif self.head_timer is not None:
                self.head_timer.cancel()
                self.head_timer = None

        def connection_lost(self, exc: Exception | None) -> None:
            if self.head_timer is not None:
                self.head_timer.cancel()
                self.head_timer = None
            super().connection_lost(exc)

        def send_400_response(self, msg: str) -> None:
            # uvicorn's answer to a request it cannot parse, as every other answer: the error
            # object and the security headers
            body = _error_body("request", f"not an HTTP/1.1 request ({msg.rstrip('.')})")
            headers = [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
                *_SECURITY_HEADERS,
            ]
            for event in (
                h11.Response(status_code=400, headers=headers),
                h11.Data(data=body),
                h11.EndOfMessage(),
            ):
                self.transport.write(self.conn.send(event))
            self.transport.close()

        def _arm(self) -> None:
            self.head_timer = self.loop.call_later(seconds, self._head_timeout)

        def _head_timeout(self) -> None:
            self.head_timer = None
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                self.transport.close()

    return HeadTimeoutH11Protocol


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    log_level: str = "info",
    max_body: int = MAX_BODY,
    body_timeout: float = BODY_TIMEOUT,
    head_timeout: float = HEAD_TIMEOUT,
    db_path: str | os.PathLike[str] | None = None,
) -> None:
    """Run the web calculator under uvicorn (``tenbou serve``) with the limits above; the score
    sheet's games are kept in ``db_path`` (:func:`~tenbou.web.store.default_db_path` by default)."""
    import uvicorn

    app = create_app(max_body=max_body, body_timeout=body_timeout, db_path=db_path)
    uvicorn.run(app, host=host, port=port, log_level=log_level, **server_options(head_timeout))
