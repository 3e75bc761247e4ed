"""The ``tenbou`` command: its parser, made of each command group's subparsers
(:mod:`~tenbou.cli.hands`, :mod:`~tenbou.cli.serve`, :mod:`~tenbou.cli.svg`,
:mod:`~tenbou.cli.records`, :mod:`~tenbou.cli.rules`, :mod:`~tenbou.cli.completion`), and
:func:`main`, which runs the command given and turns its errors into one line and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from .. import __version__, build_info
from ..errors import TenbouError
from ..io.files import StandardOutputError, standard_output
from . import completion, hands, records, rules, serve, svg
from .common import Parser, emit_error, report

__all__ = ["BROKEN_PIPE_STATUS", "build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """The parser of the ``tenbou`` command: each command group adds its subcommands, in the
    order ``tenbou --help`` lists them."""
    parser = Parser(prog="tenbou", description="Riichi mahjong rules engine: score and settle hands.")
    parser.add_argument("--version", action="version", version=f"tenbou {__version__}, {build_info()}")
    sub = parser.add_subparsers(dest="command", required=True)
    hands.add_parsers(sub)
    serve.add_parsers(sub)
    svg.add_parsers(sub)
    records.add_parsers(sub)
    rules.add_parsers(sub)
    completion.add_parsers(sub, parser)
    return parser


#: the exit status when the reader of standard output goes away (``tenbou verify | head``):
#: that of a program the signal SIGPIPE stops, as the shell reports it (128 + 13)
BROKEN_PIPE_STATUS = 141


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``tenbou`` command.

    Standard output that cannot be written (a full disk) is one error line and exit status 2,
    whatever the command was writing; a reader that goes away (a pipe closed by ``head``)
    stops the command quietly with :data:`BROKEN_PIPE_STATUS`, as it stops any other program."""
    try:
        with standard_output():
            args = build_parser().parse_args(argv)
            func: Callable[[argparse.Namespace], int] = args.func
            try:
                return func(args)
            except TenbouError as e:  # bad input: one error line (with --json, its error object)
                emit_error(e, sys.stdout, bool(getattr(args, "json", False)))
                return 2
    except StandardOutputError as e:
        if e.broken_pipe:
            return BROKEN_PIPE_STATUS
        report(f"the standard output cannot be written ({e})", "output")
        return 2
