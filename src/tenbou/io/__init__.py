"""Readers and writers of game records, one package a format: Tenhou mjlog XML
(:mod:`tenbou.io.mjlog`, all of its names also in :mod:`tenbou.io.tenhou`), tenhou.net/6 JSON
(:mod:`tenbou.io.tenhou6`) and mjai JSON Lines (:mod:`tenbou.io.mjai`). Each reads a file into
:class:`~tenbou.io.record.GameRecord` values and writes them back, and keeps its words (draw
reasons, yaku names, limits) in one table each, its ``vocab`` module, mapped from tenbou's names
(mjai's words are the engine's: :mod:`tenbou.engine.events`). :mod:`tenbou.io.source` reads a
file's bytes once, within a size limit, and :mod:`tenbou.io.read` tells the formats apart and
reads any of them (:mod:`tenbou.verify.convert` writes them, after replaying each game);
:mod:`tenbou.io.files` writes output files.

136-tile ids and record formats stay inside this package; what leaves it is
tenbou's own vocabulary (:class:`~tenbou.core.tiles.Tile`, :class:`~tenbou.core.hand.Meld`, mjai events)
or a JSON request for :func:`tenbou.api.score`. A record that cannot be read raises
:class:`~tenbou.errors.LogFormatError` naming the file, the line or element, and the field.
"""
