"""The sidebar's chip selector on a database where QDash marks the newest chip inactive: the page opens on the
newest active chip, the inactive one is offered marked "(inactive)", and with every chip inactive nothing
is opened until the user picks.  The database is written by hand into its own DATA_DIR."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from copilot_core.data.connection import ensure_indexes, open_database
from copilot_core.settings import Settings
from tests.conftest import _CLEARED_KEYS
from tests.pages.conftest import APP, TIMEOUT, dataframe, texts


def _database(data_dir: Path, statuses: dict[str, str | None]) -> None:
    """Chips installed one day apart in the order given (the last is the newest), one measured qubit each."""
    db = open_database(Settings(data_dir=data_dir))
    try:
        for day, (chip_id, status) in enumerate(statuses.items(), start=1):
            doc = {"chip_id": chip_id, "username": "alice", "size": 16, "installed_at": datetime(2026, 7, day)}
            db["chip"].insert_one(doc | ({"activity_status": status} if status else {}))
            db["qubit"].insert_one({"chip_id": chip_id, "username": "alice", "qid": "0", "status": "",
                                    "data": {"t1": {"value": 40.0 + day, "unit": "μs"}}})
        ensure_indexes(db)
    finally:
        db.close()


def _open(tmp_path: Path, monkeypatch, statuses: dict[str, str | None]) -> AppTest:
    data_dir = tmp_path / "data"
    _database(data_dir, statuses)
    for key in _CLEARED_KEYS:
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("DATA_DIR", str(data_dir))
    monkeypatch.setenv("CALIBRATION_COPILOT_SECRETS", str(tmp_path / "none.toml"))
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.fixture(autouse=True)
def _fresh_caches():
    import streamlit as st

    st.cache_data.clear()
    st.cache_resource.clear()
    yield
    st.cache_data.clear()
    st.cache_resource.clear()


def test_the_page_opens_on_the_newest_active_chip(tmp_path, monkeypatch):
    at = _open(tmp_path, monkeypatch, {"16Qold": "active", "16Qmid": None, "16Qnew": "inactive"})
    picker = at.sidebar.selectbox(key="_w_chip_id")
    assert picker.value == "16Qmid"
    assert picker.options == ["16Qnew (16 qubits) (inactive)", "16Qmid (16 qubits)", "16Qold (16 qubits)"]
    assert list(dataframe(at, "chip", "coverage")["chip"]) == ["16Qnew (inactive)", "16Qmid", "16Qold"]

    picker.select("16Qnew").run()  # still readable when chosen on purpose
    assert not at.exception, [e.value for e in at.exception]
    assert at.sidebar.selectbox(key="_w_chip_id").value == "16Qnew"


def test_no_chip_is_opened_when_every_chip_is_inactive(tmp_path, monkeypatch):
    at = _open(tmp_path, monkeypatch, {"16Qa": "inactive", "16Qb": "inactive"})
    picker = at.sidebar.selectbox(key="_w_chip_id")
    assert picker.value is None
    assert any(t.startswith("Every chip is marked inactive in QDash") for t in texts(at)), texts(at)
    assert not at.dataframe  # no chip, no chip tables

    picker.select("16Qa").run()
    assert not at.exception, [e.value for e in at.exception]
    assert list(dataframe(at, "chip", "coverage")["chip"]) == ["16Qb (inactive)", "16Qa (inactive)"]
