"""The games of the score sheet, kept in an embedded SQLite database (the standard library's
:mod:`sqlite3`): each game's setup (rules and overrides, players, names, title), its creation,
its ordered hand ends as they were entered (:mod:`tenbou.web.sheet`) and, where the players
ended the game by their choice, the hand after which they did; never a derived number. The
database is opened in WAL mode; every write is one transaction.

Each game has a ``version``, raised by every write. A write names the version it read and is
refused with :class:`ConflictError` when the game has changed since, so that two browser tabs never
silently overwrite each other; it answers with the game as it committed it.

Each game has two keys, the secrets of its links (``view``: follow the game; ``edit``: change
it), made with the game and given once; the database keeps only their SHA-256.

>>> import tempfile, pathlib
>>> store = GameStore(pathlib.Path(tempfile.mkdtemp()) / "games.sqlite3")
>>> game = store.create({"rules": "tenhou", "players": 4, "names": ["", "", "", ""], "title": ""})
>>> game.version, game.hands, sorted(game.keys)
(1, [], ['edit', 'view'])
>>> store.key_access([game.keys["edit"], "not-a-key"]) == {game.keys["edit"]: (game.id, "edit")}
True
>>> store.write(game.id, 1, [{"request": {"draw": {"kind": "abortive"}}, "riichi": []}], {}, end=None).version
2
>>> store.write(game.id, 1, [], {}, end=None)
Traceback (most recent call last):
...
tenbou.web.store.ConflictError: the game was changed elsewhere (it is at version 2, this change was ...
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ClassVar, Final

from ..errors import RequestError, TenbouError

__all__ = [
    "ROLES",
    "ConflictError",
    "GameStore",
    "NoSuchGameError",
    "StoreBusyError",
    "StoreError",
    "StoreFullError",
    "StoredGame",
    "default_db_path",
    "key_hash",
]

#: what a game's links give: ``view`` follows the game, ``edit`` also changes it
ROLES: Final = ("view", "edit")

_ID: Final = re.compile(r"[0-9a-f]{12}")
#: a link's key: 144 random bits, URL-safe base64
_KEY_BYTES: Final = 18
_KEY: Final = re.compile(r"[A-Za-z0-9_-]{24}")
_STAMP: Final = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00")
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
CREATE TABLE IF NOT EXISTS keys (
    hash TEXT PRIMARY KEY,
    game TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    role TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS games_by_update ON games (updated DESC, id);
"""


class ConflictError(TenbouError):
    """A write made on a version of a game that is no longer the latest (HTTP 409)."""

    default_code: ClassVar[str] = "conflict"


class NoSuchGameError(TenbouError):
    """A game id that the database does not have (HTTP 404)."""

    default_code: ClassVar[str] = "not_found"


class StoreError(TenbouError):
    """A database that cannot be used: a missing folder, a folder given as the file, a file that
    is not a SQLite database."""

    default_code: ClassVar[str] = "database"


class StoreBusyError(TenbouError):
    """A database kept locked by another process past the timeout (HTTP 503)."""

    default_code: ClassVar[str] = "busy"


class StoreFullError(TenbouError):
    """A new game refused: the database holds the most games the server keeps (HTTP 507)."""

    default_code: ClassVar[str] = "full"


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game as kept: its setup, its hands and its end as entered (``end``: the index of the hand
    after which the players ended it, or ``None``), with its version; ``keys``: the keys of its
    links (``view``, ``edit``), only where they were just made (the database keeps their hashes)."""

    id: str
    version: int
    created: str
    updated: str
    setup: dict[str, Any]
    hands: list[dict[str, Any]]
    summary: dict[str, Any]
    end: int | None = None
    keys: Mapping[str, str] | None = None


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
    """The games in one SQLite file, created on first use (and its folder, with ``make_folder``).

    Every read is one snapshot (one read transaction: a game, its hands and its end are read as
    one commit left them), and every write one ``BEGIN IMMEDIATE`` transaction that answers with
    the state it committed, never one read again after it (another writer may have committed in
    between)."""

    def __init__(self, path: str | os.PathLike[str], *, make_folder: bool = True) -> None:
        self.path = Path(path)
        self.make_folder = make_folder
        self._ready = False
        self._lock = threading.Lock()
        # one writer at a time in this process (SQLite takes one anyway): the others wait here,
        # in turn, rather than poll the database's lock until its timeout
        self._writing = threading.Lock()

    def open(self) -> None:
        """Open the database (made with its tables where it is new), or raise
        :class:`StoreError` saying why it cannot be used: its folder is missing (and not to be
        made) or is not a folder, the path is a folder, the file is not a SQLite database or
        cannot be written. Called by the first use of the games, and by ``tenbou serve`` before
        it starts listening, so that a bad ``--db`` is refused at once."""
        with self._lock:
            if self._ready:
                return
            where = f"--db {self.path}"
            folder = self.path.parent
            if self.path.is_dir():
                raise StoreError(f"{where}: is a folder (give the database file inside it)")
            if not folder.is_dir():
                if folder.exists():
                    raise StoreError(f"{where}: {folder} is not a folder")
                if not self.make_folder:
                    raise StoreError(f"{where}: the folder {folder} does not exist (make it first)")
                try:
                    folder.mkdir(parents=True, exist_ok=True)
                except OSError as e:
                    raise StoreError(f"{where}: cannot make the folder {folder} ({e.strerror})") from None
            try:
                con = sqlite3.connect(self.path, timeout=10)
                try:
                    con.execute("PRAGMA journal_mode=WAL")
                    con.executescript(_SCHEMA)
                finally:
                    con.close()
            except sqlite3.DatabaseError as e:
                raise StoreError(f"{where}: cannot be used as the games database ({e})") from None
            self._ready = True

    @contextmanager
    def _connect(self, write: bool = False) -> Iterator[sqlite3.Connection]:
        """A connection inside one transaction: ``BEGIN IMMEDIATE`` for a write (rolled back on
        any error), a deferred ``BEGIN`` for a read (one snapshot of the database in WAL mode). A
        database that another process keeps locked past the timeout is :class:`StoreBusyError`."""
        self.open()
        with self._writing if write else nullcontext():
            con = sqlite3.connect(self.path, timeout=10, isolation_level=None)
            try:
                con.execute("PRAGMA foreign_keys=ON")
                con.execute("PRAGMA synchronous=NORMAL")
                try:
                    con.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                except sqlite3.OperationalError as e:
                    raise StoreBusyError(f"the games database is busy ({e}): try again") from None
                try:
                    yield con
                except BaseException:
                    con.execute("ROLLBACK")
                    raise
                con.execute("COMMIT")
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
        *,
        limit: int | None = None,
    ) -> StoredGame:
        """A new game (with no hands, or ``hands`` and their ``end``: an import), at version 1, in
        one transaction, with new keys for its links (:attr:`StoredGame.keys`, given only here).
        With ``limit``, refused (:class:`StoreFullError`) when the database already holds that
        many games."""
        now = _now()
        game_id = secrets.token_hex(6)
        with self._connect(write=True) as con:
            if limit is not None:
                (count,) = con.execute("SELECT count(*) FROM games").fetchone()
                if count >= limit:
                    raise StoreFullError(
                        f"the database holds {count} games, the most this server keeps (--max-games): "
                        "delete some first"
                    )
            con.execute(
                "INSERT INTO games (id, version, created, updated, setup, summary) VALUES (?, 1, ?, ?, ?, ?)",
                (game_id, now, now, _dumps(setup), _dumps(summary or {})),
            )
            con.executemany(
                "INSERT INTO hands (game, position, entry) VALUES (?, ?, ?)",
                [(game_id, i, _dumps(h)) for i, h in enumerate(hands)],
            )
            self._write_end(con, game_id, end)
            keys = self._new_keys(con, game_id)
        return StoredGame(
            game_id, 1, now, now, dict(setup), [dict(h) for h in hands], dict(summary or {}), end, keys
        )

    def get(self, game_id: str) -> StoredGame:
        """The game as the last commit left it (one snapshot)."""
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

    def list(self, limit: int = 50, after: str | None = None) -> tuple[list[dict[str, Any]], str | None]:
        """One page of the games, the latest changed first: id, version, created, updated, setup,
        summary; and the cursor of the next page (``after``), or ``None`` after the last."""
        query = "SELECT id, version, created, updated, setup, summary FROM games"
        params: tuple[object, ...] = ()
        if after is not None:
            updated, game_id = _read_cursor(after)
            query += " WHERE updated < ? OR (updated = ? AND id > ?)"
            params = (updated, updated, game_id)
        with self._connect() as con:
            rows = con.execute(query + " ORDER BY updated DESC, id LIMIT ?", (*params, limit + 1)).fetchall()
        games = [
            {
                "id": game_id,
                "version": version,
                "created": created,
                "updated": updated,
                "setup": json.loads(setup),
                "summary": json.loads(summary),
            }
            for game_id, version, created, updated, setup, summary in rows[:limit]
        ]
        more = len(rows) > limit
        return games, (f"{games[-1]['updated']}~{games[-1]['id']}" if more else None)

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
        ended it, or ``None``) if the game is still at ``version``; the game as this write
        committed it (version ``version + 1``), read inside the same transaction."""
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
            created, setup = con.execute(
                "SELECT created, setup FROM games WHERE id = ?", (game_id,)
            ).fetchone()
        return StoredGame(
            game_id,
            version + 1,
            created,
            now,
            json.loads(setup),
            [dict(h) for h in hands],
            dict(summary),
            end,
        )

    def delete(self, game_id: str, version: int) -> None:
        self.check_id(game_id)
        with self._connect(write=True) as con:
            self._check_version(con, game_id, version)
            con.execute("DELETE FROM keys WHERE game = ?", (game_id,))
            con.execute("DELETE FROM hands WHERE game = ?", (game_id,))
            con.execute("DELETE FROM ends WHERE game = ?", (game_id,))
            con.execute("DELETE FROM games WHERE id = ?", (game_id,))

    def new_keys(self, game_id: str) -> dict[str, str]:
        """New keys for the game's links (:data:`ROLES`); the keys given before stop working."""
        self.check_id(game_id)
        with self._connect(write=True) as con:
            if con.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
                raise NoSuchGameError(f"no game {game_id!r} (it was deleted, or is in another database)")
            return self._new_keys(con, game_id)

    def key_access(self, keys: Iterable[str]) -> dict[str, tuple[str, str]]:
        """The game and the role (``view`` or ``edit``) each of ``keys`` gives, for those that give
        one (one read)."""
        wanted = {key_hash(key): key for key in keys if _KEY.fullmatch(key)}
        if not wanted:
            return {}
        with self._connect() as con:
            marks = ",".join("?" * len(wanted))
            rows = con.execute(f"SELECT hash, game, role FROM keys WHERE hash IN ({marks})", list(wanted))
            return {wanted[digest]: (game, role) for digest, game, role in rows}

    @staticmethod
    def _new_keys(con: sqlite3.Connection, game_id: str) -> dict[str, str]:
        con.execute("DELETE FROM keys WHERE game = ?", (game_id,))
        keys = {role: secrets.token_urlsafe(_KEY_BYTES) for role in ROLES}
        con.executemany(
            "INSERT INTO keys (hash, game, role) VALUES (?, ?, ?)",
            [(key_hash(key), game_id, role) for role, key in keys.items()],
        )
        return keys

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


def key_hash(key: str) -> str:
    """What the database keeps of a link's key (SHA-256, hex): a copy of the database does not
    give the keys."""
    return hashlib.sha256(key.encode()).hexdigest()


def _read_cursor(text: str) -> tuple[str, str]:
    updated, sep, game_id = text.rpartition("~")
    if not sep or not _ID.fullmatch(game_id) or not _STAMP.fullmatch(updated):
        raise RequestError(f"after: expected the 'next' of a page of games, not {text[:60]!r}")
    return updated, game_id
