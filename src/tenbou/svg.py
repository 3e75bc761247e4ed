"""``tenbou.svg``: pictures of tiles and hands, as SVG (and PNG).

The code lives in :mod:`tenbou.render.svg` (the package is laid out in layers,
docs/architecture.md); this module keeps the documented import path, for users.
"""

from .render.svg import (
    TILE_HEIGHT,
    TILE_WIDTH,
    PngUnavailableError,
    back_svg,
    hand_svg,
    svg_to_png,
    tile_svg,
    tiles_svg,
)

__all__ = [
    "TILE_HEIGHT",
    "TILE_WIDTH",
    "PngUnavailableError",
    "back_svg",
    "hand_svg",
    "svg_to_png",
    "tile_svg",
    "tiles_svg",
]
