"""Presets: one TOML data file per rule set, each value with its source.

A preset file holds ``id``, ``name`` (as the platform writes it), ``name_en``,
optional ``aliases`` and ``notes``, and an ``[options]`` table giving for
*every* option of :class:`~tenbou.rules.Rules` a ``value`` and a ``source``
(``"unknown"`` where no source was found, with a ``note`` saying what was
assumed). Loading refuses unknown keys and missing options.

>>> "tenhou" in preset_ids()
True
>>> "連風牌は４符" in get_preset("tenhou").option_notes["double_wind_pair_fu"]
True
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

from ...errors import RuleError, shown
from .._options import OPTION_SPECS, Rules

__all__ = ["UNKNOWN", "Preset", "get_preset", "get_rules", "preset_ids", "presets", "rules_from_request"]

_TOP_KEYS = {"id", "name", "name_en", "aliases", "notes", "options"}
#: the source of a value nobody has found a source for (its note says what was searched)
UNKNOWN: Final = "unknown"
_OPTION_KEYS = {"value", "source", "note"}


@dataclass(frozen=True, slots=True)
class Preset:
    """A named rule set: its :class:`Rules` and where each value comes from."""

    id: str
    name: str
    name_en: str
    aliases: tuple[str, ...]
    notes: tuple[str, ...]
    rules: Rules
    sources: Mapping[str, str]
    option_notes: Mapping[str, str]

    @property
    def title(self) -> str:
        """The preset's name for people: its own name, then the English one in brackets where
        that says more (a name written once where both are the same).

        >>> get_preset("mahjongsoul").title, get_preset("mleague").title, get_preset("riichicity").title
        ('雀魂 (Mahjong Soul)', 'M.LEAGUE', '麻雀一番街 Riichi City')
        """
        return self.name if self.name_en in self.name else f"{self.name} ({self.name_en})"

    def source(self, option: str) -> str:
        """The source of an option's value (:data:`UNKNOWN` where none was found)."""
        if option not in self.sources:
            raise RuleError(f"unknown rule option {option!r}")
        return self.sources[option]

    def unknowns(self) -> list[dict[str, object]]:
        """The options whose value has no source: ``option``, the ``value`` assumed and the
        ``note`` (what was searched), in option order, for a user who can contribute a source.

        >>> get_preset("tenhou").unknowns()
        []
        >>> all(u["note"] for p in presets().values() for u in p.unknowns())
        True
        """
        values = self.rules.to_dict()
        return [
            {"option": k, "value": values[k], "note": self.option_notes[k]}
            for k in OPTION_SPECS
            if self.sources[k] == UNKNOWN
        ]

    def to_dict(self) -> dict[str, object]:
        """JSON-ready description: id, names, notes and every option with value and source."""
        values = self.rules.to_dict()
        return {
            "id": self.id,
            "name": self.name,
            "name_en": self.name_en,
            "aliases": list(self.aliases),
            "notes": list(self.notes),
            "options": {
                k: {
                    "value": values[k],
                    "source": self.sources[k],
                    **({"note": self.option_notes[k]} if k in self.option_notes else {}),
                }
                for k in OPTION_SPECS
            },
        }


def _load(filename: str, text: str) -> Preset:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise RuleError(f"preset file {filename}: {e}") from e
    unknown = set(data) - _TOP_KEYS
    if unknown:
        raise RuleError(f"preset file {filename}: unknown key {sorted(unknown)[0]!r}")
    for key in ("id", "name", "name_en", "options"):
        if key not in data:
            raise RuleError(f"preset file {filename}: missing {key!r}")
    options = data["options"]
    values: dict[str, object] = {}
    sources: dict[str, str] = {}
    notes: dict[str, str] = {}
    for name, entry in options.items():
        if name not in OPTION_SPECS:
            raise RuleError(f"preset file {filename}: unknown rule option {name!r}")
        if not isinstance(entry, dict) or "value" not in entry or "source" not in entry:
            raise RuleError(f"preset file {filename}: option {name!r} needs a value and a source")
        bad = set(entry) - _OPTION_KEYS
        if bad:
            raise RuleError(f"preset file {filename}: option {name!r} has unknown key {sorted(bad)[0]!r}")
        values[name] = entry["value"]
        sources[name] = str(entry["source"])
        if entry["source"] == UNKNOWN and "note" not in entry:
            raise RuleError(f"preset file {filename}: option {name!r} is unknown but has no note")
        if "note" in entry:
            notes[name] = str(entry["note"])
    missing = [n for n in OPTION_SPECS if n not in values]
    if missing:
        raise RuleError(f"preset file {filename}: options missing: {', '.join(missing)}")
    try:
        rules = Rules.from_dict(values)
    except RuleError as e:
        raise RuleError(f"preset file {filename}: {e}") from e
    return Preset(
        id=str(data["id"]),
        name=str(data["name"]),
        name_en=str(data["name_en"]),
        aliases=tuple(data.get("aliases", ())),
        notes=tuple(data.get("notes", ())),
        rules=rules,
        sources=sources,
        option_notes=notes,
    )


_FOLDER = Path(__file__).parent


@cache
def _preset_file(stem: str) -> Preset:
    """The preset in ``<stem>.toml``; its id must be the file's name."""
    path = _FOLDER / f"{stem}.toml"
    p = _load(path.name, path.read_text(encoding="utf-8"))
    if p.id != stem:
        raise RuleError(f"preset file {path.name}: its id {p.id!r} is not the file's name")
    return p


@cache
def presets() -> dict[str, Preset]:
    """Every preset by id, in file-name order."""
    return {path.stem: _preset_file(path.stem) for path in sorted(_FOLDER.glob("*.toml"))}


@cache
def _aliases() -> dict[str, str]:
    table: dict[str, str] = {}
    for p in presets().values():
        for name in (p.id, *p.aliases):
            table[name.lower()] = p.id
    return table


def preset_ids() -> list[str]:
    """The ids of all presets."""
    return list(presets())


def get_preset(name: str) -> Preset:
    """A preset by id or alias (case-insensitive)."""
    if not isinstance(name, str):
        raise RuleError(f"a preset id must be a string, not {shown(name)}")
    found = _FOUND.get(name)
    if found is None:
        found = _find_preset(name)
        if len(_FOUND) < 256:  # (a name that fails raises and is not kept)
            _FOUND[name] = found
    return found


#: the preset of each name already resolved (a plain dict: a look-up in it is not a call, as one
#: through an ``lru_cache`` wrapper is)
_FOUND: Final[dict[str, Preset]] = {}


@cache
def _stems() -> frozenset[str]:
    """The preset ids, from the file names (no file is read)."""
    return frozenset(path.stem for path in _FOLDER.glob("*.toml"))


def _find_preset(name: str) -> Preset:
    if name in _stems():
        return _preset_file(name)  # the usual case: only this preset's file is read
    pid = _aliases().get(name.lower()) if len(name) <= 64 else None
    if pid is None:
        close = difflib.get_close_matches(name.lower(), _aliases(), n=1) if len(name) <= 64 else []
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise RuleError(f"unknown rules preset {shown(name)}{hint}; known: {', '.join(preset_ids())}")
    return presets()[pid]


def get_rules(name: str) -> Rules:
    """The :class:`Rules` of a preset by id or alias."""
    return get_preset(name).rules


#: the preset named by the last request that named one by a string, and its rules (none yet)
_LAST_NAMED: Final[list[tuple[str, Rules | None]]] = [("", None)]


def rules_from_request(value: object) -> Rules:
    """The ``rules`` field of a JSON request: a preset id, or
    ``{"preset": id, "overrides": {...}}``.

    >>> rules_from_request({"preset": "tenhou", "overrides": {"kiriage": True}}).kiriage
    True
    """
    if isinstance(value, str):
        # (most requests name the rules of the request before: the name is compared with that one,
        # which costs less than hashing a request's new string to look it up)
        name, rules = _LAST_NAMED[0]
        if value == name and rules is not None:
            return rules
        found = _FOUND.get(value)  # (get_preset's cache, read here: two calls fewer a request)
        rules = found.rules if found is not None else get_rules(value)
        _LAST_NAMED[0] = (value, rules)  # (one tuple: a name is never paired with other rules)
        return rules
    if isinstance(value, Mapping):
        bad = set(value) - {"preset", "overrides"}
        if bad:
            first = next(k for k in value if k in bad)
            raise RuleError(f"rules: unknown key {shown(first)} (expected 'preset' and 'overrides')")
        if "preset" not in value:
            raise RuleError("rules: missing 'preset'")
        preset = value["preset"]
        if not isinstance(preset, str):  # (before the call: compiled, get_rules takes only a str)
            raise RuleError(f"rules.preset must be a preset id (a string), not {shown(preset)}")
        rules = get_rules(preset)
        overrides = value.get("overrides", {})
        if not isinstance(overrides, Mapping):
            raise RuleError(f"rules.overrides must be an object, not {shown(overrides)}")
        return rules.with_options(overrides)
    raise RuleError(f"rules must be a preset id or an object with 'preset', not {shown(value)}")
