"""Per-session data store: big tool results stay here, the model gets a summary and a key.

The chat page keeps one store in ``st.session_state``; the sandbox receives ``frames()`` as
``data``, so the model analyses full-precision data without ever echoing it back as context.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TypedDict

import pandas as pd

from copilot_core.render_safety.csv import csv_bytes

MAX_ENTRIES = 16  # oldest results are evicted first; a chat rarely needs more datasets than this


class StoredFrame(TypedDict):
    """One entry of the store as the chat's export and the model's listing describe it."""

    key: str
    rows: int
    columns: list[str]
    created_at: datetime


@dataclass
class _Entry:
    full: dict
    frame: pd.DataFrame
    created_at: datetime = field(default_factory=lambda: datetime.now(timezone.utc))


class DataStore:
    """Keyed full results and their DataFrames; thread-safe, bounded to ``max_entries``."""

    def __init__(self, max_entries: int = MAX_ENTRIES) -> None:
        self._entries: OrderedDict[str, _Entry] = OrderedDict()
        self._lock = threading.Lock()
        self._max = max_entries

    def put(self, key: str, full: dict, frame: pd.DataFrame) -> None:
        with self._lock:
            self._entries.pop(key, None)
            self._entries[key] = _Entry(full, frame)
            while len(self._entries) > self._max:
                self._entries.popitem(last=False)

    def get(self, key: str) -> dict | None:
        with self._lock:
            entry = self._entries.get(key)
        return entry.full if entry else None

    def frame(self, key: str) -> pd.DataFrame | None:
        with self._lock:
            entry = self._entries.get(key)
        return entry.frame if entry else None

    def keys(self) -> list[str]:
        with self._lock:
            return list(self._entries)

    def frames(self) -> dict[str, pd.DataFrame]:
        """What the sandbox gets as ``data`` (copies, so analysis code cannot alter the store)."""
        with self._lock:
            return {key: entry.frame.copy() for key, entry in self._entries.items()}

    def to_csv(self, key: str) -> bytes:
        """CSV download of one dataset; KeyError names the keys that exist."""
        frame = self.frame(key)
        if frame is None:
            raise KeyError(f"no dataset {key!r}; available: {', '.join(self.keys()) or 'none'}")
        return csv_bytes(frame)

    def describe(self) -> list[StoredFrame]:
        with self._lock:
            return [{"key": key, "rows": len(e.frame), "columns": [str(c) for c in e.frame.columns],
                     "created_at": e.created_at} for key, e in self._entries.items()]

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: object) -> bool:
        return key in self._entries
