"""Analysis and chart builders on the demo database (``repo``) and on small hand-made series."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from copilot_core.analysis.chip_metrics import (
    UnknownChip,
    chip_metric,
    chip_metric_frame,
    metric_from_params,
)
from copilot_core.analysis.drift import drops, failures
from copilot_core.analysis.health import qubit_health, trend
from copilot_core.analysis.qubit_table import filter_table, qubit_table
from copilot_core.analysis.stats import describe, mad_bounds
from copilot_core.analysis.timeseries import median_band, timeseries_frame
from copilot_core.charts.distribution import distribution_figure
from copilot_core.charts.heatmap import TEXT_MAX_GRID, coupling_map, qubit_heatmap
from copilot_core.domain.metrics import format_value
from copilot_core.domain.metrics import BANDS, SCORED_QUBIT_METRICS, metric
from copilot_core.domain.topology import qubit_label, topology_for
from copilot_core.render_safety import escape
from tests.expected import shown, stats

T0 = datetime(2026, 1, 1)


@pytest.fixture(scope="module")
def chip144(repo):
    return next(c for c in repo.list_chips() if c["size"] == 144)


def test_chip_metric_covers_every_qubit_in_display_units(repo, chip144):
    cm = chip_metric(repo, chip144["chip_id"], "x90_gate_fidelity", mode="best")
    rows = repo.metric_values(chip144["chip_id"], "x90_gate_fidelity", mode="best")
    assert list(cm.values) == [str(q) for q in range(144)]
    for qid, value in cm.values.items():
        raw = (rows.get(qid) or {}).get("value")
        assert value == (None if not raw else pytest.approx(raw * 100))
    assert cm.stats == pytest.approx(stats(cm.values.values(), total=144))
    assert cm.bands == {q: metric("x90_gate_fidelity").score(v) for q, v in cm.values.items()}
    frame = chip_metric_frame(cm)
    assert list(frame["label"][:2]) == ["Q000", "Q001"] and frame["value"].count() == cm.stats["count"]


def test_coupling_metric_is_keyed_by_the_topology_edges(repo, chip144):
    cm = chip_metric(repo, chip144["chip_id"], "zx90_gate_fidelity")
    topo = topology_for(144)
    assert cm.kind == "coupling" and list(cm.values) == [c.id for c in topo.couplings]
    assert cm.stats["total"] == 264 and cm.stats["count"] > 0
    assert cm.label(topo.couplings[0].id) == "→".join(qubit_label(q, 144) for q in
                                                     (topo.couplings[0].control, topo.couplings[0].target))


def test_bad_requests_get_clear_errors(repo):
    with pytest.raises(UnknownChip, match="not found"):
        chip_metric(repo, "NoSuchChip", "t1")
    with pytest.raises(ValueError, match="mode"):
        chip_metric(repo, "64Qv3", "t1", mode="median")
    with pytest.raises(ValueError, match="within_hours"):
        chip_metric(repo, "64Qv3", "t1", within_hours=-1)


def test_qubit_heatmap_has_a_click_target_on_every_cell(repo, chip144):
    topo = topology_for(144)
    cm = metric_from_params(chip144, repo.all_qubit_params(chip144["chip_id"]), "t1")
    fig = qubit_heatmap(cm, topo)
    underlay, values, overlay = fig.data
    assert sorted(overlay.customdata, key=int) == [str(q) for q in range(144)]
    for x, y, qid in zip(overlay.x, overlay.y, overlay.customdata):
        assert topo.positions[int(qid)] == (y, x)
        assert (values.z[y][x] is None) == (cm.values[qid] is None) == (underlay.z[y][x] == 1)
    assert fig.layout.yaxis.range[0] > fig.layout.yaxis.range[1]
    with pytest.raises(ValueError, match="coupling_map"):
        qubit_heatmap(metric_from_params(chip144, {}, "zx90_gate_fidelity"), topo)


def test_large_chip_heatmap_drops_cell_text_and_unscored_band_falls_back_to_values():
    chip = {"chip_id": "big", "size": 1024}
    params = {str(q): {"rabi_frequency": {"value": 10 + q % 7, "unit": "MHz"}} for q in range(1024)}
    cm = metric_from_params(chip, params, "rabi_frequency")
    assert cm.metric.unit == "MHz" and cm.stats["count"] == 1024
    fig = qubit_heatmap(cm, topology_for(1024), color_by="band")
    assert 32 > TEXT_MAX_GRID and fig.data[1].texttemplate is None
    assert "no thresholds" in fig.layout.title.text


def test_coupling_map_points_from_control_to_target(repo, chip144):
    topo = topology_for(144)
    cm = metric_from_params(chip144, repo.all_coupling_params(chip144["chip_id"]), "bell_state_fidelity")
    fig = coupling_map(cm, topo, color_by="band")
    arrows = {(0, 1): "triangle-right", (0, -1): "triangle-left", (1, 0): "triangle-down", (-1, 0): "triangle-up"}
    drawn = 0
    for trace in fig.data:
        for cid, symbol in zip(trace.customdata or (), trace.marker.symbol or ()):
            control, target = (int(q) for q in cid.split("-"))
            (r1, c1), (r2, c2) = topo.positions[control], topo.positions[target]
            assert symbol == arrows[(r2 - r1, c2 - c1)]
            drawn += 1
    assert drawn == 264


def test_the_coupling_map_says_what_its_colours_mean(repo, chip144):
    """Coloured by band, the map's legend names every band in its colour (and grey for couplings without data)."""
    from copilot_core.charts.style import BAND_COLOURS, MISSING_COLOUR

    cm = metric_from_params(chip144, repo.all_coupling_params(chip144["chip_id"]), "bell_state_fidelity")
    topo = topology_for(144)
    fig = coupling_map(cm, topo, color_by="band")
    legend = {t.name: t.marker.color for t in fig.data if t.showlegend}
    expected = {"bad": BAND_COLOURS["bad"], "fair": BAND_COLOURS["fair"], "good": BAND_COLOURS["good"],
                "excellent": BAND_COLOURS["excellent"]}
    if any(cm.values.get(c.id) is None for c in topo.couplings):
        expected["no data"] = MISSING_COLOUR
    assert legend == expected and fig.layout.showlegend


def test_distribution_marks_thresholds(repo, chip144):
    cm = chip_metric(repo, chip144["chip_id"], "t1")
    fig = distribution_figure(cm, "cdf")
    assert list(fig.data[0].y)[-1] == pytest.approx(1.0) and len(fig.data[0].x) == cm.stats["count"]
    assert {s.x0 for s in fig.layout.shapes} >= {20, 50, 100}


def rows(qid, values, start=T0):
    return [{"qid": qid, "calibrated_at": start + timedelta(days=i), "value": v} for i, v in enumerate(values)]


def test_drops_compare_a_qubit_with_its_own_week():
    data = rows("1", [80, 82, 78, 81, 40]) + rows("2", [80, 82, 78, 81, 70]) + rows("3", [80, 30])
    flags = drops(data, "t1", threshold=0.2)
    assert [(f.qid, round(f.drop, 3), f.baseline) for f in flags] == [("1", round(1 - 40 / 80.5, 3), 80.5)]
    old = rows("4", [80, 81, 82], start=T0) + rows("4", [30], start=T0 + timedelta(days=30))
    assert drops(old, "t1") == []  # no values in the week before: nothing to compare with
    assert drops(rows("5", [0.999, 0.998, 0.7]), "x90_gate_fidelity")[0].latest == pytest.approx(70.0)


def test_a_qubit_whose_newest_result_is_unusable_is_not_flagged():
    data = rows("3", [80, 82, 78, 40]) + rows("4", [80, 82, 78, 40])
    assert {f.qid for f in drops(data, "t1")} == {"3", "4"}
    assert {f.qid for f in drops(data, "t1", unusable_latest={"3"})} == {"4"}


def test_failures_are_grouped_per_qubit_or_coupling():
    results = [{"qid": "5", "name": "CheckT1", "status": "failed", "start_at": T0},
               {"qid": "5", "name": "CheckRamsey", "status": "failed", "start_at": T0 + timedelta(hours=1)},
               {"qid": "4-1", "name": "CreateZX90", "status": "failed", "start_at": T0}]
    flags = failures(results)
    assert [(f.qid, f.target, f.task) for f in flags] == [("5", "5", "CheckRamsey, CheckT1"), ("4", "4-1", "CreateZX90")]


def test_trend_direction_follows_the_better_direction():
    up = [(T0 + timedelta(days=i), 50 + 5 * i) for i in range(6)]
    assert trend(up, higher_is_better=True).direction == "improving"
    assert trend(up, higher_is_better=False).direction == "degrading"
    assert trend(up[:2], True).direction == "unknown"
    flat = [(T0 + timedelta(days=i), 50.0) for i in range(6)]
    assert trend(flat, True).direction == "stable"


def test_health_report_scores_every_metric_and_couplings(repo, chip144):
    chip_id = chip144["chip_id"]
    report = qubit_health(repo, chip_id, "5")
    params = repo.qubit_params(chip_id, "5")
    for check in report.metrics:
        assert check.value == pytest.approx(shown(check.name, params[check.name]["value"]))
        assert check.band == metric(check.name).score(check.value)
    bands = [c.band for c in report.metrics if c.band]
    assert report.verdict == min(bands, key=BANDS.index)
    assert [c.coupling_id for c in report.couplings] == [c.id for c in topology_for(144).couplings_of(5)]
    assert report.neighbours == [str(n) for n in topology_for(144).neighbours(5)]
    assert report.to_markdown().startswith(f"### Q005 on {chip_id}")
    assert {c.name for c in report.metrics} <= set(SCORED_QUBIT_METRICS)
    with pytest.raises(ValueError, match="not on chip"):
        qubit_health(repo, chip_id, "500")


def test_timeseries_outliers_are_jumps_in_a_qubits_own_series():
    data = rows("7", [60, 61, 59, 60, 62, 15, 61])
    frame = timeseries_frame(data, metric("t1"), 64)
    assert list(frame["outlier"]) == [False] * 5 + [True, False]
    band = median_band(frame)
    assert len(band) == 7 and band["median"].iloc[5] == 15


def test_table_filters(repo, chip144):
    table = qubit_table(chip144, repo.all_qubit_params(chip144["chip_id"]))
    assert len(table) == 144
    assert list(filter_table(table, text="q5")["qid"]) == ["5"]
    assert list(filter_table(table, text="Q013")["qubit"]) == ["Q013"]
    assert filter_table(table, text="Q1x").empty
    assert (filter_table(table, only_bad=True)["bad metrics"] > 0).all()


def test_display_text_helpers():
    assert format_value(metric("x90_gate_fidelity"), 99.8712) == "99.87%"
    assert format_value(metric("t1"), None) == "—"
    assert escape("[click](javascript:x) <b> www.x.org") == (
        "\\[click\\]\\(`javascript:x)` \\<b\\> `www.x.org`")  # no link, tag or autolink literal


def test_robust_band_and_statistics_by_hand():
    # median 3, absolute deviations 2 1 0 1 97 -> MAD 1; 3 ± 3·1.4826·1
    assert mad_bounds([1.0, 2.0, 3.0, 4.0, 100.0], 3.0) == pytest.approx((-1.4478, 7.4478))
    assert mad_bounds([1.0, 2.0, None], 3.0) is None  # fewer than 3 values
    assert describe([1.0, None, 3.0, float("nan"), 2.0], total=5) == pytest.approx(
        {"count": 3, "total": 5, "coverage": 0.6, "median": 2.0, "mean": 2.0, "std": 1.0, "min": 1.0, "max": 3.0})
