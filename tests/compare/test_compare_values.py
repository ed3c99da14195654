"""Comparison values against the database: hand-computed cases on the QDash fixture (failed, excluded,
NaN stored as 0, another project), and every value on an old 16-qubit and the 64/144-qubit demo chips
against direct queries."""

from __future__ import annotations

import statistics
from datetime import timedelta

import pandas as pd
import pytest

from copilot_core.analysis.compare import compare
from copilot_core.analysis.compare_points import CompareError
from copilot_core.analysis.compare_tables import band_crossings, lost_measurements, metric_summary, ranked_changes
from copilot_core.data.runs import RunReader
from copilot_core.domain.metrics import metric
from tests.compare.conftest import (
    OLD_PROJECT,
    executions_of,
    expected_point,
    window_values,
)
from tests.data.conftest import CHIP, _exec_id


def _row(comp, name, key):
    f = comp.frame
    found = f[(f["metric"] == name) & (f["id"] == key)]
    assert len(found) == 1, f"{name}/{key}: {len(found)} rows"
    return found.iloc[0]


def _chip(repo, chip_id=CHIP):
    return repo.get_chip(chip_id)


class TestHandMadeQDashData:
    def test_nan_stored_as_zero_is_a_lost_measurement(self, qdash_repo):
        comp = compare(RunReader(qdash_repo), _chip(qdash_repo), _exec_id(2), _exec_id(3))
        q0 = _row(comp, "t1", "0")
        assert (q0["before"], q0["status_after"], q0["availability"]) == (55.0, "nan", "lost")
        assert pd.isna(q0["after"]) and pd.isna(q0["change"])
        q1 = _row(comp, "t1", "1")  # day 2 was excluded: back on day 3 at 35
        assert (q1["status_before"], q1["after"], q1["availability"]) == ("excluded", 35.0, "restored")
        assert list(lost_measurements(comp)["id"]) == ["0"]

    def test_change_direction_band_and_own_spread(self, qdash_repo):
        comp = compare(RunReader(qdash_repo), _chip(qdash_repo), _exec_id(3), _exec_id(5))
        q1 = _row(comp, "t1", "1")
        assert (q1["before"], q1["after"], q1["change"]) == (35.0, 33.0, -2.0)
        assert q1["direction"] == "worse" and q1["band_move"] == ""
        # 7 days before day 5: days 1-4; day 2's 70 is excluded -> 30 and 35
        assert q1["spread"] == pytest.approx(statistics.stdev([30.0, 35.0]))
        assert q1["z"] == pytest.approx(-2.0 / statistics.stdev([30.0, 35.0]))
        q0 = _row(comp, "t1", "0")  # NaN-as-0 before, excluded outlier after: no value on either side
        assert (q0["status_before"], q0["status_after"], q0["availability"]) == ("nan", "excluded", "")
        q2 = _row(comp, "t1", "2")  # only failures: the failed CheckT1 counts for t1
        assert (q2["status_before"], q2["status_after"]) == ("absent", "failed")
        x90 = _row(comp, "x90_gate_fidelity", "0")
        assert x90["after"] == pytest.approx(99.8) and x90["status_before"] == "absent"

    def test_band_crossing_up(self, qdash_repo):
        comp = compare(RunReader(qdash_repo), _chip(qdash_repo), _exec_id(1), _exec_id(2))
        crossed = band_crossings(comp)
        assert list(zip(crossed["id"], crossed["band_before"], crossed["band_after"], crossed["band_move"])) == [
            ("0", "fair", "good", "better")]  # 40 -> 55 us: fair -> good (good >= 50 us)

    def test_coupling_change_and_failed_run(self, qdash_repo):
        comp = compare(RunReader(qdash_repo), _chip(qdash_repo), _exec_id(4), _exec_id(5))
        zx = _row(comp, "zx90_gate_fidelity", "0-1")
        assert zx["change"] == pytest.approx(1.0) and zx["direction"] == "better" and zx["kind"] == "coupling"
        assert _row(comp, "t1", "2")["status_after"] == "failed"

    def test_points_are_the_scoped_project_s_runs(self, qdash_repo):
        comp = compare(RunReader(qdash_repo), _chip(qdash_repo))
        # day 6 has a run in this project (no results) and one in the other project (t1 999): never seen
        assert comp.after.execution_ids == (_exec_id(6),) and comp.before.execution_ids == (_exec_id(5),)
        assert 999.0 not in set(comp.frame["after"].dropna()) and 888.0 not in set(comp.frame["after"].dropna())

    @pytest.mark.parametrize("before, after, fragment", [
        ("20000101-001", "latest", "is not recorded"),
        ("1999-01-01", "latest", "no execution on 1999-01-01"),
        ("latest", "latest", "same run"),
        ("whenever", "latest", "cannot read the point"),
    ])
    def test_bad_points_say_what_to_pick(self, qdash_repo, before, after, fragment):
        with pytest.raises(CompareError, match=fragment):
            compare(RunReader(qdash_repo), _chip(qdash_repo), before, after)


def _check_against_database(repo, db, project, chip_id, before="previous", after="latest"):
    chip = repo.get_chip(chip_id)
    comp = compare(RunReader(repo), chip, before, after)
    a = expected_point(db, project, chip_id, list(comp.before.execution_ids))
    b = expected_point(db, project, chip_id, list(comp.after.execution_ids))
    window = window_values(db, project, chip_id, comp.after.start - timedelta(days=7), comp.after.start)
    both = [(name, key) for (name, key) in a if (name, key) in b and name in comp.metrics and "-" not in key]
    assert len(both) > 100 if chip["size"] > 16 else len(both) > 30
    changes = comp.frame[comp.frame["change"].notna() & (comp.frame["kind"] == "qubit")]
    assert len(changes) == len(both)
    for name, key in both:
        m = metric(name)
        row = _row(comp, name, key)
        assert row["before"] == pytest.approx(a[(name, key)] * m.scale)
        assert row["after"] == pytest.approx(b[(name, key)] * m.scale)
        assert row["change"] == pytest.approx((b[(name, key)] - a[(name, key)]) * m.scale)
        values = window.get((name, key), [])
        if len(values) >= 2 and statistics.stdev(values) > 0:
            assert row["z"] == pytest.approx((b[(name, key)] - a[(name, key)]) / statistics.stdev(values))
    summary = metric_summary(comp).set_index("metric")
    t1 = [(b[k] - a[k]) for k in both if k[0] == "t1"]
    assert summary.loc["t1", "median_change"] == pytest.approx(statistics.median(t1))
    assert summary.loc["t1", "worse"] == sum(d < 0 for d in t1)
    top = ranked_changes(comp, 1).iloc[0]
    assert abs(top["z"]) == pytest.approx(changes["z"].abs().max())
    return comp


def test_old_database_with_its_own_project(old_repo, old_db):
    comp = _check_against_database(old_repo, old_db, OLD_PROJECT, "16Qv1")
    runs = [e for e in executions_of(old_db, OLD_PROJECT, "16Qv1") if e["status"] == "completed"]
    assert comp.after.execution_ids == (runs[0]["execution_id"],)
    assert comp.after.start.year == 2024  # windows follow the chip's runs, not today's date


def test_old_database_last_week_by_day(old_repo, old_db):
    comp = _check_against_database(old_repo, old_db, OLD_PROJECT, "16Qv1", "-7d", "latest")
    assert comp.before.kind == "date"
    assert comp.before.start.date() == comp.after.start.date() - timedelta(days=7)


@pytest.mark.parametrize("chip_id", ["64Qv3", "144Qv2"])
def test_demo_chips(repo, demo_db, chip_id):
    comp = _check_against_database(repo, demo_db, "demo-project", chip_id)
    f = comp.frame
    failed_after = {(r["name"], r["qid"]) for r in demo_db["task_result_history"].find(
        {"chip_id": chip_id, "execution_id": comp.after.execution_ids[0], "status": "failed"})}
    assert {(r["name"], r["qid"]) for r in comp.failed_after} == failed_after
    excluded = f[f["status_after"] == "excluded"]
    for _, row in excluded.iterrows():
        doc = demo_db["task_result_history"].find_one(
            {"chip_id": chip_id, "execution_id": comp.after.execution_ids[0], "qid": row["id"],
             "output_parameter_names": row["metric"]})
        assert doc["excluded"] is True
