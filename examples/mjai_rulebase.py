"""mjai.app's reference bot (``RulebaseBot``, from the ``mjai`` package on PyPI) as a bot process
for ``tenbou match``: started as ``PYTHON mjai_rulebase.py SEAT``, as mjai.app starts a bot.

Run it with the Python of a virtual environment that holds the ``mjai`` package (it pins an old
``mahjong``; keep it away from tenbou's)::

    python3 -m venv /opt/mjai && /opt/mjai/bin/pip install mjai
    tenbou match efficient "/opt/mjai/bin/python examples/mjai_rulebase.py" greedy random

(docs/match.md, "A worked example").
"""

import sys

from mjai.bot.rulebase import RulebaseBot

RulebaseBot(player_id=int(sys.argv[1])).start()
