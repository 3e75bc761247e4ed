"""The games of the score sheet, kept in an embedded SQLite database (the standard library's
:mod:`sqlite3`): each game's setup (rules and overrides, players, names, title), its creation,
its ordered hand ends as they were entered (:mod:`tenbou.web.sheet`) and, where the players
ended the game by their choice, the hand after which they did; never a derived number. The
database is opened in WAL mode; every write is one transaction.

Each game has a ``version``, raised by every write. A write names the version it read and is
refused with :class:`ConflictError` when the game has changed since, so that two browser tabs never
silently overwrite each other.

>>> import tempfile, pathlib
>>> store = GameStore(pathlib.Path(tempfile.mkdtemp()) / "games.sqlite3")
>>> game = store.create({"rules": "tenhou", "players": 4, "names": ["", "", "", ""], "title": ""})
>>> game.version, game.hands
(1, [])
>>> store.write(game.id, 1, [{"request": {"draw": {"kind": "abortive"}}, "riichi": []}], {}, end=None).version
2
>>> store.write(game.id, 1, [], {}, end=None)
Traceback (most recent call last):
...
tenbou.web.store.ConflictError: the game was changed elsewhere (it is at version 2, this change was ...
"""

from __future__ import annotations

import json
import os
import re
import secrets
import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ClassVar, Final

from ..errors import TenbouError

__all__ = ["ConflictError", "GameStore", "NoSuchGameError", "StoredGame", "default_db_path"]

_ID: Final = re.compile(r"[0-9a-f]{12}")
_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    setup TEXT NOT NULL,
    summary TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS hands (
    game TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (game, position)
);
CREATE TABLE IF NOT EXISTS ends (
    game TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    after INTEGER NOT NULL
);
"""


class ConflictError(TenbouError):
    """A write made on a version of a game that is no longer the latest (HTTP 409)."""

    default_code: ClassVar[str] = "conflict"


class NoSuchGameError(TenbouError):
    """A game id that the database does not have (HTTP 404)."""

    default_code: ClassVar[str] = "not_found"


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game as kept: its setup, its hands and its end as entered (``end``: the index of the hand
    after which the players ended it, or ``None``), with its version."""

    id: str
    version: int
    created: str
    updated: str
    setup: dict[str, Any]
    hands: list[dict[str, Any]]
    summary: dict[str, Any]
    end: int | None = None


def default_db_path() -> Path:
    """``$XDG_DATA_HOME/tenbou/games.sqlite3``, or ``~/.local/share/tenbou/games.sqlite3``."""
    base = os.environ.get("XDG_DATA_HOME") or ""
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".local" / "share"
    return root / "tenbou" / "games.sqlite3"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


class GameStore:
    """The games in one SQLite file, created (with its folder) on first use."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._ready = False
        self._lock = threading.Lock()

    @contextmanager
    def _connect(self, write: bool = False) -> Iterator[sqlite3.Connection]:
        with self._lock:
            if not self._ready:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                con = sqlite3.connect(self.path, timeout=10)
                try:
                    con.execute("PRAGMA journal_mode=WAL")
                    con.executescript(_SCHEMA)
                finally:
                    con.close()
                self._ready = True
        con = sqlite3.connect(self.path, timeout=10, isolation_level=None)
        try:
            con.execute("PRAGMA foreign_keys=ON")
            con.execute("PRAGMA synchronous=NORMAL")
            if write:
                con.execute("BEGIN IMMEDIATE")
                try:
                    yield con
                except BaseException:
                    con.execute("ROLLBACK")
                    raise
                con.execute("COMMIT")
            else:
                yield con
        finally:
            con.close()

    @staticmethod
    def check_id(game_id: str) -> str:
        if not _ID.fullmatch(game_id):
            raise NoSuchGameError(f"no game {game_id[:40]!r} (a game id is 12 hex digits)")
        return game_id

    def create(
        self,
        setup: Mapping[str, Any],
        summary: Mapping[str, Any] | None = None,
        hands: Sequence[Mapping[str, Any]] = (),
        end: int | None = None,
    ) -> StoredGame:
        """A new game (with no hands, or ``hands`` and their ``end``: an import), at version 1, in
        one transaction."""
        now = _now()
        game_id = secrets.token_hex(6)
        with self._connect(write=True) as con:
            con.execute(
                "INSERT INTO games (id, version, created, updated, setup, summary) VALUES (?, 1, ?, ?, ?, ?)",
                (game_id, now, now, _dumps(setup), _dumps(summary or {})),
            )
            con.executemany(
                "INSERT INTO hands (game, position, entry) VALUES (?, ?, ?)",
                [(game_id, i, _dumps(h)) for i, h in enumerate(hands)],
            )
            self._write_end(con, game_id, end)
        return StoredGame(
            game_id, 1, now, now, dict(setup), [dict(h) for h in hands], dict(summary or {}), end
        )

    def get(self, game_id: str) -> StoredGame:
        self.check_id(game_id)
        with self._connect() as con:
            row = con.execute(
                "SELECT version, created, updated, setup, summary FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            if row is None:
                raise NoSuchGameError(f"no game {game_id!r} (it was deleted, or is in another database)")
            hands = [
                json.loads(entry)
                for (entry,) in con.execute(
                    "SELECT entry FROM hands WHERE game = ? ORDER BY position", (game_id,)
                )
            ]
            ended = con.execute("SELECT after FROM ends WHERE game = ?", (game_id,)).fetchone()
        version, created, updated, setup, summary = row
        end = None if ended is None else int(ended[0])
        return StoredGame(
            game_id, version, created, updated, json.loads(setup), hands, json.loads(summary), end
        )

    def list(self) -> list[dict[str, Any]]:
        """Every game, the latest changed first: id, version, created, updated, setup, summary."""
        with self._connect() as con:
            rows = con.execute(
                "SELECT id, version, created, updated, setup, summary FROM games ORDER BY updated DESC, id"
            ).fetchall()
        return [
            {
                "id": game_id,
                "version": version,
                "created": created,
                "updated": updated,
                "setup": json.loads(setup),
                "summary": json.loads(summary),
            }
            for game_id, version, created, updated, setup, summary in rows
        ]

    def write(
        self,
        game_id: str,
        version: int,
        hands: Sequence[Mapping[str, Any]],
        summary: Mapping[str, Any],
        *,
        end: int | None,
    ) -> StoredGame:
        """Replace the game's hands (a checked list) and its end (the hand after which the players
        ended it, or ``None``) if the game is still at ``version``."""
        self.check_id(game_id)
        now = _now()
        with self._connect(write=True) as con:
            self._check_version(con, game_id, version)
            con.execute(
                "UPDATE games SET version = version + 1, updated = ?, summary = ? WHERE id = ?",
                (now, _dumps(summary), game_id),
            )
            con.execute("DELETE FROM hands WHERE game = ?", (game_id,))
            con.executemany(
                "INSERT INTO hands (game, position, entry) VALUES (?, ?, ?)",
                [(game_id, i, _dumps(h)) for i, h in enumerate(hands)],
            )
            self._write_end(con, game_id, end)
        return self.get(game_id)

    def delete(self, game_id: str, version: int) -> None:
        self.check_id(game_id)
        with self._connect(write=True) as con:
            self._check_version(con, game_id, version)
            con.execute("DELETE FROM hands WHERE game = ?", (game_id,))
            con.execute("DELETE FROM ends WHERE game = ?", (game_id,))
            con.execute("DELETE FROM games WHERE id = ?", (game_id,))

    @staticmethod
    def _write_end(con: sqlite3.Connection, game_id: str, end: int | None) -> None:
        con.execute("DELETE FROM ends WHERE game = ?", (game_id,))
        if end is not None:
            con.execute("INSERT INTO ends (game, after) VALUES (?, ?)", (game_id, end))

    @staticmethod
    def _check_version(con: sqlite3.Connection, game_id: str, version: int) -> None:
        row = con.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise NoSuchGameError(f"no game {game_id!r} (it was deleted, or is in another database)")
        if row[0] != version:
            raise ConflictError(
                f"the game was changed elsewhere (it is at version {row[0]}, this change was made on "
                f"version {version}): reload it"
            )
