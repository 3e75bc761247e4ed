"""The ``tenbou`` command line: a thin front end over :mod:`tenbou.api`.

``tenbou score`` scores a hand written in hand notation (see
:mod:`tenbou.core.hand`) or read from a JSON request file; ``--json`` prints the
JSON result, one line per request (JSON Lines in, JSON Lines out).
``tenbou rules list|show|diff`` describes the presets. ``tenbou serve`` runs the web
calculator (the optional extra ``web``) and ``tenbou svg`` draws a hand as SVG or PNG.
``tenbou verify``, ``tenbou export`` and ``tenbou convert`` work on real records
(see :mod:`tenbou.records` and :mod:`tenbou.io.convert`).

Exit status: 0 on success, 2 on bad input (the error names the field or tile) or an output
that cannot be written (one ``tenbou: error: ... [code]`` line on stderr, never a traceback);
141 when the reader of standard output goes away (``| head``), as for a program SIGPIPE stops.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import itertools
import json
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO

from . import __version__, build_info
from .api import loads_request, request_hand, score, settle
from .core.hand import Hand
from .core.tiles import Tile, parse_tiles
from .errors import LogFormatError, NotationError, RequestError, TenbouError
from .files import OutputFile, StandardOutputError, shown_path, standard_output
from .rules import OPTION_SPECS, get_preset, presets
from .rules.presets import UNKNOWN, Preset

__all__ = ["main"]

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


# -- input ----------------------------------------------------------------------------------


def _read_input(
    source: str, max_bytes: int, what: str = "record", error: type[TenbouError] = LogFormatError
) -> bytes:
    """The bytes of the file ``source``, or of standard input for ``-``, read a chunk at a time
    and refused with ``error`` past ``max_bytes`` (``--max-size``), or when they cannot be read."""
    from .io.source import read_capped

    try:
        if source != "-":
            with open(source, "rb") as f:
                return read_capped(f, source, max_bytes, what, error)
        if sys.stdin is None:
            raise OSError(errno.EBADF, "the standard input is closed")
        return read_capped(sys.stdin.buffer, source, max_bytes, what, error)
    except OSError as e:
        raise error(f"{source}: cannot be read ({e.strerror})") from None


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


def _parse_override(text: str) -> tuple[str, object]:
    name, eq, raw = text.partition("=")
    if not eq or not name:
        raise RequestError(f"--set expects option=value (e.g. kiriage=true), not {text!r}")
    try:
        value: object = loads_request(raw)  # (strict: a value that is not JSON is taken as text)
    except RequestError:
        value = raw.split(",") if OPTION_SPECS.get(name) and OPTION_SPECS[name].kind == "yaku_set" else raw
    return name, value


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
        req["rules"] = {"preset": args.rules, "overrides": dict(_parse_override(s) for s in args.set)}
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


# -- human output -------------------------------------------------------------------------------


def _signed(n: int) -> str:
    return f"{n:+,}" if n else "0"


def _fu_text(result: dict[str, Any]) -> str:
    items = result["fu_breakdown"]
    if not items:
        return f"{result['fu']} (not counted for this hand)"
    parts = " + ".join(f"{i['reason'].replace('_', ' ')} {i['fu']}" for i in items)
    raw = sum(i["fu"] for i in items)
    if raw == result["fu"]:
        return f"{result['fu']}  ({parts})"
    return f"{result['fu']}  ({parts} = {raw}, rounded up)"


_PAO_RULES = {
    "pao_yaku": "the call that made the yakuman certain",
    "daiminkan_pao": "daiminkan pao: the rinshan win is paid as a ron by the player whose tile was kanned",
    "explicit": "named in the request",
}


def _win_lines(request: dict[str, Any], result: dict[str, Any]) -> list[str]:
    lines = []
    how = "tsumo" if result.get("from") is None else f"ron from seat {result['from']}"
    if result.get("fourth_kan"):
        how = f"fourth kan, a daiminkan of seat {result['from']}'s discard"
    who = "dealer" if result.get("dealer") else "non-dealer"
    lines.append(f"Winner    seat {result['winner']} ({who}), {how}")
    hand = request_hand(request)  # (scored already: a hand that reads) written in its canonical text
    lines.append(f"Hand      {hand}")
    lines.append(f"Shape     {result['form']}, wait {result['wait']}")
    lines.append("Yaku")
    width = max(len(y["name"]) for y in result["yaku"])
    for y in result["yaku"]:
        mult = y.get("yakuman", 0)
        value = f"yakuman x{mult}" if mult > 1 else "yakuman" if mult else f"{y['han']} han"
        lines.append(f"  {y['name']:<{width}}  {value:<10}  {y['name_ja']}")
    lines.append(f"Fu        {_fu_text(result)}")
    limit = f", {result['limit'].replace('_', ' ')}" if result["limit"] else ""
    lines.append(
        f"Value     {result['han']} han {result['fu']} fu{limit}: base {result['base_points']:,}, "
        f"hand {result['points']:,}"
    )
    for p in result.get("pao", []):
        where = ""
        i = p.get("meld")
        if isinstance(i, int) and i < len(hand.melds):
            where = f", melds[{i}] {hand.melds[i]}"
        lines.append(
            f"Pao       seat {p['seat']} is liable for {p['yaku']} "
            f"({_PAO_RULES.get(p['rule'], p['rule'])}{where})"
        )
    return lines


def _money_lines(result: dict[str, Any]) -> list[str]:
    lines = ["Payments"]
    for p in result["payments"]:
        src = "table " if p["from"] is None else f"seat {p['from']}"
        lines.append(f"  {src} -> seat {p['to']}  {p['points']:>7,}  {p['kind']}")
    if not result["payments"]:
        lines.append("  none")
    lines.append("Deltas    " + "  ".join(f"seat {i}: {_signed(d)}" for i, d in enumerate(result["deltas"])))
    if "chips" in result:
        lines.append(
            "Chips     " + "  ".join(f"seat {i}: {_signed(c)}" for i, c in enumerate(result["chips"]))
        )
    return lines


def format_result(request: dict[str, Any], result: dict[str, Any]) -> str:
    """A score result for people: yaku table, fu breakdown, value, pao, payments."""
    return "\n".join(_win_lines(request, result) + _money_lines(result))


def format_settlement(request: dict[str, Any], result: dict[str, Any]) -> str:
    """A settlement for people: each win, then every payment, deltas and the next hand."""
    lines = [
        f"End       {result['kind'].replace('_', ' ')}"
        + (f" ({result['reason']})" if "reason" in result else "")
    ]
    wins = request.get("wins") or []
    by_winner = {w.get("winner"): w for w in wins if isinstance(w, dict)}
    for n, r in enumerate(result["results"], 1):
        lines.append(f"-- win {n} of {len(result['results'])}")
        lines.extend(_win_lines(by_winner.get(r["winner"], {}), r))
    for skipped in result.get("skipped", []):
        lines.append(f"-- seat {skipped['winner']}'s ron is not paid ({skipped['reason']})")
    lines.append("--")
    lines.extend(_money_lines(result))
    nxt = result["next"]
    lines.append(
        f"Next      dealer seat {nxt['dealer']}, {nxt['honba']} honba, {nxt['riichi_sticks']} riichi stick(s)"
    )
    return "\n".join(lines)


# -- commands -------------------------------------------------------------------------------


#: what would break an error line in two (or more): C0 controls but the tab, DEL, C1 controls and
#: the separators str.splitlines() splits at, each written as its escape
_LINE_BREAKERS = {
    **{c: f"\\x{c:02x}" for c in (*range(0x20), *range(0x7F, 0xA0)) if c != 0x09},
    0x0A: "\\n",
    0x0D: "\\r",
    0x2028: "\\u2028",
    0x2029: "\\u2029",
}


def _error_line(message: str, code: str, where: str = "") -> str:
    """The one line of an error on stderr, ``tenbou: error: MESSAGE [code]``: whatever the
    message quotes (a file named with a newline), it stays one line."""
    return _one_line(f"tenbou: error{where}: {message} [{code}]")


def _one_line(text: str) -> str:
    """``text`` as one line to write, its end of line included: whatever it quotes (a file named
    with a newline) is escaped."""
    line = text.translate(_LINE_BREAKERS) + "\n"
    # (an argument that is not UTF-8 reaches Python as surrogates: shown as \udcff, on any stream)
    return line.encode("utf-8", "backslashreplace").decode("utf-8")


def _report(message: str, code: str, where: str = "") -> None:
    """Write an error line on stderr (a stderr that cannot be written says nothing)."""
    with contextlib.suppress(OSError):
        sys.stderr.write(_error_line(message, code, where))


def _emit_error(e: TenbouError, out: TextIO, as_json: bool, where: str = "") -> None:
    """Report bad input: its error object on ``out`` (``--json``), else its line on stderr. A
    command raises :class:`TenbouError` and ``main`` reports it; a batch reports each bad item
    here itself, and goes on."""
    if as_json:
        out.write(json.dumps(e.to_dict(), ensure_ascii=False) + "\n")
    else:
        _report(str(e), e.code, where)


def _run_requests(
    args: argparse.Namespace,
    handler: Callable[[dict[str, Any]], dict[str, Any]],
    formatter: Callable[[dict[str, Any], dict[str, Any]], str],
) -> int:
    out = sys.stdout
    status = 0
    source = args.hand
    is_file = source == "-" or Path(source).is_file()
    max_bytes = _max_size(args)
    if not is_file and args.command == "settle":
        raise RequestError(
            f"{shown_path(source)}: {_not_a_file(source)} (settle reads JSON requests; '-' is stdin)"
        )
    data = _read_input(source, max_bytes, "input", RequestError) if is_file else b""
    if not is_file:
        _hand_or_missing_file(source)
        req = _request_from_args(args)
        result = handler(req)
        if args.json:
            out.write(json.dumps(result, ensure_ascii=False) + "\n")
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
            _emit_error(e, out, args.json, f" (request {line_no})")
            continue
        if args.json:
            out.write(json.dumps(result, ensure_ascii=False) + "\n")
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


def _preset_sources(preset: Preset) -> dict[str, Any]:
    """What ``tenbou rules sources ID --json`` prints for one preset."""
    return {"id": preset.id, "options": len(OPTION_SPECS), "unknown": preset.unknowns()}


def _write_show(out: TextIO, p: Preset) -> None:
    """``tenbou rules show ID``: every option with its value, what it means, its source and the note."""
    unknown = [str(u["option"]) for u in p.unknowns()]
    out.write(f"{p.id}: {p.title}\n")
    if unknown:
        out.write(
            f"  {len(OPTION_SPECS) - len(unknown)} of {len(OPTION_SPECS)} options have a source; "
            f"unknown (value assumed): {', '.join(unknown)} - `tenbou rules sources {p.id}`\n"
        )
    else:
        out.write(f"  every one of the {len(OPTION_SPECS)} options has a source\n")
    for note in p.notes:
        out.write(f"  note: {note}\n")
    options: dict[str, dict[str, Any]] = p.to_dict()["options"]  # type: ignore[assignment]
    for name, entry in options.items():
        out.write(f"  {name} = {json.dumps(entry['value'], ensure_ascii=False)}\n")
        out.write(f"      means: {OPTION_SPECS[name].doc}\n")
        source = entry["source"]
        out.write(f"      source: {'UNKNOWN (the value is assumed)' if source == UNKNOWN else source}\n")
        if "note" in entry:
            out.write(f"      note: {entry['note']}\n")


def _write_sources(out: TextIO, p: Preset) -> None:
    """``tenbou rules sources ID``: the options still without a source, to contribute one."""
    unknown = p.unknowns()
    if not unknown:
        out.write(f"{p.id}: every one of the {len(OPTION_SPECS)} options has a source\n")
        return
    out.write(f"{p.id}: {len(unknown)} of {len(OPTION_SPECS)} options without a source (value assumed)\n")
    for u in unknown:
        out.write(f"  {u['option']} = {json.dumps(u['value'], ensure_ascii=False)}\n")
        out.write(f"      note: {u['note']}\n")


def _cmd_rules(args: argparse.Namespace) -> int:
    out = sys.stdout
    if args.rules_cmd == "list":
        chosen = list(presets().values())
        if args.json:
            items = [{"id": p.id, "name": p.name, "name_en": p.name_en} for p in chosen]
            out.write(json.dumps(items, ensure_ascii=False) + "\n")
        else:
            width = max(len(p.id) for p in chosen)
            for p in chosen:
                out.write(f"{p.id:<{width}}  {p.title}\n")
        return 0
    if args.rules_cmd == "show":
        p = get_preset(args.id)
        if args.json:
            out.write(json.dumps(p.to_dict(), ensure_ascii=False) + "\n")
        else:
            _write_show(out, p)
        return 0
    if args.rules_cmd == "sources":
        chosen = [get_preset(args.id)] if args.id else list(presets().values())
        if args.json:
            data: Any = [_preset_sources(p) for p in chosen]
            out.write(json.dumps(data[0] if args.id else data, ensure_ascii=False) + "\n")
        elif args.id:
            _write_sources(out, chosen[0])
        else:
            width = max(len(p.id) for p in chosen)
            for p in chosen:
                unknown = [str(u["option"]) for u in p.unknowns()]
                names = ", ".join(unknown) if len(unknown) <= 5 else f"(tenbou rules sources {p.id})"
                out.write(f"{p.id:<{width}}  {len(unknown):>2} unknown  {names}".rstrip() + "\n")
        return 0
    a, b = get_preset(args.a), get_preset(args.b)
    da, db = a.rules.to_dict(), b.rules.to_dict()
    diff = {k: {"a": da[k], "b": db[k]} for k in OPTION_SPECS if da[k] != db[k]}
    if args.json:
        out.write(json.dumps({"a": a.id, "b": b.id, "options": diff}, ensure_ascii=False) + "\n")
        return 0
    if not diff:
        out.write(f"{a.id} and {b.id} have the same options\n")
    for k, v in diff.items():
        out.write(
            f"{k}: {a.id}={json.dumps(v['a'], ensure_ascii=False)}  "
            f"{b.id}={json.dumps(v['b'], ensure_ascii=False)}\n"
        )
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    """Run the web calculator under uvicorn (FastAPI and uvicorn are imported only here)."""
    try:
        import fastapi  # noqa: F401 - the 'web' extra is there
        import uvicorn  # noqa: F401

        from .web.app import serve
    except ImportError as e:
        sys.stderr.write(f"tenbou: serve needs the 'web' extra: pip install 'tenbou[web]' ({e})\n")
        return 2
    from .web.access import is_loopback
    from .web.store import default_db_path

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


#: the height in pixels of the tallest PNG ``tenbou svg`` draws (``--height`` times ``--zoom``): a
#: hand is some twenty tiles wide, so the image stays within tens of megabytes
MAX_PNG_HEIGHT = 2048


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
    from .render.svg import hand_svg, svg_to_png, tiles_svg

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
    target = _output(out, "-o")
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


def _rules_json_from_args(args: argparse.Namespace) -> Any:
    """``--rules ID`` with its ``--set`` overrides, as a JSON rules value (checked here: an
    unknown preset or option is refused before any record is read)."""
    from .rules import rules_from_request

    rules: Any = args.rules
    if args.set:
        rules = {"preset": args.rules, "overrides": dict(_parse_override(x) for x in args.set)}
    rules_from_request(rules)
    return rules


def _hand_label(line: dict[str, Any]) -> str:
    return f"{line['round']}{line['number']}-{line['honba']}"


def _rules_text(rules: Any) -> str:
    """A JSON rules value as it is written: ``mleague``, or the preset with its overrides."""
    if isinstance(rules, str):
        return rules
    return json.dumps(rules, ensure_ascii=False, separators=(", ", ": "))


def _warn_rules_not_used(records: Sequence[Any], asked: Any, source: str) -> None:
    """A warning line on stderr for each game whose record names rules of its own
    (``tenbou_rules``) other than those ``--rules`` asked for: the record's win, and the
    game is not played under ``--rules``."""
    from .rules import rules_from_request

    wanted = rules_from_request(asked)
    for rec in records:
        named = rec.meta.get("tenbou_rules")
        if named is None or rules_from_request(named) == wanted:
            continue
        with contextlib.suppress(OSError):
            sys.stderr.write(
                _one_line(
                    f"tenbou: warning: {source} game {rec.index} names its own rules "
                    f"({_rules_text(named)}): played under them, not under --rules {_rules_text(asked)}"
                )
            )


def _cmd_replay(args: argparse.Namespace) -> int:
    from .io.mjai import mjai_records
    from .io.source import MAX_RECORD_BYTES, inflate
    from .verify import hand_lines, replay_games, summary

    out = sys.stdout
    given = args.rules is not None or bool(args.set)
    if args.rules is None:
        args.rules = "tenhou"
    fallback = _rules_json_from_args(args)
    source = args.file
    data = inflate(_read_input(source, MAX_RECORD_BYTES), source)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise RequestError(f"{source}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    # the mjai reader checks every line (seats, counts, lists) before the engine sees it; each
    # game is played under the rules its record names, else under --rules (as verify does)
    records = mjai_records(text, source, fallback)
    if given:
        _warn_rules_not_used(records, fallback, shown_path(source))
    games = [g for rec in records for g in replay_games(rec.events, rec.get_rules(), strict=not args.lenient)]
    status = 0
    for index, g in enumerate(games):
        if g.game is None:
            status = 1
            line = {"source": args.file, "game": index, "skipped": g.error}
            out.write(
                (
                    json.dumps(line, ensure_ascii=False)
                    if args.json
                    else f"game {index}: not replayed: {g.error}"
                )
                + "\n"
            )
            continue
        for w in g.warnings:
            sys.stderr.write(f"tenbou: game {index}: {w}\n")
        for line in hand_lines(g.game, args.file, index):
            if line.get("match") is False:
                status = 1
            if args.json:
                out.write(json.dumps(line, ensure_ascii=False) + "\n")
                continue
            who = ""
            for r in line["results"]:
                how = "tsumo" if r["from"] is None else f"ron {r['from']}"
                if r.get("fourth_kan"):
                    how = f"fourth kan {r['from']}"
                yaku = ", ".join(y["id"] for y in r["yaku"])
                pao = "".join(f" pao:{p['yaku']}@{p['seat']}" for p in r["pao"])
                who += f" seat {r['winner']} {how} {r['points']} ({yaku}){pao};"
            check = "  unchecked (the record gives no deltas)"
            if "match" in line:
                check = "  ok" if line["match"] else f"  DIFFERS from the record {line['recorded_deltas']}"
            deltas = " ".join(f"{d:+d}" for d in line["deltas"])
            out.write(f"game {index} {_hand_label(line):7} {line['kind']:15}{who} [{deltas}]{check}\n")
        final = g.game.final
        if final is not None and not args.json:
            out.write(
                f"game {index} final: points {list(final.points)}, ranking {list(final.ranking)}, "
                f"scores {list(final.final_scores)}\n"
            )
            if g.game.ended_early:
                wind, kyoku, honba, _, dealer, _ = g.game.expected_start()
                out.write(
                    f"game {index}: the record ends the game here; under its rules it goes on "
                    f"(next hand {wind.value}{kyoku}-{honba}, dealer seat {dealer})\n"
                )
    total = summary(games)
    out.write(
        (
            json.dumps(total)
            if args.json
            else "summary: " + ", ".join(f"{k} {v}" for k, v in total["summary"].items())
        )
        + "\n"
    )
    return status


# -- real records: verify, export, convert ----------------------------------------------------------


def _run_records(
    args: argparse.Namespace, on_line: Callable[[dict[str, Any]], None]
) -> tuple[list[dict[str, Any]], int]:
    """Verify the records of ``args.paths`` (in order, however the work is spread);
    returns every line and the exit status (2 if a named file is not a record)."""
    import time

    from .verify import Progress, verify_paths

    progress = Progress(sys.stderr, enabled=not args.quiet)
    status = 0
    lines: list[dict[str, Any]] = []
    start = time.monotonic()
    rules = None
    if getattr(args, "rules", None):
        rules = args.rules
    max_bytes = _max_size(args)
    results = verify_paths(
        args.paths, jobs=args.jobs, dask=args.dask, rules=rules, progress=progress, max_bytes=max_bytes
    )
    with contextlib.closing(results):  # stopped early (an output lost): the workers stop too
        for result in results:
            if result["error"] is not None:
                status = 2
                _report(result["error"], _error_code(result["lines"]))
            for line in result["lines"]:
                lines.append(line)
                on_line(line)
    args.elapsed = time.monotonic() - start
    return lines, status


def _error_code(lines: Sequence[dict[str, Any]]) -> str:
    """The code of a refused file's error: that of its first line with an error object."""
    return next((line["error"]["code"] for line in lines if isinstance(line.get("error"), dict)), "error")


def _cmd_verify(args: argparse.Namespace) -> int:
    """Replay real records through the engine and compare every hand with the record."""
    from .verify import Defect, format_mismatch, format_summary, load_defects, mark_defects, summarize

    out = sys.stdout
    defects: list[Defect] = []

    def on_line(line: dict[str, Any]) -> None:
        if defects and line.get("match") is False:
            mark_defects([line], defects)
        if args.json:
            out.write(json.dumps(line, ensure_ascii=False) + "\n")
        elif "expected_defect" in line:
            kinds = ", ".join(dict.fromkeys(m["kind"] for m in line["mismatches"]))
            out.write(
                f"known defect {line['source']} game {line['game']} hand {line['hand']} "
                f"({_hand_label(line)}): {kinds}: {line['expected_defect']}\n"
            )
        elif line.get("match") is False:
            out.write(format_mismatch(line) + "\n")
        elif "skipped" in line and args.verbose:
            out.write(f"skipped {line['source']}: {line['skipped']}\n")

    if args.expect_defects:
        defects = load_defects(args.expect_defects)
    lines, status = _run_records(args, on_line)
    stale = mark_defects(lines, defects) if defects else []
    for problem in stale:
        sys.stderr.write(f"tenbou: --expect-defects {args.expect_defects}: {problem}\n")
    total = summarize(lines)
    if stale:
        total["summary"]["defects_not_as_listed"] = stale
    if args.json:
        out.write(json.dumps(total, ensure_ascii=False) + "\n")
    else:
        out.write(format_summary(total, args.elapsed) + "\n")
    if status:
        return status
    return 1 if total["summary"]["mismatched"] or stale else 0


def _cmd_export(args: argparse.Namespace) -> int:
    """One table row per hand end of real records (replayed by the engine)."""
    from .verify import export_rows, format_summary, summarize, write_rows

    if not args.out.lower().endswith((".parquet", ".csv", ".jsonl")):
        raise RequestError(f"--out {shown_path(args.out)}: the output must end in .parquet, .csv or .jsonl")
    if args.out.lower().endswith(".parquet"):
        import importlib.util

        missing = [m for m in ("pandas", "pyarrow") if importlib.util.find_spec(m) is None]
        if missing:
            raise RequestError(
                f"--out {shown_path(args.out)}: parquet needs the optional extra 'analysis' "
                f"(pip install 'tenbou[analysis]'); missing: {', '.join(missing)}",
                "missing_extra",
            )
    target = OutputFile(args.out, "--out")  # before the work: a file it could not write is refused now
    lines, status = _run_records(args, lambda line: None)
    rows = export_rows(lines)
    target.write_with(lambda path: write_rows(rows, path))
    if not args.quiet:
        sys.stderr.write(f"tenbou: {len(rows):,} hand ends written to {args.out}\n")
        sys.stderr.write(format_summary(summarize(lines), args.elapsed) + "\n")
    return status


def _output(path: str | None, flag: str) -> OutputFile | None:
    """The file of ``-o PATH``, checked before the work; ``None`` for standard output (no
    ``-o``, or ``-o -``)."""
    return None if path is None or path == "-" else OutputFile(path, flag)


def _max_size(args: argparse.Namespace) -> int:
    from .io.source import parse_size

    return parse_size(args.max_size)


def _cmd_convert(args: argparse.Namespace) -> int:
    """Convert a record between Tenhou mjlog, tenhou.net/6 JSON and mjai JSON Lines."""
    from .io.read import parse_records
    from .verify import write_records

    max_bytes = _max_size(args)
    if args.per_kyoku and args.to != "tenhou6":
        raise RequestError(f"--per-kyoku writes tenhou.net/6 (--to tenhou6), not {args.to}")
    target = _output(args.output, "-o")
    data = _read_input(args.input, max_bytes)
    games = parse_records(data, args.input, args.source_format, max_bytes=max_bytes)
    written = write_records(games, args.to, per_kyoku=args.per_kyoku)
    if target is None:
        sys.stdout.buffer.write(written)
    else:
        target.write_bytes(written)
    return 0


def _file_name(text: str) -> str:
    """A file or folder named on the command line: never empty (``tenbou verify "$DIR"`` with
    ``DIR`` unset would otherwise read the current folder, as ``Path("")`` is ``.``)."""
    if not text:
        raise argparse.ArgumentTypeError("an empty name names no file")
    return text


def _jobs(text: str) -> int:
    """``--jobs N``: a whole number, 1 or more."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"N is a whole number of processes, not {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"N is 1 or more (processes), not {n}")
    return n


def _add_record_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "paths",
        nargs="+",
        type=_file_name,
        metavar="PATH",
        help="record files and folders (formats are detected)",
    )
    p.add_argument(
        "--jobs",
        type=_jobs,
        default=1,
        metavar="N",
        help="spread the files over up to N local processes (N is 1 or more; no more processes are "
        "started than there are files, or cores this process may use; default 1)",
    )
    p.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="run on the Dask cluster at ADDRESS ('local' starts a LocalCluster of up to --jobs workers; "
        "needs the 'dask' extra)",
    )
    p.add_argument(
        "--rules",
        metavar="ID",
        help="rules of mjai records that do not name theirs (default: tenhou); a record's own rules "
        "(mjlog GO type, tenhou.net/6 rule, mjai start_game) always win, as in tenbou replay",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar on stderr")
    _add_max_size(p)


#: ``--max-size`` of score and settle: what is refused, and why
_REQUESTS_MAX_SIZE = (
    "a request file, or standard input, larger than SIZE",
    "the input is held whole, and the limit is checked as it is read",
)


def _add_max_size(
    p: argparse.ArgumentParser,
    what: str = "a record larger than SIZE, as stored or once inflated",
    why: str = "a gzip bomb is stopped as it inflates",
) -> None:
    p.add_argument(
        "--max-size",
        default="64M",
        metavar="SIZE",
        help=f"refuse {what} (bytes, or with k, M, G; at most 1024G; default 64M): {why}",
    )


class _Parser(argparse.ArgumentParser):
    """argparse, with tenbou's error line: a usage error (an unknown option, a missing argument,
    a bad number) is the short usage of the command it is about (``usage: tenbou score ...``), then
    one ``tenbou: error: ... [usage]`` line and exit status 2, as every other error is, with the
    command's ``--help`` to turn to (the subcommands' parsers are of this class too: argparse makes
    them of the class of their parent)."""

    def error(self, message: str) -> NoReturn:
        command = self.prog.removeprefix("tenbou").strip()
        line = _error_line(f"{message} (see tenbou {command + ' ' if command else ''}--help)", "usage")
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


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="tenbou", description="Riichi mahjong rules engine: score and settle hands.")
    parser.add_argument("--version", action="version", version=f"tenbou {__version__}, {build_info()}")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser(
        "score",
        help="score a winning hand",
        description="Score a winning hand written in hand notation, or the requests of a JSON file "
        "(one object or JSON Lines; see docs/json-api.md). An argument that names no file is read as a "
        "hand; one ending in .json or .jsonl, or holding a path separator, is a file. Exit status: 0 "
        "scored, 2 bad input (a bad line of a batch gets its error and the batch goes on).",
    )
    _add_hand_args(p)
    _add_max_size(p, *_REQUESTS_MAX_SIZE)
    p.set_defaults(func=_cmd_score)
    st = sub.add_parser(
        "settle",
        help="settle the end of a hand: wins (pao, multiple ron) or a draw",
        description="Settle the end of a hand from a JSON request (docs/json-api.md): "
        "one object or JSON Lines.",
    )
    st.add_argument("hand", type=_file_name, metavar="FILE", help="a JSON request file ('-' = stdin)")
    st.add_argument("--json", action="store_true", help="print JSON (one result per line)")
    _add_max_size(st, *_REQUESTS_MAX_SIZE)
    st.set_defaults(func=_cmd_settle)
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
        type=_file_name,
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
    rp = sub.add_parser(
        "replay",
        help="replay an mjai record (JSON Lines) through the game engine",
        description="Replay mjai JSON Lines hand by hand: who won what, yaku, payments, pao; "
        "where the record carries deltas, they are compared (exit status 1 on a difference).",
    )
    rp.add_argument("file", type=_file_name, metavar="FILE", help="mjai JSON Lines ('-' = stdin)")
    rp.add_argument("--json", action="store_true", help="JSON Lines, one object per hand end and a summary")
    rp.add_argument(
        "--rules",
        metavar="ID",
        help="rules of records that do not name theirs (start_game's tenbou_rules, aka_flag, kyoku_first); "
        "default tenhou, as tenbou verify. A record's tenbou_rules win: a game played under them rather "
        "than under --rules (or --set) gets a warning line on stderr naming both",
    )
    rp.add_argument(
        "--set",
        action="append",
        metavar="OPTION=VALUE",
        help="override an option of the --rules preset (repeatable)",
    )
    rp.add_argument(
        "--lenient", action="store_true", help="record illegal events and go on instead of stopping"
    )
    rp.set_defaults(func=_cmd_replay)
    vf = sub.add_parser(
        "verify",
        help="replay real records (mjlog, tenhou.net/6, mjai) and compare every hand with the record",
        description="Replay every game of the records through the engine and compare each hand end with "
        "the record: score changes, yaku, han, fu, points, pao, draws, the next hand, final scores. "
        "Each mismatch is printed with a tenbou score/settle request that reproduces it. "
        "A bad file is reported with its reason and the others are still verified. "
        "Exit status: 0 every hand matched (skipped records and the known defects of --expect-defects "
        "aside), 1 some hand differs from its record or the engine refuses it (a defective record), 2 bad "
        "usage or a record that cannot be read (unreadable, malformed, past --max-size, or a named file "
        "that is not a record).",
    )
    _add_record_args(vf)
    vf.add_argument(
        "--json", action="store_true", help="JSON Lines: one object per hand end, the summary last"
    )
    vf.add_argument("--verbose", action="store_true", help="also list the skipped records")
    vf.add_argument(
        "--expect-defects",
        type=_file_name,
        metavar="FILE",
        help="hands known to contradict their own record, one a line (PATH, HAND, KINDS, REASON, "
        "tab-separated): each that shows exactly its listed mismatches is reported as a known defect, "
        "not a mismatch; a listed hand that matches, or differs otherwise, makes the exit status 1",
    )
    vf.set_defaults(func=_cmd_verify)
    ex = sub.add_parser(
        "export",
        help="one row per hand end of real records, as parquet, CSV or JSON Lines",
        description="Replay the records and write one row per hand end (round, seats, winners, loser, yaku, "
        "han, fu, points, pao, deltas) for pandas. Parquet needs the 'analysis' extra. Exit status 2 on bad "
        "usage or a record that cannot be read (the other records are still written); 0 otherwise.",
    )
    _add_record_args(ex)
    ex.add_argument(
        "--out",
        required=True,
        type=_file_name,
        metavar="FILE",
        help="hands.parquet, hands.csv or hands.jsonl",
    )
    ex.set_defaults(func=_cmd_export)
    cv = sub.add_parser(
        "convert",
        help="convert a record between mjlog, tenhou.net/6 and mjai",
        description="Convert a record (format detected) to Tenhou mjlog XML, tenhou.net/6 JSON or mjai "
        "JSON Lines. mjlog and tenhou.net/6 hold one game per file. Exit status 2 when the record cannot be "
        "read or the engine refuses it (nothing is written).",
    )
    _add_max_size(cv)
    cv.add_argument("input", type=_file_name, metavar="FILE", help="a record file ('-' = stdin)")
    cv.add_argument("--to", required=True, choices=("mjlog", "tenhou6", "mjai"), help="the output format")
    cv.add_argument("-o", "--output", type=_file_name, metavar="FILE", help="output file (default: stdout)")
    cv.add_argument(
        "--per-kyoku",
        action="store_true",
        help="tenhou.net/6: one JSON object a kyoku, one a line (the form NAGA and Tenhou's editor take)",
    )
    cv.add_argument(
        "--from",
        dest="source_format",
        choices=("mjlog", "tenhou6", "mjai"),
        help="the input format (detected)",
    )
    cv.set_defaults(func=_cmd_convert)
    r = sub.add_parser(
        "rules",
        help="list, show and compare rule presets, and the values still without a source",
        description="Rule presets: every option of a preset has a value and its source, or 'unknown' "
        "with a note of what was searched (`tenbou rules sources ID`).",
    )
    rsub = r.add_subparsers(dest="rules_cmd", required=True)
    json_help = "print JSON (one line) instead of text"
    lst = rsub.add_parser("list", help="every preset id and name")
    lst.add_argument("--json", action="store_true", help=json_help + ": a list of {id, name, name_en}")
    show = rsub.add_parser("show", help="a preset's options, each with its value, meaning, source and note")
    show.add_argument("id", help="a preset id or alias (see `tenbou rules list`)")
    show.add_argument(
        "--json", action="store_true", help=json_help + ": {id, ..., options: {NAME: {value, source, note}}}"
    )
    src = rsub.add_parser(
        "sources",
        help="the options still without a source: option, the value assumed, what was searched",
        description="Lists the options of a preset whose source is 'unknown': the value tenbou assumes and "
        "the note of what was searched, so that a source can be contributed. Without ID: every preset.",
    )
    src.add_argument("id", nargs="?", help="a preset id or alias (default: every preset)")
    src.add_argument(
        "--json",
        action="store_true",
        help=json_help + ": {id, options, unknown: [{option, value, note}]} (a list of them without ID)",
    )
    diff = rsub.add_parser("diff", help="the options where two presets differ")
    diff.add_argument("a", help="a preset id or alias")
    diff.add_argument("b", help="another preset id or alias")
    diff.add_argument("--json", action="store_true", help=json_help + ": {a, b, options: {NAME: {a, b}}}")
    r.set_defaults(func=_cmd_rules)
    comp = sub.add_parser(
        "completion",
        help="print a shell completion script (bash, zsh, fish)",
        description="Print the completion script of tenbou for a shell: commands, options, their "
        'choices and file names. bash: eval "$(tenbou completion bash)" (in ~/.bashrc); zsh: the same '
        "with zsh, in ~/.zshrc; fish: tenbou completion fish > ~/.config/fish/completions/tenbou.fish.",
    )
    comp.add_argument("shell", choices=("bash", "zsh", "fish"), help="the shell")
    comp.set_defaults(func=_cmd_completion)
    return parser


def _cmd_completion(args: argparse.Namespace) -> int:
    """Print the shell completion script of the ``tenbou`` command."""
    from .completion import script

    ids = tuple(presets())
    sys.stdout.write(script(build_parser(), args.shell, {"rules": ids, "id": ids, "a": ids, "b": ids}))
    return 0


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
                _emit_error(e, sys.stdout, bool(getattr(args, "json", False)))
                return 2
    except StandardOutputError as e:
        if e.broken_pipe:
            return BROKEN_PIPE_STATUS
        _report(f"the standard output cannot be written ({e})", "output")
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
