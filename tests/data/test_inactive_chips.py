"""QDash's ``chip.activity_status``: an inactive chip is never the default chip, and is marked where chips are
listed; a database without the field behaves as before (the most recently installed chip is the default).
Expected chips are named by hand from the fixture's install dates."""

from __future__ import annotations

import json
import uuid
from datetime import datetime
from collections.abc import Sequence
from typing import Any

import pytest

from copilot_core.agent.context import resolve_target
from copilot_core.analysis.overview import chip_label, chips_frame, default_chip
from copilot_core.data.connection import open_memory_database
from copilot_core.data.plans import EmbeddedPlan, MongoPlan, QueryPlan
from copilot_core.data.repository import CalibrationRepository
from copilot_core.tools import DataStore, Toolkit
from tests.mongo_engine import mongo_plan_database

P1, P2 = "lab-a", "lab-b"


def chip(chip_id: str, day: int, status: str | None, project: str = P1) -> dict[str, Any]:
    doc: dict[str, Any] = {"project_id": project, "username": "alice", "chip_id": chip_id, "size": 64,
                           "installed_at": datetime(2026, 7, day)}
    return doc | ({"activity_status": status} if status is not None else {})


@pytest.fixture(params=["embedded", "mongomock"])
def make_repo(request):
    def _make(chips: list[dict[str, Any]], qubits: Sequence[dict[str, Any]] = ()) -> CalibrationRepository:
        plan: QueryPlan = EmbeddedPlan() if request.param == "embedded" else MongoPlan()
        name = f"inactive-{uuid.uuid4().hex}"
        db = open_memory_database(name) if request.param == "embedded" else mongo_plan_database(name)
        db["chip"].insert_many(chips)
        if qubits:
            db["qubit"].insert_many(list(qubits))
        return CalibrationRepository(db, project_id=P1, plan=plan)

    return _make


MIXED = [chip("64Qnew", 20, "inactive"), chip("64Qmid", 10, None), chip("64Qold", 1, "active"),
         chip("64Qother", 25, "active", project=P2)]


def test_the_newest_active_chip_is_the_default(make_repo):
    repo = make_repo(MIXED)
    listed = repo.list_chips()
    assert [(c["chip_id"], c["active"]) for c in listed] == [("64Qnew", False), ("64Qmid", True), ("64Qold", True)]
    assert repo.default_chip_id() == "64Qmid"
    assert (default_chip(listed) or {}).get("chip_id") == "64Qmid"  # what the pages open on
    assert resolve_target(repo, None, None)[0] == "64Qmid"  # what the copilot's tools run on
    assert repo.get_chip("64Qnew") is not None  # an inactive chip is still read when named


def test_inactive_chips_are_marked_in_the_lists(make_repo):
    listed = make_repo(MIXED).list_chips()
    assert [chip_label(c) for c in listed] == ["64Qnew (64 qubits) (inactive)", "64Qmid (64 qubits)",
                                               "64Qold (64 qubits)"]
    assert list(chips_frame(listed)["chip"]) == ["64Qnew (inactive)", "64Qmid", "64Qold"]


def test_a_database_without_the_field_behaves_as_before(make_repo):
    repo = make_repo([chip("16Qa", 3, None), chip("16Qb", 9, None)])
    assert repo.default_chip_id() == "16Qb"
    assert all(c["active"] for c in repo.list_chips())
    assert (default_chip(repo.list_chips()) or {}).get("chip_id") == "16Qb"


def test_no_default_when_every_chip_is_inactive(make_repo):
    repo = make_repo([chip("16Qa", 3, "inactive"), chip("16Qb", 9, "inactive")])
    assert repo.default_chip_id() is None
    assert default_chip(repo.list_chips()) is None
    assert resolve_target(repo, None, None)[0] is None


def test_the_copilot_s_tools_run_on_the_newest_active_chip(make_repo):
    qubits = [{"project_id": P1, "chip_id": c, "qid": "5", "data": {"t1": {"value": t1, "unit": "μs"}}}
              for c, t1 in (("64Qnew", 11.0), ("64Qmid", 22.0), ("64Qold", 33.0))]
    kit = Toolkit(make_repo(MIXED, qubits), store=DataStore())
    kit.begin_request()
    outcome = kit.execute("get_qubit_params", {"qid": "5"})  # no chip_id: the default chip
    payload = json.loads(outcome.model_text)
    assert outcome.ok and payload["chip_id"] == "64Qmid" and payload["parameters"]["t1"]["value"] == 22.0
    missing = kit.execute("get_qubit_params", {"qid": "5", "chip_id": "nochip"})
    assert not missing.ok and "available chips: 64Qnew (inactive), 64Qmid, 64Qold" in missing.model_text
