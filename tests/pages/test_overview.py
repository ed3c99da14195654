"""Overview page: chips, chip health, recent executions and drift flags equal what the data layer says."""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from datetime import timedelta

from copilot_core.domain.metrics import BANDS, SCORED_QUBIT_METRICS, metric
from copilot_core.domain.topology import qubit_label
from tests.pages.conftest import dataframe

DRIFT_METRICS = ("t1", "t2_echo", "x90_gate_fidelity", "x180_gate_fidelity", "average_gate_fidelity")


def unusable_latest(repo, chip_id, name):
    """Qubits whose newest completed, non-excluded result for ``name`` holds NaN, inf or QDash's NaN-as-0."""
    newest = {}
    query = {"chip_id": chip_id, "status": "completed", "excluded": {"$ne": True},
             f"output_parameters.{name}": {"$exists": True}}
    for doc in repo.db["task_result_history"].find(query, {"qid": 1, "start_at": 1, "output_parameters": 1}):
        if doc["qid"] not in newest or doc["start_at"] > newest[doc["qid"]]["start_at"]:
            newest[doc["qid"]] = doc
    bad = set()
    for qid, doc in newest.items():
        value = doc["output_parameters"][name]
        value = value.get("value") if isinstance(value, dict) else value
        if value is None or value == 0 or (isinstance(value, float) and not math.isfinite(value)):
            bad.add(qid)
    return bad


def expected_drops(repo, chip, threshold):
    """(qubit label, metric title) of every qubit whose latest value fell more than ``threshold``
    below the median of its own values in the 7 days before it (at least two of them); a qubit whose
    newest result is unusable has no latest value and is not flagged."""
    ref = chip["last_execution_at"]
    out = set()
    for name in DRIFT_METRICS:
        m = metric(name)
        skip = unusable_latest(repo, chip["chip_id"], name)
        series = defaultdict(list)
        for row in repo.chip_parameter_timeseries(chip["chip_id"], name, since=ref - timedelta(days=9)):
            value = m.to_display(row["value"])
            if value is not None:
                series[row["qid"]].append((row["calibrated_at"], value))
        for qid, points in series.items():
            if qid in skip:
                continue
            points.sort()
            last_at, last = points[-1]
            before = [v for t, v in points[:-1] if t >= last_at - timedelta(days=7)]
            if len(before) >= 2:
                base = statistics.median(before)
                if (base - last) / base > threshold:
                    out.add((qubit_label(qid, chip["size"]), m.title))
    return out


def expected_failures(repo, chip):
    since = chip["last_execution_at"] - timedelta(hours=24)
    return {r["qid"] for r in repo.task_results(chip["chip_id"], status="failed", since=since, limit=1000)}


def test_chips_table_lists_every_chip(open_page, app_repo):
    at = open_page()
    assert at.title[0].value == "Overview"
    chips = dataframe(at, "chip", "coverage")
    expected = app_repo.list_chips()
    assert list(chips["chip"]) == [c["chip_id"] for c in expected]
    assert list(chips["qubits"]) == [c["size"] for c in expected]
    assert list(chips["with data"]) == [c["qubits_with_data"] for c in expected]
    assert at.slider(key="overview_drift_pct").value == 20


def test_chip_health_counts_equal_the_scored_latest_values(open_page, app_repo, demo_chip):
    at = open_page()
    health = dataframe(at, "metric", "excellent").set_index("metric")
    params = app_repo.all_qubit_params(demo_chip["chip_id"])
    for name in SCORED_QUBIT_METRICS:
        m = metric(name)
        values = [m.to_display((p.get(name) or {}).get("value")) for p in params.values()]
        if all(v is None for v in values):
            assert m.title not in health.index
            continue
        counts = {b: sum(m.score(v) == b for v in values) for b in BANDS}
        assert {b: int(health.loc[m.title, b]) for b in BANDS} == counts, name
        assert health.loc[m.title, "median_text"] != "—"


def test_recent_executions_equal_the_history(open_page, app_repo, demo_chip):
    at = open_page()
    runs = dataframe(at, "execution", "status")
    expected = app_repo.executions(demo_chip["chip_id"], limit=10)
    assert list(runs["execution"]) == [e["execution_id"] for e in expected]
    assert list(runs["status"]) == [e["status"] for e in expected]


def test_drift_flags_equal_what_the_history_shows(open_page, app_repo, demo_chip):
    at = open_page()
    for pct in (20, 50):
        if pct != 20:
            at.slider(key="overview_drift_pct").set_value(pct).run()
        flags = dataframe(at, "where", "flag", "what")
        drops = {(r["where"], r["what"]) for _, r in flags.iterrows() if r["flag"] == "drop"}
        assert drops == expected_drops(app_repo, demo_chip, pct / 100), pct
    failing = set(flags[flags["flag"] == "failing task"]["where"])
    size = demo_chip["size"]
    labels = {qubit_label(t, size) if "-" not in t else
              "→".join(qubit_label(x, size) for x in t.split("-")) for t in expected_failures(app_repo, demo_chip)}
    assert failing == labels


def test_a_flag_opens_that_qubit_on_the_qubits_page(open_page, demo_chip):
    at = open_page()
    flags = dataframe(at, "where", "flag", "what")
    assert len(flags) > 0, "the demo data has recent drops; the page should flag some"
    key = next(e.proto.id.rsplit("-", 1)[-1] for e in at.dataframe if "overview_flags" in e.proto.id)
    at.session_state[key] = {"selection": {"rows": [0], "columns": [], "cells": []}}
    at.run()
    assert not at.exception
    assert at.title[0].value == "Qubits"
    label = flags.iloc[0]["where"].split("→")[0]
    qid = str(int(label[1:]))
    assert at.selectbox(key=f"_w_qubits_selected_{demo_chip['chip_id']}").value == qid
    assert any(m.value.startswith("####") and label in m.value for m in at.markdown)
