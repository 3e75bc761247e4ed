from __future__ import annotations

import re

import pytest

from tenbou.errors import RuleError
from tenbou.rules import OPTION_SPECS, get_preset, get_rules, preset_ids, presets, rules_from_request
from tenbou.rules.presets import _load


def test_every_preset_loads_with_a_source_for_every_option() -> None:
    for p in presets().values():
        assert set(p.sources) == set(OPTION_SPECS)
        for name, src in p.sources.items():
            assert src, (p.id, name)
            if src == "unknown":
                assert p.option_notes.get(name), (p.id, name)


def test_lookup_by_alias_case_insensitive() -> None:
    assert get_preset("TENHOU.NET").id == "tenhou" and get_preset("天鳳").id == "tenhou"
    assert "tenhou" in preset_ids()


def test_unknown_preset_and_option() -> None:
    with pytest.raises(RuleError, match="unknown rules preset 'nope'"):
        get_rules("nope")
    with pytest.raises(RuleError, match="unknown rule option 'kiriag'"):
        get_rules("tenhou").replace(kiriag=True)


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"kiriage": 1}, "must be true or false"),
        ({"double_wind_pair_fu": 3}, "must be one of [2, 4]"),
        ({"kazoe": "none"}, "must be one of"),
        ({"double_yakuman": ["pinfu"]}, "'pinfu' is not one of"),
        ({"local_yaku": ["daichisei"]}, "'daichisei' is not one of"),
        ({"players": [5]}, "non-empty list"),
        ({"players": []}, "non-empty list"),
        ({"honba_unit": -100}, "must be an integer 0..10000, not -100"),
        ({"red_fives": 2}, "must be one of [0, 3, 4]"),
    ],
)
def test_bad_option_values(change: dict[str, object], fragment: str) -> None:
    with pytest.raises(RuleError) as e:
        get_rules("tenhou").with_options(change)
    assert fragment in str(e.value)


def test_rules_from_request() -> None:
    r = rules_from_request(
        {"preset": "tenhou", "overrides": {"double_yakuman": ["kokushi_13"], "kiriage": True}}
    )
    assert r.double_yakuman == frozenset({"kokushi_13"}) and r.kiriage
    with pytest.raises(RuleError, match="unknown key 'overide'"):
        rules_from_request({"preset": "tenhou", "overide": {}})
    with pytest.raises(RuleError, match="missing 'preset'"):
        rules_from_request({"overrides": {}})
    with pytest.raises(RuleError):
        rules_from_request(3)


def test_rules_are_frozen_values() -> None:
    a, b = get_rules("tenhou"), get_rules("tenhou").replace()
    assert a == b and hash(a) == hash(b)
    with pytest.raises(AttributeError):
        a.kiriage = True  # type: ignore[misc]


def test_round_trip_through_dict() -> None:
    r = get_rules("tenhou").replace(local_yaku=frozenset({"suurenkou"}))
    assert type(r).from_dict(r.to_dict()) == r


def test_preset_file_checks() -> None:
    with pytest.raises(RuleError, match="missing 'options'"):
        _load("x.toml", 'id = "x"\nname = "x"\nname_en = "x"\n')
    with pytest.raises(RuleError, match="unknown key 'colour'"):
        _load("x.toml", 'id = "x"\nname = "x"\nname_en = "x"\ncolour = 1\n[options]\n')
    with pytest.raises(RuleError, match="options missing"):
        _load(
            "x.toml", 'id = "x"\nname = "x"\nname_en = "x"\n[options.kiriage]\nvalue = true\nsource = "s"\n'
        )
    with pytest.raises(RuleError, match="needs a value and a source"):
        _load("x.toml", 'id = "x"\nname = "x"\nname_en = "x"\n[options.kiriage]\nvalue = true\n')
    with pytest.raises(RuleError, match="unknown but has no note"):
        _load(
            "x.toml",
            'id = "x"\nname = "x"\nname_en = "x"\n[options.kiriage]\nvalue = true\nsource = "unknown"\n',
        )


# -- every override value is checked against its option's type, items, choices and range ---------------

INT_OPTIONS = sorted(n for n, s in OPTION_SPECS.items() if s.kind == "int" and not s.choices)
SET_OPTIONS = sorted(n for n, s in OPTION_SPECS.items() if s.kind in ("yaku_set", "name_set"))


@pytest.mark.parametrize("name", INT_OPTIONS)
def test_an_integer_option_has_a_range(name: str) -> None:
    rules = get_rules("tenhou")
    low, high = OPTION_SPECS[name].bounds
    assert getattr(rules.replace(**{name: low}), name) == low
    assert getattr(rules.replace(**{name: high}), name) == high
    for bad in (low - 1, high + 1, 10**100, -(10**30)):
        with pytest.raises(
            RuleError, match=re.escape(f"rule option '{name}' must be an integer {low}..{high}, not ")
        ):
            rules.replace(**{name: bad})
    for bad in (True, 1.0, "100", None, [1]):
        with pytest.raises(RuleError, match=f"rule option '{name}' must be an integer, not"):
            rules.replace(**{name: bad})


@pytest.mark.parametrize("name", SET_OPTIONS)
@pytest.mark.parametrize("value", [[["x"]], [{}], [None], [1], "daisangen", {"daisangen": 1}, 3, None])
def test_a_set_option_refuses_odd_items(name: str, value: object) -> None:
    with pytest.raises(RuleError, match=f"rule option '{name}' must be a list of"):
        rules_from_request({"preset": "tenhou", "overrides": {name: value}})


@pytest.mark.parametrize("name", SET_OPTIONS)
def test_a_set_option_refuses_an_item_twice(name: str) -> None:
    item = OPTION_SPECS[name].choices[0]
    with pytest.raises(RuleError, match=f"rule option '{name}': '{item}' is listed twice"):
        get_rules("tenhou").with_options({name: [item, item]})


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"uma": [20, 10, -10]}, "'uma' must be a list of 4 integers"),
        ({"uma": [20, 10, -10, 10**9]}, "'uma': item 3 must be an integer -1000..1000"),
        ({"uma": [20, 10, -10, True]}, "'uma': item 3 must be an integer, not True"),
        ({"uma": "20 10 -10 -20"}, "'uma' must be a list of 4 integers"),
        ({"sanma_uma": {1, 2, 3}}, "'sanma_uma' must be a list of 3 integers"),
        ({"players": {3, 4}}, "'players' must be a non-empty list of [4, 3]"),
        ({"players": [4, 4]}, "'players': [4, 4] lists a value twice"),
        ({"players": [4, True]}, "'players' must be a non-empty list of [4, 3]"),
        ({"chips": [["aka_dora", 1]]}, "'chips' must map events to chip counts"),
        ({"chips": {"aka_dora": [1]}}, "'chips': chips for 'aka_dora' must be an integer"),
        ({"chips": {"aka_dora": 10**6}}, "'chips': chips for 'aka_dora' must be an integer 0..1000"),
        ({"chips": {"tobi": 1}}, "'chips': 'tobi' is not one of"),
        ({"kazoe": ["yakuman"]}, "'kazoe' must be one of ['yakuman', 'sanbaiman'], not ['yakuman']"),
        ({"red_fives": True}, "'red_fives' must be an integer, not True"),
        ({"kiriage": None}, "'kiriage' must be true or false, not None"),
        ({"yakuman_cap": 9}, "'yakuman_cap' must be an integer 0..8, not 9"),
    ],
)
def test_odd_option_values_name_the_option(change: dict[str, object], fragment: str) -> None:
    with pytest.raises(RuleError) as e:
        get_rules("tenhou").with_options(change)
    assert fragment in str(e.value)


def test_typed_values_are_accepted_as_they_are() -> None:
    r = get_rules("tenhou").replace(
        chips=(("aka_dora", 1), ("yakuman", 5)),
        double_yakuman=frozenset({"kokushi_13"}),
        uma=(30, 10, -10, -30),
    )
    assert r.chip_values() == {"aka_dora": 1, "yakuman": 5} and r.uma == (30, 10, -10, -30)
    assert r.replace(chips={"yakuman": 5, "aka_dora": 1}) == r  # a mapping, in any order: the same pairs
    with pytest.raises(RuleError, match="'chips': 'aka_dora' is given twice"):
        r.replace(chips=(("aka_dora", 1), ("aka_dora", 2)))


def test_rules_made_directly_hold_typed_values() -> None:
    import dataclasses

    # (the compiled build refuses the list itself, with a TypeError, before __post_init__ runs)
    with pytest.raises((RuleError, TypeError), match=r"is not its typed value|frozenset object expected"):
        dataclasses.replace(get_rules("tenhou"), double_yakuman=["kokushi_13"])
    with pytest.raises(RuleError, match=re.escape("'honba_unit' must be an integer 0..10000")):
        dataclasses.replace(get_rules("tenhou"), honba_unit=10**6)


def test_a_huge_or_odd_name_is_refused_without_a_crash() -> None:
    for name in ("x" * 300, "x" * 100_000, "../tenhou", "tenhou\x00", ""):
        with pytest.raises(RuleError, match="unknown rules preset"):
            get_rules(name)
    for preset in (["tenhou"], None, 3):
        with pytest.raises(RuleError, match=re.escape("rules.preset must be a preset id")):
            rules_from_request({"preset": preset})
    for option in ("x" * 100_000, "", "kiriage "):
        with pytest.raises(RuleError, match="unknown rule option") as e:
            get_rules("tenhou").with_options({option: True})
        assert len(str(e.value)) < 200
    with pytest.raises(RuleError, match="rules: unknown key 'overide'"):
        rules_from_request({"preset": "tenhou", "overide": {}, 1: 2})
