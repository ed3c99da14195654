"""WebGL traces the SVG budget can draw are drawn as SVG ``scatter``: the gate rewrites every such figure (a
WebGL context's set-up and per-trace work made the app's 144-series px.line take over 2 s in Chromium) and keeps
its names, legend entries, colours and hover text.  Expected values are written out by hand."""

from __future__ import annotations

import json

import pandas as pd
import plotly.express as px
import pytest

from copilot_core.render_safety import figures
from copilot_core.render_safety.figures import validate_figure


def _lines(series: int, points: int, mode: str = "lines") -> dict:
    return {"data": [{"type": "scattergl", "mode": mode, "name": f"Q{i:03d}", "legendgroup": f"Q{i:03d}",
                      "showlegend": True, "line": {"color": "#636efa"}, "x": list(range(points)),
                      "y": [float(i)] * points, "hovertemplate": f"qid=Q{i:03d}<br>t=%{{x}}<extra></extra>"}
                     for i in range(series)], "layout": {"hovermode": "closest"}}


def test_144_webgl_line_series_are_drawn_as_svg_with_every_name_and_hover_kept():
    figures.forget()
    checked = validate_figure(_lines(144, 30))
    assert [t["type"] for t in checked["data"]] == ["scatter"] * 144
    assert [t["name"] for t in checked["data"]][:3] == ["Q000", "Q001", "Q002"]
    assert checked["data"][143]["name"] == "Q143"
    assert checked["data"][143]["hovertemplate"] == "qid=Q143<br>t=%{x}<extra></extra>"
    assert all(t["showlegend"] is True and t["line"] == {"color": "#636efa"} for t in checked["data"])
    assert checked["data"][7]["y"] == [7.0] * 30
    assert checked["layout"] == {"hovermode": "closest"}


def test_px_line_of_144_qubits_is_accepted_as_svg_lines():
    """plotly express switches to WebGL above 1,000 rows (144 x 30 = 4,320 here)."""
    frame = pd.DataFrame({"t": list(range(30)) * 144, "value": [1.0] * 4320,
                          "qid": [f"Q{i:03d}" for i in range(144) for _ in range(30)]})
    fig = json.loads(px.line(frame, x="t", y="value", color="qid").to_json())
    assert {t["type"] for t in fig["data"]} == {"scattergl"}
    figures.forget()
    checked = validate_figure(fig)
    assert {t["type"] for t in checked["data"]} == {"scatter"}
    assert [t["name"] for t in checked["data"]][-1] == "Q143"


@pytest.mark.parametrize(("points", "drawn"), [(3_990, "scatter"), (3_991, "scatter"), (4_555, "scatter"),
                                             (4_556, "scattergl"), (39_000, "scattergl")])
def test_webgl_markers_are_drawn_by_whichever_costs_less(points: int, drawn: str):
    """Priced by hand: as SVG one unit a marker plus 10 for the trace (budget 4,000: 3,990 markers fit); as
    WebGL 0.1 a point + 10 + 4,000 set-up + 100 for the WebGL trace.  SVG wins while n + 10 <= 0.1 n + 4,110,
    i.e. up to 4,555 markers (4,565 vs 4,565.5); 4,556 costs 4,566 vs 4,565.6."""
    figures.forget()
    checked = validate_figure({"data": [{"type": "scattergl", "mode": "markers", "y": [1] * points}], "layout": {}})
    assert checked["data"][0]["type"] == drawn


def test_many_webgl_traces_with_markers_are_drawn_as_svg_over_the_svg_budget():
    """144 series x 30 points with markers: SVG 4,320 + 144 x 10 = 5,760 (over 4,000); WebGL 432 + 1,440 +
    4,000 + 144 x 100 = 20,272.  Chromium at load 3: SVG 0.5 s, WebGL 1.8 s."""
    figures.forget()
    checked = validate_figure(_lines(144, 30, mode="lines+markers"))
    assert {t["type"] for t in checked["data"]} == {"scatter"}
    assert [t["mode"] for t in checked["data"]] == ["lines+markers"] * 144


def test_other_traces_are_left_as_they_are():
    figures.forget()
    checked = validate_figure({"data": [{"type": "bar", "y": [1, 2]}, {"type": "scattergl", "y": [3, 4, 5]}],
                               "layout": {}})
    assert checked["data"] == [{"type": "bar", "y": [1, 2]}, {"type": "scatter", "y": [3, 4, 5]}]


@pytest.mark.parametrize("extra", [
    {"frames": [{"name": "a", "data": [{"y": [1, 2, 3]}]}]},
    {"layout": {"updatemenus": [{"buttons": [{"method": "restyle", "args": [{"visible": True}]}]}]}},
    {"layout": {"sliders": [{"steps": [{"method": "restyle", "args": [{"visible": True}]}]}]}},
])
def test_figures_whose_restyles_or_frames_name_webgl_traces_stay_webgl(extra: dict):
    figures.forget()
    fig = {"data": [{"type": "scattergl", "y": [1, 2, 3]}], "layout": {}} | extra
    assert validate_figure(fig)["data"][0]["type"] == "scattergl"


def test_a_webgl_trace_scatter_does_not_take_is_checked_and_drawn_as_it_came():
    """``textfont.weight="bold"`` is a WebGL value the scatter check refuses: the chart stays WebGL, accepted."""
    figures.forget()
    checked = validate_figure({"data": [{"type": "scattergl", "mode": "text", "text": ["Q001"], "y": [1],
                                         "textfont": {"weight": "bold"}}], "layout": {}})
    assert checked["data"] == [{"type": "scattergl", "mode": "text", "text": ["Q001"], "y": [1],
                                "textfont": {"weight": "bold"}}]


def test_every_webgl_attribute_is_a_scatter_attribute():
    """Retyping keeps what the chart shows: each attribute a WebGL trace may set exists on scatter (the SVG
    figure is then checked from scratch, so a value scatter does not take keeps the trace WebGL)."""
    from copilot_core.render_safety.chart_schema import schema

    attrs = schema().attrs
    webgl = [p for p in attrs if p == "scattergl" or p.startswith("scattergl.")]
    assert len(webgl) > 10
    for path in webgl:
        assert set(attrs[path]) <= set(attrs.get("scatter" + path[len("scattergl"):], {})), path


def test_a_chart_too_dear_in_either_rendering_is_refused():
    """200 WebGL traces of 100 markers, priced by hand: as SVG 20,000 markers + 200 x 10 = 22,000; as WebGL
    2,000 + 2,000 + 4,000 set-up + 200 x 100 = 28,000.  The cheaper, 22,000, is over the 12,000 a drawn chart may
    cost (it took over 2 s in Chromium either way), so the gate refuses it and says what to reduce."""
    figures.forget()
    with pytest.raises(figures.UnsafeFigure, match=r"too long to draw \(200 traces, 22,000 .*limit is 12,000"):
        validate_figure({"data": [{"type": "scattergl", "mode": "markers", "y": [1.0] * 100} for _ in range(200)],
                         "layout": {}})


@pytest.mark.parametrize(("traces", "points", "drawn"), [
    (60, 100, "scatter"),     # SVG 6,000 + 600 = 6,600 <= WebGL 600 + 600 + 4,000 + 6,000 = 11,200; within 12,000
    (1, 39_000, "scattergl"),  # WebGL 3,900 + 10 + 4,000 + 100 = 8,010 < SVG 39,010; within 12,000
])
def test_a_chart_past_the_svg_budget_is_drawn_when_its_cheaper_rendering_fits(traces: int, points: int, drawn: str):
    figures.forget()
    checked = validate_figure({"data": [{"type": "scattergl", "mode": "markers", "y": [1.0] * points}
                                        for _ in range(traces)], "layout": {}})
    assert {t["type"] for t in checked["data"]} == {drawn} and len(checked["data"]) == traces


def test_a_webgl_chart_with_buttons_is_held_to_the_same_limit():
    """Buttons keep WebGL (their restyles name WebGL traces): 120 traces of 100 markers cost 1,200 + 1,200 + 4,000
    + 12,000 = 18,400 as WebGL, over 12,000."""
    figures.forget()
    fig = {"data": [{"type": "scattergl", "mode": "markers", "y": [1.0] * 100} for _ in range(120)],
           "layout": {"updatemenus": [{"type": "buttons", "buttons": [{"label": "all", "method": "restyle",
                                                                        "args": [{"visible": True}]}]}]}}
    with pytest.raises(figures.UnsafeFigure, match=r"120 traces, 18,400 .*limit is 12,000"):
        validate_figure(fig)
