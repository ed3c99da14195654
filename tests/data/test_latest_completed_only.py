""""Latest" means the newest *completed*, non-excluded result: a newer failed task that still stored output
parameters (QDash keeps a failed fit's numbers) is never read as the current value, on both engines and for every
reader of "latest" (one qubit, the whole chip, the latest task result, the averages and best values)."""

from __future__ import annotations

import uuid

import pytest

from copilot_core.data.connection import open_memory_database
from copilot_core.data.repository import CalibrationRepository
from tests.data.conftest import CHIP, P1, _task
from tests.mongo_engine import mongo_plan_database

# qubit 0: a completed 40 μs (day 1), then a newer FAILED result that stored t1 = 999 μs (day 3);
# qubit 1: a completed 30 μs (day 2), then a newer failed result with t1 = 1.5 μs (day 4).
DOCS = [_task(101, 1, "CheckT1", "0", "completed", {"t1": (40.0, "μs")}),
        _task(102, 3, "CheckT1", "0", "failed", {"t1": (999.0, "μs")}),
        _task(103, 2, "CheckT1", "1", "completed", {"t1": (30.0, "μs")}),
        _task(104, 4, "CheckT1", "1", "failed", {"t1": (1.5, "μs")})]
EXPECTED = {"0": 40.0, "1": 30.0}  # the completed values, by hand


@pytest.fixture(params=["embedded", "mongodb"])
def repo(request) -> CalibrationRepository:
    name = f"latest-{uuid.uuid4().hex}"
    db = open_memory_database(name) if request.param == "embedded" else mongo_plan_database(name)
    db["task_result_history"].insert_many([dict(d) for d in DOCS])
    db["qubit"].insert_many([{"project_id": P1, "chip_id": CHIP, "qid": q, "data": {}} for q in ("0", "1")])
    db["chip"].insert_one({"project_id": P1, "chip_id": CHIP, "size": 16})
    return CalibrationRepository(db, project_id=P1)


def test_the_fixture_has_failed_tasks_with_output_parameters():
    failed = [d for d in DOCS if d["status"] == "failed"]
    assert failed and all(d["output_parameters"]["t1"]["value"] for d in failed)
    assert all(f["start_at"] > c["start_at"] for f in failed for c in DOCS
               if c["qid"] == f["qid"] and c["status"] == "completed")


def test_latest_values_skip_a_newer_failed_result(repo):
    chip = repo.metric_values(CHIP, "t1")
    assert {q: m["value"] for q, m in chip.items()} == EXPECTED
    for qid, value in EXPECTED.items():
        assert repo.metric_values(CHIP, "t1", qid=qid)[qid]["value"] == value


def test_averages_and_best_use_completed_results_only(repo):
    assert {q: m["value"] for q, m in repo.metric_values(CHIP, "t1", mode="average").items()} == EXPECTED
    assert {q: m["value"] for q, m in repo.metric_values(CHIP, "t1", mode="best").items()} == EXPECTED


def test_the_latest_task_result_is_the_completed_one(repo):
    row = repo.latest_task_result(CHIP, "CheckT1", "0")
    assert row is not None and row["status"] == "completed"
    assert row["output_parameters"]["t1"]["value"] == 40.0
