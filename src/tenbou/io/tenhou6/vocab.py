"""The words of tenhou.net/6 records: yaku names, the texts of draws and of limit hands, one
table each.
"""

from __future__ import annotations

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
