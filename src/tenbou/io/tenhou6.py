"""tenhou.net/6 JSON records: read as mjai events, written from them.

A tenhou.net/6 record is one JSON object ``{"title", "name", "rule", "log"}``
(mjx writes one object per line, one round each: the lines of a file that
share their players and rules are one game). ``log[i]`` is a round:
``[[round, honba, sticks], scores, dora indicators, ura indicators,`` then for
each seat its starting hand, its takes (draws and calls) and its discards,
and last the result (``["和了", deltas, info, ...]``, ``["流局", deltas]``,
``["九種九牌"]`` ...). Tiles are numbers: 11-19 man, 21-29 pin, 31-39 sou,
41-47 East ... Red, 51/52/53 the red fives; 60 in a discard list is a
tsumogiri. Calls are strings: ``"c275226"`` (chi of 27 with 52 and 26),
``"p212121"``/``"21p2121"``/``"2121p21"`` (pon from the seat on the left,
across, right: where the ``p`` stands), ``"m39393939"`` (daiminkan, same
positions), ``"r24"`` (riichi discard), ``"242424a24"`` (ankan),
``"41k414141"`` (kakan: the pon's string with ``k`` and the added tile),
``"f44"`` (a North set aside with three players).

The record does not say in which order the four seats acted, so the reader
replays the round, seat by seat, deciding after each discard who takes it
(a call that matches it, a pon before a chi), and backtracks where two equal
discards make that ambiguous. Kan dora are shown as Tenhou does: after an
ankan at once, after a daiminkan or kakan once the replacement tile is drawn.

The rules come from ``rule``: its ``disp`` text (``鳳南喰赤``: room, 東/南
length, 喰 kuitan, 赤 red fives, 三 three players) and the ``aka`` fields.
Mahjong Soul games converted to this format (``disp`` naming a Mahjong Soul
room, ``銅の間東喰赤``, ``Gold Room South``, a tournament ``大会戦``, or
a ``playerMapping`` field) are played under the ``mahjongsoul`` preset; the
M.LEAGUE record (an empty ``disp`` and an M.LEAGUE title: ``M.LEAGUE``,
``Mリーグ``, or a season title ``22-23赛季`` as the M.LEAGUE paifu parser
writes it) under ``mleague``; anything else unknown is skipped with the reason.

>>> rec = tenhou6_records(_EXAMPLE, "example.json")[0]
>>> rec.rules, rec.hands[0].kind, rec.hands[0].wins[0].points, rec.hands[0].wins[0].yaku
('tenhou', 'win', 1000, {'chun': 1})
>>> [type(e).__name__ for e in rec.events][:4]
['StartGame', 'StartKyoku', 'Tsumo', 'Dahai']
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.tiles import Tile, Wind, sort_tiles
from ..engine.events import (
    Ankan,
    Chi,
    Dahai,
    Daiminkan,
    Dora,
    EndGame,
    EndKyoku,
    Event,
    Hora,
    Kakan,
    Nukidora,
    Pon,
    Reach,
    ReachAccepted,
    Ryukyoku,
    StartGame,
    StartKyoku,
    Tsumo,
)
from ..errors import LogFormatError
from .mjai import read_json
from .record import JSON, GameRecord, HandEnd, WinRecord, final_results

__all__ = [
    "ABORT_TEXTS",
    "YAKU_NAMES",
    "code_of_tile",
    "rules_of",
    "tenhou6_records",
    "tile_of_code",
    "write_tenhou6",
]

#: Tenhou's yaku names (tenhou.net/6 result texts) by tenbou yaku id; seat and round
#: winds are written with the wind (``自風 東``, ``場風 南``)
YAKU_NAMES: dict[str, str] = {
    "menzen_tsumo": "門前清自摸和", "riichi": "立直", "ippatsu": "一発", "chankan": "槍槓",
    "rinshan": "嶺上開花", "haitei": "海底摸月", "houtei": "河底撈魚", "pinfu": "平和",
    "tanyao": "断幺九", "iipeikou": "一盃口", "haku": "役牌 白", "hatsu": "役牌 發", "chun": "役牌 中",
    "double_riichi": "両立直", "chiitoitsu": "七対子", "chanta": "混全帯幺九", "ittsu": "一気通貫",
    "sanshoku": "三色同順", "sanshoku_doukou": "三色同刻", "sankantsu": "三槓子", "toitoi": "対々和",
    "sanankou": "三暗刻", "shousangen": "小三元", "honroutou": "混老頭", "ryanpeikou": "二盃口",
    "junchan": "純全帯幺九", "honitsu": "混一色", "chinitsu": "清一色", "renhou": "人和",
    "tenhou": "天和", "chiihou": "地和", "daisangen": "大三元", "suuankou": "四暗刻",
    "suuankou_tanki": "四暗刻単騎", "tsuuiisou": "字一色", "ryuuiisou": "緑一色", "chinroutou": "清老頭",
    "chuuren": "九蓮宝燈", "junsei_chuuren": "純正九蓮宝燈", "kokushi": "国士無双",
    "kokushi_13": "国士無双１３面", "daisuushii": "大四喜", "shousuushii": "小四喜", "suukantsu": "四槓子",
    "dora": "ドラ", "ura_dora": "裏ドラ", "aka_dora": "赤ドラ", "kita": "抜きドラ",
    "renhou_yakuman": "人和",
}  # fmt: skip
_WIND_JA = "東南西北"
#: other spellings seen in converted records (Mahjong Soul's English client names included)
_ALIASES: dict[str, str] = {
    "国士無双13面": "kokushi_13", "国士無双十三面": "kokushi_13", "ダブル立直": "double_riichi",
    "Riichi": "riichi", "Dora": "dora", "Ura Dora": "ura_dora", "Red Five": "aka_dora",
    "Red Dora": "aka_dora",
    "Ippatsu": "ippatsu", "Fully Concealed Hand": "menzen_tsumo", "Pinfu": "pinfu", "All Simples": "tanyao",
}  # fmt: skip
_BY_NAME: dict[str, str] = {name: key for key, name in YAKU_NAMES.items() if key != "renhou_yakuman"}
_BY_NAME.update(_ALIASES)
for _i, _w in enumerate(_WIND_JA):
    _BY_NAME[f"自風 {_w}"] = "seat_wind"
    _BY_NAME[f"場風 {_w}"] = "round_wind"

#: results without a win: text -> (mjai reason, tenbou name, kind)
ABORT_TEXTS: dict[str, tuple[str | None, str | None, str]] = {
    "流局": (None, None, "exhaustive_draw"),
    "全員聴牌": (None, None, "exhaustive_draw"),
    "全員不聴": (None, None, "exhaustive_draw"),
    "流し満貫": ("nagashimangan", "nagashi_mangan", "exhaustive_draw"),
    "九種九牌": ("kyushukyuhai", "kyuushu_kyuuhai", "abortive_draw"),
    "四家立直": ("suuchariichi", "suucha_riichi", "abortive_draw"),
    "四風連打": ("suufonrenda", "suufon_renda", "abortive_draw"),
    "四槓散了": ("suukaikan", "suukaikan", "abortive_draw"),
    "三家和了": ("sanchaho", "sanchahou", "abortive_draw"),
}
_TEXT_BY_NAME = {name: text for text, (_, name, _) in ABORT_TEXTS.items() if name}
_LIMITS = {"満貫": "mangan", "跳満": "haneman", "倍満": "baiman", "三倍満": "sanbaiman", "役満": "yakuman",
           "数え役満": "kazoe_yakuman"}  # fmt: skip
_LIMIT_TEXT = {v: k for k, v in _LIMITS.items() if k != "数え役満"}
_LIMIT_TEXT["kazoe_yakuman"] = "役満"
_VALUE = re.compile(
    r"^(?:(\d{1,4})符(\d{1,4})飜|(満貫|跳満|倍満|三倍満|数え役満|役満))?(\d{1,9})(?:-(\d{1,9}))?点(∀)?$"
)
_YAKU = re.compile(r"^(.+?)\((?:(\d{1,4})飜|(役満))\)$")
_MS_ROOMS = ("の間", "Room", "大会戦", "友人戦", "段位戦")
_MLEAGUE = re.compile(r"M\.?\s?LEAGUE|Mリーグ|\d\d-\d\d赛季", re.IGNORECASE)
_DISP = re.compile(r"^(三)?(般|上|特|鳳|若|銀|琥|孔)?(東|南)(喰)?(赤)?(速)?(祝[0-9]*)?(暗)?$")


# -- tiles ---------------------------------------------------------------------------------------


def _code_tile(code: int) -> Tile | None:
    suit, num = divmod(code, 10)
    if 1 <= suit <= 3 and 1 <= num <= 9:
        return Tile((suit - 1) * 9 + num - 1)
    if suit == 4 and 1 <= num <= 7:
        return Tile(27 + num - 1)
    if suit == 5 and 1 <= num <= 3:
        return Tile((num - 1) * 9 + 4, True)
    return None


#: every tenhou.net/6 tile number and its tile (tiles are values: one of each serves every record)
_CODE_TILES: dict[int, Tile] = {c: tile for c in range(11, 54) if (tile := _code_tile(c)) is not None}


def tile_of_code(code: object, where: str = "tile") -> Tile:
    """The tile of a tenhou.net/6 number (51-53 are the red fives).

    >>> [str(tile_of_code(c)) for c in (11, 25, 52, 47)]
    ['1m', '5p', '0p', '7z']
    """
    if type(code) is int:
        tile = _CODE_TILES.get(code)
        if tile is not None:
            return tile
    raise LogFormatError(f"{where}: {code!r} is not a tenhou.net/6 tile (11-19, 21-29, 31-39, 41-47, 51-53)")


def code_of_tile(tile: Tile) -> int:
    """The tenhou.net/6 number of a tile.

    >>> code_of_tile(Tile.parse("0s")), code_of_tile(Tile.parse("3z"))
    (53, 43)
    """
    if tile.red:
        return 50 + tile.kind // 9 + 1
    if tile.kind >= 27:
        return 41 + tile.kind - 27
    return (tile.kind // 9 + 1) * 10 + tile.kind % 9 + 1


def _tiles_of(text: str, where: str) -> list[Tile]:
    if len(text) % 2:
        raise LogFormatError(f"{where}: {text!r} is not a list of two-digit tiles")
    return [tile_of_code(_number(text[i : i + 2], where), where) for i in range(0, len(text), 2)]


def _number(text: str, where: str) -> int:
    if not text.isdigit():
        raise LogFormatError(f"{where}: {text!r} is not a tenhou.net/6 tile number")
    return int(text)


# -- rules ---------------------------------------------------------------------------------------


def rules_of(obj: Mapping[str, Any]) -> tuple[JSON, int, str | None]:
    """(rules, players, skip reason) of a record from its ``rule`` (and ``title``).

    >>> rules_of({"rule": {"disp": "鳳南喰赤", "aka": 1}})
    ('tenhou', 4, None)
    >>> rules_of({"rule": {"disp": "般東喰", "aka": 0}})[0]
    {'preset': 'tenhou', 'overrides': {'red_fives': 0, 'length': 'tonpuu'}}
    >>> rules_of({"rule": {"disp": "金の間南喰", "aka51": 1, "aka52": 1, "aka53": 1}})[0]
    'mahjongsoul'
    >>> rules_of({"rule": {"disp": "", "aka": 1}, "title": ["22-23赛季 半决赛", ""]})[0]
    'mleague'
    """
    rule = obj.get("rule")
    if not isinstance(rule, Mapping):
        rule = {}
    disp = rule.get("disp", "")
    if not isinstance(disp, str):
        disp = str(disp)
    players = 3 if "三" in disp or "3-Player" in disp or "Three" in disp else 4
    if isinstance(obj.get("tenbou_rules"), (str, dict)):  # written by tenbou: the rules themselves
        rules: JSON = obj["tenbou_rules"]
        return rules, players, None
    title = obj.get("title", "")
    title_text = " ".join(map(str, title)) if isinstance(title, list) else str(title)
    aka = sum(1 for k in ("aka", "aka51", "aka52", "aka53") if rule.get(k) not in (None, 0, "0", False))
    tonpuu = "東" in disp or "East" in disp
    overrides: dict[str, JSON] = {}
    if not aka:
        overrides["red_fives"] = 0
    if "playerMapping" in obj or any(room in disp for room in _MS_ROOMS):
        preset = "mahjongsoul"
    elif not disp and _MLEAGUE.search(title_text):
        return "mleague", 4, None
    else:
        m = _DISP.match(disp)
        if not m:
            return (
                "tenhou",
                players,
                f"unmodelled rules: tenhou.net/6 rule.disp {disp!r} names no room tenbou models",
            )
        preset = "tenhou"
        if not m.group(4):
            overrides["open_tanyao"] = False
        if m.group(7) or m.group(8):
            return (
                "tenhou",
                players,
                f"unmodelled rules: tenhou.net/6 rule.disp {disp!r} (chips or hidden discards)",
            )
    if tonpuu:
        overrides["length"] = "tonpuu"
    return ({"preset": preset, "overrides": overrides} if overrides else preset), players, None


def disp_of(rules: JSON, players: int) -> tuple[str, int]:
    """A ``rule.disp`` text and ``aka`` flag for rules (the inverse of :func:`rules_of` for its presets)."""
    from ..rules import rules_from_request

    r = rules_from_request(rules)
    preset = rules if isinstance(rules, str) else rules.get("preset") if isinstance(rules, dict) else None
    length = "東" if r.length == "tonpuu" else "南"
    kui = "喰" if r.open_tanyao else ""
    aka = "赤" if r.red_fives else ""
    if preset == "mleague":
        return "", 1 if r.red_fives else 0
    if preset == "mahjongsoul":
        return f"金の間{length}{kui}{aka}", 1 if r.red_fives else 0
    return f"{'三' if players == 3 else ''}鳳{length}{kui}{aka}", 1 if r.red_fives else 0


# -- results -------------------------------------------------------------------------------------


def _parse_yaku(texts: Sequence[object], where: str) -> tuple[dict[str, int], tuple[str, ...]]:
    yaku: dict[str, int] = {}
    yakuman: list[str] = []
    for text in texts:
        m = _YAKU.match(str(text))
        if not m:
            raise LogFormatError(
                f"{where}: {text!r} is not a yaku text such as '立直(1飜)' or '大三元(役満)'"
            )
        name = m.group(1).strip()
        key = _BY_NAME.get(name)
        if key is None:
            raise LogFormatError(f"{where}: unknown yaku {name!r}")
        if m.group(3):
            if key == "renhou":
                key = "renhou_yakuman"
            yakuman.append(key)
            yaku[key] = yaku.get(key, 0) + 13
        elif int(m.group(2)):
            yaku[key] = yaku.get(key, 0) + int(m.group(2))
    return yaku, tuple(yakuman)


def _points(
    text: str, tsumo: bool, dealer: bool, players: int, where: str
) -> tuple[int | None, int | None, int, str | None]:
    """(fu, han, points, limit) of a value text; a tsumo's points are the sum of the payments."""
    m = _VALUE.match(text)
    if not m:
        raise LogFormatError(
            f"{where}: {text!r} is not a value text such as '30符4飜7700点' or '満貫2000-4000点'"
        )
    fu = int(m.group(1)) if m.group(1) else None
    han = int(m.group(2)) if m.group(2) else None
    limit = _LIMITS[m.group(3)] if m.group(3) else None
    x = int(m.group(4))
    y = int(m.group(5)) if m.group(5) else None
    if not tsumo:
        points = x
    elif m.group(6) or dealer:
        points = x * (players - 1)
    else:
        points = x * (players - 2) + (y if y is not None else 2 * x)
    return fu, han, points, limit


def _deltas(value: object, players: int, where: str) -> tuple[int, ...]:
    """One integer per seat (a fourth 0 allowed with three players)."""
    if (
        not isinstance(value, list)
        or not players <= len(value) <= 4
        or any(type(v) is not int for v in value)
        or any(value[players:])
    ):
        raise LogFormatError(f"{where}: {str(value)[:60]} is not a list of one integer per seat ({players})")
    return tuple(value[:players])


# -- one round -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Take:
    """A take: a draw (``tile``) or a call."""

    kind: str  # draw chi pon daiminkan
    tile: Tile
    target: int = -1
    consumed: tuple[Tile, ...] = ()


@dataclass(frozen=True, slots=True)
class _Discard:
    kind: str  # dahai tsumogiri reach ankan kakan kita skip
    tile: Tile | None = None
    consumed: tuple[Tile, ...] = ()
    tsumogiri: bool = False


def _take(item: object, seat: int, players: int, where: str) -> _Take:
    if isinstance(item, int) and not isinstance(item, bool):
        return _Take("draw", tile_of_code(item, where))
    if not isinstance(item, str):
        raise LogFormatError(f"{where}: {item!r} is neither a tile nor a call")
    for letter, kind, size in (("c", "chi", 7), ("p", "pon", 7), ("m", "daiminkan", 9)):
        idx = item.find(letter)
        if idx < 0:
            continue
        if len(item) != size or idx % 2:
            raise LogFormatError(f"{where}: {item!r} is not a {kind} call")
        called = tile_of_code(_number(item[idx + 1 : idx + 3], where), where)
        consumed = tuple(_tiles_of(item[:idx] + item[idx + 3 :], where))
        if kind == "chi":
            rel = 3
        else:
            rel = {0: 3, 2: 2, 4 if kind == "pon" else 6: 1}.get(idx, 0)
            if not rel:
                raise LogFormatError(f"{where}: {item!r}: '{letter}' stands where no seat is")
        target = (seat + rel) % 4  # counted around four seats, the empty fourth too
        if target >= players:
            raise LogFormatError(f"{where}: {item!r} calls from seat {target}, which is empty")
        return _Take(kind, called, target, consumed)
    raise LogFormatError(f"{where}: {item!r} is not a tenhou.net/6 call (c, p or m)")


def _discard(item: object, where: str) -> _Discard:
    if item == 60:
        return _Discard("tsumogiri", tsumogiri=True)
    if item == 0:
        return _Discard("skip")
    if isinstance(item, int) and not isinstance(item, bool):
        return _Discard("dahai", tile_of_code(item, where))
    if not isinstance(item, str):
        raise LogFormatError(f"{where}: {item!r} is neither a tile nor a call")
    if item.startswith("r") and len(item) == 3:
        code = _number(item[1:], where)
        if code == 60:
            return _Discard("reach", tsumogiri=True)
        return _Discard("reach", tile_of_code(code, where))
    if item.startswith("f") and len(item) == 3:
        return _Discard("kita", tile_of_code(_number(item[1:], where), where))
    if "a" in item and len(item) == 9:
        idx = item.index("a")
        tiles = _tiles_of(item[:idx] + item[idx + 1 :], where)
        return _Discard("ankan", consumed=tuple(tiles))
    if "k" in item and len(item) == 9:
        idx = item.index("k")
        if idx % 2:
            raise LogFormatError(f"{where}: {item!r} is not a kakan call")
        added = tile_of_code(_number(item[idx + 1 : idx + 3], where), where)
        pon = _tiles_of(item[:idx] + item[idx + 3 :], where)
        return _Discard("kakan", added, tuple(pon))
    raise LogFormatError(f"{where}: {item!r} is not a tenhou.net/6 discard (a tile, 60, r.., a kan or f..)")


class _DeadEndError(Exception):
    """This ordering of the round's actions does not work out."""


class _Round:
    """Rebuilds the order of a round's actions from the four seats' lists."""

    def __init__(self, kyoku: Sequence[Any], players: int, where: str) -> None:
        self.where = where
        if not isinstance(kyoku, list) or len(kyoku) < 5 + 3 * players:
            raise LogFormatError(f"{where}: a round is a list of 17 items, not {str(kyoku)[:60]}")
        meta = kyoku[0]
        if not isinstance(meta, list) or len(meta) < 3 or any(type(v) is not int for v in meta[:3]):
            raise LogFormatError(f"{where}: [round, honba, sticks] expected, not {meta!r}")
        self.index, self.honba, self.sticks = meta[:3]
        if not 0 <= self.index < 16 or self.honba < 0 or self.sticks < 0:
            raise LogFormatError(
                f"{where}: [round, honba, sticks] = {meta[:3]!r}: a round 0..15 (East 1 to North 4), "
                "and counts that are not negative, expected"
            )
        self.players = players
        self.scores = _deltas(kyoku[1], players, f"{where} scores")
        for name, value in (("dora", kyoku[2]), ("ura", kyoku[3])):
            if not isinstance(value, list):
                raise LogFormatError(f"{where}: the {name} indicators must be a list, not {str(value)[:60]}")
        if not kyoku[2]:  # (an empty ura list is a hand with no ura shown: read as such)
            raise LogFormatError(
                f"{where}: the dora indicators are an empty list: every hand shows its first "
                "indicator from the start, and the hand's dora cannot be counted without it"
            )
        self.dora = [tile_of_code(c, f"{where} dora") for c in kyoku[2]]
        self.ura = [tile_of_code(c, f"{where} ura") for c in kyoku[3]]
        self.hands: list[list[Tile]] = []
        self.takes: list[list[_Take]] = []
        self.discards: list[list[_Discard]] = []
        for seat in range(players):
            hai, takes, discards = kyoku[4 + 3 * seat : 7 + 3 * seat]
            w = f"{where} seat {seat}"
            if not isinstance(hai, list) or len(hai) != 13:
                raise LogFormatError(f"{w}: a starting hand of 13 tiles expected, not {hai!r}")
            if not isinstance(takes, list) or not isinstance(discards, list):
                raise LogFormatError(f"{w}: takes and discards must be lists")
            self.hands.append([tile_of_code(c, w) for c in hai])
            self.takes.append([_take(t, seat, players, w) for t in takes])
            self.discards.append([_discard(d, w) for d in discards])
        self.result = kyoku[-1]  # after the four seats (the fourth empty with three players)
        if not isinstance(self.result, list) or not self.result or not isinstance(self.result[0], str):
            raise LogFormatError(
                f"{where}: the result must be a list starting with its text, not {self.result!r}"
            )
        self.oya = self.index % 4
        if self.oya >= players:
            raise LogFormatError(f"{where}: round {self.index} has dealer seat {self.oya}")

    def start(self) -> StartKyoku:
        return StartKyoku(
            bakaze=Wind.of_index(self.index // 4),
            dora_marker=self.dora[0],
            kyoku=self.index % 4 + 1,
            honba=self.honba,
            kyotaku=self.sticks,
            oya=self.oya,
            scores=self.scores,
            tehais=tuple(tuple(h) for h in self.hands),
        )

    def events(self) -> list[Event]:
        """The round's events, the first ordering that works out (odometer backtracking)."""
        choices: list[int] = []
        first: Exception | None = None
        for _ in range(4096):
            counts: list[int] = []
            try:
                return self._attempt(choices, counts)
            except (_DeadEndError, LogFormatError) as e:
                first = first or e
                while counts and len(choices) <= len(counts):
                    choices.append(0)
                # advance the last choice point that has another branch
                while choices:
                    k = len(choices) - 1
                    if k < len(counts) and choices[k] + 1 < counts[k]:
                        choices[k] += 1
                        break
                    choices.pop()
                else:
                    break
        raise LogFormatError(
            f"{self.where}: the seats' actions cannot be put in an order that works: {first}"
        )

    def _attempt(self, choices: list[int], counts: list[int]) -> list[Event]:
        n = self.players
        hands = [Counter(h) for h in self.hands]
        ti = [0] * n
        di = [0] * n
        dora = iter(self.dora[1:])
        out: list[Event] = [self.start()]
        actor = self.oya
        pending_dora = 0
        last: tuple[int, Tile] | None = None
        drawn: Tile | None = None

        def need(seat: int, tiles: Sequence[Tile]) -> None:
            for t in tiles:
                if hands[seat][t] <= 0:
                    raise _DeadEndError(f"seat {seat} does not hold {t}")
                hands[seat][t] -= 1

        def reveal() -> None:
            marker = next(dora, None)
            if marker is not None:
                out.append(Dora(marker))

        def all_taken() -> bool:
            return all(ti[s] >= len(self.takes[s]) for s in range(n))

        def done() -> list[Event]:
            if all(di[s] >= len(self.discards[s]) for s in range(n)):
                return out
            raise _DeadEndError("the round ends with discards left")

        while True:
            # -- the actor takes: a draw, or a call of the last discard
            if ti[actor] >= len(self.takes[actor]):
                if all_taken():
                    return done()
                raise _DeadEndError(f"seat {actor} has no take left")
            take = self.takes[actor][ti[actor]]
            ti[actor] += 1
            if take.kind == "draw":
                if last is not None and actor != (last[0] + 1) % n:
                    raise _DeadEndError("a draw out of turn")
                out.append(Tsumo(actor, take.tile))
                hands[actor][take.tile] += 1
                drawn = take.tile
                for _ in range(pending_dora):
                    reveal()
                pending_dora = 0
            else:
                if last is None or last != (take.target, take.tile):
                    raise _DeadEndError(f"seat {actor}'s {take.kind} of {take.tile} matches no discard")
                need(actor, take.consumed)
                if take.kind == "chi":
                    out.append(Chi(actor, take.target, take.tile, take.consumed))
                elif take.kind == "pon":
                    out.append(Pon(actor, take.target, take.tile, take.consumed))
                else:
                    out.append(Daiminkan(actor, take.target, take.tile, take.consumed))
                drawn = None
                if take.kind == "daiminkan":
                    if (
                        di[actor] < len(self.discards[actor])
                        and self.discards[actor][di[actor]].kind == "skip"
                    ):
                        di[actor] += 1
                    pending_dora += 1
                    last = None
                    continue
            last = None
            # -- the actor's discard, kan or kita (or the round ends here: tsumo, nine terminals)
            if di[actor] >= len(self.discards[actor]):
                if all_taken():
                    return done()
                raise _DeadEndError(f"seat {actor} has no discard left")
            d = self.discards[actor][di[actor]]
            di[actor] += 1
            if d.kind in ("ankan", "kakan", "kita"):
                if d.kind == "ankan":
                    need(actor, d.consumed)
                    out.append(Ankan(actor, d.consumed))
                    reveal()
                else:
                    assert d.tile is not None
                    need(actor, [d.tile])
                    if d.kind == "kakan":
                        out.append(Kakan(actor, d.tile, d.consumed))
                        pending_dora += 1
                    else:
                        out.append(Nukidora(actor, d.tile))
                drawn = None
                if all_taken():  # robbed (chankan), or the round ends on it
                    return done()
                continue  # the same seat draws its replacement
            if d.kind == "skip":
                raise _DeadEndError("a 0 in a discard list that follows no daiminkan")
            tile = d.tile
            if d.tsumogiri:
                if drawn is None:
                    raise _DeadEndError(f"seat {actor} discards the drawn tile without having drawn")
                tile = drawn
            assert tile is not None
            if d.kind == "reach":
                out.append(Reach(actor))
            need(actor, [tile])
            out.append(Dahai(actor, tile, d.tsumogiri))
            last = (actor, tile)
            drawn = None
            if all_taken():
                if d.kind == "reach" and self.result[0] != "和了":
                    out.append(ReachAccepted(actor))
                return done()
            if d.kind == "reach":
                out.append(ReachAccepted(actor))
            # -- who takes this discard: a call that matches it (pon/kan before chi), or the next seat
            callers = []
            for s in range(n):
                if s == actor or ti[s] >= len(self.takes[s]):
                    continue
                nxt = self.takes[s][ti[s]]
                if nxt.kind != "draw" and (nxt.target, nxt.tile) == last:
                    callers.append((0 if nxt.kind == "chi" else 1, s))
            callers.sort(reverse=True)
            options = list(dict.fromkeys([s for _, s in callers] + [(actor + 1) % n]))
            if len(options) > 1:
                k = len(counts)
                counts.append(len(options))
                actor = options[choices[k] if k < len(choices) else 0]
            else:
                actor = options[0]


# -- whole records -------------------------------------------------------------------------------


def _objects(text: str, source: str) -> list[dict[str, Any]]:
    """The record's JSON objects: the whole text as one, or one per line (mjx)."""
    try:
        whole: Any = read_json(text, source)
    except LogFormatError:
        whole = None
    if isinstance(whole, dict):
        return [whole]
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        obj = read_json(line, f"{source}:{n}")
        if not isinstance(obj, dict):
            raise LogFormatError(f"{source}:{n}: a tenhou.net/6 record is a JSON object, not {str(obj)[:40]}")
        out.append(obj)
    if not out:
        raise LogFormatError(f"{source}: no tenhou.net/6 record")
    return out


def _game_key(obj: Mapping[str, Any]) -> str:
    return json.dumps(
        [obj.get("name"), obj.get("rule"), obj.get("title"), obj.get("ref")], ensure_ascii=False
    )


def tenhou6_records(text: str, source: str = "<tenhou6>") -> list[GameRecord]:
    """The games of a tenhou.net/6 file (one object, or one per line: consecutive
    lines with the same players, rules and title are one game)."""
    objects = _objects(text, source)
    groups: list[list[dict[str, Any]]] = []
    for obj in objects:
        if groups and _game_key(groups[-1][-1]) == _game_key(obj):
            groups[-1].append(obj)
        else:
            groups.append([obj])
    return [_record(group, source, i) for i, group in enumerate(groups)]


def _record(objs: Sequence[Mapping[str, Any]], source: str, index: int) -> GameRecord:
    head = objs[0]
    rules, players, skip = rules_of(head)
    names_raw = head.get("name", [])
    names = tuple(str(x) for x in names_raw[:players]) if isinstance(names_raw, list) else ()
    events: list[Event] = [StartGame(names)]
    hands: list[HandEnd] = []
    where_game = source if len(objs) == 1 else f"{source} (game {index})"
    for obj in objs:
        if not isinstance(obj.get("log"), list):
            raise LogFormatError(
                f"{where_game}: 'log' must be a list of rounds, not {str(obj.get('log'))[:40]}"
            )
    rounds = [k for obj in objs for k in obj["log"]]
    for i, kyoku in enumerate(rounds):
        where = f"{where_game}: log[{i}]"
        rnd = _Round(kyoku, players, where)
        events.extend(_with_result(rnd.events(), rnd, hands, where))
    final = None
    meta: dict[str, JSON] = {}
    # the final points and results: on the one object, or (one kyoku a line) on the last that has them
    sc = next((obj["sc"] for obj in reversed(objs) if "sc" in obj), None)
    if (
        isinstance(sc, list)
        and len(sc) >= 2 * players
        and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in sc)
    ):
        final = tuple(int(sc[2 * i]) for i in range(players))
        events.append(EndGame(final))
        meta["final_results"] = [float(sc[2 * i + 1]) for i in range(players)]
    rule = head.get("rule")
    if isinstance(rule, dict) and isinstance(rule.get("disp"), str):
        meta["disp"] = rule["disp"]
    if isinstance(head.get("title"), list):
        meta["title"] = [str(t) for t in head["title"]]
    if isinstance(head.get("ref"), str):
        meta["ref"] = head["ref"]
    return GameRecord(
        source=source,
        index=index,
        format="tenhou6",
        events=tuple(events),
        hands=tuple(hands),
        rules=rules,
        players=players,
        names=names,
        final_scores=final,
        skip=skip,
        meta=meta,
    )


def _with_result(events: list[Event], rnd: _Round, hands: list[HandEnd], where: str) -> list[Event]:
    res = rnd.result
    n = rnd.players
    text = res[0]
    if text == "和了":
        wins: list[WinRecord] = []
        for j in range(1, len(res) - 1, 2):
            deltas = _deltas(res[j], n, f"{where} result")
            info = res[j + 1]
            if not isinstance(info, list) or len(info) < 4 or any(type(v) is not int for v in info[:3]):
                raise LogFormatError(
                    f"{where}: win details [who, from, pao, text, yaku...] expected, not {info!r}"
                )
            who, frm, pao = info[:3]
            if not (0 <= who < n and 0 <= frm < n and 0 <= pao < n):
                raise LogFormatError(f"{where}: win details {info[:3]!r} name no seat")
            fu, han, points, limit = _points(str(info[3]), who == frm, who == rnd.oya, n, where)
            # a win with no yaku texts (a record that leaves them out) states no yaku list: not an
            # empty one, which would read as 0 han; its value text is compared for what it says. A
            # 役満 text then does not say whether it is a yakuman or a kazoe yakuman: no limit known
            listed = len(info) > 4
            yaku, yakuman = _parse_yaku(info[4:], where)
            if limit == "yakuman" and not yakuman and listed:
                limit = "kazoe_yakuman"
            wins.append(
                WinRecord(
                    winner=who,
                    from_seat=frm,
                    yaku=yaku if listed else None,
                    fu=fu,
                    points=points,
                    limit=limit,
                    pao=None if pao == who else pao,
                    pao_known=True,
                    limit_known=listed or limit != "yakuman",
                    deltas=deltas,
                    text=str(info[3]),
                    yakuman=yakuman,
                    stated_han=han,
                )
            )
            events.append(Hora(who, frm, None, tuple(rnd.ura) or None, deltas))
        if not wins:
            raise LogFormatError(f"{where}: a win result without win details")
        total = tuple(sum(w.deltas[i] for w in wins if w.deltas) for i in range(n))
        hands.append(HandEnd("win", tuple(wins), None, total, dora=tuple(rnd.dora), ura=tuple(rnd.ura)))
    elif text in ABORT_TEXTS:
        reason, name, kind = ABORT_TEXTS[text]
        deltas = _deltas(res[1], n, f"{where} result") if len(res) > 1 else (0,) * n
        tenpai: tuple[int, ...] | None = None
        if text == "全員聴牌":
            tenpai = tuple(range(n))
        elif text == "全員不聴":
            tenpai = ()
        elif text == "流局":
            ups = [i for i in range(n) if deltas[i] > 0]
            tenpai = tuple(ups) if ups else None
        tenpais = tuple(i in tenpai for i in range(n)) if tenpai is not None else None
        events.append(Ryukyoku(reason, tenpais, deltas))
        tenpai = tenpai if kind == "exhaustive_draw" and name is None else None
        hands.append(HandEnd(kind, (), name, deltas, tenpai, dora=tuple(rnd.dora), ura=tuple(rnd.ura)))
    else:
        raise LogFormatError(f"{where}: unknown result {text!r}")
    events.append(EndKyoku())
    return events


# -- writing -------------------------------------------------------------------------------------


def _code_text(tiles: Sequence[Tile]) -> str:
    """Tiles of a call as Tenhou writes them: by tile, a red five after the plain ones."""
    return "".join(str(code_of_tile(t)) for t in sort_tiles(tiles))


def _yaku_texts(win: WinRecord, seat_wind: int, round_wind: int) -> list[str]:
    """The win's yaku as Tenhou writes them (``立直(1飜)``, ``大三元(役満)``), in the record's
    order (Tenhou's own order depends on the hand; an mjai record's is tenbou's); a yaku of 0 han
    (no ura dora) is left out, as Tenhou leaves it out."""
    out = []
    for key, han in (win.yaku or {}).items():
        yakuman = key in win.yakuman
        if not han and not yakuman:
            continue
        if key == "seat_wind":
            name = f"自風 {_WIND_JA[seat_wind]}"
        elif key == "round_wind":
            name = f"場風 {_WIND_JA[round_wind]}"
        else:
            name = YAKU_NAMES.get(key, key)
        out.append(f"{name}(役満)" if yakuman else f"{name}({han}飜)")
    return out


def _value_text(win: WinRecord, dealer: bool, players: int) -> str:
    if win.text:
        return win.text
    from ..settle.payment import hand_shares

    base = win.base_points or 0
    head = _LIMIT_TEXT.get(win.limit or "", "") if win.limit else f"{win.fu}符{win.han}飜"
    if not win.tsumo:
        return f"{head}{win.points}点"
    shares = hand_shares(base, dealer, True, players, "tsumo_loss")
    if dealer:
        return f"{head}{shares[0]}点∀"
    return f"{head}{min(shares)}-{max(shares)}点"


def _sorted_hand(tiles: Sequence[Tile]) -> list[int]:
    """A starting hand as Tenhou writes it: sorted, a red five after the plain fives of its suit."""
    return [code_of_tile(t) for t in sort_tiles(tiles)]


def _result_number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def write_tenhou6(rec: GameRecord, per_kyoku: bool = False) -> bytes:
    """A game as a tenhou.net/6 JSON object (its hand ends must carry win details:
    :func:`tenbou.records.complete_record` fills them in), as Tenhou writes its own: the
    hands sorted, each win's value text (``30符2飜1000点``, ``満貫8000点``, ``1000-2000点``,
    ``4000点∀``) and yaku (``立直(1飜)``), the liable seat third in the
    win's entry (the winner where there is no pao), ``rule`` with ``disp``, ``aka`` and
    ``aka51``-``aka53``, ``sc`` with each seat's final points and result.
    ``per_kyoku``: one object a kyoku, one a line (the form NAGA's and Tenhou's editor
    take, and mjx writes), the final ``sc`` on the last."""
    n = rec.players
    disp, aka = disp_of(rec.rules, n)
    original = rec.meta.get("disp")
    go_type = rec.meta.get("go_type")
    if original is None and isinstance(go_type, int):  # an mjlog's room, as Tenhou's JSON names it
        from .mjlog.rules import GameType

        original = GameType(go_type).disp
    if (
        isinstance(original, str)
        and rules_of({"rule": {"disp": original, "aka": aka}, "title": rec.meta.get("title", "")})[0]
        == rec.rules
    ):
        disp = original
    title = rec.meta.get("title")
    from ..rules import rules_from_request

    red = rules_from_request(rec.rules).red_fives
    out: dict[str, Any] = {
        "title": title if isinstance(title, list) else ["", ""],
        "name": list(rec.names) + [""] * (4 - len(rec.names)),
        "rule": {"disp": disp, "aka": aka, **_aka_counts(red)},
        "log": [],
    }
    if isinstance(rec.meta.get("ref"), str):
        out["ref"] = rec.meta["ref"]
    if rules_of(out)[0] != rec.rules:
        out["tenbou_rules"] = rec.rules
    hand = -1
    kyoku: list[Any] = []
    seats: list[tuple[list[Any], list[Any], list[Any]]] = []
    pons: list[dict[int, str]] = []
    reach: set[int] = set()
    ura: list[int] = []
    dealer = 0
    wind = 0
    for ev in rec.events:
        if isinstance(ev, StartKyoku):
            hand += 1
            dealer, wind = ev.oya, ev.bakaze.index
            kyoku = [
                [wind * 4 + ev.kyoku - 1, ev.honba, ev.kyotaku],
                list(ev.scores),
                [code_of_tile(ev.dora_marker)],
                [],
            ]
            seats = [(_sorted_hand(h), [], []) for h in ev.tehais]
            pons = [{} for _ in range(n)]
            reach = set()
            ura = []
        elif isinstance(ev, Tsumo):
            seats[ev.actor][1].append(code_of_tile(ev.pai))
        elif isinstance(ev, Chi):
            seats[ev.actor][1].append(f"c{code_of_tile(ev.pai)}{_code_text(ev.consumed)}")
        elif isinstance(ev, (Pon, Daiminkan)):
            letter = "p" if isinstance(ev, Pon) else "m"
            rel = (ev.target - ev.actor) % 4
            c, called = _code_text(ev.consumed), f"{letter}{code_of_tile(ev.pai)}"
            text = {3: called + c, 2: c[:2] + called + c[2:], 1: c + called}[rel]
            seats[ev.actor][1].append(text)
            if isinstance(ev, Pon):
                pons[ev.actor][ev.pai.kind] = text
            else:
                seats[ev.actor][2].append(0)
        elif isinstance(ev, Kakan):
            pon = pons[ev.actor].get(ev.pai.kind)
            if pon is None:
                raise LogFormatError(f"{rec.source}: kakan of {ev.pai} by seat {ev.actor} without a pon")
            seats[ev.actor][2].append(pon.replace("p", f"k{code_of_tile(ev.pai)}"))
        elif isinstance(ev, Ankan):
            c = _code_text(ev.consumed)
            seats[ev.actor][2].append(c[:6] + "a" + c[6:])
        elif isinstance(ev, Nukidora):
            seats[ev.actor][2].append(f"f{code_of_tile(ev.pai)}")
        elif isinstance(ev, Reach):
            reach.add(ev.actor)
        elif isinstance(ev, Dahai):
            code = 60 if ev.tsumogiri else code_of_tile(ev.pai)
            if ev.actor in reach:
                reach.discard(ev.actor)
                seats[ev.actor][2].append(f"r{code}")
            else:
                seats[ev.actor][2].append(code)
        elif isinstance(ev, Dora):
            kyoku[2].append(code_of_tile(ev.dora_marker))
        elif isinstance(ev, Hora):
            if ev.ura_markers and not ura:
                ura = [code_of_tile(t) for t in ev.ura_markers]
        elif isinstance(ev, EndKyoku):
            end = rec.hands[hand]
            kyoku[3] = ura
            for s in range(4):
                kyoku.extend(seats[s] if s < n else ([], [], []))
            kyoku.append(_result(end, dealer, wind, n))
            out["log"].append(kyoku)
    if rec.final_scores is not None:
        results = final_results(rec)
        out["sc"] = [
            v for s, p in zip(rec.final_scores, results, strict=False) for v in (s, _result_number(p))
        ]
    if not per_kyoku:
        return (json.dumps(out, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
    lines = []
    head = {k: v for k, v in out.items() if k not in ("log", "sc")}
    for i, kyoku in enumerate(out["log"]):
        one = {**head, "log": [kyoku]}
        if i == len(out["log"]) - 1 and "sc" in out:
            one["sc"] = out["sc"]
        lines.append(json.dumps(one, ensure_ascii=False, separators=(",", ":")))
    return ("\n".join(lines) + "\n").encode("utf-8")


def _aka_counts(red_fives: int) -> dict[str, int]:
    """Tenhou's red fives per suit (``aka51`` man, ``aka52`` pin, ``aka53`` sou): one each for
    three, two 5p of four (the rules' ``red_fives: 4``)."""
    if not red_fives:
        return {"aka51": 0, "aka52": 0, "aka53": 0}
    return {"aka51": 1, "aka52": 2 if red_fives >= 4 else 1, "aka53": 1}


def _result(end: HandEnd, dealer: int, wind: int, players: int) -> list[Any]:
    if end.kind == "win":
        res: list[Any] = ["和了"]
        for w in end.wins:
            deltas = list(w.deltas) if w.deltas is not None else [0] * players
            seat_wind = (w.winner - dealer) % players
            pao = w.winner if w.pao is None else w.pao
            value = _value_text(w, w.winner == dealer, players)
            info = [w.winner, w.from_seat, pao, value, *_yaku_texts(w, seat_wind, wind)]
            res.extend([deltas, info])
        return res
    deltas = list(end.deltas) if end.deltas is not None else [0] * players
    if end.kind == "abortive_draw":
        return [_TEXT_BY_NAME.get(end.reason or "", "九種九牌")]
    if end.reason == "nagashi_mangan":
        return ["流し満貫", deltas]
    if not any(deltas) and end.tenpai is not None and len(end.tenpai) in (0, players):
        return ["全員聴牌" if end.tenpai else "全員不聴"]
    return ["流局", deltas]


_EXAMPLE = json.dumps(
    {
        "title": ["", ""],
        "name": ["A", "B", "C", "D"],
        "rule": {"disp": "鳳南喰赤", "aka": 1},
        "log": [
            [
                [0, 0, 0],
                [25000, 25000, 25000, 25000],
                [22],
                [],
                [11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 47, 47],
                [47],
                [19],
                [31, 32, 33, 34, 35, 36, 37, 38, 39, 41, 42, 43, 44],
                [],
                [],
                [21, 23, 24, 25, 26, 27, 28, 29, 41, 42, 43, 44, 45],
                [],
                [],
                [11, 12, 13, 14, 15, 16, 17, 18, 31, 32, 33, 34, 35],
                [],
                [],
                ["和了", [-1000, 0, 0, 1000], [3, 0, 3, "30符1飜1000点", "役牌 中(1飜)"]],
            ]
        ],
    },
    ensure_ascii=False,
)
