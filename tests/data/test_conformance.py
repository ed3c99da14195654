"""Both query plans answer every repository read the same way, on a hand-written adversarial fixture.

``EmbeddedPlan`` runs on litemongo, ``MongoPlan`` on mongomock (an independent pymongo-API engine).
The fixture is what real QDash labs produce and what a shortcut in a plan gets wrong:

- overlapping executions: a re-run (E2) starts while the long run E1 is still going, and E1 writes
  qubit 0's newest T1 after E2's; a three-day run E0 writes the newest T1 of qubit 6;
- two results of qubit 1 with the same start time (ties are broken by task id, ascending);
- qubit 2's newest T1 is NaN and qubit 3's is QDash's NaN-as-0 (``last_n`` counts usable values only);
- qubit 4's newest result failed, qubit 5's newest is excluded;
- qubit 7's newest T1 has no ``execution_id``;
- project P2 measured the same chip id later (never visible to P1);
- the whole database is a year old (windows count back from the chip's last execution, not now).

Every expected value below is written by hand from the fixture, not computed by the code under test.
"""

from __future__ import annotations

import copy
import math
import uuid
from datetime import datetime, timedelta

import pytest

from copilot_core.data.connection import ensure_indexes, open_memory_database
from copilot_core.data.repository import CalibrationRepository
from tests.mongo_engine import mongo_plan_database

CHIP = "8Qx"
P1, P2 = "lab-a", "lab-b"
T0 = datetime(2025, 6, 1, 8, 0)  # a year-old database
H = timedelta(hours=1)
M = timedelta(minutes=1)

E0, E1, E2, E3 = "20250529-001", "20250601-001", "20250601-002", "20250601-003"


def _exec(eid: str, start: datetime, end: datetime | None, project: str = P1) -> dict:
    return {"project_id": project, "execution_id": eid, "name": "daily", "chip_id": CHIP, "status": "completed",
            "tags": ["daily"], "start_at": start, "end_at": end, "elapsed_time": 1.0, "note": {}}


def _t1(task: str, qid: str, start: datetime, value: float, eid: str | None, *, status: str = "completed",
        excluded: bool = False, project: str = P1, name: str = "CheckT1", param: str = "t1",
        unit: str = "μs") -> dict:
    outputs = {} if status == "failed" else {param: {"value": value, "unit": unit, "error": 0.5,
                                                     "calibrated_at": start + M, "task_id": task}}
    doc = {"project_id": project, "username": "u", "task_id": task, "name": name, "task_type": "qubit", "qid": qid,
           "chip_id": CHIP, "status": status, "message": "", "output_parameters": outputs,
           "output_parameter_names": list(outputs), "start_at": start, "end_at": start + M, "elapsed_time": 60.0,
           "excluded": excluded, "tags": [], "user_note": "", "ai_review_note": ""}
    if eid is not None:
        doc["execution_id"] = eid
        for model in outputs.values():
            model["execution_id"] = eid
    return doc


def _tid(n: int) -> str:
    return str(uuid.UUID(int=n, version=4))


def _build() -> dict[str, list[dict]]:
    executions = [_exec(E0, T0 - 3 * 24 * H, T0 + 3 * H), _exec(E1, T0, T0 + 3 * H),
                  _exec(E2, T0 + H, T0 + 1.5 * H), _exec(E3, T0 + 2 * H, T0 + 2.5 * H),
                  _exec("20250601-901", T0 + 4 * H, T0 + 5 * H, project=P2)]
    tasks = [
        # q0: E2 (the newer execution) measured 50 at +1:05; E1 (older, still running) measured 60 at +2:30
        _t1(_tid(1), "0", T0 + 65 * M, 50.0, E2),
        _t1(_tid(2), "0", T0 + 150 * M, 60.0, E1),
        # q1: two results at the same instant: task id 3 sorts first
        _t1(_tid(3), "1", T0 + 125 * M, 30.0, E3),
        _t1(_tid(4), "1", T0 + 125 * M, 31.0, E3),
        _t1(_tid(5), "1", T0 + 10 * M, 20.0, E1),
        # q2: 45, 47, 46 then a NaN newest
        _t1(_tid(6), "2", T0 + 10 * M, 45.0, E1),
        _t1(_tid(7), "2", T0 + 20 * M, 47.0, E1),
        _t1(_tid(8), "2", T0 + 70 * M, 46.0, E2),
        _t1(_tid(9), "2", T0 + 126 * M, float("nan"), E3),
        # q3: 44, 43, 42 then NaN-as-0 newest
        _t1(_tid(10), "3", T0 + 11 * M, 44.0, E1),
        _t1(_tid(11), "3", T0 + 21 * M, 43.0, E1),
        _t1(_tid(12), "3", T0 + 71 * M, 42.0, E2),
        _t1(_tid(13), "3", T0 + 127 * M, 0.0, E3),
        # q4: newest failed; q5: newest excluded
        _t1(_tid(14), "4", T0 + 15 * M, 41.0, E1),
        _t1(_tid(15), "4", T0 + 128 * M, 0.0, E3, status="failed"),
        _t1(_tid(16), "5", T0 + 72 * M, 42.5, E2),
        _t1(_tid(17), "5", T0 + 129 * M, 300.0, E3, excluded=True),
        # q6: only the three-day run E0 measured it, after every other execution started
        _t1(_tid(18), "6", T0 - 48 * H, 75.0, E0),
        _t1(_tid(19), "6", T0 + 160 * M, 80.0, E0),
        # q7: a result with no execution_id is its newest
        _t1(_tid(20), "7", T0 + 121 * M, 65.0, E3),
        _t1(_tid(21), "7", T0 + 140 * M, 70.0, None),
        # a second parameter of qubit 0
        _t1(_tid(22), "0", T0 + 130 * M, 5.0, E3, name="CheckRamsey", param="t2_star"),
        # project P2 on the same chip id, newer than everything
        _t1(_tid(90), "0", T0 + 270 * M, 999.0, "20250601-901", project=P2),
        _t1(_tid(91), "1", T0 + 270 * M, 888.0, "20250601-901", project=P2, param="p2_only"),
    ]
    qubits = [{"project_id": P1, "username": "u", "chip_id": CHIP, "qid": str(q), "data": {}} for q in range(8)]
    qubits[0]["data"] = {"t1": {"value": 60.0, "unit": "μs"}, "t2_star": {"value": 5.0, "unit": "μs"}}
    qubits.append({"project_id": P2, "username": "v", "chip_id": CHIP, "qid": "0",
                   "data": {"t1": {"value": 999.0, "unit": "μs"}, "p2_only": {"value": 1.0, "unit": ""}}})
    chips = [{"project_id": P1, "username": "u", "chip_id": CHIP, "size": 8, "installed_at": T0 - 100 * 24 * H},
             {"project_id": P2, "username": "v", "chip_id": CHIP, "size": 8, "installed_at": T0 - 10 * 24 * H}]
    return {"execution_history": executions, "task_result_history": tasks, "qubit": qubits, "chip": chips}


DOCS = _build()


def _load(db):
    for name, docs in DOCS.items():
        db[name].insert_many(copy.deepcopy(docs))
    ensure_indexes(db)
    return db


@pytest.fixture(scope="module")
def pair() -> tuple[CalibrationRepository, CalibrationRepository]:
    embedded = CalibrationRepository(_load(open_memory_database(f"conf-{uuid.uuid4().hex}")), project_id=P1)
    mongo = CalibrationRepository(_load(mongo_plan_database(f"conf-{uuid.uuid4().hex}")), project_id=P1)
    assert (embedded.plan.name, mongo.plan.name) == ("embedded", "mongodb")
    return embedded, mongo


def _same(value):
    """NaN-safe comparison form (NaN != NaN)."""
    if isinstance(value, float) and math.isnan(value):
        return "NaN"
    if isinstance(value, dict):
        return {k: _same(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_same(v) for v in value]
    return value


READS = {
    "metric_values latest": lambda r: r.metric_values(CHIP, "t1"),
    "metric_values best": lambda r: r.metric_values(CHIP, "t1", mode="best"),
    "metric_values average": lambda r: r.metric_values(CHIP, "t1", mode="average"),
    "metric_values latest 1 h": lambda r: r.metric_values(CHIP, "t1", within_hours=1),
    "metric_values average 1 h": lambda r: r.metric_values(CHIP, "t1", mode="average", within_hours=1),
    "metric_values average 1 h before E1": lambda r: r.metric_values(
        CHIP, "t1", mode="average", within_hours=1, window_end=T0),
    "metric_values latest q0": lambda r: r.metric_values(CHIP, "t1", qid="0"),
    "metric_values latest q2": lambda r: r.metric_values(CHIP, "t1", qid="2"),
    "parameter_timeseries q2 last 3": lambda r: r.parameter_timeseries(CHIP, "t1", "2", last_n=3),
    "parameter_timeseries q3 last 3": lambda r: r.parameter_timeseries(CHIP, "t1", "3", last_n=3),
    "parameter_timeseries q1": lambda r: r.parameter_timeseries(CHIP, "t1", "1"),
    "chip_parameter_timeseries": lambda r: r.chip_parameter_timeseries(CHIP, "t1"),
    "chip_parameter_timeseries last 2": lambda r: r.chip_parameter_timeseries(CHIP, "t1", last_n=2),
    "chip_parameter_timeseries since": lambda r: r.chip_parameter_timeseries(CHIP, "t1", since=T0 + 2 * H),
    "task_results chip": lambda r: r.task_results(CHIP, limit=50),
    "task_results chip 3": lambda r: r.task_results(CHIP, limit=3),
    "task_results chip since": lambda r: r.task_results(CHIP, since=T0 + 2 * H, limit=50),
    "task_results q1": lambda r: r.task_results(CHIP, qid="1"),
    "latest_task_result q0": lambda r: r.latest_task_result(CHIP, "CheckT1", "0"),
    "latest_task_result q4": lambda r: r.latest_task_result(CHIP, "CheckT1", "4"),
    "output_parameter_names chip": lambda r: r.output_parameter_names(CHIP),
    "output_parameter_names q0": lambda r: r.output_parameter_names(CHIP, "0"),
    "last_execution_at": lambda r: r.last_execution_at(CHIP),
    "executions": lambda r: r.executions(CHIP),
    "list_chips": lambda r: r.list_chips(),
}


@pytest.mark.parametrize("read", READS)
def test_plans_agree(pair, read):
    embedded, mongo = pair
    assert _same(READS[read](embedded)) == _same(READS[read](mongo))


@pytest.fixture(params=["embedded", "mongodb"])
def repo(request, pair) -> CalibrationRepository:
    return pair[0] if request.param == "embedded" else pair[1]


def test_latest_is_the_newest_result_not_the_newest_execution(repo):
    latest = repo.metric_values(CHIP, "t1")
    values = {q: row["value"] for q, row in latest.items()}
    assert values == {"0": 60.0, "1": 30.0, "2": None, "3": None, "4": 41.0, "5": 42.5, "6": 80.0, "7": 70.0}
    assert latest["0"]["execution_id"] == E1
    assert latest["1"]["task_id"] == _tid(3)
    assert latest["2"]["missing_since"] == T0 + 127 * M
    assert latest["3"]["missing_since"] == T0 + 128 * M


@pytest.mark.parametrize("qid", [str(q) for q in range(8)])
def test_latest_of_one_qubit_is_its_row_of_the_chip(repo, qid):
    assert _same(repo.metric_values(CHIP, "t1", qid=qid)) == _same({qid: repo.metric_values(CHIP, "t1")[qid]})


def test_last_n_counts_usable_values(repo):
    assert [p["value"] for p in repo.parameter_timeseries(CHIP, "t1", "2", last_n=3)] == [45.0, 47.0, 46.0]
    assert [p["value"] for p in repo.parameter_timeseries(CHIP, "t1", "3", last_n=3)] == [44.0, 43.0, 42.0]
    per_qubit = repo.chip_parameter_timeseries(CHIP, "t1", qids=["2"], last_n=2)
    assert [p["value"] for p in per_qubit] == [47.0, 46.0]


def test_window_counts_back_from_the_last_execution_and_sees_long_runs(repo):
    # the chip's last P1 execution started at T0+2h (P2's later run is not ours): the window starts at T0+1h
    # and holds E0's result of qubit 6 (E0 started three days earlier) and qubit 7's result with no run
    assert repo.last_execution_at(CHIP) == T0 + 2 * H
    window = repo.metric_values(CHIP, "t1", mode="average", within_hours=1)
    assert {q: row["value"] for q, row in window.items()} == {
        "0": 55.0, "1": 30.5, "2": 46.0, "3": 42.0, "5": 42.5, "6": 80.0, "7": 67.5}


def test_task_results_since_includes_long_runs_and_results_without_execution(repo):
    since = repo.task_results(CHIP, since=T0 + 2 * H, limit=50)
    assert [r["task_id"] for r in since] == [_tid(n) for n in (19, 2, 21, 22, 17, 15, 13, 9, 3, 4, 20)]


def test_output_parameter_names(repo):
    assert repo.output_parameter_names(CHIP) == ["t1", "t2_star"]
    assert repo.output_parameter_names(CHIP, "0") == ["t1", "t2_star"]


def test_other_project_on_the_same_chip_is_invisible(repo):
    assert all(row["value"] not in (999.0, 888.0) for row in repo.chip_parameter_timeseries(CHIP, "t1"))
    assert "p2_only" not in repo.output_parameter_names(CHIP)
    assert [c["chip_id"] for c in repo.list_chips()] == [CHIP]
