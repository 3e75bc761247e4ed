"""Replay speed of the round/game engine, parsing included, on one core.

Usage: ``python benchmarks/bench_replay.py [--games 40] [--seed 1]``

Greedy self-play agents play ``--games`` hanchan (four players, Tenhou rules);
each game is written as mjai JSON Lines. What is timed is the replay of those
lines: JSON parsing, event decoding, and the :class:`tenbou.engine.game.Game` that
validates every event and settles every hand (scoring and payments included).
Printed: games per second, events per second, events per game, and the
target of the issue (20 whole hanchan per second).
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from tenbou.engine.events import events_from_lines, events_to_lines
from tenbou.engine.game import Game
from tenbou.engine.table import GreedyAgent, Table
from tenbou.rules import get_rules


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=40, help="hanchan to replay (default 40)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3, help="timed passes; the best is kept")
    args = ap.parse_args(argv)
    rules = get_rules("tenhou")
    t = time.perf_counter()
    logs = []
    hands = 0
    for g in range(args.games):
        seed = args.seed * 1000 + g
        agents = [GreedyAgent(random.Random(seed * 7 + i)) for i in range(4)]
        table = Table(rules, seed, agents=agents)  # type: ignore[arg-type]
        table.play()
        hands += len(table.game.hands)
        logs.append(events_to_lines(table.events))
    played = time.perf_counter() - t
    events = sum(len(x) for x in logs)
    print(f"{args.games} hanchan played by greedy agents in {played:.1f} s: {hands} hands, {events} events")
    best = float("inf")
    for _ in range(args.repeat):
        t = time.perf_counter()
        for lines in logs:
            game = Game(rules)
            for i, ev in enumerate(events_from_lines(lines)):
                game.apply(ev, i)
            assert game.ended
        best = min(best, time.perf_counter() - t)
    print(
        f"replay (mjai lines -> events -> Game), best of {args.repeat}: {args.games / best:,.1f} games/s, "
        f"{events / best:,.0f} events/s, {events / args.games:,.0f} events per game "
        f"(target: 20 hanchan/s on one core)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
