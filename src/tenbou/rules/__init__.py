"""Rules: one frozen :class:`Rules` object holding every option, and presets.

A platform or league is a *preset*: a data file under ``rules/presets/``
giving a value and its source for every option. A variant is
``rules.replace(kiriage=True)``; unknown option names and bad values raise
:class:`~tenbou.errors.RuleError`.

>>> r = get_rules("tenhou")
>>> r.double_wind_pair_fu, r.kiriage
(4, False)
>>> r.replace(kiriage=True).kiriage
True
>>> r.replace(kiriag=True)
Traceback (most recent call last):
...
tenbou.errors.RuleError: unknown rule option 'kiriag' (did you mean 'kiriage'?)
"""

from __future__ import annotations

from ._options import (
    ABORTIVE_DRAWS,
    CHIP_EVENTS,
    DRAW_REASONS,
    LOCAL_YAKU,
    NAGASHI_MANGAN,
    OPTION_SPECS,
    PAO_YAKU,
    YAKUMAN_IDS,
    OptionSpec,
    Rules,
)
from .presets import Preset, get_preset, get_rules, preset_ids, presets, rules_from_request

__all__ = [
    "ABORTIVE_DRAWS",
    "CHIP_EVENTS",
    "DRAW_REASONS",
    "LOCAL_YAKU",
    "NAGASHI_MANGAN",
    "OPTION_SPECS",
    "PAO_YAKU",
    "YAKUMAN_IDS",
    "OptionSpec",
    "Preset",
    "Rules",
    "get_preset",
    "get_rules",
    "preset_ids",
    "presets",
    "rules_from_request",
]
