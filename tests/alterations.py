"""Altered records: one fact a record states changed to another well-formed value, for the tests that
``verify`` checks every fact and never calls a self-contradicting record a match.

:func:`alter` changes one fact of a kind (:data:`MJLOG_FACTS`, :data:`TENHOU6_FACTS`,
:data:`MJAI_FACTS`) at a random place of a record that has one; :func:`verdict` says what ``verify``
made of the altered record: ``mismatch`` (with the kinds reported), ``skipped`` (the reader found the
record inconsistent), ``refused`` (an error line) or ``match`` (not caught).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

from tenbou.verify.run import verify_data

_ATTR = r'(?<=\b{name}=")([^"]*)(?=")'


def _elements(text: str, tag: str) -> list[re.Match[str]]:
    return list(re.finditer(rf"<{tag}\b[^>]*/>", text))


def _set(text: str, el: re.Match[str], name: str, value: str | None) -> str:
    """``text`` with attribute ``name`` of element ``el`` set (``None``: removed)."""
    s = el.group(0)
    m = re.search(rf'\s{name}="[^"]*"', s)
    if value is None:
        new = s if m is None else s[: m.start()] + s[m.end() :]
    elif m is None:
        new = s[:-2] + f' {name}="{value}"/>'
    else:
        new = s[: m.start()] + f' {name}="{value}"' + s[m.end() :]
    return text[: el.start()] + new + text[el.end() :]


def _get(el: re.Match[str], name: str) -> str | None:
    m = re.search(rf'\s{name}="([^"]*)"', el.group(0))
    return None if m is None else m.group(1)


def _ints(value: str | None) -> list[int]:
    return [int(x) for x in value.split(",")] if value else []


def _text(values: list[int]) -> str:
    return ",".join(map(str, values))


def _pick(text: str, tag: str, rng: random.Random, need: str | None = None) -> re.Match[str] | None:
    els = [e for e in _elements(text, tag) if need is None or _get(e, need)]
    return rng.choice(els) if els else None


def _other_id(rng: random.Random, avoid: set[int]) -> int:
    return rng.choice([i for i in range(136) if i not in avoid])


# -- mjlog ---------------------------------------------------------------------------------------------


def _agari_list(
    name: str, change: Callable[[list[int], random.Random, re.Match[str]], list[int] | None]
) -> Any:
    def alter(text: str, rng: random.Random) -> str | None:
        el = _pick(text, "AGARI", rng)
        if el is None:
            return None
        values = change(_ints(_get(el, name)), rng, el)
        return None if values is None else _set(text, el, name, _text(values) if values else None)

    return alter


def _ten(i: int, step: Callable[[int, random.Random], int]) -> Any:
    def change(v: list[int], rng: random.Random, el: re.Match[str]) -> list[int]:
        v[i] = step(v[i], rng)
        return v

    return _agari_list("ten", change)


def _yaku(v: list[int], rng: random.Random, el: re.Match[str]) -> list[int] | None:
    if not v:
        return None
    j = rng.randrange(len(v) // 2) * 2
    if rng.random() < 0.5 and v[j + 1]:
        v[j + 1] += 1  # one han more
    else:
        present = set(v[::2])
        v[j] = rng.choice([y for y in (0, 1, 7, 8, 9, 12, 19, 22, 25, 29) if y not in present])
    return v


def _dora(v: list[int], rng: random.Random, el: re.Match[str]) -> list[int]:
    v[rng.randrange(len(v))] = _other_id(rng, set(v))
    return v


def _ura_count(v: list[int], rng: random.Random, el: re.Match[str]) -> list[int]:
    if v and rng.random() < 0.5:
        return v[:-1]
    return [*v, _other_id(rng, set(v) | set(_ints(_get(el, "doraHai"))) | set(_ints(_get(el, "hai"))))]


def _ura_id(v: list[int], rng: random.Random, el: re.Match[str]) -> list[int] | None:
    if not v:
        return None
    v[rng.randrange(len(v))] = _other_id(rng, set(v))
    return v


def _ba(i: int) -> Any:
    def change(v: list[int], rng: random.Random, el: re.Match[str]) -> list[int]:
        v[i] = v[i] + 1 if v[i] == 0 or rng.random() < 0.5 else v[i] - 1
        return v

    return _agari_list("ba", change)


def _melds(text: str, rng: random.Random) -> str | None:
    """A call code of an AGARI's ``m`` changed so that its tiles still add up: another tile called
    (pon, chi, added kan), or another copy of a chi's tile."""
    el = _pick(text, "AGARI", rng, need="m")
    if el is None:
        return None
    codes = _ints(_get(el, "m"))
    j = rng.randrange(len(codes))
    code = codes[j]
    if code & 0x4:  # chi: 3 x start + called, from bit 10; tile copies in bits 3-8
        t = code >> 10
        if rng.random() < 0.5:
            code = (code & 0x3FF) | ((t - t % 3 + (t % 3 + 1) % 3) << 10)
        else:
            code ^= 1 << (3 + 2 * rng.randrange(3))
    elif code & 0x18:  # pon or added kan: 3 x kind + called, from bit 9
        t = code >> 9
        code = (code & 0x1FF) | ((t - t % 3 + (t % 3 + 1) % 3) << 9)
    else:  # a kan or kita: another copy named as the called tile
        code ^= 1 << 8
    codes[j] = code
    return _set(text, el, "m", _text(codes))


def _hai(v: list[int], rng: random.Random, el: re.Match[str]) -> list[int] | None:
    machi = int(_get(el, "machi") or -1)
    others = [i for i, t in enumerate(v) if t != machi]
    taken = set(v)
    for code in _ints(_get(el, "m")):
        taken.update(range((code >> 8) // 4 * 4, (code >> 8) // 4 * 4 + 4))
    if not others:
        return None
    v[rng.choice(others)] = _other_id(rng, taken)
    return sorted(v)


def _machi(text: str, rng: random.Random) -> str | None:
    el = _pick(text, "AGARI", rng)
    if el is None:
        return None
    machi = _get(el, "machi")
    options = [i for i in _ints(_get(el, "hai")) if str(i) != machi]
    return _set(text, el, "machi", str(rng.choice(options))) if options else None


def _sc(part: int) -> Any:
    def alter(text: str, rng: random.Random) -> str | None:
        el = rng.choice(
            [e for t in ("AGARI", "RYUUKYOKU") for e in _elements(text, t) if _get(e, "sc")] or [None]
        )
        if el is None:
            return None
        v = _ints(_get(el, "sc"))
        j = rng.randrange(4) * 2 + part
        v[j] += rng.choice([-10, -1, 1, 10])
        return _set(text, el, "sc", _text(v))

    return alter


def _pao(text: str, rng: random.Random) -> str | None:
    el = _pick(text, "AGARI", rng)
    if el is None:
        return None
    who = int(_get(el, "who") or 0)
    if _get(el, "paoWho") is not None:
        return _set(text, el, "paoWho", None)
    return _set(text, el, "paoWho", str(rng.choice([s for s in range(4) if s != who])))


def _reach_ten(text: str, rng: random.Random) -> str | None:
    el = _pick(text, "REACH", rng, need="ten")
    if el is None:
        return None
    v = _ints(_get(el, "ten"))
    v[rng.randrange(4)] += rng.choice([-10, 10])
    return _set(text, el, "ten", _text(v))


def _shown(drop: bool) -> Any:
    def alter(text: str, rng: random.Random) -> str | None:
        # a tenpai hand left out of an exhaustive draw (an abortive draw's shown hands are Tenhou's
        # courtesy, not a fact tenbou models), or a tile of any shown hand changed
        els = [
            (e, f"hai{i}")
            for e in _elements(text, "RYUUKYOKU")
            for i in range(4)
            if _get(e, f"hai{i}") and not (drop and _get(e, "type"))
        ]
        if not els:
            return None
        el, name = rng.choice(els)
        if drop:
            return _set(text, el, name, None)
        v = _ints(_get(el, name))
        v[rng.randrange(len(v))] = _other_id(rng, set(v))
        return _set(text, el, name, _text(sorted(v)))

    return alter


def _draw_ba(text: str, rng: random.Random) -> str | None:
    el = _pick(text, "RYUUKYOKU", rng, need="ba")
    if el is None:
        return None
    v = _ints(_get(el, "ba"))
    v[rng.randrange(2)] += 1
    return _set(text, el, "ba", _text(v))


def _owari(text: str, rng: random.Random) -> str | None:
    el = next((e for t in ("AGARI", "RYUUKYOKU") for e in _elements(text, t) if _get(e, "owari")), None)
    if el is None:
        return None
    v = (_get(el, "owari") or "").split(",")
    j = rng.randrange(4) * 2
    v[j] = str(int(v[j]) + rng.choice([-10, 10]))
    return _set(text, el, "owari", ",".join(v))


def _init(i: int, step: int) -> Any:
    def alter(text: str, rng: random.Random) -> str | None:
        els = _elements(text, "INIT")[1:]  # a later hand: its start must follow from the hand before
        if not els:
            return None
        el = rng.choice(els)
        name = "seed" if i < 3 else "ten"
        v = _ints(_get(el, name))
        v[i % 3 if i < 3 else rng.randrange(4)] += step
        return _set(text, el, name, _text(v))

    return alter


def _discard(text: str, rng: random.Random) -> str | None:
    tags = list(re.finditer(r"<([DEFG])(\d+)/>", text))
    if not tags:
        return None
    m = rng.choice(tags)
    new = f"<{m.group(1)}{_other_id(rng, {int(m.group(2))})}/>"
    return text[: m.start()] + new + text[m.end() :]


#: fact kind -> how to alter it in an mjlog (None when the record has no such fact)
MJLOG_FACTS: dict[str, Callable[[str, random.Random], str | None]] = {
    "ten.limit": _ten(2, lambda x, rng: rng.choice([v for v in range(6) if v != x])),
    "ten.fu": _ten(0, lambda x, rng: x + 10 if x else 30),
    "ten.points": _ten(1, lambda x, rng: x + rng.choice([-100, 100, 1000])),
    "yaku": _agari_list("yaku", _yaku),
    "doraHai": _agari_list("doraHai", _dora),
    "doraHaiUra count": _agari_list("doraHaiUra", _ura_count),
    "doraHaiUra id": _agari_list("doraHaiUra", _ura_id),
    "ba honba": _ba(0),
    "ba sticks": _ba(1),
    "m": _melds,
    "hai": _agari_list("hai", _hai),
    "machi": _machi,
    "sc change": _sc(1),
    "sc before": _sc(0),
    "paoWho": _pao,
    "REACH ten": _reach_ten,
    "RYUUKYOKU hai dropped": _shown(True),
    "RYUUKYOKU hai id": _shown(False),
    "RYUUKYOKU ba": _draw_ba,
    "owari": _owari,
    "INIT honba": _init(1, 1),
    "INIT sticks": _init(2, 1),
    "INIT ten": _init(3, 10),
    "discard id": _discard,
}
#: alterations a record can survive without contradicting itself: a ura indicator replaced by a copy
#: nobody has seen that makes the same ura dora; a discard replaced by another tile the seat holds,
#: late enough that nothing after it needs the first
MAY_HOLD_TOGETHER = frozenset({"doraHaiUra id", "discard id"})


# -- tenhou.net/6 and mjai -----------------------------------------------------------------------------


def _t6(change: Callable[[list[Any], random.Random], bool]) -> Callable[[str, random.Random], str | None]:
    def alter(text: str, rng: random.Random) -> str | None:
        try:
            objs = [json.loads(text)]
        except ValueError:  # one object per line (mjx)
            objs = [json.loads(line) for line in text.splitlines() if line.strip()]
        rounds = [kyoku for obj in objs for kyoku in obj["log"]]
        rng.shuffle(rounds)
        for kyoku in rounds:
            if change(kyoku, rng):
                return "\n".join(json.dumps(obj, ensure_ascii=False) for obj in objs)
        return None

    return alter


def _wins(kyoku: list[Any]) -> list[int]:
    res = kyoku[-1]
    return list(range(2, len(res), 2)) if res[0] == "和了" else []


def _value_text(kyoku: list[Any], rng: random.Random) -> bool:
    wins = _wins(kyoku)
    if not wins:
        return False
    info = kyoku[-1][rng.choice(wins)]
    m = re.match(r"^(\d+)符(\d+)飜(.*)$", info[3])
    if m:
        info[3] = f"{m.group(1)}符{int(m.group(2)) + 1}飜{m.group(3)}"
    else:
        for a, b in (
            ("倍満", "跳満"),
            ("跳満", "倍満"),
            ("三倍満", "倍満"),
            ("満貫", "跳満"),
            ("役満", "三倍満"),
        ):
            if info[3].startswith(a):
                info[3] = b + info[3][len(a) :]
                break
    return True


def _t6_deltas(kyoku: list[Any], rng: random.Random) -> bool:
    res = kyoku[-1]
    if len(res) < 2 or not isinstance(res[1], list):
        return False
    j = rng.choice(range(1, len(res), 2)) if res[0] == "和了" else 1
    res[j][rng.randrange(len(res[j]))] += rng.choice([-100, 100])
    return True


def _t6_dora(kyoku: list[Any], rng: random.Random) -> bool:
    kans = sum(1 for s in kyoku[4:-1] for x in s if isinstance(x, str) and any(c in x for c in "mka"))
    if len(kyoku[2]) <= kans:  # a kan dora the record did not show: one more may read as shown
        return False
    kyoku[2].append(rng.choice([11, 25, 37, 44]))  # an indicator the hand never showed
    return True


def _t6_ura(kyoku: list[Any], rng: random.Random) -> bool:
    if kyoku[3] and rng.random() < 0.5:
        kyoku[3].pop()
    else:
        kyoku[3].append(rng.choice([12, 26, 38, 45]))
    return True


def _t6_pao(kyoku: list[Any], rng: random.Random) -> bool:
    wins = _wins(kyoku)
    if not wins:
        return False
    info = kyoku[-1][rng.choice(wins)]
    info[2] = rng.choice([s for s in range(4) if s != info[2]])
    return True


def _t6_yaku(kyoku: list[Any], rng: random.Random) -> bool:
    wins = _wins(kyoku)
    if not wins:
        return False
    info = kyoku[-1][rng.choice(wins)]
    if len(info) < 5:
        return False
    j = rng.randrange(4, len(info))
    m = re.match(r"^(.+)\((\d+)飜\)$", info[j])
    info[j] = f"{m.group(1)}({int(m.group(2)) + 1}飜)" if m else "ドラ(1飜)"
    return True


TENHOU6_FACTS: dict[str, Callable[[str, random.Random], str | None]] = {
    "value text": _t6(_value_text),
    "deltas": _t6(_t6_deltas),
    "dora list": _t6(_t6_dora),
    "ura list": _t6(_t6_ura),
    "pao": _t6(_t6_pao),
    "yaku text": _t6(_t6_yaku),
}


def _jsonl(change: Callable[[list[dict[str, Any]], random.Random], bool]) -> Any:
    def alter(text: str, rng: random.Random) -> str | None:
        lines = [json.loads(x) for x in text.splitlines() if x.strip()]
        return "\n".join(json.dumps(x) for x in lines) + "\n" if change(lines, rng) else None

    return alter


def _of(
    lines: list[dict[str, Any]], kind: str, rng: random.Random, where: Any = None
) -> dict[str, Any] | None:
    found = [x for x in lines if x["type"] == kind and (where is None or where(x))]
    return rng.choice(found) if found else None


def _list_change(kind: str, key: str, where: Any = None) -> Any:
    def change(lines: list[dict[str, Any]], rng: random.Random) -> bool:
        ev = _of(lines, kind, rng, lambda x: key in x and (where is None or where(x)))
        if ev is None:
            return False
        ev[key][rng.randrange(len(ev[key]))] += rng.choice([-100, 100])
        return True

    return _jsonl(change)


def _tsumo_tile(lines: list[dict[str, Any]], rng: random.Random) -> bool:
    ev = _of(lines, "hora", rng, lambda x: x["actor"] == x["target"])
    if ev is None:
        return False
    ev["pai"] = rng.choice([t for t in ("1m", "5p", "9s", "E", "C") if t != ev.get("pai")])
    return True


def _ura_markers(lines: list[dict[str, Any]], rng: random.Random) -> bool:
    """A riichi winner's ura indicators one short or one long (mjai producers differ on what they
    give the others)."""
    riichi: set[int] = set()
    horas = []
    for x in lines:
        if x["type"] == "start_kyoku":
            riichi = set()
        elif x["type"] == "reach_accepted":
            riichi.add(x["actor"])
        elif x["type"] == "hora" and x.get("ura_markers") and x["actor"] in riichi:
            horas.append(x)
    if not horas:
        return False
    ev = rng.choice(horas)
    ev["ura_markers"] = ev["ura_markers"][:-1] if rng.random() < 0.5 else [*ev["ura_markers"], "1m"]
    return True


def _drop_end(lines: list[dict[str, Any]], rng: random.Random) -> bool:
    ends = [i for i, x in enumerate(lines) if x["type"] == "end_kyoku"][:-1]
    if not ends:
        return False
    del lines[rng.choice(ends)]
    return True


def _double_start(lines: list[dict[str, Any]], rng: random.Random) -> bool:
    i = rng.choice([i for i, x in enumerate(lines) if x["type"] == "start_kyoku"])
    lines.insert(i, dict(lines[i]))
    return True


def _tenpais(lines: list[dict[str, Any]], rng: random.Random) -> bool:
    """A tenpai seat of an exhaustive draw (an abortive draw's, as the original mjai server writes
    them, are no fact: read past)."""
    exhaustive = ("fanpai", "nagashimangan", None)
    ev = _of(lines, "ryukyoku", rng, lambda x: x.get("tenpais") and x.get("reason") in exhaustive)
    if ev is None:
        return False
    j = rng.randrange(len(ev["tenpais"]))
    ev["tenpais"][j] = not ev["tenpais"][j]
    return True


MJAI_FACTS: dict[str, Callable[[str, random.Random], str | None]] = {
    "hora deltas": _list_change("hora", "deltas"),
    "hora scores": _list_change("hora", "scores"),
    "ryukyoku deltas": _list_change("ryukyoku", "deltas"),
    "reach_accepted scores": _list_change("reach_accepted", "scores"),
    "tsumo winning tile": _jsonl(_tsumo_tile),
    "ura_markers": _jsonl(_ura_markers),
    "ryukyoku tenpais": _jsonl(_tenpais),
    "end_kyoku dropped": _jsonl(_drop_end),
    "start_kyoku doubled": _jsonl(_double_start),
}

FACTS = {"mjlog": MJLOG_FACTS, "tenhou6": TENHOU6_FACTS, "mjai": MJAI_FACTS}


def alter(text: str, fmt: str, fact: str, rng: random.Random) -> str | None:
    """``text`` with one fact of kind ``fact`` changed (``None``: the record states no such fact)."""
    return FACTS[fmt][fact](text, rng)


def verdict(data: bytes, source: str = "altered") -> tuple[str, frozenset[str]]:
    """What verify makes of a record: ``match``, ``mismatch``, ``skipped`` or ``refused``, and the
    mismatch kinds reported."""
    result = verify_data(data, source)
    lines = result["lines"]
    kinds = frozenset(m["kind"] for line in lines for m in line.get("mismatches", []))
    if result["error"]:
        return "refused", kinds
    if any(line.get("match") is False for line in lines):
        return "mismatch", kinds
    if any("skipped" in line for line in lines):
        return "skipped", kinds
    return "match", kinds


def enrich_mjai(data: bytes, source: str = "x.jsonl", rules: Any = None) -> bytes:
    """An mjai record with what Mortal-style logs also state: every seat's ``scores`` after each
    ``reach_accepted`` (with its ``deltas``), ``hora`` and ``ryukyoku``, the draw's ``tenpais`` and,
    where the record is a whole game, the final points on ``end_game`` (from tenbou's replay), so that
    those facts can be altered too; ``start_game`` names the rules (``rules``, for a record that does
    not)."""
    whole = _enriched(data, source, rules, final=True)
    lines = verify_data(whole, source)["lines"]
    if lines and all(line.get("match") for line in lines):
        return whole
    return _enriched(data, source, rules, final=False)  # a fixture cut from a game: no final points


def _enriched(data: bytes, source: str, rules: Any, final: bool) -> bytes:
    from tenbou.engine.events import (
        EndGame,
        Hora,
        ReachAccepted,
        Ryukyoku,
        StartGame,
        StartKyoku,
        event_to_json,
    )
    from tenbou.io.read import parse_records
    from tenbou.verify.complete import complete_record
    from tenbou.verify.replay import replay_events

    lines: list[str] = []
    for rec in parse_records(data, source, rules=rules):
        rec = complete_record(rec)
        (game,) = replay_events(rec.events, rec.get_rules())
        scores: list[int] = []
        hand = -1
        for ev in rec.events:
            obj = event_to_json(ev)
            if isinstance(ev, StartGame):
                obj["tenbou_rules"] = rec.rules
            elif isinstance(ev, StartKyoku):
                hand += 1
                scores = list(ev.scores)
            elif isinstance(ev, ReachAccepted):
                scores[ev.actor] -= 1000
                obj["deltas"] = [-1000 if s == ev.actor else 0 for s in range(len(scores))]
                obj["scores"] = list(scores)
            elif isinstance(ev, EndGame) and final and game.final is not None:
                obj["scores"] = list(game.final.points)
            elif isinstance(ev, (Hora, Ryukyoku)) and ev.deltas is not None:
                scores = [s + d for s, d in zip(scores, ev.deltas, strict=True)]
                obj["scores"] = list(scores)
                end = rec.hands[hand]
                if isinstance(ev, Ryukyoku) and end.tenpai is not None and end.kind == "exhaustive_draw":
                    obj["tenpais"] = [s in end.tenpai for s in range(len(scores))]
            lines.append(json.dumps(obj, ensure_ascii=False))
    return ("\n".join(lines) + "\n").encode()
