"""Load a QDash export into the embedded store, so a lab can browse its own data with no server.

The export is one file per collection named as QDash names them (``task_result_history.json``...),
each ``mongoexport`` output (``--jsonArray`` or one document per line) or ``bson.json_util`` Extended
JSON, relaxed or canonical.  The documents go into a fresh store beside the current one, which
replaces it only when every file has loaded, so a broken file leaves the current data exactly as it
was.  The app's own collections (saved chats,
memory) are carried over.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from copilot_core.data.connection import DatabaseUnavailable, ensure_indexes, open_embedded
from copilot_core.data.unique_keys import KEPT_LEGACY, DuplicateDocuments, migrated
from copilot_core.settings import Settings
from copilot_core.errors import CopilotError

QDASH_COLLECTIONS: tuple[str, ...] = (
    "chip", "qubit", "coupling", "task_result_history", "execution_history", "calibration_note",
    "parameter_versions", "provenance_relations", "provenance_activities", "provenance_entities",
    "chip_history", "qubit_history", "coupling_history", "execution_counter")
SUFFIXES = (".json", ".jsonl", ".ndjson")
LEDGER = "migration_ledger"  # QDash's record of its migrations: read, never loaded
BATCH = 2000

# (collection, document count, documents) -> the same documents, e.g. wrapped in a progress bar
Progress = Callable[[str, int, Iterator[dict[str, Any]]], Iterable[dict[str, Any]]]


class ImportFailed(CopilotError):
    """The export cannot be loaded; the message names the file and what is wrong. Nothing was changed."""


@dataclass
class ImportSummary:
    """What was loaded: documents per collection, files ignored, and where."""

    counts: dict[str, int] = field(default_factory=dict)
    ignored: list[str] = field(default_factory=list)
    store: str = ""
    notes: list[str] = field(default_factory=list)

    def text(self) -> str:
        lines = [f"loaded into {self.store}:"]
        lines += [f"  {name:<24} {count:>9,} documents" for name, count in self.counts.items()]
        lines.append(f"  {'total':<24} {sum(self.counts.values()):>9,} documents")
        if self.ignored:
            lines.append("ignored (not a QDash collection): " + ", ".join(self.ignored))
        lines += [f"note: {note}" for note in self.notes]
        return "\n".join(lines)


def find_files(directory: Path) -> tuple[dict[str, Path], list[str]]:
    """{collection: file} for QDash's collections in ``directory``, and the names of other files."""
    if not directory.is_dir():
        raise ImportFailed(f"{directory} is not a directory (expected one file per QDash collection)")
    found: dict[str, Path] = {}
    ignored: list[str] = []
    for path in sorted(directory.iterdir()):
        if not path.is_file():
            continue
        name = path.name
        stem = next((name[: -len(s)] for s in SUFFIXES if name.endswith(s)), None)
        if stem in QDASH_COLLECTIONS:
            if stem in found:
                raise ImportFailed(f"two files for the collection {stem}: {found[stem].name} and {name}")
            found[stem] = path
        else:
            ignored.append(name)
    if not found:
        raise ImportFailed(f"no QDash collection files in {directory}: expected names such as "
                           f"task_result_history.json ({', '.join(QDASH_COLLECTIONS)})")
    return found, ignored


def read_export(path: Path) -> tuple[int, Iterator[dict[str, Any]]]:
    """(document count, documents) of one export file: a JSON array (read whole) or one document per line
    (streamed, so a year of history never sits in memory at once); Extended JSON relaxed or canonical."""
    from bson import json_util

    options = json_util.JSONOptions(tz_aware=False)  # QDash stores naive UTC
    try:
        with path.open(encoding="utf-8") as handle:
            head = handle.read(4096).lstrip()
            if head.startswith("["):
                handle.seek(0)
                docs = _loads(path, handle.read(), 0, options)
                if not isinstance(docs, list):
                    raise ImportFailed(f"{path.name}: expected a JSON array of documents or one document per line")
                return len(docs), _checked(path, ((i, d) for i, d in enumerate(docs)), "item")
            handle.seek(0)
            total = sum(1 for line in handle if line.strip())
    except (OSError, UnicodeDecodeError) as exc:
        raise ImportFailed(f"{path.name}: cannot be read ({exc})") from None

    def lines() -> Iterator[tuple[int, Any]]:
        with path.open(encoding="utf-8") as handle:
            for n, line in enumerate(handle):
                if line.strip():
                    yield n, _loads(path, line, n, options)

    return total, _checked(path, lines(), "line")


def _checked(path: Path, items: Iterator[tuple[int, Any]], what: str) -> Iterator[dict[str, Any]]:
    try:
        for index, doc in items:
            if not isinstance(doc, dict):
                raise ImportFailed(f"{path.name}: {what} {index + 1} is a {type(doc).__name__}, not a document")
            doc.pop("_id", None)  # the store assigns its own ids
            yield doc
    except UnicodeDecodeError as exc:
        raise ImportFailed(f"{path.name}: cannot be read ({exc})") from None


def _loads(path: Path, text: str, line_offset: int, options: Any) -> Any:
    from bson import json_util
    from bson.errors import InvalidId

    try:
        return json_util.loads(text, json_options=options)
    except (ValueError, TypeError, InvalidId) as exc:
        detail = (f"line {exc.lineno + line_offset}, column {exc.colno}: {exc.msg}"
                  if isinstance(exc, json.JSONDecodeError) else f"line {line_offset + 1}: {exc}")
        raise ImportFailed(f"{path.name}: not valid JSON / Extended JSON ({detail})") from None


def _plain_progress(collection: str, total: int, docs: Iterator[dict[str, Any]]) -> Iterable[dict[str, Any]]:
    return docs


def import_export(directory: Path, settings: Settings, *, progress: Progress = _plain_progress) -> ImportSummary:
    """Replace the embedded store's QDash collections with the export in ``directory``.

    Raises ``ImportFailed`` for a missing directory, no recognised files or a malformed file, and when
    a MongoDB server is configured (the import is for the embedded store).  Documents go into a fresh
    store that replaces the current one only when every file has loaded: on any failure the current
    data is exactly as it was.
    """
    if not settings.embedded:
        raise ImportFailed("MONGODB_URI is set: the import loads the embedded store; unset MONGODB_URI "
                           "(or use mongorestore for a MongoDB server)")
    files, ignored = find_files(directory)
    data_dir, name = settings.data_dir, settings.mongo_db_name
    data_dir.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".import-", dir=data_dir))
    try:
        summary = _load(staging, name, files, progress, legacy_keys=not _migrated(directory))
        _carry_over_own_collections(data_dir / name, staging / name)
        _swap(data_dir / name, staging / name)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    summary.ignored = ignored
    summary.store = f"{data_dir}/{name}"
    return summary


def _migrated(directory: Path) -> bool:
    """The export says QDash ran its project-scoped migration (its ``migration_ledger``), so every unique key
    must hold without ``username``."""
    path = next((directory / f"{LEDGER}{suffix}" for suffix in SUFFIXES if (directory / f"{LEDGER}{suffix}").is_file()),
                None)
    return path is not None and migrated(read_export(path)[1])


def _load(staging: Path, name: str, files: dict[str, Path], progress: Progress, *,
          legacy_keys: bool = True) -> ImportSummary:
    from pymongo.errors import PyMongoError

    try:
        db = open_embedded(Settings(data_dir=staging, mongo_db_name=name))
    except DatabaseUnavailable as exc:
        raise ImportFailed(str(exc)) from None
    summary = ImportSummary()
    try:
        for collection, path in files.items():
            total, docs = read_export(path)
            batch: list[dict] = []
            for doc in progress(collection, total, docs):
                batch.append(doc)
                if len(batch) >= BATCH:
                    db[collection].insert_many(batch)
                    batch = []
            if batch:
                db[collection].insert_many(batch)
            summary.counts[collection] = total
        summary.notes = [n for n in ensure_indexes(db, legacy_keys=legacy_keys) if KEPT_LEGACY in n]
    except DuplicateDocuments as exc:
        raise ImportFailed(f"{exc}; QDash keeps one such document per key, so the export is inconsistent. "
                           "The current data is unchanged") from None
    except (PyMongoError, DatabaseUnavailable, ValueError, TypeError) as exc:
        raise ImportFailed(f"loading failed ({type(exc).__name__}: {exc}); the current data is unchanged") from None
    finally:
        db.close()
    return summary


def _carry_over_own_collections(current: Path, fresh: Path) -> None:
    """Copy the app's own collection files (anything not a QDash collection) into the fresh store."""
    if not current.is_dir():
        return
    for path in current.iterdir():
        owner = path.name.split(".", 1)[0].split("-", 1)[0]
        if path.is_file() and owner not in QDASH_COLLECTIONS and not (fresh / path.name).exists():
            shutil.copy2(path, fresh / path.name)


def _swap(current: Path, fresh: Path) -> None:
    """Two directory renames: the old store is kept aside until the new one is in place."""
    old = current.with_name(current.name + ".replaced")
    shutil.rmtree(old, ignore_errors=True)
    if current.exists():
        current.rename(old)
    try:
        fresh.rename(current)
    except OSError:
        if old.exists():
            old.rename(current)
        raise
    shutil.rmtree(old, ignore_errors=True)
