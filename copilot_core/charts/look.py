"""The dashboard's chart look written into each figure, so a browser draws the figure once.

Streamlit's chart element styles a figure by giving it a ``layout.template`` and, once the chart is mounted,
hands the figure to ``Plotly.react`` again (its theme pass rebuilds it from JSON).  plotly.js compares a
template by identity, so any template there makes that second pass a full redraw of every trace: each chart was
drawn twice per page view.  Here the same look (Streamlit's light theme, as its frontend applies it: fonts,
colours, axes, hover labels, bold left-aligned titles) is written into the figure's own layout and traces
wherever the figure does not set a value, the template is dropped, and ``layout.datarevision`` carries a digest
of the traces, so the second pass finds nothing changed and draws nothing.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from typing import Any

from plotly.utils import PlotlyJSONEncoder

FONT = '"Source Sans", sans-serif'
TEXT, FADED, GRID, HEADING = "#262730", "#808495", "#e6eaf1", "#2F2D2B"
SEQUENTIAL = [[0.0, "#e4f5ff"], [1 / 9, "#c7ebff"], [2 / 9, "#a6dcff"], [3 / 9, "#83c9ff"], [4 / 9, "#60b4ff"],
              [5 / 9, "#3d9df3"], [6 / 9, "#1c83e1"], [7 / 9, "#0068c9"], [8 / 9, "#0054a3"], [1.0, "#004280"]]
_AXIS_FONTS = {"tickfont": {"color": FADED, "size": 12}, "title": {"font": {"color": FADED, "size": 14}},
               "zerolinecolor": GRID, "gridcolor": GRID, "tickcolor": GRID, "minor": {"gridcolor": GRID},
               "automargin": True}
X_AXIS: dict[str, Any] = {**_AXIS_FONTS, "showgrid": False, "zeroline": False,
                          "title": {"font": {"color": FADED, "size": 14}, "standoff": 20}}
Y_AXIS: dict[str, Any] = {**_AXIS_FONTS, "ticklabelposition": "outside",
                          "title": {"font": {"color": FADED, "size": 14}, "standoff": 24}}
LAYOUT: dict[str, Any] = {
    "font": {"color": FADED, "family": FONT, "size": 12, "weight": 400},
    "title": {"font": {"family": FONT, "size": 16, "color": HEADING, "weight": 700}, "pad": {"l": 4},
              "xanchor": "left", "x": 0},
    "legend": {"title": {"font": {"size": 12, "color": FADED}, "side": "top"}, "valign": "top",
               "bordercolor": "rgba(0,0,0,0)", "borderwidth": 0, "font": {"size": 12, "color": TEXT}},
    "paper_bgcolor": "#FFFFFF", "plot_bgcolor": "#FFFFFF", "margin": {"pad": 8, "r": 0, "l": 0},
    "hoverlabel": {"bgcolor": "#FFFFFF", "bordercolor": "#DCD8D4", "font": {"color": FADED, "family": FONT,
                                                                            "size": 12}},
    "colorway": ["#0068c9", "#83c9ff", "#ff2b2b", "#ffabab", "#29b09d", "#7defa1", "#ff8700", "#ffd16a", "#6d3fc0",
                 "#d5dae5"],
}
SCALED_TRACES = frozenset({"heatmap", "contour", "histogram2d", "histogram2dcontour"})
_AXIS_KEY = re.compile(r"([xy])axis\d*")


def data_revision(traces: object) -> str:
    """A short digest of the traces' JSON: plotly.js redraws the traces only when it changes."""
    text = json.dumps(traces, cls=PlotlyJSONEncoder, sort_keys=True, allow_nan=True)
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def _missing(defaults: Mapping[str, Any], given: object) -> dict[str, Any]:
    """The parts of ``defaults`` that ``given`` does not set (nested dicts compared key by key)."""
    have = given if isinstance(given, Mapping) else {}
    out: dict[str, Any] = {}
    for key, value in defaults.items():
        if isinstance(value, dict) and isinstance(have.get(key), Mapping):
            sub = _missing(value, have[key])
            if sub:
                out[key] = sub
        elif have.get(key) is None:
            out[key] = value
    return out


def _merged(given: Mapping[str, Any], patch: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(given)
    for key, value in patch.items():
        out[key] = _merged(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), Mapping) else value
    return out


def layout_patch(layout: Mapping[str, Any]) -> dict[str, Any]:
    """What the look adds to ``layout``: unset values only, every axis styled (the title is bold by its font's
    weight, as Streamlit's ``<b>`` would make it, so its text stays as built)."""
    patch = _missing(LAYOUT, layout)
    for key in {"xaxis", "yaxis", *(k for k in layout if _AXIS_KEY.fullmatch(k))}:
        axis = _missing(X_AXIS if key.startswith("x") else Y_AXIS, layout.get(key))
        if axis:
            patch[key] = axis
    return patch


def trace_patch(trace: Mapping[str, Any]) -> dict[str, Any]:
    """What the look adds to one trace: the sequential colour scale, markers without outlines."""
    kind = trace.get("type", "scatter")
    if kind in SCALED_TRACES and trace.get("colorscale") is None:
        return {"colorscale": SEQUENTIAL}
    if kind == "scatter":
        return _missing({"marker": {"line": {"width": 0}}}, trace)
    return {}


def styled_dict(figure: Mapping[str, Any]) -> dict[str, Any]:
    """A figure dict (``{"data": [...], "layout": {...}}``, already checked) as a copy with the look and its data
    revision; the caller checks the result again before it is drawn."""
    layout = figure.get("layout") or {}
    traces = [_merged(t, trace_patch(t)) for t in figure.get("data") or []]
    out = dict(figure)
    out["data"] = traces
    out["layout"] = {**_merged(layout, layout_patch(layout)), "datarevision": data_revision(traces)}
    return out
