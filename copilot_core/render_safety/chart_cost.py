"""What drawing a chart costs the person's browser, estimated from the rebuilt figure before any browser sees it.

Caps on counts of items (traces, values, bytes) do not bound the work one value makes plotly.js do: a pie
draws a legend entry per label, a violin evaluates its density at ``span / (bandwidth / 3)`` points over every
sample, a contour traces every level through every cell, a ``<br>`` opens a text line, markers are one SVG
element each, a histogram's ``xbins.size`` sets its bin count and an image is decoded frame by frame.  So
each chart is priced in *SVG-element equivalents* (a marker = 1; weights measured in headless Chromium on a
2-core machine, see docs/sandbox-and-charts.md) plus the canvas, binning, contour and density work that is not
SVG, and refused beyond budgets that keep its first draw well under two seconds.  Everything is linear in
the figure's size: lengths are read off lists and typed arrays, ranges scanned once, images' headers parsed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from copilot_core.render_safety.data_arrays import ChartTooCostly, length
from copilot_core.render_safety.image_size import image_pixels
from copilot_core.render_safety.value_work import bin_count, density_samples, level_count, nested

SVG_BUDGET = 4_000  # SVG-element equivalents per chart (or per animation frame)
CELL_BUDGET = 250_000  # heatmap / image cells and 2-D histogram bins drawn on a canvas
CONTOUR_BUDGET = 400_000  # contour cells x levels
MAX_CANVAS_SIDE = 2_500  # layout width / height in pixels (a heatmap's canvas is up to twice the plot area)
MAX_CANVAS_PIXELS = 3_000_000
MAX_TEXT_TAGS = 2_000  # <br>, <b>, ... over the whole chart
# A WebGL chart's extra work in SVG-element equivalents (headless Chromium, load 3: a context's set-up 0.4 s, each
# trace 4 ms as lines, 10 ms with markers; one SVG marker 0.05 ms): it decides which rendering draws faster.
GL_SETUP = 4_000
GL_TRACE = 100
# The most a chart may cost in the rendering it is drawn with, when that is past SVG_BUDGET: the 39,000-marker
# WebGL scatter (8,010 as WebGL; 0.8 s) passes; 200 traces of 100 markers (22,000 as SVG, 28,000 as WebGL; over
# 2 s either way at load 5) does not.
DRAW_BUDGET = 12_000
# SVG-element equivalents per item.
WEIGHT = {"marker": 1.0, "bar": 1.0, "line": 0.01, "slice": 40.0, "cell": 0.02, "box": 0.05, "tag": 1.0,
          "annotation": 10.0, "shape": 2.0, "trace": 10.0, "gl": 0.1, "image": 1.0}
SVG_MARKER_TYPES = frozenset({"scatter"})
BAR_TYPES = frozenset({"bar", "waterfall", "funnel"})
_DATA_KEYS = ("x", "y", "z", "text", "hovertext", "customdata", "ids", "labels", "values", "lat", "lon", "r",
              "theta", "open", "high", "low", "close", "measure", "parents")


@dataclass
class Cost:
    """Running totals for one chart (or one frame)."""

    svg: float = 0.0
    cells: int = 0
    contour: int = 0
    reasons: list[str] = field(default_factory=list)

    def add(self, kind: str, count: float, what: str) -> None:
        self.svg += WEIGHT[kind] * count
        if count:
            self.reasons.append(what)


def trace_cost(trace: dict, cost: Cost, where: str) -> None:
    """Add one rebuilt trace's drawing work to ``cost``."""
    kind = trace.get("type", "scatter")
    points = max((length(trace.get(k)) for k in _DATA_KEYS), default=0)
    marker = nested(trace, "marker")
    points = max(points, length(marker.get("color")), length(marker.get("size")))
    if kind in SVG_MARKER_TYPES:
        mode = trace.get("mode") or ("lines+markers" if points < 20 else "lines")
        drawn = "markers" in str(mode) or "text" in str(mode)
        cost.add("marker" if drawn else "line", points, f"{where}: {points:,} points")
    elif kind == "scattergl":
        cost.add("gl", points, f"{where}: {points:,} WebGL points")
    elif kind in BAR_TYPES:
        cost.add("bar", points, f"{where}: {points:,} bars")
    elif kind == "histogram":
        bins = bin_count(trace, "y" if trace.get("orientation") == "h" else "x", where)
        cost.add("bar", bins, f"{where}: {bins:,} bins")
    elif kind in ("histogram2d", "histogram2dcontour"):
        bins = bin_count(trace, "x", where) * bin_count(trace, "y", where)
        cost.cells += bins
        if kind == "histogram2dcontour":
            cost.contour += bins * level_count(trace, where)
    elif kind in ("heatmap", "image"):
        cost.cells += length(trace.get("z"))
        if kind == "image" and isinstance(trace.get("source"), str):
            cost.cells += image_pixels(trace["source"], f"{where}.source") // 16
    elif kind == "contour":
        cells = length(trace.get("z"))
        cost.cells += cells
        cost.contour += cells * level_count(trace, where)
    elif kind in ("box", "violin"):
        samples = density_samples(trace, where) if kind == "violin" else points
        every = trace.get("boxpoints") == "all" or trace.get("points") == "all"
        cost.add("marker" if every else "box", samples, f"{where}: {samples:,} samples")
    elif kind == "pie":
        cost.add("slice", points, f"{where}: {points:,} slices, each a legend entry")
    elif kind == "table":
        count = length(nested(trace, "cells").get("values"))
        cost.add("cell", count, f"{where}: {count:,} table cells")
    cost.add("trace", 1, "")  # each trace's own group, calc and legend entry: about 2 ms of a free core


def layout_cost(layout: dict, cost: Cost, where: str) -> None:
    for key in ("width", "height"):
        value = layout.get(key)
        if isinstance(value, (int, float)) and value > MAX_CANVAS_SIDE:
            raise ChartTooCostly(f"{where}.{key} is {value:,} pixels; the limit is {MAX_CANVAS_SIDE:,}")
    width, height = layout.get("width"), layout.get("height")
    if isinstance(width, (int, float)) and isinstance(height, (int, float)) and width * height > MAX_CANVAS_PIXELS:
        raise ChartTooCostly(f"{where} is {width:,}x{height:,} pixels; the limit is {MAX_CANVAS_PIXELS:,} in all")
    for key, kind in (("annotations", "annotation"), ("shapes", "shape"), ("images", "image")):
        items = layout.get(key)
        if isinstance(items, list) and items:
            cost.add(kind, len(items), f"{where}.{key}: {len(items)} entries")
            if key == "images":
                for i, image in enumerate(items):
                    if isinstance(image, dict) and isinstance(image.get("source"), str):
                        cost.cells += image_pixels(image["source"], f"{where}.images[{i}].source") // 16


def check(cost: Cost, where: str) -> None:
    """ChartTooCostly when ``cost`` is over any budget, naming what made it so."""
    top = ", ".join(r for r in cost.reasons if r)[:300]
    if cost.svg > SVG_BUDGET:
        raise ChartTooCostly(f"{where} would take a browser too long to draw ({top}); plot fewer markers, bars, "
                             "slices or labels (aggregate, or use lines or scattergl)")
    if cost.cells > CELL_BUDGET:
        raise ChartTooCostly(f"{where} draws {cost.cells:,} heatmap/image cells or bins; the limit is "
                             f"{CELL_BUDGET:,} (downsample the grid)")
    if cost.contour > CONTOUR_BUDGET:
        raise ChartTooCostly(f"{where} traces {cost.contour:,} contour cell-levels; the limit is {CONTOUR_BUDGET:,} "
                             "(fewer levels or a coarser grid)")


def gl_as_svg(fig: dict) -> dict | None:
    """The figure (as received) with its WebGL traces retyped as SVG ``scatter``, to be checked and priced as
    that; None when it has none, or has frames, buttons or sliders (their restyles would name WebGL traces).
    A WebGL chart pays a context set-up and 4-10 ms per trace before its first frame (144 line series of 30
    points: 1.0-1.4 s at load 2, over 2 s at load 7); the same chart in SVG 0.23-0.29 s, with the same legend
    entries, names, colours and hover text.  The caller draws SVG when it is within the budgets or cheaper than
    WebGL (``webgl_cost``), and WebGL otherwise."""
    data, layout = fig.get("data"), fig.get("layout") or {}
    if not isinstance(data, list) or not isinstance(layout, dict) or fig.get("frames") \
            or layout.get("updatemenus") or layout.get("sliders"):
        return None
    if not any(isinstance(t, dict) and t.get("type") == "scattergl" for t in data):
        return None
    return {**fig, "data": [{**t, "type": "scatter"} if isinstance(t, dict) and t.get("type") == "scattergl" else t
                            for t in data]}


def first_draw_cost(fig: dict, text_tags: int) -> Cost:
    """The rebuilt figure's first draw priced, not yet held to the budgets (ChartTooCostly beyond a hard cap)."""
    cost = Cost()
    if text_tags > MAX_TEXT_TAGS:
        raise ChartTooCostly(f"the chart's text holds {text_tags:,} line breaks and style tags; the limit is "
                             f"{MAX_TEXT_TAGS:,}")
    cost.add("tag", text_tags, f"{text_tags:,} text tags" if text_tags else "")
    layout = fig.get("layout") or {}
    layout_cost(layout, cost, "layout")
    for i, trace in enumerate(fig.get("data") or []):
        trace_cost(trace, cost, f"data[{i}]")
    return cost


def webgl_cost(fig: dict, cost: Cost) -> float:
    """What the first draw of ``fig`` (priced as ``cost``) costs with its WebGL traces drawn in WebGL."""
    traces = sum(1 for t in fig.get("data") or [] if t.get("type") == "scattergl")
    return cost.svg + (GL_SETUP + GL_TRACE * traces if traces else 0)


def check_drawn(price: float, fig: dict) -> None:
    """ChartTooCostly when the rendering a chart is drawn with costs more than ``DRAW_BUDGET``."""
    if price > DRAW_BUDGET:
        traces = sum(1 for t in fig.get("data") or [] if isinstance(t, dict))
        raise ChartTooCostly(f"the chart would take a browser too long to draw ({traces} traces, {price:,.0f} "
                             f"SVG-element equivalents; the limit is {DRAW_BUDGET:,}); plot fewer traces or points "
                             "(aggregate, or one trace per group)")


def figure_cost(fig: dict, text_tags: int) -> Cost:
    """The rebuilt figure's drawing cost (its first draw, and each animation frame alone); ChartTooCostly beyond a
    budget.  ``text_tags``: markup tags counted while its text was checked."""
    cost = first_draw_cost(fig, text_tags)
    check(cost, "the chart")
    for n, frame in enumerate(fig.get("frames") or []):
        frame_cost = Cost()
        if isinstance(frame.get("layout"), dict):
            layout_cost(frame["layout"], frame_cost, f"frames[{n}].layout")
        for i, trace in enumerate(frame.get("data") or []):
            trace_cost(trace, frame_cost, f"frames[{n}].data[{i}]")
        check(frame_cost, f"frames[{n}]")
    return cost
