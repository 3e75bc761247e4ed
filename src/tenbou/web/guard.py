"""The guard in front of every route (ASGI middleware, :class:`BodyGuard`): the security headers
on every response; who may come in (:mod:`tenbou.web.access`: the ``Host``, the site a browser
says the request comes from, the credentials, failed ones limited per client); and a request body
read whole, within a size limit and a deadline, before the app sees the request."""

import asyncio
from collections.abc import Callable, Iterable, Mapping

from .access import Access, Grants, Role, cross_site, host_allowed, read_credentials
from .limits import RateLimiter
from .responses import SECURITY_HEADERS, ASGIApp, Message, Receive, Scope, Send, error_body

__all__ = ["BODY_TIMEOUT", "MAX_BODY", "MAX_IMPORT", "BodyGuard", "KeyResolver", "is_json"]

#: the largest request body read, in bytes (a settle of three wins is about 2 KB)
MAX_BODY = 64 * 1024
#: the largest game imported (``POST /api/games/import``), in bytes: a game exported at the most
#: hands a game has (:data:`tenbou.web.sheet.MAX_HANDS`), each a triple ron, is about 1 MB
MAX_IMPORT = 4 * 1024 * 1024
#: seconds a client has to send a request body, from the request's head
BODY_TIMEOUT = 10.0
#: failed credentials: 10 at once per client, then one every 6 seconds (else 429)
FAILED_LOGINS = (10, 1 / 6)
#: after a 413, how much more of the body is read and dropped before the connection closes
_LINGER_BYTES = 8 * 1024 * 1024
_LINGER_SECONDS = 2.0

#: the game and the role each of a request's keys gives (those that give one): a read of the
#: games' database, run in a worker thread
KeyResolver = Callable[[Iterable[str]], Mapping[str, tuple[str, str]]]


class BodyGuard:
    """ASGI middleware in front of every route.

    - Every response gets the security headers (``nosniff``, the CSP, no referrer).
    - With ``access``: a request whose ``Host`` is not the server's is refused (400 ``host``), one
      that a browser says comes from another site 403 (``forbidden``); its credentials are read
      (the operator's password; game keys, whose games and roles ``resolve`` looks up) into the
      :class:`~tenbou.web.access.Grants` the routes find in ``scope["state"]["grants"]``; without
      any, where the server is not open, it is refused (401 ``unauthorized``). A client whose
      credentials failed too often is refused for a while (429).
    - A request body is read here, whole, before the app sees the request -- at most
      ``max_body`` bytes (or ``limits[path]``; 413 at once when Content-Length says more, or as
      soon as more arrives) within ``body_timeout`` seconds (408 otherwise); both close the
      connection. So no body larger than the limit is ever held in memory, and a slow client
      holds its connection for a bounded time."""

    def __init__(
        self,
        app: ASGIApp,
        max_body: int = MAX_BODY,
        body_timeout: float = BODY_TIMEOUT,
        *,
        limits: Mapping[str, int] | None = None,
        access: Access | None = None,
        resolve: KeyResolver | None = None,
        failures: RateLimiter | None = None,
    ) -> None:
        self.app = app
        self.max_body = max_body
        self.body_timeout = body_timeout
        self.limits = dict(limits or {})
        self.access = access
        self.resolve = resolve
        self.failures = failures or RateLimiter(*FAILED_LOGINS)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                names = {name.lower() for name, _ in headers}
                headers.extend(h for h in SECURITY_HEADERS if h[0] not in names)
                message["headers"] = headers
            await send(message)

        if self.access is not None:
            refusal = await self._admit(scope, self.access)
            if refusal is not None:
                status, code, message, extra = refusal
                await self._refuse(send_with_headers, status, message, code=code, headers=extra)
                return
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

    async def _admit(
        self, scope: Scope, access: Access
    ) -> tuple[int, str, str, tuple[tuple[bytes, bytes], ...]] | None:
        """Why the request may not come in (status, code, message, headers), or ``None``; where
        it may, its grants are put in ``scope["state"]["grants"]``."""
        raw = scope.get("headers", ())
        headers = {name.decode("latin-1"): value.decode("latin-1") for name, value in raw}
        host = headers.get("host")
        if not host_allowed(host, access):
            shown = "no Host" if host is None else f"Host {host[:80]!r}"
            return (
                400,
                "host",
                f"{shown} is not a name of this server (the operator may allow it: tenbou serve "
                "--allow-host NAME)",
                (),
            )
        path: str = scope.get("path", "")
        why = cross_site(scope.get("method", "GET"), path, headers)
        if why is not None:
            return 403, "forbidden", f"refused: {why}", ()
        join = path[len("/join/") :] if path.startswith("/join/") else None
        credentials = read_credentials(raw, join)
        client = (scope.get("client") or ("?", 0))[0]
        if credentials.given and not access.open and self.failures.take(client, peek=True) > 0:
            return 429, "rate_limited", "too many failed credentials from this client: wait a minute", ()
        grants = Grants(operator=access.open or access.is_password(credentials.password))
        if not grants.operator and credentials.keys and self.resolve is not None:
            found = await asyncio.to_thread(self.resolve, [key for key, _ in credentials.keys])
            games: dict[str, Role] = {}
            for key, claimed in credentials.keys:
                game, role = found.get(key, (None, None))
                if game is not None and claimed in (None, game) and role in ("view", "edit"):
                    games[game] = "edit" if role == "edit" or games.get(game) == "edit" else "view"
            grants = Grants(games=games)
        if not grants.any:
            if credentials.given:
                self.failures.take(client)  # (a failure: the next ones wait, past the burst)
            navigate = headers.get("sec-fetch-mode") == "navigate" or "text/html" in headers.get("accept", "")
            challenge = b'Basic realm="tenbou", charset="UTF-8"' if navigate else b'Bearer realm="tenbou"'
            message = (
                "the password or the link's key is not right (the game may have been deleted, or its "
                "links renewed)"
                if credentials.given
                else "this server asks who you are: the operator's password, or a game's link"
            )
            return 401, "unauthorized", message, ((b"www-authenticate", challenge),)
        scope.setdefault("state", {})["grants"] = grants
        return None

    async def _read_body(self, scope: Scope, receive: Receive, send: Send) -> bytes | None:
        limit = self.limits.get(scope.get("path", ""), self.max_body)
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and (len(value) > 18 or int(value) > limit):
                # (uvicorn has refused a Content-Length that is not digits)
                await self._refuse(
                    send, 413, f"the request body is larger than {limit} bytes", (scope, receive)
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
            if size > limit:
                await self._refuse(
                    send, 413, f"the request body is larger than {limit} bytes", (scope, receive)
                )
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    async def _refuse(
        self,
        send: Send,
        status: int,
        message: str,
        drain: tuple[Scope, Receive] | None = None,
        *,
        code: str = "request",
        headers: tuple[tuple[bytes, bytes], ...] = (),
    ) -> None:
        """Answer with the error object and close. With ``drain``, the rest of the body is read
        and dropped for a moment (at most ``_LINGER_BYTES`` or ``_LINGER_SECONDS``) before the
        connection closes, so that a client still sending reads the answer instead of a reset."""
        body = error_body(code, message)
        head = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
            *headers,
        ]
        await send({"type": "http.response.start", "status": status, "headers": head})
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


def is_json(content_type: str) -> bool:
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or (media.startswith("application/") and media.endswith("+json"))
