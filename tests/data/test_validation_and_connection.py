"""Operator injection is refused, arguments are bounded, connection errors are clear, threads are safe."""

from __future__ import annotations

import threading
from datetime import datetime

import pytest

from copilot_core.data.connection import (DatabaseUnavailable, describe_target, open_database)
from copilot_core.masking import mask_url
from copilot_core.data.repository import CalibrationRepository
from copilot_core.data.runs import RunReader
from copilot_core.data.validation import InvalidArgument
from copilot_core.settings import Settings
from tests.data.conftest import CHIP, P1

INJECTIONS = [{"$ne": ""}, {"$gt": ""}, ["0"], "0' || '1", "$where", "5; drop", "", " ", None, 3.5, True,
              "a" * 500, "0\n", "x\x00"]
BAD_QIDS = ["Q05", "05", "-1", "1.0", "0-", "1e3"]


@pytest.fixture(scope="module")
def repo1(contract_db):
    return CalibrationRepository(contract_db, project_id=P1)


def _calls(repo, bad):
    """Every public read with ``bad`` in one argument position."""
    return [
        lambda: repo.get_chip(bad),
        lambda: repo.qubit_params(CHIP, bad),
        lambda: repo.qubit_params(bad, "0"),
        lambda: repo.all_qubit_params(bad),
        lambda: repo.coupling_params(CHIP, bad),
        lambda: repo.all_coupling_params(bad),
        lambda: repo.task_results(CHIP, qid=bad),
        lambda: repo.task_results(CHIP, task_name=bad),
        lambda: repo.task_results(CHIP, status=bad),
        lambda: repo.task_results(CHIP, execution_id=bad),
        lambda: repo.latest_task_result(CHIP, "CheckT1", bad),
        lambda: repo.metric_values(CHIP, bad),
        lambda: repo.metric_values(CHIP, "t1", mode=bad),
        lambda: repo.metric_values(CHIP, "t1", kind=bad),
        lambda: repo.parameter_timeseries(CHIP, "t1", bad),
        lambda: repo.parameter_timeseries(CHIP, bad, "0"),
        lambda: repo.chip_parameter_timeseries(CHIP, bad),
        lambda: repo.chip_parameter_timeseries(CHIP, "t1", qids=[bad]),
        lambda: repo.executions(CHIP, status=bad),
        lambda: repo.executions(CHIP, tags=[bad]),
        lambda: repo.calibration_notes(CHIP, execution_id=bad),
        lambda: repo.calibration_notes(CHIP, task_id=bad),
        lambda: repo.parameter_versions(CHIP, "t1", bad),
        lambda: repo.lineage_graph(CHIP, bad),
        lambda: repo.output_parameter_names(CHIP, bad),
    ]


@pytest.mark.parametrize("bad", INJECTIONS, ids=repr)
def test_operator_injection_and_garbage_rejected(repo1, bad):
    for call in _calls(repo1, bad):
        try:
            call()
        except InvalidArgument as exc:
            assert str(exc)  # a message the model or user can act on
        else:
            # None is "no filter" for optional arguments only; everything else must be refused
            assert bad is None, f"accepted {bad!r}"


@pytest.mark.parametrize("name", ["t1.value", "t1.$where", "$t1", "output_parameters.t1"])
def test_parameter_names_cannot_reach_into_paths(repo1, name):
    """Parameter names become dotted field paths, so dots and $ are refused."""
    for call in (lambda: repo1.metric_values(CHIP, name), lambda: repo1.parameter_timeseries(CHIP, name, "0"),
                 lambda: repo1.chip_parameter_timeseries(CHIP, name)):
        with pytest.raises(InvalidArgument):
            call()


@pytest.mark.parametrize("bad", BAD_QIDS)
def test_qids_must_be_plain_decimal(repo1, bad):
    for call in (lambda: repo1.qubit_params(CHIP, bad), lambda: repo1.parameter_timeseries(CHIP, "t1", bad),
                 lambda: repo1.chip_parameter_timeseries(CHIP, "t1", qids=[bad]),
                 lambda: repo1.coupling_params(CHIP, f"{bad}-1")):
        with pytest.raises(InvalidArgument, match="qid|coupling id"):
            call()


@pytest.mark.parametrize("kwargs", [{"limit": 0}, {"limit": 10_001}, {"limit": -1}, {"limit": "5"}, {"limit": 2.0},
                                    {"since": "2026-01-01"}, {"since": datetime(2026, 1, 2), "until": datetime(2026, 1, 1)}])
def test_bounds_on_task_results(repo1, kwargs):
    with pytest.raises(InvalidArgument):
        repo1.task_results(CHIP, **kwargs)


@pytest.mark.parametrize("hours", [0, -5, float("nan"), float("inf"), 10**9, "24"])
def test_bounds_on_windows(repo1, hours):
    with pytest.raises(InvalidArgument, match="within_hours"):
        repo1.metric_values(CHIP, "t1", within_hours=hours)


def test_lineage_depth_bounded(repo1):
    entity = repo1.parameter_versions(CHIP, "t1", "0")[0]["entity_id"]
    for depth in (0, 21, -1):
        with pytest.raises(InvalidArgument, match="max_depth"):
            repo1.lineage_graph(CHIP, entity, max_depth=depth)
    assert repo1.lineage_graph(CHIP, entity, max_depth=20)["nodes"]


def test_int_qid_accepted_as_string(repo1):
    assert repo1.qubit_params(CHIP, 0) == repo1.qubit_params(CHIP, "0")


def test_bad_project_id_rejected(contract_db):
    with pytest.raises(InvalidArgument):
        CalibrationRepository(contract_db, project_id={"$ne": None})


# ---- connection ------------------------------------------------------------------------------------------
def test_mask_and_describe_never_show_password(tmp_path):
    uri = "mongodb://alice:s3cr3t-pw@db.lab.example:27017/qdash?authSource=admin"
    assert "s3cr3t" not in mask_url(uri) and "alice:***@db.lab.example:27017" in mask_url(uri)
    assert describe_target(Settings(mongodb_uri=uri)) == "mongodb://alice:***@db.lab.example:27017/qdash"
    assert describe_target(Settings(mongodb_uri="mongodb://h:1", mongo_db_name="x")) == "mongodb://h:1/x"
    assert "embedded demo database" in describe_target(Settings(data_dir=tmp_path))


def test_unreachable_mongodb_gives_clear_message():
    settings = Settings(mongodb_uri="mongodb://user:topsecret@127.0.0.1:1/qdash?serverSelectionTimeoutMS=300"
                                    "&connectTimeoutMS=300")
    repo = CalibrationRepository(open_database(settings))
    with pytest.raises(DatabaseUnavailable) as info:
        repo.ping()
    message = str(info.value)
    assert "127.0.0.1:1" in message and "topsecret" not in message
    with pytest.raises(DatabaseUnavailable):
        repo.list_chips()
    runs = RunReader(repo)  # the comparison's whole-run reads say the same, never a driver traceback
    for read in (lambda: runs.executions_between("64Qv3"), lambda: runs.results("64Qv3", ["20250601-001"])):
        with pytest.raises(DatabaseUnavailable, match="127.0.0.1:1") as info:
            read()
        assert "topsecret" not in str(info.value)


def test_invalid_uri_gives_clear_message():
    with pytest.raises(DatabaseUnavailable, match="not a valid MongoDB URI") as info:
        open_database(Settings(mongodb_uri="mongodb://user:pw@/"))
    assert "pw" not in str(info.value).replace("password", "")


def test_unwritable_data_dir_gives_clear_message(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(DatabaseUnavailable, match="DATA_DIR"):
        open_database(Settings(data_dir=blocker / "sub"))


def test_embedded_database_shared_across_threads(tmp_path):
    """One cached client serves every Streamlit session thread (plain litemongo raises ProgrammingError)."""
    db = open_database(Settings(data_dir=tmp_path))
    db["chip"].insert_one({"chip_id": "A", "size": 16, "installed_at": datetime(2026, 1, 1)})
    repo = CalibrationRepository(db)
    results, errors = [], []

    def worker():
        try:
            for _ in range(20):
                results.append(repo.list_chips()[0]["chip_id"])
        except Exception as exc:  # noqa: BLE001 - the assertion reports it
            errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    db.close()
    assert not errors and results == ["A"] * 80
