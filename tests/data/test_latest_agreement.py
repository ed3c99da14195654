"""One meaning of "latest" across every view, on each engine and plan (tests/data/conftest.py fixture).

Qubit 0's newest completed, non-excluded T1 is QDash's NaN stored as 0 (a failure and an excluded
outlier come after it): the heatmap, its stat cards and coverage, the Overview's chip health, the
Qubits table, the health report and the tools must all call T1 missing there, showing that
measurement's date, and agree on every other qubit.  Expected values come from a direct pymongo
query on the database, not from the code under test.
"""

from __future__ import annotations

import json
import math
import statistics

import pytest

from copilot_core.analysis.chip_health import chip_health, health_frame
from copilot_core.analysis.chip_metrics import chip_metric, metric_from_params
from copilot_core.analysis.health import qubit_health
from copilot_core.analysis.qubit_table import qubit_table
from copilot_core.data.repository import CalibrationRepository
from copilot_core.tools import DataStore, Toolkit
from tests.data.conftest import CHIP, P1

METRIC = "t1"


@pytest.fixture(scope="module")
def repo(contract_db) -> CalibrationRepository:
    return CalibrationRepository(contract_db, project_id=P1)


@pytest.fixture(scope="module")
def expected(contract_db) -> dict[str, tuple[float | None, str | None]]:
    """qid -> (T1 in µs or None, "YYYY-MM-DD" of the failed newest result or None), straight from pymongo."""
    out: dict[str, tuple[float | None, str | None]] = {}
    cursor = contract_db["task_result_history"].find(
        {"project_id": P1, "chip_id": CHIP, "status": "completed", "excluded": {"$ne": True},
         "output_parameter_names": METRIC}, {"_id": 0, "qid": 1, "start_at": 1, "output_parameters": 1})
    for doc in sorted(cursor, key=lambda d: d["start_at"], reverse=True):
        if doc["qid"] in out:
            continue
        model = doc["output_parameters"][METRIC]
        value = model["value"]
        usable = isinstance(value, (int, float)) and math.isfinite(value) and value != 0
        out[doc["qid"]] = (float(value) if usable else None,
                           None if usable else f"{model['calibrated_at']:%Y-%m-%d}")
    assert any(v is None for v, _ in out.values()) and any(v is not None for v, _ in out.values())
    return out


def _tool(repo: CalibrationRepository, name: str, *, full: bool = False, **args) -> dict:
    """What the model reads, or (``full``) the stored tool's whole result."""
    kit = Toolkit(repo, store=DataStore(), sandbox=None)
    kit.begin_request()
    outcome = kit.execute(name, args)
    assert outcome.ok, outcome.error
    return outcome.full if full else json.loads(outcome.model_text)


def test_every_view_agrees_on_latest(repo, expected):
    chip = repo.get_chip(CHIP)
    failed = {q: day for q, (v, day) in expected.items() if v is None}
    valid = {q: v for q, (v, _) in expected.items() if v is not None}
    measured = len(valid)

    heatmap = chip_metric(repo, CHIP, METRIC)  # the heatmap page and generate_chip_heatmap
    merged = metric_from_params(chip, repo.all_qubit_params(CHIP), METRIC)  # Overview health, Qubits table source
    for cm in (heatmap, merged):
        for qid, value in valid.items():
            assert cm.values[qid] == pytest.approx(value)
        for qid, day in failed.items():
            assert cm.values[qid] is None
            assert cm.missing_reason(qid) == f"no valid value since {day}"
        assert cm.stats["count"] == measured  # stat cards
        assert cm.stats["coverage"] == pytest.approx(measured / chip["size"])  # coverage

    overview = next(h for h in chip_health(chip, repo.all_qubit_params(CHIP)) if h.chip_metric.metric.name == METRIC)
    assert overview.missing == chip["size"] - measured
    health_row = health_frame([overview]).iloc[0]
    assert (health_row["coverage"], health_row["NaN latest"]) == (f"{measured}/{chip['size']}", len(failed))

    table = qubit_table(chip, repo.all_qubit_params(CHIP)).set_index("qid")
    t1_column = next(c for c in table.columns if c.startswith("T1"))
    for qid, day in failed.items():
        assert math.isnan(table.loc[qid, t1_column])
        assert f"since {day}" in table.loc[qid, "no valid value"]
    for qid, value in valid.items():
        assert table.loc[qid, t1_column] == pytest.approx(value)

    for qid, day in failed.items():
        report = qubit_health(repo, CHIP, qid)
        check = next(m for m in report.metrics if m.name == METRIC)
        assert check.value is None and check.missing == f"no valid value since {day}"
        assert f"no valid value since {day}" in report.to_markdown()

    heat_tool = _tool(repo, "generate_chip_heatmap", chip_id=CHIP, metric_name=METRIC)
    assert heat_tool["stats"]["count"] == measured
    assert set(heat_tool["no_valid_latest"].values()) == {f"no valid value since {d}" for d in failed.values()}
    summary = _tool(repo, "get_chip_summary", chip_id=CHIP, param_names=[METRIC])
    assert set(summary["no_valid_latest"][METRIC].values()) == {f"no valid value since {d}" for d in failed.values()}
    for qid, day in failed.items():
        params = _tool(repo, "get_qubit_params", chip_id=CHIP, qid=qid)["parameters"][METRIC]
        assert params["value"] is None and params["missing"] == f"no valid value since {day}"
    for qid, value in valid.items():
        params = _tool(repo, "get_qubit_params", chip_id=CHIP, qid=qid)["parameters"][METRIC]
        assert params["value"] == pytest.approx(value, rel=1e-3)


def test_timeseries_tools_agree_on_latest(repo, expected):
    """The per-qubit "latest" of both timeseries tools is the heatmap's: missing where the newest result failed."""
    failed = {q: day for q, (v, day) in expected.items() if v is None}
    valid = {q: v for q, (v, _) in expected.items() if v is not None}
    args = {"chip_id": CHIP, "parameter_name": METRIC, "last_n": 365}
    seen = _tool(repo, "get_chip_parameter_timeseries", **args)
    assert seen["no_valid_latest"] == {q: f"no valid value since {d}" for q, d in failed.items()}
    assert seen["latest_statistics"]["count"] == len(valid)
    assert seen["latest_statistics"]["median"] == pytest.approx(statistics.median(valid.values()), rel=1e-3)
    per_qubit = {q["qid"]: q for q in _tool(repo, "get_chip_parameter_timeseries", full=True, **args)["qubits"]}
    assert failed.keys() & per_qubit.keys()  # the fixture's failed qubit has older usable points
    for qid, day in failed.items():
        if qid in per_qubit:  # older usable points exist: still no latest
            assert per_qubit[qid]["latest"] is None
            assert per_qubit[qid]["missing"] == f"no valid value since {day}"
    for qid, value in valid.items():
        assert per_qubit[qid]["latest"] == pytest.approx(value, rel=1e-3)
        assert "missing" not in per_qubit[qid]
    for qid, day in failed.items():
        one = _tool(repo, "get_parameter_timeseries", chip_id=CHIP, qid=qid, parameter_name=METRIC)
        assert one["latest"] is None and one["missing"] == f"no valid value since {day}"
    for qid, value in valid.items():
        one = _tool(repo, "get_parameter_timeseries", chip_id=CHIP, qid=qid, parameter_name=METRIC)
        assert one["latest"] == pytest.approx(value, rel=1e-3) and "missing" not in one
