"""The page's words (``web/static/i18n.js``): the three languages have the same keys, every key
the script uses is there, and every yaku and every rule option has its Chinese name or label."""

from __future__ import annotations

import re
from importlib import resources

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
