"""A count of runs holding a failed task result is its own count: neither every run, nor the runs whose own status is
failed, nor the failed results.  Four runs written by hand: one completed holding two failed results, one failed
holding none, one completed with only completed results, one scheduled holding a failed result (never started)."""

from __future__ import annotations

import uuid
from datetime import datetime

from copilot_core.data.connection import open_memory_database
from copilot_core.data.repository import CalibrationRepository

CHIP = "64Qv3"


def _repo() -> CalibrationRepository:
    db = open_memory_database(f"runs-failures-{uuid.uuid4().hex}")
    runs = [("r1", "completed", 20), ("r2", "failed", 21), ("r3", "completed", 22), ("r4", "scheduled", 23)]
    db["chip"].insert_one({"chip_id": CHIP, "size": 64, "installed_at": datetime(2026, 7, 1)})
    db["execution_history"].insert_many([{"execution_id": e, "status": s, "chip_id": CHIP, "name": "daily",
                                          "start_at": datetime(2026, 11, d, 9)} for e, s, d in runs])
    results = [("r1", "0", "failed"), ("r1", "1", "failed"), ("r1", "2", "completed"), ("r2", "0", "completed"),
               ("r3", "0", "completed"), ("r4", "0", "failed")]
    db["task_result_history"].insert_many([
        {"task_id": f"t{i}", "name": "CheckT1", "task_type": "qubit", "qid": q, "chip_id": CHIP, "execution_id": e,
         "status": s, "start_at": datetime(2026, 11, int(e[1]) + 19, 9)} for i, (e, q, s) in enumerate(results)])
    return CalibrationRepository(db)


def test_runs_holding_a_failure_are_counted_apart_from_failed_runs_and_failed_results():
    repo = _repo()
    assert repo.count_in_window(CHIP, "runs with failures") == 1  # r1 (r4 never started)
    assert repo.count_in_window(CHIP, "failed runs") == 1  # r2, by its own status
    assert repo.count_in_window(CHIP, "runs") == 3
    assert repo.count_in_window(CHIP, "failed tasks") == 3  # r1's two and r4's one


def test_a_window_and_a_qubit_narrow_the_runs_holding_a_failure():
    repo = _repo()
    assert repo.count_in_window(CHIP, "runs with failures", since=datetime(2026, 11, 21)) == 0
    assert repo.count_in_window(CHIP, "runs with failures", qid="1") == 1
    assert repo.count_in_window(CHIP, "runs with failures", qid="2") == 0
