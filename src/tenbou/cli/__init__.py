"""The ``tenbou`` command line: a thin front end over :mod:`tenbou.api`.

``tenbou score`` scores a hand written in hand notation (see
:mod:`tenbou.core.hand`) or read from a JSON request file; ``--json`` prints the
JSON result, one line per request (JSON Lines in, JSON Lines out).
``tenbou rules list|show|diff`` describes the presets. ``tenbou serve`` runs the web
calculator (the optional extra ``web``) and ``tenbou svg`` draws a hand as SVG or PNG.
``tenbou verify``, ``tenbou export`` and ``tenbou convert`` work on real records
(see :mod:`tenbou.verify` and :mod:`tenbou.io.read`).

Exit status: 0 on success, 2 on bad input (the error names the field or tile) or an output
that cannot be written (one ``tenbou: error: ... [code]`` line on stderr, never a traceback);
141 when the reader of standard output goes away (``| head``), as for a program SIGPIPE stops.

:func:`main` is the entry point of the ``tenbou`` command (``tenbou.cli:main``), and
:func:`build_parser` makes its ``argparse`` parser.
"""

from .main import build_parser, main

__all__ = ["build_parser", "main"]
