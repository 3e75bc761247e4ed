"""Small helpers shared by the tests."""

from __future__ import annotations

from typing import Any

from tenbou.hand import Hand, Situation
from tenbou.rules import Rules, get_rules
from tenbou.scoring import HandScore, score_hand
from tenbou.tiles import Wind, parse_tiles

TENHOU = get_rules("tenhou")


def sc(notation: str, rules: Rules = TENHOU, **kw: Any) -> HandScore:
    """Score a hand written in hand notation; keyword arguments are Situation
    fields, with ``round_wind`` as "E"/"S"/... and indicators as mpsz text."""
    if isinstance(kw.get("round_wind"), str):
        kw["round_wind"] = Wind(kw["round_wind"])
    for key in ("dora_indicators", "ura_indicators"):
        if isinstance(kw.get(key), str):
            kw[key] = parse_tiles(kw[key])
    return score_hand(Hand.parse(notation), Situation(**kw), rules)


def ids(hs: HandScore) -> list[str]:
    return [y.id for y in hs.yaku]


def han_of(hs: HandScore) -> dict[str, int]:
    return {y.id: y.han for y in hs.yaku}
