"""Open the calibration database: real MongoDB when configured, else the embedded litemongo store.

One factory decides the engine so pages, tools and tests run the same pymongo-API calls on
either.  Failures become ``DatabaseUnavailable`` whose message names the host (password masked)
and what to check, so a page can show it instead of a traceback.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from copilot_core.data.engine import Database
from copilot_core.data.plans import QueryPlan, plan_for
from copilot_core.data.serial import SerialDatabase, SerialExecutor
from copilot_core.data.unique_keys import PROJECT_KEYS, ensure_unique_key, index_spec
from copilot_core.errors import CopilotError
from copilot_core.masking import mask_url
from copilot_core.settings import Settings


class DatabaseUnavailable(CopilotError):
    """The database cannot be reached or opened; the message is safe to show (no password)."""

    headline = "The calibration database cannot be reached:"


def describe_target(settings: Settings) -> str:
    """Human description of where data comes from, without secrets."""
    if settings.embedded:
        return f"embedded demo database at {_short_path(settings.data_dir)}"
    masked = mask_url(settings.mongodb_uri)
    if "://" in masked and "/" not in masked.split("://", 1)[1].strip("/"):
        masked = masked.rstrip("/") + "/" + settings.mongo_db_name
    return masked


def _short_path(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve())) + "/"
    except ValueError:
        return str(path) + "/"


def open_database(settings: Settings) -> Database:
    """The configured ``Database``: pymongo when ``MONGODB_URI`` is set, else litemongo under DATA_DIR."""
    if settings.embedded:
        return open_embedded(settings)
    return _open_mongo(settings)


def open_embedded(settings: Settings) -> SerialDatabase:
    """The embedded litemongo store under DATA_DIR (seeding and imports, which write only there; close it after)."""
    return _open_embedded(settings.data_dir, settings.mongo_db_name)


def _open_mongo(settings: Settings) -> Database:
    import pymongo
    from pymongo.errors import ConfigurationError, InvalidURI, PyMongoError

    target = describe_target(settings)
    try:
        uri = settings.mongodb_uri or ""
        # A page must not hang: 3 s unless the URI sets its own timeouts.
        timeouts: dict[str, Any] = {k: 3000 for k in ("serverSelectionTimeoutMS", "connectTimeoutMS")
                                    if k.lower() not in uri.lower()}
        client: pymongo.MongoClient = pymongo.MongoClient(uri, **timeouts)
    except (InvalidURI, ConfigurationError, ValueError) as exc:
        raise DatabaseUnavailable(
            f"MONGODB_URI for {target} is not a valid MongoDB URI ({type(exc).__name__}). "
            "Check the value in the environment or .streamlit/secrets.toml.") from None
    except PyMongoError as exc:
        raise DatabaseUnavailable(f"cannot connect to MongoDB at {target} ({type(exc).__name__}).") from None
    return client[settings.mongo_db_name]


def _open_embedded(data_dir: Path, name: str) -> SerialDatabase:
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DatabaseUnavailable(
            f"cannot create the embedded database directory {data_dir}/ ({exc.strerror or exc}). "
            "Check that DATA_DIR points to a writable directory.") from None
    return _serial(f"{data_dir}?engine=sqlite", name, where=f"{data_dir}/", location=data_dir / name)


def open_memory_database(name: str = "test") -> SerialDatabase:
    """An in-memory litemongo database; the same ``name`` in one process shares the same data (tests)."""
    return _serial(f"memory://{name}?engine=memory", "qdash", where=f"memory://{name}")


def _serial(uri: str, db_name: str, *, where: str, location: Path | None = None) -> SerialDatabase:
    """A litemongo database owned by its own worker thread (see ``serial.py`` for why)."""
    import litemongo

    executor = SerialExecutor()

    def open_db() -> Database:
        try:
            return litemongo.connect(uri)[db_name]
        except (OSError, ValueError, sqlite3.Error) as exc:
            raise DatabaseUnavailable(
                f"cannot open the embedded database at {where} ({type(exc).__name__}: {exc}). "
                "Check that DATA_DIR is a writable directory with free space.") from None

    db = SerialDatabase(executor, open_db, db_name, location=location)
    executor.run(db._real_db)  # open now so a broken DATA_DIR fails here, not on the first page
    return db


def query_plan(db: Database) -> QueryPlan:
    """The engine's plan (``plans.plan_for``): every engine-specific read and helper lives there."""
    return plan_for(db)


# QDash's indexes (src/qdash/dbmodel/*.py, qdash-data-model.md §1.3): collection -> [(keys, unique)].
# The unique keys of calibration state are the project-scoped ones (``unique_keys.PROJECT_KEYS``).
QDASH_INDEXES: dict[str, list[tuple[list[tuple[str, int]], bool]]] = {
    "chip": [
        (index_spec(PROJECT_KEYS["chip"]), True),
        ([("project_id", 1), ("username", 1), ("installed_at", -1)], False),
    ],
    "qubit": [
        (index_spec(PROJECT_KEYS["qubit"]), True),
        ([("project_id", 1), ("chip_id", 1)], False),
    ],
    "coupling": [
        (index_spec(PROJECT_KEYS["coupling"]), True),
        ([("project_id", 1), ("chip_id", 1)], False),
    ],
    "chip_history": [
        (index_spec(PROJECT_KEYS["chip_history"]), True),
        ([("project_id", 1), ("chip_id", 1), ("recorded_date", -1)], False),
    ],
    "qubit_history": [
        (index_spec(PROJECT_KEYS["qubit_history"]), True),
        ([("project_id", 1), ("chip_id", 1), ("recorded_date", -1)], False),
    ],
    "coupling_history": [
        (index_spec(PROJECT_KEYS["coupling_history"]), True),
        ([("project_id", 1), ("chip_id", 1), ("recorded_date", -1)], False),
    ],
    "execution_counter": [
        (index_spec(PROJECT_KEYS["execution_counter"]), True),
    ],
    "task_result_history": [
        ([("project_id", 1), ("task_id", 1)], True),
        ([("project_id", 1), ("chip_id", 1), ("name", 1), ("qid", 1), ("end_at", -1)], False),
        ([("project_id", 1), ("chip_id", 1), ("task_type", 1), ("qid", 1), ("start_at", -1)], False),
        ([("project_id", 1), ("chip_id", 1), ("tags", 1), ("start_at", 1)], False),
    ],
    "execution_history": [
        ([("project_id", 1), ("execution_id", 1)], True),
        ([("project_id", 1), ("chip_id", 1), ("start_at", -1)], False),
    ],
    "calibration_note": [
        (index_spec(PROJECT_KEYS["calibration_note"]), True),
    ],
    "parameter_versions": [
        ([("entity_id", 1)], True),
        ([("project_id", 1), ("parameter_name", 1), ("qid", 1), ("version", 1)], True),
    ],
    "provenance_relations": [
        ([("project_id", 1), ("source_id", 1)], False),
        ([("project_id", 1), ("target_id", 1)], False),
    ],
    "provenance_activities": [
        ([("project_id", 1), ("activity_id", 1)], False),
    ],
}

# litemongo builds an in-process hash index for every field named in any index, and only plans
# equality filters with them: these make the metric and lineage reads index-assisted there.
EMBEDDED_EXTRA_INDEXES: dict[str, list[tuple[list[tuple[str, int]], bool]]] = {
    "task_result_history": [([("chip_id", 1), ("output_parameter_names", 1), ("status", 1)], False),
                            ([("chip_id", 1), ("execution_id", 1)], False)],
    "parameter_versions": [([("chip_id", 1), ("parameter_name", 1), ("qid", 1)], False)],
    "calibration_note": [([("chip_id", 1)], False)],
}


def ensure_indexes(db: Database, *, legacy_keys: bool = True) -> list[str]:
    """Create QDash's indexes (idempotent; same ``create_index`` calls on MongoDB and litemongo).

    An index that already exists under another name/options on a real QDash database is left
    alone (QDash created it); a collection from before QDash's project-scoped migration keeps its
    username-keyed unique index (``unique_keys``) unless ``legacy_keys`` is False.  The returned list says
    which were skipped or kept and why; ``DuplicateDocuments`` when documents repeat a unique key.
    """
    from pymongo.errors import OperationFailure, PyMongoError

    specs = dict(QDASH_INDEXES)
    if query_plan(db).embedded:
        specs = {c: QDASH_INDEXES.get(c, []) + EMBEDDED_EXTRA_INDEXES.get(c, [])
                 for c in QDASH_INDEXES.keys() | EMBEDDED_EXTRA_INDEXES.keys()}
    skipped: list[str] = []
    for collection, indexes in specs.items():
        for keys, unique in indexes:
            try:
                if unique and collection in PROJECT_KEYS and keys == index_spec(PROJECT_KEYS[collection]):
                    note = ensure_unique_key(db, collection, legacy=legacy_keys)
                    skipped.extend([note] if note else [])
                else:
                    db[collection].create_index(keys, unique=unique)
            except OperationFailure as exc:  # existing equivalent index with another name/options
                skipped.append(f"{collection} {keys}: {exc.code}")
            except PyMongoError as exc:
                raise DatabaseUnavailable(f"cannot create indexes ({type(exc).__name__}).") from None
    return skipped
