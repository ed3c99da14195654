"""Fixtures for the tool tests: a fresh toolkit per test on the shared demo repository (root conftest)."""

from __future__ import annotations

import functools
import json
from datetime import datetime
from typing import Any

import pytest

from copilot_core.sandbox import run_analysis
from copilot_core.tools import DataStore, ToolOutcome, Toolkit


# The MongoDB plan's run reads 12 days of the same demo chips: every question the tool tests ask (latest values,
# windows, the 10 newest runs, lineage) has its answer there, and mongomock filters in Python: a month
# of both chips (101k documents) took ~9 minutes for these tests alone.
MONGO_PLAN_DAYS = 12


@pytest.fixture(scope="session", params=["embedded", "mongo_plan"])
def repo(request, demo_db, demo_now):
    """Every tool test runs twice: on the embedded engine (EmbeddedPlan) with the session's demo, and on
    mongomock, which executes the MongoDB plan (server-side sort, limit, aggregation, distinct), with
    12 days of the same demo chips.  Expected values read the repository's own documents (``db``)."""
    from copilot_core.data.repository import CalibrationRepository

    if request.param == "embedded":
        return CalibrationRepository(demo_db)
    found = CalibrationRepository(_mongo_plan_demo(demo_now))
    assert found.plan.name == "mongodb"
    return found


@functools.cache
def _mongo_plan_demo(now: datetime) -> Any:
    """The MongoDB plan's demo, seeded once per process: a parallel worker runs each test file's embedded tests
    and then its MongoDB-plan tests, so the session fixture above switches engine once per file; the tools only
    read it, so every switch may reuse the same documents."""
    from copilot_core.demo.seed import chip_specs, seed_database
    from tests.conftest import DEMO_SEED
    from tests.mongo_engine import mongo_plan_database

    db = mongo_plan_database("tools-mongo_plan")
    seed_database(db, chip_specs(days=MONGO_PLAN_DAYS), seed=DEMO_SEED, now=now)
    return db


@pytest.fixture(scope="session")
def db(repo):
    """The raw documents behind ``repo`` (pymongo API), for expected values computed without the repository."""
    return repo.db


@pytest.fixture(scope="session")
def chip_by_size(repo) -> dict[int, str]:
    return {int(c["size"]): c["chip_id"] for c in repo.list_chips()}


@pytest.fixture(scope="session")
def chip144(chip_by_size) -> str:
    return chip_by_size[144]


@pytest.fixture(scope="session")
def chip64(chip_by_size) -> str:
    return chip_by_size[64]


@pytest.fixture
def store() -> DataStore:
    return DataStore()


@pytest.fixture
def kit(repo, store) -> Toolkit:
    toolkit = Toolkit(repo, store=store, sandbox=run_analysis)
    toolkit.begin_request()
    return toolkit


@pytest.fixture
def call(kit):
    """``call(name, **args) -> (outcome, parsed model_text)``; asserts the model text is valid JSON."""

    def run(name: str, **args) -> tuple[ToolOutcome, dict]:
        outcome = kit.execute(name, args)
        payload = json.loads(outcome.model_text)
        assert len(outcome.model_text) <= kit.max_result_chars
        return outcome, payload

    return run


@pytest.fixture(scope="session")
def live64(db, chip64) -> list[str]:
    """Qubits of the 64-qubit chip holding a T1 value (the demo has dead qubits), in qid order."""
    docs = db["qubit"].find({"chip_id": chip64})
    return sorted((d["qid"] for d in docs if (d.get("data") or {}).get("t1")), key=int)
