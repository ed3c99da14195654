"""The app's own charts pass the chart allowlist unchanged: the dashboard builders on the demo database
and the plotly express / graph_objects charts an analysis job typically returns."""

from __future__ import annotations

import json

import numpy as np
import plotly.express as px
import plotly.graph_objects as go
import pytest
from plotly.subplots import make_subplots

from copilot_core.analysis.chip_metrics import chip_metric
from copilot_core.analysis.compare import compare
from copilot_core.analysis.timeseries import median_band, timeseries_frame
from copilot_core.charts.compare import change_figure
from copilot_core.charts.distribution import distribution_figure
from copilot_core.charts.heatmap import coupling_map, qubit_heatmap
from copilot_core.charts.timeseries import timeseries_figure
from copilot_core.data.runs import RunReader
from copilot_core.domain.metrics import metric
from copilot_core.render_safety import validate_figure
from copilot_core.sandbox.figures import figure_to_dict
from copilot_core.sandbox.warmup import WARMUP_SNIPPETS, synthetic_timeseries


def _plain(fig: go.Figure) -> dict:
    return json.loads(fig.to_json())


# A template styles every kind of chart; its sections for charts the allowlist does not draw (maps, 3D, polar,
# ternary, carpet, financial, ...) can style nothing in an accepted chart and are dropped.  Written by hand.
DRAWN_TRACES = {"scatter", "scattergl", "bar", "histogram", "histogram2d", "histogram2dcontour", "heatmap", "contour",
                "box", "violin", "pie", "table", "indicator", "image", "waterfall", "funnel"}
UNDRAWN_LAYOUT = {"geo", "polar", "scene", "ternary", "map", "mapbox", "smith"}


def _without_undrawn(template: dict) -> dict:
    out = {}
    if "data" in template:
        out["data"] = {k: v for k, v in template["data"].items() if k in DRAWN_TRACES}
    if "layout" in template:
        out["layout"] = {k: v for k, v in template["layout"].items() if k not in UNDRAWN_LAYOUT}
    return out


def _unchanged(fig: dict, webgl_as_svg: bool = False) -> None:
    """Accepted, and drawn exactly as built: the allowlist drops nothing from the app's own charts but the
    undrawn template sections (and, with ``webgl_as_svg``, draws the WebGL traces as SVG ``scatter``)."""
    expected = {k: v for k, v in fig.items() if k in ("data", "layout", "frames")}
    if webgl_as_svg:
        assert any(t["type"] == "scattergl" for t in fig["data"])
        expected["data"] = [{**t, "type": "scatter"} if t["type"] == "scattergl" else t for t in fig["data"]]
    if "template" in fig["layout"]:
        expected["layout"] = {**fig["layout"], "template": _without_undrawn(fig["layout"]["template"])}
    assert validate_figure(fig) == expected


@pytest.fixture(scope="module")
def chip(repo) -> dict:
    return max(repo.list_chips(), key=lambda c: int(c.get("size") or 0))


@pytest.mark.parametrize("name", ["t1", "x90_gate_fidelity"])
def test_dashboard_heatmap_and_distribution(repo, chip, name):
    cm = chip_metric(repo, chip["chip_id"], name)
    from copilot_core.analysis.chip_metrics import chip_topology

    topology = chip_topology(chip)
    _unchanged(_plain(qubit_heatmap(cm, topology)))
    for kind in ("cdf", "histogram"):
        _unchanged(_plain(distribution_figure(cm, kind)))  # type: ignore[arg-type]


def test_dashboard_coupling_map(repo, chip):
    from copilot_core.analysis.chip_metrics import chip_topology

    cm = chip_metric(repo, chip["chip_id"], "zx90_gate_fidelity", kind="coupling")
    _unchanged(_plain(coupling_map(cm, chip_topology(chip))))


def test_dashboard_timeseries(repo, chip):
    entry = metric("t1")
    rows = repo.chip_parameter_timeseries(chip["chip_id"], "t1", last_n=30)
    every = timeseries_frame(rows, entry, int(chip["size"]))
    assert not every.empty
    # 141 qubits' series as WebGL lines+markers (4,124 points): as SVG about 4,124 markers + 10 a trace, over the
    # 4,000 budget but far under WebGL's 4,000 set-up + 100 a WebGL trace, so the gate draws them as SVG
    _unchanged(_plain(timeseries_figure(every, median_band(every), entry, title="T1")), webgl_as_svg=True)
    picked = every[every["qid"].isin(["0", "1", "2"])]
    _unchanged(_plain(timeseries_figure(picked, median_band(every), entry, lines=True, title="T1")))


def test_dashboard_compare(repo, chip):
    from copilot_core.analysis.chip_metrics import chip_topology

    comp = compare(RunReader(repo), chip)
    for name in ("t1", "zx90_gate_fidelity"):
        _unchanged(_plain(change_figure(comp, name, chip_topology(chip))))


def test_typical_analysis_job_charts():
    """The warm-up jobs (px line/scatter/histogram/box/bar/imshow/ecdf/violin, subplots, pie, error bars, a table
    with a menu and a slider)."""
    namespace = {"px": px, "go": go, "np": np, "make_subplots": make_subplots, "data": synthetic_timeseries(12, 5),
                 "json": json, "statistics": __import__("statistics"), "pd": __import__("pandas")}
    charts = []
    for snippet in WARMUP_SNIPPETS[1:]:
        scope = dict(namespace)
        exec(snippet, scope)  # noqa: S102  (our own warm-up code, not model code)
        charts += scope["result"]["chart"]
    assert len(charts) == 13
    for chart in charts:
        _unchanged(figure_to_dict(chart))


def test_plotly_templates_all_pass():
    """Every template plotly ships (px uses one on every chart): accepted, map-only parts dropped."""
    import plotly.io as pio

    for name in pio.templates:
        fig = _plain(go.Figure(go.Scatter(x=[1, 2], y=[3, 4]), layout={"template": name}))
        out = validate_figure(fig)
        assert out["data"] == fig["data"]
        template = fig["layout"]["template"]
        assert out["layout"]["template"] == _without_undrawn(template)
