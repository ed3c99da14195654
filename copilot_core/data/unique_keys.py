"""QDash's unique keys for calibration state, before and after its project-scoped migration.

QDash's ``project-scoped-calibration-v1`` migration (``dbmodel/project_calibration_migration.py``) merges
per-user copies and drops ``username`` from these keys, so a project shares one chip, one qubit, one daily
snapshot.  A database or dump from before the migration can still hold one copy per user; it keeps the
username-keyed index instead, so both layouts load and are read the same way.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from copilot_core.errors import CopilotError

# collection -> QDash's current unique key (after the migration).
PROJECT_KEYS: dict[str, tuple[str, ...]] = {
    "chip": ("project_id", "chip_id"),
    "qubit": ("project_id", "chip_id", "qid"),
    "coupling": ("project_id", "chip_id", "qid"),
    "chip_history": ("project_id", "chip_id", "recorded_date"),
    "qubit_history": ("project_id", "chip_id", "qid", "recorded_date"),
    "coupling_history": ("project_id", "chip_id", "qid", "recorded_date"),
    "calibration_note": ("project_id", "execution_id", "task_id", "chip_id"),
    "execution_counter": ("project_id", "date", "chip_id"),
}

# collection -> the key before the migration (``dbmodel/*.py`` up to July 2026): username inside it.
LEGACY_KEYS: dict[str, tuple[str, ...]] = {
    "chip": ("project_id", "chip_id", "username"),
    "qubit": ("project_id", "chip_id", "qid", "username"),
    "coupling": ("project_id", "chip_id", "qid", "username"),
    "chip_history": ("project_id", "chip_id", "username", "recorded_date"),
    "qubit_history": ("project_id", "chip_id", "qid", "username", "recorded_date"),
    "coupling_history": ("project_id", "chip_id", "qid", "username", "recorded_date"),
    "calibration_note": ("project_id", "execution_id", "task_id", "username", "chip_id"),
    "execution_counter": ("project_id", "date", "username", "chip_id"),
}

MIGRATION_ID = "project-scoped-calibration-v1"  # QDash's migration_ledger entry once the keys are project-scoped
MAX_SCAN = 1_000_000
KEPT_LEGACY = "kept the username-keyed unique index"


class DuplicateDocuments(CopilotError):
    """Two documents share a unique key QDash never lets repeat; the message names the collection and key."""


def index_spec(keys: tuple[str, ...]) -> list[tuple[str, int]]:
    return [(k, 1) for k in keys]


def first_duplicate(collection: Any, keys: tuple[str, ...]) -> tuple[dict[str, Any], int] | None:
    """The first key value held by more than one document, and how many hold it (engine-neutral: a scan)."""
    seen: Counter[tuple[str, ...]] = Counter()
    values: dict[tuple[str, ...], dict[str, Any]] = {}
    projection = {"_id": 0, **{k: 1 for k in keys}}
    for doc in collection.find({}, projection).limit(MAX_SCAN):
        row = {k: doc.get(k) for k in keys}
        marker = tuple(repr(row[k]) for k in keys)
        seen[marker] += 1
        values.setdefault(marker, row)
    repeated = [(values[m], n) for m, n in seen.items() if n > 1]
    return repeated[0] if repeated else None


def describe_duplicate(name: str, collection: Any, keys: tuple[str, ...]) -> str:
    found = first_duplicate(collection, keys)
    if found is None:
        return f"{name}: documents repeat the unique key ({', '.join(keys)})"
    row, count = found
    shown = ", ".join(f"{k}={str(row[k])[:60]!r}" for k in keys)
    return f"{name}: {count} documents share the unique key ({shown})"


def ensure_unique_key(db: Any, name: str, *, legacy: bool = True) -> str | None:
    """Create QDash's project-scoped unique index on ``name``; on a pre-migration collection (per-user
    copies under one project key) create the username-keyed one instead and say so.  Raises
    ``DuplicateDocuments`` when the documents repeat even the username-keyed key, or repeat the project key
    at all when ``legacy`` is False (data QDash says it has migrated)."""
    from pymongo.errors import DuplicateKeyError

    collection = db[name]
    try:
        collection.create_index(index_spec(PROJECT_KEYS[name]), unique=True)
        return None
    except DuplicateKeyError:
        if not legacy:
            raise DuplicateDocuments(describe_duplicate(name, collection, PROJECT_KEYS[name])) from None
    try:
        collection.create_index(index_spec(LEGACY_KEYS[name]), unique=True)
    except DuplicateKeyError:
        raise DuplicateDocuments(describe_duplicate(name, collection, LEGACY_KEYS[name])) from None
    return (f"{name}: one copy per user under the same project key (QDash before its project-scoped "
            f"migration); {KEPT_LEGACY}")


def migrated(ledger: Iterable[Mapping[str, Any]]) -> bool:
    """True when QDash's ``migration_ledger`` records the project-scoped migration as completed."""
    return any(e.get("migration_id") == MIGRATION_ID and e.get("status") == "completed" for e in ledger)
