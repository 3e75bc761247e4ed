"""``tenbou score`` and ``tenbou settle``: a hand scored, or a hand's end settled, from hand
notation and flags or from JSON requests (one object or JSON Lines; docs/json-api.md).

``tenbou score 'HAND' --winner 1 --from 3`` makes the JSON request of :func:`tenbou.api.score`
from its flags; a file (or ``-``, standard input) is read as requests, each answered in turn: a
bad one gets its error (on stderr, or as its error object with ``--json``) and the batch goes on.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from ..api import loads_request, score, settle
from ..core.hand import Hand
from ..core.tiles import Tile, parse_tiles
from ..errors import NotationError, RequestError, TenbouError
from ..io.files import shown_path
from .common import Commands, add_max_size, emit_error, file_name, max_size, parse_override, read_input
from .output import format_result, format_settlement, json_line

__all__ = ["add_parsers"]

_FLAG_NAMES = ("riichi", "double_riichi", "ippatsu", "rinshan", "chankan", "haitei", "houtei",
               "tenhou", "chiihou", "renhou", "fourth_kan")  # fmt: skip
_FLAG_HELP = {
    "riichi": "the winner declared riichi",
    "double_riichi": "a double riichi (riichi on the first discard; not with --riichi)",
    "ippatsu": "won within a go-around of the riichi, no call between",
    "rinshan": "won on the replacement tile of a kan (a tsumo)",
    "chankan": "won on a tile added to a kan (a ron: give --from)",
    "haitei": "won by tsumo on the last tile of the wall",
    "houtei": "won by ron on the last discard",
    "tenhou": "the dealer won on the first draw",
    "chiihou": "a non-dealer won on their first draw, no call before",
    "renhou": "a non-dealer won by ron before their first draw (as the rules' renhou counts it)",
    "fourth_kan": "the daiminkan of --from's discard made the winner's fourth kan: a suukantsu dealt in "
    '(suukantsu_pao_timing = "fourth_kan"; the hand before the call, the discard as the winning tile)',
}

#: ``--max-size`` of score and settle: what is refused, and why
_REQUESTS_MAX_SIZE = (
    "a request file, or standard input, larger than SIZE",
    "the input is held whole, and the limit is checked as it is read",
)


def add_parsers(sub: Commands) -> None:
    """``tenbou score`` and ``tenbou settle``."""
    p = sub.add_parser(
        "score",
        help="score a winning hand",
        description="Score a winning hand written in hand notation, or the requests of a JSON file "
        "(one object or JSON Lines; see docs/json-api.md). An argument that names no file is read as a "
        "hand; one ending in .json or .jsonl, or holding a path separator, is a file. Exit status: 0 "
        "scored, 2 bad input (a bad line of a batch gets its error and the batch goes on).",
    )
    _add_hand_args(p)
    add_max_size(p, *_REQUESTS_MAX_SIZE)
    p.set_defaults(func=_cmd_score)
    st = sub.add_parser(
        "settle",
        help="settle the end of a hand: wins (pao, multiple ron) or a draw",
        description="Settle the end of a hand from a JSON request (docs/json-api.md): "
        "one object or JSON Lines.",
    )
    st.add_argument("hand", type=file_name, metavar="FILE", help="a JSON request file ('-' = stdin)")
    st.add_argument("--json", action="store_true", help="print JSON (one result per line)")
    add_max_size(st, *_REQUESTS_MAX_SIZE)
    st.set_defaults(func=_cmd_settle)


def _add_hand_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "hand",
        metavar="HAND|FILE",
        help="a hand in hand notation ('23m55p +4m pon:555z@2 ...'), or a JSON request file ('-' = stdin)",
    )
    p.add_argument("--json", action="store_true", help="print JSON (one result per line)")
    p.add_argument("--rules", default="tenhou", help="rules preset id (default: tenhou)")
    p.add_argument(
        "--set", action="append", metavar="OPTION=VALUE", help="override a rule option (repeatable)"
    )
    p.add_argument("--players", type=int, choices=(3, 4), help="number of players (default: the preset's)")
    p.add_argument("--winner", type=int, default=0, metavar="SEAT", help="the winner's seat (default 0)")
    p.add_argument(
        "--dealer", type=int, metavar="SEAT", help="the dealer's seat (default 0; or give --seat-wind)"
    )
    p.add_argument(
        "--seat-wind",
        choices=("E", "S", "W", "N"),
        help="the winner's seat wind: sets the dealer relative to the winner (refused when it "
        "disagrees with --dealer)",
    )
    p.add_argument("--round", default="E", choices=("E", "S", "W", "N"), help="round wind (default E)")
    p.add_argument(
        "--from",
        dest="from_seat",
        type=int,
        metavar="SEAT",
        help="ron: the discarder's seat (leave out for a tsumo)",
    )
    p.add_argument("--dora", metavar="TILES", help="dora indicators, mpsz (e.g. 1p4z)")
    p.add_argument("--ura", metavar="TILES", help="ura dora indicators, mpsz")
    p.add_argument("--kita", type=int, default=0, metavar="N", help="North tiles set aside (three players)")
    p.add_argument(
        "--honba", type=int, default=0, metavar="N", help="honba (repeat counters) on the table (default 0)"
    )
    p.add_argument(
        "--riichi-sticks",
        type=int,
        default=0,
        metavar="N",
        help="riichi sticks on the table, the winner collects them (default 0)",
    )
    situation = p.add_argument_group(
        "situation", "how the hand was won (the JSON request's flags of the same names)"
    )
    for name in _FLAG_NAMES:
        situation.add_argument(
            f"--{name.replace('_', '-')}", dest=name, action="store_true", help=_FLAG_HELP[name]
        )


# -- input -------------------------------------------------------------------------------------


def _read_requests(data: bytes, name: str) -> Iterator[tuple[int, dict[str, Any] | TenbouError]]:
    """The requests of a file's bytes (``name`` names it): one JSON object, or JSON Lines. A
    line that is not UTF-8 or not a JSON object gets its error, and the others are read."""
    stripped = data.strip()
    if not stripped:
        yield 1, RequestError(f"{name}: no request (empty input)")
        return
    try:  # one JSON value (read strictly below: bytes that are not UTF-8 are refused), or else JSON Lines
        json.loads(stripped.decode("utf-8", "surrogateescape"))
    except (json.JSONDecodeError, RecursionError, ValueError):
        pass
    else:
        try:
            whole = loads_request(stripped)
        except RequestError as e:
            yield 1, RequestError(f"{name}: {e}")
            return
        if isinstance(whole, dict):
            yield 1, whole
            return
        yield 1, RequestError(f"{name}: expected a JSON object or JSON Lines, not {type(whole).__name__}")
        return
    for n, line in enumerate(data.splitlines(), 1):  # lines end at \n, \r or \r\n, as in JSON Lines
        if not line.strip():
            continue
        try:
            obj = loads_request(line)
        except RequestError as e:
            yield n, RequestError(f"line {n}: {e}")
            continue
        if not isinstance(obj, dict):
            yield n, RequestError(f"line {n}: expected a JSON object, not {type(obj).__name__}")
            continue
        yield n, obj


def _flag_tiles(flag: str, text: str) -> tuple[Tile, ...]:
    """The tiles of ``--dora 3s4z``; a bad one names the flag."""
    try:
        return parse_tiles(text)
    except NotationError as e:
        raise NotationError(f"{flag}: {e}") from None


#: flags that say the same thing twice: given together they are refused, never settled silently
_CONFLICTS = (("riichi", "double_riichi", "a double riichi is a riichi: give --double-riichi alone"),)


def _dealer_from_args(args: argparse.Namespace) -> int:
    """The dealer's seat from ``--dealer`` or ``--seat-wind`` (the winner's seat wind); both
    given and saying different seats are refused, as is a seat wind the table does not have."""
    n = args.players or 4
    if args.seat_wind is None:
        dealer: int = 0 if args.dealer is None else args.dealer
        return dealer
    idx = "ESWN".index(args.seat_wind)
    if idx >= n:
        raise RequestError(f"--seat-wind {args.seat_wind}: {n} players have no {args.seat_wind} seat")
    dealer = (args.winner - idx) % n
    if args.dealer is not None and args.dealer != dealer:
        raise RequestError(
            f"--dealer {args.dealer} and --seat-wind {args.seat_wind} disagree: with --winner {args.winner}, "
            f"seat wind {args.seat_wind} makes seat {dealer} the dealer (give one of them)"
        )
    return dealer


def _hand_or_missing_file(source: str) -> None:
    """``score``'s argument when it names no file: a hand, or else a file that is missing. A
    word ending in ``.json``/``.jsonl``, holding a path separator or a dot, or naming no tile
    (a hand names tiles: ``123m``) is a missing file; anything else is read as a hand (a bad
    one is refused with what is wrong in its notation)."""
    name = shown_path(source)
    if source.lower().endswith((".json", ".jsonl")) or any(c in source for c in "/\\."):
        raise RequestError(f"{name}: {_not_a_file(source)}")
    if not any(a.isdigit() and b in "mpsz" for a, b in itertools.pairwise(source)):
        raise RequestError(f"{name}: no such file (nor a hand: a hand names its tiles, such as 123m)")


def _not_a_file(source: str) -> str:
    """Why a request file cannot be read: it is a folder, or there is none."""
    return "a folder, not a request file" if os.path.isdir(source) else "no such file"


def _request_from_args(args: argparse.Namespace) -> dict[str, Any]:
    for a, b, why in _CONFLICTS:
        if getattr(args, a) and getattr(args, b):
            raise RequestError(f"--{a.replace('_', '-')} and --{b.replace('_', '-')}: {why}")
    hand = Hand.parse(args.hand)
    req: dict[str, Any] = {}
    if args.set:
        req["rules"] = {"preset": args.rules, "overrides": dict(parse_override(s) for s in args.set)}
    else:
        req["rules"] = args.rules
    winner = args.winner
    players = args.players
    if players is not None:
        req["players"] = players
    req["dealer"] = _dealer_from_args(args)
    req["round_wind"] = args.round
    req["winner"] = winner
    if args.from_seat is not None:
        req["from"] = args.from_seat
    req.update(hand.request_fields())
    for name in _FLAG_NAMES:
        if getattr(args, name):
            req[name] = True
    for flag, field, text in (
        ("--dora", "dora_indicators", args.dora),
        ("--ura", "ura_indicators", args.ura),
    ):
        if text:  # the request's list of one-tile strings
            req[field] = [str(t) for t in _flag_tiles(flag, text)]
    for name in ("kita", "honba", "riichi_sticks"):
        value = getattr(args, name)
        if value:
            req[name] = value
    return req


# -- the commands ------------------------------------------------------------------------------


def _run_requests(
    args: argparse.Namespace,
    handler: Callable[[dict[str, Any]], dict[str, Any]],
    formatter: Callable[[dict[str, Any], dict[str, Any]], str],
) -> int:
    out = sys.stdout
    status = 0
    source = args.hand
    is_file = source == "-" or Path(source).is_file()
    max_bytes = max_size(args)
    if not is_file and args.command == "settle":
        raise RequestError(
            f"{shown_path(source)}: {_not_a_file(source)} (settle reads JSON requests; '-' is stdin)"
        )
    data = read_input(source, max_bytes, "input", RequestError) if is_file else b""
    if not is_file:
        _hand_or_missing_file(source)
        req = _request_from_args(args)
        result = handler(req)
        if args.json:
            out.write(json_line(result))
        else:
            out.write(formatter(req, result) + "\n")
        return 0
    first = True
    for line_no, item in _read_requests(data, shown_path(source)):
        try:
            if isinstance(item, TenbouError):
                raise item
            result = handler(item)
        except TenbouError as e:
            status = 2
            emit_error(e, out, args.json, f" (request {line_no})")
            continue
        if args.json:
            out.write(json_line(result))
        else:
            if not first:
                out.write("\n")
            out.write(formatter(item, result) + "\n")
            first = False
    return status


def _cmd_score(args: argparse.Namespace) -> int:
    return _run_requests(args, score, format_result)


def _cmd_settle(args: argparse.Namespace) -> int:
    return _run_requests(args, settle, format_settlement)
