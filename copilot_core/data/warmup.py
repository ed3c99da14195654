"""Build the embedded engine's in-process indexes before a person waits for them, with progress.

litemongo keeps its hash indexes in memory only: the first query on a collection in a fresh process
decodes every document of that collection (about 4 s for the demo's 51k-document history on a 2-core
machine).  ``IndexWarmUp`` pays that cost collection by collection, ahead of the first page: the
server's start-up hook runs it to completion before it accepts connections (``server.py``), and a
page that still finds it running shows its progress instead of a blank page (``ui.data``).
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from copilot_core.data.serial import SerialDatabase

# An ``_id`` no document has: the lookup forces the collection's index build and returns nothing.
_PROBE_ID = "\x00index-warm-up-probe"
# Documents one second of index building gets through on a busy 2-core machine (measured: 51,561
# history documents in 3.7 s).  Less than this pending is not worth a progress bar.
LONG_WAIT_DOCUMENTS = 10_000


@dataclass(frozen=True)
class WarmUpProgress:
    """Where the index build stands; ``text`` is what a person is shown."""

    collection: str | None  # the collection being indexed now
    collections_done: int
    collections_total: int
    documents_done: int
    documents_total: int
    seconds: float
    finished: bool
    error: str | None = None

    @property
    def fraction(self) -> float:
        if self.finished:
            return 1.0
        if self.documents_total:
            return min(self.documents_done / self.documents_total, 1.0)
        return self.collections_done / self.collections_total if self.collections_total else 0.0

    @property
    def text(self) -> str:
        if self.error:
            return f"Building the database indexes failed: {self.error}"
        if self.finished:
            return (f"Database indexes ready: {self.documents_total:,} documents in {self.collections_total} "
                    f"collections ({self.seconds:.1f} s)")
        where = f"indexing {self.collection}, " if self.collection else ""
        return (f"Preparing the embedded database: {where}{self.documents_done:,} of {self.documents_total:,} "
                f"documents ({self.collections_done} of {self.collections_total} collections, "
                f"{self.seconds:.0f} s)")


def collection_sizes(location: Path | None, names: list[str]) -> dict[str, int]:
    """Documents per collection read straight from the SQLite files (read-only, milliseconds), because
    every count through the engine's API would itself build the index it is meant to size."""
    sizes: dict[str, int] = {}
    for name in names:
        count = 0
        if location is not None and (location / name).is_file():
            try:
                with sqlite3.connect(f"file:{location / name}?mode=ro", uri=True) as conn:
                    count = int(conn.execute("SELECT count(*) FROM documents").fetchone()[0])
            except sqlite3.Error:
                count = 0  # unknown size: the build still runs, only the progress weight is lost
        sizes[name] = count
    return sizes


class IndexWarmUp:
    """The index build of one embedded database, shared by the start-up hook and every session."""

    def __init__(self, db: SerialDatabase) -> None:
        self._db = db
        self._lock = threading.Lock()  # guards the fields below
        self._run_lock = threading.Lock()  # one builder at a time
        self._done = threading.Event()
        self._plan: list[tuple[str, int]] | None = None
        self._built: set[str] = set()
        self._current: str | None = None
        self._started: float | None = None
        self._seconds = 0.0
        self._error: str | None = None
        self._thread: threading.Thread | None = None

    def plan(self) -> list[tuple[str, int]]:
        """(collection, documents) in build order: every collection of the database, largest last so
        the small ones the first page needs are ready early."""
        with self._lock:
            if self._plan is not None:
                return self._plan
        names = sorted(self._db.list_collection_names())
        sizes = collection_sizes(self._db.location, names)
        plan = sorted(((n, sizes[n]) for n in names), key=lambda item: (item[1], item[0]))
        with self._lock:
            self._plan = self._plan if self._plan is not None else plan
            return self._plan

    @property
    def finished(self) -> bool:
        return self._done.is_set()

    def pending_documents(self) -> int:
        """Documents still to index in this process (0 once finished)."""
        if self.finished:
            return 0
        plan = self.plan()
        with self._lock:
            return sum(docs for name, docs in plan if name not in self._built)

    def progress(self) -> WarmUpProgress:
        plan = self.plan()
        with self._lock:
            started = self._started
            seconds = self._seconds if self.finished or started is None else time.perf_counter() - started
            return WarmUpProgress(
                collection=self._current, collections_done=len(self._built), collections_total=len(plan),
                documents_done=sum(docs for name, docs in plan if name in self._built),
                documents_total=sum(docs for _, docs in plan), seconds=seconds, finished=self.finished,
                error=self._error)

    def run(self, report: Callable[[WarmUpProgress], None] | None = None) -> WarmUpProgress:
        """Build every collection's index now (idempotent; a second caller waits for the first)."""
        with self._run_lock:
            if self.finished:
                return self.progress()
            with self._lock:
                self._started = time.perf_counter()
            try:
                for name, _ in self.plan():
                    with self._lock:
                        self._current = name
                    if report:
                        report(self.progress())
                    self._db[name].find_one({"_id": _PROBE_ID})
                    with self._lock:
                        self._built.add(name)
            except Exception as exc:
                with self._lock:
                    self._error = f"{type(exc).__name__}: {exc}"
                raise
            finally:
                with self._lock:
                    self._current = None
                    self._seconds = time.perf_counter() - (self._started or 0.0)
                self._done.set()
        final = self.progress()
        if report:
            report(final)
        return final

    def start(self) -> None:
        """Run the build on a background thread (once); ``wait`` or ``progress`` follow it."""
        with self._lock:
            if self._thread is not None or self.finished:
                return
            self._thread = threading.Thread(target=self._run_quietly, name="index-warm-up", daemon=True)
        self._thread.start()

    def _run_quietly(self) -> None:
        import logging

        try:
            self.run()
        except Exception:  # noqa: BLE001 - the page's own query reports the failure to the person
            logging.getLogger(__name__).warning("embedded index warm-up failed", exc_info=True)

    def wait(self, timeout: float | None = None) -> bool:
        """True once the build has finished (or failed) within ``timeout`` seconds."""
        return self._done.wait(timeout)
