"""verify checks every fact a record states, not only the outcome: a record that contradicts itself is
a defective record, never a match, and the mismatch names the fact.

By name: each fact of an mjlog AGARI (the limit code in ``ten``, ``doraHai``, ``doraHaiUra``, ``ba``,
``m``, a tile of ``hai``, ``machi``), of a RYUUKYOKU, a REACH, of a tenhou.net/6 result and of mjai
events. Generated: every kind of alteration of :mod:`tests.alterations` at random places of fixtures and
self-play records (fast), and of the corpus (slow), each caught — but for a ura indicator replaced by
another copy nobody has seen, which leaves the record whole when it changes no ura dora.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from tenbou.io.read import parse_records
from tenbou.verify.convert import write_records

from .alterations import FACTS, MAY_HOLD_TOGETHER, alter, enrich_mjai, verdict
from .conftest import CORPUS
from .mutants import sources
from .test_convert import selfplay
from .test_io_tenhou import HAND

TONPUU = {"preset": "tenhou", "overrides": {"length": "tonpuu"}}


def _kinds(data: bytes) -> tuple[str, frozenset[str]]:
    return verdict(data, "altered")


@pytest.mark.parametrize(
    ("old", "new", "kinds"),
    [
        (b'ten="40,7700,0"', b'ten="40,7700,1"', {"limit"}),
        (b'doraHai="44,9,53"', b'doraHai="44,9,54"', {"dora"}),
        (b'doraHai="44,9,53"', b'doraHai="44,9"', {"dora"}),
        (b'doraHaiUra="67,43,97"', b'doraHaiUra="67,43,44"', {"ura_dora"}),  # an id already shown
        (b'doraHaiUra="67,43,97"', b'doraHaiUra="67,43"', {"ura_dora"}),
        (b'ba="0,1"', b'ba="1,1"', {"honba"}),
        (b'ba="0,1"', b'ba="0,0"', {"riichi_sticks"}),
        (b'hai="1,2,3,5,8,', b'hai="0,2,3,5,8,', {"hand"}),  # another copy of 1m: seat 2 holds id 1
        (b'hai="1,2,3,5,8,', b'hai="1,2,3,5,12,', {"hand"}),  # a 4m for a 3m
        (b'machi="3"', b'machi="2"', {"win_tile", "hand"}),
        (b'yaku="1,1,2,1,52,1"', b'yaku="1,1,2,1,52,2"', {"yaku", "han"}),
        (b'ten="40,7700,0"', b'ten="30,7700,0"', {"fu"}),
        (b'sc="384,0,206,0,186,87,214,-77"', b'sc="384,0,206,0,186,88,214,-78"', {"deltas"}),
        (b'fromWho="3"', b'fromWho="3" paoWho="1"', {"pao"}),
        (b'step="2" ten="384,206,186,214"', b'step="2" ten="384,206,196,214"', {"scores"}),
        (b"<D108/>", b"<D109/>", {"tiles"}),  # another copy of the tile seat 0 holds
    ],
)
def test_mjlog_agari_facts(old: bytes, new: bytes, kinds: set[str]) -> None:
    assert old in HAND
    assert _kinds(HAND) == ("match", frozenset())
    outcome, found = _kinds(HAND.replace(old, new))
    assert outcome == "mismatch" and kinds <= found, found


def test_mjlog_melds_fact() -> None:
    """AGARI ``m`` lists the winner's calls: one of them changed (another tile called, the tiles
    still adding up) contradicts the N elements that made it."""
    text = dict(sources(None)["mjlog"])["self.xml"].decode()
    for seed in range(5):
        altered = alter(text, "mjlog", "m", random.Random(seed))
        assert altered is not None
        outcome, found = _kinds(altered.encode())
        assert outcome == "mismatch" and "melds" in found, found


def test_mjlog_draw_facts() -> None:
    """A RYUUKYOKU's ``ba`` and the hands it shows (``hai0``..``hai3``) against the engine's."""
    text = dict(sources(None)["mjlog"])["self.xml"].decode()
    draw = '<RYUUKYOKU ba="0,0" sc="250,15,250,-15,250,-15,250,15" hai0="68,70,92,94" hai3="33,34,80,81"/>'
    assert draw in text and _kinds(text.encode())[0] == "match"
    for new, kinds in [
        (draw.replace('ba="0,0"', 'ba="1,0"'), {"honba"}),
        (draw.replace('ba="0,0"', 'ba="0,1"'), {"riichi_sticks"}),
        (draw.replace(' hai3="33,34,80,81"', ""), {"tenpai"}),
        (draw.replace("68,70,92,94", "68,70,92,95"), {"hand"}),  # another copy: the id ledger
        (draw.replace("68,70,92,94", "68,70,92,96"), {"hand"}),  # another tile
    ]:
        outcome, found = _kinds(text.replace(draw, new).encode())
        assert outcome == "mismatch" and kinds <= found, (new, found)


@cache
def _tenhou6() -> dict[str, bytes]:
    return dict(sources(None)["tenhou6"])


def test_tenhou6_result_facts() -> None:
    text = _tenhou6()["round.json"].decode()
    assert _kinds(text.encode())[0] == "match"
    cases = [
        ('"40符3飜7700点"', '"40符4飜7700点"', {"han"}),
        ('"40符3飜7700点"', '"満貫7700点"', {"limit"}),
        ('"ドラ(1飜)"', '"ドラ(2飜)"', {"yaku", "han"}),
        ("[23, 13, 25]", "[23, 13, 25, 11]", {"dora"}),
        ("[28, 22, 37]", "[28, 22]", {"ura_dora"}),
        ("[2, 3, 2, ", "[2, 3, 1, ", {"pao"}),
    ]
    for old, new, kinds in cases:
        assert old in text, old
        outcome, found = _kinds(text.replace(old, new).encode())
        assert outcome == "mismatch" and found == kinds, (old, found)


def test_mjai_event_facts() -> None:
    data = enrich_mjai(selfplay(98), rules=TONPUU)
    assert _kinds(data)[0] == "match"
    lines = [json.loads(x) for x in data.decode().splitlines()]
    i = next(i for i, x in enumerate(lines) if x["type"] == "reach_accepted")
    lines[i]["deltas"] = [-1000, -1000, 0, 0] if lines[i]["actor"] else [-1000, 0, -1000, 0]
    outcome, found = _kinds(("\n".join(json.dumps(x) for x in lines)).encode())
    assert outcome == "mismatch" and found == {"scores"}


# -- generated -----------------------------------------------------------------------------------------


def _run(records: dict[str, list[tuple[str, bytes]]], seeds: int) -> tuple[Counter[str], list[str]]:
    tally: Counter[str] = Counter()
    missed: list[str] = []
    for fmt, recs in records.items():
        for name, data in recs:
            assert _kinds(data)[0] == "match", f"{name}: the record itself does not verify whole"
            text = data.decode()
            for fact in FACTS[fmt]:
                for seed in range(seeds):
                    altered = alter(text, fmt, fact, random.Random(seed))
                    if altered is None:
                        continue
                    outcome, _ = _kinds(altered.encode())
                    tally[f"{fmt} {fact}: {outcome}"] += 1
                    if outcome == "match" and fact not in MAY_HOLD_TOGETHER:
                        missed.append(f"{fmt} {fact} in {name}, seed {seed}")
    return tally, missed


@cache
def _records(corpus: Path | None, per_format: int) -> dict[str, list[tuple[str, bytes]]]:
    found = sources(corpus, per_format)
    found["mjai"] = [*found["mjai"], ("self98.jsonl", enrich_mjai(selfplay(98), rules=TONPUU))]
    return found


def test_every_altered_fact_is_caught() -> None:
    tally, missed = _run(_records(None, 0), 3)
    assert not missed, missed
    kinds = {key.split(":")[0] for key in tally}
    assert len(kinds) == sum(len(f) for f in FACTS.values()), sorted(kinds)  # every kind was tried


@pytest.mark.slow
def test_every_altered_fact_is_caught_on_the_corpus() -> None:
    if not CORPUS.is_dir():
        pytest.skip("no corpus")
    records = _records(CORPUS, 40)
    records["mjai"] = [(name, enrich_mjai(data)) for name, data in records["mjai"]]
    tally, missed = _run(records, 2)
    for key, n in sorted(tally.items()):
        print(f"{n:6}  {key}")
    assert not missed, f"{len(missed)} altered records called a match: {missed[:10]}"


def test_a_converted_record_keeps_its_facts() -> None:
    """tenbou's own writers state facts that hold: every format written from a record verifies."""
    recs = parse_records(HAND, "hand.xml")
    for fmt in ("mjlog", "tenhou6", "mjai"):
        assert _kinds(write_records(recs, fmt))[0] == "match", fmt
