"""Run every call on an embedded litemongo database from one dedicated thread.

Why: litemongo's SQLite store opens ``sqlite3`` connections with the default
``check_same_thread=True`` and shares one cursor per collection, so a client created in one
Streamlit session thread raises ``ProgrammingError`` when another session (or the next rerun,
which runs on a new thread) uses it.  Streamlit caches one client for all sessions, so every
operation is handed to a single worker thread that owns the client.  Cursors are recorded
(``sort``/``skip``/``limit``/...) and materialised on that thread when iterated.

The proxy exposes the pymongo API subset listed in ``embedded-mongo.md`` §5; anything else is
forwarded verbatim (and still runs on the worker thread).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

_CURSOR_METHODS = frozenset({"find", "aggregate", "list_indexes"})
# pymongo Database attributes that must not silently turn into a collection of that name.
_NOT_COLLECTIONS = frozenset({"client", "codec_options", "read_preference", "write_concern", "read_concern",
                              "with_options", "watch", "cursor_command", "dereference", "validate_collection"})


class SerialExecutor:
    """One worker thread; ``run`` executes a callable there (inline when already on it)."""

    def __init__(self, name: str = "litemongo") -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
        self._ident: int | None = self._pool.submit(threading.get_ident).result()

    def run(self, fn: Callable[[], T]) -> T:
        if threading.get_ident() == self._ident:
            return fn()
        return self._pool.submit(fn).result()


class SerialCursor:
    """A recorded ``find``/``aggregate`` call; chained modifiers replay on the worker thread."""

    def __init__(self, executor: SerialExecutor, opener: Callable[[], Any]) -> None:
        self._executor = executor
        self._opener = opener
        self._chain: list[tuple[str, tuple, dict]] = []
        self._rows: Iterator[dict] | None = None

    def _modifier(self, name: str) -> Callable[..., SerialCursor]:
        def record(*args: Any, **kwargs: Any) -> SerialCursor:
            if self._rows is not None:
                raise RuntimeError(f"cannot call {name}() on a cursor that has already been iterated")
            self._chain.append((name, args, kwargs))
            return self

        return record

    def __getattr__(self, name: str) -> Callable[..., SerialCursor]:
        if name in ("sort", "skip", "limit", "batch_size", "max_time_ms", "hint", "comment", "allow_disk_use"):
            return self._modifier(name)
        raise AttributeError(name)

    def _materialise(self) -> list[dict]:
        def fetch() -> list[dict]:
            cursor = self._opener()
            for name, args, kwargs in self._chain:
                cursor = getattr(cursor, name)(*args, **kwargs)
            return list(cursor)

        return self._executor.run(fetch)

    def to_list(self, length: int | None = None) -> list[dict]:
        rows = list(self)
        return rows if length is None else rows[:length]

    def __iter__(self) -> Iterator[dict]:
        if self._rows is None:
            self._rows = iter(self._materialise())
        return self._rows

    def __next__(self) -> dict:
        return next(iter(self))

    def close(self) -> None:
        self._rows = iter(())

    def __enter__(self) -> SerialCursor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class SerialCollection:
    """Collection proxy: each method call runs on the worker thread."""

    def __init__(self, executor: SerialExecutor, database: SerialDatabase, name: str) -> None:
        self._executor = executor
        self._database = database
        self.name = name

    @property
    def database(self) -> SerialDatabase:
        return self._database

    def _real(self) -> Any:
        return self._database._real_db()[self.name]

    def __getattr__(self, method: str) -> Callable[..., Any]:
        if method.startswith("_"):
            raise AttributeError(method)

        def call(*args: Any, **kwargs: Any) -> Any:
            if method in _CURSOR_METHODS:
                return SerialCursor(self._executor, lambda: getattr(self._real(), method)(*args, **kwargs))
            return self._executor.run(lambda: getattr(self._real(), method)(*args, **kwargs))

        return call

    def __repr__(self) -> str:
        return f"SerialCollection({self._database.name!r}, {self.name!r})"


class SerialDatabase:
    """Database proxy over a litemongo database that lives on one worker thread."""

    def __init__(self, executor: SerialExecutor, open_db: Callable[[], Any], name: str, *,
                 location: Path | None = None) -> None:
        self._executor = executor
        self._open_db = open_db
        self._db: Any = None
        self.name = name
        self.embedded = True
        self.location = location  # the directory of the collection files (None: in memory)

    def _real_db(self) -> Any:
        if self._db is None:
            self._db = self._open_db()
        return self._db

    def __getitem__(self, name: str) -> SerialCollection:
        return SerialCollection(self._executor, self, name)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name in _NOT_COLLECTIONS:
            raise AttributeError(f"{name!r} is not available on the embedded database proxy")
        if name in ("list_collection_names", "drop_collection", "create_collection", "command"):
            return lambda *a, **kw: self._executor.run(lambda: getattr(self._real_db(), name)(*a, **kw))
        return SerialCollection(self._executor, self, name)

    def get_collection(self, name: str) -> SerialCollection:
        return self[name]

    def close(self) -> None:
        """Close the underlying client (and its SQLite files); the proxy is unusable afterwards."""
        if self._db is not None:
            self._executor.run(self._close_client)
            self._db = None

    def _close_client(self) -> None:
        try:
            self._db.client.close()
        except AttributeError:  # litemongo 0.2.0: the in-memory store has no close(); nothing to release
            pass

    def __repr__(self) -> str:
        return f"SerialDatabase({self.name!r})"
