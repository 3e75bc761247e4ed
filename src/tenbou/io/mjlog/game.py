"""An mjlog record's own structure: its rounds, calls and wins, and each win as a score request.

:func:`parse_mjlog` reads a record (with :func:`tenbou.io.mjlog.read.walk`) into an
:class:`MjlogGame`, strictly or leniently; :func:`agari_to_request` builds the
:func:`tenbou.api.score` request of a win.

>>> game = parse_mjlog(_EXAMPLE, source="example.xml")
>>> game.game_type.players, len(game.rounds)
(4, 1)
>>> rnd, win = next(game.wins())
>>> request = agari_to_request(win, rnd.init, game.game_type)
>>> request["hand"], request["win_tile"], request["from"], request["riichi"]
('123m566778p3566s', '4s', 0, True)
>>> from tenbou.api import score
>>> result = score(request)
>>> result["han"], result["fu"], result["points"], (win.ten.fu, win.ten.points)
(2, 40, 2600, (40, 2600))
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from ...core.tiles import Wind, format_sorted
from ...errors import LogFormatError
from ..record import JSON
from ..source import read_source
from .codes import (
    Ten,
    TenhouMeldType,
    decode_meld,
    int_list,
    parse_ten,
    parse_yaku,
    parse_yakuman,
    tile_from_136,
)
from .read import _EXAMPLE as _EXAMPLE  # (the docstrings' example)
from .read import Visitor, _go_rules, _ids, _one_int, _sc, _seat, walk
from .rules import GameType
from .vocab import DORA_YAKU_IDS, FLAG_IDS, tenbou_yaku_id

__all__ = [
    "Agari",
    "Call",
    "Init",
    "MjlogGame",
    "MjlogRound",
    "Round",
    "agari_to_request",
    "parse_mjlog",
    "read_mjlog",
    "recorded_yaku",
]


@dataclass(frozen=True, slots=True)
class Init:
    """The ``INIT`` of a round. ``round_index`` counts rounds from East 1 (0-3
    East, 4-7 South, 8-11 West, 12-15 North); ``dice`` is ``None`` where a
    converter left them out; ``scores`` are in points; ``hands`` are the
    starting 136-ids of each seat (empty for the empty seat in sanma)."""

    round_index: int
    honba: int
    riichi_sticks: int
    dice: tuple[int, int] | None
    dora_indicator: int
    oya: int
    scores: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]

    @property
    def round_wind(self) -> Wind:
        return Wind.of_index(self.round_index // 4)

    @property
    def number(self) -> int:
        """The round's number within its wind (East 1 = 1)."""
        return self.round_index % 4 + 1


@dataclass(frozen=True, slots=True)
class Call:
    """An ``N`` element: seat ``who`` made call ``code`` (decode with :func:`decode_meld`)."""

    who: int
    code: int


@dataclass(frozen=True, slots=True)
class Agari:
    """An ``AGARI`` element (a win). ``hai`` are the concealed 136-ids, the
    winning tile ``machi`` among them; ``melds`` the raw call codes as the
    record lists them (the reverse of the call order, a kakan in the place of
    its pon; kita included); ``yaku`` (Tenhou id, han) pairs, empty for a
    yakuman hand, whose ids are in ``yakuman``; ``sc`` the scores and changes
    as recorded (in hundreds)."""

    who: int
    from_who: int
    honba: int
    riichi_sticks: int
    hai: tuple[int, ...]
    melds: tuple[int, ...]
    machi: int
    ten: Ten
    yaku: tuple[tuple[int, int], ...]
    yakuman: tuple[int, ...]
    dora_hai: tuple[int, ...]
    dora_hai_ura: tuple[int, ...]
    pao_who: int | None
    sc: tuple[int, ...]

    @property
    def tsumo(self) -> bool:
        return self.who == self.from_who

    @property
    def yaku_ids(self) -> frozenset[int]:
        """Every Tenhou yaku id recorded, yakuman included (han 0 entries too)."""
        return frozenset(y for y, _ in self.yaku) | frozenset(self.yakuman)


@dataclass(frozen=True, slots=True)
class MjlogRound:
    """One round as an mjlog holds it (``Round`` is its older name): its ``INIT``, the calls
    (``N``) in order, the seats whose riichi was accepted (``REACH step=2``), the wins, and the
    draw's type (``"exhaustive"`` for a plain draw; ``None`` if the round had no draw)."""

    init: Init
    calls: tuple[Call, ...] = ()
    riichi: tuple[int, ...] = ()
    agari: tuple[Agari, ...] = ()
    draw: str | None = None


#: the older name of :class:`MjlogRound` (an mjlog's round; the engine's is ``engine.round.Round``)
Round = MjlogRound


@dataclass(frozen=True, slots=True)
class MjlogGame:
    """One mjlog file: its ``GO`` rules, rounds and, when read leniently,
    the errors met on the way (the records they concern are left out)."""

    source: str
    game_type: GameType
    rounds: tuple[MjlogRound, ...]
    errors: tuple[LogFormatError, ...] = field(default=(), compare=False)

    def wins(self) -> Iterator[tuple[MjlogRound, Agari]]:
        """Every win with its round, in record order."""
        for rnd in self.rounds:
            for agari in rnd.agari:
                yield rnd, agari


class _GameBuilder(Visitor):
    """Builds an :class:`MjlogGame` from the elements :func:`walk` gives it, strict or lenient."""

    def __init__(self, source: str, strict: bool) -> None:
        self.source = source
        self.strict = strict
        self.errors: list[LogFormatError] = []
        self.game_type: GameType | None = None
        self.rules: JSON = None  # tenbou's own rules attribute on <GO>, checked as JSON
        self.rounds: list[MjlogRound] = []
        self.init: Init | None = None
        self.calls: list[Call] = []
        self.riichi: list[int] = []
        self.agari: list[Agari] = []
        self.draw: str | None = None

    def fail(self, where: str, problem: str) -> None:
        err = LogFormatError(f"{self.source}: {where}: {problem}")
        if self.strict:
            raise err
        self.errors.append(err)

    @property
    def players(self) -> int:
        return self.game_type.players if self.game_type else 4

    def close_round(self) -> None:
        if self.init is not None:
            self.rounds.append(
                MjlogRound(self.init, tuple(self.calls), tuple(self.riichi), tuple(self.agari), self.draw)
            )
        self.init, self.calls, self.riichi, self.agari, self.draw = None, [], [], [], None

    def where(self, tag: str) -> str:
        return f"<{tag}> in round {len(self.rounds) + 1}" if self.init is not None else f"<{tag}>"

    def visit_stray(self, what: str, detail: str) -> None:
        self.fail(what, detail)

    def handle_error(self, tag: str, error: LogFormatError) -> None:
        self.fail(self.where(tag), str(error))

    def game(self) -> MjlogGame:
        """The game read, once the walk is over."""
        self.close_round()
        if self.game_type is None:
            self.fail("<mjloggm>", "no <GO> element (the game's rules)")
        return MjlogGame(self.source, self.game_type or GameType(0), tuple(self.rounds), tuple(self.errors))

    def in_round(self) -> None:
        if self.init is None:
            raise LogFormatError("comes before any <INIT>")

    def visit_go(self, a: Mapping[str, str]) -> None:
        self.rules = _go_rules(a, self.rules)
        self.game_type = GameType(_one_int(a, "type"))

    def visit_init(self, a: Mapping[str, str]) -> None:
        self.close_round()
        self.init = _init(a, self.players)

    def visit_call(self, a: Mapping[str, str]) -> None:
        self.in_round()
        who = _seat(a, "who", self.players)
        code = _one_int(a, "m")
        decode_meld(code, True)
        self.calls.append(Call(who, code))

    def visit_reach(self, a: Mapping[str, str]) -> None:
        self.in_round()
        who = _seat(a, "who", self.players)
        if _one_int(a, "step") == 2:
            self.riichi.append(who)

    def visit_agari(self, a: Mapping[str, str]) -> None:
        self.in_round()
        red = self.game_type.red_fives if self.game_type else True
        self.agari.append(_agari(a, self.players, red))

    def visit_ryuukyoku(self, a: Mapping[str, str]) -> None:
        self.in_round()
        self.draw = a.get("type") or "exhaustive"


def _init(a: Mapping[str, str], players: int) -> Init:
    if "seed" not in a:
        raise LogFormatError("missing attribute 'seed'")
    parts = a["seed"].split(",")
    if len(parts) != 6:
        raise LogFormatError(f"seed={a['seed']!r} needs six values: round, honba, sticks, dice, dice, dora")
    try:
        rnd, honba, sticks = (int(p) for p in parts[:3])
        dora = int(parts[5])
        dice = None if parts[3] == parts[4] == "" else (int(parts[3]), int(parts[4]))
    except ValueError:
        raise LogFormatError(f"seed={a['seed']!r} is not a list of integers") from None
    if not 0 <= rnd < 16 or honba < 0 or sticks < 0 or not 0 <= dora < 136:
        raise LogFormatError(
            f"seed={a['seed']!r}: a round 0..15 (East 1 to North 4), counts that are not negative "
            "and a dora indicator id 0..135 expected"
        )
    oya = _seat(a, "oya", players)
    scores = tuple(100 * s for s in int_list(a.get("ten", ""), "ten"))
    if not players <= len(scores) <= 4 or any(scores[players:]):
        raise LogFormatError(f"ten={a.get('ten', '')!r} needs the points of each of {players} seats")
    hands = tuple(_ids(a, f"hai{i}", required=i < players) for i in range(4))
    for i in range(4):
        if i >= players and hands[i]:
            raise LogFormatError(
                f"hai{i} deals {len(hands[i])} tiles to seat {i}, but the GO type says {players} players"
            )
        if i < players and len(hands[i]) != 13:
            raise LogFormatError(f"hai{i} holds {len(hands[i])} tiles, not 13")
    return Init(rnd, honba, sticks, dice, dora, oya, scores, hands)


def _agari(a: Mapping[str, str], players: int, red_fives: bool) -> Agari:
    who = _seat(a, "who", players)
    from_who = _seat(a, "fromWho", players)
    ba = int_list(a.get("ba", ""), "ba")
    if len(ba) != 2 or min(ba) < 0:
        raise LogFormatError(f"ba={a.get('ba')!r} needs two numbers: honba, riichi sticks")
    hai = _ids(a, "hai")
    machi = _one_int(a, "machi")
    codes = int_list(a.get("m", ""), "m")
    melds = [decode_meld(c, red_fives) for c in codes]
    if "ten" not in a:
        raise LogFormatError("missing attribute 'ten'")
    ten = parse_ten(a["ten"])
    yaku = parse_yaku(a.get("yaku", ""))
    yakuman = parse_yakuman(a.get("yakuman", ""))
    if not yaku and not yakuman:
        raise LogFormatError("neither 'yaku' nor 'yakuman' is given")
    dora = _ids(a, "doraHai")
    if not dora:
        raise LogFormatError("doraHai is empty")
    ura = _ids(a, "doraHaiUra", required=False)
    if len(dora) > 5 or len(ura) > 5:
        raise LogFormatError(f"{len(dora)} doraHai and {len(ura)} doraHaiUra: a hand shows at most 5 of each")
    pao = _seat(a, "paoWho", players) if "paoWho" in a else None
    sc = _sc(a, players)
    where = f"hai={a['hai']!r} m={a.get('m', '')!r}"
    if machi not in hai:
        raise LogFormatError(f"the winning tile machi={machi} is not among the concealed tiles {where}")
    sets = sum(1 for m in melds if m.type is not TenhouMeldType.KITA)
    if len(hai) != 14 - 3 * sets:
        raise LogFormatError(f"{len(hai)} concealed tiles with {sets} meld(s), not {14 - 3 * sets}: {where}")
    every = [*hai, *(i for m in melds for i in m.ids)]
    if len(set(every)) != len(every):
        dup = next(i for i in every if every.count(i) > 1)
        raise LogFormatError(f"tile id {dup} appears twice in the hand: {where}")
    return Agari(who, from_who, ba[0], ba[1], hai, codes, machi, ten, yaku, yakuman, dora, ura, pao, sc)


def parse_mjlog(data: bytes, source: str = "<mjlog>", *, strict: bool = True) -> MjlogGame:
    """Read an mjlog record from bytes (plain XML or gzip).

    Strict (the default): the first problem raises
    :class:`~tenbou.errors.LogFormatError`, its message naming ``source``, the
    element and the problem. Lenient: a bad ``INIT``/``AGARI``/... is left out,
    its error kept in :attr:`MjlogGame.errors`, and reading goes on; stray bytes
    before the root are skipped (and reported) the same way.

    >>> parse_mjlog(b'<mjloggm ver="2.3"><GO type="169"/><AGARI who="0"/></mjloggm>', "x.xml")
    Traceback (most recent call last):
    ...
    tenbou.errors.LogFormatError: x.xml: <AGARI>: comes before any <INIT>
    >>> game = parse_mjlog(b'2<mjloggm ver="2.3"><GO type="169"/></mjloggm>', "y", strict=False)
    >>> game.game_type, game.errors[0].message.split(" (")[0]
    (GameType(code=169), 'y: 1 stray character(s) before <mjloggm>: "2"')
    """
    builder = _GameBuilder(source, strict)
    walk(data, source, builder)
    return builder.game()


def read_mjlog(path: str | os.PathLike[str], *, strict: bool = True) -> MjlogGame:
    """Read an mjlog file (plain or gzip, told apart by its first bytes).

    See :func:`parse_mjlog` for ``strict``; errors name the file.
    """
    return parse_mjlog(read_source(path), os.fspath(path), strict=strict)


# -- wins as score requests ---------------------------------------------------------------------


def recorded_yaku(agari: Agari) -> dict[str, int]:
    """Tenhou's yaku of a win by tenbou id with their han (the dora entries of 0
    han, such as ``53,0`` for no ura dora, are dropped; any other yaku is kept,
    0 han or not: the record says the hand has it); a yakuman hand gives each of
    its yakuman 13 han (Tenhou counts none double).

    >>> from dataclasses import replace
    >>> win = next(parse_mjlog(_EXAMPLE).wins())[1]
    >>> recorded_yaku(win)
    {'riichi': 1, 'dora': 1}
    >>> recorded_yaku(replace(win, yaku=(), yakuman=(39, 42)))
    {'daisangen': 13, 'tsuuiisou': 13}
    >>> recorded_yaku(replace(win, yaku=((1, 1), (7, 0), (53, 0))))
    {'riichi': 1, 'pinfu': 0}
    """
    out: dict[str, int] = {}
    for yid, han in agari.yaku:
        if han or yid not in DORA_YAKU_IDS:
            key = tenbou_yaku_id(yid)
            out[key] = out.get(key, 0) + han
    for yid in agari.yakuman:
        out[tenbou_yaku_id(yid, yakuman=True)] = 13
    return out


def _tiles_text(ids: Sequence[int], red_fives: bool) -> str:
    """The canonical text of tiles given by 136-ids (which put a red five before the plain ones)."""
    return format_sorted(tile_from_136(i, red_fives) for i in ids)


def agari_to_request(agari: Agari, init: Init, game_type: GameType) -> dict[str, JSON]:
    """One win as a :func:`tenbou.api.score` request (``docs/json-api.md``).

    Rules are the ``tenhou`` preset with the room's overrides; the hand is
    ``hai`` less the winning tile; melds are in call order (the record lists
    them newest first) with absolute ``from`` seats; kita are counted, not
    melds. Situational flags come from the recorded yaku ids (so a yakuman
    hand, which records no ``yaku``, carries only tenhou/chiihou); ura dora
    indicators are given only to a riichi winner.
    """
    red = game_type.red_fives
    players = game_type.players
    hand = list(agari.hai)
    if agari.machi not in hand:
        raise LogFormatError(f"the winning tile machi={agari.machi} is not among hai={agari.hai}")
    hand.remove(agari.machi)
    melds: list[JSON] = []
    kita = 0
    for code in reversed(agari.melds):
        m = decode_meld(code, red)
        if m.type is TenhouMeldType.KITA:
            kita += 1
        else:
            melds.append(m.to_json(agari.who, players))
    ids = agari.yaku_ids
    riichi = 1 in ids or 21 in ids
    req: dict[str, JSON] = {
        "rules": {"preset": "tenhou", "overrides": game_type.rule_overrides()},
        "players": players,
        "dealer": init.oya,
        "round_wind": init.round_wind.value,
        "winner": agari.who,
        "from": None if agari.tsumo else agari.from_who,
        "hand": _tiles_text(hand, red),
        "melds": melds,
        "win_tile": str(tile_from_136(agari.machi, red)),
    }
    for yid, flag in FLAG_IDS.items():
        if yid in ids:
            req[flag] = True
    dora: list[JSON] = [str(tile_from_136(i, red)) for i in agari.dora_hai]
    ura: list[JSON] = [str(tile_from_136(i, red)) for i in agari.dora_hai_ura] if riichi else []
    req["dora_indicators"] = dora
    req["ura_indicators"] = ura
    req["kita"] = kita
    req["honba"] = agari.honba
    req["riichi_sticks"] = agari.riichi_sticks
    return req
