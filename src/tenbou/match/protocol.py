"""The mjai.app bot protocol, the referee's side: what a seat is told, and what its answer means.

A bot sees the game as its seat does (:func:`seat_view`): the others' draws are ``"?"``, and so
are their hands in ``start_kyoku``; everything else is the event as the record has it. It is told
the events since its last answer, as one JSON array on one line, when it has a choice to make
(:func:`message`); and a lone ``start_game`` (with ``"id"``, its seat), ``end_kyoku`` and
``end_game`` (whose answers are read and left). Wins and draws are not sent: a hand's end comes
as ``end_kyoku`` alone, and its scores with the next ``start_kyoku`` (as mjai.app does).

Its answer is one JSON object, an mjai action or ``{"type": "none"}`` to pass, which
:func:`read_answer` turns into the legal action it names, or refuses with a :class:`BotError`:
not JSON (``not_json``), not an action's shape (``wrong_shape``), or not one of the actions
the round offers it now (``illegal``), passing included where a discard is owed. The actions
offered are the engine's (:meth:`~tenbou.engine.round.Round.legal_actions`); the one returned is
one of them, applied by the engine, which checks it once more.

>>> from tenbou.core.tiles import Tile
>>> from tenbou.engine.events import Dahai
>>> legal = [Dahai(0, Tile.parse("1m"), False), Dahai(0, Tile.parse("9p"), True)]
>>> read_answer('{"type":"dahai","actor":0,"pai":"9p","tsumogiri":true}', 0, legal)
Dahai(actor=0, pai=Tile.parse('9p'), tsumogiri=True)
>>> read_answer('{"type":"none"}', 0, legal)
Traceback (most recent call last):
...
tenbou.match.protocol.BotError: illegal: passed ({"type": "none"}) where a discard is owed
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Final

from .._jsonread import read_json
from ..core.tiles import tile_order
from ..engine.events import (
    Ankan,
    Chi,
    Dahai,
    Daiminkan,
    Event,
    Hora,
    Kakan,
    Nukidora,
    Pon,
    Reach,
    Ryukyoku,
    StartKyoku,
    Tsumo,
    event_from_json,
    event_name,
    event_to_json,
)
from ..errors import LogFormatError, TenbouError

__all__ = ["FAULT_KINDS", "MAX_LINE", "BotError", "message", "read_answer", "seat_view"]

#: the longest answer line read (bytes, its end of line included): a longer one is a fault
MAX_LINE: Final = 65_536
#: what a bot can do wrong, each a chombo when it answers a choice in a hand
FAULT_KINDS: Final = ("timeout", "died", "too_long", "not_json", "wrong_shape", "illegal", "extra_output")
#: the answers that can be actions, by their mjai type
_ACTIONS: Final = (
    "dahai",
    "chi",
    "pon",
    "daiminkan",
    "kakan",
    "ankan",
    "reach",
    "hora",
    "ryukyoku",
    "nukidora",
)
#: the abortive draw a bot may declare (nine terminals), under every name a reader takes for it
_KYUUSHU: Final = ("kyushukyuhai", "kyuushuukyuuhai", "kyushu_kyuhai", "kyuushu_kyuuhai", "yao9")


class BotError(TenbouError):
    """A bot's fault: ``kind`` (one of :data:`FAULT_KINDS`) and what it did."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}", "bot")
        self.kind = kind
        self.detail = detail

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return BotError, (self.kind, self.detail)


def seat_view(event: Event, seat: int) -> dict[str, Any]:
    """The event's mjai object as ``seat`` sees it: another's draw and hands hidden as ``"?"``."""
    obj = event_to_json(event)
    if isinstance(event, Tsumo) and event.actor != seat:
        obj["pai"] = "?"
    elif isinstance(event, StartKyoku):
        obj["tehais"] = [h if i == seat else ["?"] * len(h) for i, h in enumerate(obj["tehais"])]
    return obj


def message(events: Sequence[Event], seat: int) -> str:
    """The line that tells ``seat`` of ``events``: a JSON array of their views, compact."""
    return json.dumps([seat_view(e, seat) for e in events], ensure_ascii=False, separators=(",", ":"))


def read_answer(line: str, seat: int, actions: Sequence[Event]) -> Event | None:
    """The action ``line`` (a bot's answer) names among ``actions`` (the seat's legal actions now,
    never empty), or ``None`` for ``none`` where passing is allowed; anything else raises
    :class:`BotError`. An action matches by what it says: ``actor`` (the seat), the tiles (a red five
    apart), ``target``, ``tsumogiri`` (required, as mjai.app requires it); ``consumed`` in any order;
    a ``hora`` or ``ryukyoku`` need not repeat what the action implies (its ``pai``, the reason). The
    daiminkan that makes a player's fourth kan under ``suukantsu_pao_timing = "fourth_kan"`` ends
    the hand as a win the engine offers as a ``hora``: a bot may answer either."""
    try:
        obj = read_json(line, LogFormatError, "the answer")
    except LogFormatError as e:
        raise BotError("not_json", _short(str(e))) from None
    if not isinstance(obj, dict) or not isinstance(obj.get("type"), str):
        raise BotError("wrong_shape", f"an answer is a JSON object with a type, not {_short(line)}")
    kind = obj["type"]
    if kind == "none":
        if any(isinstance(a, Dahai) for a in actions):
            raise BotError("illegal", 'passed ({"type": "none"}) where a discard is owed')
        return None
    if kind not in _ACTIONS:
        raise BotError("wrong_shape", f"{_short(kind)} is not an action ({', '.join(_ACTIONS)} or none)")
    if kind == "dahai" and type(obj.get("tsumogiri")) is not bool:
        raise BotError("wrong_shape", "dahai: tsumogiri (true or false) is required")
    if kind == "ryukyoku":
        obj = _kyuushu(obj, seat)
    try:
        event = event_from_json(obj)
    except LogFormatError as e:
        raise BotError("wrong_shape", _short(str(e))) from None
    actor = getattr(event, "actor", None)  # (the nine terminals' ryukyoku names none)
    if actor is not None and actor != seat:
        raise BotError("illegal", f"{kind} by seat {actor!r}: the bot plays seat {seat}")
    found = next((a for a in actions if _same(event, a)), None)
    if found is None and isinstance(event, Daiminkan):  # the fourth kan dealt in: offered as its hora
        found = next(
            (a for a in actions if isinstance(a, Hora) and (a.target, a.pai) == (event.target, event.pai)),
            None,
        )
    if found is None:
        offered = ", ".join(dict.fromkeys(event_name(a) for a in actions))
        raise BotError("illegal", f"{_short(line)} is not an action offered now ({offered}, or none)")
    return found


def _kyuushu(obj: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """A bot's ``ryukyoku``: nine terminals, its own (a reason, if given, must say so)."""
    reason = obj.get("reason")
    if reason is not None and reason not in _KYUUSHU:
        raise BotError("illegal", f"ryukyoku: {_short(reason)}: a player declares nine terminals only")
    actor = obj.get("actor", seat)
    if actor != seat:
        raise BotError("illegal", f"ryukyoku by seat {_short(actor)}: the bot plays seat {seat}")
    return {"type": "ryukyoku", "reason": "kyushukyuhai"}


def _same(answer: Event, action: Event) -> bool:
    """Whether an answer names the legal ``action``."""
    if type(answer) is not type(action):
        return False
    if isinstance(answer, Dahai) and isinstance(action, Dahai):
        return answer.pai == action.pai and answer.tsumogiri == action.tsumogiri
    if isinstance(answer, Chi | Pon | Daiminkan) and isinstance(action, Chi | Pon | Daiminkan):
        return (
            answer.target == action.target
            and answer.pai == action.pai
            and _tiles(answer.consumed) == _tiles(action.consumed)
        )
    if isinstance(answer, Kakan) and isinstance(action, Kakan):
        return answer.pai == action.pai and _tiles(answer.consumed) == _tiles(action.consumed)
    if isinstance(answer, Ankan) and isinstance(action, Ankan):
        return _tiles(answer.consumed) == _tiles(action.consumed)
    if isinstance(answer, Hora) and isinstance(action, Hora):
        return answer.target == action.target and (answer.pai is None or answer.pai == action.pai)
    if isinstance(answer, Nukidora) and isinstance(action, Nukidora):
        return answer.pai.kind == action.pai.kind
    return isinstance(answer, Reach | Ryukyoku)


def _tiles(tiles: Sequence[Any]) -> list[Any]:
    return sorted(tiles, key=tile_order)


def _short(value: object, limit: int = 120) -> str:
    """A value quoted in a fault, cut to ``limit`` characters."""
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
