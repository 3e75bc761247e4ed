"""The words of tenhou.net/6 records: yaku names, the texts of results (a win, the draws) and of
limit hands, one table each, keyed by tenbou's names.
"""

from __future__ import annotations

from ...engine.events import MJAI_DRAW_REASONS
from ...rules import DRAW_REASONS, NAGASHI_MANGAN

__all__ = ["ABORT_TEXTS", "YAKU_NAMES"]

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
