"""What the commands of ``tenbou`` share: the error line, reading an input within its size limit,
and the arguments several commands take (a file name, ``--max-size``, ``--set``).

Every error a command reports is one line on stderr, ``tenbou: error: MESSAGE [code]``, and
exit status 2 (:func:`tenbou.cli.main`); with ``--json``, a batch writes each bad item's error
object among its results instead (:func:`emit_error`).

>>> error_line("x.json: no such file", "request")
'tenbou: error: x.json: no such file [request]\\n'
>>> error_line("bad\\nname: no such file", "request")
'tenbou: error: bad\\\\nname: no such file [request]\\n'
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import sys
from collections.abc import Sequence
from typing import Any, NoReturn, TextIO, TypeAlias

from ..api import loads_request
from ..errors import LogFormatError, RequestError, TenbouError
from ..rules import OPTION_SPECS
from .output import json_line

__all__ = [
    "Commands",
    "Parser",
    "add_max_size",
    "emit_error",
    "error_line",
    "file_name",
    "max_size",
    "one_line",
    "parse_override",
    "read_input",
    "report",
]

#: the subcommands of a parser, to which each command group adds its own (``add_parsers``)
Commands: TypeAlias = "argparse._SubParsersAction[Parser]"


# -- errors ------------------------------------------------------------------------------------


#: what would break an error line in two (or more): C0 controls but the tab, DEL, C1 controls and
#: the separators str.splitlines() splits at, each written as its escape
_LINE_BREAKERS = {
    **{c: f"\\x{c:02x}" for c in (*range(0x20), *range(0x7F, 0xA0)) if c != 0x09},
    0x0A: "\\n",
    0x0D: "\\r",
    0x2028: "\\u2028",
    0x2029: "\\u2029",
}


def error_line(message: str, code: str, where: str = "") -> str:
    """The one line of an error on stderr, ``tenbou: error: MESSAGE [code]``: whatever the
    message quotes (a file named with a newline), it stays one line."""
    return one_line(f"tenbou: error{where}: {message} [{code}]")


def one_line(text: str) -> str:
    """``text`` as one line to write, its end of line included: whatever it quotes (a file named
    with a newline) is escaped."""
    line = text.translate(_LINE_BREAKERS) + "\n"
    # (an argument that is not UTF-8 reaches Python as surrogates: shown as \udcff, on any stream)
    return line.encode("utf-8", "backslashreplace").decode("utf-8")


def report(message: str, code: str, where: str = "") -> None:
    """Write an error line on stderr (a stderr that cannot be written says nothing)."""
    with contextlib.suppress(OSError):
        sys.stderr.write(error_line(message, code, where))


def emit_error(e: TenbouError, out: TextIO, as_json: bool, where: str = "") -> None:
    """Report bad input: its error object on ``out`` (``--json``), else its line on stderr. A
    command raises :class:`TenbouError` and ``main`` reports it; a batch reports each bad item
    here itself, and goes on."""
    if as_json:
        out.write(json_line(e.to_dict()))
    else:
        report(str(e), e.code, where)


# -- usage errors ------------------------------------------------------------------------------


class Parser(argparse.ArgumentParser):
    """argparse, with tenbou's error line: a usage error (an unknown option, a missing argument,
    a bad number) is the short usage of the command it is about (``usage: tenbou score ...``), then
    one ``tenbou: error: ... [usage]`` line and exit status 2, as every other error is, with the
    command's ``--help`` to turn to (the subcommands' parsers are of this class too: argparse makes
    them of the class of their parent)."""

    def error(self, message: str) -> NoReturn:
        command = self.prog.removeprefix("tenbou").strip()
        line = error_line(f"{message} (see tenbou {command + ' ' if command else ''}--help)", "usage")
        self.exit(2, self.format_usage() + line)

    def parse_args(self, args: Sequence[str] | None = None, namespace: Any = None) -> Any:  # type: ignore[override]
        """The arguments, or a usage error from the (sub)command they are given to: argparse's own
        ``parse_args`` refuses an unknown option of ``tenbou score`` as the top-level parser, with
        the top-level usage."""
        parsed, extra = self.parse_known_args(args, namespace)
        if extra:
            _command_parser(self, parsed).error(f"unrecognized arguments: {' '.join(extra)}")
        return parsed


def _command_parser(parser: argparse.ArgumentParser, parsed: argparse.Namespace) -> argparse.ArgumentParser:
    """The parser of the (sub)command ``parsed`` was read for: ``tenbou rules show``'s for
    ``tenbou rules show ID``, the top-level one when no command was read."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            name = getattr(parsed, action.dest, None)
            child = action.choices.get(name) if isinstance(name, str) else None
            if child is not None:
                return _command_parser(child, parsed)
    return parser


# -- input -------------------------------------------------------------------------------------


def read_input(
    source: str, max_bytes: int, what: str = "record", error: type[TenbouError] = LogFormatError
) -> bytes:
    """The bytes of the file ``source``, or of standard input for ``-``, read a chunk at a time
    and refused with ``error`` past ``max_bytes`` (``--max-size``), or when they cannot be read."""
    from ..io.source import read_capped

    try:
        if source != "-":
            with open(source, "rb") as f:
                return read_capped(f, source, max_bytes, what, error)
        if sys.stdin is None:
            raise OSError(errno.EBADF, "the standard input is closed")
        return read_capped(sys.stdin.buffer, source, max_bytes, what, error)
    except OSError as e:
        raise error(f"{source}: cannot be read ({e.strerror})") from None


def max_size(args: argparse.Namespace) -> int:
    """``--max-size SIZE`` in bytes (``64M``: 67108864); a size that does not read is refused."""
    from ..io.source import parse_size

    return parse_size(args.max_size)


def parse_override(text: str) -> tuple[str, object]:
    """``--set OPTION=VALUE``: the option and its value, read as JSON (``kiriage=true``), else as
    text, or for an option that is a set of yaku as their ids separated by commas."""
    name, eq, raw = text.partition("=")
    if not eq or not name:
        raise RequestError(f"--set expects option=value (e.g. kiriage=true), not {text!r}")
    try:
        value: object = loads_request(raw)  # (strict: a value that is not JSON is taken as text)
    except RequestError:
        value = raw.split(",") if OPTION_SPECS.get(name) and OPTION_SPECS[name].kind == "yaku_set" else raw
    return name, value


# -- arguments ---------------------------------------------------------------------------------


def file_name(text: str) -> str:
    """A file or folder named on the command line: never empty (``tenbou verify "$DIR"`` with
    ``DIR`` unset would otherwise read the current folder, as ``Path("")`` is ``.``)."""
    if not text:
        raise argparse.ArgumentTypeError("an empty name names no file")
    return text


def add_max_size(
    p: argparse.ArgumentParser,
    what: str = "a record larger than SIZE, as stored or once inflated",
    why: str = "a gzip bomb is stopped as it inflates",
) -> None:
    """``--max-size SIZE``: what a command refuses past it, and why."""
    p.add_argument(
        "--max-size",
        default="64M",
        metavar="SIZE",
        help=f"refuse {what} (bytes, or with k, M, G; at most 1024G; default 64M): {why}",
    )
