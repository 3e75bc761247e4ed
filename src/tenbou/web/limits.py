"""Limits per client: token buckets (:class:`RateLimiter`) for what one client may ask in a while
-- new games and imports, failed credentials -- so that one client cannot fill the database or
guess a password, whatever the others do. A client is its address (behind a reverse proxy every
client has the proxy's: put the limits there).

>>> limiter = RateLimiter(burst=2, per_second=1.0)
>>> [limiter.take("10.0.0.7", now=100.0) for _ in range(3)]
[0.0, 0.0, 1.0]
>>> limiter.take("10.0.0.7", now=101.0), limiter.take("10.0.0.8", now=101.0)
(0.0, 0.0)
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import ClassVar, Final

from ..errors import TenbouError

__all__ = ["RateLimitedError", "RateLimiter"]

#: the most clients remembered by a limiter (the least recently seen are forgotten first)
_CLIENTS: Final = 10_000


class RateLimitedError(TenbouError):
    """A request over its client's limit (HTTP 429, with ``Retry-After``)."""

    default_code: ClassVar[str] = "rate_limited"

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class RateLimiter:
    """``burst`` requests at once per client, then one every ``1 / per_second`` seconds."""

    def __init__(self, burst: int, per_second: float, clients: int = _CLIENTS) -> None:
        if burst < 1 or per_second <= 0:
            raise ValueError("a rate limit needs a burst of at least 1 and a positive rate")
        self.burst = burst
        self.per_second = per_second
        self.clients = clients
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, client: str, now: float | None = None, *, peek: bool = False) -> float:
        """Take one request from ``client``'s bucket: 0.0 when it may go on, else the seconds
        until it may (nothing taken). With ``peek``, only say so (nothing taken either way)."""
        t = time.monotonic() if now is None else now
        with self._lock:
            tokens, last = self._buckets.pop(client, (float(self.burst), t))
            tokens = min(float(self.burst), tokens + (t - last) * self.per_second)
            wait = 0.0
            if tokens >= 1.0:
                tokens -= 0.0 if peek else 1.0
            else:
                wait = (1.0 - tokens) / self.per_second
            self._buckets[client] = (tokens, t)
            while len(self._buckets) > self.clients:
                self._buckets.popitem(last=False)
            return wait
