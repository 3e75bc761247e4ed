"""The bases of tenbou's values: :class:`Record` (the small records made for every hand scored:
plain slotted classes that mypyc compiles to native structs) and :class:`DataRecord` (tenbou's
frozen dataclasses: a tile, a liability, the events, a round's and a game's records). Both pickle
and copy by calling their class with their fields' values, in order -- so a value's constructor
keeps its arguments' order, or pickles made before stop loading (tests/test_pickles.py).

>>> from tenbou.core.hand import Situation
>>> s = Situation(winner=1, discarder=0)
>>> s == Situation(winner=1, discarder=0), s._replace(riichi=True).riichi
(True, True)
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, ClassVar, TypeVar, cast

__all__ = ["DataRecord", "Record"]


class DataRecord:
    """Base of tenbou's dataclasses (a tile, a liability, a decomposition, the events, a round's and a
    game's records): pickle and copy rebuild one by calling its class with its fields' values, in
    order. Compiled, a frozen dataclass's fields cannot be set once it is made, nor a native class
    made without its ``__init__``: the rebuilding of pickle's default does both."""

    __slots__ = ()

    def __reduce__(self) -> tuple[type[Any], tuple[object, ...]]:
        return type(self), tuple([getattr(self, f.name) for f in fields(cast(Any, self))])


_Self = TypeVar("_Self", bound="Record")


class Record:
    """Base of the small value records made for every hand scored (:class:`~tenbou.core.hand.Situation`,
    :class:`~tenbou.core.scoring.HandScore`, :class:`~tenbou.settle.payment.Payment`, ...): plain classes with
    slots and read-only fields, listed in ``_fields``. mypyc compiles them to native structs (a
    ``NamedTuple`` there costs about a thousand instructions to build). A record compares, hashes and
    prints by its fields; ``_replace`` makes a copy with some fields changed."""

    __slots__ = ()
    #: the field names, in the order of the constructor's arguments
    _fields: ClassVar[tuple[str, ...]] = ()

    def _values(self) -> tuple[object, ...]:
        return tuple([getattr(self, name) for name in self._fields])

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        args = ", ".join([f"{name}={getattr(self, name)!r}" for name in self._fields])
        return f"{type(self).__name__}({args})"

    def __reduce__(self) -> tuple[type[Record], tuple[object, ...]]:
        # pickle and copy rebuild a record from its fields (compiled, it has no instance dict)
        return type(self), self._values()

    def _replace(self: _Self, **changes: Any) -> _Self:
        """A copy with the fields named in ``changes`` set to their new values."""
        unknown = [name for name in changes if name not in self._fields]
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {unknown[0]!r}")
        values = {name: getattr(self, name) for name in self._fields}
        values.update(changes)
        return type(self)(**values)
