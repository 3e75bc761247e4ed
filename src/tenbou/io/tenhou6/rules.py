"""The rules of a tenhou.net/6 record: its ``rule`` (``disp`` and the ``aka`` fields) and
``title`` as tenbou rules, and back.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..record import JSON

__all__ = ["disp_of", "rules_of"]

_MS_ROOMS = ("の間", "Room", "大会戦", "友人戦", "段位戦")
_MLEAGUE = re.compile(r"M\.?\s?LEAGUE|Mリーグ|\d\d-\d\d赛季", re.IGNORECASE)
_DISP = re.compile(r"^(三)?(般|上|特|鳳|若|銀|琥|孔)?(東|南)(喰)?(赤)?(速)?(祝[0-9]*)?(暗)?$")


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
    from ...rules import rules_from_request

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


def _aka_counts(red_fives: int) -> dict[str, int]:
    """Tenhou's red fives per suit (``aka51`` man, ``aka52`` pin, ``aka53`` sou): one each for
    three, two 5p of four (the rules' ``red_fives: 4``)."""
    if not red_fives:
        return {"aka51": 0, "aka52": 0, "aka53": 0}
    return {"aka51": 1, "aka52": 2 if red_fives >= 4 else 1, "aka53": 1}
