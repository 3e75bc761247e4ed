"""Generated requests for the JSON API: valid ones mutated into bad ones, field by field.

Each strategy starts from requests the API accepts (a pinfu ron, the seeds' daisangen pao, a
three-player tsumo with kita, a double ron, draws) and changes one to three things: a field set
to an odd JSON value or to a value just outside its range, a field dropped, a meld, a pao entry,
a win or the draw bent, or rule overrides with odd items and integers around their bounds. The
tests of ``test_api_generated.py`` and ``test_web_api.py`` feed them to ``tenbou.api`` and to the
web app: only :class:`~tenbou.errors.TenbouError` (HTTP 422), never another exception (500).
"""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import strategies as st

from tenbou.api import MAX_DEPTH
from tenbou.api.request import _FIELDS
from tenbou.rules import OPTION_SPECS, PAO_YAKU, YAKUMAN_IDS, get_rules, preset_ids

DAISANGEN: dict[str, Any] = {
    "rules": "tenhou", "dealer": 0, "round_wind": "E", "winner": 1, "from": 2,
    "hand": "23m55p", "win_tile": "4m",
    "melds": [{"type": "pon", "tiles": "555z", "from": 2}, {"type": "pon", "tiles": "666z", "from": 0},
              {"type": "pon", "tiles": "777z", "from": 3}],
}  # fmt: skip
PINFU: dict[str, Any] = {
    "winner": 1, "from": 2, "hand": "123m456p789s23s55s", "win_tile": "4s", "riichi": True,
    "dora_indicators": ["1p"], "ura_indicators": ["9m"], "honba": 1, "riichi_sticks": 1,
}  # fmt: skip
SANMA_KITA: dict[str, Any] = {
    "rules": "tenhou", "players": 3, "dealer": 0, "winner": 1, "hand": "111m123p789s23s55s",
    "win_tile": "4s", "riichi": True, "kita": 2, "dora_indicators": ["3z"],
}  # fmt: skip
WAREME: dict[str, Any] = {**DAISANGEN, "rules": "hangame4", "honba": 1, "wareme": 3, "from": None}
SCORES = (DAISANGEN, PINFU, SANMA_KITA, WAREME)

_WIN = {k: v for k, v in DAISANGEN.items() if k not in ("rules", "dealer", "round_wind")}
_PINFU_WIN = {k: v for k, v in PINFU.items() if k not in ("honba", "riichi_sticks")}
SETTLES: tuple[dict[str, Any], ...] = (
    {"rules": "tenhou", "dealer": 0, "honba": 1, "riichi_sticks": 1,
     "wins": [_WIN, {**_PINFU_WIN, "winner": 3}]},
    {"rules": "mahjongsoul", "dealer": 0, "wins": [_WIN, {**_PINFU_WIN, "winner": 3}]},
    {"rules": "tenhou", "dealer": 1, "honba": 2,
     "draw": {"kind": "exhaustive", "tenpai": [0, 2], "nagashi": []}},
    {"rules": "tenhou", "draw": {"kind": "abortive", "reason": "suufon_renda"}},
    {"rules": "hangame4", "wareme": 2, "wins": [{**_PINFU_WIN, "winner": 1}]},
)  # fmt: skip

#: the numbers of a request and their ranges (docs/json-api.md, "Numbers"); seats are 0..players-1
RANGES = {"honba": (0, 999), "riichi_sticks": (0, 999), "kita": (0, 4)}

_BIG = (10**30, 10**100, -(10**30), 2**63, -(2**63) - 1, 10**9, 1000, 999, -1, 4, 5)
_TEXT = ("", "1m", "0p", "8z", "5z", "E", "X", "tenhou", "pon", "ankan", "kokushi", "daisangen", "\x00", "字")


def _leaves() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-5, 10),
        st.sampled_from(_BIG),
        st.floats(allow_nan=False),
        st.sampled_from(_TEXT),
        st.text(max_size=6),
    )


#: any JSON value (nested a little)
json_values: st.SearchStrategy[Any] = st.recursive(
    _leaves(),
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(
            st.one_of(
                st.sampled_from(("yaku", "seat", "type", "tiles", "from", "kind")), st.text(max_size=5)
            ),
            children,
            max_size=4,
        ),
    ),
    max_leaves=8,
)


def _near(low: int, high: int) -> st.SearchStrategy[int]:
    """Integers at and around a range's ends (and far outside it)."""
    return st.sampled_from((low - 1, low, high, high + 1, 10**30, -(10**30)))


def _option_value(name: str) -> st.SearchStrategy[Any]:
    """A value for a rule option: usually odd for its kind, sometimes fine."""
    spec = OPTION_SPECS[name]
    low, high = spec.bounds
    items = st.one_of(st.sampled_from(spec.choices or (0,)), json_values)
    odd_items = st.sampled_from(([], {}, ["x"], [[]], None, 1.5, True))
    typed: st.SearchStrategy[Any]
    if spec.kind in ("yaku_set", "name_set"):
        typed = st.lists(st.one_of(st.sampled_from(spec.choices), odd_items, json_values), max_size=4)
    elif spec.kind == "int":
        typed = st.one_of(_near(low, high), st.sampled_from(spec.choices or (low,)))
    elif spec.kind == "int_list":
        typed = st.lists(
            st.one_of(_near(low, high), st.integers(-30, 30), json_values), min_size=2, max_size=5
        )
    elif spec.kind == "int_tuple":
        typed = st.lists(st.one_of(st.sampled_from((3, 4, 2, 5)), json_values), max_size=3)
    elif spec.kind == "chip_table":
        typed = st.dictionaries(
            st.one_of(st.sampled_from(spec.choices), st.text(max_size=4)),
            st.one_of(_near(low, high), json_values),
            max_size=3,
        )
    else:
        typed = items
    return st.one_of(typed, json_values)


@st.composite
def rules_values(draw: st.DrawFn) -> Any:
    """The ``rules`` field: a preset id (or not), or a preset with overrides (odd ones)."""
    if draw(st.integers(0, 3)):
        preset = draw(st.sampled_from(preset_ids()))
    else:
        preset = draw(st.one_of(st.sampled_from(("tenho", "", "x" * 300, "TENHOU.NET")), json_values))
    if draw(st.integers(0, 3)) == 0:
        return preset
    overrides: dict[str, Any] = {}
    for _ in range(draw(st.integers(0, 2))):
        name = draw(st.sampled_from(sorted(OPTION_SPECS)) if draw(st.integers(0, 5)) else st.text(max_size=8))
        overrides[name] = draw(_option_value(name)) if name in OPTION_SPECS else draw(json_values)
    value: dict[str, Any] = {"preset": preset, "overrides": overrides}
    if draw(st.integers(0, 5)) == 0:
        value[draw(st.sampled_from(("overide", "preset", "overrides")))] = draw(json_values)
    return value


def _field_value(field: str) -> st.SearchStrategy[Any]:
    if field in RANGES:
        return st.one_of(_near(*RANGES[field]), json_values)
    if field in ("players", "dealer", "winner", "from", "wareme", "rinshan_kan_from"):
        return st.one_of(st.sampled_from((-1, 0, 1, 2, 3, 4, 5, 10**30, None)), json_values)
    if field == "rules":
        return rules_values()
    if field == "melds":
        return st.lists(melds(), max_size=6)
    if field == "pao":
        return st.lists(pao_items(), max_size=3)
    if field == "kan_order":
        return st.one_of(st.lists(st.integers(-1, 5), max_size=5), json_values)
    if field in ("dora_indicators", "ura_indicators"):
        return st.one_of(st.lists(st.one_of(st.sampled_from(_TEXT), json_values), max_size=7), json_values)
    return json_values


@st.composite
def melds(draw: st.DrawFn) -> Any:
    meld: dict[str, Any] = dict(
        draw(st.sampled_from(DAISANGEN["melds"] + [{"type": "ankan", "tiles": "1111s"}]))
    )
    key = draw(st.sampled_from(("type", "tiles", "from", "called", "x")))
    if draw(st.booleans()):
        meld[key] = draw(json_values)
    elif key in meld:
        del meld[key]
    return meld if draw(st.integers(0, 9)) else draw(json_values)


@st.composite
def pao_items(draw: st.DrawFn) -> Any:
    item = {
        "yaku": draw(st.one_of(st.sampled_from(PAO_YAKU + YAKUMAN_IDS[:3]), json_values)),
        "seat": draw(st.one_of(st.integers(-1, 5), json_values)),
    }
    if draw(st.integers(0, 4)) == 0:
        item[draw(st.sampled_from(("rule", "yaku", "x")))] = draw(json_values)
    return item


def _mutate_win(draw: st.DrawFn, req: dict[str, Any], fields: tuple[str, ...]) -> None:
    key = draw(st.one_of(st.sampled_from(fields), st.text(min_size=1, max_size=6)))
    action = draw(st.integers(0, 5))
    if action == 5:  # rule overrides: often enough to try every option's odd values
        key = "rules"
    if action == 0 and key in req:
        del req[key]
    elif action == 1 and req.get("melds"):
        i = draw(st.integers(0, len(req["melds"]) - 1))
        req["melds"][i] = draw(melds())
    elif action == 2:
        req["pao"] = draw(st.lists(pao_items(), max_size=3))
        if req["pao"] and draw(st.booleans()):
            req["pao"].append(dict(req["pao"][0]))  # the same entry twice
    else:
        req[key] = draw(_field_value(key))


@st.composite
def bad_score_requests(draw: st.DrawFn) -> dict[str, Any]:
    """A score request with one to three changes."""
    req = copy.deepcopy(draw(st.sampled_from(SCORES)))
    for _ in range(draw(st.integers(1, 3))):
        _mutate_win(draw, req, _FIELDS)
    return req


_SETTLE_FIELDS = (
    "rules",
    "players",
    "dealer",
    "round_wind",
    "honba",
    "riichi_sticks",
    "wareme",
    "wins",
    "draw",
)


@st.composite
def bad_settle_requests(draw: st.DrawFn) -> dict[str, Any]:
    """A settle request with one to three changes: a top field, a win, or the draw."""
    req = copy.deepcopy(draw(st.sampled_from(SETTLES)))
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.integers(0, 3))
        if where == 0 or ("wins" not in req and "draw" not in req):
            key = draw(st.one_of(st.sampled_from(_SETTLE_FIELDS), st.text(min_size=1, max_size=6)))
            if draw(st.integers(0, 3)) == 0:
                req.pop(key, None)
            else:
                req[key] = draw(_field_value(key)) if key in RANGES or key != "wins" else draw(json_values)
        elif "wins" in req and isinstance(req["wins"], list) and req["wins"]:
            wins = req["wins"]
            i = draw(st.integers(0, len(wins) - 1))
            if draw(st.integers(0, 4)) == 0:
                wins.append(copy.deepcopy(wins[i]))  # a win twice, or one too many
            elif isinstance(wins[i], dict):
                _mutate_win(draw, wins[i], _FIELDS)
            else:
                wins[i] = draw(json_values)
        elif isinstance(req.get("draw"), dict):
            key = draw(st.sampled_from(("kind", "tenpai", "nagashi", "reason", "x")))
            req["draw"][key] = draw(
                st.one_of(
                    st.lists(st.one_of(st.integers(-1, 4), json_values), max_size=5),
                    st.sampled_from(("exhaustive", "abortive", "kyuushu_kyuuhai", "sanchahou", "nagashi")),
                    json_values,
                )
            )
        else:
            req["draw"] = draw(json_values)
    return req


# -- bodies for the web: bytes that are not quite JSON ----------------------------------------------


def _duplicate_a_key(text: str, key: str) -> str:
    return text.replace(f'"{key}": ', f'"{key}": null, "{key}": ', 1)


@st.composite
def bad_bodies(draw: st.DrawFn) -> bytes:
    """A request body as bytes: a request made not to parse, or at the edge of the reader's limits."""
    req = draw(st.one_of(st.sampled_from(SCORES), st.sampled_from(SETTLES)))
    text = json.dumps(req, ensure_ascii=False)
    kind = draw(st.integers(0, 8))
    if kind == 0:  # a key twice, at the top or inside
        key = draw(st.sampled_from(sorted(set(req) | {"type", "tiles", "kind"})))
        text = _duplicate_a_key(text, key)
    elif kind == 1:  # an integer of many digits
        text = text.replace('"dealer": 0', '"dealer": ' + "1" * draw(st.integers(19, 6000)), 1)
        if '"dealer"' not in text:
            text = text[:-1] + ', "honba": ' + "9" * draw(st.integers(19, 6000)) + "}"
    elif kind == 2:  # nested deep
        depth = draw(st.sampled_from((MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1, 1000, 100_000)))
        text = text[:-1] + ', "x": ' + "[" * depth + "]" * depth + "}"
    elif kind == 3:  # cut short
        text = text[: draw(st.integers(0, len(text) - 1))]
    elif kind == 4:  # NaN, Infinity
        text = text.replace("0", draw(st.sampled_from(("NaN", "Infinity", "-Infinity"))), 1)
    elif kind == 5:  # a lone surrogate escape
        text = text.replace('"hand": "', '"hand": "\\ud800', 1).replace('"kind": "', '"kind": "\\udfff', 1)
    data = text.encode()
    if kind == 6:  # bytes that are not UTF-8
        i = draw(st.integers(0, len(data)))
        data = (
            data[:i]
            + draw(st.sampled_from((b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80")))
            + data[i:]
        )
    elif kind == 7:  # a byte flipped
        i = draw(st.integers(0, len(data) - 1))
        data = data[:i] + bytes([data[i] ^ (1 << draw(st.integers(0, 7)))]) + data[i + 1 :]
    elif kind == 8:  # not an object
        data = draw(st.sampled_from((b"[]", b'"23m55p"', b"1", b"null", b"true", b"  ", b"\xef\xbb\xbf{}")))
    return data


def stick_points(req: dict[str, Any]) -> int:
    """The riichi stick value of an accepted request's rules."""
    from tenbou.rules import rules_from_request

    return (
        rules_from_request(req.get("rules", "tenhou")).riichi_stick_points
        if "rules" in req
        else get_rules("tenhou").riichi_stick_points
    )
