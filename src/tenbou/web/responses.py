"""The answers every route shares: the error object (``{"error": {"code", "message"}}``), JSON
bodies (UTF-8 as it is), the security headers sent with every response, and the ASGI types of the
middleware. FastAPI is imported inside the functions that build its responses."""

import json
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from typing import Any

__all__ = [
    "HTTP_CODES",
    "SECURITY_HEADERS",
    "ASGIApp",
    "Message",
    "Receive",
    "Scope",
    "Send",
    "error_body",
    "error_response",
    "json_bytes",
    "json_response",
    "validation_message",
]

HTTP_CODES = {404: "not_found", 405: "method_not_allowed"}
#: the page loads nothing from anywhere else
_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
#: the headers of every response, errors and 404s included
SECURITY_HEADERS = (
    (b"x-content-type-options", b"nosniff"),
    (b"content-security-policy", _CSP.encode()),
    # (a game's link carries its key: no page of another site learns it from a Referer)
    (b"referrer-policy", b"no-referrer"),
)

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


def error_body(code: str, message: str) -> bytes:
    return json.dumps({"error": {"code": code, "message": message}}, ensure_ascii=False).encode(
        "utf-8", "backslashreplace"
    )


def error_response(status: int, code: str, message: str, headers: Mapping[str, str] | None = None) -> Any:
    from fastapi.responses import Response

    sent = {k.decode(): v.decode() for k, v in SECURITY_HEADERS}
    sent.update(headers or {})
    return Response(
        error_body(code, message), status_code=status, media_type="application/json", headers=sent
    )


def json_bytes(content: object) -> bytes:
    """JSON, UTF-8 as it is (a string that is not Unicode text is escaped, never a 500)."""
    body = json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return body.encode("utf-8", "backslashreplace")


def json_response(content: object) -> Any:
    """A JSON response (:func:`json_bytes`)."""
    from fastapi.responses import Response

    return Response(json_bytes(content), media_type="application/json")
