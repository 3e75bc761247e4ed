"""Made tests/data/pickles-io-0.1.0.bin once, at 5e4d2ab, before the mjlog modules became the
package ``tenbou.io.mjlog`` (issue 40), and is kept to say how: never run again, or the fixture
would no longer be a pickle made *before*. ``python tests/data/make_io_pickles.py`` from the
repository's root of that commit.

What it holds (protocol 4): the structure ``parse_mjlog`` reads from ``tests/test_io_tenhou.HAND``
(:class:`MjlogGame` with its rounds, ``INIT``, calls and wins: classes of
``tenbou.io.mjlog_read``, a :class:`GameType` of ``tenbou.io.tenhou_rules``, a :class:`Ten` of
``tenbou.io.mjlog_codes``), one decoded call (:class:`TenhouMeld`), and the text it was read
from, so that a test can read it again and compare."""

from __future__ import annotations

import pickle
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tenbou.io.mjlog_codes import decode_meld  # noqa: E402
from tenbou.io.mjlog_read import parse_mjlog  # noqa: E402
from tests.test_io_tenhou import HAND  # noqa: E402


def main() -> None:
    data = {"text": HAND, "game": parse_mjlog(HAND, "hand.xml"), "meld": decode_meld(28778, True)}
    out = Path(__file__).with_name("pickles-io-0.1.0.bin")
    out.write_bytes(pickle.dumps(data, protocol=4))


if __name__ == "__main__":
    main()
