"""The :class:`Rules` dataclass and the specification of every option."""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final, Literal

from ..errors import RuleError, shown

__all__ = [
    "ABORTIVE_DRAWS",
    "CHIP_EVENTS",
    "DRAW_REASONS",
    "LOCAL_YAKU",
    "NAGASHI_MANGAN",
    "OPTION_SPECS",
    "PAO_YAKU",
    "YAKUMAN_IDS",
    "OptionSpec",
    "Rules",
]

#: every yakuman id (a rule may count any of them double)
YAKUMAN_IDS: Final = (
    "kokushi", "kokushi_13", "suuankou", "suuankou_tanki", "daisangen", "shousuushii",
    "daisuushii", "tsuuiisou", "chinroutou", "ryuuiisou", "chuuren", "junsei_chuuren",
    "suukantsu", "tenhou", "chiihou", "renhou_yakuman", "suurenkou", "isshoku_yonjun",
)  # fmt: skip
#: local yaku that a rule set may switch on with ``local_yaku``
LOCAL_YAKU: Final = ("suurenkou", "isshoku_yonjun")
#: yakuman that a rule set may make carry responsibility payment (pao)
PAO_YAKU: Final = (
    "daisangen", "daisuushii", "suukantsu", "suurenkou", "isshoku_yonjun", "tsuuiisou", "chinroutou",
    "ryuuiisou",
)  # fmt: skip
#: what chips (祝儀) can be paid for: per red five, per ura dora, for ippatsu, per yakuman
CHIP_EVENTS: Final = ("aka_dora", "ura_dora", "ippatsu", "yakuman")

#: abortive draws a rule set may play (a triple ron is decided by ``multiple_ron``)
ABORTIVE_DRAWS: Final = ("kyuushu_kyuuhai", "suufon_renda", "suucha_riichi", "suukaikan")
#: tenbou's names of the abortive draws: those a rule set may play and the triple ron (a draw's
#: ``reason`` in a request, a hand's record and a settlement). With :data:`NAGASHI_MANGAN` they are
#: the draws each record format has a word for: its vocabulary maps these names to its words
DRAW_REASONS: Final = (*ABORTIVE_DRAWS, "sanchahou")
#: tenbou's name of the exhaustive draw that nagashi mangan ends (a draw's ``reason``)
NAGASHI_MANGAN: Final = "nagashi_mangan"

#: the ranges of the integer options (documented in docs/json-api.md): points paid per honba
#: counter, points paid at once (a riichi stick, the noten penalty), points held (start, return,
#: needed for riichi), uma in thousands (either sign), chips per event
_POINTS_STEP: Final = 10_000
_POINTS_PAID: Final = 100_000
_POINTS_HELD: Final = 1_000_000
_UMA: Final = 1_000
_CHIPS: Final = 1_000

OptionKind = Literal["bool", "int", "choice", "yaku_set", "int_tuple", "chip_table", "name_set", "int_list"]


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """How an option is typed and what it means (for validation, docs and the CLI).

    ``choices``: the allowed values of a ``choice`` or ``int`` option, the allowed elements of a set,
    the size of an ``int_list``, the events of a ``chip_table``. ``bounds``: the inclusive range of
    an integer (of each element of an ``int_list``, of each count of a ``chip_table``)."""

    name: str
    kind: OptionKind
    doc: str
    choices: tuple[object, ...] = ()
    bounds: tuple[int, int] = (0, 0)


def _opt(
    kind: OptionKind, doc: str, choices: tuple[object, ...] = (), bounds: tuple[int, int] | None = None
) -> dict[str, object]:
    if bounds is None:
        if kind in ("int", "int_list", "chip_table") and not (kind == "int" and choices):
            raise TypeError(f"an option of kind {kind} needs bounds")  # a mistake in this file
        ints = [c for c in choices if type(c) is int] if kind == "int" else []
        bounds = (min(ints), max(ints)) if ints else (0, 0)
    return {"kind": kind, "doc": doc, "choices": choices, "bounds": bounds}


@dataclass(frozen=True, slots=True)
class Rules:
    """Every option of a rule set. Make one with :func:`~tenbou.rules.get_rules`
    (a preset) and vary it with :meth:`replace`; all fields are validated."""

    players: tuple[int, ...] = field(
        metadata=_opt("int_tuple", "player counts the rule set is played with (first = default)", (4, 3))
    )
    red_fives: int = field(
        metadata=_opt("int", "red fives in the set: 0, 3 (one per suit) or 4 (two of them 5p)", (0, 3, 4))
    )
    open_tanyao: bool = field(metadata=_opt("bool", "tanyao counts on an open hand (kuitan)"))
    double_wind_pair_fu: int = field(
        metadata=_opt("int", "fu of a pair of the tile that is both seat and round wind", (2, 4))
    )
    rinshan_tsumo_fu: bool = field(metadata=_opt("bool", "a rinshan kaihou win gets the 2 fu of a tsumo"))
    kazoe: str = field(
        metadata=_opt("choice", "what 13 or more han without a yakuman is worth", ("yakuman", "sanbaiman"))
    )
    kiriage: bool = field(
        metadata=_opt("bool", "4 han 30 fu and 3 han 60 fu are rounded up to mangan (kiriage mangan)")
    )
    double_yakuman: frozenset[str] = field(
        metadata=_opt("yaku_set", "yakuman counted as double (e.g. kokushi_13 suuankou_tanki)", YAKUMAN_IDS)
    )
    yakuman_stacking: bool = field(
        metadata=_opt("bool", "several yakuman in one hand add up (otherwise the hand is one yakuman)")
    )
    yakuman_cap: int = field(
        metadata=_opt(
            "int",
            "largest total yakuman multiplier a hand can reach (0 = no cap; no hand has more than 8, "
            "daisuushii tsuuiisou suukantsu suuankou_tanki all counted double)",
            bounds=(0, 8),
        )
    )
    local_yaku: frozenset[str] = field(metadata=_opt("yaku_set", "local yaku that are played", LOCAL_YAKU))
    renhou: str = field(
        metadata=_opt(
            "choice",
            "what renhou (a ron before one's first draw) is worth: not a yaku, a mangan, a baiman or a "
            "yakuman; a mangan/baiman renhou is scored as the better of that limit and the hand without it",
            ("none", "mangan", "baiman", "yakuman"),
        )
    )
    ippatsu: bool = field(metadata=_opt("bool", "ippatsu is a yaku"))
    ura_dora: bool = field(metadata=_opt("bool", "ura dora are counted for a riichi winner"))
    nukidora: bool = field(metadata=_opt("bool", "three players: North tiles set aside (kita) count as dora"))
    north_yakuhai: bool = field(
        metadata=_opt("bool", "three players: a North set is a value set (yakuhai) for everyone")
    )
    honba_unit: int = field(
        metadata=_opt(
            "int",
            "points per honba counter and per paying player: each payer of a tsumo pays it, the "
            "discarder of a ron pays it once for every other player (100: 300 a ron with four players)",
            bounds=(0, _POINTS_STEP),
        )
    )
    riichi_stick_points: int = field(
        metadata=_opt("int", "value of a riichi stick on the table", bounds=(0, _POINTS_PAID))
    )
    sanma_tsumo: str = field(
        metadata=_opt(
            "choice",
            "three players, tsumo: 'tsumo_loss' (the missing North share is not paid) or 'north_split' "
            "(the North share is split between the two payers, each half rounded up to 100)",
            ("tsumo_loss", "north_split"),
        )
    )
    kiriage_dealer_only: bool = field(
        metadata=_opt(
            "bool",
            "with kiriage: only the dealer's 11,600 (4 han 30 fu, 3 han 60 fu) is rounded up to 12,000; "
            "a non-dealer's 7,700 (2,000-3,900 by tsumo) stays as it is",
        )
    )
    # -- responsibility payment (pao) ---------------------------------------------------------
    pao_yaku: frozenset[str] = field(
        metadata=_opt("yaku_set", "yakuman that carry responsibility payment (pao)", PAO_YAKU)
    )
    pao_scope: str = field(
        metadata=_opt(
            "choice",
            "'whole_hand': the liable player answers for the whole hand, composite yakuman included; "
            "'pao_yakuman_only': only for the pao'd yakuman, the rest is paid as usual",
            ("whole_hand", "pao_yakuman_only"),
        )
    )
    pao_honba: str = field(
        metadata=_opt(
            "choice",
            "who pays honba on a win with pao: 'liable', 'discarder' (on a ron; the liable on a tsumo), "
            "'split' (liable and discarder half each on a ron), "
            "'normal' (as if there were no pao, tsumo included), "
            "'rest' (with the part of the hand pao does not cover: the discarder on a ron; on a tsumo "
            "the usual split when some of the hand is not pao'd, else the liable; majiang-core)",
            ("liable", "discarder", "split", "normal", "rest"),
        )
    )
    # seed 000 (../shared/seeds/000_*.txt, ja.wikipedia 責任払い, 四槓子の確定): 「大明槓された瞬間に
    # 四槓子の振り込みと見なされるルールもある」; no preset's source says its rules do (matrix.yaml)
    suukantsu_pao_timing: str = field(
        metadata=_opt(
            "choice",
            "suukantsu pao (with suukantsu in pao_yaku): 'win' (the liable player pays when the hand "
            "wins) or 'fourth_kan' (「大明槓された瞬間に四槓子の振り込みと見なされるルールもある」: the "
            "daiminkan that makes a player's fourth kan is a suukantsu dealt in by the discarder, and "
            "the hand ends there)",
            ("win", "fourth_kan"),
        )
    )
    daiminkan_pao: bool = field(
        metadata=_opt(
            "bool", "a rinshan win after a daiminkan is paid as a ron by the player whose discard was taken"
        )
    )
    daiminkan_pao_chain: bool = field(
        metadata=_opt(
            "bool",
            "daiminkan pao still applies when an ankan or kakan comes between the daiminkan and the win",
        )
    )
    # -- settlement -----------------------------------------------------------------------------
    multiple_ron: str = field(
        metadata=_opt(
            "choice",
            "several rons on one discard: 'atamahane' (only the winner nearest the discarder), 'double' "
            "(two are paid, a triple ron aborts the hand), 'triple' (all are paid)",
            ("atamahane", "double", "triple"),
        )
    )
    multiple_ron_honba: str = field(
        metadata=_opt(
            "choice",
            "on a multiple ron, honba go to the winner nearest the discarder ('nearest') or to each winner "
            "('each'); riichi sticks always go to the nearest",
            ("nearest", "each"),
        )
    )
    nagashi_mangan: str = field(
        metadata=_opt(
            "choice",
            "nagashi mangan: 'none'; "
            "'draw' (paid as a mangan tsumo instead of the tenpai payments, no honba, "
            "riichi sticks stay); 'win' (paid as a mangan tsumo win, honba and riichi sticks included)",
            ("none", "draw", "win"),
        )
    )
    noten_penalty: int = field(
        metadata=_opt("int", "four players: total paid by noten to tenpai players", bounds=(0, _POINTS_PAID))
    )
    sanma_noten_penalty: int = field(
        metadata=_opt("int", "three players: total paid by noten to tenpai players", bounds=(0, _POINTS_PAID))
    )
    renchan: str = field(
        metadata=_opt(
            "choice",
            "after an exhaustive draw the dealer keeps the deal when tenpai ('tenpai') "
            "or never ('win': only a "
            "dealer win repeats)",
            ("tenpai", "win"),
        )
    )
    abortive_renchan: bool = field(metadata=_opt("bool", "the dealer keeps the deal after an abortive draw"))
    wareme: bool = field(
        metadata=_opt(
            "bool",
            "wareme (割れ目): hand and pao payments to and from the wareme seat are doubled, after pao",
        )
    )
    chips: tuple[tuple[str, int], ...] = field(
        metadata=_opt(
            "chip_table",
            "chips (祝儀) per event, paid by the discarder on a ron and by every other player on a tsumo, "
            "never by the liable player of pao; empty when the rules use no chips",
            CHIP_EVENTS,
            (0, _CHIPS),
        )
    )

    # -- the round ------------------------------------------------------------------------------
    kan_dora: bool = field(metadata=_opt("bool", "a kan reveals a new dora indicator (and ura indicator)"))
    kan_dora_timing: str = field(
        metadata=_opt(
            "choice",
            "when the new dora of an open kan (daiminkan, kakan) is revealed: 'immediate' or 'after_discard' "
            "(after the kan player's discard or before a further rinshan draw); "
            "an ankan's is always immediate",
            ("immediate", "after_discard"),
        )
    )
    kuikae: str = field(
        metadata=_opt(
            "choice",
            "after a chi or pon: 'forbidden' (no discard of the called kind, nor of the other end of a chi), "
            "'genbutsu' (only the called kind is forbidden) or 'allowed'",
            ("forbidden", "genbutsu", "allowed"),
        )
    )
    kokushi_ankan_chankan: bool = field(metadata=_opt("bool", "kokushi musou may rob an ankan (chankan)"))
    abortive_draws: frozenset[str] = field(
        metadata=_opt("name_set", "abortive draws that are played", ABORTIVE_DRAWS)
    )
    riichi_min_points: int = field(
        metadata=_opt(
            "int",
            "points a player needs to declare riichi (0: riichi is allowed below the stick's value)",
            bounds=(0, _POINTS_HELD),
        )
    )
    daiminkan_pao_furiten: bool = field(
        metadata=_opt(
            "bool",
            "daiminkan pao applies even when the winner was furiten on the kanned tile (ロン2)",
        )
    )
    # -- the game -------------------------------------------------------------------------------
    length: str = field(
        metadata=_opt(
            "choice",
            "game length: 'tonpuu' (East round) or 'hanchan' (East and South)",
            ("tonpuu", "hanchan"),
        )
    )
    start_points: int = field(
        metadata=_opt("int", "four players: each player's points at the start", bounds=(0, _POINTS_HELD))
    )
    return_points: int = field(
        metadata=_opt(
            "int",
            "four players: points returned at the end (oka = (return - start) x players to the top)",
            bounds=(0, _POINTS_HELD),
        )
    )
    uma: tuple[int, ...] = field(
        metadata=_opt(
            "int_list",
            "four players: uma in thousands for 1st..4th (e.g. 20 10 -10 -20)",
            (4,),
            (-_UMA, _UMA),
        )
    )
    sanma_start_points: int = field(
        metadata=_opt("int", "three players: each player's points at the start", bounds=(0, _POINTS_HELD))
    )
    sanma_return_points: int = field(
        metadata=_opt("int", "three players: points returned at the end", bounds=(0, _POINTS_HELD))
    )
    sanma_uma: tuple[int, ...] = field(
        metadata=_opt("int_list", "three players: uma in thousands for 1st..3rd", (3,), (-_UMA, _UMA))
    )
    tobi: bool = field(metadata=_opt("bool", "the game ends when a player's points fall below zero"))
    west_round: bool = field(
        metadata=_opt(
            "bool",
            "when nobody has the return points at the end, the game goes on into the next round wind "
            "(West after a hanchan, South after a tonpuu) until somebody does",
        )
    )
    agari_yame: bool = field(
        metadata=_opt(
            "bool",
            "agari-yame: a dealer's win in the last hand (all-last or an extension hand) ends the game "
            "when it leaves the dealer first and the game could end there (with west_round, somebody "
            "has the return points)",
        )
    )
    tenpai_yame: str = field(
        metadata=_opt(
            "choice",
            "tenpai-yame: a dealer's tenpai at an exhaustive draw in the last hand, the dealer first "
            "(and the game able to end there): 'never' ends the game, 'auto' always does, 'optional' "
            "the game may end or go on (the dealer's choice, or records of several eras)",
            ("never", "auto", "optional"),
        )
    )
    leftover_sticks: str = field(
        metadata=_opt(
            "choice",
            "riichi sticks left on the table at the end go 'to_top' or are 'lost'",
            ("to_top", "lost"),
        )
    )
    # -- penalties (the last options, each with a default: a pickle of rules made before they came
    # loads with these values) -------------------------------------------------------------------
    chombo: str = field(
        default="final_score",
        metadata=_opt(
            "choice",
            "what a chombo (a foul that stops the hand: a false win, a noten riichi shown at the end, "
            "a bot's bad answer in a match) costs the offender; the hand is dealt again by the same "
            "dealer with the same honba, and the riichi sticks put down in it go back to their owners: "
            "'mangan' (paid at once as a mangan tsumo in reverse: 4,000 to the dealer and 2,000 to each "
            "other player, 4,000 to each from the dealer; three players by sanma_tsumo), 'each' "
            "(chombo_points paid at once to each other player) or 'final_score' (chombo_points taken from "
            "the offender's final score after uma, paid to nobody)",
            ("mangan", "each", "final_score"),
        ),
    )
    chombo_points: int = field(
        default=20_000,
        metadata=_opt(
            "int",
            "with chombo 'final_score': the points each chombo takes from the offender's final score "
            "after uma (20000: 20.0 off a final score in thousands); with 'each': what the offender pays "
            "each other player",
            bounds=(0, _POINTS_HELD),
        ),
    )

    def chip_values(self) -> dict[str, int]:
        """``chips`` as a dict (event -> chips)."""
        return dict(self.chips)

    def __post_init__(self) -> None:
        for spec in OPTION_SPECS.values():
            value = getattr(self, spec.name)
            typed = _value(spec, value)
            if type(typed) is not type(value) or typed != value:
                raise RuleError(
                    f"rule option {spec.name!r}: {shown(value)} is not its typed value {shown(typed)} "
                    "(Rules.replace and with_options take JSON-like values)"
                )

    def __reduce__(self) -> tuple[type[Rules], tuple[object, ...]]:
        # pickle and copy rebuild the rules from their values (the compiled build cannot set the
        # fields of a frozen instance afterwards, as the default protocol would)
        return Rules, tuple([getattr(self, name) for name in OPTION_SPECS])

    def replace(self, **changes: object) -> Rules:
        """A copy with some options changed; unknown names raise :class:`RuleError`."""
        return self.with_options(changes)

    def with_options(self, changes: Mapping[str, object]) -> Rules:
        """A copy with options changed from a mapping (JSON-like values accepted:
        lists for sets and tuples)."""
        fixed: dict[str, object] = {}
        for name, value in changes.items():
            spec = OPTION_SPECS.get(name)
            if spec is None:
                raise RuleError(f"unknown rule option {shown(name)}{_did_you_mean(name)}")
            fixed[name] = _value(spec, value)  # before the copy: a compiled Rules checks types first
        return dataclasses.replace(self, **fixed)  # type: ignore[arg-type]

    def to_dict(self) -> dict[str, object]:
        """Options as JSON-ready values (sets as sorted lists)."""
        out: dict[str, object] = {}
        for name, spec in OPTION_SPECS.items():
            v = getattr(self, name)
            if spec.kind in ("yaku_set", "name_set"):
                v = sorted(v)
            elif spec.kind in ("int_tuple", "int_list"):
                v = list(v)
            elif spec.kind == "chip_table":
                v = dict(v)
            out[name] = v
        return out

    @classmethod
    def from_dict(cls, values: Mapping[str, object]) -> Rules:
        """Rules from a complete mapping of option values."""
        missing = [n for n in OPTION_SPECS if n not in values]
        if missing:
            raise RuleError(f"rule options missing: {', '.join(missing)}")
        fixed: dict[str, object] = {}
        for name, value in values.items():
            spec = OPTION_SPECS.get(name)
            if spec is None:
                raise RuleError(f"unknown rule option {shown(name)}{_did_you_mean(name)}")
            fixed[name] = _value(spec, value)
        return cls(**fixed)  # type: ignore[arg-type]


OPTION_SPECS: Final[dict[str, OptionSpec]] = {
    f.name: OptionSpec(
        f.name, f.metadata["kind"], f.metadata["doc"], tuple(f.metadata["choices"]), f.metadata["bounds"]
    )
    for f in dataclasses.fields(Rules)
}


def _did_you_mean(name: object) -> str:
    if type(name) is not str or len(name) > 64:
        return ""
    close = difflib.get_close_matches(name, OPTION_SPECS, n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _value(spec: OptionSpec, value: object) -> object:
    """The option's typed value (sets as ``frozenset``, lists as ``tuple``, chips as sorted pairs)
    from a JSON/TOML value or a typed one. Every value is checked here against the option's kind,
    its element types, its choices and its range; anything else raises :class:`RuleError`
    naming the option."""
    kind = spec.kind
    name = spec.name
    if kind == "bool":
        if value is True or value is False:
            return value
        raise RuleError(f"rule option {name!r} must be true or false, not {shown(value)}")
    if kind == "int":
        return _int_in(spec, value, f"rule option {name!r}")
    if kind == "choice":
        if type(value) is str and value in spec.choices:
            return value
        raise RuleError(f"rule option {name!r} must be one of {list(spec.choices)}, not {shown(value)}")
    if kind == "chip_table":
        return _chips(spec, value)
    if not isinstance(value, list | tuple | set | frozenset):
        raise RuleError(f"rule option {name!r} must be {_list_of(spec)}, not {shown(value)}")
    items = list(value)
    if kind == "yaku_set" or kind == "name_set":
        for item in items:
            if type(item) is not str:
                raise RuleError(f"rule option {name!r} must be {_list_of(spec)}, not {shown(value)}")
            if item not in spec.choices:
                raise RuleError(f"rule option {name!r}: {shown(item)} is not one of {list(spec.choices)}")
        typed = frozenset(items)
        if len(typed) != len(items):
            twice = next(item for i, item in enumerate(items) if item in items[:i])
            raise RuleError(f"rule option {name!r}: {twice!r} is listed twice")
        return typed
    if type(value) is not list and type(value) is not tuple:
        raise RuleError(f"rule option {name!r} must be {_list_of(spec)}, not {shown(value)}")
    if kind == "int_tuple":
        if not items or any(type(v) is not int or v not in spec.choices for v in items):
            raise RuleError(f"rule option {name!r} must be {_list_of(spec)}, not {shown(value)}")
        if len(set(items)) != len(items):
            raise RuleError(f"rule option {name!r}: {shown(value)} lists a value twice")
        return tuple(items)
    # int_list: a fixed number of integers, each in the option's range
    size = spec.choices[0]
    if len(items) != size:
        raise RuleError(f"rule option {name!r} must be a list of {size} integers, not {shown(value)}")
    return tuple([_int_in(spec, v, f"rule option {name!r}: item {i}") for i, v in enumerate(items)])


def _list_of(spec: OptionSpec) -> str:
    if spec.kind == "yaku_set":
        return "a list of yaku ids"
    if spec.kind == "name_set":
        return "a list of names"
    if spec.kind == "int_tuple":
        return f"a non-empty list of {list(spec.choices)}"
    return f"a list of {spec.choices[0]} integers"


def _int_in(spec: OptionSpec, value: object, what: str) -> int:
    """An integer of the option (or an element of it) within the option's range (and choices)."""
    if type(value) is not int:
        raise RuleError(f"{what} must be an integer, not {shown(value)}")
    if spec.kind == "int" and spec.choices:
        if value not in spec.choices:
            raise RuleError(f"{what} must be one of {list(spec.choices)}, not {shown(value)}")
        return value
    low, high = spec.bounds
    if not low <= value <= high:
        raise RuleError(f"{what} must be an integer {low}..{high}, not {shown(value)}")
    return value


def _chips(spec: OptionSpec, value: object) -> tuple[tuple[str, int], ...]:
    """``chips``: an object of event -> count (or the typed pairs), as pairs sorted by event."""
    name = spec.name
    pairs: list[tuple[object, object]] = []
    if isinstance(value, Mapping):
        pairs = list(value.items())
    elif type(value) is tuple and all(type(p) is tuple and len(p) == 2 for p in value):
        pairs = [(p[0], p[1]) for p in value]
    else:
        raise RuleError(f"rule option {name!r} must map events to chip counts, not {shown(value)}")
    out: dict[str, int] = {}
    for event, count in pairs:
        if type(event) is not str or event not in spec.choices:
            raise RuleError(f"rule option {name!r}: {shown(event)} is not one of {list(spec.choices)}")
        if event in out:
            raise RuleError(f"rule option {name!r}: {event!r} is given twice")
        out[event] = _int_in(spec, count, f"rule option {name!r}: chips for {event!r}")
    return tuple(sorted(out.items()))
