"""Windows count back from the chip's last execution: a database whose last run is a year old still
shows full pages.  The contract fixture, every date moved back a year, on the embedded engine and on
mongomock (MongoDB plan); expectations come from pymongo queries on that database."""

from __future__ import annotations

import copy
import json
import math
import uuid
from datetime import datetime, timedelta

import pytest

from copilot_core.analysis.chip_metrics import chip_metric
from copilot_core.data.connection import ensure_indexes, open_memory_database
from copilot_core.data.repository import CalibrationRepository
from copilot_core.tools import DataStore, Toolkit
from tests.data.conftest import CHIP, DOCS, P1
from tests.mongo_engine import mongo_plan_database

YEAR = timedelta(days=365)


def _shift(value):
    if isinstance(value, datetime):
        return value - YEAR
    if isinstance(value, dict):
        return {k: _shift(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shift(v) for v in value]
    return value


@pytest.fixture(scope="module", params=["embedded", "mongomock"])
def old_db(request):
    db = open_memory_database(f"old-{uuid.uuid4().hex}") if request.param == "embedded" else mongo_plan_database()
    for collection, docs in DOCS.items():
        db[collection].insert_many(_shift(copy.deepcopy(docs)))
    ensure_indexes(db)
    return db


def _last_execution(db) -> datetime:
    docs = db["execution_history"].find({"project_id": P1, "chip_id": CHIP}, {"_id": 0, "start_at": 1})
    return max(d["start_at"] for d in docs)


def _measured_since(db, since: datetime) -> set[str]:
    docs = db["task_result_history"].find({"project_id": P1, "chip_id": CHIP, "status": "completed",
                                           "excluded": {"$ne": True}, "output_parameter_names": "t1"},
                                          {"_id": 0, "qid": 1, "start_at": 1, "output_parameters": 1})
    return {d["qid"] for d in docs if d["start_at"] >= since
            and (v := d["output_parameters"]["t1"]["value"]) and math.isfinite(v)}


@pytest.mark.parametrize("days", [2, 7])
def test_windows_count_back_from_last_execution(old_db, days):
    last = _last_execution(old_db)
    assert last < datetime.utcnow() - timedelta(days=300)  # noqa: DTZ003 - the data really is a year old
    expected = _measured_since(old_db, last - timedelta(days=days))
    assert expected
    repo = CalibrationRepository(old_db, project_id=P1)
    cm = chip_metric(repo, CHIP, "t1", mode="average", within_hours=days * 24)
    assert {q for q, v in cm.values.items() if v is not None} == expected
    assert cm.window == f"{days} days up to {last:%Y-%m-%d}"

    kit = Toolkit(repo, store=DataStore(), sandbox=None)
    kit.begin_request()
    outcome = kit.execute("generate_chip_heatmap", {"chip_id": CHIP, "metric_name": "t1", "selection_mode": "average",
                                                    "within_hours": days * 24})
    assert outcome.ok, outcome.error
    shown = json.loads(outcome.model_text)
    assert shown["stats"]["count"] == len(expected)
    assert shown["window"] == f"{days} days up to {last:%Y-%m-%d}"
