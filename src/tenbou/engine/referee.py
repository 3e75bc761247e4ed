"""Events all or nothing: the referee's two steps, and the count of tiles in sight.

A :class:`Referee` (the :class:`~tenbou.engine.round.Round` and the
:class:`~tenbou.engine.game.Game`) takes an
event in two steps. :meth:`Referee.check_event` judges it against the state and changes nothing;
:meth:`Referee.apply_checked` carries out only an event the check passed. What the check finds
goes to :class:`Problems`: a ``soft`` problem breaks a rule of play after which the event could
still be carried out, a ``hard`` one makes it impossible. Strictly the first problem refuses the
event (:class:`~tenbou.errors.IllegalEventError`); leniently the reasons are recorded and the
event carried out unless one was hard.

>>> from tenbou.core.tiles import Tile
>>> count = TileCount(red_fives=3, players=4)
>>> count.count([Tile.parse("5s")] * 3)
>>> count.problem([Tile.parse("5s")], "tsumo")
"tsumo: 5s: a copy more than the set's 3 (the others are red)"
>>> count.problem([Tile.parse("0s")], "tsumo") is None
True
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any, NoReturn, TypeVar, cast

from ..core._native import mypyc_attr
from ..core.tiles import Tile, tile_set
from ..errors import IllegalEventError
from .events import Event

_T = TypeVar("_T")

__all__ = ["Problems", "Referee", "RefusedError", "TileCount"]


class RefusedError(Exception):
    """Raised inside a check when the event cannot be carried out (or, strictly, is illegal)."""


class Problems:
    """What a check finds wrong with an event. ``soft`` is a broken rule of play after which the
    event can still be carried out; ``hard`` one after which it cannot. Strictly, the first
    problem refuses the event."""

    __slots__ = ("messages", "strict")

    def __init__(self, strict: bool) -> None:
        self.messages: list[str] = []
        self.strict = strict

    def soft(self, why: str) -> None:
        self.messages.append(why)
        if self.strict:
            raise RefusedError

    def hard(self, why: str) -> NoReturn:
        self.messages.append(why)
        raise RefusedError


def _rebuilt(cls: type[_T], args: tuple[Any, ...], state: dict[str, Any]) -> _T:
    """How pickle and copy rebuild a referee or a tile count: made by ``cls.__new__(cls, *args)``,
    then given every attribute of ``state``. A referee's ``__new__`` calls no ``__init__`` (in
    pure Python, nor compiled: the referees allow subclasses written in Python, whose instances
    mypyc makes so), so a subclass's own ``__init__`` need not be known; a compiled tile count's
    calls it with ``args``."""
    obj = cls.__new__(cls, *args)
    for name, value in state.items():
        setattr(obj, name, value)
    return obj


@mypyc_attr(allow_interpreted_subclasses=True)  # (a bot may extend a game or a round)
class Referee:
    """Events all or nothing: :meth:`check_event` judges an event against the state and changes
    nothing; :meth:`apply_checked` carries out one it has passed. :class:`Round` and
    :class:`~tenbou.engine.game.Game` are both referees."""

    strict: bool
    errors: list[str]
    #: the index of the last event applied (it names events in errors)
    index: int

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # (the state: the attributes by name, as __getstate__ gives them in either build, and,
        # compiled, those of a subclass made in Python, which are kept in its instance dict)
        state = dict(cast("dict[str, Any]", self.__getstate__()))
        state.update(getattr(self, "__dict__", {}))
        return _rebuilt, (type(self), (), state)

    def check_event(self, event: Event, p: Problems) -> Any:
        """Judge ``event`` (pure): report through ``p``, which raises :class:`RefusedError` when the
        event is refused; return what carrying it out needs."""
        raise NotImplementedError

    def apply_checked(self, event: Event, plan: Any) -> None:
        """Carry out an event :meth:`check_event` has passed, with what it returned."""
        raise NotImplementedError

    def check(self, event: Event) -> list[str]:
        """Why ``event`` cannot happen now (an empty list when it can). Nothing is changed.

        Every problem found is listed, up to the first that makes the event impossible to carry out.
        """
        p = Problems(strict=False)
        with contextlib.suppress(RefusedError):
            self.check_event(event, p)
        return p.messages

    def apply(self, event: Event, index: int | None = None) -> None:
        """Apply one event (``index`` names it in errors). An illegal event raises
        :class:`~tenbou.errors.IllegalEventError` and changes nothing: the state is exactly as it
        was, and the next legal event still applies (leniently, see ``strict``, it is recorded in
        ``errors``)."""
        where = self.index if index is None else index
        p = Problems(self.strict)
        try:
            plan = self.check_event(event, p)
        except RefusedError:
            if self.strict:
                raise IllegalEventError(f"event {where}: {p.messages[0]}") from None
            self.errors.extend(f"event {where}: {m}" for m in p.messages)
            self.index = where
            return
        self.index = where
        if p.messages:
            self.errors.extend(f"event {where}: {m}" for m in p.messages)
        self.apply_checked(event, plan)


class TileCount:
    """The tiles in sight, counted against the copies of the set."""

    __slots__ = ("plain", "red", "seen", "seen_red")

    def __init__(self, red_fives: int, players: int) -> None:
        self.plain, self.red = tile_set(red_fives, players)
        self.seen = [0] * 34
        self.seen_red = [0] * 34

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # (made for any set -- four players, no red fives -- then every attribute set from this one)
        state = {"plain": self.plain, "red": self.red, "seen": self.seen, "seen_red": self.seen_red}
        return _rebuilt, (TileCount, (0, 4), state)

    def problem(self, tiles: Sequence[Tile], what: str) -> str | None:
        """Why ``tiles`` cannot come into sight now (``None`` when they can)."""
        seen, seen_red = list(self.seen), list(self.seen_red)
        for t in tiles:
            k = t.kind
            if t.red:
                seen_red[k] += 1
                if seen_red[k] > self.red[k]:
                    if not self.red[k]:
                        return f"{what}: {t}: the set has no red {Tile(k)}"
                    return f"{what}: {t}: a red copy more than the set's {self.red[k]}"
            else:
                seen[k] += 1
                if seen[k] > self.plain[k]:
                    if not self.plain[k]:
                        return f"{what}: {t}: three-player mahjong has no 2m-8m"
                    others = " (the others are red)" if self.red[k] else ""
                    return f"{what}: {t}: a copy more than the set's {self.plain[k]}{others}"
        return None

    def count(self, tiles: Sequence[Tile]) -> None:
        """Count ``tiles`` in (a lenient round counts past the set)."""
        for t in tiles:
            if t.red:
                self.seen_red[t.kind] += 1
            else:
                self.seen[t.kind] += 1
