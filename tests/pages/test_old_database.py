"""A database whose last execution is a year old: the heatmap's "last 7 days" is full and says what it covers.

The demo is seeded ending a year ago into its own DATA_DIR; the expected qubits come from a pymongo
query on that database (completed, non-excluded, usable T1 in the 7 days before the last execution).
"""

from __future__ import annotations

import math
from datetime import timedelta

from streamlit.testing.v1 import AppTest

from copilot_core.data.connection import open_database
from copilot_core.demo.seed import chip_specs, seed_database, utc_now
from copilot_core.settings import Settings
from tests.pages.conftest import APP, TIMEOUT, texts

CHIP = "64Qv3"


def test_week_window_on_a_year_old_database(tmp_path, monkeypatch):
    data_dir = tmp_path / "old"
    db = open_database(Settings(data_dir=data_dir))
    seed_database(db, chip_specs((64,), days=10), now=utc_now() - timedelta(days=365))
    last = max(d["start_at"] for d in db["execution_history"].find({"chip_id": CHIP}, {"_id": 0, "start_at": 1}))
    since = last - timedelta(days=7)
    measured = {d["qid"] for d in db["task_result_history"].find(
        {"chip_id": CHIP, "status": "completed", "excluded": {"$ne": True}, "output_parameter_names": "t1"},
        {"_id": 0, "qid": 1, "start_at": 1, "output_parameters.t1.value": 1})
        if d["start_at"] >= since and (v := d["output_parameters"]["t1"]["value"]) and math.isfinite(v)}
    db.close()
    assert len(measured) > 32

    for key in ("MONGODB_URI", "MONGO_DB_NAME", "QDASH_PROJECT_ID"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("DATA_DIR", str(data_dir))
    monkeypatch.setenv("CALIBRATION_COPILOT_SECRETS", str(tmp_path / "none.toml"))
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.session_state["chip_id"] = CHIP
    at.run()
    at.switch_page("pages/heatmap.py").run()
    at.selectbox(key="_w_heatmap_window").select("last 7 days").run()
    assert not at.exception, [e.value for e in at.exception]
    shown = texts(at)
    assert not any(t.startswith("No ") for t in shown), shown
    assert any(f"7 days up to {last:%Y-%m-%d}" in t for t in shown), shown
    counts = [m.value for m in at.metric if m.label == "Count"]
    assert counts[0] == f"{len(measured)}/64", counts
