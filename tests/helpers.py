"""Small helpers shared by the tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tenbou.api import settle_request
from tenbou.core.hand import Hand, Situation
from tenbou.core.scoring import HandScore, score_hand
from tenbou.core.tiles import Wind, parse_tiles
from tenbou.engine.round import Round
from tenbou.rules import Rules, get_rules

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


def api_liabilities(rules: Rules, request: Mapping[str, Any]) -> list[list[dict[str, Any]]]:
    """The liabilities of each win of a settle request as the façade infers them (``pao`` left out)."""
    wins = [{k: v for k, v in w.items() if k != "pao"} for w in request["wins"]]
    st = settle_request({**request, "wins": wins}, rules=rules)
    return [[p.to_dict() for p in r.pao] for r in st.results]


def assert_api_agrees(rules: Rules, request: Mapping[str, Any] | None, results: Sequence[Any]) -> int:
    """The engine's liabilities of a hand (``results``: its settlement's results, as dicts) are the
    façade's for the request the engine wrote; return how many there are."""
    if request is None:
        return 0
    engine = [r["pao"] for r in results]
    assert api_liabilities(rules, request) == engine, request
    return sum(len(p) for p in engine)


def assert_round_agrees(rnd: Round) -> None:
    """:func:`assert_api_agrees` for a round that ended (tests/test_round.py's pao cases)."""
    assert rnd.result is not None
    results = [{"pao": [p.to_dict() for p in r.pao]} for r in rnd.result.settlement.results]
    assert_api_agrees(rnd.rules, rnd.result.request, results)
