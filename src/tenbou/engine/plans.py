"""What the check of a round's event finds for its apply to carry out: the typed plans.

:meth:`Round.check_event <tenbou.engine.round.Round.check_event>` judges an event against the
state and changes nothing; it returns the plan of the event, and :meth:`Round.apply_checked
<tenbou.engine.round.Round.apply_checked>` carries out that plan and nothing else. Each event type
has one plan type:

======================================================  ============================================
event                                                   plan
======================================================  ============================================
``tsumo``, ``dahai``, ``ankan``, ``nukidora``,          ``None``
``dora``, ``reach``, ``reach_accepted``, ``end_kyoku``
``chi``, ``pon``, ``daiminkan``                         :class:`CallPlan`
``kakan``                                               :class:`KakanPlan`
``hora``                                                :class:`WinPlan`
``ryukyoku``                                            :class:`~tenbou.settle.payment.Settlement`
``start_kyoku`` (inside a hand: always refused)         (none)
======================================================  ============================================

A :class:`WinPlan` also outlives its apply: it is the settlement of the wins of a hand so far,
kept in :attr:`Round.pending <tenbou.engine.round.Round.pending>` while another ron on the same
tile may follow (and pickled with it: its fields keep their order, and it was called ``_Win``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeAlias

from ..core.hand import Meld
from ..core.scoring import HandScore
from ..core.values import DataRecord
from ..settle.pao import Liability
from ..settle.payment import Settlement

__all__ = ["CallPlan", "KakanPlan", "RoundPlan", "WinPlan"]


@dataclass(slots=True)
class WinPlan(DataRecord):
    """A hora as checked: the request fields of the win, the request of every win so far (it
    reproduces them with ``tenbou settle``) and their settlement."""

    fields: dict[str, Any]
    request: dict[str, Any]
    settlement: Settlement
    #: each win so far, scored, with its liabilities
    scored: list[tuple[HandScore, tuple[Liability, ...]]]


@dataclass(frozen=True, slots=True)
class CallPlan(DataRecord):
    """A chi, pon or daiminkan as checked: the meld it makes, whether a daiminkan's caller was
    furiten (for daiminkan pao under ``daiminkan_pao_furiten``), and, for the daiminkan that ends
    the hand as a suukantsu dealt in (``suukantsu_pao_timing = "fourth_kan"``), that win."""

    meld: Meld
    caller_furiten: bool
    deal_in: WinPlan | None = None


@dataclass(frozen=True, slots=True)
class KakanPlan(DataRecord):
    """A kakan as checked: the index, among the caller's melds, of the pon it extends."""

    pon_index: int


#: the plan of any event of a round (see the module docstring)
RoundPlan: TypeAlias = CallPlan | KakanPlan | WinPlan | Settlement | None
