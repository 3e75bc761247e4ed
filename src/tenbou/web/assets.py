"""What the web app serves besides the API: the page, its script and style, the tile
pictures and the rules catalogue. Plain Python (no FastAPI), so it is tested and
doctested without the ``web`` extra.

>>> pictures = tile_pictures()
>>> len(pictures), sorted(pictures)[:3]
(38, ['0m', '0p', '0s'])
>>> static_asset("app.js")[1]
'text/javascript; charset=utf-8'
>>> static_asset("../api.py")
Traceback (most recent call last):
...
KeyError: '../api.py'
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from .. import __version__
from ..core.tiles import Tile, kind_text
from ..core.yaku import YAKU_BY_ID
from ..render.svg import back_svg, tile_svg
from ..rules import OPTION_SPECS, presets

__all__ = ["page_html", "rules_catalog", "static_asset", "tile_pictures"]

#: the files of ``web/static`` that the app serves, with their media types
_STATIC = {
    "app.js": "text/javascript; charset=utf-8",
    "i18n.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
}


def _read(name: str) -> str:
    return resources.files(__package__).joinpath("static", name).read_text(encoding="utf-8")


@cache
def tile_pictures() -> dict[str, str]:
    """The SVG of every tile the page can show, by mpsz text: the 34 kinds, the three red
    fives (``0m 0p 0s``) and ``back`` (a face-down tile)."""
    out = {kind_text(k): tile_svg(Tile(k)) for k in range(34)}
    for k in (4, 13, 22):
        red = Tile(k, True)
        out[str(red)] = tile_svg(red)
    out["back"] = back_svg()
    return out


@cache
def page_html() -> str:
    """The calculator page: ``static/index.html`` with the tile pictures inlined as JSON."""
    data = json.dumps(tile_pictures(), separators=(",", ":")).replace("</", "<\\/")
    html = _read("index.html")
    return html.replace(
        "<!--TILES-->", f'<script id="tile-svgs" type="application/json">{data}</script>'
    ).replace("{{version}}", __version__)


@cache
def static_asset(name: str) -> tuple[str, str]:
    """The text and media type of one served file of ``static/`` (``KeyError`` for any other name)."""
    if name not in _STATIC:
        raise KeyError(name)
    return _read(name), _STATIC[name]


_RANGED = ("int", "int_list", "chip_table")


def rules_catalog() -> dict[str, object]:
    """``GET /api/rules``: every preset (as ``tenbou rules show --json`` prints it: id, names,
    notes and each option's value, source and note), what each option means: its kind,
    meaning, choices and, for integers, its range; and the name of every yaku id (English and
    Japanese, as a result gives them), which the page shows for an option's yaku.

    >>> rules_catalog()["yaku"]["daisangen"]
    {'name': 'Daisangen', 'name_ja': '大三元'}
    """
    return {
        "default": "tenhou",
        "presets": [p.to_dict() for p in presets().values()],
        "options": {
            name: {
                "kind": spec.kind,
                "doc": spec.doc,
                "choices": list(spec.choices),
                # the range of an integer (of each item of a list, of each chip count)
                **({"range": list(spec.bounds)} if spec.kind in _RANGED else {}),
            }
            for name, spec in OPTION_SPECS.items()
        },
        "yaku": {y.id: {"name": y.name, "name_ja": y.name_ja} for y in YAKU_BY_ID.values()},
    }
