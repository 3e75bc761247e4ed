"""Errors raised by tenbou.

Every error tenbou raises on bad input is a :class:`TenbouError`, a
:class:`ValueError` with a short machine-readable ``code`` and a message that
quotes the offending field, tile or token. Nothing is silently corrected.

>>> from tenbou.core.tiles import parse_tiles
>>> try:
...     parse_tiles("1238z")
... except TenbouError as e:
...     print(e.code, "|", e)
notation | '8z' is not a tile (honours are 1z-7z) in '1238z'
"""

from __future__ import annotations

import reprlib
from typing import ClassVar

__all__ = [
    "IllegalEventError",
    "InvalidHandError",
    "LogFormatError",
    "NotationError",
    "RequestError",
    "RuleError",
    "TenbouError",
    "shown",
]


class TenbouError(ValueError):
    """Base class of every error tenbou raises on bad input.

    ``code`` is stable and machine-readable (it is the ``error.code`` of the
    JSON interface); the message is for people and names the bad field/tile.
    """

    default_code: ClassVar[str] = "error"

    def __init__(self, message: str, code: str | None = None) -> None:
        # (what ``super().__init__(message)`` does, without the call: compiled, ``super()`` and the
        # method it finds are generic look-ups, dearer than setting the arguments)
        self.args = (message,)
        self.code: str = code or self.default_code

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""

    def to_dict(self) -> dict[str, dict[str, str]]:
        """The JSON error object: ``{"error": {"code": ..., "message": ...}}``."""
        return {"error": {"code": self.code, "message": self.message}}


class NotationError(TenbouError):
    """Malformed tile, meld or hand notation (quotes the bad token)."""

    default_code: ClassVar[str] = "notation"


class InvalidHandError(TenbouError):
    """A hand that cannot be scored: not a winning shape, no yaku, or a
    contradictory situation (e.g. ippatsu without riichi).

    Codes: ``not_winning``, ``no_yaku``, ``contradiction``, ``impossible``.
    """

    default_code: ClassVar[str] = "invalid_hand"


class RuleError(TenbouError):
    """Unknown preset or option, or an option value out of range."""

    default_code: ClassVar[str] = "rule"


class RequestError(TenbouError):
    """A JSON request with a missing, unknown or ill-typed field."""

    default_code: ClassVar[str] = "request"


class IllegalEventError(TenbouError):
    """A game event that cannot happen in the current state."""

    default_code: ClassVar[str] = "illegal_event"


class LogFormatError(TenbouError):
    """A game record that cannot be read."""

    default_code: ClassVar[str] = "log_format"


_SHOWN = reprlib.Repr()
_SHOWN.maxlevel = 3
_SHOWN.maxstring = 60
_SHOWN.maxother = 60
_SHOWN.maxlong = 40
for _name in ("maxlist", "maxtuple", "maxdict", "maxset", "maxfrozenset"):
    setattr(_SHOWN, _name, 6)


def shown(value: object) -> str:
    """``repr(value)`` for an error message, cut short: long strings, numbers and lists are
    abbreviated and nesting is shown three levels deep, so a message stays short and its
    making never fails, whatever the input (a 5,000-digit integer, a list nested 100,000 deep).

    >>> shown("1m")
    "'1m'"
    >>> shown([[[[1]]]]), len(shown("x" * 10_000)) < 70
    ('[[[[...]]]]', True)
    >>> shown(10**5000)
    '<an integer of 5001 digits>'
    """
    if type(value) is int and value.bit_length() > 128:
        try:
            digits = len(str(abs(value)))
        except ValueError:  # more digits than int -> str allows (sys.set_int_max_str_digits)
            digits = int(value.bit_length() * 0.30103) + 1
        return f"<an integer of {digits} digits>"
    try:
        return _SHOWN.repr(value)
    except Exception:  # a user object whose repr fails
        return f"<{type(value).__name__}>"
