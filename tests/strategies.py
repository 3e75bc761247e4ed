"""Hypothesis strategies: tiles, mpsz text, and random winning hands."""

from __future__ import annotations

from hypothesis import strategies as st

from tenbou.core.hand import Hand, Meld, MeldType, Situation
from tenbou.core.tiles import Tile, Wind

tiles = st.builds(
    lambda k, red: Tile(k, red and k in (4, 13, 22)),
    st.integers(0, 33),
    st.booleans(),
)


@st.composite
def winning_hands(draw: st.DrawFn, allow_melds: bool = True) -> tuple[Hand, Situation]:
    """A complete hand (4 sets and a pair, or seven pairs) with a valid situation."""
    counts = [0] * 34
    sets: list[tuple[str, int]] = []
    if not allow_melds or draw(st.integers(0, 9)) != 0:
        specs = draw(st.lists(st.tuples(st.booleans(), st.integers(0, 33)), min_size=4, max_size=4))
        for want_run, k in specs:
            # take the wanted set if the tiles are left, else the next kind that still fits
            for j in range(34):
                kk = (k + j) % 34
                if want_run and kk < 27 and kk % 9 <= 6 and all(counts[kk + i] < 4 for i in range(3)):
                    for i in range(3):
                        counts[kk + i] += 1
                    sets.append(("run", kk))
                    break
                if not want_run and counts[kk] <= 1:
                    counts[kk] += 3
                    sets.append(("trip", kk))
                    break
            else:  # pragma: no cover - there is always room for a triplet
                raise AssertionError("no set fits")
        pair = draw(st.sampled_from([k for k in range(34) if counts[k] <= 2]))
        counts[pair] += 2
    else:  # seven pairs
        pair = -1
        for k in draw(st.lists(st.integers(0, 33), min_size=7, max_size=7, unique=True)):
            counts[k] += 2
    winner = draw(st.integers(0, 3))
    melds: list[Meld] = []
    concealed: list[int] = []
    if pair >= 0:
        n_melds = draw(st.integers(0, 4)) if allow_melds else 0
        for i, (kind, k) in enumerate(sets):
            if i < n_melds:
                if kind == "run":
                    src = (winner - 1) % 4
                    melds.append(Meld(MeldType.CHI, (Tile(k), Tile(k + 1), Tile(k + 2)), src))
                else:
                    src = draw(st.sampled_from([s for s in range(4) if s != winner]))
                    mtype = draw(st.sampled_from([MeldType.PON, MeldType.DAIMINKAN, MeldType.ANKAN]))
                    if mtype is not MeldType.PON and counts[k] == 3:
                        counts[k] += 1
                        melds.append(Meld(mtype, (Tile(k),) * 4, None if mtype is MeldType.ANKAN else src))
                    else:
                        melds.append(Meld(MeldType.PON, (Tile(k),) * 3, src))
            else:
                concealed += [k, k + 1, k + 2] if kind == "run" else [k] * 3
        concealed += [pair, pair]
    else:
        concealed = [k for k in range(34) for _ in range(counts[k])]
    win = draw(st.sampled_from(sorted(set(concealed))))
    concealed.remove(win)
    hand = Hand(tuple(Tile(k) for k in sorted(concealed)), tuple(melds), Tile(win))
    tsumo = draw(st.booleans())
    discarder = None if tsumo else draw(st.sampled_from([s for s in range(4) if s != winner]))
    closed = hand.is_closed
    riichi = closed and draw(st.booleans())
    situation = Situation(
        dealer=draw(st.integers(0, 3)),
        winner=winner,
        discarder=discarder,
        round_wind=draw(st.sampled_from([Wind.EAST, Wind.SOUTH])),
        riichi=riichi,
        ippatsu=riichi and draw(st.booleans()),
        haitei=tsumo and draw(st.integers(0, 9)) == 0,
        houtei=not tsumo and draw(st.integers(0, 9)) == 0,
    )
    return hand, situation
