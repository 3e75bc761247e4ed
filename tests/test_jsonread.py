"""The one strict JSON reader (``tenbou._jsonread``): requests and records are read by the same
rules, and nothing but the caller's TenbouError ever comes out of it."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tenbou._jsonread import MAX_DEPTH, read_json
from tenbou.api import loads_request
from tenbou.engine.events import events_from_lines
from tenbou.errors import LogFormatError, RequestError
from tenbou.io.mjai import read_json as mjai_read_json

REFUSED = [
    ('{"actor": 3, "actor": 0}', "the key 'actor' is given twice in one object"),
    ("[NaN]", "NaN is not JSON (numbers are finite)"),
    ("[1e400, Infinity]", "Infinity is not JSON (numbers are finite)"),
    ("[123456789012345678901]", "an integer of 21 digits (at most 20)"),
    ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), f"nests arrays and objects more than {MAX_DEPTH} deep"),
    ('["\\ud800"]', "is not Unicode text (a lone surrogate escape)"),
    ("{", "not JSON"),
    ("   ", "empty"),
]


@pytest.mark.parametrize("text, words", REFUSED)
def test_requests_and_records_are_refused_alike(text: str, words: str) -> None:
    with pytest.raises(RequestError) as request:
        loads_request(text)
    with pytest.raises(LogFormatError) as record:
        mjai_read_json(text, "game.mjson:7")
    with pytest.raises(LogFormatError) as line:
        events_from_lines(["", text], "game.mjson") if text.strip() else read_json(
            text, LogFormatError, "game.mjson:2"
        )
    assert str(record.value).startswith("game.mjson:7: ") and str(line.value).startswith("game.mjson:2: ")
    for e in (request.value, record.value, line.value):
        assert (
            words in str(e)
            or (words == "not JSON" and "not valid JSON" in str(e))
            or (words == "empty" and "missing" in str(e))
        ), str(e)


@settings(max_examples=300, deadline=None)
@given(data=st.one_of(st.binary(max_size=60), st.text(max_size=60)))
def test_anything_is_a_value_or_the_callers_error(data: bytes | str) -> None:
    for error in (RequestError, LogFormatError):
        try:
            value = read_json(data, error, None if error is RequestError else "x:1")
        except error:
            continue
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        assert value == json.loads(text)  # what it reads, it reads as JSON does


@settings(max_examples=200, deadline=None)
@given(
    value=st.recursive(
        st.none() | st.booleans() | st.integers(-(10**19), 10**19) | st.text(max_size=5),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
        max_leaves=12,
    )
)
def test_json_it_writes_it_reads_back(value: object) -> None:
    assert read_json(json.dumps(value)) == value
    assert read_json(json.dumps(value, ensure_ascii=False).encode()) == value
