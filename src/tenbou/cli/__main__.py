"""``python -m tenbou.cli``: the same as the ``tenbou`` command (and ``python -m tenbou``)."""

import sys

from .main import main

sys.exit(main())
