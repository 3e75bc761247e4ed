"""One canonical text of a hand, written wherever tenbou writes a hand: ``str(hand)`` (the
concealed tiles sorted, a red five after the plain fives of its suit, then ``+`` and the winning
tile, then the melds in call order with their tiles sorted), read back by ``Hand.parse`` as the
same hand, whatever order the tiles were first given in; the command line, its errors and the
record readers write it too."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tenbou.hand import Hand, Meld, MeldType
from tenbou.tiles import Tile, format_sorted, format_tiles, parse_tiles, sort_tiles, tile_order

from tenbou.api import request_hand, score
from tenbou.cli import main
from tenbou.errors import NotationError, TenbouError
from tenbou.io.mjlog import agari_to_request, parse_mjlog
from tenbou.io.mjlog.read import _EXAMPLE

#: the kinds of the fives that have red copies
FIVES = (4, 13, 22)


def _tile(kind: int, red: bool) -> Tile:
    return Tile(kind, red and kind in FIVES)


@st.composite
def hands(draw: st.DrawFn) -> tuple[Hand, Hand]:
    """A hand as :class:`Hand` takes it (the right number of tiles, at most four of a kind: not
    necessarily a winning one), with melds of every type, red fives, a called tile or not; and the
    same hand built from its tiles and each meld's tiles shuffled."""
    counts = [0] * 34
    melds: list[Meld] = []
    shuffled_melds: list[Meld] = []
    rng = random.Random(draw(st.integers(0, 2**32)))
    for _ in range(draw(st.integers(0, 4))):
        mtype = draw(st.sampled_from(list(MeldType)))
        if mtype is MeldType.CHI:
            start = draw(st.sampled_from([k for k in range(27) if k % 9 <= 6]))
            kinds = [start, start + 1, start + 2]
        else:
            kinds = [draw(st.integers(0, 33))] * (3 if mtype is MeldType.PON else 4)
        if any(counts[k] + kinds.count(k) > 4 for k in set(kinds)):
            continue
        for k in kinds:
            counts[k] += 1
        tiles = [_tile(k, draw(st.booleans())) for k in kinds]
        seat = None if mtype is MeldType.ANKAN else draw(st.integers(0, 3))
        called = None
        if mtype is not MeldType.ANKAN and draw(st.booleans()):
            called = draw(st.sampled_from(tiles))
        melds.append(Meld(mtype, tuple(tiles), seat, called))
        rng.shuffle(tiles)
        shuffled_melds.append(Meld(mtype, tuple(tiles), seat, called))
    left = [k for k in range(34) for _ in range(4 - counts[k])]
    picked = draw(st.permutations(left))[: 14 - 3 * len(melds)]
    tiles = [_tile(k, draw(st.booleans())) for k in picked]
    win, concealed = tiles[0], tiles[1:]
    hand = Hand(tuple(concealed), tuple(melds), win)
    rng.shuffle(concealed)
    return hand, Hand(tuple(concealed), tuple(shuffled_melds), win)


@settings(max_examples=400, deadline=None)
@given(hands())
def test_a_hand_reads_back_from_its_text(pair: tuple[Hand, Hand]) -> None:
    hand, shuffled = pair
    text = str(hand)
    assert Hand.parse(text) == hand
    assert str(Hand.parse(text)) == text
    assert eval(repr(hand)) == hand
    # the order the tiles were given in makes no difference: the same hand, the same text
    assert shuffled == hand and hash(shuffled) == hash(hand) and str(shuffled) == text
    # the text is the canonical one: the concealed tiles sorted, then the winning tile, then the melds
    head, win, *melds = text.split(" ")
    concealed = parse_tiles(head)
    assert list(concealed) == sorted(concealed, key=tile_order) and head == format_tiles(concealed)
    assert win == f"+{hand.win_tile}"
    assert melds == [m.notation() for m in hand.melds]
    for m, written in zip(hand.melds, melds, strict=True):
        meld_tiles = parse_tiles(written.partition(":")[2].partition("@")[0].partition("=")[0])
        assert list(meld_tiles) == sorted(meld_tiles, key=tile_order) == list(m.tiles)
    # a request's fields, written back, are the same hand (the form of records and the JSON API)
    assert request_hand(hand.request_fields()) == hand


def test_the_canonical_order() -> None:
    """By kind (m, p, s, then the honours), a red five right after the plain fives of its suit."""
    tiles = parse_tiles("7z0m5m9s1p5m4m1z0s5s")
    assert [str(t) for t in sort_tiles(tiles)] == ["4m", "5m", "5m", "0m", "1p", "5s", "0s", "9s", "1z", "7z"]
    assert format_sorted(tiles) == "4550m1p509s17z"
    assert str(Hand.parse("0m55m406p77z1z123s9s +1z")) == "550m406p1239s177z +1z"


@settings(max_examples=300)
@given(st.lists(st.tuples(st.integers(0, 33), st.booleans()), max_size=40))
def test_sort_tiles_is_a_stable_sort_by_tile_order(pairs: list[tuple[int, bool]]) -> None:
    """Short runs (a hand, a meld) are sorted by insertion, longer ones by ``list.sort``: both give
    what a stable sort by :func:`tile_order` gives, equal tiles kept in the order given."""
    tiles = [_tile(kind, red) for kind, red in pairs]
    tagged = sorted(enumerate(tiles), key=lambda it: (tile_order(it[1]), it[0]))
    got = sort_tiles(tiles)
    assert got == tuple(t for _, t in tagged)
    # (equal tiles are equal objects or not: the places of the objects given are kept)
    assert [id(t) for t in got] == [id(t) for _, t in tagged]


def test_the_issue_hand_is_written_sorted() -> None:
    hand = Hand.parse("123m456p789s55s23s +4s")
    assert str(hand) == "123m456p2355789s +4s"
    assert hand == Hand.parse("123m456p2355789s +4s")
    assert Meld.parse("chi:435m@3") == Meld.parse("chi:345m@3")
    assert str(Meld.parse("pon:055p@1=0p")) == "pon:550p@1=0p"
    assert str(Meld.parse("kakan:0555m@2")) == "kakan:5550m@2"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_command_line_writes_the_canonical_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(["score", "123m456p789s55s23s +4s", "--riichi"], capsys)
    assert code == 0 and "Hand      123m456p2355789s +4s\n" in out
    # a request file written in another order: the same text
    req = tmp_path / "r.json"
    req.write_text(
        '{"winner": 1, "hand": "55p32m", "win_tile": "4m", "melds": ['
        '{"type": "pon", "tiles": "555z", "from": 2}, {"type": "pon", "tiles": "666z", "from": 0}, '
        '{"type": "daiminkan", "tiles": "7777z", "from": 3}]}'
    )
    code, out, _ = run(["score", str(req)], capsys)
    assert code == 0 and "Hand      23m55p +4m pon:555z@2 pon:666z@0 kan:7777z@3\n" in out
    assert "(the call that made the yakuman certain, melds[2] kan:7777z@3)" in out


def test_errors_quote_the_canonical_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["score", "123m456p789s5s23s +4s"], capsys)
    assert code == 2
    assert err == (
        "tenbou: error: with 0 meld(s) the hand must hold 13 concealed tiles besides the winning tile, "
        "not 12 in '123m456p235789s' [notation]\n"
    )
    with pytest.raises(NotationError, match=r"5 copies of 1m in one hand \(there are only four\) in '11111m"):
        Hand.parse("23456p1m789s1111m +1z")
    # a hand with no yaku, given in another order, is quoted in its canonical text
    request = {"winner": 0, "from": 1, "hand": "99m789s111p32m", "win_tile": "4m",
               "melds": [{"type": "chi", "tiles": "312s", "from": 3}]}  # fmt: skip
    with pytest.raises(TenbouError) as refused:
        score(request)
    assert str(refused.value) == "2399m111p789s +4m chi:123s@3 has no yaku (dora do not count as yaku)"


def test_a_record_reader_writes_the_canonical_text() -> None:
    """An mjlog win's request: Tenhou's 136-ids put a red five before the plain ones; the
    request's hand puts it after, as everywhere else."""
    game = parse_mjlog(_EXAMPLE, source="example.xml")
    rnd, win = next(game.wins())
    assert agari_to_request(win, rnd.init, game.game_type)["hand"] == "123m566778p3566s"
    hai = tuple(52 if i == 57 else i for i in win.hai)  # a 6p for the red 5p, beside the plain 5p (53)
    request = agari_to_request(replace(win, hai=hai), rnd.init, game.game_type)
    assert request["hand"] == "123m506778p3566s"
