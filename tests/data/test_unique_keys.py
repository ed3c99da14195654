"""QDash's project-scoped unique keys (its ``project-scoped-calibration-v1`` migration) on both engines.

Two projects may share a chip id; one project holds one chip, one qubit, one daily snapshot (whoever
wrote it); a database from before the migration (one copy per user) still loads and reads.  Expected
keys are written out by hand from QDash's migration, not taken from the code under test.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from bson import json_util
from pymongo.errors import DuplicateKeyError

from copilot_core.data.connection import ensure_indexes, open_database, open_memory_database
from copilot_core.data.importer import ImportFailed, import_export
from copilot_core.data.plans import EmbeddedPlan, MongoPlan
from copilot_core.data.repository import CalibrationRepository
from copilot_core.data.unique_keys import DuplicateDocuments
from copilot_core.settings import Settings
from tests.mongo_engine import mongo_plan_database

CHIP = "64Qshared"
P1, P2 = "lab-a", "lab-b"
WHEN = datetime(2026, 8, 1, 3, 0, 0)

# QDash's keys after the migration, copied by hand from dbmodel/project_calibration_migration.py.
EXPECTED_UNIQUE = {
    "chip": ["project_id", "chip_id"],
    "qubit": ["project_id", "chip_id", "qid"],
    "coupling": ["project_id", "chip_id", "qid"],
    "chip_history": ["project_id", "chip_id", "recorded_date"],
    "qubit_history": ["project_id", "chip_id", "qid", "recorded_date"],
    "coupling_history": ["project_id", "chip_id", "qid", "recorded_date"],
    "calibration_note": ["project_id", "execution_id", "task_id", "chip_id"],
    "execution_counter": ["project_id", "date", "chip_id"],
}


def _doc(collection: str, project: str, username: str, value: float) -> dict[str, Any]:
    """One document of ``collection`` for CHIP in ``project``; ``value`` tells the copies apart."""
    base: dict[str, Any] = {"project_id": project, "username": username, "chip_id": CHIP}
    data = {"t1": {"parameter_name": "t1", "value": value, "unit": "μs", "calibrated_at": WHEN}}
    extra: dict[str, dict[str, Any]] = {
        "chip": {"size": 64, "installed_at": WHEN, "activity_status": "active"},
        "qubit": {"qid": "5", "data": data},
        "coupling": {"qid": "4-5", "data": {"zx90_gate_fidelity": {"value": value / 100, "unit": "a.u."}}},
        "chip_history": {"recorded_date": "20260801", "size": 64},
        "qubit_history": {"qid": "5", "recorded_date": "20260801", "data": data},
        "coupling_history": {"qid": "4-5", "recorded_date": "20260801", "data": {}},
        "calibration_note": {"execution_id": "20260801-001", "task_id": "master", "note": {"v": value}},
        "execution_counter": {"date": "20260801", "index": int(value)},
    }
    return base | extra[collection]


def _t1(repo: CalibrationRepository) -> float:
    params = repo.qubit_params(CHIP, "5")
    assert params is not None
    return float(params["t1"]["value"])


def _unique_keys(db: Any, collection: str) -> list[list[str]]:
    return [[k for k, _ in info["key"]] for name, info in db[collection].index_information().items()
            if info.get("unique")]


@pytest.fixture(params=["embedded", "mongomock"])
def engine(request) -> tuple[Any, Any]:
    if request.param == "embedded":
        return open_memory_database(f"keys-{uuid.uuid4().hex}"), EmbeddedPlan()
    return mongo_plan_database(f"keys-{uuid.uuid4().hex}"), MongoPlan()


def test_two_projects_share_a_chip_id_and_read_their_own(engine):
    db, plan = engine
    for collection in EXPECTED_UNIQUE:
        db[collection].insert_many([_doc(collection, P1, "alice", 40.0), _doc(collection, P2, "bob", 90.0)])
    assert ensure_indexes(db) == []
    for collection, keys in EXPECTED_UNIQUE.items():
        assert keys in _unique_keys(db, collection), collection
    for project, t1 in ((P1, 40.0), (P2, 90.0)):
        repo = CalibrationRepository(db, project_id=project, plan=plan)
        assert [c["chip_id"] for c in repo.list_chips()] == [CHIP]
        assert _t1(repo) == t1


@pytest.mark.parametrize("collection", list(EXPECTED_UNIQUE))
def test_a_second_user_copy_is_a_duplicate_under_the_new_key(engine, collection):
    db, _ = engine
    db[collection].insert_one(_doc(collection, P1, "alice", 40.0))
    ensure_indexes(db)
    with pytest.raises(DuplicateKeyError):
        db[collection].insert_one(_doc(collection, P1, "bob", 41.0))  # the old key allowed this
    db[collection].insert_one(_doc(collection, P2, "bob", 41.0))  # another project: its own document
    assert db[collection].count_documents({"chip_id": CHIP}) == 2


def test_a_database_from_before_the_migration_keeps_its_username_keys(engine):
    db, plan = engine
    db["chip"].insert_many([_doc("chip", P1, "alice", 1.0) | {"installed_at": datetime(2026, 7, 1)},
                            _doc("chip", P1, "bob", 2.0)])
    db["qubit"].insert_many([_doc("qubit", P1, "alice", 40.0), _doc("qubit", P1, "bob", 45.0)])
    notes = ensure_indexes(db)
    assert sorted(n.split(":")[0] for n in notes) == ["chip", "qubit"]
    assert _unique_keys(db, "qubit") == [["project_id", "chip_id", "qid", "username"]]
    assert _unique_keys(db, "coupling") == [EXPECTED_UNIQUE["coupling"]]  # no copies there: the new key
    repo = CalibrationRepository(db, project_id=P1, plan=plan)
    assert [c["chip_id"] for c in repo.list_chips()] == [CHIP]  # one chip, not one per user
    assert _t1(repo) in (40.0, 45.0)
    with pytest.raises(DuplicateKeyError):  # the old key still holds
        db["qubit"].insert_one(_doc("qubit", P1, "bob", 50.0))


def test_documents_repeating_even_the_old_key_are_named(engine):
    db, _ = engine
    db["qubit"].insert_many([_doc("qubit", P1, "alice", 40.0), _doc("qubit", P1, "alice", 41.0)])
    with pytest.raises(DuplicateDocuments) as caught:
        ensure_indexes(db)
    assert str(caught.value) == ("qubit: 2 documents share the unique key (project_id='lab-a', "
                                 "chip_id='64Qshared', qid='5', username='alice')")


# ---- import of a QDash dump (embedded store only) --------------------------------------------------------

def _dump(directory: Path, docs: dict[str, list[dict]]) -> Path:
    directory.mkdir()
    for name, items in docs.items():
        text = "\n".join(json_util.dumps(d, json_options=json_util.CANONICAL_JSON_OPTIONS) for d in items)
        (directory / f"{name}.json").write_text(text, encoding="utf-8")
    return directory


def test_import_of_a_project_scoped_dump(tmp_path):
    docs = {c: [_doc(c, P1, "alice", 40.0), _doc(c, P2, "carol", 90.0)] for c in EXPECTED_UNIQUE}
    docs["migration_ledger"] = [{"migration_id": "project-scoped-calibration-v1", "status": "completed"}]
    settings = Settings(data_dir=tmp_path / "data")
    summary = import_export(_dump(tmp_path / "dump", docs), settings)
    assert summary.counts == {c: 2 for c in sorted(EXPECTED_UNIQUE)}
    assert summary.ignored == ["migration_ledger.json"] and summary.notes == []
    db = open_database(settings)
    try:
        for collection, keys in EXPECTED_UNIQUE.items():
            assert keys in _unique_keys(db, collection), collection
        assert db["qubit_history"].find_one({"project_id": P2}, {"_id": 0})["data"]["t1"]["value"] == 90.0
        assert _t1(CalibrationRepository(db, project_id=P2)) == 90.0
    finally:
        db.close()


def test_import_of_a_dump_from_before_the_migration_says_which_keys_it_kept(tmp_path):
    docs = {"chip": [_doc("chip", P1, "alice", 1.0)],
            "qubit": [_doc("qubit", P1, "alice", 40.0), _doc("qubit", P1, "bob", 45.0)]}
    summary = import_export(_dump(tmp_path / "dump", docs), Settings(data_dir=tmp_path / "data"))
    assert summary.counts == {"chip": 1, "qubit": 2}
    assert len(summary.notes) == 1 and summary.notes[0].startswith("qubit: one copy per user")
    assert "note: qubit: one copy per user" in summary.text()


def test_import_refuses_a_dump_with_duplicate_keys_and_keeps_the_current_data(tmp_path):
    settings = Settings(data_dir=tmp_path / "data")
    import_export(_dump(tmp_path / "good", {"chip": [_doc("chip", P1, "alice", 1.0)]}), settings)
    bad = {"chip": [_doc("chip", P2, "dave", 1.0)],
           "calibration_note": [_doc("calibration_note", P1, "alice", 1.0), _doc("calibration_note", P1, "alice", 2.0)]}
    with pytest.raises(ImportFailed) as caught:
        import_export(_dump(tmp_path / "bad", bad), settings)
    message = str(caught.value)
    assert message.startswith("calibration_note: 2 documents share the unique key (project_id='lab-a', "
                              "execution_id='20260801-001', task_id='master', username='alice', chip_id='64Qshared')")
    assert message.endswith("The current data is unchanged")
    db = open_database(settings)
    try:
        assert [d["project_id"] for d in db["chip"].find({}, {"_id": 0})] == [P1]
        assert db["calibration_note"].count_documents({}) == 0
    finally:
        db.close()


def test_a_migrated_dump_must_hold_the_project_keys(tmp_path):
    """QDash's ledger says the migration ran, so two users' copies of one qubit are an inconsistent export."""
    docs = {"qubit": [_doc("qubit", P1, "alice", 40.0), _doc("qubit", P1, "bob", 45.0)],
            "migration_ledger": [{"migration_id": "project-scoped-calibration-v1", "status": "completed"}]}
    with pytest.raises(ImportFailed) as caught:
        import_export(_dump(tmp_path / "dump", docs), Settings(data_dir=tmp_path / "data"))
    assert str(caught.value).startswith("qubit: 2 documents share the unique key (project_id='lab-a', "
                                        "chip_id='64Qshared', qid='5');")
