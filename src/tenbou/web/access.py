"""Who may do what on the web server: the rules of access, as plain data and pure functions (the
middleware that applies them is :class:`tenbou.web.guard.AccessGuard`).

Three kinds of people use a score sheet at a club:

- the **operator**, who runs ``tenbou serve``: the server's password (HTTP Basic with any user
  name, or ``Authorization: Bearer PASSWORD``) lets them do everything -- list, start, import and
  delete games, and change any of them;
- the **players** given a game's *edit link* (``/join/KEY``): they can record, edit and undo the
  hands of that game and end it;
- the **followers** given its *view link*: they can follow that game and export it.

A link's key reaches the server once, in the link's path; the server answers with a cookie for
that game (``HttpOnly``, ``SameSite=Lax``) and the page at ``/#game=ID``. Any credential (the
password or a game's key) lets its holder load the page and use the calculator
(``/api/score``, ``/api/settle``, ``/api/rules``).

On loopback with no password (``tenbou serve`` as it starts by default) the person at the machine
is the operator without being asked (:attr:`Access.open`). Bound beyond loopback the server needs
a password (:func:`Access.for_bind` refuses to go on without one), and every request without a
credential gets 401, whatever its source address.

Whatever the credentials, a request is refused when its ``Host`` is not one of the server's own
names (DNS rebinding: :func:`host_allowed`) or when the browser says it comes from another site
(:func:`cross_site`).

>>> access = Access.for_bind("127.0.0.1", None)
>>> access.open, host_allowed("localhost:8000", access), host_allowed("attacker.example", access)
(True, True, False)
>>> Access.for_bind("0.0.0.0", None)
Traceback (most recent call last):
...
tenbou.web.access.AccessError: --host 0.0.0.0 is reachable from other machines: it needs a password ...
>>> Grants(operator=False, games={"0123456789ab": "view"}).role("0123456789ab")
'view'
"""

from __future__ import annotations

import base64
import binascii
import hmac
import ipaddress
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import ClassVar, Final, Literal

from ..errors import TenbouError

__all__ = [
    "MIN_PASSWORD",
    "Access",
    "AccessError",
    "Credentials",
    "ForbiddenError",
    "Grants",
    "Role",
    "UnauthorizedError",
    "cross_site",
    "host_allowed",
    "is_loopback",
    "read_credentials",
]

Role = Literal["operator", "edit", "view"]
#: the fewest characters of the operator's password
MIN_PASSWORD: Final = 8
#: the most game keys read from one request's cookies
_MAX_COOKIE_KEYS: Final = 32
_COOKIE: Final = re.compile(r"tb_([0-9a-f]{12})")
_RANK: Final[dict[str, int]] = {"view": 1, "edit": 2, "operator": 3}


class AccessError(TenbouError):
    """A server that cannot be run as asked (bound beyond loopback without a password, a password
    too short)."""

    default_code: ClassVar[str] = "access"


class UnauthorizedError(TenbouError):
    """A request without a valid credential where one is needed (HTTP 401)."""

    default_code: ClassVar[str] = "unauthorized"


class ForbiddenError(TenbouError):
    """A request whose credentials do not give what it asks (HTTP 403), or that comes from another
    site or names a foreign host."""

    default_code: ClassVar[str] = "forbidden"


def is_loopback(host: str) -> bool:
    """Whether binding to ``host`` keeps the server to this machine.

    >>> is_loopback("127.0.0.1"), is_loopback("::1"), is_loopback("localhost"), is_loopback("0.0.0.0")
    (True, True, True, False)
    """
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True, slots=True)
class Access:
    """The server's rules of access: the operator's ``password`` (``None``: none set), whether
    every request is let in without one (``open``: loopback with no password), and the host
    names the server answers to besides ``localhost`` and IP addresses (``hosts``)."""

    password: str | None = None
    open: bool = True
    hosts: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        if self.password is not None and len(self.password) < MIN_PASSWORD:
            raise AccessError(f"the password must have at least {MIN_PASSWORD} characters")
        if not self.open and self.password is None:
            raise AccessError("a server that asks for credentials needs the operator's password")

    @classmethod
    def for_bind(cls, host: str, password: str | None, allow_hosts: Iterable[str] = ()) -> Access:
        """The access of a server bound to ``host``: on loopback, open unless a password is set;
        beyond loopback a password is required."""
        hosts = frozenset(h.lower().rstrip(".") for h in allow_hosts)
        if is_loopback(host):
            return cls(password, open=password is None, hosts=hosts)
        if password is None:
            raise AccessError(
                f"--host {host} is reachable from other machines: it needs a password for the operator "
                "(set TENBOU_PASSWORD, or --password-file FILE holding it on its first line; players "
                "then get a game's edit or view link from the operator)"
            )
        return cls(password, open=False, hosts=hosts)

    def is_password(self, candidate: str | None) -> bool:
        """Whether ``candidate`` is the operator's password (compared in constant time)."""
        if self.password is None or candidate is None:
            return False
        return hmac.compare_digest(candidate.encode("utf-8", "surrogatepass"), self.password.encode())


@dataclass(frozen=True, slots=True)
class Credentials:
    """What a request presents: a password candidate (Basic, or a Bearer token that may be the
    password), and game keys (a Bearer token, the ``tb_<game>`` cookies, the key of a ``/join``
    path): each key with the game it claims (``None`` when it claims none)."""

    password: str | None = None
    keys: tuple[tuple[str, str | None], ...] = ()
    #: an ``Authorization`` header was sent (whatever its scheme, whether it could be read)
    authorization: bool = False

    @property
    def given(self) -> bool:
        """Whether the request presents any credential (one that fails counts as a failure)."""
        return self.authorization or self.password is not None or bool(self.keys)


@dataclass(frozen=True, slots=True)
class Grants:
    """What a request may do: everything (``operator``), or the roles its keys give on games."""

    operator: bool = False
    games: Mapping[str, str] = field(default_factory=dict)

    @property
    def any(self) -> bool:
        """Whether the request holds any credential (the page and the calculator need one)."""
        return self.operator or bool(self.games)

    def role(self, game_id: str) -> Role | None:
        if self.operator:
            return "operator"
        role = self.games.get(game_id)
        return "edit" if role == "edit" else "view" if role == "view" else None

    def require(self, game_id: str, need: Role, what: str) -> Role:
        """The role on ``game_id``, or :class:`ForbiddenError` when it is less than ``need``."""
        role = self.role(game_id)
        if role is None or _RANK[role] < _RANK[need]:
            has = "no link to this game" if role is None else f"the game's {role} link"
            wants = {"operator": "the operator's password", "edit": "the game's edit link"}.get(
                need, "a link"
            )
            raise ForbiddenError(f"{what} needs {wants} (this request has {has})")
        return role


def read_credentials(headers: Iterable[tuple[bytes, bytes]], join_key: str | None = None) -> Credentials:
    """The credentials of a request's headers (``Authorization``, the ``tb_<game>`` cookies) and
    of a ``/join/KEY`` path.

    >>> read_credentials([(b"authorization", b"Basic " + base64.b64encode(b"op:secret99"))]).password
    'secret99'
    >>> read_credentials([(b"cookie", b"lang=ja; tb_0123456789ab=K1")]).keys
    (('K1', '0123456789ab'),)
    """
    password: str | None = None
    keys: list[tuple[str, str | None]] = []
    authorization = False
    if join_key is not None:
        keys.append((join_key, None))
    for name, value in headers:
        if name == b"authorization":
            authorization = True
            scheme, _, token = value.decode("latin-1").strip().partition(" ")
            token = token.strip()
            if scheme.lower() == "basic":
                try:
                    decoded = base64.b64decode(token, validate=True).decode("utf-8")
                except (binascii.Error, UnicodeDecodeError):
                    continue
                password = decoded.partition(":")[2]
            elif scheme.lower() == "bearer" and token:
                password = token  # the operator's password, or else a game's key
                keys.append((token, None))
        elif name == b"cookie":
            for part in value.decode("latin-1").split(";"):
                key, _, val = part.strip().partition("=")
                match = _COOKIE.fullmatch(key)
                if match and val and len(keys) < _MAX_COOKIE_KEYS:
                    keys.append((val, match.group(1)))
    return Credentials(password, tuple(keys), authorization)


def host_allowed(host: str | None, access: Access) -> bool:
    """Whether a request's ``Host`` names this server: an IP address (a browser sends one only
    to a server it was pointed at by address), ``localhost`` (and ``*.localhost``), or a name
    the operator allowed. Any other name is what a DNS-rebinding page sends.

    >>> a = Access(hosts=frozenset({"mahjong.club"}))
    >>> [host_allowed(h, a) for h in ("127.0.0.1:8000", "[::1]:80", "MAHJONG.club", "evil.example", None)]
    [True, True, True, False, False]
    """
    if not host:
        return False
    name = host.strip().lower()
    if name.startswith("["):
        name = name[1 : name.find("]")] if "]" in name else name
    elif name.count(":") == 1:
        name = name.partition(":")[0]
    name = name.rstrip(".")
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return name == "localhost" or name.endswith(".localhost") or name in access.hosts
    return True


def cross_site(method: str, path: str, headers: Mapping[str, str]) -> str | None:
    """Why a request is refused as coming from another site, or ``None``. ``Origin`` must be this
    server (the scheme and the request's own ``Host``); ``Sec-Fetch-Site`` must be
    ``same-origin`` or ``none`` (typed, bookmarked) -- except a plain navigation to a page
    (``GET`` of ``/`` or of a ``/join`` link from a message), which carries no data away and
    changes nothing.

    >>> cross_site("POST", "/api/games", {"host": "h:1", "origin": "http://evil.example"})
    "Origin 'http://evil.example' is another site"
    >>> cross_site("GET", "/", {"host": "h:1", "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate"})
    >>> cross_site("POST", "/api/score", {"host": "h:1", "sec-fetch-site": "cross-site"}) is not None
    True
    """
    origin = headers.get("origin")
    if origin is not None:
        host = headers.get("host", "").lower()
        if origin.lower() not in (f"http://{host}", f"https://{host}"):
            return f"Origin {origin[:80]!r} is another site"
    site = headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        navigation = (
            method in ("GET", "HEAD")
            and headers.get("sec-fetch-mode") == "navigate"
            and (path == "/" or path.startswith("/join/"))
        )
        if not navigation:
            return f"Sec-Fetch-Site {site[:20]!r}: the request comes from another site"
    return None
