from __future__ import annotations

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
        ({"honba_unit": -100}, "must not be negative"),
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
