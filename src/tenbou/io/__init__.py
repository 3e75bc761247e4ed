"""Readers and writers of game records: Tenhou mjlog XML (:mod:`tenbou.io.mjlog.read`,
:mod:`tenbou.io.mjlog.write`, their codes in :mod:`tenbou.io.mjlog.codes` and the room rules in
:mod:`tenbou.io.mjlog.rules`, all named in :mod:`tenbou.io.tenhou`), tenhou.net/6 JSON
(:mod:`tenbou.io.tenhou6`) and mjai JSON Lines (:mod:`tenbou.io.mjai`), as
:class:`~tenbou.io.record.GameRecord` values; :mod:`tenbou.io.source` reads a file's bytes once,
within a size limit, and :mod:`tenbou.io.read` tells the formats apart and reads any of them
(:mod:`tenbou.verify.convert` writes them, after replaying each game).

136-tile ids and record formats stay inside this package; what leaves it is
tenbou's own vocabulary (:class:`~tenbou.core.tiles.Tile`, :class:`~tenbou.core.hand.Meld`, mjai events)
or a JSON request for :func:`tenbou.api.score`. A record that cannot be read raises
:class:`~tenbou.errors.LogFormatError` naming the file, the line or element, and the field.
"""
