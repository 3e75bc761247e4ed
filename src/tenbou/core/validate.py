"""Checking a hand and its situation before they are scored (:func:`validate`): what cannot happen
under the rules is refused with :class:`~tenbou.errors.InvalidHandError` naming it -- a seat that
is not at the table, a meld called from the winner's own seat or a chi not from the left, a fifth
copy of a tile (dora indicators are tiles too), a red five the rules do not have, 2m-8m with
three players, kita without nukidora, and flags that contradict each other, the hand or the rules
(ippatsu without riichi, chankan on a tsumo, tenhou by a non-dealer, ...).

>>> from tenbou.core.hand import Hand, Situation
>>> from tenbou.rules import get_rules
>>> validate(Hand.parse("123m456p789s1122z +1z"), Situation(winner=1, ippatsu=True), get_rules("tenhou"))
Traceback (most recent call last):
...
tenbou.errors.InvalidHandError: ippatsu: needs riichi or double_riichi
"""

from __future__ import annotations

from typing import Final

from ..errors import InvalidHandError
from ..rules import Rules
from .hand import Hand, MeldType, Situation
from .tiles import RED_COPIES, Tile

__all__ = ["contradiction", "validate"]

_CHI: Final = MeldType.CHI

#: red fives in the set, of 5m, 5p, 5s, by ``red_fives`` (0, 3 or 4, as Rules checks: a tuple indexed
#: by it, read natively compiled, where a dict would be looked up on every hand; 1 and 2 fill the gap)
_RED_FIVES: Final[tuple[tuple[int, int, int], ...]] = tuple([RED_COPIES.get(n, (0, 0, 0)) for n in range(5)])
_FIVES: Final = frozenset((4, 13, 22))
#: the fewest plain (not red) copies the set has of the five of a suit, any suit, by ``red_fives``
_PLAIN_FIVES: Final[tuple[int, ...]] = tuple([4 - max(reds) for reds in _RED_FIVES])
#: whether a kind's copies in sight are counted by validate: the fives and North
_FIVE_OR_NORTH: Final[tuple[bool, ...]] = tuple([k in (4, 13, 22, 30) for k in range(34)])
_RED_PER_KIND: Final[dict[int, dict[int, int]]] = {
    n: {k: c for k, c in zip((4, 13, 22), reds, strict=True) if c} for n, reds in RED_COPIES.items()
}


def validate(hand: Hand, s: Situation, rules: Rules) -> None:
    """Refuse what cannot happen under ``rules``: seats, tiles (a fifth copy
    counting dora indicators, red fives the rules do not have, 2m-8m with three
    players), melds (a call from oneself, a chi not from the left) and
    contradictory situations (ippatsu without riichi, chankan on a tsumo, ...)."""
    # (four checks, one concern each, and one call each: in pure Python a call is dear, so the
    # indicators' count and kita are checked with the tiles in sight, which count the Norths)
    _check_seats(hand, s, rules)
    _check_tiles_in_sight(hand, s, rules)
    _check_situation(hand, s, rules)
    if s.tenhou or s.chiihou or s.renhou:
        _check_first_turn(hand, s)


def _check_seats(hand: Hand, s: Situation, rules: Rules) -> None:
    """The players, the dealer, the winner, the discarder and who each meld was called from."""
    n = s.players
    if n not in rules.players:
        raise InvalidHandError(
            f"players={n}: these rules are played by {' or '.join(map(str, rules.players))} players",
            "contradiction",
        )
    if not 0 <= s.dealer < n:
        raise InvalidHandError(f"dealer={s.dealer} is not a seat 0..{n - 1}", "contradiction")
    if not 0 <= s.winner < n:
        raise InvalidHandError(f"winner={s.winner} is not a seat 0..{n - 1}", "contradiction")
    if s.discarder is not None:
        if not 0 <= s.discarder < n:
            raise InvalidHandError(f"from={s.discarder} is not a seat 0..{n - 1}", "contradiction")
        if s.discarder == s.winner:
            raise InvalidHandError(
                f"from={s.discarder} is the winner's own seat (leave 'from' out for a tsumo)", "contradiction"
            )
    for i, m in enumerate(hand.melds):
        src = m.from_seat
        if src is None:
            continue
        if src >= n or src == s.winner or (m.type is _CHI and (n == 3 or src != (s.winner - 1) % n)):
            where = f"melds[{i}] ({m.notation()})"
            if src >= n:
                raise InvalidHandError(f"{where}: from={src} is not a seat 0..{n - 1}", "contradiction")
            if src == s.winner:
                raise InvalidHandError(
                    f"{where}: a meld cannot be called from the winner's own seat", "contradiction"
                )
            if n == 3:
                raise InvalidHandError(f"{where}: there is no chi with three players", "contradiction")
            raise InvalidHandError(
                f"{where}: a chi is only called from the player on the left (seat {(s.winner - 1) % n})",
                "contradiction",
            )


def _check_tiles_in_sight(hand: Hand, s: Situation, rules: Rules) -> None:
    """The copies of each kind in sight, red fives, three-player manzu (the common case judged at a
    glance, anything else by :func:`_check_tiles`, which says what is wrong); then kita (three
    players with nukidora, at most four North tiles in sight) and the number of dora and ura
    indicators."""
    n = s.players
    counts = hand.counts  # at most four of a kind (Hand checks it)
    red_fives = hand.red_fives
    # the copies in sight (the dora indicators too) of the fives and of North
    fives_m, fives_p, fives_s, norths = counts[4], counts[13], counts[22], counts[30]
    # careful: an indicator makes a fifth copy, or a three-player hand shows 2m-8m
    careful = n == 3 and any(counts[1:8])
    red_shown = False  # an indicator is red (counted with the hand's red fives below)
    if s.dora_indicators or s.ura_indicators:
        shown = s.dora_indicators + s.ura_indicators
        for j, t in enumerate(shown):
            k = t.kind
            if t.red:
                red_shown = True
            if n == 3 and 0 < k < 8:
                careful = True
            elif counts[k] + j >= 4:  # (with fewer, this and the ones before it make no fifth copy)
                copies = counts[k] + 1  # with this indicator and the ones before it
                for i in range(j):
                    if shown[i].kind == k:
                        copies += 1
                if copies > 4:
                    careful = True
            if _FIVE_OR_NORTH[k]:
                if k == 4:
                    fives_m += 1
                elif k == 13:
                    fives_p += 1
                elif k == 22:
                    fives_s += 1
                else:
                    norths += 1
    # (no red five and no more plain fives of a suit than the set has of every suit: nothing to look at)
    plain = _PLAIN_FIVES[rules.red_fives]
    if careful or red_shown or hand.reds or fives_m > plain or fives_p > plain or fives_s > plain:
        allowed = _RED_FIVES[rules.red_fives]
        # the red copies in sight of each five: the hand's and the indicators'
        reds_m, reds_p, reds_s = red_fives[0], red_fives[1], red_fives[2]
        if red_shown:
            for t in s.dora_indicators + s.ura_indicators:
                if t.red:
                    if t.kind == 4:
                        reds_m += 1
                    elif t.kind == 13:
                        reds_p += 1
                    elif t.kind == 22:
                        reds_s += 1
                    else:
                        careful = True
        if (
            careful
            or reds_m > allowed[0]
            or reds_p > allowed[1]
            or reds_s > allowed[2]
            or fives_m - reds_m > 4 - allowed[0]
            or fives_p - reds_p > 4 - allowed[1]
            or fives_s - reds_s > 4 - allowed[2]
        ):
            _check_tiles(hand, s, rules)
    if s.kita:
        if n != 3 or not rules.nukidora:
            raise InvalidHandError(
                "kita: North tiles are only set aside in three-player games with nukidora", "contradiction"
            )
        if s.kita < 0 or s.kita + norths > 4:
            raise InvalidHandError(
                f"kita={s.kita}: with {norths} North tile(s) in sight, more than four", "impossible"
            )
    if len(s.dora_indicators) > 5:
        raise InvalidHandError(f"dora_indicators: {len(s.dora_indicators)} given, at most 5", "impossible")
    if len(s.ura_indicators) > len(s.dora_indicators):
        raise InvalidHandError(
            f"ura_indicators: {len(s.ura_indicators)} given for {len(s.dora_indicators)} dora indicator(s)",
            "impossible",
        )


def _check_situation(hand: Hand, s: Situation, rules: Rules) -> None:
    """Flags that contradict each other, the hand or the rules."""
    tsumo = s.discarder is None
    if (s.riichi or s.double_riichi) and hand.melds and not hand.is_closed:
        raise contradiction("riichi: a hand with an open meld cannot be in riichi")
    if s.ippatsu and not s.in_riichi:
        raise contradiction("ippatsu: needs riichi or double_riichi")
    if s.ura_indicators and not s.in_riichi:
        raise contradiction("ura_indicators: ura dora are only revealed for a riichi winner")
    if s.ura_indicators and not rules.ura_dora:
        raise contradiction("ura_indicators: these rules play without ura dora")
    if s.ippatsu and not rules.ippatsu:
        raise contradiction("ippatsu: these rules play without ippatsu")
    if s.rinshan:
        if not tsumo:
            raise contradiction("rinshan: a rinshan win is a tsumo (leave 'from' out)")
        if not any(m.is_kan for m in hand.melds) and not s.kita:
            raise contradiction("rinshan: the hand declared no kan (and set aside no North)")
        if s.haitei:
            raise contradiction("rinshan and haitei: a draw from the dead wall is not the last tile")
    if s.chankan and tsumo:
        raise contradiction("chankan: robbing a kan is a ron (give 'from')")
    if s.haitei and not tsumo:
        raise contradiction("haitei: the last-tile tsumo needs no 'from'")
    if s.houtei and tsumo:
        raise contradiction("houtei: the last-discard ron needs 'from'")
    if s.chankan and s.houtei:
        raise contradiction("chankan and houtei cannot both hold")


def _check_first_turn(hand: Hand, s: Situation) -> None:
    """Tenhou, chiihou and renhou: one at a time, before any call, riichi or kan, by whom they are."""
    tsumo = s.discarder is None
    first = [name for name in ("tenhou", "chiihou", "renhou") if getattr(s, name)]
    if len(first) > 1:
        raise contradiction(f"{first[0]} and {first[1]} cannot both hold")
    if first:
        name = first[0]
        if hand.melds:
            raise contradiction(f"{name}: no call or kan may come before it")
        if s.in_riichi or s.ippatsu:
            raise contradiction(f"{name}: riichi cannot be declared before it")
        if s.rinshan or s.chankan or s.haitei or s.houtei:
            raise contradiction(f"{name}: cannot combine with rinshan, chankan, haitei or houtei")
    if s.tenhou and (not s.is_dealer or not tsumo):
        raise contradiction("tenhou: only the dealer's tsumo on the first draw")
    if s.chiihou and (s.is_dealer or not tsumo):
        raise contradiction("chiihou: only a non-dealer's tsumo on the first draw")
    if s.renhou and (s.is_dealer or tsumo):
        raise contradiction("renhou: only a non-dealer's ron before the first draw")


def _check_tiles(hand: Hand, s: Situation, rules: Rules) -> None:
    """The copies of each kind in the hand and dora indicators, red fives and three-player manzu."""
    n = s.players
    visible = hand.all_tiles()
    in_hand = len(visible)
    visible.extend(s.dora_indicators)
    visible.extend(s.ura_indicators)
    counts = [0] * 34
    reds = [0] * 34
    for t in visible:
        counts[t.kind] = counts[t.kind] + 1
        if t.red:
            reds[t.kind] = reds[t.kind] + 1
    allowed_red = _RED_PER_KIND[rules.red_fives]
    for k in {t.kind for t in visible}:
        c = counts[k]
        allowed = allowed_red.get(k, 0) if k in _FIVES else 0
        if reds[k] > allowed:
            tile = Tile(k, True)
            if not allowed_red:
                raise InvalidHandError(f"{tile}: these rules play without red fives", "impossible")
            raise InvalidHandError(f"{tile}: {reds[k]} red copies but the set has {allowed}", "impossible")
        if c > 4 or c - reds[k] > 4 - allowed:
            where = "in the hand and dora indicators" if len(visible) > in_hand else "in the hand"
            extra = " (the others are red)" if c <= 4 else ""
            raise InvalidHandError(
                f"{Tile(k)}: {c} copies {where}, more than the set has{extra}", "impossible"
            )
        if n == 3 and 0 < k < 8:
            raise InvalidHandError(f"{Tile(k)}: three-player mahjong has no 2m-8m", "impossible")


def contradiction(msg: str) -> InvalidHandError:
    """The error of a situation that contradicts itself, the hand or the rules."""
    return InvalidHandError(msg, "contradiction")
