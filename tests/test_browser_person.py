"""The page as a person uses it, in Debian's headless Chromium (driven by Playwright, as
``tests/test_browser.py``, whose server, browser and page helpers these tests share), at a desktop
(1280x900) and a phone (390x844) size:

- a field typed in and a button pressed at once (Honba then *Ron*, Riichi sticks then a winning
  seat, Honba then a palette tile, the notation then a seat): the press that takes the focus from
  the field redraws the page (its change event), and the click must still land;
- the notation field's example (its placeholder), typed as it stands, settles for the chosen
  winner (a daisangen with pao on the seat that gave the third dragon), with four and three players;
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .test_browser import (
    SIZES,
    Page,
    _missing,
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
