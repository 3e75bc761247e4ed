"""A bot for tests/test_match.py, speaking mjai.app's protocol: it discards what it draws and
passes on everything else, except once: on its own turn at or after its ``AT``-th answer (counted
from 1, ``start_game`` included; 0: never) it misbehaves as ``MODE`` says, and leaves the file
``MARKER`` so that, restarted, it behaves (``-``: no marker, it misbehaves in every process). Run as
``python matchbot.py MODE AT MARKER SEAT`` (the referee appends SEAT). Standard library only.

MODE: ``good``; ``timeout`` (sleeps 30 s); ``garbage`` (a line that is not JSON); ``shape``
(``{"type": "dahai"}``); ``illegal`` (a win it does not have); ``none`` (passes on its own turn);
``crash`` (exits with status 3, a line on stderr first); ``flood`` (a 200,000-byte line with no
end); ``chatter`` (two answers to one message); ``mute`` (reads on, never answers, from the start);
``binary`` (bytes that are not UTF-8); ``hang_start`` (sleeps at ``start_game``, every time).
"""

from __future__ import annotations

import json
import os
import sys
import time


def main() -> None:
    mode, at, marker, seat = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    if marker != "-" and os.path.exists(marker):
        mode = "good"
    answers = 0
    for line in sys.stdin:
        events = json.loads(line)
        answers += 1
        last = events[-1] if events else {}
        if last.get("type") == "start_game" and mode == "hang_start":
            time.sleep(30)
        if mode == "mute":
            continue
        answer: object = {"type": "none"}
        if last.get("type") == "tsumo" and last.get("actor") == seat:
            answer = {"type": "dahai", "actor": seat, "pai": last["pai"], "tsumogiri": True}
        if at and answers >= at and "dahai" in str(answer) and mode != "good":
            if marker != "-":
                with open(marker, "w") as f:
                    f.write(mode)
            if mode == "timeout":
                time.sleep(30)
            elif mode == "garbage":
                print("this is not json", flush=True)
                continue
            elif mode == "shape":
                answer = {"type": "dahai"}
            elif mode == "illegal":
                answer = {"type": "hora", "actor": seat, "target": seat}
            elif mode == "none":
                answer = {"type": "none"}
            elif mode == "crash":
                print("matchbot: crashing on purpose", file=sys.stderr, flush=True)
                sys.exit(3)
            elif mode == "flood":
                sys.stdout.write("x" * 200_000)
                sys.stdout.flush()
                time.sleep(30)
            elif mode == "chatter":  # (in one write: both lines reach the referee at once)
                sys.stdout.write(json.dumps(answer) + "\n")
            elif mode == "binary":
                sys.stdout.buffer.write(b'{"type":"none","x":"\xff\xfe"}\n')
                sys.stdout.flush()
                continue
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
