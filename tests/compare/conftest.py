"""Databases for the comparison tests and an independent reading of them.

``qdash_db``: the data layer's hand-made QDash fixture (failed tasks, excluded outliers, NaN stored as 0,
two projects) on the embedded engine.  ``old_db``: a 16-qubit demo chip whose history ended in March 2024
under its own project id, as a lab's old QDash database looks.  ``expected_point`` reads
``task_result_history`` with plain pymongo queries, so expected values never come from the code under test.
"""

from __future__ import annotations

import copy
import math
import uuid
from collections import defaultdict
from datetime import datetime

import pytest

from copilot_core.data.connection import ensure_indexes, open_memory_database
from copilot_core.data.repository import CalibrationRepository
from copilot_core.demo.seed import chip_specs, seed_database
from tests.data.conftest import DOCS, P1

OLD_NOW = datetime(2024, 3, 1, 12, 0)
OLD_PROJECT = "lab-old"


@pytest.fixture(scope="session")
def qdash_db():
    db = open_memory_database(f"compare-qdash-{uuid.uuid4().hex}")
    for collection, docs in DOCS.items():
        db[collection].insert_many(copy.deepcopy(docs))
    ensure_indexes(db)
    yield db
    db.close()


@pytest.fixture(scope="session")
def qdash_repo(qdash_db) -> CalibrationRepository:
    return CalibrationRepository(qdash_db, project_id=P1)


@pytest.fixture(scope="session")
def old_db():
    db = open_memory_database(f"compare-old-{uuid.uuid4().hex}")
    seed_database(db, chip_specs((16,), days=12), seed=11, now=OLD_NOW, project_id=OLD_PROJECT)
    yield db
    db.close()


@pytest.fixture(scope="session")
def old_repo(old_db) -> CalibrationRepository:
    return CalibrationRepository(old_db, project_id=OLD_PROJECT)


def _number(raw):
    if raw is None or isinstance(raw, bool):
        return None
    try:
        value = float(raw)
    except (TypeError, ValueError):
        return None
    return None if not math.isfinite(value) or value == 0 else value


def expected_point(db, project: str, chip_id: str, execution_ids: list[str]) -> dict[tuple[str, str], float]:
    """{(parameter, stored qid): raw value}: per qubit and parameter the newest completed, non-excluded,
    non-zero value among the given executions, read with a direct query."""
    docs = db["task_result_history"].find({"project_id": project, "chip_id": chip_id,
                                           "execution_id": {"$in": execution_ids}})
    best: dict[tuple[str, str], tuple] = {}
    for doc in docs:
        if doc.get("status") != "completed" or doc.get("excluded"):
            continue
        for name, model in (doc.get("output_parameters") or {}).items():
            value = _number(model.get("value") if isinstance(model, dict) else model)
            if value is None:
                continue
            key = (name, doc["qid"])
            stamp = (doc["start_at"], doc["task_id"])
            if key not in best or stamp > best[key][0]:
                best[key] = (stamp, value)
    return {k: v for k, (_, v) in best.items()}


def executions_of(db, project: str, chip_id: str) -> list[dict]:
    """Execution documents newest first, straight from the database."""
    rows = db["execution_history"].find({"project_id": project, "chip_id": chip_id})
    return sorted(rows, key=lambda d: (d["start_at"], d["execution_id"]), reverse=True)


def window_values(db, project: str, chip_id: str, since, until) -> dict[tuple[str, str], list[float]]:
    """Every completed, non-excluded, non-zero value of executions started in [since, until)."""
    ids = [e["execution_id"] for e in executions_of(db, project, chip_id) if since <= e["start_at"] < until]
    out: dict[tuple[str, str], list[float]] = defaultdict(list)
    for doc in db["task_result_history"].find({"project_id": project, "chip_id": chip_id,
                                               "execution_id": {"$in": ids}}):
        if doc.get("status") != "completed" or doc.get("excluded"):
            continue
        for name, model in (doc.get("output_parameters") or {}).items():
            value = _number(model.get("value") if isinstance(model, dict) else model)
            if value is not None:
                out[(name, doc["qid"])].append(value)
    return out
