"""Readers of game records: :mod:`tenbou.io.tenhou` reads Tenhou mjlog XML.

136-tile ids and record formats stay inside this package; what leaves it is
tenbou's own vocabulary (:class:`~tenbou.tiles.Tile`, :class:`~tenbou.hand.Meld`)
or a JSON request for :func:`tenbou.api.score`.
"""
