"""The web calculator and score sheet in a real browser: Debian's headless Chromium, driven by
Playwright, against a live ``tenbou serve --db FILE`` started on a free port, at a desktop
(1280x900) and a phone (390x844) size.

Entered by clicking, and read back from the page:

- the seeds' daisuushii + tsuuiisou composite (pao on the daisuushii only, ``pao_scope`` changed
  in the rule options panel): on the dealer's tsumo the liable player pays 48,000 + 16,000 =
  64,000 and the others 16,000 each; on a ron by another, the liable 24,000 and the discarder
  24,000 + 48,000 = 72,000; then the honba of that ron under each ``pao_honba``;
- a double ron on one discard, one of the wins with pao (daisangen);
- an exhaustive draw with two players tenpai;
- the daiminkan rinshan pao of the seeds (ロン2), through an ankan (``rinshan_kan_from``);
- a suukantsu dealt in at the fourth kan (``suukantsu_pao_timing`` changed in the rule options);
- a four-hand game on the score sheet, ending with the ranking (uma and oka), with an edit,
  an undo and a second tab whose stale write is refused (409, "reload");
- a Tenhou tonpuu game whose dealer is first and alone tenpai at East 4 (tenpai-yame optional),
  ended there with *End the game here* and read back with its final ranking, taken back, and
  the end removed by undoing that hand;
- the fixes: kakan on an existing pon, three players (2m-8m and the North round dimmed), the
  preset list sorted by what it shows, the pao badge inside the picture; the page in Japanese,
  English and Chinese.

Screenshots go to ``artifacts/`` (not committed; their list is printed at the end of the run).
Skipped (with the reason) when Playwright, Chromium or the ``web`` extra is missing; Playwright
never downloads a browser here: it drives ``/usr/bin/chromium``.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
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
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
SIZES = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]
DAISANGEN_NOTATION = "23m55p +4m pon:555z@2 pon:666z@0 pon:777z@3"
DAISANGEN_LINK = (
    "#rules=tenhou&round=E&dealer=0&winner=1&win_by=2&hand=23m55p&win=4m"
    "&melds=pon:555z@2,pon:666z@0,pon:777z@3"
)
RON_PAYMENTS = [("3", "1", 16000, "pao"), ("2", "1", 16000, "hand")]
SHOTS: list[tuple[str, str]] = []


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


@contextlib.contextmanager
def _serving(
    db: Path, *args: str, env: dict[str, str] | None = None, ready: str = "/api/rules"
) -> Iterator[str]:
    """A live ``tenbou serve --db DB ARGS`` in a subprocess; yields its base URL once ``ready``
    answers (401 counts as an answer: a server with a password)."""
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    argv = [
        sys.executable,
        "-m",
        "tenbou",
        "serve",
        "--port",
        str(port),
        "--log-level",
        "warning",
        "--db",
        str(db),
    ]
    proc = subprocess.Popen(
        [*argv, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                out = proc.stdout.read().decode() if proc.stdout else ""
                pytest.fail(f"tenbou serve exited with {proc.returncode}:\n{out}")
            try:
                with urllib.request.urlopen(f"{base}{ready}", timeout=2) as r:
                    if r.status == 200:
                        break
            except urllib.error.HTTPError as e:
                if e.code == 401:
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
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A live ``tenbou serve`` with its own database, as it starts by default (loopback, open)."""
    with _serving(tmp_path_factory.mktemp("db") / "games.sqlite3") as base:
        yield base
    if SHOTS:
        print("\nscreenshots in", ARTIFACTS)
        for name, what in SHOTS:
            print(f"  {name}: {what}")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()


class Page:
    """A page of the app in one browser context (a viewport and a language), with helpers."""

    def __init__(
        self, browser: Any, server: str, viewport: dict[str, int], locale: str = "en-US", **options: Any
    ) -> None:
        phone = viewport["width"] < 500
        self.context = browser.new_context(
            viewport=viewport, locale=locale, is_mobile=phone, has_touch=phone, **options
        )
        self.pg = self.context.new_page()
        self.server = server
        self.size = "phone" if phone else "desktop"
        self.errors: list[str] = []
        self.outside: list[str] = []
        self.pg.on("pageerror", lambda e: self.errors.append(str(e)))
        self.pg.on("dialog", lambda d: d.accept())
        self.pg.on(
            "request", lambda r: None if r.url.startswith((server, "data:")) else self.outside.append(r.url)
        )

    def open(self, fragment: str = "") -> None:
        self.pg.goto(self.server + "/" + fragment)
        self.pg.wait_for_selector("body[data-ready=true]")

    def choose(self, radio_id: str) -> None:
        self.pg.click(f'label[for="{radio_id}"]')

    def tile(self, tile: str) -> None:
        self.pg.click(f'#palette button[data-tile="{tile}"]')

    def tiles(self, text: str) -> None:
        for t in re.findall(
            r"\d[mpsz]", re.sub(r"(\d+)([mpsz])", lambda m: "".join(d + m[2] for d in m[1]), text)
        ):
            self.tile(t)

    def pon(self, seat: int, tile: str) -> None:
        self.choose("mode-call")
        self.choose("call-type-pon")
        self.choose(f"call-from-{seat}")
        self.tile(tile)

    def result(self) -> dict[str, Any]:
        """The payments, deltas and pao read from the page once it shows a settled hand."""
        self.pg.wait_for_selector("#result[data-state=scored]", timeout=10_000)
        payments = self.pg.eval_on_selector_all(
            "#payments li",
            "els => els.map(e => [e.dataset.from, e.dataset.to, Number(e.dataset.points), e.dataset.kind])",
        )
        deltas = self.pg.eval_on_selector_all(
            "#deltas tbody tr", "els => els.map(e => Number(e.dataset.delta))"
        )
        pao = self.pg.eval_on_selector_all(
            "#pao .pao-note",
            "els => els.map(e => [e.dataset.seat, e.dataset.rule, e.dataset.yaku, e.innerText])",
        )
        summary = self.pg.eval_on_selector_all(
            "#summary-deltas li", "els => els.map(e => Number(e.dataset.delta))"
        )
        assert summary == deltas  # the sticky summary says the same
        return {"payments": [tuple(p) for p in payments], "deltas": deltas, "pao": pao}

    def number(self, field: str, value: int) -> None:
        """Type a number into a field and leave it (its change event settles again)."""
        self.pg.fill(field, str(value))
        self.pg.press(field, "Tab")

    def summary_in_view(self) -> None:
        """The essential answer (who pays whom) is on the screen, not scrolled away."""
        box = self.pg.locator("#summary").bounding_box()
        height = self.pg.viewport_size["height"]
        assert box is not None and box["y"] >= -1 and box["y"] + box["height"] <= height + 1, box

    def shot(self, name: str, what: str, full: bool = False) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        file = f"{name}-{self.size}.png"
        self.pg.screenshot(path=str(ARTIFACTS / file), full_page=full)
        SHOTS.append((file, what))

    def close(self) -> None:
        self.context.close()
        assert not self.errors, f"script errors on the page: {self.errors}"
        assert not self.outside, f"the page fetched from elsewhere (it must work offline): {self.outside}"


@pytest.fixture(params=SIZES)
def page(request: pytest.FixtureRequest, browser: Any, server: str) -> Iterator[Page]:
    p = Page(browser, server, request.param)
    yield p
    p.close()


@pytest.fixture
def desktop(browser: Any, server: str) -> Iterator[Page]:
    p = Page(browser, server, DESKTOP)
    yield p
    p.close()


def test_daisuushii_tsuuiisou_composite_by_clicking(page: Page) -> None:
    """The seeds' composite: pao on the daisuushii only (pao_scope = pao_yakuman_only)."""
    p = page
    p.open()
    p.pg.click("#rules-panel summary")
    p.pg.select_option("#opt-pao_scope", "pao_yakuman_only")
    assert "1" in p.pg.inner_text("#overrides-count")
    p.choose("dealer-0")
    p.choose("end-tsumo")
    p.choose("winner-0")
    p.choose("mode-hand")
    p.tile("5z")
    p.choose("mode-win")
    p.tile("5z")
    for seat, tile in ((1, "1z"), (2, "2z"), (1, "3z"), (3, "4z")):
        p.pon(seat, tile)
    assert p.pg.input_value("#notation") == "5z +5z pon:111z@1 pon:222z@2 pon:333z@1 pon:444z@3"
    tsumo = p.result()
    # the liable seat 3 pays the daisuushii whole (48,000) and its share of the tsuuiisou (16,000)
    assert tsumo["payments"] == [
        ("3", "0", 48000, "pao"),
        ("1", "0", 16000, "hand"),
        ("2", "0", 16000, "hand"),
        ("3", "0", 16000, "hand"),
    ]
    assert tsumo["deltas"] == [96000, -16000, -16000, -64000]
    assert [x[:3] for x in tsumo["pao"]] == [["3", "pao_yaku", "daisuushii"]]
    assert "ov=" in p.pg.url and "pao_yakuman_only" in p.pg.url
    p.summary_in_view()
    p.shot(
        "daisuushii-tsumo",
        "daisuushii + tsuuiisou, dealer tsumo: seat 3 pays + "
        "(liable) 48,000 pao 16,000, seats 1 and 2 16,000 each",
    )
    # a ron on seat 2's discard: the liable pays half the daisuushii, the discarder the rest
    p.choose("end-ron")
    p.choose("win-by-2")
    ron = p.result()
    assert ron["payments"] == [("3", "0", 24000, "pao"), ("2", "0", 24000, "hand"), ("2", "0", 48000, "hand")]
    assert ron["deltas"] == [96000, 0, -72000, -24000]
    p.summary_in_view()
    p.shot(
        "daisuushii-ron",
        "the same hand won by ron on seat 2: seat 3 pays 24,000, seat 2 24,000 + 48,000 = 72,000",
    )
    if p.size == "phone":
        return
    # honba on that pao ron, under each pao_honba
    p.number("#honba", 2)
    expected = {"liable": ["3"], "discarder": ["2"], "split": ["3", "2"], "normal": ["2"], "rest": ["2"]}
    for value, payers in expected.items():
        p.pg.select_option("#opt-pao_honba", value)
        got = p.result()
        honba = [(x[0], x[2]) for x in got["payments"] if x[3] == "honba"]
        assert [h[0] for h in honba] == payers, (value, got)
        assert sum(h[1] for h in honba) == 600
    p.shot(
        "pao-honba-split",
        "honba 2 on the daisuushii pao ron under pao_honba = rest: the discarder "
        "pays the 600 honba (the loop checked liable, discarder, split, normal, rest)",
    )


def test_double_ron_with_pao(page: Page) -> None:
    p = page
    p.open()
    p.choose("dealer-0")
    p.choose("end-ron")
    p.choose("win-by-2")
    p.choose("winner-1")
    p.choose("mode-hand")
    p.tiles("23m55p")
    p.choose("mode-win")
    p.tile("4m")
    for seat, tile in ((2, "5z"), (0, "6z"), (3, "7z")):
        p.pon(seat, tile)
    first = p.result()
    assert first["payments"] == RON_PAYMENTS
    # a second winner on the same tile: seat 3, riichi
    p.pg.click("#add-winner")
    p.choose("winner-3")
    p.choose("mode-hand")
    p.tiles("23m456p123789s55s")
    p.pg.check("#flag-riichi")
    p.number("#honba", 1)
    p.number("#sticks", 1)
    both = p.result()
    assert both["payments"] == [
        ("2", "3", 2000, "hand"),
        ("2", "3", 300, "honba"),
        ("table", "3", 1000, "riichi_sticks"),
        ("3", "1", 16000, "pao"),
        ("2", "1", 16000, "hand"),
    ]
    assert both["deltas"] == [0, 32000, -18300, -12700]
    assert [x[:3] for x in both["pao"]] == [["3", "pao_yaku", "daisangen"]]
    assert p.pg.locator(".win-result").count() == 2
    assert p.pg.locator('.table-svg .seat.winner[data-seat="1"]').count() == 1
    assert p.pg.locator('.table-svg .seat.winner[data-seat="3"]').count() == 1
    assert p.pg.locator('.table-svg .seat.liable[data-seat="3"]').count() == 1
    assert p.pg.locator(".table-svg line.arrow").count() == 4  # 2->3, table->3, 3->1, 2->1
    assert "winner.1=3" in p.pg.url
    p.summary_in_view()
    p.shot(
        "double-ron-pao",
        "double ron on seat 2's discard: seat 1's daisangen (seat 3 half "
        "liable, each) and seat 3's riichi pinfu with honba and the stick",
    )
    # the shared link restores both wins
    link = p.pg.input_value("#link")
    p.open(link[len(p.server) + 1 :])
    assert p.result()["payments"] == both["payments"]


def test_exhaustive_draw_with_two_tenpai(page: Page) -> None:
    p = page
    p.open()
    p.choose("dealer-1")
    p.choose("end-draw")
    p.choose("tenpai-0")
    p.choose("tenpai-2")
    got = p.result()
    assert got["deltas"] == [1500, -1500, 1500, -1500]
    assert sorted(got["payments"]) == sorted(
        [
            ("1", "0", 750, "noten"),
            ("1", "2", 750, "noten"),
            ("3", "0", 750, "noten"),
            ("3", "2", 750, "noten"),
        ]
    )
    assert "dealer Seat 2" in p.pg.inner_text("#next")  # the noten dealer passes the deal
    p.summary_in_view()
    p.shot(
        "draw-two-tenpai", "exhaustive draw, seats 0 and 2 tenpai: the noten seats 1 and 3 pay 750 to each"
    )
    p.choose("end-abort")
    p.pg.select_option("#reason", "suufon_renda")
    abort = p.result()
    assert abort["deltas"] == [0, 0, 0, 0] and abort["payments"] == []


def test_daiminkan_rinshan_pao_through_an_ankan(desktop: Page) -> None:
    """ロン2: the rinshan win after a daiminkan (and an ankan between) is a ron by the kan's giver."""
    p = desktop
    p.open(
        "#rules=ron2&dealer=0&winner=0&win_by=tsumo&hand=456m9m&win=9m"
        "&melds=pon:777z@1,kan:3333m@2,ankan:8888m&flags=rinshan&dora=2m"
    )
    # the ankan came after the daiminkan: the engine infers daiminkan pao only from a daiminkan that
    # is the last meld, so this reads as a plain tsumo until the chain's daiminkan is named
    plain = p.result()
    assert plain["deltas"] == [24000, -8000, -8000, -8000] and plain["pao"] == []
    assert p.pg.is_visible("#kanfrom")
    p.pg.select_option("#kanfrom", "2")
    got = p.result()
    assert got["payments"] == [("2", "0", 24000, "hand")]
    assert [x[:2] for x in got["pao"]] == [["2", "daiminkan_pao"]]
    assert "kanfrom=2" in p.pg.url
    p.pg.select_option("#kanfrom", "none")
    assert p.result()["deltas"] == [24000, -8000, -8000, -8000]
    p.pg.select_option("#kanfrom", "2")
    assert p.result()["payments"] == [("2", "0", 24000, "hand")]
    p.shot(
        "daiminkan-pao-ron2",
        "Ron2: dealer's rinshan baiman after a daiminkan of seat 2's 3m and an ankan: seat 2 pays all 24,000",
    )


def test_a_suukantsu_dealt_in_at_the_fourth_kan(desktop: Page) -> None:
    """「大明槓された瞬間に四槓子の振り込みと見なされるルールもある」: with suukantsu_pao_timing
    changed in the rule options, seat 1's daiminkan of seat 2's 2p (its fourth kan) is entered as a
    ron with the flag, and seat 2 pays the suukantsu as a deal-in."""
    p = desktop
    p.open(
        "#rules=ron2&dealer=0&winner=1&win_by=2&hand=2225p&win=2p&melds=ankan:1111m,ankan:3333p,kan:4444s@3"
    )
    assert not p.pg.is_visible("#flag-fourth_kan")  # the preset pays suukantsu pao at the win
    p.pg.wait_for_selector("#result[data-state=error]")
    p.pg.click("#rules-panel summary")
    p.pg.select_option("#opt-suukantsu_pao_timing", "fourth_kan")
    p.pg.check("#flag-fourth_kan")
    got = p.result()
    assert got["payments"] == [("2", "1", 32000, "hand")] and got["deltas"] == [0, 32000, -32000, 0]
    assert [x[:3] for x in got["pao"]] == [["2", "pao_yaku", "suukantsu"]]
    assert "Suukantsu pao timing: at the fourth kan" in got["pao"][0][3]  # (the option in words)
    assert p.pg.is_visible(".win-result [data-fourth-kan=true]")
    assert "flags=fourth_kan" in p.pg.url and "fourth_kan" in p.pg.url.split("ov=")[1]
    p.number("#honba", 1)
    assert p.result()["payments"][:2] == [("2", "1", 32000, "hand"), ("2", "1", 300, "honba")]
    p.shot(
        "fourth-kan",
        "suukantsu_pao_timing = fourth_kan: seat 1's daiminkan of seat 2's 2p is its fourth kan; "
        "seat 2 pays the suukantsu, 32,000 and the honba, as a deal-in",
    )


def _enter_haneman(p: Page, winner: int) -> None:
    """A riichi haneman tsumo by ``winner``: the hand by the notation field, dora by clicks."""
    p.choose("end-tsumo")
    p.choose(f"winner-{winner}")
    p.pg.fill("#notation", "123m456p789s23s55s +4s")
    p.pg.press("#notation", "Enter")
    p.choose("mode-dora")
    for _ in range(3):
        p.tile("4s")
    p.pg.check("#flag-riichi")
    p.pg.wait_for_selector("#result[data-state=scored]")
    p.pg.wait_for_selector("#record:not([disabled])")


def test_a_four_hand_game_on_the_score_sheet(browser: Any, server: str) -> None:
    for size in (DESKTOP, PHONE):
        p = Page(browser, server, size)
        try:
            _four_hand_game(p, browser, server)
        finally:
            p.close()


def _new_tonpuu_game(p: Page, title: str) -> None:
    """A new Tenhou tonpuu game for Ai, Bo, Chen and Dai, started from the score sheet."""
    p.open()
    p.pg.click("#rules-panel summary")
    p.pg.select_option("#opt-length", "tonpuu")
    p.pg.click("#view-sheet")
    for seat, name in enumerate(("Ai", "Bo", "Chen", "Dai")):
        p.pg.fill(f"#name-{seat}", name)
    p.pg.fill("#game-title", f"{title} {p.size}")
    p.pg.click("#new-game button[type=submit]")
    p.pg.wait_for_selector("#game-bar:not([hidden])")


def _four_hand_game(p: Page, browser: Any, server: str) -> None:
    _new_tonpuu_game(p, "club night")
    assert "East 1, 0 honba" in p.pg.inner_text("#game-bar-text")
    winners = (1, 2, 1, 1)
    for i, winner in enumerate(winners):
        if i:
            p.pg.click("#game-record")  # from the score sheet, back to the calculator
        _enter_haneman(p, winner)
        if i == 1:
            p.shot(
                "sheet-calculator",
                "the calculator recording hand 2 of a game: the "
                "game bar, the table locked to the game's next hand",
            )
        p.pg.click("#record")
        p.pg.wait_for_selector(f'#game-table tr[data-hand="{i}"]')
    assert p.pg.is_visible("#game-final")
    ranking = _ranking(p)
    assert [r[0] for r in ranking] == ["1", "2", "0", "3"]
    assert "+75.0" in ranking[0][1] and "Bo" in ranking[0][1] and "-45.0" in ranking[3][1]
    assert "over" in p.pg.inner_text("#game-next")
    p.shot(
        "sheet-final",
        "a four-hand tonpuu game on the score sheet, ended after 4: "
        "East running scores and the final ranking with uma and oka",
        full=True,
    )
    # edit the first hand into a draw with the dealer tenpai: every later hand moves
    p.pg.click('#game-table tr[data-hand="0"] button:has-text("Edit")')
    p.pg.wait_for_selector("#result[data-state=scored]")
    p.choose("end-draw")
    p.choose("tenpai-0")
    assert p.pg.is_checked("#riichi-1")  # the riichi of the hand as it was recorded
    p.choose("riichi-1")  # no riichi in the hand as it is now
    p.pg.wait_for_selector("#result[data-state=scored]")
    p.pg.click("#record")
    p.pg.wait_for_selector('#game-table tr[data-hand="0"]')
    rows = p.pg.eval_on_selector_all(
        "#game-table tbody tr[data-hand] td:nth-child(2)", "els => els.map(e => e.innerText)"
    )
    sticks = "1 riichi stick(s)"
    assert rows == [
        "East 1\n0 honba",
        f"East 1\n1 honba · {sticks}",
        f"East 2\n0 honba · {sticks}",
        f"East 2\n1 honba · {sticks}",
    ], rows
    assert not p.pg.is_visible("#game-final") or "ends here" in p.pg.inner_text("#game-final")
    # undo the last hand
    p.pg.click("#game-undo")
    p.pg.wait_for_selector('#game-table tr[data-hand="3"]', state="detached")
    assert p.pg.locator("#game-table tr[data-hand]").count() == 3
    # a second tab on the same game records a hand; this tab's write is then refused (409)
    game = re.search(r"game=([0-9a-f]{12})", p.pg.url)
    assert game
    other = Page(browser, server, DESKTOP)
    try:
        other.open(f"#game={game[1]}&view=sheet")
        other.pg.click("#game-record")
        _enter_haneman(other, 2)
        other.pg.click("#record")
        other.pg.wait_for_selector('#game-table tr[data-hand="3"]')
    finally:
        other.close()
    p.pg.click("#game-record")
    _enter_haneman(p, 3)
    p.pg.click("#record")
    p.pg.wait_for_selector("#sheet-error:not([hidden]) #reload-game")
    assert "reload" in p.pg.inner_text("#sheet-error").lower()
    p.pg.click("#reload-game")
    p.pg.wait_for_selector('#game-table tr[data-hand="3"]', state="attached")
    assert p.pg.locator("#game-table tr[data-hand]").count() == 4
    # the hand entered is still in the calculator, now on the game's next hand: record it again
    assert p.pg.is_hidden("#sheet-error")
    p.pg.click("#record")
    p.pg.wait_for_selector('#game-table tr[data-hand="4"]')
    p.shot(
        "sheet-after-conflict",
        "the score sheet after a stale write from this tab was refused (409) it "
        "and the game reloaded: the other tab's hand kept, this one added after",
        full=True,
    )
    # exports are links to the server's files
    assert p.pg.get_attribute("#export-jsonl", "href") == f"/api/games/{game[1]}/export.jsonl"


def _record_draw(p: Page, *tenpai: int) -> None:
    """An exhaustive draw with ``tenpai`` seats, recorded as the game's next hand."""
    count = p.pg.locator("#game-table tr[data-hand]").count()
    p.pg.click("#game-record")
    p.choose("end-draw")
    for seat in tenpai:
        p.choose(f"tenpai-{seat}")
    p.pg.wait_for_selector("#result[data-state=scored]")
    p.pg.wait_for_selector("#record:not([disabled])")
    p.pg.click("#record")
    p.pg.wait_for_selector(f'#game-table tr[data-hand="{count}"]')


def _ranking(p: Page) -> list[tuple[str, str]]:
    rows = p.pg.eval_on_selector_all(
        "#ranking tbody tr", "els => els.map(e => [e.dataset.seat, e.innerText])"
    )
    return [(seat, text) for seat, text in rows]


def test_the_players_end_a_tenhou_game_at_all_last_tenpai(page: Page) -> None:
    """Tenhou's tenpai-yame is optional: the dealer of East 4, first and alone tenpai in an
    exhaustive draw, may stop or play on. *End the game here* ends it with the final ranking;
    taking the end back, or undoing that hand, lets the game go on."""
    p = page
    _new_tonpuu_game(p, "all-last tenpai")
    _enter_haneman(p, 3)  # East 1: seat 3 wins a haneman tsumo
    p.pg.click("#record")
    p.pg.wait_for_selector('#game-table tr[data-hand="0"]')
    assert p.pg.is_hidden("#game-end")  # East 1: the rules go on
    _record_draw(p)  # East 2 and 3: nobody tenpai, the deal passes
    _record_draw(p)
    _record_draw(p, 3)  # East 4: the dealer, first with 44,000, alone tenpai
    assert "may end here" in p.pg.inner_text("#game-next")
    assert p.pg.is_visible("#game-end") and p.pg.is_visible("#game-record")
    assert "if the game ends here" in p.pg.inner_text("#game-final")
    p.shot(
        "sheet-may-end",
        "Tenhou tonpuu after East 4, the dealer first and alone tenpai: the game may end here "
        "(the ranking as it would stand) or go on; End the game here beside Enter the next hand",
        full=True,
    )
    p.pg.click("#game-end")
    p.pg.wait_for_selector("#game-resume:not([hidden])")
    assert p.pg.is_hidden("#game-end") and p.pg.is_hidden("#game-record")
    assert "Final ranking" in p.pg.inner_text("#game-final")
    ranking = _ranking(p)
    assert [seat for seat, _ in ranking] == ["3", "1", "2", "0"]
    assert "Dai" in ranking[0][1] and "44,000" in ranking[0][1] and "+54.0" in ranking[0][1]
    assert "Bo" in ranking[1][1] and "0.0" in ranking[1][1]
    assert "Ai" in ranking[3][1] and "-34.0" in ranking[3][1]
    over = p.pg.inner_text("#game-next")
    assert "over (tenpai-yame)" in over and "ended it after hand 4" in over, over
    p.shot(
        "sheet-ended-by-players",
        "Tenhou tonpuu, East 4: the dealer (Dai) first and alone tenpai; the players clicked "
        "End the game here (tenpai-yame is optional): the final ranking with uma and oka",
        full=True,
    )
    # the same in Japanese, then back
    p.pg.select_option("#lang", "ja")
    assert p.pg.inner_text("#game-resume") == "終了を取り消して続行する"
    assert "第4局の後で、終了を選びました" in p.pg.inner_text("#game-next")
    p.pg.select_option("#lang", "en")
    # taken back: the game may end again, or go on
    p.pg.click("#game-resume")
    p.pg.wait_for_selector("#game-end:not([hidden])")
    assert "if the game ends here" in p.pg.inner_text("#game-final")
    p.pg.click("#game-end")
    p.pg.wait_for_selector("#game-resume:not([hidden])")
    # undoing the hand the end was entered after removes the end, and the page says so
    p.pg.click("#game-undo")
    p.pg.wait_for_selector("#game-note:not([hidden])")
    assert "was removed" in p.pg.inner_text("#game-note")
    assert p.pg.locator("#game-table tr[data-hand]").count() == 3
    assert p.pg.is_hidden("#game-resume") and p.pg.is_visible("#game-record")


def test_the_fixes(desktop: Page) -> None:
    p = desktop
    # kakan on a pon already entered
    p.open(
        "#rules=tenhou&dealer=0&winner=1&win_by=tsumo&hand=23m55p&win=4m&melds=pon:555z@2,pon:666z@0,pon:777z@3"
    )
    p.result()
    p.choose("mode-call")
    p.choose("call-type-kakan")
    p.tile("7z")
    assert (
        p.pg.eval_on_selector_all("#melds li", "els => els.map(e => e.dataset.meld)")[-1] == "kakan:7777z@3"
    )
    p.pg.wait_for_selector("#result[data-state=scored]")
    # the pao badge lies inside the picture
    svg = p.pg.locator(".table-svg").bounding_box()
    for badge in p.pg.locator(".table-svg .badge").all():
        b = badge.bounding_box()
        assert b["y"] >= svg["y"] - 0.5 and b["y"] + b["height"] <= svg["y"] + svg["height"] + 0.5
    # the preset list is sorted by what it shows
    labels = p.pg.eval_on_selector_all("#rules option", "els => els.map(e => e.textContent)")
    assert labels == sorted(labels, key=lambda s: s.casefold()) or labels == p.pg.evaluate(
        "(l) => [...l].sort((a, b) => a.localeCompare(b, 'en'))", labels
    )
    # three players: 2m-8m and the North round are dimmed
    p.open("#rules=tenhou&players=3&dealer=0&winner=1")
    for tile in ("2m", "5m", "8m"):
        assert "gone" in (p.pg.get_attribute(f'#palette button[data-tile="{tile}"]', "class") or "")
    assert "gone" not in (p.pg.get_attribute('#palette button[data-tile="1m"]', "class") or "")
    assert p.pg.is_disabled("#round-N")
    p.shot("sanma-palette", "three players: 2m-8m dimmed in the palette, the North round disabled")


def test_named_pao_wareme_and_chips(desktop: Page) -> None:
    p = desktop
    # the liable player named instead of inferred
    p.open(DAISANGEN_LINK.replace("win_by=2", "win_by=tsumo"))
    assert p.result()["payments"] == [("3", "1", 32000, "pao")]
    p.pg.select_option("#pao-mode", "named")
    p.pg.select_option("#pao-seat", "0")
    named = p.result()
    assert named["payments"] == [("0", "1", 32000, "pao")]
    assert [x[:3] for x in named["pao"]] == [["0", "explicit", "daisangen"]]
    assert "pao=daisangen@0" in p.pg.url
    p.pg.select_option("#pao-mode", "none")
    assert p.result()["deltas"] == [-16000, 32000, -8000, -8000]  # no pao: a plain tsumo
    # wareme and chips where the preset has them (hangame4): the wareme seat pays double
    p.open(
        "#rules=hangame4&dealer=0&winner=1&win_by=tsumo&hand=123m456p789s23s55s&win=4s&flags=riichi&dora=1p&ura=1m"
    )
    assert p.pg.is_visible("#wareme")
    assert p.result()["deltas"] == [-2600, 5200, -1300, -1300]
    p.pg.select_option("#wareme", "2")
    got = p.result()
    assert got["deltas"] == [-2600, 6500, -2600, -1300]
    chips = p.pg.eval_on_selector_all("#deltas tbody td", "els => els.map(e => e.innerText)")
    assert [c.split("chips")[-1].strip() for c in chips] == ["-1", "+3", "-1", "-1"], chips
    p.open(DAISANGEN_LINK)
    assert p.pg.is_hidden("#wareme")  # tenhou plays without wareme


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        ("ja-JP", ["点数計算", "大三元", "責任払い"]),
        ("zh-CN", ["点数计算", "大三元", "包牌"]),
        ("en-US", ["Calculator", "Daisangen"]),
    ],
)
def test_languages(browser: Any, server: str, locale: str, words: list[str]) -> None:
    p = Page(browser, server, PHONE, locale)
    try:
        p.open(DAISANGEN_LINK)
        assert p.result()["payments"] == RON_PAYMENTS
        text = p.pg.inner_text("body")
        for w in words:
            assert w in text, w
        p.pg.click("#rules-panel summary")
        if locale == "zh-CN":
            # the panel fills in after its toggle event: wait for its text, then read it
            # (a selector, not wait_for_function: a string predicate is eval'd, which the CSP refuses)
            p.pg.wait_for_selector("#options >> text=包牌范围")
            tooltip = p.pg.get_attribute('#options tr[data-option="pao_scope"] th', "title")
            assert tooltip and tooltip.startswith("pao_scope: ")  # the id in the label's tooltip
            # the switch: to English and back; the choice is kept
            p.pg.select_option("#lang", "en")
            p.pg.wait_for_selector("#options >> text=What pao covers")
            assert "Daisangen" in p.pg.inner_text("#wins-detail")
            p.pg.select_option("#lang", "zh-Hans")
        p.pg.click("#rules-panel summary")  # closed again
        p.pg.locator("#pao").scroll_into_view_if_needed()
        p.shot(
            f"lang-{locale}",
            f"the daisangen pao ron, the page in {locale} (chosen by the the "
            f"browser's language): pao note, the table picture, the sticky summary",
        )
    finally:
        p.close()


def test_keyboard_only(desktop: Page) -> None:
    p = desktop
    p.open()
    p.pg.focus("#notation")
    p.pg.keyboard.type(DAISANGEN_NOTATION)
    p.pg.keyboard.press("Enter")
    p.pg.wait_for_selector("#result[data-state=error]")
    assert "seat" in p.pg.inner_text("#error").lower()
    p.summary_in_view()
    assert "[" in p.pg.inner_text("#summary")  # the error is in the sticky summary too
    p.pg.focus("#winner-0")
    p.pg.keyboard.press("ArrowRight")
    assert p.result()["payments"] == [("3", "1", 32000, "pao")]
    p.pg.click("#clear")
    p.pg.focus('#palette button[tabindex="0"]')
    for key in ("ArrowDown", "ArrowUp", "Home", "ArrowRight", "Enter"):
        p.pg.keyboard.press(key)
    assert p.pg.eval_on_selector_all("#hand .tile-pic", "els => els.map(e => e.dataset.tile)") == ["2m"]


def test_phone_width_and_link(browser: Any, server: str) -> None:
    p = Page(browser, server, PHONE)
    try:
        p.open(DAISANGEN_LINK)
        assert p.result()["payments"] == RON_PAYMENTS
        assert p.pg.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
        assert p.pg.locator(".table-svg").bounding_box()["width"] <= PHONE["width"]
        # after a tap on the palette, the answer is still on the screen
        p.choose("mode-dora")
        p.tile("1p")
        p.pg.wait_for_selector("#result[data-state=scored]")
        p.summary_in_view()
        p.shot(
            "phone-after-tap",
            "a phone after a tap on the palette: the sticky "
            "summary (who pays whom) at the foot of the screen",
        )
    finally:
        p.close()


def test_bad_input_shows_the_error(desktop: Page) -> None:
    p = desktop
    p.open("#winner=0&hand=123m456p789s11z23s&win=9s")
    p.pg.wait_for_selector("#result[data-state=error]")
    text = p.pg.inner_text("#error")
    assert "[" in text and "]" in text  # the error code is shown with the message
    assert p.pg.is_hidden("#score")
    p.summary_in_view()


CLUB_PASSWORD = "club night password"


@pytest.fixture(scope="module")
def club_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``tenbou serve`` as a club runs it on its Wi-Fi: a password, credentials for everything
    (on loopback here, which a password makes as strict as any other address)."""
    with _serving(
        tmp_path_factory.mktemp("club") / "games.sqlite3", env={"TENBOU_PASSWORD": CLUB_PASSWORD}
    ) as base:
        yield base


@contextlib.contextmanager
def _foreign_page(html: str) -> Iterator[str]:
    """Another origin (another port of this machine) serving one page: its URL."""
    import http.server
    import threading

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = html.encode()
            self.send_response(200)
            self.send_header("content-type", "text/html")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    httpd = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_a_club_game_shared_by_its_links(browser: Any, club_server: str) -> None:
    """The operator signs in and starts a game; the scorer records a hand through the edit link,
    a follower sees it through the view link and cannot change it; a stranger gets 401; a page of
    another site, opened in the scorer's browser (which holds the game's cookie), cannot write."""
    op = Page(browser, club_server, DESKTOP, http_credentials={"username": "op", "password": CLUB_PASSWORD})
    pages = [op]
    try:
        _new_tonpuu_game(op, "club")
        op.pg.click("#to-sheet")
        op.pg.wait_for_selector("#game-links:not([hidden]) #link-edit")
        edit, view = op.pg.input_value("#link-edit"), op.pg.input_value("#link-view")
        assert (
            edit.startswith(f"{club_server}/join/")
            and view.startswith(f"{club_server}/join/")
            and edit != view
        )
        gid = re.search(r"game=([0-9a-f]{12})", op.pg.url)
        assert gid
        op.shot("club-links", "the operator's score sheet of a new game with its edit and view links")
        with pytest.raises(urllib.error.HTTPError) as stranger:
            urllib.request.urlopen(club_server + "/", timeout=5)
        assert stranger.value.code == 401
        # the scorer opens the edit link on a phone and records a hand
        scorer = Page(browser, club_server, PHONE)
        pages.append(scorer)
        scorer.pg.goto(edit)
        scorer.pg.wait_for_selector("body[data-ready=true]")
        assert f"game={gid[1]}" in scorer.pg.url
        _enter_haneman(scorer, 1)
        scorer.pg.click("#record")
        scorer.pg.wait_for_selector('#game-table tr[data-hand="0"]')
        assert scorer.pg.is_visible("#game-record") and "edit link" in scorer.pg.inner_text("#game-access")
        assert scorer.pg.is_hidden("#game-delete") and scorer.pg.is_hidden("#game-links")
        # a follower sees it and nothing to change it with
        follower = Page(browser, club_server, DESKTOP, locale="ja-JP")
        pages.append(follower)
        follower.pg.goto(view)
        follower.pg.wait_for_selector("body[data-ready=true]")
        follower.pg.click("#view-sheet")
        follower.pg.wait_for_selector('#game-table tr[data-hand="0"]')
        assert follower.pg.is_hidden("#game-record") and follower.pg.is_hidden("#game-undo")
        assert follower.pg.locator("#game-table td.actions button").count() == 0
        assert "観戦" in follower.pg.inner_text("#game-access")
        follower.shot("club-follower", "the view link on another device: the sheet, read-only (Japanese)")
        # another site's page in the scorer's browser tries a no-cors fetch, a text/plain one and
        # a beacon with the edit cookie: all refused
        target = f"{club_server}/api/games/{gid[1]}/hands"
        body = '{"version": 2, "hand": {"request": {"draw": {"kind": "abortive"}}, "riichi": []}}'
        html = f"""<script>
        const body = {json.dumps(body)};
        Promise.allSettled([
          fetch({json.dumps(target)}, {{method: "POST", mode: "no-cors", credentials: "include", body}}),
          fetch({json.dumps(target)}, {{method: "POST", mode: "no-cors", credentials: "include",
                                        headers: {{"Content-Type": "text/plain"}}, body}}),
        ]).then(() => {{ navigator.sendBeacon({json.dumps(target)}, body);
                         setTimeout(() => {{ document.title = "done"; }}, 800); }});
        </script>"""
        with _foreign_page(html) as foreign:
            attacker = scorer.context.new_page()
            attacker.goto(foreign)
            attacker.wait_for_function("document.title === 'done'")
            attacker.close()
        version = op.pg.evaluate(
            f"fetch('/api/games/{gid[1]}').then(r => r.json()).then(g => [g.version, g.hands.length])"
        )
        assert version == [2, 1]
    finally:
        for p in pages:
            p.close()
