"""The page as a person uses it, in Debian's headless Chromium (driven by Playwright, as
``tests/test_browser.py``, whose server, browser and page helpers these tests share), at a desktop
(1280x900) and a phone (390x844) size:

- a field typed in and a button pressed at once (Honba then *Ron*, Riichi sticks then a winning
  seat, Honba then a palette tile, the notation then a seat): the press that takes the focus from
  the field redraws the page (its change event), and the click must still land;
- the notation field's example (its placeholder), typed as it stands, settles for the chosen
  winner (a daisangen with pao on the seat that gave the third dragon), with four and three players;
- no option id, option value or yaku id in the Japanese and Chinese pages' preset summary, pao
  note, rule options (with options changed) and games list, no snake_case word in the English
  page's;
- the README's double ron (seat 3 wins and is liable for seat 1's daisangen): seat 3 has both
  marks, winner and pao, in each language; every text of the picture (amounts, badges, seat names)
  lies inside its box;
- the sheet says what it shows: a hand's round, number, honba and sticks in words ("East 1",
  東1局, 本場, 供託; the column's tooltip explains them), no "E1-0 (1)", one spelling of a hand
  ("East 1", never "East1"), the game's rules by the preset's name without an internal version
  number, and no preset listed as "M.LEAGUE — M.LEAGUE";
- notation that cannot be read: the error, and the hand picture of the hand before hidden (with a
  note saying why) until the notation is corrected or anything else changes;
- no text overflowing its box at 390 px and 1280 px in Japanese, English and Chinese, measured in
  the page (``tests/js/overflow.js``: each text's line boxes inside the box it is laid out in, no
  box whose content is wider than it where it does not scroll, nothing past the page's edge; and
  the picture's texts inside their boxes): the calculator with a double ron and the rule options
  open, a game's calculator with its bar, an ended game's sheet with its ranking, the games list;
  and on a desktop the table's labels ("ルール") on one line;
- a riichi ron of 2,000 recorded in a game: the summary, the sheet and the CSV all say +2,000
  (the winner's own stick is not a gain), and each CSV row's changes are its scores less the row
  above;
"""

from __future__ import annotations

import csv
import io
import json
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tenbou.core.yaku import YAKU_BY_ID
from tenbou.rules import OPTION_SPECS, preset_ids

from .test_browser import (
    ARTIFACTS,
    DAISANGEN_LINK,
    DESKTOP,
    PHONE,
    SIZES,
    Page,
    _missing,
    _new_tonpuu_game,
    browser,  # noqa: F401 (a fixture)
    server,  # noqa: F401 (a fixture)
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(_missing() is not None, reason=_missing() or ""),
]


class Person(Page):
    """A page used as a person does: a tap on a phone, a click with the mouse elsewhere."""

    def press(self, selector: str) -> None:
        if self.size == "phone":
            self.pg.tap(selector)
        else:
            self.pg.click(selector)

    def load(self, fragment: str) -> None:
        """Load the page afresh at ``fragment`` (a game is opened when the page starts; a change of
        the address's fragment alone settles the hand it describes)."""
        self.pg.goto("about:blank")
        self.open(fragment)

    def type_in(self, selector: str, text: str) -> None:
        """Type into a field and stay in it (its change event fires with the next press)."""
        self.pg.fill(selector, text)
        assert self.pg.evaluate("document.activeElement.id") == selector.lstrip("#")


@pytest.fixture(params=SIZES)
def person(request: pytest.FixtureRequest, browser: Any, server: str) -> Iterator[Person]:  # noqa: F811
    p = Person(browser, server, request.param)
    yield p
    p.close()


def test_a_press_right_after_typing_is_not_lost(person: Person) -> None:
    p = person
    p.open()
    assert p.pg.is_checked("#end-tsumo")
    # Honba, then Ron at once
    p.type_in("#honba", "1")
    p.press('label[for="end-ron"]')
    assert p.pg.is_checked("#end-ron"), "the press on Ron after typing in Honba was lost"
    assert "honba=1" in p.pg.url
    # Riichi sticks, then a winning seat
    p.type_in("#sticks", "2")
    p.press('label[for="winner-2"]')
    assert p.pg.is_checked("#winner-2"), "the press on a winning seat after typing sticks was lost"
    assert "sticks=2" in p.pg.url
    # Honba, then a palette tile
    p.type_in("#honba", "3")
    p.press('#palette button[data-tile="1m"]')
    assert p.pg.eval_on_selector_all("#hand .tile-pic", "els => els.map(e => e.dataset.tile)") == ["1m"]
    assert "honba=3" in p.pg.url
    # the notation, then a seat
    p.type_in("#notation", "123m456p789s23s55s +4s")
    p.press('label[for="winner-3"]')
    assert p.pg.is_checked("#winner-3"), "the press on a seat after typing the notation was lost"
    p.pg.wait_for_selector("#result[data-state=scored]")
    assert p.pg.eval_on_selector_all("#win .tile-pic", "els => els.map(e => e.dataset.tile)") == ["4s"]


def test_the_notation_placeholder_settles_as_given(person: Person) -> None:
    """The notation field's example, typed as it stands, is a hand of the chosen winner."""
    p = person
    p.open()
    for winner in (0, 2):
        if winner:
            p.press(f'label[for="winner-{winner}"]')
        example = p.pg.get_attribute("#notation", "placeholder")
        assert example
        p.pg.fill("#notation", "")
        p.pg.focus("#notation")
        p.pg.keyboard.type(example)
        p.pg.keyboard.press("Enter")
        p.pg.wait_for_selector("#result[data-state=scored]")
        assert p.pg.is_hidden("#error")
        pao = p.pg.eval_on_selector_all(
            "#pao .pao-note", "els => els.map(e => [e.dataset.seat, e.dataset.yaku])"
        )
        assert pao == [[str((winner + 3) % 4), "daisangen"]], (example, pao)
        assert p.pg.input_value("#notation") == example
    # three players: the example changes with the set and the seats
    p.open("#rules=tenhou&players=3&winner=1")
    example = p.pg.get_attribute("#notation", "placeholder")
    assert example and "555z@2" in example and "666z@0" in example
    p.pg.fill("#notation", "")
    p.pg.focus("#notation")
    p.pg.keyboard.type(example)
    p.pg.keyboard.press("Enter")
    p.pg.wait_for_selector("#result[data-state=scored]")
    assert p.pg.input_value("#notation") == example


def test_a_riichi_ron_adds_up_in_the_summary_the_sheet_and_the_csv(person: Person) -> None:
    p = person
    _new_tonpuu_game(p, "sticks")
    p.press('label[for="end-ron"]')
    p.press('label[for="win-by-2"]')
    p.press('label[for="winner-1"]')
    p.pg.fill("#notation", "123m456p789s23s55s +4s")
    p.pg.press("#notation", "Enter")
    p.pg.check("#flag-riichi")
    got = p.result()
    assert got["deltas"] == [0, 2000, -2000, 0]  # summary and table: the score's change
    assert ("table", "1", 1000, "riichi_sticks") in got["payments"]  # the stick comes back
    p.pg.wait_for_selector("#record:not([disabled])")
    p.press("#record")
    p.pg.wait_for_selector('#game-table tr[data-hand="0"]')
    cells = p.pg.eval_on_selector_all(
        '#game-table tr[data-hand="0"] td[data-seat]', "els => els.map(e => e.innerText.split(/\\s+/))"
    )
    assert cells == [["", "25,000"], ["+2,000", "27,000"], ["−2,000", "23,000"], ["", "25,000"]], cells
    # a second hand: a draw, seat 0 tenpai, seats 2 and 3 declare riichi
    p.press("#game-record")
    p.press('label[for="end-draw"]')
    p.press('label[for="tenpai-0"]')
    p.press('label[for="riichi-2"]')
    p.press('label[for="riichi-3"]')
    assert p.result()["deltas"] == [3000, -1000, -2000, -2000]
    p.press("#record")
    p.pg.wait_for_selector('#game-table tr[data-hand="1"]')
    href = p.pg.get_attribute("#export-csv", "href")
    text = p.pg.evaluate("(url) => fetch(url).then(r => r.text())", href)
    rows = list(csv.reader(io.StringIO(text)))
    change = [i for i, name in enumerate(rows[0]) if name.startswith("change ")]
    score = [i for i, name in enumerate(rows[0]) if name.startswith("score ")]
    before = [int(rows[1][i]) for i in score]
    for row in rows[2:]:
        now = [int(row[i]) for i in score]
        assert [int(row[i]) for i in change] == [a - b for a, b in zip(now, before, strict=True)], row
        before = now
    assert [int(rows[2][i]) for i in change] == [0, 2000, -2000, 0]
    assert [int(rows[3][i]) for i in change] == [3000, -1000, -2000, -2000]


#: every id the page could show raw: the rule options, their values, the yaku and the presets
IDS = sorted(
    {*OPTION_SPECS, *YAKU_BY_ID, *preset_ids()}
    | {c for spec in OPTION_SPECS.values() for c in spec.choices if isinstance(c, str)}
    | {"true", "false"},
    key=len,
    reverse=True,
)
RAW_ID = re.compile(r"(?<![A-Za-z0-9_])(?:" + "|".join(map(re.escape, IDS)) + r")(?![A-Za-z0-9_])")
SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")
#: what a person reads of the rule options: the labels, the values and the controls' words, not
#: the sources (citations, in the source's own language) nor the tooltips
READ_OPTIONS = """() => {
  const box = document.getElementById("options").cloneNode(true);
  for (const e of box.querySelectorAll("small.source")) e.remove();
  const words = [...box.querySelectorAll("th, label, small.was, button")].map((e) => e.textContent);
  const chosen = [...document.querySelectorAll("#options option")].map((e) => e.textContent);
  return [...words, ...chosen].join("\\n");
}"""


@pytest.mark.parametrize("locale", ["ja-JP", "zh-CN", "en-US"])
def test_every_option_value_in_the_readers_language(browser: Any, server: str, locale: str) -> None:  # noqa: F811
    p = Person(browser, server, DESKTOP, locale)
    try:
        p.open(DAISANGEN_LINK)
        p.result()
        p.pg.click("#rules-panel summary")
        p.pg.wait_for_selector('#options tr[data-option="pao_scope"]')
        # options changed: a choice, a set of yaku, chips, a number; each shows the preset's value
        p.pg.select_option("#opt-pao_scope", "pao_yakuman_only")
        p.pg.uncheck("#opt-pao_yaku-daisuushii")
        p.pg.fill("#opt-chips-yakuman", "5")
        p.pg.press("#opt-chips-yakuman", "Tab")
        p.pg.select_option("#opt-length", "tonpuu")
        p.pg.check("#opt-double_yakuman-kokushi_13")
        p.pg.wait_for_selector("#result[data-state=scored]")
        assert p.pg.locator("#options tr.changed").count() == 5
        assert '"chips":{"yakuman":5}' in p.pg.url.replace("%22", '"').replace("%7B", "{").replace("%7D", "}")
        texts = {
            "summary": p.pg.inner_text("#rules-note"),
            "pao note": p.pg.inner_text("#pao"),
            "result": p.pg.inner_text("#result"),
            "rule options": p.pg.evaluate(READ_OPTIONS),
        }
        p.shot(
            f"words-{locale}", f"five rule options changed, the pao note and summary, in {locale}", full=True
        )
        # a game with these rules, in the games list and on its sheet
        p.pg.click("#view-sheet")
        p.pg.fill("#game-title", f"words {locale}")
        p.pg.click("#new-game button[type=submit]")
        p.pg.wait_for_selector("#game-bar:not([hidden])")
        p.pg.click("#to-sheet")
        texts["game rules"] = p.pg.inner_text("#game-rules")
        p.pg.click("#game-close")
        p.pg.wait_for_selector(f'#games li:has-text("words {locale}")')
        texts["games list"] = p.pg.inner_text("#games")
        for where, text in texts.items():
            bad = (SNAKE if locale == "en-US" else RAW_ID).findall(text)
            assert not bad, f"{locale} {where}: {bad} in {text!r}"
        if locale != "en-US":
            assert "daisangen" not in texts["pao note"] and "whole_hand" not in texts["summary"]
        p.shot(f"games-{locale}", f"the games list: a game's rules by name, its options changed, in {locale}")
    finally:
        p.close()


#: the README's double ron on seat 2's discard: seat 1's daisangen (seat 3 liable) and seat 3's
#: riichi pinfu, with a honba and a stick on the table
DOUBLE_RON_LINK = (
    "#rules=tenhou&round=E&dealer=0&win_by=2&win=4m&winner=1&hand=23m55p"
    "&melds=pon:555z@2,pon:666z@0,pon:777z@3&winner.1=3&hand.1=23m456p123789s55s&flags.1=riichi"
    "&honba=1&sticks=1"
)
#: measures taken in the page (tests/js): texts of the table picture outside their boxes
PICTURE_BOXES = (Path(__file__).parent / "js" / "picture_boxes.js").read_text(encoding="utf-8")


@pytest.mark.parametrize("locale", ["ja-JP", "en-US", "zh-CN"])
def test_a_winner_who_is_liable_has_both_marks(browser: Any, server: str, locale: str) -> None:  # noqa: F811
    for size in (DESKTOP, PHONE):
        p = Person(browser, server, size, locale)
        try:
            p.open(DOUBLE_RON_LINK)
            p.result()
            marks = p.pg.eval_on_selector_all(
                '.table-svg .seat[data-seat="3"] .badge-box', "els => els.map(e => e.getAttribute('class'))"
            )
            assert marks == ["badge-box win", "badge-box pao"], marks
            assert p.pg.eval_on_selector_all(
                '.table-svg .seat[data-seat="1"] .badge-box', "els => els.map(e => e.getAttribute('class'))"
            ) == ["badge-box win"]
            assert p.pg.evaluate(PICTURE_BOXES) == []
            winners = {
                "ja-JP": "席3、席1が席2からロン",
                "en-US": "Ron by Seat 3, Seat 1 on",
                "zh-CN": "座位3、座位1荣和",
            }
            assert p.pg.inner_text("#summary-text").startswith(winners[locale])
            p.pg.locator("#table-picture").scroll_into_view_if_needed()
            p.pg.locator("#table-picture").screenshot(
                path=str(ARTIFACTS / f"both-marks-{locale}-{p.size}.png")
            )
        finally:
            p.close()


def test_the_sheet_says_what_it_shows(person: Person) -> None:
    p = person
    p.open()
    labels = p.pg.eval_on_selector_all("#rules option", "els => els.map(e => e.textContent)")
    assert "M.LEAGUE" in labels and not [x for x in labels if len(set(x.split(" — "))) < len(x.split(" — "))]
    _new_tonpuu_game(p, "words")
    assert "East 1, 0 honba, 0 riichi stick(s)" in p.pg.inner_text("#game-bar-text")
    p.press('label[for="end-draw"]')
    p.press('label[for="tenpai-1"]')
    p.press('label[for="riichi-1"]')
    p.pg.wait_for_selector("#result[data-state=scored]")
    p.press("#record")
    p.pg.wait_for_selector('#game-table tr[data-hand="0"]')
    place = '#game-table tr[data-hand="0"] td.place'
    assert p.pg.inner_text(place) == "East 1\n0 honba · 1 riichi stick(s)"
    assert "honba" in (p.pg.get_attribute("#game-table thead th:nth-child(2)", "title") or "")
    rules = p.pg.inner_text("#game-rules")
    assert rules.startswith("Rules: Tenhou (Game length: East round only (tonpuu))"), rules
    assert not re.search(r"version|tenhou", rules)
    sheet = p.pg.inner_text("#sheet")
    assert not re.search(r"\b[ESWN]\d-\d|East\d", sheet), sheet
    p.pg.select_option("#lang", "ja")
    assert p.pg.inner_text(place) == "東1局\n0本場 · 供託1本"
    assert p.pg.inner_text("#game-rules").startswith("ルール：天鳳（対局の長さ：東風戦）")
    p.pg.click("#game-record")
    assert "次の局を記録中：東2局、1本場、供託1本" in p.pg.inner_text(
        "#game-bar-text"
    )  # the dealer was noten
    p.pg.click("#to-sheet")
    p.pg.click("#game-close")
    p.pg.wait_for_selector('#games li:has-text("words")')
    games = p.pg.inner_text("#games")
    assert "東2局 1本場" in games and not re.search(r"[東南西北]\d-\d", games), games
    p.pg.select_option("#lang", "en")


def test_unreadable_notation_clears_the_picture(person: Person) -> None:
    p = person
    p.open(DAISANGEN_LINK)
    p.result()
    assert p.pg.locator("#hand .tile-pic").count() == 4 and p.pg.is_visible("#hand")
    p.pg.fill("#notation", "23m55p +4x pon:555z@2")
    p.pg.press("#notation", "Enter")
    p.pg.wait_for_selector("#result[data-state=error]")
    assert "notation" in p.pg.inner_text("#error")
    # the hand before is not shown as if it were the text: no tile, no call, a note
    for part in ("#hand", "#win", "#melds", "#dora"):
        assert p.pg.is_hidden(part), part
    assert p.pg.is_visible("#picture-note") and "Enter" in p.pg.inner_text("#picture-note")
    p.shot("notation-unreadable", "unreadable notation: the error, the old hand's picture hidden, a note")
    # corrected: the picture of the hand it reads
    p.pg.fill("#notation", "23m55p +4m pon:555z@2 pon:666z@0 pon:777z@3")
    p.pg.press("#notation", "Enter")
    p.result()
    assert p.pg.is_visible("#hand") and p.pg.is_hidden("#picture-note")
    assert p.pg.eval_on_selector_all("#melds li", "els => els.length") == 3
    # unreadable again, then another change (a dora): the hand entered before comes back
    p.pg.fill("#notation", "pon:")
    p.pg.press("#notation", "Enter")
    p.pg.wait_for_selector("#result[data-state=error]")
    assert p.pg.is_hidden("#hand")
    p.press('label[for="mode-dora"]')
    p.press('#palette button[data-tile="1p"]')
    p.result()
    assert p.pg.is_visible("#hand") and p.pg.locator("#dora .tile-pic").count() == 1
    assert p.pg.input_value("#notation") == "23m55p +4m pon:555z@2 pon:666z@0 pon:777z@3"


#: measures taken in the page: text that overflows its box
OVERFLOW = (Path(__file__).parent / "js" / "overflow.js").read_text(encoding="utf-8")
#: the words of the table's labels, each on one line (on a desktop): "ルール" wrapped
ONE_LINE = """() => [...document.querySelectorAll("#table label > span:first-child")]
  .filter((e) => e.getBoundingClientRect().height > 1.5 * parseFloat(getComputedStyle(e).lineHeight))
  .map((e) => e.textContent)"""


def _api(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        return dict(json.loads(r.read()))


def _game(base: str, winners: list[int]) -> str:
    """A Tenhou tonpuu game with long names, each hand a riichi haneman tsumo by ``winners``."""
    names = ["山田 太郎", "Bo", "Chen Xiaoming", "Dai"]
    game = _api(
        base,
        "/api/games",
        {"rules": {"preset": "tenhou", "overrides": {"length": "tonpuu"}}, "names": names},
    )
    for winner in winners:
        win = {"winner": winner, "hand": "123m456p789s23s55s", "win_tile": "4s", "riichi": True}
        hand = {"request": {"wins": [{**win, "dora_indicators": ["4s"] * 3}]}, "riichi": [winner]}
        game = _api(base, f"/api/games/{game['id']}/hands", {"version": game["version"], "hand": hand})
    return str(game["id"])


@pytest.mark.parametrize("locale", ["ja-JP", "en-US", "zh-CN"])
def test_no_text_overflows_its_box(browser: Any, server: str, locale: str) -> None:  # noqa: F811
    ended = _game(server, [1, 2, 1, 1])
    going = _game(server, [3])
    for size in (PHONE, DESKTOP):
        p = Person(browser, server, size, locale)
        try:
            views: dict[str, list[str]] = {}
            p.open(DOUBLE_RON_LINK)
            p.result()
            p.pg.click("#rules-panel summary")
            p.pg.wait_for_selector('#options tr[data-option="pao_scope"]')
            views["calculator"] = p.pg.evaluate(OVERFLOW) + p.pg.evaluate(PICTURE_BOXES)
            if p.size == "desktop":
                views["calculator"] += [f"{x} wraps" for x in p.pg.evaluate(ONE_LINE)]
            p.shot(f"layout-{locale}-calculator", f"the double ron, rule options open, {locale}")
            p.load(f"#game={going}")
            p.pg.wait_for_selector("#game-bar:not([hidden])")
            views["game's calculator"] = p.pg.evaluate(OVERFLOW)
            p.load(f"#game={ended}&view=sheet")
            p.pg.wait_for_selector('#game-table tr[data-hand="3"]')
            p.pg.wait_for_selector("#game-final:not([hidden])")
            views["sheet"] = p.pg.evaluate(OVERFLOW)
            p.shot(f"layout-{locale}-sheet", f"an ended game's sheet with its ranking, {locale}", full=True)
            p.pg.click("#game-close")
            p.pg.wait_for_selector(f'#games li[data-game="{ended}"]')
            views["games list"] = p.pg.evaluate(OVERFLOW)
            assert not any(views.values()), {k: v for k, v in views.items() if v}
        finally:
            p.close()


def test_the_page_writes_a_hand_as_the_command_line_does(person: Person) -> None:
    """One canonical hand text everywhere: a hand typed in any order, with a red pon, reads back
    in the notation field exactly as ``str(Hand.parse(...))`` writes it."""
    from tenbou.core.hand import Hand

    p = person
    p.open()
    typed = "66s678s23s234m +4s pon:055p@1"
    p.press('label[for="winner-0"]')
    p.pg.fill("#notation", "")
    p.pg.focus("#notation")
    p.pg.keyboard.type(typed)
    p.pg.keyboard.press("Enter")
    p.pg.wait_for_selector("#result[data-state=scored]")
    p.press('label[for="mode-dora"]')  # (the field shows the hand's text once it is left)
    assert p.pg.input_value("#notation") == str(Hand.parse(typed)) == "234m2366678s +4s pon:550p@1"


def test_a_game_link_pasted_into_an_open_page_opens_the_game(person: Person, server: str) -> None:  # noqa: F811
    """A game's link pasted into the address bar of a page already open (only the fragment
    changes, so the page is not loaded again) opens that game; a calculator link closes it."""
    first, second = _game(server, [1]), _game(server, [2, 3])
    p = person
    p.open()
    p.pg.evaluate("(h) => { location.hash = h; }", f"#game={first}&view=sheet")
    p.pg.wait_for_selector('#game-table tr[data-hand="0"]')
    assert p.pg.locator('#game-table tr[data-hand="1"]').count() == 0
    assert f"game={first}" in p.pg.url
    p.pg.evaluate("(h) => { location.hash = h; }", f"#game={second}&view=sheet")
    p.pg.wait_for_selector('#game-table tr[data-hand="1"]')
    assert f"game={second}" in p.pg.url
    calculator = "#rules=tenhou&win_by=tsumo&winner=0&hand=123m456p789s23s55s&win=4s"
    p.pg.evaluate("(h) => { location.hash = h; }", calculator)
    p.pg.wait_for_selector("#game-bar", state="hidden")
    assert "game=" not in p.pg.url
