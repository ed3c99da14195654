"""Honest lineage: versions from a failed or excluded task are marked, QDash's note dicts reach the model as
compact fields (never Python repr), and ``--full`` keeps full precision.  Expectations from pymongo."""

from __future__ import annotations

import json

import pytest

from copilot_core.data.repository import CalibrationRepository
from copilot_core.tools import DataStore, Toolkit
from tests.data.conftest import CHIP, P1


@pytest.fixture(scope="module")
def repo(contract_db) -> CalibrationRepository:
    return CalibrationRepository(contract_db, project_id=P1)


def _run(repo: CalibrationRepository, name: str, **args):
    kit = Toolkit(repo, store=DataStore(), sandbox=None)
    kit.begin_request()
    outcome = kit.execute(name, args)
    assert outcome.ok, outcome.error
    return outcome, json.loads(outcome.model_text)


def _task_state(db, task_id: str) -> tuple[str | None, bool]:
    doc = db["task_result_history"].find_one({"project_id": P1, "task_id": task_id}, {"_id": 0, "status": 1,
                                                                                       "excluded": 1})
    return (doc["status"], bool(doc.get("excluded"))) if doc else (None, False)


def test_versions_from_failed_or_excluded_tasks_are_flagged(repo, contract_db):
    versions = list(contract_db["parameter_versions"].find({"project_id": P1, "chip_id": CHIP, "parameter_name": "t1",
                                                            "qid": "0"}, {"_id": 0}))
    invalid = {v["version"] for v in versions if _task_state(contract_db, v["task_id"]) != ("completed", False)}
    assert invalid and invalid != {v["version"] for v in versions}

    rows = repo.parameter_versions(CHIP, "t1", "0", limit=50)
    assert {r["version"] for r in rows if not r["usable"]} == invalid
    for row in rows:
        assert (row["task_status"], row["task_excluded"]) == _task_state(contract_db, row["task_id"])

    outcome, shown = _run(repo, "get_parameter_lineage", parameter_name="t1", qid="0", chip_id=CHIP)
    flagged = {v["version"]: v.get("not_valid") for v in shown["versions"]}
    assert {v for v, why in flagged.items() if why} == invalid
    failed = next(v for v in versions if _task_state(contract_db, v["task_id"])[0] == "failed")
    excluded = next(v for v in versions if _task_state(contract_db, v["task_id"])[1])
    assert flagged[failed["version"]] == "its task failed"
    assert flagged[excluded["version"]] == "its task result was excluded"
    assert "never quote" in shown["note"]
    # --full (the stored result) keeps the stored precision
    full = {v["version"]: v["value"] for v in outcome.full["versions"]}
    assert full[failed["version"]] == failed["value"]

    _, graph = _run(repo, "get_provenance_lineage_graph", entity_id=failed["entity_id"], chip_id=CHIP)
    root = next(n for n in graph["nodes"] if n.get("depth") == 0)
    assert root["not_valid"] == "its task failed"


def test_note_dicts_are_compact_fields(repo, contract_db):
    with_note = contract_db["task_result_history"].find_one({"project_id": P1, "user_note.content": {"$exists": True}},
                                                           {"_id": 0})
    empty_note = contract_db["task_result_history"].find_one({"project_id": P1, "ai_review_note.summary": ""},
                                                            {"_id": 0})
    _, shown = _run(repo, "search_task_results", chip_id=CHIP, qid=with_note["qid"], last_n=50)
    text = json.dumps(shown)
    assert "{'" not in text and "None" not in text  # never a Python repr
    by_id = {r["task_id"]: r for r in shown["results"]}
    assert by_id[with_note["task_id"]]["user_note"] == {"untrusted_data": {
        "content": with_note["user_note"]["content"], "updated_by": with_note["user_note"]["updated_by"]}}
    assert "ai_review_note" not in by_id[empty_note["task_id"]]
