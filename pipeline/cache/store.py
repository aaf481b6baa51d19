"""Where chunk readings are kept: SQLite in the data directory, or PostgreSQL, under a size cap.

PostgreSQL is used when LONGDOC_CHECKPOINT_URL names it, so API replicas and cluster
workers share one cache. Past `cache_max_mb` the least recently used readings are dropped.
The cache only ever saves work: a cache that cannot be opened or read, or holds a corrupt
entry, is skipped with a warning and the chunk is read as if it were not there.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import logging
import sqlite3
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from pydantic import ValidationError

from pipeline.cache.entry import CachedReading
from pipeline.config import Settings
from pipeline.errors import StorageError
from pipeline.types import Chunk

log = logging.getLogger(__name__)

TABLE = "longdoc_chunk_cache"
SQLITE_FILE = "chunk_cache.sqlite"
POSTGRES_SCHEMES = ("postgresql://", "postgres://")

# Eviction looks at the total size only after this share of the cap was written since the
# last look, so a put costs one row write; a 1,024 MB cap is checked every ~10 MB.
CHECK_EVERY_SHARE = 0.01
# Eviction frees down to this share of the cap, so it does not run again on the next put.
EVICT_TO_SHARE = 0.9

SCHEMA = (
    f"CREATE TABLE IF NOT EXISTS {TABLE} (key TEXT PRIMARY KEY, value TEXT NOT NULL, "
    "size BIGINT NOT NULL, created_at DOUBLE PRECISION NOT NULL, "
    "used_at DOUBLE PRECISION NOT NULL, hits BIGINT NOT NULL DEFAULT 0)",
    f"CREATE INDEX IF NOT EXISTS {TABLE}_used ON {TABLE} (used_at)",
)
GET = f"SELECT value FROM {TABLE} WHERE key = ?"
TOUCH = f"UPDATE {TABLE} SET used_at = ?, hits = hits + 1 WHERE key = ?"
PUT = (
    f"INSERT INTO {TABLE} (key, value, size, created_at, used_at) VALUES (?, ?, ?, ?, ?) "
    "ON CONFLICT (key) DO UPDATE SET value = excluded.value, size = excluded.size, "
    "used_at = excluded.used_at"
)
TOTAL = f"SELECT COUNT(*), COALESCE(SUM(size), 0), COALESCE(SUM(hits), 0) FROM {TABLE}"
# The least recently used rows whose sizes add up to the excess (the parameter), oldest first.
EVICT = (
    f"DELETE FROM {TABLE} WHERE key IN (SELECT key FROM (SELECT key, size, SUM(size) OVER "
    "(ORDER BY used_at, key ROWS UNBOUNDED PRECEDING) AS upto FROM "
    f"{TABLE}) AS oldest WHERE upto - size < ?)"
)
CLEAR = f"DELETE FROM {TABLE}"


@dataclass(frozen=True)
class CacheStats:
    """What `longdoc cache stats` shows."""

    where: str
    entries: int
    bytes: int
    max_bytes: int
    hits: int


class Database(Protocol):
    """The few SQL operations the cache needs, with `?` placeholders."""

    where: str

    def execute(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]: ...

    def close(self) -> None: ...


class SqliteDatabase:
    """A SQLite file shared by the processes of one machine (WAL: readers never wait)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.where = str(path)
        self._conn: sqlite3.Connection | None = None

    def _connect(self) -> sqlite3.Connection:
        if self._conn is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(
                self.path, timeout=10, isolation_level=None, check_same_thread=False
            )
            try:
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=NORMAL")  # a lost reading is only re-read
                for statement in SCHEMA:
                    conn.execute(statement)
            except BaseException:
                conn.close()
                raise
            self._conn = conn
        return self._conn

    def execute(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        return self._connect().execute(sql, params).fetchall()

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


class PostgresDatabase:
    """One autocommit connection to PostgreSQL, opened again after it breaks."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.where = "postgresql://" + url.split("@")[-1]  # no password in messages
        self._conn: Any = None

    def _connect(self) -> Any:
        import psycopg

        if self._conn is None or self._conn.closed:
            conn = psycopg.connect(self.url, autocommit=True, connect_timeout=10)
            try:
                for statement in SCHEMA:
                    # Another process may create the table at the same moment.
                    with contextlib.suppress(psycopg.errors.UniqueViolation):
                        conn.execute(statement)
            except BaseException:
                conn.close()
                raise
            self._conn = conn
        return self._conn

    def execute(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        import psycopg

        try:
            cursor = self._connect().execute(sql.replace("?", "%s"), params)
        except psycopg.OperationalError:
            self.close()  # a dropped connection: the next call reconnects
            raise
        return cursor.fetchall() if cursor.description else []

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


class ChunkCache:
    """Readings by key, in one database; safe to share across threads of a process."""

    def __init__(self, database: Database, max_bytes: int) -> None:
        self.database = database
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        self._written = max_bytes  # so the first put checks the size
        self._warned: set[str] = set()

    # ---- what the map step calls: never raises ----

    async def get(self, key: str, chunk: Chunk) -> CachedReading | None:
        """The cached reading of `chunk` under `key`, or None (absent, corrupt, unreachable)."""
        return await asyncio.to_thread(self._get, key, chunk)

    async def put(self, key: str, reading: CachedReading) -> None:
        """Keep a successful reading; a store that cannot take it is skipped."""
        await asyncio.to_thread(self._put, key, reading)

    def _get(self, key: str, chunk: Chunk) -> CachedReading | None:
        try:
            with self._lock:
                rows = self.database.execute(GET, (key,))
                if not rows:
                    return None
                reading = CachedReading.model_validate_json(rows[0][0])
                if not reading.fits(chunk):
                    raise ValueError("a cached quote does not match the chunk's text")
                self.database.execute(TOUCH, (time.time(), key))
            return reading
        except Exception as exc:  # any failure of the cache is a miss, never a failed read
            self._warn(exc)
            return None

    def _put(self, key: str, reading: CachedReading) -> None:
        value = reading.model_dump_json()
        size = len(key) + len(value.encode("utf-8"))
        now = time.time()
        try:
            with self._lock:
                self.database.execute(PUT, (key, value, size, now, now))
                self._written += size
                if self._written >= self.max_bytes * CHECK_EVERY_SHARE:
                    self._written = 0
                    self._evict()
        except Exception as exc:
            self._warn(exc)

    def _evict(self) -> None:
        _, total, _ = self.database.execute(TOTAL)[0]
        if total > self.max_bytes:
            self.database.execute(EVICT, (int(total - self.max_bytes * EVICT_TO_SHARE),))

    def _warn(self, exc: Exception) -> None:
        if isinstance(exc, ValidationError):
            reason = "a corrupt entry"
        else:
            reason = f"{type(exc).__name__}: {exc}"
        if reason not in self._warned:  # once per cause, not once per chunk
            self._warned.add(reason)
            log.warning("chunk cache %s skipped (%s)", self.database.where, reason[:300])

    def close(self) -> None:
        """Close the connection; the next use opens it again."""
        with self._lock:
            self.database.close()

    # ---- what `longdoc cache` calls: raises StorageError ----

    def stats(self) -> CacheStats:
        """Entries, bytes and hits so far."""
        with self._lock:
            entries, total, hits = self._checked(TOTAL)[0]
        return CacheStats(self.database.where, int(entries), int(total), self.max_bytes, int(hits))

    def clear(self) -> int:
        """Drop every reading; returns how many there were."""
        with self._lock:
            entries = int(self._checked(TOTAL)[0][0])
            self._checked(CLEAR)
        return entries

    def _checked(self, sql: str) -> list[tuple[Any, ...]]:
        try:
            return self.database.execute(sql)
        except Exception as exc:
            raise StorageError(
                f"cannot use the chunk cache at {self.database.where}: {exc}"[:300],
                hint="Check LONGDOC_DATA_DIR or LONGDOC_CHECKPOINT_URL; a corrupt SQLite "
                "cache file may simply be deleted.",
            ) from exc


# Caches this process has open, by place and cap; the least recently opened close past
# OPEN_AT_MOST (a closed one reconnects on its next use), so a long-lived process that
# sees many data directories keeps few files open.
OPEN_AT_MOST = 8
_open: OrderedDict[tuple[str, int], ChunkCache] = OrderedDict()
_open_lock = threading.Lock()


def open_chunk_cache(settings: Settings) -> ChunkCache | None:
    """The process's cache for these settings (one per place and cap), or None when off.

    Opening is lazy: nothing is created or connected until the first reading is looked up.
    """
    if settings.cache == "off":
        return None
    url = settings.checkpoint_url
    if url and url.startswith(POSTGRES_SCHEMES):
        place = url
    else:
        place = str((settings.data_dir / SQLITE_FILE).absolute())
    max_bytes = int(settings.cache_max_mb * 1_000_000)
    with _open_lock:
        cache = _open.get((place, max_bytes))
        if cache is None:
            database: Database = (
                PostgresDatabase(place)
                if place.startswith(POSTGRES_SCHEMES)
                else SqliteDatabase(Path(place))
            )
            cache = _open[(place, max_bytes)] = ChunkCache(database, max_bytes)
            while len(_open) > OPEN_AT_MOST:
                _open.popitem(last=False)[1].close()
        _open.move_to_end((place, max_bytes))
    return cache


@atexit.register
def close_chunk_caches() -> None:
    """Close every open cache's connection, as the process exits: a PostgreSQL connection
    left to the garbage collector is reported as a leak."""
    with _open_lock:
        while _open:
            _open.popitem()[1].close()
