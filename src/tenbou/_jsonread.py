"""The one strict JSON reader of tenbou: requests (:func:`tenbou.api.loads_request`, the web, the
CLI) and records (mjai lines, tenhou.net/6 logs, the rules of an mjlog) are read by
:func:`read_json`, with the same rules. Refused: bytes that are not UTF-8, text that is not JSON
(``NaN`` and ``Infinity`` included, which Python's own reader takes), a key given twice in one
object (neither value would be the right one to keep), an integer of more than
:data:`MAX_INT_DIGITS` digits, arrays and objects nested more than :data:`MAX_DEPTH` deep, a lone
surrogate escape (``"\\ud800"``: not Unicode text), an empty input. A request's refusal is a
:class:`~tenbou.errors.RequestError` worded for the request; a record's names its file and line
(``where``) and is the error its reader raises (:class:`~tenbou.errors.LogFormatError`).

>>> from tenbou.errors import LogFormatError
>>> read_json('{"actor": 3, "type": "dahai"}', LogFormatError, "game.mjson:7")
{'actor': 3, 'type': 'dahai'}
>>> read_json('{"actor": 3, "actor": 0}', LogFormatError, "game.mjson:7")
Traceback (most recent call last):
...
tenbou.errors.LogFormatError: game.mjson:7: the key 'actor' is given twice in one object
>>> read_json(b"NaN")
Traceback (most recent call last):
...
tenbou.errors.RequestError: NaN is not JSON (numbers are finite)
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

from .errors import RequestError, TenbouError, shown

__all__ = ["MAX_DEPTH", "MAX_INT_DIGITS", "read_json"]

#: how deeply arrays and objects may nest (a request of docs/json-api.md nests five deep at most,
#: a record's line four)
MAX_DEPTH: Final = 20
#: how many digits an integer may have
MAX_INT_DIGITS: Final = 20
_STRING: Final = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET: Final = re.compile(r"[^\[\]{}]+")


class _RefusedError(Exception):
    """What the decoder's hooks found, worded by :func:`read_json` for a request or a record."""


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen = set()
        for key, _ in pairs:
            if key in seen:
                raise _RefusedError(f"the key {shown(key)} is given twice in one object")
            seen.add(key)
    return obj


def _integer(text: str) -> int:
    if len(text) > MAX_INT_DIGITS + (text[0] == "-"):
        raise _RefusedError(f"an integer of {len(text.lstrip('-'))} digits (at most {MAX_INT_DIGITS})")
    return int(text)


def _constant(text: str) -> Any:
    raise _RefusedError(f"{text} is not JSON (numbers are finite)")


_DECODER: Final = json.JSONDecoder(object_pairs_hook=_object, parse_constant=_constant)
#: the same, counting each integer's digits: for a text holding a run of more digits than allowed
_COUNTING: Final = json.JSONDecoder(object_pairs_hook=_object, parse_int=_integer, parse_constant=_constant)
_LONG_RUN: Final = re.compile(rf"\d{{{MAX_INT_DIGITS + 1}}}")


def _too_deep(text: str) -> bool:
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return False  # the usual value: too few brackets to nest deeper
    depth = 0
    for c in _NOT_BRACKET.sub("", _STRING.sub("", text)):
        if c == "[" or c == "{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        else:
            depth -= 1
    return False


def _check_text(value: object) -> None:
    """Refuse a string with a lone surrogate (from a ``\\ud800`` escape): it is not Unicode text."""
    if type(value) is str:
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise _RefusedError(f"{shown(value)} is not Unicode text (a lone surrogate escape)") from None
    elif type(value) is list:
        for item in value:
            _check_text(item)
    elif type(value) is dict:
        for key, item in value.items():
            _check_text(key)
            _check_text(item)


def read_json(data: bytes | str, error: type[TenbouError] = RequestError, where: str | None = None) -> Any:
    """One JSON value, read strictly (the rules above). ``where`` (the file and line of a record)
    begins every message of ``error``; without it, the messages speak of "the request"."""
    if type(data) is str:
        text = data
    elif isinstance(data, bytes | bytearray | memoryview):
        raw = bytes(data)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            bad = f"{shown(raw[e.start : e.start + 4])} at byte {e.start}"
            raise _refusal(error, where, f"the request is not UTF-8: {bad}", f"not UTF-8: {bad}") from None
    elif isinstance(data, str):
        text = str(data)
    else:
        kind = type(data).__name__
        raise _refusal(
            error, where, f"a request is JSON text (bytes or str), not {kind}", f"not JSON text but {kind}"
        )
    try:
        value = (_COUNTING if _LONG_RUN.search(text) else _DECODER).decode(text)
    except _RefusedError as e:
        raise _refusal(error, where, str(e), str(e)) from None
    except json.JSONDecodeError as e:
        if not text.strip():
            raise _refusal(
                error,
                where,
                "the request is missing (empty input; a JSON object is required)",
                "empty (no JSON)",
            ) from None
        raise _refusal(
            error,
            where,
            f"the request is not valid JSON: {e.msg} at line {e.lineno} column {e.colno}",
            f"not JSON ({e.msg})",
        ) from None
    except RecursionError:
        value = None  # (refused below: nested too deep)
    if _too_deep(text):  # (after the decoder: the usual value has too few brackets to be counted)
        deep = f"nests arrays and objects more than {MAX_DEPTH} deep"
        raise _refusal(error, where, f"the request {deep}", deep)
    if "\\u" in text:
        try:
            _check_text(value)
        except _RefusedError as e:
            raise _refusal(error, where, str(e), str(e)) from None
    return value


def _refusal(error: type[TenbouError], where: str | None, request: str, record: str) -> TenbouError:
    """The error refusing a request (its own words) or a record's line (``where: ...``)."""
    return error(request if where is None else f"{where}: {record}")
