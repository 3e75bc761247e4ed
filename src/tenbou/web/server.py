"""Running the app (``tenbou serve``): uvicorn with a deadline for each request's head, keep-alive,
a limit of concurrent connections in all and per client (:func:`server_options`), the rules of
access of the address it is bound to (:meth:`~tenbou.web.access.Access.for_bind`), and its
database and port checked before it starts (:func:`serve`)."""

import asyncio
import errno
import logging
import re
import socket
from typing import Any, ClassVar, Final

from ..errors import TenbouError
from .responses import SECURITY_HEADERS, error_body

__all__ = [
    "HEAD_TIMEOUT",
    "PER_CLIENT",
    "ServeError",
    "bind",
    "check_tls",
    "head_timeout_protocol",
    "own_names",
    "redact_links",
    "server_options",
]

#: seconds a client has to send a request's head (request line and headers), from its connection
#: or its first byte after a response (:func:`serve`)
HEAD_TIMEOUT = 10.0
#: the most connections one client (an address) holds at a time; a browser opens at most six
PER_CLIENT: Final = 64
_JOIN: Final = re.compile(r"/join/[^/?#\s]*")


class ServeError(TenbouError):
    """A server that cannot start: a port out of range or in use, an address that is not this
    machine's."""

    default_code: ClassVar[str] = "serve"


def server_options(head_timeout: float = HEAD_TIMEOUT, per_client: int = PER_CLIENT) -> dict[str, Any]:
    """The uvicorn settings of :func:`serve`: the HTTP/1.1 protocol with a deadline for each
    request's head and at most ``per_client`` connections from one address
    (:func:`head_timeout_protocol`), 5 s keep-alive, at most 1,000 connections at a time (uvicorn
    answers more with a plain 503), headers of at most 16 KiB, and no server header."""
    return {
        "http": head_timeout_protocol(head_timeout, per_client),
        "timeout_keep_alive": 5,
        "limit_concurrency": 1000,
        "h11_max_incomplete_event_size": 16 * 1024,
        "timeout_graceful_shutdown": 5,
        "server_header": False,
    }


def head_timeout_protocol(seconds: float = HEAD_TIMEOUT, per_client: int = PER_CLIENT) -> type:
    """uvicorn's h11 protocol with a deadline for each request's head: a client that has not sent
    its request line and headers within ``seconds`` of connecting (or of its first byte after a
    response) is disconnected. (uvicorn itself times out only idle keep-alive connections, and
    any byte stops that clock.) A client that already holds ``per_client`` connections gets 503
    on a new one, which is closed: one client cannot take the connections the others need. A
    request uvicorn cannot parse is answered 400 with the error object and the security
    headers."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    held: dict[str, int] = {}  # connections open per client address (this server's event loop)

    class HeadTimeoutH11Protocol(H11Protocol):
        head_timer: asyncio.TimerHandle | None = None
        peer: str | None = None

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)  # type: ignore[arg-type]
            peer = transport.get_extra_info("peername")
            self.peer = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
            held[self.peer] = held.get(self.peer, 0) + 1
            if held[self.peer] > per_client:
                self._answer(503, f"this client holds {per_client} connections already: close some")
                return
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
            if self.peer is not None:
                left = held.pop(self.peer, 1) - 1
                if left > 0:
                    held[self.peer] = left
                self.peer = None
            super().connection_lost(exc)

        def send_400_response(self, msg: str) -> None:
            # uvicorn's answer to a request it cannot parse, as every other answer: the error
            # object and the security headers
            self._answer(400, f"not an HTTP/1.1 request ({msg.rstrip('.')})")

        def _answer(self, status: int, message: str) -> None:
            body = error_body("request", message)
            headers = [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
                *SECURITY_HEADERS,
            ]
            for event in (
                h11.Response(status_code=status, headers=headers),
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


def own_names() -> set[str]:
    """This machine's names, which a server bound beyond loopback answers to (besides
    ``localhost``, IP addresses and the names the operator allows): its host name, its fully
    qualified name and its ``.local`` name (mDNS)."""
    names = {socket.gethostname(), socket.getfqdn()}
    names |= {f"{n.split('.')[0]}.local" for n in list(names)}
    return {n.lower().rstrip(".") for n in names if n and n != "localhost"}


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (port 0: any free port), or :class:`ServeError` saying
    why not -- before the app starts, so that a port in use is one line, not a traceback."""
    if not 0 <= port <= 65535:
        raise ServeError(f"--port {port}: a port is a number from 1 to 65535 (0: any free port)")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as e:
        raise ServeError(f"--host {host}: not an address of this machine ({e.strerror})") from None
    except UnicodeError:
        raise ServeError(f"--host {host}: not a host name or address") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.bind(address)
        sock.listen(2048)
    except OSError as e:
        sock.close()
        if e.errno == errno.EADDRINUSE:
            raise ServeError(
                f"--port {port}: in use on {host} (another server is there; pick another port)"
            ) from None
        if e.errno == errno.EACCES:
            raise ServeError(
                f"--port {port}: not allowed for this user (ports below 1024 need root)"
            ) from None
        if e.errno == errno.EADDRNOTAVAIL:
            raise ServeError(f"--host {host}: not an address of this machine") from None
        raise ServeError(f"--host {host} --port {port}: cannot listen ({e.strerror})") from None
    sock.set_inheritable(True)
    return sock


class _RedactLinks(logging.Filter):
    """Keeps the keys of game links (``/join/KEY``) out of the access log (:func:`redact_links`)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(_JOIN.sub("/join/…", a) if isinstance(a, str) else a for a in record.args)
        return True


def redact_links() -> None:
    """Keep the keys of game links (``/join/KEY``) out of uvicorn's access log."""
    log = logging.getLogger("uvicorn.access")
    if not any(isinstance(f, _RedactLinks) for f in log.filters):
        log.addFilter(_RedactLinks())


def check_tls(certfile: str | None, keyfile: str | None) -> None:
    """Refuse (:class:`ServeError`) a certificate or key that cannot be used for HTTPS."""
    import ssl

    if certfile is None:
        raise ServeError("--keyfile needs --certfile (the certificate it is the key of)")
    try:
        ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(certfile, keyfile)
    except (OSError, ssl.SSLError) as e:
        why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        raise ServeError(f"--certfile {certfile}: cannot be used ({why})") from None
