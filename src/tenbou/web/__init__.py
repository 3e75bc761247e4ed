"""The web calculator: a FastAPI app serving the JSON API and a single page.

``tenbou serve`` (the optional extra ``web``: ``pip install 'tenbou[web]'``) runs
:func:`create_app` under uvicorn. The API is the contract of ``docs/json-api.md``:
``POST /api/score`` and ``POST /api/settle`` take the same JSON objects as
:func:`tenbou.api.score` and :func:`tenbou.api.settle` and return the same results;
``GET /api/rules`` lists every preset with its options and their sources. Bad input
answers HTTP 422 with ``{"error": {"code": ..., "message": ...}}``. The page at ``/``
works offline: its script, style and tile pictures (drawn by :mod:`tenbou.render.svg`) are
package data served by the app itself.

This package imports FastAPI only inside :func:`create_app`, so the rest of tenbou
(and these helpers) work without the extra:

>>> catalog = rules_catalog()
>>> tenhou = next(p for p in catalog["presets"] if p["id"] == catalog["default"])
>>> tenhou["options"]["pao_scope"]["value"], catalog["options"]["pao_scope"]["choices"]
('whole_hand', ['whole_hand', 'pao_yakuman_only'])
>>> "tile-svgs" in page_html()
True
"""

from __future__ import annotations

from .app import create_app
from .assets import page_html, rules_catalog, static_asset, tile_pictures

__all__ = ["create_app", "page_html", "rules_catalog", "static_asset", "tile_pictures"]
