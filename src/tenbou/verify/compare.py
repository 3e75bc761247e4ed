"""A hand's end as tenbou replayed it, compared with what its record says: pure functions that
return each difference as a :class:`Fact` (its kind, the text for people, and which request
reproduces it), in report order. :class:`~tenbou.verify.verifier._Verifier` puts them on the
hand's line.

What is compared: the kind of end, the winners, each win's yaku, han, fu, points, limit and pao,
the winner's tiles, melds, kita and winning tile, the indicators, honba and riichi sticks, the
per-seat score changes and the scores, the abortive draw's reason, the tenpai and nagashi seats of
an exhaustive draw and the hands shown at a draw.

Here the record of a pinfu tanyao ron gives a honba and deltas that the win does not have:

>>> from tenbou.core.hand import Hand, Situation
>>> from tenbou.core.scoring import score_hand
>>> from tenbou.io.record import WinRecord
>>> from tenbou.rules import get_rules
>>> from tenbou.settle.payment import settle_win
>>> ron = Situation(winner=1, discarder=0)
>>> win = settle_win(score_hand(Hand.parse("234m456p678s2355s +4s"), ron, get_rules("tenhou")))
>>> conv = Conventions(ura_dora=True, stick=1000, fold_kita=False, ura_riichi_only=False)
>>> rec = WinRecord(winner=1, from_seat=0, honba=1, deltas=(-2300, 2300, 0, 0))
>>> for kind, detail in win_facts(conv, rec, win, {"dora_indicators": ["3m"]}, 0, None):
...     print(kind, "-", detail)
honba - seat 1: honba 0, the record 1
deltas - seat 1's win: deltas [-2000, 2000, 0, 0], the record [-2300, 2300, 0, 0]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..core.tiles import format_sorted, format_tiles, parse_tiles, sort_tiles
from ..engine.events import Event, Hora, ReachAccepted, Ryukyoku
from ..engine.game import HandRecord
from ..engine.round import Round
from ..io.record import GameRecord, HandEnd, WinRecord
from ..rules import Rules
from ..settle.payment import PaymentKind, Settlement, WinSettlement
from ..settle.results import win_points

__all__ = [
    "MISMATCH_KINDS",
    "Conventions",
    "Fact",
    "compare_hand",
    "compare_wins",
    "settled",
    "win_facts",
]

#: what can differ between tenbou and a record, in report order
MISMATCH_KINDS = (
    "illegal_event", "kind", "winners", "tiles", "hand", "melds", "win_tile", "dora", "ura_dora", "honba",
    "riichi_sticks", "yaku", "han", "fu", "points", "limit", "pao", "deltas", "scores", "draw_reason",
    "tenpai", "nagashi", "next", "game_end", "final_scores",
)  # fmt: skip
#: the keys of a settle request that a ``tenbou score`` request of one of its wins takes too
_TOP = ("players", "dealer", "round_wind", "honba", "riichi_sticks")
_STICKS = PaymentKind.RIICHI_STICKS


class Fact(NamedTuple):
    """A way the replay differs from the record: its kind (:data:`MISMATCH_KINDS`), the detail for
    people, and the winner whose ``tenbou score`` request reproduces it (``None``: the hand's
    ``tenbou settle`` request does)."""

    kind: str
    detail: str
    winner: int | None = None


@dataclass(frozen=True, slots=True)
class Conventions:
    """What a record's rules and format make of the facts it states: whether the rules play ura
    dora, a riichi stick's points, whether the format counts kita as dora (``fold_kita``: mjlog,
    tenhou.net/6), and whether ura indicators are shown to riichi winners only (Tenhou's own
    convention in mjlog)."""

    ura_dora: bool
    stick: int
    fold_kita: bool
    ura_riichi_only: bool

    @classmethod
    def of(cls, rec: GameRecord, rules: Rules) -> Conventions:
        """The conventions of a record played under ``rules`` (its own)."""
        return cls(
            ura_dora=rules.ura_dora,
            stick=rules.riichi_stick_points,
            fold_kita=rec.format in ("mjlog", "tenhou6"),
            ura_riichi_only=rec.format == "mjlog",
        )


def _after_deposits(scores: Sequence[int], events: Sequence[Event], stick: int) -> tuple[int, ...]:
    """Scores less the riichi sticks put down during a hand's events."""
    out = list(scores)
    for ev in events:
        if isinstance(ev, ReachAccepted):
            out[ev.actor] -= stick
    return tuple(out)


def settled(hr: HandRecord) -> Settlement:
    """The typed settlement of a hand the engine played (only a hand record pickled by tenbou 0.1
    has none)."""
    assert hr.outcome is not None
    return hr.outcome


def _engine_yaku(win: WinSettlement, fold_kita: bool) -> tuple[dict[str, int], list[str]]:
    """tenbou's yaku of a win as id -> han (kita folded into dora where the record does), and its yakuman."""
    out: dict[str, int] = {}
    yakuman: list[str] = []
    for y in win.score.yaku:
        key = "dora" if fold_kita and y.id == "kita" else y.id
        if y.yakuman:
            yakuman.append(key)
            continue
        out[key] = out.get(key, 0) + y.han
    return out, sorted(yakuman)


def _limit(win: WinSettlement) -> str | None:
    """A win's limit by its name (``None``: none reached)."""
    limit = win.score.limit
    return None if limit is None else limit.value


def _score_request(rules: Any, request: Mapping[str, Any], win: Mapping[str, Any]) -> dict[str, Any]:
    """A ``tenbou score`` request for one win of a hand's settle request."""
    out: dict[str, Any] = {"rules": rules}
    out.update({k: request[k] for k in _TOP if k in request})
    out.update({k: v for k, v in win.items() if k != "pao"})
    return out


def _compare_win(rec: WinRecord, win: WinSettlement, fold_kita: bool) -> list[tuple[str, str]]:
    """(kind, detail) for each way one win's value (yaku, han, fu, points, pao) differs from its record."""
    out: list[tuple[str, str]] = []
    seat = rec.winner
    if rec.yaku is not None:
        got, got_ym = _engine_yaku(win, fold_kita and "kita" not in rec.yaku)
        want_ym = sorted(rec.yakuman) if rec.yakuman else []
        want = {k: v for k, v in rec.yaku.items() if k not in want_ym}
        if got_ym or want_ym:
            if got_ym != want_ym:
                out.append(("yaku", f"seat {seat}: yakuman {got_ym}, the record {want_ym}"))
        else:
            if got != want:
                out.append(
                    (
                        "yaku",
                        f"seat {seat}: yaku {dict(sorted(got.items()))}, "
                        f"the record {dict(sorted(want.items()))}",
                    )
                )
            if win.score.han != sum(want.values()):
                out.append(("han", f"seat {seat}: {win.score.han} han, the record {sum(want.values())}"))
    if rec.fu is not None and win.score.fu != rec.fu:
        out.append(("fu", f"seat {seat}: {win.score.fu} fu, the record {rec.fu}"))
    if rec.points is not None:
        points = win_points(win)
        if points != rec.points:
            out.append(("points", f"seat {seat}: {points} points, the record {rec.points}"))
    if rec.pao_known:
        got_pao = [p.seat for p in win.pao if p.rule != "daiminkan_pao"]
        want_pao = [] if rec.pao is None else [rec.pao]
        if sorted(set(got_pao)) != want_pao:
            out.append(("pao", f"seat {seat}: pao {got_pao}, the record {want_pao}"))
    return out


def compare_hand(
    conv: Conventions,
    end: HandEnd,
    hr: HandRecord,
    rnd: Round,
    seg: Sequence[Event],
    scores: Sequence[int],
    draw: Mapping[str, Any] | None,
    recorded: Sequence[int] | None,
) -> list[Fact]:
    """Every way the end of a hand (``hr``, the round ``rnd`` as it ended, after the hand's events
    ``seg``, begun with ``scores``) differs from the record's ``end``. ``draw`` is the draw of the
    hand's settle request (the tenpai and nagashi seats tenbou found), ``recorded`` the deltas the
    record gives the hand."""
    if end.kind != hr.kind:
        return [Fact("kind", f"tenbou: {hr.kind}, the record: {end.kind}")]
    before = _after_deposits(scores, seg, conv.stick)
    out = _indicators(conv, end, hr, rnd, before)
    if hr.kind == "win":
        out.extend(compare_wins(conv, end, hr, seg, before))
    elif hr.kind == "chombo":
        offender = settled(hr).offender
        if end.offender is not None and end.offender != offender:
            out.append(Fact("kind", f"tenbou: seat {offender}'s chombo, the record: seat {end.offender}'s"))
    elif hr.kind == "abortive_draw":
        got_reason = settled(hr).reason or None
        if end.reason is not None and got_reason is not None and got_reason != end.reason:
            out.append(Fact("draw_reason", f"tenbou: {got_reason}, the record: {end.reason}"))
    else:
        assert draw is not None
        out.extend(_exhaustive(end, draw))
    if hr.kind != "win":
        out.extend(_shown(end, hr, rnd, seg, before))
    if recorded is not None and tuple(recorded) != hr.deltas:
        out.append(Fact("deltas", f"deltas {list(hr.deltas)}, the record {list(recorded)}"))
    return out


def _indicators(
    conv: Conventions, end: HandEnd, hr: HandRecord, rnd: Round, before: Sequence[int]
) -> list[Fact]:
    """The scores before the hand's payments, and the indicators the record lists for the hand."""
    out: list[Fact] = []
    if end.scores_before is not None and tuple(end.scores_before) != before:
        out.append(
            Fact(
                "scores",
                f"before the hand's payments: scores {list(before)}, the record {list(end.scores_before)}",
            )
        )
    if end.dora is not None and list(end.dora) != rnd.dora_markers:
        out.append(
            Fact(
                "dora",
                f"indicators {format_tiles(rnd.dora_markers)} shown, the record lists "
                f"{format_tiles(end.dora)}",
            )
        )
    if end.ura is not None and conv.ura_dora:
        # the hand's ura indicators: one per indicator shown when a riichi player won, else none
        wins = (hr.request or {}).get("wins", [])
        riichi = any(w.get("riichi") or w.get("double_riichi") for w in wins)
        if len(end.ura) != (len(rnd.dora_markers) if riichi else 0):
            who = "a riichi player won" if riichi else "no riichi player won"
            out.append(
                Fact(
                    "ura_dora",
                    f"{len(rnd.dora_markers)} indicators shown and {who}; the record lists ura indicators "
                    f"[{format_tiles(end.ura)}]",
                )
            )
    return out


def _exhaustive(end: HandEnd, draw: Mapping[str, Any]) -> list[Fact]:
    """An exhaustive draw's nagashi mangan and tenpai seats."""
    out: list[Fact] = []
    nagashi = draw.get("nagashi", [])
    if (end.reason == "nagashi_mangan") != bool(nagashi):
        out.append(
            Fact(
                "nagashi",
                f"tenbou: nagashi mangan for seats {nagashi}, the record: "
                + ("nagashi mangan" if end.reason == "nagashi_mangan" else "none"),
            )
        )
    if end.tenpai is not None and list(end.tenpai) != draw["tenpai"]:
        out.append(Fact("tenpai", f"tenbou: tenpai seats {draw['tenpai']}, the record {list(end.tenpai)}"))
    return out


def _shown(
    end: HandEnd, hr: HandRecord, rnd: Round, seg: Sequence[Event], before: Sequence[int]
) -> list[Fact]:
    """A draw's hands shown, the honba and sticks on the table, and the scores after it."""
    out: list[Fact] = []
    for seat, tiles in (end.shown or {}).items():
        held = rnd.seats[seat].hand
        if sort_tiles(tiles) != sort_tiles(held):
            out.append(
                Fact(
                    "hand",
                    f"seat {seat} holds {format_sorted(held)}, the record shows {format_sorted(tiles)}",
                )
            )
    for name, got, want in (
        ("honba", rnd.honba, end.honba),
        ("riichi_sticks", rnd.kyotaku, end.riichi_sticks),
    ):
        if want is not None and got != want:
            out.append(Fact(name, f"{name.replace('_', ' ')} {got}, the record {want}"))
    ryu = next((e for e in seg if isinstance(e, Ryukyoku)), None)
    if ryu is not None and ryu.scores is not None:
        after = [b + d for b, d in zip(before, hr.deltas, strict=True)]
        if list(ryu.scores) != after:
            out.append(Fact("scores", f"after the draw: scores {after}, the record {list(ryu.scores)}"))
    return out


def compare_wins(
    conv: Conventions, end: HandEnd, hr: HandRecord, seg: Sequence[Event], before: Sequence[int]
) -> list[Fact]:
    """The winners, then each win's differences (reproduced by its ``tenbou score`` request), with
    the scores after each win where the record gives them (``before``: the scores before the hand's
    payments)."""
    out: list[Fact] = []
    results = settled(hr).results
    got = sorted(r.score.situation.winner for r in results)
    if got != sorted(end.winners):
        out.append(Fact("winners", f"tenbou pays seats {got}, the record {sorted(end.winners)}"))
    by_winner = {r.score.situation.winner: r for r in results}
    request = hr.request or {}
    wins = {w["winner"]: w for w in request.get("wins", [])}
    horas = {e.actor: e for e in seg if isinstance(e, Hora)}
    running = list(before)
    for w in end.wins:
        result = by_winner.get(w.winner)
        fields = wins.get(w.winner)
        if result is None or fields is None:
            continue
        facts = _compare_win(w, result, conv.fold_kita)
        facts.extend(win_facts(conv, w, result, fields, request["honba"], horas.get(w.winner)))
        hora = horas.get(w.winner)
        running = [r + d for r, d in zip(running, result.deltas, strict=True)]
        if hora is not None and hora.scores is not None and list(hora.scores) != running:
            facts.append(
                (
                    "scores",
                    f"seat {w.winner}: scores after the win {running}, the record {list(hora.scores)}",
                )
            )
        out.extend(Fact(kind, detail, w.winner) for kind, detail in facts)
    return out


def win_facts(
    conv: Conventions,
    w: WinRecord,
    result: WinSettlement,
    fields: Mapping[str, Any],
    honba: int,
    hora: Hora | None,
) -> list[tuple[str, str]]:
    """(kind, detail) for each fact the record states of a win that differs from the engine's state
    as the win came (``fields``: the win of the hand's settle request, ``honba`` its honba): the
    hand, melds, kita, winning tile, indicators, honba and sticks, deltas."""
    out: list[tuple[str, str]] = []
    seat = w.winner
    if w.hand is not None and format_sorted(w.hand) != fields["hand"]:
        out.append(("hand", f"seat {seat} holds {fields['hand']}, the record {format_sorted(w.hand)}"))
    if w.melds is not None:
        got = sorted(_meld_key(m) for m in fields["melds"])
        want = sorted(_meld_key(m.to_dict()) for m in w.melds)
        if got != want:
            out.append(("melds", f"seat {seat}: melds {_melds_text(got)}, the record {_melds_text(want)}"))
    if w.kita is not None and w.kita != fields.get("kita", 0):
        out.append(("melds", f"seat {seat}: {fields.get('kita', 0)} kita, the record {w.kita}"))
    if hora is not None and hora.pai is not None and str(hora.pai) != fields["win_tile"]:
        out.append(("win_tile", f"seat {seat} wins on {fields['win_tile']}, the record {hora.pai}"))
    shown = fields["dora_indicators"]
    if w.dora is not None and [str(t) for t in w.dora] != shown:
        out.append(("dora", f"indicators {''.join(shown)}, the record {format_tiles(w.dora)}"))
    if conv.ura_dora and hora is not None:
        riichi = bool(fields.get("riichi") or fields.get("double_riichi"))
        ura = len(hora.ura_markers or ())
        # a riichi winner sees one ura indicator per indicator; Tenhou shows none to the others
        stated = hora.ura_markers is not None or conv.ura_riichi_only
        if (riichi and stated and ura != len(shown)) or (not riichi and conv.ura_riichi_only and ura):
            who = "in riichi" if riichi else "not in riichi"
            out.append(
                (
                    "ura_dora",
                    f"seat {seat}, {who}, with {len(shown)} indicators shown: the record gives {ura} "
                    "ura indicators",
                )
            )
    if w.honba is not None and w.honba != honba:
        out.append(("honba", f"seat {seat}: honba {honba}, the record {w.honba}"))
    if w.riichi_sticks is not None:
        got_sticks = sum(p.points for p in result.payments if p.kind is _STICKS) // conv.stick
        if got_sticks != w.riichi_sticks:
            out.append(
                (
                    "riichi_sticks",
                    f"seat {seat} collects {got_sticks} riichi sticks, the record {w.riichi_sticks}",
                )
            )
    if w.limit_known and w.limit != _limit(result):
        out.append(("limit", f"seat {seat}: limit {_limit(result)}, the record {w.limit}"))
    if w.stated_han is not None and w.stated_han != result.score.han:
        out.append(("han", f"seat {seat}: {result.score.han} han, the record's value text {w.stated_han}"))
    if w.deltas is not None and w.deltas != result.deltas:
        out.append(
            ("deltas", f"seat {seat}'s win: deltas {list(result.deltas)}, the record {list(w.deltas)}")
        )
    return out


def _meld_key(m: Mapping[str, Any]) -> str:
    """A meld of a request in a canonical text: type, its tiles in order, who gave it, the called tile."""
    tiles = format_sorted(parse_tiles(str(m["tiles"])))
    return f"{m['type']}:{tiles}@{m.get('from', '')}={m.get('called', '')}"


def _melds_text(keys: Sequence[str]) -> str:
    return "[" + " ".join(keys) + "]"
