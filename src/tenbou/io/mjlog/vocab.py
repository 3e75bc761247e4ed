"""The words of a Tenhou mjlog, each a table between tenbou's names and Tenhou's codes: yaku ids
(``yaku``, ``yakuman`` of an ``AGARI``), limit codes (the third number of ``ten``) and draw types
(``RYUUKYOKU type``). The reader and the writer take them from here.

>>> tenbou_yaku_id(36), tenbou_yaku_id(36, yakuman=True), LIMIT_NAMES[3], LIMIT_CODES["kazoe_yakuman"]
('renhou', 'renhou_yakuman', 'baiman', 5)
"""

from __future__ import annotations

from ...core.yaku import DORA, YAKU
from ...engine.events import MJAI_DRAW_REASONS
from ...errors import LogFormatError
from ...rules import NAGASHI_MANGAN

__all__ = [
    "DORA_YAKU_IDS",
    "FLAG_IDS",
    "LIMIT_CODES",
    "LIMIT_NAMES",
    "REGULAR_IDS",
    "RYUUKYOKU_BY_NAME",
    "RYUUKYOKU_TYPES",
    "TENHOU_IDS",
    "TENHOU_YAKUMAN_IDS",
    "YAKUMAN_IDS",
    "tenbou_yaku_id",
    "tenhou_yaku_id",
]

# -- yaku: Tenhou's ids by tenbou's (the ids themselves are core.yaku's ``tenhou_id``) ---------

REGULAR_IDS: dict[int, str] = {
    **{y.tenhou_id: y.id for y in YAKU if not y.yakuman and y.tenhou_id is not None},
    **{y.tenhou_id: y.id for y in DORA.values() if y.tenhou_id is not None},
    **dict.fromkeys(range(10, 14), "seat_wind"),
    **dict.fromkeys(range(14, 18), "round_wind"),
}
YAKUMAN_IDS: dict[int, str] = {y.tenhou_id: y.id for y in YAKU if y.yakuman and y.tenhou_id is not None}


def tenbou_yaku_id(tenhou_id: int, yakuman: bool = False) -> str:
    """The tenbou yaku id of a Tenhou yaku id (``yakuman=True`` for the ids of
    the ``yakuman`` attribute). Tenhou numbers each seat wind (10-13) and round
    wind (14-17); 52-54 are dora, ura dora and red fives.

    >>> [tenbou_yaku_id(i) for i in (0, 1, 7, 11, 15, 52, 53, 54)]
    ['menzen_tsumo', 'riichi', 'pinfu', 'seat_wind', 'round_wind', 'dora', 'ura_dora', 'aka_dora']
    >>> tenbou_yaku_id(36), tenbou_yaku_id(36, yakuman=True), tenbou_yaku_id(41, yakuman=True)
    ('renhou', 'renhou_yakuman', 'suuankou_tanki')
    >>> tenbou_yaku_id(99)
    Traceback (most recent call last):
    ...
    tenbou.errors.LogFormatError: unknown Tenhou yaku id 99
    """
    table = YAKUMAN_IDS if yakuman else REGULAR_IDS
    try:
        return table[tenhou_id]
    except KeyError:
        raise LogFormatError(f"unknown Tenhou {'yakuman' if yakuman else 'yaku'} id {tenhou_id!r}") from None


TENHOU_IDS: dict[str, int] = {v: k for k, v in REGULAR_IDS.items() if k not in range(10, 18)}
TENHOU_YAKUMAN_IDS: dict[str, int] = {v: k for k, v in YAKUMAN_IDS.items()}


def tenhou_yaku_id(key: str, seat_wind: int, round_wind: int, yakuman: bool = False) -> int | None:
    """The Tenhou id of a tenbou yaku id as Tenhou writes it (a seat wind 10-13 and a
    round wind 14-17 by the wind; kita counted in dora, 52), ``None`` for a yaku Tenhou
    has no id for. Tenhou lists a hand's yaku in the order of these ids.

    >>> [tenhou_yaku_id(k, 1, 0) for k in ("menzen_tsumo", "riichi", "seat_wind", "round_wind", "kita")]
    [0, 1, 11, 14, 52]
    """
    if yakuman:
        return TENHOU_YAKUMAN_IDS.get(key)
    if key == "seat_wind":
        return 10 + seat_wind
    if key == "round_wind":
        return 14 + round_wind
    return TENHOU_IDS.get("dora" if key == "kita" else key)


#: Tenhou's dora, ura dora and red five yaku ids (listed with 0 han where there are none)
DORA_YAKU_IDS = frozenset((52, 53, 54))
#: the yaku ids that are a score request's situation flags
FLAG_IDS = {
    1: "riichi", 21: "double_riichi", 2: "ippatsu", 3: "chankan", 4: "rinshan", 5: "haitei",
    6: "houtei", 37: "tenhou", 38: "chiihou", 36: "renhou",
}  # fmt: skip


# -- limits and draws ------------------------------------------------------------------------------

#: the limit a ``ten`` code names (0 none, 1 mangan ... 5 yakuman), by its code
LIMIT_NAMES = (None, "mangan", "haneman", "baiman", "sanbaiman", "yakuman")
#: the ``ten`` code of a limit (a counted yakuman is written as a yakuman)
LIMIT_CODES = {**{name: code for code, name in enumerate(LIMIT_NAMES)}, "kazoe_yakuman": 5}

#: the RYUUKYOKU ``type`` of each draw tenbou names (:data:`tenbou.rules.DRAW_REASONS` and nagashi
#: mangan); a plain exhaustive draw has none
RYUUKYOKU_BY_NAME: dict[str, str] = {
    "kyuushu_kyuuhai": "yao9",
    "suufon_renda": "kaze4",
    "suucha_riichi": "reach4",
    "sanchahou": "ron3",
    "suukaikan": "kan4",
    NAGASHI_MANGAN: "nm",
}
#: RYUUKYOKU ``type`` -> (the mjai ``ryukyoku`` reason, tenbou's name of the draw)
RYUUKYOKU_TYPES: dict[str, tuple[str, str]] = {
    kind: (MJAI_DRAW_REASONS[name], name) for name, kind in RYUUKYOKU_BY_NAME.items()
}
