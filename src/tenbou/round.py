"""A round (kyoku) followed event by event: its state, validation, and its end.

:class:`Round` takes the events of one hand (from ``start_kyoku`` to
``end_kyoku``) and keeps everything a referee needs: hands, rivers, melds in
call order, the live and dead wall, dora indicators, riichi and ippatsu,
furiten (permanent, temporary and riichi), kuikae, the first go-around,
haitei and houtei, rinshan draws and the daiminkan they follow, chankan, the
abortive draws, and the exhaustive draw with tenpai and nagashi. An event that
cannot happen raises :class:`~tenbou.errors.IllegalEventError` naming the
event's index and why; with ``strict=False`` the error is recorded in
``errors`` and the event applied as far as it can be.

A win builds its scoring request (every situational flag, the pao the calls
made, the daiminkan a rinshan win follows) and is settled by
:func:`tenbou.api.settle_request`, the same path as any request.

:meth:`Round.legal_actions` lists what a seat may do now, as events.

>>> from tenbou.events import StartKyoku, Tsumo, Dahai
>>> from tenbou.rules import get_rules
>>> from tenbou.tiles import Tile, Wind, parse_tiles
>>> hands = [parse_tiles("123456789m1235p"), parse_tiles("2223334445556p"), parse_tiles("111222333s1237z"),
...          parse_tiles("19m19s1234566z19p")]
>>> r = Round(get_rules("tenhou"), StartKyoku(Wind.EAST, Tile.parse("1s"), 1, 0, 0, 0, (25000,) * 4,
...           tuple(tuple(h[:13]) for h in hands)))
>>> r.apply(Tsumo(0, Tile.parse("9p")))
>>> [str(a.pai) for a in r.legal_actions(0) if isinstance(a, Dahai)][:3]
['1m', '2m', '3m']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from . import pao as _pao
from .api import settle_request
from .errors import IllegalEventError, TenbouError
from .events import (
    Ankan,
    Chi,
    Dahai,
    Daiminkan,
    Dora,
    EndKyoku,
    Event,
    Hora,
    Kakan,
    Nukidora,
    Pon,
    Reach,
    ReachAccepted,
    Ryukyoku,
    StartKyoku,
    Tsumo,
)
from .hand import Hand, Meld, MeldType, Situation
from .payment import Settlement
from .rules import Rules
from .scoring import score_hand
from .shape import is_tenpai, is_winning, waits
from .tiles import TERMINALS_AND_HONORS, Tile, format_tiles

__all__ = ["Phase", "Round", "RoundResult", "SeatState"]

_WIND_KINDS = (27, 28, 29, 30)
#: mjai ``ryukyoku`` reasons of the abortive draws, by tenbou's names
ABORT_REASONS = {
    "kyuushu_kyuuhai": "kyushukyuhai",
    "suufon_renda": "suufonrenda",
    "suucha_riichi": "suuchariichi",
    "suukaikan": "suukaikan",
    "sanchahou": "sanchaho",
}
_REASON_NAMES = {v: k for k, v in ABORT_REASONS.items()}


class Phase(Enum):
    """Where the round stands: a seat is to ``DRAW``; a seat holding a drawn
    tile (or having called) is to ``ACT``; the others may ``REACT`` to a
    discard, or rob a kan (``CHANKAN``); or the round has ``ENDED``."""

    DRAW = "draw"
    ACT = "act"
    REACT = "react"
    CHANKAN = "chankan"
    ENDED = "ended"


@dataclass(slots=True)
class Discard:
    tile: Tile
    tsumogiri: bool
    riichi: bool = False
    called: bool = False


@dataclass(slots=True)
class SeatState:
    """One player's side of the table."""

    hand: list[Tile]
    score: int
    melds: list[Meld] = field(default_factory=list)
    #: kans in the order declared: (index in melds, type)
    kans: list[tuple[int, MeldType]] = field(default_factory=list)
    discards: list[Discard] = field(default_factory=list)
    riichi: bool = False  # declared (the declaration tile may still be ronned)
    riichi_accepted: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    has_drawn: bool = False
    temp_furiten: bool = False
    riichi_furiten: bool = False
    kita: int = 0
    drawn: Tile | None = None
    rinshan: bool = False  # the tile in hand was drawn from the dead wall
    kuikae: frozenset[int] = frozenset()
    waits_key: tuple[tuple[int, ...], bool] | None = None
    waits: list[int] = field(default_factory=list)

    def kinds(self) -> list[int]:
        c = [0] * 34
        for t in self.hand:
            c[t.kind] += 1
        return c

    @property
    def closed(self) -> bool:
        return all(m.type is MeldType.ANKAN for m in self.melds)


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How the round ended: its settlement, the request that was settled (for
    wins), and what the record said where it said it."""

    settlement: Settlement
    request: dict[str, Any] | None
    recorded_deltas: tuple[int, ...] | None = None


class Round:
    """One hand, fed event by event (see the module docstring)."""

    def __init__(self, rules: Rules, start: StartKyoku, *, strict: bool = True, index: int = 0) -> None:
        players = len(start.tehais)
        if players not in rules.players:
            raise IllegalEventError(
                f"event {index}: start_kyoku deals {players} hands; these rules are played by "
                f"{' or '.join(map(str, rules.players))} players"
            )
        self.rules = rules
        self.players = players
        self.start = start
        self.strict = strict
        self.errors: list[str] = []
        self.dealer = start.oya
        self.round_wind = start.bakaze
        self.honba = start.honba
        self.kyotaku = start.kyotaku
        self.seats = [SeatState(list(h), s) for h, s in zip(start.tehais, start.scores, strict=True)]
        self.dora_markers: list[Tile] = [start.dora_marker]
        dead = 14
        total = 136 if players == 4 else 108
        self.live_wall = total - 13 * players - dead
        self.kans_declared = 0
        self.phase = Phase.DRAW
        self.actor = self.dealer
        self.last_discard: tuple[int, Tile] | None = None
        self.rinshan_pending = False
        self.chain_from: int | None = None  # who dealt the daiminkan that began this rinshan chain
        self.chain_broken = False  # an ankan or kakan came since that daiminkan
        self.chain_furiten = False  # the daiminkan's caller was furiten when it called
        self.kan_tile: tuple[int, Tile, str] | None = None  # a kan that may be robbed: (seat, tile, type)
        self.calls_made = False  # any call or kan this hand (ends the first go-around)
        self.discards_made = 0
        self.suukaikan_pending = False
        self.horas: list[tuple[Hora, dict[str, Any]]] = []
        self.result: RoundResult | None = None
        self.index = index
        for i, h in enumerate(start.tehais):
            if len(h) != 13:
                self._illegal(f"start_kyoku gives seat {i} {len(h)} tiles, not 13")

    # -- helpers ----------------------------------------------------------------------------------

    def _illegal(self, why: str) -> None:
        message = f"event {self.index}: {why}"
        if self.strict:
            raise IllegalEventError(message)
        self.errors.append(message)

    def _take(self, seat: int, tiles: Sequence[Tile], what: str) -> None:
        hand = self.seats[seat].hand
        for t in tiles:
            if t in hand:
                hand.remove(t)
            else:
                self._illegal(
                    f"{what}: seat {seat} does not hold {t} (hand {format_tiles(sorted(hand, key=_key))})"
                )

    def _first_go_around(self) -> bool:
        return not self.calls_made and self.discards_made < self.players

    def waits(self, seat: int) -> list[int]:
        """The kinds that would complete ``seat``'s hand (13 - 3 x melds tiles);
        cached until the hand changes."""
        st = self.seats[seat]
        counts = st.kinds()
        key = (tuple(counts), not st.melds)
        if st.waits_key != key:
            st.waits_key = key
            st.waits = waits(counts, closed=not st.melds, players=self.players)
        return st.waits

    def is_tenpai(self, seat: int) -> bool:
        """Tenpai for the draw payments: waiting on a kind the player does not
        already hold four of (a wait on one's own fourth tile is no wait)."""
        st = self.seats[seat]
        held = [0] * 34
        for t in st.hand:
            held[t.kind] += 1
        for m in st.melds:
            for t in m.tiles:
                held[t.kind] += 1
        return any(held[k] < 4 for k in self.waits(seat))

    def furiten(self, seat: int) -> bool:
        """Furiten: a wait among one's own discards, a ron passed since one's
        last discard, or a ron passed after riichi."""
        st = self.seats[seat]
        if st.temp_furiten or st.riichi_furiten:
            return True
        w = set(self.waits(seat))
        return any(d.tile.kind in w for d in st.discards)

    # -- the win request ------------------------------------------------------------------------

    def _win_fields(self, seat: int, win_tile: Tile, discarder: int | None, kind: str) -> dict[str, Any]:
        """The winning-hand fields of a scoring request for ``seat`` winning on ``win_tile``."""
        st = self.seats[seat]
        concealed = list(st.hand)
        if discarder is None:
            concealed.remove(win_tile)
        first = self._first_go_around()
        wall_empty = self.live_wall == 0
        req: dict[str, Any] = {
            "winner": seat,
            "from": discarder,
            "hand": format_tiles(sorted(concealed, key=_key)),
            "melds": [m.to_dict() for m in st.melds],
            "win_tile": str(win_tile),
            "dora_indicators": [str(t) for t in self.dora_markers],
            "kita": st.kita,
        }
        flags = {
            "riichi": st.riichi_accepted and not st.double_riichi,
            "double_riichi": st.riichi_accepted and st.double_riichi,
            "ippatsu": st.riichi_accepted and st.ippatsu and self.rules.ippatsu,
            "rinshan": discarder is None and st.rinshan,
            "chankan": kind == "chankan",
            "haitei": discarder is None and wall_empty and not st.rinshan,
            "houtei": discarder is not None and wall_empty and kind == "ron",
            "tenhou": discarder is None and first and not st.discards and seat == self.dealer,
            "chiihou": discarder is None and first and not st.discards and seat != self.dealer,
            "renhou": discarder is not None and first and not st.has_drawn and seat != self.dealer,
        }
        req.update({k: True for k, v in flags.items() if v})
        if flags["rinshan"]:
            no_pao = (
                self.chain_from is None
                or (self.chain_broken and not self.rules.daiminkan_pao_chain)
                or (self.chain_furiten and not self.rules.daiminkan_pao_furiten)
            )
            if no_pao:
                req["rinshan_kan_from"] = None
            else:
                req["rinshan_kan_from"] = self.chain_from
        return req

    def _pao(self, seat: int, yakuman: Sequence[str]) -> list[dict[str, Any]]:
        """Liabilities as the calls happened: call order for the sets, and the
        order of the kans themselves for suukantsu."""
        st = self.seats[seat]
        out = [
            {"yaku": x.yaku, "seat": x.seat}
            for x in _pao.liabilities(st.melds, seat, [y for y in yakuman if y != "suukantsu"], self.rules)
        ]
        if "suukantsu" in yakuman and "suukantsu" in self.rules.pao_yaku and len(st.kans) == 4:
            i, mtype = st.kans[3]
            src = st.melds[i].from_seat
            if mtype is MeldType.DAIMINKAN and src is not None:
                out.append({"yaku": "suukantsu", "seat": src})
        return out

    def _score_fields(self, fields: dict[str, Any]) -> tuple[Hand, Situation]:
        from .api import parse_win_request

        req = {**fields, "players": self.players, "dealer": self.dealer, "round_wind": self.round_wind.value}
        req.pop("rinshan_kan_from", None)
        hand, situation, _ = parse_win_request(req, rules=self.rules)
        return hand, situation

    def _can_win(self, seat: int, tile: Tile, discarder: int | None, kind: str) -> bool:
        try:
            hand, situation = self._score_fields(self._win_fields(seat, tile, discarder, kind))
            score_hand(hand, situation, self.rules)
        except TenbouError:
            return False
        return True

    # -- applying events ------------------------------------------------------------------------

    def apply(self, event: Event, index: int | None = None) -> None:
        """Apply one event (``index`` names it in errors)."""
        if index is not None:
            self.index = index
        if self.phase is Phase.ENDED and not isinstance(event, EndKyoku):
            self._illegal(f"{_name(event)} after the hand has ended")
            return
        if self.horas and not isinstance(event, Hora):
            self._finish_wins()
            if not isinstance(event, EndKyoku):
                self._illegal(f"{_name(event)} after a win")
                return
        handler = _HANDLERS.get(type(event))
        if handler is None:
            self._illegal(f"{_name(event)} cannot come inside a hand")
            return
        handler(self, event)

    def _close_react(self) -> None:
        """A discard (or a kan to rob) passes: temporary and riichi furiten for those who could have won."""
        if self.phase is Phase.REACT and self.last_discard is not None:
            who, tile = self.last_discard
            for seat in range(self.players):
                if seat != who and tile.kind in self.waits(seat):
                    st = self.seats[seat]
                    st.temp_furiten = True
                    if st.riichi_accepted:
                        st.riichi_furiten = True
        elif self.phase is Phase.CHANKAN and self.kan_tile is not None:
            who, tile, _ = self.kan_tile
            for seat in range(self.players):
                if seat != who and tile.kind in self.waits(seat):
                    st = self.seats[seat]
                    st.temp_furiten = True
                    if st.riichi_accepted:
                        st.riichi_furiten = True

    def _on_tsumo(self, ev: Tsumo) -> None:
        seat = ev.actor
        if self.phase is Phase.REACT:
            assert self.last_discard is not None
            if self.suukaikan_pending and "suukaikan" in self.rules.abortive_draws:
                self._illegal(
                    "tsumo after the fourth kan by two players was discarded: the hand is an abortive draw"
                )
            self._close_react()
            expected = (self.last_discard[0] + 1) % self.players
            if seat != expected:
                self._illegal(f"tsumo by seat {seat} out of turn (seat {expected} draws next)")
        elif self.phase is Phase.CHANKAN:
            self._close_react()
            assert self.kan_tile is not None
            if seat != self.kan_tile[0]:
                self._illegal(f"tsumo by seat {seat}: seat {self.kan_tile[0]} draws the replacement tile")
            self.kan_tile = None
            for s in self.seats:  # nobody robbed the kan: it stands, and ends every ippatsu
                s.ippatsu = False
        elif self.phase is not Phase.DRAW:
            self._illegal(f"tsumo by seat {seat} while seat {self.actor} is to {self.phase.value}")
        elif seat != self.actor:
            self._illegal(f"tsumo by seat {seat} out of turn (seat {self.actor} draws next)")
        if self.live_wall <= 0:
            self._illegal("tsumo from an empty wall")
        self.live_wall -= 1
        st = self.seats[seat]
        st.hand.append(ev.pai)
        st.drawn = ev.pai
        st.rinshan = self.rinshan_pending
        if not self.rinshan_pending:
            self.chain_from = None
            self.chain_broken = False
        self.rinshan_pending = False
        st.has_drawn = True
        st.temp_furiten = False  # passing a win binds only until one's next turn (riichi furiten stays)
        self.phase = Phase.ACT
        self.actor = seat

    def _on_dahai(self, ev: Dahai) -> None:
        seat = ev.actor
        st = self.seats[seat]
        if self.phase is not Phase.ACT or seat != self.actor:
            self._illegal(f"dahai by seat {seat} while seat {self.actor} is to {self.phase.value}")
        if ev.pai not in st.hand:
            self._illegal(f"dahai of {ev.pai}: seat {seat} does not hold it")
        else:
            declaring = st.riichi and not st.riichi_accepted and not any(d.riichi for d in st.discards)
            if st.riichi_accepted and ev.pai != st.drawn:
                self._illegal(
                    f"dahai of {ev.pai}: seat {seat} is in riichi and must discard the drawn {st.drawn}"
                )
            if ev.pai.kind in st.kuikae:
                self._illegal(f"dahai of {ev.pai}: kuikae (swap calling) is forbidden under these rules")
            if ev.tsumogiri and ev.pai != st.drawn:
                self._illegal(f"dahai of {ev.pai} marked tsumogiri, but the drawn tile is {st.drawn}")
            st.hand.remove(ev.pai)
            if declaring:
                if not self.waits(seat):
                    st.hand.append(ev.pai)
                    self._illegal(f"riichi: discarding {ev.pai} leaves seat {seat} not tenpai")
                    st.hand.remove(ev.pai)
                st.double_riichi = self._first_go_around() and not st.discards
            elif st.riichi_accepted:
                st.ippatsu = False
            st.discards.append(Discard(ev.pai, ev.tsumogiri, riichi=declaring))
        st.kuikae = frozenset()
        st.drawn = None
        self.discards_made += 1
        self.last_discard = (seat, ev.pai)
        self.phase = Phase.REACT
        self.actor = seat

    def _on_call(self, ev: Chi | Pon | Daiminkan) -> None:
        seat, target = ev.actor, ev.target
        kind = {Chi: MeldType.CHI, Pon: MeldType.PON, Daiminkan: MeldType.DAIMINKAN}[type(ev)]
        name = kind.value
        if self.phase is not Phase.REACT or self.last_discard is None:
            self._illegal(f"{name} by seat {seat} with no discard to call")
            return
        who, tile = self.last_discard
        if target != who or ev.pai != tile:
            self._illegal(f"{name} of {ev.pai} from seat {target}: the last discard is {tile} by seat {who}")
        if seat == who:
            self._illegal(f"{name}: seat {seat} cannot call its own discard")
        st = self.seats[seat]
        if st.riichi:
            self._illegal(f"{name}: seat {seat} is in riichi and cannot call")
        if kind is MeldType.CHI and (self.players == 3 or seat != (who + 1) % self.players):
            self._illegal(f"chi: seat {seat} can only chi from the player on its left")
        if kind is MeldType.DAIMINKAN and (self.live_wall <= 0 or self.kans_declared >= 4):
            self._illegal("daiminkan: no kan is possible now (the wall is empty or four kans are out)")
        if self.live_wall <= 0 and kind is not MeldType.DAIMINKAN:
            self._illegal(f"{name}: the last discard (houtei) cannot be called")
        furiten = kind is MeldType.DAIMINKAN and self.furiten(seat)
        self._take(seat, ev.consumed, name)
        try:
            meld = Meld(kind, (*ev.consumed, ev.pai), target, ev.pai)
        except TenbouError as e:
            self._illegal(f"{name}: {e}")
            return
        self._close_react_except(seat)
        self.seats[who].discards[-1].called = True
        st.melds.append(meld)
        self.calls_made = True
        for s in self.seats:
            s.ippatsu = False
        if kind is MeldType.DAIMINKAN:
            st.kans.append((len(st.melds) - 1, kind))
            self._declare_kan(seat)
            self.chain_from = target
            self.chain_broken = False
            self.chain_furiten = furiten
            self.phase = Phase.DRAW
        else:
            if self.rules.kuikae != "allowed":
                forbidden = {ev.pai.kind}
                if kind is MeldType.CHI and self.rules.kuikae == "forbidden":
                    lo = min(t.kind for t in meld.tiles)
                    if ev.pai.kind == lo and lo % 9 <= 5:
                        forbidden.add(lo + 3)
                    elif ev.pai.kind == lo + 2 and lo % 9 >= 1:
                        forbidden.add(lo - 1)
                st.kuikae = frozenset(forbidden)
            self.phase = Phase.ACT
        self.actor = seat
        self.last_discard = None

    def _close_react_except(self, caller: int) -> None:
        """A call takes the discard: the others who could have won on it pass it."""
        if self.last_discard is None:
            return
        who, tile = self.last_discard
        for seat in range(self.players):
            if seat not in (who, caller) and tile.kind in self.waits(seat):
                st = self.seats[seat]
                st.temp_furiten = True
                if st.riichi_accepted:
                    st.riichi_furiten = True

    def _declare_kan(self, seat: int) -> None:
        self.kans_declared += 1
        self.rinshan_pending = True
        kan_players = {i for i, s in enumerate(self.seats) if s.kans}
        if self.kans_declared == 4 and len(kan_players) > 1:
            self.suukaikan_pending = True

    def _check_kan(self, seat: int, what: str) -> None:
        """A kakan or ankan: on the seat's own turn after a draw, with a kan still possible."""
        if self.phase is not Phase.ACT or seat != self.actor or self.seats[seat].drawn is None:
            self._illegal(f"{what} by seat {seat} while seat {self.actor} is to {self.phase.value}")
        if self.live_wall <= 0 or self.kans_declared >= 4:
            self._illegal(f"{what}: no kan is possible now (the wall is empty or four kans are out)")

    def _on_kakan(self, ev: Kakan) -> None:
        seat = ev.actor
        st = self.seats[seat]
        self._check_kan(seat, "kakan")
        i = next(
            (i for i, m in enumerate(st.melds) if m.type is MeldType.PON and m.kind == ev.pai.kind), None
        )
        if i is None:
            self._illegal(f"kakan of {ev.pai}: seat {seat} has no pon of it")
            return
        self._take(seat, [ev.pai], "kakan")
        pon = st.melds[i]
        st.melds[i] = Meld(MeldType.KAKAN, (*pon.tiles, ev.pai), pon.from_seat, pon.called)
        st.kans.append((i, MeldType.KAKAN))
        self.calls_made = True
        # ippatsu ends when the kan stands (at the replacement draw): whoever robs it keeps theirs
        self._declare_kan(seat)
        self.chain_broken = self.chain_from is not None
        self.kan_tile = (seat, ev.pai, "kakan")
        self.phase = Phase.CHANKAN
        self.actor = seat
        st.drawn = None

    def _on_ankan(self, ev: Ankan) -> None:
        seat = ev.actor
        st = self.seats[seat]
        self._check_kan(seat, "ankan")
        kinds = {t.kind for t in ev.consumed}
        if len(ev.consumed) != 4 or len(kinds) != 1:
            self._illegal(f"ankan: {format_tiles(ev.consumed)} is not four of a kind")
            return
        if st.riichi_accepted:
            if st.drawn is None or st.drawn.kind not in kinds:
                self._illegal("ankan in riichi: only of the tile just drawn")
            elif all(t in st.hand for t in ev.consumed) and not self._ankan_keeps_waits(seat, ev):
                self._illegal("ankan in riichi would change the waits")
        self._take(seat, ev.consumed, "ankan")
        st.melds.append(Meld(MeldType.ANKAN, ev.consumed))
        st.kans.append((len(st.melds) - 1, MeldType.ANKAN))
        self.calls_made = True
        self._declare_kan(seat)
        self.chain_broken = self.chain_from is not None
        st.drawn = None
        if self.rules.kokushi_ankan_chankan:  # ippatsu ends at the replacement draw, as for a kakan
            self.kan_tile = (seat, ev.consumed[0], "ankan")
            self.phase = Phase.CHANKAN
        else:
            for s in self.seats:
                s.ippatsu = False
            self.phase = Phase.DRAW
        self.actor = seat

    def _on_nukidora(self, ev: Nukidora) -> None:
        seat = ev.actor
        st = self.seats[seat]
        if self.players != 3 or not self.rules.nukidora:
            self._illegal("nukidora: North is only set aside with three players under nukidora rules")
        if self.phase is not Phase.ACT or seat != self.actor:
            self._illegal(f"nukidora by seat {seat} while seat {self.actor} is to {self.phase.value}")
        if ev.pai.kind != 30:
            self._illegal(f"nukidora of {ev.pai}: only North is set aside")
        self._take(seat, [ev.pai], "nukidora")
        st.kita += 1
        st.drawn = None
        for s in self.seats:
            s.ippatsu = False
        self.calls_made = True
        self.rinshan_pending = True
        self.kan_tile = (seat, ev.pai, "kita")
        self.phase = Phase.CHANKAN
        self.actor = seat

    def _on_dora(self, ev: Dora) -> None:
        limit = 1 + self.kans_declared if self.rules.kan_dora else 1
        if len(self.dora_markers) >= limit:
            self._illegal(
                f"dora: a new indicator needs a kan "
                f"({len(self.dora_markers)} shown, {self.kans_declared} kans)"
            )
        self.dora_markers.append(ev.dora_marker)

    def _on_reach(self, ev: Reach) -> None:
        seat = ev.actor
        st = self.seats[seat]
        if self.phase is not Phase.ACT or seat != self.actor:
            self._illegal(f"reach by seat {seat} while seat {self.actor} is to {self.phase.value}")
        if st.riichi:
            self._illegal(f"reach: seat {seat} is already in riichi")
        if not st.closed:
            self._illegal(f"reach: seat {seat} has an open hand")
        if st.score < self.rules.riichi_min_points:
            self._illegal(
                f"reach: seat {seat} has {st.score} points, {self.rules.riichi_min_points} are needed"
            )
        if self.live_wall < self.players:
            self._illegal("reach: no draw is left for the declarer")
        st.riichi = True

    def _on_reach_accepted(self, ev: ReachAccepted) -> None:
        seat = ev.actor
        st = self.seats[seat]
        if not st.riichi or st.riichi_accepted or not st.discards or not st.discards[-1].riichi:
            self._illegal(f"reach_accepted: seat {seat} has not just declared riichi")
        st.riichi_accepted = True
        st.ippatsu = self.rules.ippatsu
        st.score -= self.rules.riichi_stick_points
        self.kyotaku += 1

    def _on_hora(self, ev: Hora) -> None:
        seat, target = ev.actor, ev.target
        st = self.seats[seat]
        if seat == target:
            if self.phase is not Phase.ACT or seat != self.actor or st.drawn is None:
                self._illegal(f"hora (tsumo) by seat {seat} without a drawn tile")
                return
            tile = st.drawn
            kind = "tsumo"
            discarder = None
        else:
            if self.phase is Phase.REACT and self.last_discard is not None and self.last_discard[0] == target:
                tile = self.last_discard[1]
                kind = "ron"
            elif self.phase is Phase.CHANKAN and self.kan_tile is not None and self.kan_tile[0] == target:
                tile = self.kan_tile[1]
                kind = "chankan" if self.kan_tile[2] != "kita" else "ron"
                if self.kan_tile[2] == "ankan" and not self._is_kokushi_wait(seat, tile):
                    self._illegal("hora: an ankan can only be robbed by kokushi musou")
            else:
                self._illegal(
                    f"hora by seat {seat} on seat {target}: there is no tile of seat {target} to win on"
                )
                return
            discarder = target
            if self.furiten(seat):
                self._illegal(f"hora: seat {seat} is furiten")
            if ev.pai is not None and ev.pai != tile:
                self._illegal(f"hora on {ev.pai}, but the tile is {tile}")
        fields = self._win_fields(seat, tile, discarder, kind)
        ura = list(ev.ura_markers or ())
        if st.riichi_accepted and self.rules.ura_dora:
            fields["ura_indicators"] = [str(t) for t in ura[: len(self.dora_markers)]]
        try:
            hand, situation = self._score_fields(fields)
            hs = score_hand(hand, situation, self.rules)
        except TenbouError as e:
            self._illegal(f"hora by seat {seat}: {e}")
            return
        fields["pao"] = self._pao(seat, [y.yaku.id for y in hs.yaku if y.yakuman])
        self.horas.append((ev, fields))
        self.phase = Phase.ENDED if kind == "tsumo" else self.phase

    def _is_kokushi_wait(self, seat: int, tile: Tile) -> bool:
        st = self.seats[seat]
        c = st.kinds()
        c[tile.kind] += 1
        from .shape import is_kokushi

        return not st.melds and is_kokushi(c)

    def _finish_wins(self) -> None:
        horas = self.horas
        self.horas = []
        request: dict[str, Any] = {
            "players": self.players,
            "dealer": self.dealer,
            "round_wind": self.round_wind.value,
            "honba": self.honba,
            "riichi_sticks": self.kyotaku,
            "wins": [f for _, f in horas],
        }
        try:
            settlement = settle_request(request, rules=self.rules)
        except TenbouError as e:
            self._illegal(f"the win cannot be settled: {e}")
            self.phase = Phase.ENDED
            return
        recorded = None
        if all(h.deltas is not None for h, _ in horas):
            recorded = tuple(sum(h.deltas[i] for h, _ in horas if h.deltas) for i in range(self.players))
        self._end(RoundResult(settlement, request, recorded))

    def _end(self, result: RoundResult) -> None:
        self.result = result
        self.phase = Phase.ENDED
        for seat, d in enumerate(result.settlement.deltas):
            self.seats[seat].score += d

    def _on_ryukyoku(self, ev: Ryukyoku) -> None:
        from .payment import settle_draw

        reason = _REASON_NAMES.get(ev.reason or "") if ev.reason not in (None, "fanpai") else None
        exhaustive = ev.reason == "fanpai" or (ev.reason is None and self.live_wall == 0)
        if ev.reason == "nagashimangan":
            exhaustive = True
        if exhaustive:
            if self.live_wall != 0:
                self._illegal(f"ryukyoku: an exhaustive draw with {self.live_wall} tiles left in the wall")
            if self.phase is Phase.REACT:
                self._close_react()
            tenpai = [s for s in range(self.players) if self.is_tenpai(s)]
            nagashi = (
                [s for s in range(self.players) if self._nagashi(s)]
                if self.rules.nagashi_mangan != "none"
                else []
            )
            settlement = settle_draw(
                self.rules, self.players, self.dealer, self.honba, self.kyotaku, "exhaustive", tenpai, nagashi
            )
        else:
            reason = reason or self._abort_reason()
            if reason is None:
                self._illegal("ryukyoku: no abortive draw applies now")
            elif reason not in self.rules.abortive_draws and reason != "sanchahou":
                self._illegal(f"ryukyoku: {reason} is not played under these rules")
            settlement = settle_draw(
                self.rules, self.players, self.dealer, self.honba, self.kyotaku, "abortive", reason=reason
            )
        self._end(RoundResult(settlement, None, ev.deltas))

    def _abort_reason(self) -> str | None:
        if self.phase is Phase.ACT and self._first_go_around() and not self.seats[self.actor].discards:
            st = self.seats[self.actor]
            if len({t.kind for t in st.hand if t.kind in TERMINALS_AND_HONORS}) >= 9:
                return "kyuushu_kyuuhai"
        if self.phase is Phase.REACT:
            if self.suukaikan_pending:
                return "suukaikan"
            if sum(s.riichi_accepted for s in self.seats) == 4:
                return "suucha_riichi"
            if (
                self.players == 4
                and not self.calls_made
                and self.discards_made == 4
                and all(len(s.discards) == 1 for s in self.seats)
                and len({s.discards[0].tile.kind for s in self.seats}) == 1
                and self.seats[0].discards[0].tile.kind in _WIND_KINDS
            ):
                return "suufon_renda"
        return None

    def _nagashi(self, seat: int) -> bool:
        discards = self.seats[seat].discards
        return bool(discards) and all(d.tile.kind in TERMINALS_AND_HONORS and not d.called for d in discards)

    def _on_end_kyoku(self, ev: EndKyoku) -> None:
        if self.result is None:
            self._illegal("end_kyoku before the hand ended (no hora or ryukyoku)")
        self.phase = Phase.ENDED

    def _on_start(self, ev: StartKyoku) -> None:
        self._illegal("start_kyoku inside a hand")

    # -- legal actions --------------------------------------------------------------------------

    def legal_actions(self, seat: int) -> list[Event]:
        """What ``seat`` may do now, as events: discards, riichi, kans, kita,
        a tsumo win or nine-terminals abort after a draw; ron, pon, chi and
        daiminkan on another's discard; ron on a kan to rob. Passing is always
        possible when something is offered and is not listed."""
        out: list[Event] = []
        st = self.seats[seat]
        if self.phase is Phase.ACT and seat == self.actor:
            hand_kinds = st.kinds()
            if (
                st.drawn is not None
                and is_winning(hand_kinds, closed=not st.melds)
                and self._can_win(seat, st.drawn, None, "tsumo")
            ):
                out.append(Hora(seat, seat, st.drawn))
            if st.riichi_accepted:
                if st.drawn is not None:
                    out.append(Dahai(seat, st.drawn, True))
            else:
                declaring = st.riichi
                seen: set[Tile] = set()
                for t in st.hand:
                    if t in seen or t.kind in st.kuikae:
                        continue
                    seen.add(t)
                    if declaring:
                        c = st.kinds()
                        c[t.kind] -= 1
                        if not is_tenpai(c, closed=not st.melds, players=self.players):
                            continue
                    if t == st.drawn:
                        out.append(Dahai(seat, t, True))
                        if st.hand.count(t) > 1:
                            out.append(Dahai(seat, t, False))
                    else:
                        out.append(Dahai(seat, t, False))
                if (
                    not st.riichi
                    and st.closed
                    and st.score >= self.rules.riichi_min_points
                    and self.live_wall >= self.players
                    and self._riichi_possible(seat)
                ):
                    out.append(Reach(seat))
            if st.drawn is not None and self.live_wall > 0 and self.kans_declared < 4 and not st.riichi:
                for k in range(34):
                    if hand_kinds[k] == 4:
                        out.append(Ankan(seat, tuple(t for t in st.hand if t.kind == k)))
                for m in st.melds:
                    if m.type is MeldType.PON and hand_kinds[m.kind]:
                        tile = next(t for t in st.hand if t.kind == m.kind)
                        out.append(Kakan(seat, tile, m.tiles))
            elif (
                st.riichi_accepted and st.drawn is not None and self.live_wall > 0 and self.kans_declared < 4
            ):
                k = st.drawn.kind
                if hand_kinds[k] == 4:
                    cand = Ankan(seat, tuple(t for t in st.hand if t.kind == k))
                    if self._ankan_keeps_waits(seat, cand):
                        out.append(cand)
            if self.players == 3 and self.rules.nukidora and hand_kinds[30] and not self.live_wall <= 0:
                out.append(Nukidora(seat, next(t for t in st.hand if t.kind == 30)))
            if (
                "kyuushu_kyuuhai" in self.rules.abortive_draws
                and self._first_go_around()
                and not st.discards
                and len({t.kind for t in st.hand if t.kind in TERMINALS_AND_HONORS}) >= 9
            ):
                out.append(Ryukyoku(reason="kyushukyuhai"))
        elif self.phase is Phase.REACT and self.last_discard is not None and seat != self.last_discard[0]:
            who, tile = self.last_discard
            if (
                tile.kind in self.waits(seat)
                and not self.furiten(seat)
                and self._can_win(seat, tile, who, "ron")
            ):
                out.append(Hora(seat, who, tile))
            if not st.riichi and self.live_wall > 0:
                out.extend(self._call_options(seat, who, tile))
        elif self.phase is Phase.CHANKAN and self.kan_tile is not None and seat != self.kan_tile[0]:
            who, tile, kan = self.kan_tile
            if tile.kind in self.waits(seat) and not self.furiten(seat):
                if kan == "ankan" and not self._is_kokushi_wait(seat, tile):
                    return out
                if self._can_win(seat, tile, who, "chankan" if kan != "kita" else "ron"):
                    out.append(Hora(seat, who, tile))
        return out

    def _riichi_possible(self, seat: int) -> bool:
        st = self.seats[seat]
        c = st.kinds()
        for k in {t.kind for t in st.hand}:
            c[k] -= 1
            ready = is_tenpai(c, closed=not st.melds, players=self.players)
            c[k] += 1
            if ready:
                return True
        return False

    def _ankan_keeps_waits(self, seat: int, ankan: Ankan) -> bool:
        st = self.seats[seat]
        assert st.drawn is not None
        before_hand = list(st.hand)
        before_hand.remove(st.drawn)
        c1 = [0] * 34
        for t in before_hand:
            c1[t.kind] += 1
        after = list(st.hand)
        for t in ankan.consumed:
            after.remove(t)
        c2 = [0] * 34
        for t in after:
            c2[t.kind] += 1
        return sorted(waits(c1, closed=not st.melds, players=self.players)) == sorted(
            waits(c2, closed=False, players=self.players)
        )

    def _call_options(self, seat: int, who: int, tile: Tile) -> list[Event]:
        st = self.seats[seat]
        out: list[Event] = []
        same = [t for t in st.hand if t.kind == tile.kind]
        if len(same) >= 2:
            seen: set[tuple[Tile, ...]] = set()
            for i in range(len(same)):
                for j in range(i + 1, len(same)):
                    pair = tuple(sorted((same[i], same[j]), key=_key))
                    if pair not in seen:
                        seen.add(pair)
                        out.append(Pon(seat, who, tile, pair))
        if len(same) == 3 and self.kans_declared < 4:
            out.append(Daiminkan(seat, who, tile, tuple(same)))
        if self.players == 4 and seat == (who + 1) % 4 and tile.kind < 27:
            k, n = tile.kind, tile.kind % 9
            for lo in (k - 2, k - 1, k):
                if lo < k - n or lo + 2 > k - n + 8:
                    continue
                others = [x for x in (lo, lo + 1, lo + 2) if x != k]
                picks: list[list[Tile]] = [[t for t in st.hand if t.kind == x] for x in others]
                if all(picks):
                    options = {(a, b) for a in set(picks[0]) for b in set(picks[1])}
                    for a, b in sorted(options, key=lambda p: (_key(p[0]), _key(p[1]))):
                        out.append(Chi(seat, who, tile, (a, b)))
        return out


def _key(t: Tile) -> tuple[int, bool]:
    return (t.kind, t.red)


def _name(event: Event) -> str:
    from .events import event_to_json

    return str(event_to_json(event)["type"])


_HANDLERS: dict[type[Any], Any] = {
    Tsumo: Round._on_tsumo,
    Dahai: Round._on_dahai,
    Chi: Round._on_call,
    Pon: Round._on_call,
    Daiminkan: Round._on_call,
    Kakan: Round._on_kakan,
    Ankan: Round._on_ankan,
    Nukidora: Round._on_nukidora,
    Dora: Round._on_dora,
    Reach: Round._on_reach,
    ReachAccepted: Round._on_reach_accepted,
    Hora: Round._on_hora,
    Ryukyoku: Round._on_ryukyoku,
    EndKyoku: Round._on_end_kyoku,
    StartKyoku: Round._on_start,
}
