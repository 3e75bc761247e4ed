"""Tile and hand pictures: well-formed SVG, every kind drawn and told apart, red fives marked,
calls laid out by who gave them, notebook reprs, and ``tenbou svg`` writing SVG and PNG."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tenbou import Hand, NotationError, Tile
from tenbou.cli import main
from tenbou.core.tiles import KIND_NAMES
from tenbou.render.svg import (
    TILE_HEIGHT,
    TILE_WIDTH,
    PngUnavailableError,
    back_svg,
    hand_svg,
    svg_to_png,
    tile_svg,
    tiles_svg,
)

SVG = "{http://www.w3.org/2000/svg}"
DAISANGEN = "23m55p +4m pon:555z@2 pon:666z@0 pon:777z@3"
ALL_TILES = [Tile(k) for k in range(34)] + [Tile(k, True) for k in (4, 13, 22)]
HAS_RESVG = importlib.util.find_spec("resvg_py") is not None


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox") and root.get("width") and root.get("height")
    return root


def face(svg: str) -> str:
    """The drawing of a tile without its labels (title, aria-label, data attributes)."""
    body = re.sub(r"<title>.*?</title>", "", svg)
    return body[body.index(">") + 1 :]


@pytest.mark.parametrize("tile", ALL_TILES, ids=str)
def test_every_tile_is_well_formed_and_labelled(tile: Tile) -> None:
    svg = tile_svg(tile, height=80)
    root = parse(svg)
    assert root.get("data-tile") == str(tile)
    assert root.get("role") == "img"
    name = KIND_NAMES[tile.kind]
    assert root.get("aria-label") == (f"red {name}" if tile.red else name)
    assert root.findtext(f"{SVG}title") == root.get("aria-label")
    assert (root.get("width"), root.get("height")) == (str(TILE_WIDTH), str(TILE_HEIGHT))
    # drawn with shapes only: no text, fonts or images that a machine may lack
    assert not root.findall(f".//{SVG}text") and not root.findall(f".//{SVG}image")
    assert len(list(root.iter())) > 3


def test_every_tile_kind_is_drawn_differently() -> None:
    faces = {face(tile_svg(t)) for t in ALL_TILES}
    assert len(faces) == len(ALL_TILES) == 37
    assert face(back_svg()) not in faces


def test_red_fives_are_marked() -> None:
    for plain, red in (("5m", "0m"), ("5p", "0p"), ("5s", "0s")):
        r = parse(tile_svg(red))
        p = parse(tile_svg(plain))
        assert r.get("data-red") == "true" and "red" in (r.get("class") or "").split()
        assert p.get("data-red") is None and "red" not in (p.get("class") or "").split()
        assert r.get("aria-label", "").startswith("red 5-")
        # the visible mark: a red corner that no plain tile has
        corner = 'd="M42 1.5'
        assert corner in tile_svg(red) and corner not in tile_svg(plain)
    assert not any(corner in tile_svg(Tile(k)) for k in range(34))


def test_sideways_and_face_down_tiles() -> None:
    side = parse(tile_svg("7z", height=40, sideways=True))
    assert side.get("viewBox") == f"0 0 {TILE_HEIGHT} {TILE_WIDTH}"
    assert (side.get("width"), side.get("height")) == ("40", "30")
    down = parse(tile_svg("7z", back=True))
    assert down.get("aria-label") == "Red (face down)"
    assert parse(back_svg()).get("data-tile") == "back"


def test_tiles_row() -> None:
    root = parse(tiles_svg("1p7z0s", height=32))
    groups = [g for g in root.iter(f"{SVG}g") if g.get("data-tile")]
    assert [g.get("data-tile") for g in groups] == ["1p", "7z", "0s"]
    assert root.get("height") == "32"
    assert parse(tiles_svg([Tile.parse("1m"), "2m"])).get("aria-label") == "1-man, 2-man"
    with pytest.raises(NotationError):
        tiles_svg("8z")


def _tiles_of(svg: str) -> list[ET.Element]:
    return [g for g in parse(svg).iter(f"{SVG}g") if g.get("data-tile")]


def test_hand_lays_out_calls_by_who_gave_them() -> None:
    tiles = _tiles_of(hand_svg(DAISANGEN, winner=1))
    assert [t.get("data-tile") for t in tiles] == [
        *["2m", "3m", "5p", "5p", "4m"],
        *["5z"] * 3,
        *["6z"] * 3,
        *["7z"] * 3,
    ]
    sideways = [i for i, t in enumerate(tiles) if "rotate(-90)" in (t.get("transform") or "")]
    # winner 1: seat 2 sits on the right (last tile), seat 0 on the left (first), seat 3 opposite (middle)
    assert sideways == [7, 8, 12]
    text = [t.text for t in parse(hand_svg(DAISANGEN, winner=1)).iter(f"{SVG}text")]
    assert text == ["pon from seat 2", "pon from seat 0", "pon from seat 3"]


def test_hand_without_the_winner_puts_called_tiles_first() -> None:
    tiles = _tiles_of(hand_svg(DAISANGEN))
    sideways = [i for i, t in enumerate(tiles) if "rotate(-90)" in (t.get("transform") or "")]
    assert sideways == [5, 8, 11]


def test_kans() -> None:
    closed = _tiles_of(hand_svg("234m678p5578s +9s ankan:7777z"))
    assert [t.findtext(f"{SVG}title") for t in closed[-4:]] == [
        "Red (face down)",
        "Red",
        "Red",
        "Red (face down)",
    ]
    added = _tiles_of(hand_svg("234m678p5s +5s kakan:7777z@3 kan:1111z@2", winner=1))
    rotated = [t.get("data-tile") for t in added if "rotate(-90)" in (t.get("transform") or "")]
    assert rotated == ["7z", "7z", "1z"]  # the added tile lies on the sideways one
    assert len(added) == 8 + 8


def test_hand_accepts_a_hand_object_and_red_fives() -> None:
    h = Hand.parse("23m0p5p +4m pon:555z@2 pon:666z@0 pon:777z@3")
    svg = hand_svg(h, height=32)
    assert parse(svg).get("aria-label") == f"hand {h}"
    assert svg.count('data-red="true"') == 1


def test_notebook_reprs() -> None:
    assert Tile.parse("0p")._repr_svg_() == tile_svg("0p")
    h = Hand.parse(DAISANGEN)
    assert h._repr_svg_() == hand_svg(h)


def test_core_modules_do_not_import_svg() -> None:
    code = "import sys, tenbou, tenbou.api, tenbou.cli; print('tenbou.render.svg' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# -- the command and PNG ------------------------------------------------------------------------------


def test_cli_writes_svg(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "hand.svg"
    assert main(["svg", DAISANGEN, "--winner", "1", "-o", str(out)]) == 0
    assert parse(out.read_text(encoding="utf-8")).get("aria-label") == f"hand {DAISANGEN}"
    assert main(["svg", "1p7z"]) == 0
    assert len(_tiles_of(capsys.readouterr().out)) == 2


def test_cli_refuses_a_bad_hand(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["svg", "23m55p +4m pon:556z@2"]) == 2
    assert "a pon needs three tiles of one kind" in capsys.readouterr().err


@pytest.mark.skipif(not HAS_RESVG, reason="resvg-py is not installed (pip install 'tenbou[png]')")
def test_cli_writes_png(tmp_path: Path) -> None:
    out = tmp_path / "hand.png"
    assert main(["svg", DAISANGEN, "--winner", "1", "-o", str(out), "--zoom", "1"]) == 0
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert width > 10 * height / 2 and height > 40  # a row of tiles


def test_png_without_resvg_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "resvg_py", None)
    with pytest.raises(PngUnavailableError, match=r"pip install 'tenbou\[png\]'"):
        svg_to_png(tile_svg("1m"))
    assert main(["svg", "1m", "-o", str(tmp_path / "t.png")]) == 2
    assert "resvg-py" in capsys.readouterr().err
    assert not (tmp_path / "t.png").exists()
