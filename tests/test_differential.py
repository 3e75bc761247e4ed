"""Differential test: tenbou against the ``mahjong`` package (2.1.0, Tenhou-equivalent options).

Random valid winning hands from ``tests/handgen.py`` go through ``tenbou.api.score`` (rules
``tenhou``) and through mahjong's ``HandCalculator.estimate_hand_value``. They must agree on

- rejection: tenbou's ``InvalidHandError`` code ``no_yaku`` <-> mahjong ``no_yaku``, and
  ``not_winning`` <-> ``hand_not_winning``; tenbou must refuse nothing else (every generated hand is
  a legal Tenhou situation);
- han (dora included; 13 x multiplier for yakuman), fu when the hand is below mangan, and the
  winner's total gain: tenbou's ``deltas[winner]`` against mahjong's ``cost["total"]`` (hand, honba
  and riichi sticks);
- the yaku list (ids and han; mahjong's seat/round wind ids 18-25 map to ``seat_wind``/``round_wind``).

tenbou's own invariant is checked on the way: the deltas add up to the riichi sticks taken from
the table.

A hand readable both as a real yakuman and as 13+ han of regular yaku with equal points
(``222333444p`` as three triplets or three identical runs) is reported as the yakuman by both
(``test_kazoe_vs_yakuman_tie``): found by this comparison, fixed in tenbou's reading order.

The 5,000-hand run is ``slow``: ``pytest --runslow`` (see ``tests/conftest.py``).
``python tests/test_differential.py [N] [SEED]`` prints the tally of a run.
"""

from __future__ import annotations

import collections
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import handgen
from tenbou.api import score
from tenbou.errors import InvalidHandError, TenbouError

pytest.importorskip("mahjong")

FAST_N, FAST_SEED = 300, 20240611
SLOW_N, SLOW_SEED = 5000, 1

#: mahjong yaku_id -> tenbou yaku id (Tenhou's options: no open riichi, nagashi, renhou, local yakuman)
MJ_TO_TENBOU = {
    0: "menzen_tsumo", 1: "riichi", 3: "ippatsu", 4: "chankan", 5: "rinshan", 6: "haitei", 7: "houtei",
    8: "double_riichi", 12: "pinfu", 13: "tanyao", 14: "iipeikou", 15: "haku", 16: "hatsu", 17: "chun",
    18: "seat_wind", 19: "seat_wind", 20: "seat_wind", 21: "seat_wind",
    22: "round_wind", 23: "round_wind", 24: "round_wind", 25: "round_wind",
    26: "sanshoku", 27: "ittsu", 28: "chanta", 29: "honroutou", 30: "toitoi", 31: "sanankou",
    32: "sankantsu", 33: "sanshoku_doukou", 34: "chiitoitsu", 35: "shousangen", 36: "honitsu",
    37: "junchan", 38: "ryanpeikou", 39: "chinitsu",
    100: "kokushi", 101: "chuuren", 102: "suuankou", 103: "daisangen", 104: "shousuushii",
    105: "ryuuiisou", 106: "suukantsu", 107: "tsuuiisou", 108: "chinroutou", 111: "daisuushii",
    112: "kokushi_13", 113: "suuankou_tanki", 114: "junsei_chuuren", 115: "tenhou", 116: "chiihou",
    120: "dora", 121: "aka_dora", 122: "ura_dora",
}  # fmt: skip
_ERROR_CODES = {"no_yaku": "no_yaku", "hand_not_winning": "not_winning"}


@dataclass(frozen=True)
class Outcome:
    """What one engine made of a hand: an error code, or han/fu/limit/total/yaku."""

    error: str | None = None
    han: int = 0
    fu: int = 0
    limit: str | None = None  # tenbou's limit; mahjong: "" below mangan, else its yaku_level
    total: int = 0
    yaku: tuple[tuple[str, int], ...] = ()


def tenbou_outcome(req: dict[str, Any]) -> Outcome:
    try:
        r = score(req)
    except InvalidHandError as e:
        return Outcome(error=e.code)
    winner = req["winner"]
    sticks = req.get("riichi_sticks", 0)
    # tenbou's own invariant: the deltas add up to the riichi sticks taken from the table
    assert sum(r["deltas"]) == 1000 * sticks, (json.dumps(req), r["deltas"])
    return Outcome(
        han=r["han"],
        fu=r["fu"],
        limit=r["limit"],
        total=r["deltas"][winner],
        yaku=tuple(sorted((y["id"], y["han"]) for y in r["yaku"])),
    )


def mahjong_outcome(req: dict[str, Any]) -> Outcome:
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig

    tiles, win, melds, dora, ura, kwargs = handgen.to_mahjong(req)
    # a fresh HandConfig per call: mahjong writes dora counts into the config's yaku objects
    r = HandCalculator.estimate_hand_value(
        tiles, win, melds, dora, HandConfig(**kwargs), ura_dora_indicators=ura
    )
    if r.error:
        return Outcome(error=_ERROR_CODES.get(r.error, r.error))
    yaku = tuple(
        sorted((MJ_TO_TENBOU[y.yaku_id], y.han_open if r.is_open_hand else y.han_closed) for y in r.yaku)
    )
    return Outcome(han=r.han, fu=r.fu, limit=r.cost["yaku_level"] or None, total=r.cost["total"], yaku=yaku)


def compare(req: dict[str, Any]) -> tuple[str, str]:
    """``(class, detail)``: class ``agree``, ``agree_no_yaku``, ``agree_not_winning``,
    or ``mismatch:<fields>``."""
    try:
        t = tenbou_outcome(req)
    except TenbouError as e:  # a refusal other than not winning / no yaku: generator or tenbou bug
        return f"mismatch:tenbou_refused:{e.code}", str(e)
    m = mahjong_outcome(req)
    if t.error or m.error:
        if t.error == m.error:
            return f"agree_{t.error}", ""
        return f"mismatch:error:{t.error}/{m.error}", f"tenbou={t} mahjong={m}"
    fields = []
    if t.han != m.han:
        fields.append("han")
    if t.limit is None and t.fu != m.fu:
        fields.append("fu")
    if t.total != m.total:
        fields.append("total")
    if t.yaku != m.yaku:
        fields.append("yaku")
    if fields:
        return "mismatch:" + ",".join(fields), f"tenbou={t} mahjong={m}"
    return "agree", ""


def run(seed: int, n: int) -> tuple[collections.Counter[str], list[tuple[str, str, str, dict[str, Any]]]]:
    """Compare ``n`` hands of ``seed``: the tally of classes and every non-agreement."""
    tally: collections.Counter[str] = collections.Counter()
    notes = []
    for family, req in handgen.generate_labelled(seed, n):
        cls, detail = compare(req)
        tally[cls] += 1
        if not cls.startswith("agree"):
            notes.append((cls, family, detail, req))
    return tally, notes


def _assert_no_mismatch(
    tally: collections.Counter[str], notes: list[tuple[str, str, str, dict[str, Any]]]
) -> None:
    bad = [x for x in notes if x[0].startswith("mismatch")]
    shown = "\n".join(f"{c} [{fam}] {d}\n  {json.dumps(r)}" for c, fam, d, r in bad[:10])
    assert not bad, f"{len(bad)} disagreement(s), tally {dict(tally)}:\n{shown}"


# -- the comparisons ------------------------------------------------------------------------------


def test_differential_fast() -> None:
    tally, notes = run(FAST_SEED, FAST_N)
    _assert_no_mismatch(tally, notes)
    assert tally["agree"] > FAST_N // 2
    assert tally["agree_no_yaku"] > 0


@pytest.mark.slow
def test_differential_5000() -> None:
    tally, notes = run(SLOW_SEED, SLOW_N)
    print(f"\n{SLOW_N} hands, seed {SLOW_SEED}: {dict(tally)}")
    _assert_no_mismatch(tally, notes)
    assert sum(tally.values()) == SLOW_N
    assert tally["agree"] >= 0.8 * SLOW_N
    assert tally["agree_no_yaku"] >= 100
    assert tally["agree_not_winning"] >= 20


# -- known classes, pinned ------------------------------------------------------------------------

# 222 333 444p + 777p + 6p tanki, ron, riichi: suuankou tanki, or 234p x3 + 777p + 66p =
# riichi tanyao iipeikou chinitsu + dora 3 (2p) + ura 3 (7p) = 15 han. Both are one yakuman of points.
KAZOE_TIE = {
    "rules": "tenhou", "dealer": 0, "winner": 1, "from": 2, "hand": "2223334446777p", "win_tile": "6p",
    "riichi": True, "dora_indicators": ["1p"], "ura_indicators": ["6p"],
}  # fmt: skip


def test_kazoe_vs_yakuman_tie() -> None:
    """Equal points: the true yakuman is reported before 15 han of regular yaku (kazoe)."""
    t, m = tenbou_outcome(KAZOE_TIE), mahjong_outcome(KAZOE_TIE)
    assert t.total == m.total == 32000
    assert t == Outcome(han=13, fu=t.fu, limit="yakuman", total=32000, yaku=(("suuankou_tanki", 13),))
    assert (m.han, m.yaku) == (t.han, t.yaku)


def test_without_the_extra_han_the_yakuman_wins() -> None:
    """The same tiles with a blank ura: 12 han (sanbaiman) loses to the yakuman in both engines."""
    req = dict(KAZOE_TIE, ura_indicators=["5z"])
    t, m = tenbou_outcome(req), mahjong_outcome(req)
    assert t == Outcome(han=13, fu=50, limit="yakuman", total=32000, yaku=(("suuankou_tanki", 13),))
    assert (m.han, m.total, m.yaku) == (t.han, t.total, t.yaku)


# -- the generator --------------------------------------------------------------------------------


def test_generator_is_deterministic() -> None:
    assert handgen.generate(5, 40) == handgen.generate(5, 40)
    assert handgen.generate(5, 40) != handgen.generate(6, 40)


def _check_legal(req: dict[str, Any]) -> None:
    """The generator's promises, checked from the request alone (no tenbou, no mahjong)."""
    p = handgen.parse_mpsz
    winner, melds = req["winner"], req.get("melds") or []
    tsumo = req.get("from") is None
    seen = [*p(req["hand"]), *p(req["win_tile"])]
    for m in melds:
        seen += p(m["tiles"])
        if m["type"] == "ankan":
            assert "from" not in m
        else:
            assert m["from"] != winner
        if m["type"] == "chi":
            assert m["from"] == (winner - 1) % 4
    assert len(p(req["hand"])) == 13 - 3 * len(melds)
    hand_only = list(seen)
    seen += [t for x in req.get("dora_indicators", []) + req.get("ura_indicators", []) for t in p(x)]
    for kind in range(34):
        n = sum(1 for k, _ in seen if k == kind)
        red = sum(1 for k, r in seen if k == kind and r)
        assert n <= 4
        if kind in handgen.FIVES:
            assert red <= 1 and n - red <= 3
    assert tsumo or req["from"] != winner
    kans = sum(1 for m in melds if m["type"] in ("daiminkan", "kakan", "ankan"))
    closed = all(m["type"] == "ankan" for m in melds)
    riichi = req.get("riichi") or req.get("double_riichi")
    assert len(req["dora_indicators"]) == 1 + kans
    assert len(req.get("ura_indicators", [])) == (1 + kans if riichi else 0)
    assert closed or not riichi
    assert riichi or not req.get("ippatsu")
    if req.get("rinshan"):
        assert tsumo and melds and melds[-1]["type"] in ("daiminkan", "kakan", "ankan")
        assert not req.get("ippatsu") and not req.get("haitei")
    if req.get("haitei"):
        assert tsumo
    if req.get("houtei") or req.get("chankan"):
        assert not tsumo and not (req.get("houtei") and req.get("chankan"))
    if req.get("chankan"):
        win_kind = p(req["win_tile"])[0][0]
        assert sum(1 for k, _ in seen if k == win_kind) == 1
    if req.get("tenhou") or req.get("chiihou"):
        assert tsumo and not melds and not riichi
        assert (req["winner"] == req.get("dealer", 0)) == bool(req.get("tenhou"))
    if riichi:
        assert req.get("riichi_sticks", 0) >= 1
    assert sum(1 for _, r in hand_only if r) <= 3


def test_generator_hands_are_legal_and_accepted() -> None:
    labelled = handgen.generate_labelled(11, 3000)
    families = collections.Counter(f for f, _ in labelled)
    assert set(families) == set(handgen.FAMILIES)
    codes: collections.Counter[str] = collections.Counter()
    for _, req in labelled:
        _check_legal(req)
        try:
            score(req)
            codes["ok"] += 1
        except InvalidHandError as e:
            codes[e.code] += 1
    # nothing is refused as contradictory or impossible
    assert set(codes) <= {"ok", "no_yaku", "not_winning"}, codes


def test_to_mahjong_inputs() -> None:
    from mahjong.constants import EAST, WEST
    from mahjong.meld import Meld

    req = {
        "rules": "tenhou", "dealer": 1, "round_wind": "W", "winner": 3, "hand": "0555m12p", "win_tile": "3p",
        "melds": [{"type": "ankan", "tiles": "7777z"}, {"type": "pon", "tiles": "0p55p", "from": 1},
                  {"type": "kakan", "tiles": "1111s", "from": 0}],
        "riichi_sticks": 2, "honba": 1, "dora_indicators": ["4m", "6z", "0s"],
    }  # fmt: skip
    tiles, win, melds, dora, ura, kw = handgen.to_mahjong(req)
    assert sorted(tiles) == sorted(
        [132, 133, 134, 135, 52, 53, 54, 72, 73, 74, 75, 16, 17, 18, 19, 36, 40, 44]
    )
    assert win == 44 and win in tiles
    assert [(m.type, m.opened) for m in melds] == [
        (Meld.KAN, False),
        (Meld.PON, True),
        (Meld.SHOUMINKAN, True),
    ]
    assert [d // 4 for d in dora] == [3, 32, 22] and 88 in dora and ura == []
    assert kw["player_wind"] == WEST and kw["round_wind"] == WEST and kw["is_tsumo"]
    assert (kw["tsumi_number"], kw["kyoutaku_number"]) == (1, 2)
    assert kw["options"].has_aka_dora and not kw["options"].has_double_yakuman
    assert EAST + 2 == WEST


if __name__ == "__main__":
    _n = int(sys.argv[1]) if len(sys.argv) > 1 else SLOW_N
    _seed = int(sys.argv[2]) if len(sys.argv) > 2 else SLOW_SEED
    _tally, _notes = run(_seed, _n)
    print(json.dumps(dict(_tally.most_common()), indent=1))
    for _cls, _fam, _detail, _req in _notes[:20]:
        print(_cls, _fam, _detail, json.dumps(_req), sep="\n  ")
