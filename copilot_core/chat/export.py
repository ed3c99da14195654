"""Every data-store entry of a chat as a CSV download (what the copilot's numbers came from)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from copilot_core.tools.store import DataStore

_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


@dataclass(frozen=True)
class CsvExport:
    key: str
    filename: str
    rows: int
    columns: list[str]
    data: bytes


def csv_filename(key: str, prefix: str = "copilot") -> str:
    """A safe file name for a store key (keys come from tool arguments, so the model chose them)."""
    stem = _UNSAFE.sub("_", key).strip("._")[:80] or "data"
    return f"{prefix}_{stem}.csv"


def csv_exports(store: DataStore) -> list[CsvExport]:
    """One CSV per data-store entry, in the store's order (DataStore.describe / to_csv)."""
    out = []
    for entry in store.describe():
        key = str(entry["key"])
        try:
            data = store.to_csv(key)
        except KeyError:  # evicted between describe() and to_csv()
            continue
        out.append(CsvExport(key=key, filename=csv_filename(key), rows=int(entry.get("rows") or 0),
                             columns=[str(c) for c in entry.get("columns") or []], data=data))
    return out
