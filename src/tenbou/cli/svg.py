"""``tenbou svg``: a hand or a row of tiles drawn as SVG, or as PNG for an output file ending in
``.png`` (the optional package resvg-py). The renderer is imported only when the command runs."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import RequestError
from ..io.files import shown_path
from .common import Commands, file_name
from .output import output_file

__all__ = ["MAX_PNG_HEIGHT", "add_parsers"]

#: the height in pixels of the tallest PNG ``tenbou svg`` draws (``--height`` times ``--zoom``): a
#: hand is some twenty tiles wide, so the image stays within tens of megabytes
MAX_PNG_HEIGHT = 2048


def add_parsers(sub: Commands) -> None:
    """``tenbou svg``."""
    pic = sub.add_parser(
        "svg",
        help="draw a hand or tiles as SVG (or PNG)",
        description="Draw a hand in hand notation ('23m55p +4m pon:555z@2 ...') or a row of tiles "
        "('1p7z') as SVG. An output file ending in .png is written as PNG "
        "(needs the optional package resvg-py: pip install 'tenbou[png]').",
    )
    pic.add_argument("hand", metavar="HAND|TILES", help="a hand in hand notation, or tiles in mpsz")
    pic.add_argument(
        "-o",
        "--output",
        type=file_name,
        metavar="FILE",
        help="output file: .svg or .png, others refused (default: stdout)",
    )
    pic.add_argument(
        "--winner", type=int, help="the winner's seat: places each called tile by where its giver sits"
    )
    pic.add_argument(
        "--height",
        type=_positive_number,
        default=64,
        help=f"pixel height of a tile (default 64; a PNG is at most {MAX_PNG_HEIGHT} pixels high)",
    )
    pic.add_argument(
        "--zoom", type=_positive_number, default=2.0, help="PNG only: pixels per SVG pixel (default 2)"
    )
    pic.set_defaults(func=_cmd_svg)


def _positive_number(text: str) -> float:
    """``--height``, ``--zoom``: a finite number above 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number above 0, not {text!r}") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"a number above 0, not {text!r}")
    return value


def _cmd_svg(args: argparse.Namespace) -> int:
    """Draw a hand (or a row of tiles) as SVG, or as PNG for an output file ending in .png."""
    from ..render.svg import hand_svg, svg_to_png, tiles_svg

    out = args.output
    if out is not None and out != "-" and not out.lower().endswith((".svg", ".png")):
        what = Path(out).suffix or "a name without a suffix"
        raise RequestError(f"-o {shown_path(out)}: tenbou svg writes .svg or .png files, not {what}")
    png = out is not None and out.lower().endswith(".png")
    if png and args.height * args.zoom > MAX_PNG_HEIGHT:
        raise RequestError(
            f"--height {args.height:g} --zoom {args.zoom:g}: a PNG {args.height * args.zoom:,.0f} pixels "
            f"high; at most {MAX_PNG_HEIGHT} (height times zoom)"
        )
    target = output_file(out, "-o")
    if "+" in args.hand or ":" in args.hand:
        picture = hand_svg(args.hand, winner=args.winner, height=args.height)
    else:
        picture = tiles_svg(args.hand, height=args.height)
    if target is None:
        sys.stdout.write(picture + "\n")
    elif png:
        target.write_bytes(svg_to_png(picture, zoom=args.zoom))
    else:
        target.write_bytes((picture + "\n").encode("utf-8"))
    return 0
