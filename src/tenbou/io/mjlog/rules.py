"""Tenhou's room rules: the ``type`` bits of an mjlog ``GO`` element, as tenbou rules.

A Tenhou game is played in a room whose rules the record gives as a bit set
(``<GO type="169">``): red fives or not, kuitan or not, East-only or hanchan,
three players, and the rooms tenbou does not model (chips, special rooms,
private lobbies). :class:`GameType` reads those bits and gives the tenbou
rules of the room; :meth:`GameType.of_rules` is the inverse, for the writer.

>>> GameType(0xA9).rules_json(), GameType(0xB9).players
('tenhou', 3)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..record import JSON

__all__ = [
    "GO_FAST",
    "GO_HANCHAN",
    "GO_NO_KUITAN",
    "GO_NO_RED",
    "GO_SANMA",
    "GO_VS_HUMAN",
    "UNMODELLED_GO_BITS",
    "GameType",
]

# -- GO type bits -------------------------------------------------------------------------------

#: GO ``type`` bits (confirmed against tenhou.net/6 ``rule.disp`` of the same games).
GO_VS_HUMAN = 0x01
GO_NO_RED = 0x02
GO_NO_KUITAN = 0x04
GO_HANCHAN = 0x08
GO_SANMA = 0x10
GO_FAST = 0x40


#: GO type bits of rooms tenbou does not model, with what they are
UNMODELLED_GO_BITS: tuple[tuple[int, str], ...] = (
    (0x200, "a Tenhou chip room (GO type bit 0x200, 祝儀: chips, kiriage mangan)"),
    (0x800, "a Tenhou special room (GO type bit 0x800: custom start points, negative scores)"),
    (0x400, "a Tenhou special room (GO type bit 0x400)"),
    (0x100, "a Tenhou private lobby with custom rules (GO type bit 0x100)"),
)
_KNOWN_GO_BITS = 0xFF


@dataclass(frozen=True, slots=True)
class GameType:
    """The ``GO type`` of a game: a bit set of room rules.

    >>> g = GameType(0xA9)            # 鳳南喰赤: Phoenix room, hanchan, kuitan, red fives
    >>> g.players, g.red_fives, g.kuitan, g.hanchan, g.fast
    (4, True, True, True, False)
    >>> GameType(0xB9).players, GameType(0x07).rule_overrides()
    (3, {'red_fives': 0, 'open_tanyao': False})
    """

    code: int

    @property
    def players(self) -> int:
        return 3 if self.code & GO_SANMA else 4

    @property
    def red_fives(self) -> bool:
        """Red fives are played (bit 0x02 means *no* red fives)."""
        return not self.code & GO_NO_RED

    @property
    def kuitan(self) -> bool:
        """Open tanyao counts (bit 0x04 means kuitan-nashi)."""
        return not self.code & GO_NO_KUITAN

    @property
    def hanchan(self) -> bool:
        return bool(self.code & GO_HANCHAN)

    @property
    def fast(self) -> bool:
        return bool(self.code & GO_FAST)

    @property
    def disp(self) -> str:
        """The room as tenhou.net/6 ``rule.disp`` names it (Tenhou's own JSON of the game).

        >>> GameType(0xA9).disp, GameType(0x29).disp, GameType(0xB9).disp, GameType(0x47).disp
        ('鳳南喰赤', '特南喰赤', '三鳳南喰赤', '般東速')
        """
        room = {0: "般", 0x80: "上", 0x20: "特", 0xA0: "鳳"}[self.code & 0xA0]
        return (
            ("三" if self.players == 3 else "")
            + room
            + ("南" if self.hanchan else "東")
            + ("喰" if self.kuitan else "")
            + ("赤" if self.red_fives else "")
            + ("速" if self.fast else "")
        )

    def rule_overrides(self) -> dict[str, JSON]:
        """Overrides of the ``tenhou`` preset this game's room rules need."""
        out: dict[str, JSON] = {}
        if not self.red_fives:
            out["red_fives"] = 0
        if not self.kuitan:
            out["open_tanyao"] = False
        return out

    def rules_json(self) -> JSON:
        """The rules of a whole game in this room: the ``tenhou`` preset, with
        the room's red fives, kuitan and length (東風 without bit 0x08).

        >>> GameType(0xA9).rules_json(), GameType(0xC1).rules_json()
        ('tenhou', {'preset': 'tenhou', 'overrides': {'length': 'tonpuu'}})
        """
        out = self.rule_overrides()
        if not self.hanchan:
            out["length"] = "tonpuu"
        return {"preset": "tenhou", "overrides": out} if out else "tenhou"

    def unmodelled(self) -> str | None:
        """Why tenbou does not replay games of this room (``None``: it does).

        >>> GameType(0xA9).unmodelled() is None, GameType(0x229).unmodelled()
        (True, 'unmodelled rules: a Tenhou chip room (GO type bit 0x200, 祝儀: chips, kiriage mangan)')
        """
        for bit, what in UNMODELLED_GO_BITS:
            if self.code & bit:
                return f"unmodelled rules: {what}"
        if self.code & ~0xFFF:
            return f"unmodelled rules: GO type {self.code:#x} has bits tenbou does not know"
        return None

    @classmethod
    def of_rules(cls, rules: JSON, players: int = 4) -> GameType:
        """The ``GO`` type of a room playing ``rules`` (a ``tenhou`` preset value,
        or any rules: their red fives, kuitan and length), a human game in the
        Phoenix room.

        >>> tonpuu = {"preset": "tenhou", "overrides": {"length": "tonpuu"}}
        >>> GameType.of_rules("tenhou").code, GameType.of_rules(tonpuu).code
        (169, 161)
        """
        from ...rules import rules_from_request

        r = rules_from_request(rules)
        code = GO_VS_HUMAN | 0xA0
        if not r.red_fives:
            code |= GO_NO_RED
        if not r.open_tanyao:
            code |= GO_NO_KUITAN
        if r.length != "tonpuu":
            code |= GO_HANCHAN
        if players == 3:
            code |= GO_SANMA
        return cls(code)
