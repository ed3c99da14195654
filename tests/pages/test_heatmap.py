"""Chip heatmap page: the numbers drawn equal the data layer's, clicks open the drill-down."""

from __future__ import annotations

import pytest

from copilot_core.charts.style import BAND_INDEX
from copilot_core.domain.metrics import COUPLING_METRICS, format_value, metric
from copilot_core.domain.topology import qubit_label, topology_for
from tests.expected import shown as display, stats as expected_stats
from tests.pages.conftest import click_cell, dataframe, decode, figures, open_couplings, texts
from ui.widgets import metric_label

PAGE = "pages/heatmap.py"


def expected_grid(app_repo, chip, name, mode="latest"):
    """Display values laid out on the topology grid, None where the data layer has nothing usable."""
    topo = topology_for(chip["size"])
    rows = app_repo.metric_values(chip["chip_id"], name, mode=mode)
    grid = [[None] * topo.grid_size for _ in range(topo.grid_size)]
    for q, (r, c) in topo.positions.items():
        raw = (rows.get(str(q)) or {}).get("value")
        grid[r][c] = display(name, raw)
    return grid


def assert_grid_equal(actual, expected):
    for r, (arow, erow) in enumerate(zip(actual, expected, strict=True)):
        for c, (a, e) in enumerate(zip(arow, erow, strict=True)):
            if e is None:
                assert a is None, (r, c, a)
            else:
                assert a == pytest.approx(e, rel=1e-9), (r, c, a, e)


def test_heatmap_cells_equal_latest_values_in_display_units(open_page, app_repo, demo_chip):
    at = open_page(PAGE)
    assert at.selectbox(key="_w_heatmap_metric").value == "t1"
    assert at.radio(key="_w_heatmap_mode").value == "latest"
    fig = figures(at)["heatmap_chart"]
    value_trace = next(t for t in fig["data"] if t.get("name") == "t1")
    assert_grid_equal(value_trace["z"], expected_grid(app_repo, demo_chip, "t1"))
    assert fig["layout"]["yaxis"]["range"][0] > fig["layout"]["yaxis"]["range"][1]  # origin top-left
    overlay = fig["data"][-1]
    assert overlay["type"] == "scatter"
    assert sorted(overlay["customdata"], key=int) == [str(q) for q in range(demo_chip["size"])]
    topo = topology_for(demo_chip["size"])
    r, c = topo.positions[5]
    assert value_trace["text"][r][c].startswith(qubit_label(5, demo_chip["size"]) + "<br>")
    buttons = {e.proto.id.rsplit("-", 1)[-1]: e.proto.label for e in at.get("download_button")}
    assert buttons.get("heatmap_csv") == "Download CSV"


def test_best_average_and_band_colouring_match_the_data_layer(open_page, app_repo, demo_chip):
    at = open_page(PAGE)
    for mode in ("best", "average"):
        at.radio(key="_w_heatmap_mode").set_value(mode).run()
        assert not at.exception
        value_trace = next(t for t in figures(at)["heatmap_chart"]["data"] if t.get("name") == "t1")
        assert_grid_equal(value_trace["z"], expected_grid(app_repo, demo_chip, "t1", mode))
    at.radio(key="_w_heatmap_color_by").set_value("band").run()
    z = next(t for t in figures(at)["heatmap_chart"]["data"] if t.get("name") == "t1")["z"]
    m = metric("t1")
    expected = [[None if v is None else BAND_INDEX[m.score(v)] for v in row]
                for row in expected_grid(app_repo, demo_chip, "t1", "average")]
    assert z == expected


def test_clicking_a_cell_opens_the_drilldown(open_page, app_repo, demo_chip):
    at = open_page(PAGE)
    chip_id, size = demo_chip["chip_id"], demo_chip["size"]
    qid = next(q for q, p in app_repo.all_qubit_params(chip_id).items() if p.get("t1"))
    click_cell(at, qid)
    assert f"**Latest values of {qubit_label(qid, size)}**" in texts(at)
    shown = dataframe(at, "parameter", "calibrated_at")
    data = app_repo.qubit_params(chip_id, qid)
    for _, row in shown.iterrows():  # the value with its unit in one cell, so the unit is never cut off
        entry = metric(row["parameter"], unit=str(data[row["parameter"]].get("unit") or ""))
        expected = display(row["parameter"], data[row["parameter"]]["value"])
        decimals = {"%": 2, "GHz": 4, "MHz": 1, "μs": 1, "ns": 1}.get(entry.unit)  # the display rule, by hand
        text = "" if expected is None else f"{expected:.{decimals}f}" if decimals is not None else f"{expected:.5g}"
        want = "—" if expected is None else f"{text}%" if entry.unit == "%" else f"{text} {entry.unit}".strip()
        assert row["value"] == want
    tasks = dataframe(at, "task", "outputs")
    assert list(tasks["task"]) == [r["name"] for r in app_repo.task_results(chip_id, qid=qid, limit=15)]
    series = figures(at)["drill_series"]
    line = next(t for t in series["data"] if t.get("name") == qubit_label(qid, size))
    expected_series = [display("t1", r["value"]) for r in
                       app_repo.parameter_timeseries(chip_id, "t1", qid, last_n=60)]
    assert decode(line["y"]) == pytest.approx([v for v in expected_series if v is not None])


def test_only_the_open_tab_is_built_and_a_cell_click_opens_the_drilldown_tab(open_page, app_repo, demo_chip):
    at = open_page(PAGE)
    tabs = [t.label for t in at.tabs]
    assert tabs == ["Qubit drill-down", "Couplings"]
    assert "coupling_chart" not in figures(at)  # the closed tab costs neither the server nor the browser
    assert not [b for b in at.get("download_button") if b.proto.id.endswith("coupling_csv")]

    open_couplings(at)
    assert "coupling_chart" in figures(at)
    assert not [s for s in at.selectbox if s.key == "_w_heatmap_drill_qid"]  # the drill-down is not built now

    chip_id, size = demo_chip["chip_id"], demo_chip["size"]
    qid = next(q for q, p in app_repo.all_qubit_params(chip_id).items() if p.get("t1"))
    click_cell(at, qid)
    assert at.session_state["heatmap_section"] == "Qubit drill-down"
    assert f"**Latest values of {qubit_label(qid, size)}**" in texts(at)
    assert "coupling_chart" not in figures(at)


def test_stat_cards_then_a_metric_without_data(open_page, app_repo, demo_chip):
    at = open_page(PAGE)
    at.selectbox(key="_w_heatmap_metric").set_value("x90_gate_fidelity").run()
    m = metric("x90_gate_fidelity")
    rows = app_repo.metric_values(demo_chip["chip_id"], "x90_gate_fidelity", mode="latest")
    values = [display(m.name, (rows.get(str(q)) or {}).get("value")) for q in range(demo_chip["size"])]
    stats = expected_stats(values, total=demo_chip["size"])
    cards = {e.label: e.value for e in at.metric[:6]}
    assert cards["Count"] == f"{stats['count']}/{demo_chip['size']}"
    assert cards["Median"] == format_value(m, stats["median"])
    assert cards["Min"] == format_value(m, stats["min"]) and cards["Max"] == format_value(m, stats["max"])
    assert cards["Median"].endswith("%")  # fidelities are shown in %, not as fractions

    empty = next(n for n in ("x180_gate_fidelity", "t1_average", "average_gate_fidelity", "readout_fidelity_0")
                 if not app_repo.metric_values(demo_chip["chip_id"], n))
    options = at.selectbox(key="_w_heatmap_metric").options
    assert metric_label(empty) not in options and metric_label("t1") in options  # no data: not offered
    open_couplings(at)
    coupling_options = at.selectbox(key="_w_heatmap_coupling_metric").options
    for name in COUPLING_METRICS:
        has_data = bool(app_repo.metric_values(demo_chip["chip_id"], name, mode="latest", kind="coupling"))
        assert (metric_label(name) in coupling_options) == has_data, name


def test_coupling_map_draws_coupling_values_with_direction(open_page, app_repo, demo_chip):
    at = open_page(PAGE)
    open_couplings(at)
    fig = figures(at)["coupling_chart"]
    topo = topology_for(demo_chip["size"])
    rows = app_repo.metric_values(demo_chip["chip_id"], "zx90_gate_fidelity", mode="latest", kind="coupling")
    m = metric("zx90_gate_fidelity")
    valued = next(t for t in fig["data"] if t.get("name") == "zx90_gate_fidelity")
    drawn = dict(zip(decode(valued["customdata"]), decode(valued["marker"]["color"])))
    for cpl in topo.couplings:
        row = rows.get(cpl.id) or rows.get(f"{cpl.target}-{cpl.control}") or {}
        expected = display(m.name, row.get("value"))
        if expected is None:
            assert cpl.id not in drawn
        else:
            assert drawn[cpl.id] == pytest.approx(expected)
    # the marker points from control to target
    i = 0
    control, target = (int(x) for x in decode(valued["customdata"])[i].split("-"))
    (r1, c1), (r2, c2) = topo.positions[control], topo.positions[target]
    arrow = {(0, 1): "triangle-right", (0, -1): "triangle-left", (1, 0): "triangle-down", (-1, 0): "triangle-up"}
    assert valued["marker"]["symbol"][i] == arrow[(r2 - r1, c2 - c1)]


