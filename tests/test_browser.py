"""The web calculator in a real browser: Debian's headless Chromium, driven by Playwright,
against a live ``tenbou serve`` started on a free port.

The seeds' daisangen pao hand (責任払い) is entered by clicking — concealed 23m55p, winning
tile 4m, pon 555z from seat 2, pon 666z from seat 0, pon 777z from seat 3; seat 1 wins,
seat 0 deals — and the payments are read from the page: on a tsumo seat 3 pays all 32,000;
on a ron by seat 2, seats 3 and 2 pay 16,000 each. Screenshots go to ``artifacts/``.

Skipped (with the reason) when Playwright, Chromium or the ``web`` extra is missing;
Playwright never downloads a browser here: it drives ``/usr/bin/chromium``.
"""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DAISANGEN_NOTATION = "23m55p +4m pon:555z@2 pon:666z@0 pon:777z@3"
DAISANGEN_LINK = (
    "#rules=tenhou&round=E&dealer=0&winner=1&win_by=2&hand=23m55p&win=4m"
    "&melds=pon:555z@2,pon:666z@0,pon:777z@3"
)
TSUMO_PAYMENTS = [("3", "1", 32000, "pao")]
RON_PAYMENTS = [("3", "1", 16000, "pao"), ("2", "1", 16000, "hand")]


def _missing() -> str | None:
    if importlib.util.find_spec("playwright") is None:
        return "playwright is not installed (pip install playwright; the browser is Debian's chromium)"
    if not CHROMIUM.exists():
        return f"{CHROMIUM} is missing (apt-get install -y chromium)"
    for name in ("fastapi", "uvicorn"):
        if importlib.util.find_spec(name) is None:
            return f"{name} is not installed (pip install 'tenbou[web]')"
    return None


pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(_missing() is not None, reason=_missing() or ""),
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """A live ``tenbou serve`` in a subprocess; yields its base URL."""
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tenbou", "serve", "--port", str(port), "--log-level", "warning"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                out = proc.stdout.read().decode() if proc.stdout else ""
                pytest.fail(f"tenbou serve exited with {proc.returncode}:\n{out}")
            try:
                with urllib.request.urlopen(f"{base}/api/rules", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("tenbou serve did not answer within 30 s")
            time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stdout:
            proc.stdout.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any, server: str) -> Iterator[Any]:
    """A fresh page; fails the test on a script error or a request that leaves the server."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    errors: list[str] = []
    outside: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on(
        "request",
        lambda r: None if r.url.startswith((server, "data:")) else outside.append(r.url),
    )
    yield pg
    context.close()
    assert not errors, f"script errors on the page: {errors}"
    assert not outside, f"the page fetched from elsewhere (it must work offline): {outside}"


def _open(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]")


def _result(page: Any) -> dict[str, Any]:
    """The payments, deltas and pao read from the page once it shows a scored hand."""
    page.wait_for_selector("#result[data-state=scored]", timeout=10_000)
    payments = page.eval_on_selector_all(
        "#payments li",
        "els => els.map(e => [e.dataset.from, e.dataset.to, Number(e.dataset.points), e.dataset.kind])",
    )
    deltas = page.eval_on_selector_all("#deltas tbody tr", "els => els.map(e => Number(e.dataset.delta))")
    pao = page.eval_on_selector_all(
        "#pao .pao-note", "els => els.map(e => [e.dataset.seat, e.dataset.rule, e.dataset.yaku, e.innerText])"
    )
    return {"payments": [tuple(p) for p in payments], "deltas": deltas, "pao": pao}


def _click_tile(page: Any, tile: str) -> None:
    page.click(f'#palette button[data-tile="{tile}"]')


def _choose(page: Any, radio_id: str) -> None:
    page.click(f'label[for="{radio_id}"]')


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=True)


def test_daisangen_pao_entered_by_clicking(page: Any, server: str) -> None:
    _open(page, server + "/")
    _choose(page, "winner-1")
    _choose(page, "dealer-0")
    _choose(page, "win-by-tsumo")
    _choose(page, "mode-hand")
    for t in ("2m", "3m", "5p", "5p"):
        _click_tile(page, t)
    _choose(page, "mode-win")
    _click_tile(page, "4m")
    _choose(page, "mode-call")
    _choose(page, "call-type-pon")
    for seat, tile in (("2", "5z"), ("0", "6z"), ("3", "7z")):
        _choose(page, f"call-from-{seat}")
        _click_tile(page, tile)
    assert page.input_value("#notation") == DAISANGEN_NOTATION

    # tsumo: the liable player (seat 3 gave the third dragon) pays all
    tsumo = _result(page)
    assert tsumo["payments"] == TSUMO_PAYMENTS
    assert tsumo["deltas"] == [0, 32000, 0, -32000]
    assert [p[:3] for p in tsumo["pao"]] == [["3", "pao_yaku", "daisangen"]]
    assert "call 3" in tsumo["pao"][0][3].lower() and "777z from seat 3" in tsumo["pao"][0][3]
    assert page.locator('.table-svg .seat.liable[data-seat="3"]').count() == 1
    assert page.locator(".table-svg line.arrow.pao").count() == 1
    assert "大三元" in page.inner_text("#yaku") and "Daisangen" in page.inner_text("#yaku")
    _shot(page, "daisangen_pao_tsumo.png")

    # ron on seat 2's discard: the liable player and the discarder pay half each
    _choose(page, "win-by-2")
    ron = _result(page)
    assert ron["payments"] == RON_PAYMENTS
    assert ron["deltas"] == [0, 32000, -16000, -16000]
    assert [p[:3] for p in ron["pao"]] == [["3", "pao_yaku", "daisangen"]]
    assert "win_by=2" in page.url and "melds=pon:555z@2,pon:666z@0,pon:777z@3" in page.url
    _shot(page, "daisangen_pao_ron.png")


def test_shared_link_restores_the_hand(page: Any, server: str) -> None:
    _open(page, server + "/" + DAISANGEN_LINK)
    assert _result(page)["payments"] == RON_PAYMENTS
    assert page.input_value("#notation") == DAISANGEN_NOTATION
    assert page.locator("#melds li").count() == 3
    link = page.input_value("#link")
    assert link.startswith(server) and "win_by=2" in link and "melds=pon:555z@2,pon:666z@0,pon:777z@3" in link


def test_keyboard_only(page: Any, server: str) -> None:
    _open(page, server + "/")
    # the notation field: type the hand and press Enter; seat 0 wins, but one pon is its own
    page.focus("#notation")
    page.keyboard.type(DAISANGEN_NOTATION)
    page.keyboard.press("Enter")
    page.wait_for_selector("#result[data-state=error]")
    assert "seat" in page.inner_text("#error").lower()
    # arrow keys move the winner to seat 1 (a native radio group)
    page.focus("#winner-0")
    page.keyboard.press("ArrowRight")
    assert _result(page)["payments"] == TSUMO_PAYMENTS
    # the palette is one tab stop; arrows move in it and Enter adds the tile
    page.click("#clear")
    page.focus('#palette button[tabindex="0"]')
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    assert page.eval_on_selector_all("#hand .tile-pic", "els => els.map(e => e.dataset.tile)") == ["2m"]


def test_phone_width(browser: Any, server: str) -> None:
    context = browser.new_context(viewport={"width": 375, "height": 812}, is_mobile=True, has_touch=True)
    pg = context.new_page()
    try:
        _open(pg, server + "/" + DAISANGEN_LINK)
        assert _result(pg)["payments"] == RON_PAYMENTS
        assert pg.evaluate("document.scrollingElement.scrollWidth") <= 375
        assert pg.locator(".table-svg").bounding_box()["width"] <= 375
        _shot(pg, "daisangen_pao_phone.png")
    finally:
        context.close()


def test_bad_input_shows_the_error(page: Any, server: str) -> None:
    _open(page, server + "/#winner=0&hand=123m456p789s11z23s&win=9s")
    page.wait_for_selector("#result[data-state=error]")
    text = page.inner_text("#error")
    assert "[" in text and "]" in text  # the error code is shown with the message
    assert page.is_hidden("#score")
