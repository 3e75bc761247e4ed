"""The guard in front of every route (ASGI middleware, :class:`BodyGuard`): the security headers
on every response, and a request body read whole, within a size limit and a deadline, before the
app sees the request."""

import asyncio

from .responses import SECURITY_HEADERS, ASGIApp, Message, Receive, Scope, Send, error_body

__all__ = ["BODY_TIMEOUT", "MAX_BODY", "BodyGuard", "is_json"]

#: the largest request body read, in bytes (a settle of three wins is about 2 KB)
MAX_BODY = 64 * 1024
#: seconds a client has to send a request body, from the request's head
BODY_TIMEOUT = 10.0
#: after a 413, how much more of the body is read and dropped before the connection closes
_LINGER_BYTES = 8 * 1024 * 1024
_LINGER_SECONDS = 2.0


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
                headers.extend(h for h in SECURITY_HEADERS if h[0] not in names)
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
        body = error_body("request", message)
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


def is_json(content_type: str) -> bool:
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or (media.startswith("application/") and media.endswith("+json"))
