"""The page's words (``web/static/i18n.js``): the three languages have the same keys, every key
the script uses is there, every yaku and every rule option has its Chinese name or label, every
value of a rule option (a choice, a kind of chips) and every line of a fu breakdown its words in
the three languages."""

from __future__ import annotations

import re
from importlib import resources

from tenbou.core.scoring import _SET_FU
from tenbou.core.yaku import YAKU_BY_ID
from tenbou.rules import OPTION_SPECS

STATIC = resources.files("tenbou.web").joinpath("static")
I18N = STATIC.joinpath("i18n.js").read_text(encoding="utf-8")
APP = STATIC.joinpath("app.js").read_text(encoding="utf-8")
PAGE = STATIC.joinpath("index.html").read_text(encoding="utf-8")
_KEY = re.compile(r'(?:^\s+|,\s)([a-z][A-Za-z0-9_]*): "', re.M)


def block(name: str) -> str:
    start = I18N.index(f"const {name} = {{")
    return I18N[start : I18N.index("\n  };", start)]


def keys(name: str) -> set[str]:
    return set(_KEY.findall(block(name)))


def test_the_three_languages_have_the_same_words() -> None:
    en, ja, zh = keys("en"), keys("ja"), keys("zh")
    assert len(en) > 250
    assert ja == en and zh == en, (en ^ ja, en ^ zh)


def test_every_word_the_page_uses_is_there() -> None:
    en = keys("en")
    used = set(re.findall(r'\bt\("([a-z_0-9]+)"', APP)) | set(
        re.findall(r'data-i18n(?:-label)?="([a-z_]+)"', PAGE)
    )
    prefixes = {k for k in used if k.endswith("_")}
    assert not (used - prefixes - en), used - prefixes - en
    for prefix in prefixes:  # keys made at run time ("kind_" + payment kind): each prefix has some
        assert any(k.startswith(prefix) for k in en), prefix
    for kind in ("hand", "pao", "honba", "riichi_sticks", "noten", "nagashi"):
        assert f"kind_{kind}" in en


def test_every_yaku_and_option_has_its_chinese_name() -> None:
    yaku = dict(re.findall(r'([a-z0-9_]+): "([^"]+)"', block("yakuZh")))
    assert set(yaku) == set(YAKU_BY_ID)
    assert all(re.search(r"[\u4e00-\u9fff]", name) for name in yaku.values())
    options = dict(
        re.findall(r'([a-z0-9_]+): \{ en: "[^"]+", ja: "[^"]+", zh: "([^"]+)" \}', block("options"))
    )
    assert set(options) == set(OPTION_SPECS)


_WORDS = re.compile(r'([a-z0-9_]+): \{ en: "([^"]+)", ja: "([^"]+)", zh: "([^"]+)" \}')


def test_every_option_value_has_its_words() -> None:
    values = block("values")
    tables: dict[str, dict[str, tuple[str, str, str]]] = {}
    for option, body in re.findall(r"\n    ([a-z_]+): \{\n(.*?)\n    \},", values, re.S):
        tables[option] = {v: (en, ja, zh) for v, en, ja, zh in _WORDS.findall(body)}
    worded = {n for n, spec in OPTION_SPECS.items() if spec.kind in ("choice", "chip_table")}
    assert set(tables) == worded
    for name in worded:
        assert set(tables[name]) == set(OPTION_SPECS[name].choices), name
        for en, ja, zh in tables[name].values():
            assert "_" not in en and re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", ja + zh), (name, en, ja, zh)
    # the abortive draws (a name_set) are said by the reason_ words
    en = keys("en")
    assert {f"reason_{c}" for c in OPTION_SPECS["abortive_draws"].choices} <= en


def test_every_line_of_a_fu_breakdown_has_its_words() -> None:
    scoring = resources.files("tenbou.core").joinpath("scoring.py").read_text(encoding="utf-8")
    reasons = set(re.findall(r'FuItem\("([a-z_]+)"', scoring)) | {item.reason for item in _SET_FU}
    words = {k for k, *_ in _WORDS.findall(block("fu"))}
    for reason in reasons:
        parts = re.fullmatch(r"(open|closed)_(simple|terminal|honor)_(pon|kan)", reason)
        assert reason in words or (parts and set(parts.groups()) <= words), reason
