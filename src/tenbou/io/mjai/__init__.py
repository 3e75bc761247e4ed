"""mjai JSON Lines records (Mortal, mjai-reviewer, tenbou's self-play): games in, games out.

:mod:`tenbou.io.mjai.read` reads a record's games (:func:`mjai_records`, each line read strictly
by :func:`read_json`), :mod:`tenbou.io.mjai.write` writes games (:func:`write_mjai`) in the
strict form of Mortal's libriichi.
"""

from __future__ import annotations

from .read import mjai_records, read_json
from .write import write_mjai

__all__ = ["mjai_records", "read_json", "write_mjai"]
