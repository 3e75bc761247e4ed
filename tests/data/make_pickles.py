"""Made tests/data/pickles-0.1.0.bin once, before the package was laid out in layers (issue 40;
the flat package of version 0.1.0), and is kept to say how: never run again, or the fixture
would no longer be a pickle made *before*. ``python tests/data/make_pickles.py`` from the
repository's root, pure Python (an editable install).

What it holds (protocol 4): the values of tests/test_copies.py, and one self-played tonpuu game
(Tenhou rules, seed 17: it has a win) stopped at three moments: right after a ``hora`` (the round holds its
wins, not yet settled), right after the first ``end_kyoku``, and at its end; with the game's
events, so that the loaded games can play on."""

from __future__ import annotations

import pickle
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.test_copies import VALUES  # noqa: E402

from tenbou.engine.events import EndKyoku, Hora  # noqa: E402
from tenbou.engine.game import Game  # noqa: E402
from tenbou.engine.table import play_game  # noqa: E402
from tenbou.rules import get_rules  # noqa: E402


def main() -> None:
    rules = get_rules("tenhou")
    events = play_game(rules, seed=17, length="tonpuu")
    hora = next(i for i, e in enumerate(events) if isinstance(e, Hora))
    end = next(i for i, e in enumerate(events) if isinstance(e, EndKyoku))
    games = {}
    for name, upto in (("after hora", hora + 1), ("after end_kyoku", end + 1), ("finished", len(events))):
        game = Game(rules, length="tonpuu")
        for i, ev in enumerate(events[:upto]):
            game.apply(ev, i)
        games[name] = (upto, game)
    data = {"values": VALUES, "events": events, "games": games}
    out = Path(__file__).with_name("pickles-0.1.0.bin")
    out.write_bytes(pickle.dumps(data, protocol=4))
    print(f"{out}: {out.stat().st_size} bytes")


if __name__ == "__main__":
    main()
