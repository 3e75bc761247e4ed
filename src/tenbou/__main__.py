"""``python -m tenbou``: the same as the ``tenbou`` command."""

import sys

from .cli import main

sys.exit(main())
