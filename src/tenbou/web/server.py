"""Running the app (``tenbou serve``): uvicorn with a deadline for each request's head, keep-alive
and a limit of concurrent connections (:func:`server_options`)."""

import asyncio
import os
from typing import Any

from .guard import BODY_TIMEOUT, MAX_BODY
from .responses import SECURITY_HEADERS, error_body

__all__ = ["HEAD_TIMEOUT", "head_timeout_protocol", "serve", "server_options"]

#: seconds a client has to send a request's head (request line and headers), from its connection
#: or its first byte after a response (:func:`serve`)
HEAD_TIMEOUT = 10.0


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
            body = error_body("request", f"not an HTTP/1.1 request ({msg.rstrip('.')})")
            headers = [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
                *SECURITY_HEADERS,
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

    from .app import create_app

    app = create_app(max_body=max_body, body_timeout=body_timeout, db_path=db_path)
    uvicorn.run(app, host=host, port=port, log_level=log_level, **server_options(head_timeout))
