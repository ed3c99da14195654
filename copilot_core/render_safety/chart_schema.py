"""Which chart attributes may be drawn, and what kind of value each takes.

The kinds come from plotly's own attribute reference (the validators plotly.py generates from plotly.js's
``plot-schema``, shipped as ``plotly/validators/_validators.json``); the allowlist here picks the trace
types a calibration analysis needs and the layout keys its charts use.  Map and geo traces and layouts are
not on it: plotly.js fetches their basemaps, tiles, sprites, topojson and geojson from the internet.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import plotly

TRACE_TYPES = frozenset({
    "scatter", "scattergl", "bar", "histogram", "histogram2d", "histogram2dcontour", "heatmap", "contour",
    "box", "violin", "pie", "table", "indicator", "image", "waterfall", "funnel"})
MAP_TRACES = frozenset({"scattergeo", "choropleth", "scattermap", "scattermapbox", "choroplethmap",
                        "choroplethmapbox", "densitymap", "densitymapbox"})
LAYOUT_KEYS = frozenset({
    "title", "font", "height", "width", "autosize", "margin", "showlegend", "legend", "xaxis", "yaxis",
    "hovermode", "hoverlabel", "hoverdistance", "spikedistance", "hoversubplots", "barmode", "bargap",
    "bargroupgap", "barnorm", "boxmode", "boxgap", "boxgroupgap", "violinmode", "violingap", "violingroupgap",
    "waterfallmode", "waterfallgap", "waterfallgroupgap", "funnelmode", "funnelgap", "funnelgroupgap",
    "coloraxis", "colorscale", "colorway", "piecolorway", "extendpiecolors", "paper_bgcolor", "plot_bgcolor",
    "annotations", "annotationdefaults", "shapes", "shapedefaults", "images", "imagedefaults", "updatemenus",
    "updatemenudefaults", "sliders", "sliderdefaults", "template", "grid", "dragmode", "uirevision", "datarevision",
    "separators", "clickmode", "meta", "scattermode", "scattergap", "transition", "uniformtext", "autotypenumbers",
    "minreducedwidth", "minreducedheight", "hidesources", "calendar", "selectdirection", "hiddenlabels"})
MAP_LAYOUT_KEYS = frozenset({"geo", "map", "mapbox"})
# Layout keys numbered per subplot: xaxis2, yaxis10, coloraxis3, legend2.
_NUMBERED = re.compile(r"(xaxis|yaxis|coloraxis|legend)([2-9]|[1-9][0-9]+)")
# Attributes whose strings are not text: checked by their own rule in chart_text.
IMAGE_ATTRS = frozenset({"layout.image.source", "image.source"})
ARGS_ATTRS = frozenset({"layout.updatemenu.button.args", "layout.updatemenu.button.args2",
                        "layout.slider.step.args"})


@dataclass(frozen=True)
class Attr:
    """One attribute: its plotly validator kind and parameters; ``path`` names its children for compounds."""

    kind: str
    params: dict[str, Any]
    path: str


@dataclass(frozen=True)
class Schema:
    attrs: dict[str, dict[str, Attr]]  # compound path -> child name -> attribute


def _item_path(params: dict[str, Any], children: dict[str, set[str]]) -> str:
    parent, name = params["parent_name"], params["plotly_name"]
    for candidate in (f"{parent}.{str(params.get('data_class_str', '')).lower()}", f"{parent}.{name[:-1]}",
                      f"{parent}.{name}"):
        if candidate in children:
            return candidate
    return f"{parent}.{name}"


@lru_cache(maxsize=1)
def schema() -> Schema:
    """plotly's validator table, indexed by compound path (loaded once: ~60 ms)."""
    source = Path(plotly.__file__).parent / "validators" / "_validators.json"
    table: dict[str, dict[str, Any]] = json.loads(source.read_text())
    children: dict[str, set[str]] = {}
    for key in table:
        parent, _, name = key.rpartition(".")
        children.setdefault(parent, set()).add(name)
    attrs: dict[str, dict[str, Attr]] = {}
    for key, spec in table.items():
        parent, _, name = key.rpartition(".")
        kind, params = spec["superclass"], spec["params"]
        if kind == "CompoundArrayValidator" or (kind == "CompoundValidator" and name.endswith("defaults")):
            path = _item_path(params, children)
        else:
            path = key
        attrs.setdefault(parent, {})[name] = Attr(kind, params, path)
    return Schema(attrs)


def layout_key(name: str) -> str | None:
    """The schema name of a layout key (``xaxis2`` -> ``xaxis``), or None if charts may not set it."""
    numbered = _NUMBERED.fullmatch(name)
    base = numbered.group(1) if numbered else name
    return base if base in LAYOUT_KEYS else None
