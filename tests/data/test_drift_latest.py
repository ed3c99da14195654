"""Drift flags on a qubit whose newest T1 is NaN stored as 0: it has no latest value, so it is not a drop."""

from __future__ import annotations

import uuid

import pytest

from copilot_core.analysis.drift import drift_flags
from copilot_core.data.connection import ensure_indexes, open_memory_database
from copilot_core.data.repository import CalibrationRepository
from tests.data.conftest import DAY, NOW, P1, _exec_id, _task
from tests.mongo_engine import mongo_plan_database

CHIP = "16Qdrift"


def _docs() -> dict[str, list[dict]]:
    tasks, n = [], 500
    # qid 5 and 6: three usable T1s around 80 μs, then 40 μs; qid 5's newest result is NaN stored as 0
    for qid, values in (("5", (80.0, 82.0, 78.0, 40.0, 0.0)), ("6", (80.0, 82.0, 78.0, 40.0))):
        for day, value in enumerate(values, start=1):
            n += 1
            tasks.append(_task(n, day, "CheckT1", qid, "completed", {"t1": (value, "μs")}, chip=CHIP))
    executions = [{"project_id": P1, "execution_id": _exec_id(day), "name": "daily", "chip_id": CHIP,
                   "status": "completed", "tags": ["daily"], "start_at": NOW - (6 - day) * DAY,
                   "end_at": NOW - (6 - day) * DAY + DAY / 24} for day in range(1, 6)]
    chip = {"project_id": P1, "username": "alice", "chip_id": CHIP, "size": 16, "topology_id": "square-lattice-mux-16"}
    qubits = [{"project_id": P1, "username": "alice", "chip_id": CHIP, "qid": str(q), "data": {}} for q in range(16)]
    return {"chip": [chip], "qubit": qubits, "task_result_history": tasks,
            "execution_history": executions}


@pytest.fixture(params=["memory", "mongomock"])
def repo(request) -> CalibrationRepository:
    db = open_memory_database(f"drift-{uuid.uuid4().hex}") if request.param == "memory" else mongo_plan_database()
    for collection, docs in _docs().items():
        if docs:
            db[collection].insert_many(docs)
    ensure_indexes(db)
    return CalibrationRepository(db, project_id=P1)


def test_a_qubit_whose_newest_t1_is_nan_as_zero_is_not_a_drop(repo):
    chip = repo.get_chip(CHIP)
    drops = {f.qid: f.latest for f in drift_flags(repo, chip, metrics=("t1",)) if f.reason == "drop"}
    assert drops == {"6": pytest.approx(40.0)}
