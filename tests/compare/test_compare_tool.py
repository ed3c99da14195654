"""compare_calibrations through the real Toolkit: the model gets a summary, the store the full table; the
what-changed skill is picked for the questions it is meant for."""

from __future__ import annotations

import json

import pytest

from copilot_core.domain.metrics import metric
from copilot_core.skills.library import SkillLibrary
from copilot_core.tools import DataStore, Toolkit
from tests.compare.conftest import OLD_PROJECT, executions_of, expected_point


@pytest.fixture
def kit(old_repo):
    toolkit = Toolkit(old_repo, store=DataStore())
    toolkit.begin_request()
    return toolkit


def test_summary_for_the_model_full_table_in_the_store(kit, old_db):
    outcome = kit.execute("compare_calibrations", {"chip_id": "16Qv1"})
    assert outcome.ok and outcome.data_keys == ["comparison"]
    seen = json.loads(outcome.model_text)
    assert seen["data_key"] == "comparison" and seen["rows"]["_rows"] > 100 and len(outcome.model_text) < 6000
    runs = [e for e in executions_of(old_db, OLD_PROJECT, "16Qv1") if e["status"] == "completed"]
    assert runs[0]["execution_id"] in seen["to"] and runs[1]["execution_id"] in seen["from"]
    frame = kit.store.frame("comparison")
    a = expected_point(old_db, OLD_PROJECT, "16Qv1", [runs[1]["execution_id"]])
    b = expected_point(old_db, OLD_PROJECT, "16Qv1", [runs[0]["execution_id"]])
    t1 = frame[(frame["metric"] == "t1") & frame["change"].notna()]
    assert len(t1) == sum(1 for k in a if k[0] == "t1" and k in b)
    for _, row in t1.iterrows():
        assert row["change"] == pytest.approx(b[("t1", row["id"])] - a[("t1", row["id"])])
    assert seen["metrics"]["t1"]["compared"] == len(t1)
    assert isinstance(frame["at_after"].dropna().iloc[0], str)  # ISO text for the sandbox


def test_metrics_filter_and_days(kit):
    outcome = kit.execute("compare_calibrations", {"chip_id": "16Qv1", "from": "-7d", "to": "latest",
                                                   "metrics": ["t1", "x90_gate_fidelity"]})
    assert outcome.ok
    assert set(json.loads(outcome.model_text)["metrics"]) == {"t1", "x90_gate_fidelity"}
    assert set(kit.store.frame("comparison")["unit"]) == {metric("t1").unit, "%"}


@pytest.mark.parametrize("args, fragment", [
    ({"chip_id": "16Qv1", "from": "1999-01-01"}, "no execution on 1999-01-01"),
    ({"chip_id": "nochip"}, "not found"),
    ({"chip_id": "16Qv1", "from": {"$ne": ""}}, "invalid from"),
    ({"chip_id": "16Qv1", "to": "latest; drop"}, "invalid to"),
])
def test_bad_arguments_are_clear_errors(kit, args, fragment):
    outcome = kit.execute("compare_calibrations", args)
    assert not outcome.ok and fragment in outcome.error
    assert json.loads(outcome.model_text)["hint"]


@pytest.mark.parametrize("question", ["What changed since yesterday on 64Qv3?", ("How does T1 look compared to last "
                                      "week?"), "what changed in the last run"])
def test_skill_is_selected(question):
    picked = [m.skill.name for m in SkillLibrary.load().select(question)]
    assert "what-changed" in picked
