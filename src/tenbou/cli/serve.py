"""``tenbou serve``: the web calculator, the score sheet and the JSON API under uvicorn (the
optional extra ``web``: FastAPI and uvicorn are imported only when the command runs)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from ..errors import RequestError
from ..io.files import shown_path
from .common import Commands

__all__ = ["add_parsers"]


def add_parsers(sub: Commands) -> None:
    """``tenbou serve``."""
    sv = sub.add_parser(
        "serve",
        help="run the web calculator and score sheet (needs the 'web' extra)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Serve the web calculator, the score sheet of whole games (kept in an SQLite file, "
        "--db) and the JSON API (POST /api/score, POST /api/settle, GET /api/rules, /api/games; "
        "OpenAPI at /openapi.json). Needs: pip install 'tenbou[web]'.",
        epilog="""who may do what (docs/web.md):
  On 127.0.0.1 (the default) with no password, the page is open to the person at this machine.
  Bound to another address (--host 0.0.0.0: phones on the club's Wi-Fi), the server needs the
  operator's password (TENBOU_PASSWORD, or --password-file FILE) and refuses to start without
  it. The operator signs in with it (any user name) and may list, start, import and delete
  games; each game has an edit link (record and change its hands) and a view link (follow it),
  shown when the game is started: give them to the players. Every other request gets 401.
  Requests from other sites' pages and for other host names (DNS rebinding) are refused
  everywhere; --allow-host NAME adds a name the server answers to (a DNS name of this machine).
  On a network you do not trust, serve HTTPS (--certfile, --keyfile).""",
    )
    sv.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    sv.add_argument("--port", type=int, default=8000, help="port (default 8000; 0: any free port)")
    sv.add_argument(
        "--log-level",
        default="info",
        choices=("critical", "error", "warning", "info", "debug"),
        help="uvicorn's log level (default info)",
    )
    sv.add_argument(
        "--db",
        metavar="FILE",
        help="the score sheet's SQLite database, in a folder that exists (default "
        "$XDG_DATA_HOME/tenbou/games.sqlite3, else ~/.local/share/tenbou/games.sqlite3, its folder "
        "made on first use)",
    )
    sv.add_argument(
        "--password-file",
        metavar="FILE",
        help="the operator's password, the first line of FILE (else $TENBOU_PASSWORD; at least 8 "
        "characters; needed beyond loopback)",
    )
    sv.add_argument(
        "--allow-host",
        metavar="NAME",
        action="append",
        default=[],
        help="a host name the server answers to besides localhost, IP addresses and this machine's "
        "names (repeatable)",
    )
    sv.add_argument(
        "--max-games",
        type=int,
        metavar="N",
        help="the most games the database keeps (default 100000); new ones are refused past it",
    )
    sv.add_argument("--certfile", metavar="PEM", help="serve HTTPS with this certificate (and --keyfile)")
    sv.add_argument("--keyfile", metavar="PEM", help="the private key of --certfile")
    sv.set_defaults(func=_cmd_serve)


def _cmd_serve(args: argparse.Namespace) -> int:
    """Run the web calculator under uvicorn (FastAPI and uvicorn are imported only here)."""
    try:
        import fastapi  # noqa: F401 - the 'web' extra is there
        import uvicorn  # noqa: F401

        from ..web.app import serve
    except ImportError as e:
        sys.stderr.write(f"tenbou: serve needs the 'web' extra: pip install 'tenbou[web]' ({e})\n")
        return 2
    from ..web.access import is_loopback
    from ..web.store import default_db_path

    db = Path(args.db) if args.db else default_db_path()
    scheme = "https" if args.certfile else "http"

    def started(address: tuple[Any, ...]) -> None:
        shown = f"[{address[0]}]" if ":" in str(address[0]) else address[0]
        sys.stderr.write(f"tenbou: web calculator on {scheme}://{shown}:{address[1]}/ (Ctrl-C stops it)\n")
        sys.stderr.write(f"tenbou: score sheet games kept in {shown_path(db)}\n")
        if password is None:
            sys.stderr.write("tenbou: open to this machine only (bound to loopback, no password)\n")
            return
        sys.stderr.write(
            "tenbou: every request needs the operator's password (any user name) or a game's link\n"
        )
        if scheme == "http" and not is_loopback(args.host):
            sys.stderr.write(
                "tenbou: plain HTTP: the password and links cross the network in clear "
                "(serve HTTPS with --certfile/--keyfile on a network you do not trust)\n"
            )

    # uvicorn with the limits and access of docs/web.md
    password = _serve_password(args)
    if args.max_games is not None and args.max_games < 1:
        raise RequestError(f"--max-games {args.max_games}: expected a number of games from 1")
    serve(
        args.host,
        args.port,
        log_level=args.log_level,
        db_path=db,
        password=password,
        allow_hosts=args.allow_host,
        max_games=args.max_games,
        certfile=args.certfile,
        keyfile=args.keyfile,
        make_folder=not args.db,
        started=started,
    )
    return 0


def _serve_password(args: argparse.Namespace) -> str | None:
    """The operator's password: the first line of ``--password-file``, else ``$TENBOU_PASSWORD``."""
    if args.password_file:
        try:
            with open(args.password_file, encoding="utf-8") as f:
                line = f.readline(4096).rstrip("\r\n")
        except (OSError, UnicodeDecodeError) as e:
            why = e.strerror if isinstance(e, OSError) else "not UTF-8 text"
            raise RequestError(f"--password-file {args.password_file}: cannot be read ({why})") from None
        if not line:
            raise RequestError(f"--password-file {args.password_file}: its first line is empty")
        return line
    return os.environ.get("TENBOU_PASSWORD") or None
