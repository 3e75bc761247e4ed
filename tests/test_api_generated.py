"""Generated bad requests through ``tenbou.api``: only ``TenbouError``, never another exception;
what is accepted keeps the documented ranges and conserves points; the strict JSON reader.

The fast suite runs a few hundred examples of each; ``--runslow`` runs thousands."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tenbou.api import MAX_DEPTH, MAX_INT_DIGITS, loads_request, score, settle
from tenbou.api.request import _FIELDS
from tenbou.errors import RequestError, RuleError, TenbouError
from tenbou.rules import OPTION_SPECS, rules_from_request

from .requestgen import (
    RANGES,
    bad_bodies,
    bad_score_requests,
    bad_settle_requests,
    json_values,
    rules_values,
    stick_points,
)

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=6000, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _refused_cleanly(error: TenbouError) -> None:
    body = error.to_dict()
    assert body["error"]["code"] == error.code and error.code
    assert body["error"]["message"] and len(body["error"]["message"]) < 2000
    json.dumps(body, ensure_ascii=False).encode("utf-8")  # the error object is JSON and UTF-8


def check_score(req: dict[str, Any]) -> None:
    try:
        out = score(req)
    except TenbouError as e:
        _refused_cleanly(e)
        return
    assert set(req) <= set(_FIELDS), "an unknown field was accepted"
    for field, (low, high) in RANGES.items():
        if field in req:
            assert type(req[field]) is int and low <= req[field] <= high, (field, req[field])
    json.dumps(out, allow_nan=False)
    assert sum(out["deltas"]) == req.get("riichi_sticks", 0) * stick_points(req)


def check_settle(req: dict[str, Any]) -> None:
    try:
        out = settle(req)
    except TenbouError as e:
        _refused_cleanly(e)
        return
    for field in ("honba", "riichi_sticks"):
        if field in req:
            low, high = RANGES[field]
            assert type(req[field]) is int and low <= req[field] <= high, (field, req[field])
    json.dumps(out, allow_nan=False)
    taken = req.get("riichi_sticks", 0) - out["next"]["riichi_sticks"]
    assert sum(out["deltas"]) == taken * stick_points(req)


@FAST
@given(bad_score_requests())
def test_score_raises_only_tenbou_errors(req: dict[str, Any]) -> None:
    check_score(req)


@FAST
@given(bad_settle_requests())
def test_settle_raises_only_tenbou_errors(req: dict[str, Any]) -> None:
    check_settle(req)


@pytest.mark.slow
@SLOW
@given(bad_score_requests())
def test_score_raises_only_tenbou_errors_long(req: dict[str, Any]) -> None:
    check_score(req)


@pytest.mark.slow
@SLOW
@given(bad_settle_requests())
def test_settle_raises_only_tenbou_errors_long(req: dict[str, Any]) -> None:
    check_settle(req)


@FAST
@given(rules_values())
def test_rule_overrides_raise_only_rule_errors(value: Any) -> None:
    try:
        rules = rules_from_request(value)
    except RuleError as e:
        _refused_cleanly(e)
        return
    # accepted: every integer option in its range, and the rules are a value (hashable, round trip)
    for name, spec in OPTION_SPECS.items():
        if spec.kind == "int":
            low, high = spec.bounds
            assert low <= getattr(rules, name) <= high, name
    assert type(rules).from_dict(rules.to_dict()) == rules and hash(rules) == hash(rules.replace())


# -- the strict JSON reader -------------------------------------------------------------------------


def _depth(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    return 0


def _max_digits(value: Any) -> int:
    if type(value) is int:
        return len(str(abs(value)))
    if isinstance(value, list):
        return max(map(_max_digits, value), default=0)
    if isinstance(value, dict):
        return max(map(_max_digits, value.values()), default=0)
    return 0


@FAST
@given(json_values)
def test_json_within_the_limits_reads_as_json_does(value: Any) -> None:
    text = json.dumps(value)
    try:
        json.dumps(value, allow_nan=False)
    except ValueError:  # Infinity is not JSON
        finite = False
    else:
        finite = True
    if finite and _depth(value) <= MAX_DEPTH and _max_digits(value) <= MAX_INT_DIGITS:
        assert loads_request(text) == json.loads(text) == loads_request(text.encode())
    else:
        with pytest.raises(RequestError):
            loads_request(text)


@FAST
@given(bad_bodies())
def test_the_reader_raises_only_request_errors(data: bytes) -> None:
    try:
        value = loads_request(data)
    except RequestError as e:
        _refused_cleanly(e)
        return
    # what it accepts is UTF-8 JSON within its limits, read as json reads it
    assert value == json.loads(data.decode("utf-8"))
    assert _depth(value) <= MAX_DEPTH and _max_digits(value) <= MAX_INT_DIGITS


@FAST
@given(
    st.dictionaries(
        st.sampled_from("abcdef"), st.one_of(st.integers(-9, 9), st.text(max_size=3)), min_size=1
    ),
    st.data(),
)
def test_a_key_twice_is_refused_at_any_depth(obj: dict[str, Any], data: st.DataObject) -> None:
    key = data.draw(st.sampled_from(sorted(obj)))
    inner = json.dumps(obj)
    doubled = inner[:-1] + f', "{key}": 1}}'
    wrapped = data.draw(st.sampled_from(("{}", '{{"rules": {}}}', "[{}]", '{{"wins": [0, {}]}}')))
    with pytest.raises(RequestError, match=f"the key '{key}' is given twice in one object"):
        loads_request(wrapped.format(doubled))


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"\xff{}", "not UTF-8"),
        (b'{"hand": "23m\xed\xa0\x80"}', "not UTF-8"),
        (b'{"honba": ' + b"1" * 5000 + b"}", "an integer of 5000 digits"),
        (b"[" * 100_000 + b"]" * 100_000, "more than 20 deep"),
        (b'{"riichi": true, "riichi": false}', "the key 'riichi' is given twice"),
        (b'{"honba": NaN}', "NaN is not JSON"),
        (b'{"honba": -Infinity}', "-Infinity is not JSON"),
        (b'{"hand": "\\ud800"}', "not Unicode text"),
        (b"", "missing"),
        (b"{", "not valid JSON"),
        (b"{} {}", "not valid JSON: Extra data"),
    ],
)
def test_the_reader_refuses(data: bytes, words: str) -> None:
    with pytest.raises(RequestError) as e:
        loads_request(data)
    assert words in str(e.value) and e.value.code == "request"


def test_the_reader_keeps_what_is_fine() -> None:
    assert loads_request(b'{"a": "\\ud83c\\udc04", "b": [' + b"[" * 18 + b"]" * 18 + b"]}")["a"] == "🀄"
    assert loads_request("-" + "9" * MAX_INT_DIGITS) == -int("9" * MAX_INT_DIGITS)
    assert loads_request(' {"x": "[[[[[[[[[[[[[[[[[[[[[[[[["} ') == {"x": "[" * 25}
    # (compiled, the annotation refuses it first: a TypeError)
    with pytest.raises((RequestError, TypeError), match=r"bytes or str|union\[bytes, str\] object expected"):
        loads_request(3)  # type: ignore[arg-type]
