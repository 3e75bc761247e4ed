"""The words of tenhou.net/6 records: yaku names, the texts of results (a win, the draws) and of
limit hands, one table each, keyed by tenbou's names.
"""

from __future__ import annotations

from ...core.yaku import YAKU_BY_ID
from ...engine.events import MJAI_DRAW_REASONS
from ...rules import DRAW_REASONS, NAGASHI_MANGAN

__all__ = ["ABORT_TEXTS", "YAKU_NAMES"]

#: Tenhou's spelling of a yaku where it is not the yaku table's ``name_ja``
TENHOU_SPELLINGS: dict[str, str] = {"double_riichi": "両立直", "kokushi_13": "国士無双１３面"}
#: Tenhou's yaku names (tenhou.net/6 result texts) by tenbou yaku id: every yaku Tenhou has an id for
#: (:attr:`~tenbou.core.yaku.Yaku.tenhou_id`), and kita, by the yaku table's Japanese name but
#: where Tenhou spells it its own way; seat and round winds are written with the wind (``自風 東``,
#: ``場風 南``)
YAKU_NAMES: dict[str, str] = {
    y.id: TENHOU_SPELLINGS.get(y.id, y.name_ja)
    for y in YAKU_BY_ID.values()
    if (y.tenhou_id is not None or y.id == "kita") and y.id not in ("seat_wind", "round_wind")
}
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

#: the result text of a win
WIN_TEXT = "和了"
#: the result texts of a plain exhaustive draw: some seats in tenpai (the score changes follow), all
#: of them, none of them
EXHAUSTIVE_TEXT, ALL_TENPAI_TEXT, NO_TENPAI_TEXT = "流局", "全員聴牌", "全員不聴"
#: the result text of each draw tenbou names (:data:`tenbou.rules.DRAW_REASONS` and nagashi mangan)
DRAW_TEXTS: dict[str, str] = {
    NAGASHI_MANGAN: "流し満貫",
    "kyuushu_kyuuhai": "九種九牌",
    "suucha_riichi": "四家立直",
    "suufon_renda": "四風連打",
    "suukaikan": "四槓散了",
    "sanchahou": "三家和了",
}
#: results without a win: text -> (mjai reason, tenbou name, kind)
ABORT_TEXTS: dict[str, tuple[str | None, str | None, str]] = {
    **dict.fromkeys((EXHAUSTIVE_TEXT, ALL_TENPAI_TEXT, NO_TENPAI_TEXT), (None, None, "exhaustive_draw")),
    **{
        text: (MJAI_DRAW_REASONS[name], name, "abortive_draw" if name in DRAW_REASONS else "exhaustive_draw")
        for name, text in DRAW_TEXTS.items()
    },
}
_LIMITS = {"満貫": "mangan", "跳満": "haneman", "倍満": "baiman", "三倍満": "sanbaiman", "役満": "yakuman",
           "数え役満": "kazoe_yakuman"}  # fmt: skip
_LIMIT_TEXT = {v: k for k, v in _LIMITS.items() if k != "数え役満"}
_LIMIT_TEXT["kazoe_yakuman"] = "役満"
