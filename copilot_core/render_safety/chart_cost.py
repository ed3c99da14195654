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

import base64
import binascii
import math
import struct
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

SVG_BUDGET = 4_000  # SVG-element equivalents per chart (or per animation frame)
CELL_BUDGET = 250_000  # heatmap / image cells and 2-D histogram bins drawn on a canvas
CONTOUR_BUDGET = 400_000  # contour cells x levels
DENSITY_BUDGET = 5_000_000  # violin samples x density points
MAX_DENSITY_POINTS = 5_000
MAX_BINS = 5_000  # one axis of a histogram
MAX_LEVELS = 200  # contour levels (each also a colour-bar band)
MAX_IMAGE_PIXELS = 4_000_000  # an embedded image, all frames
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
_DTYPES = {"i1": "i1", "u1": "u1", "u1c": "u1", "i2": "<i2", "u2": "<u2", "i4": "<i4", "u4": "<u4", "f4": "<f4",
           "f8": "<f8"}
_ITEMSIZES = {name: np.dtype(code).itemsize for name, code in _DTYPES.items()}
_DATA_KEYS = ("x", "y", "z", "text", "hovertext", "customdata", "ids", "labels", "values", "lat", "lon", "r",
              "theta", "open", "high", "low", "close", "measure", "parents")


class ChartTooCostly(ValueError):
    """The chart would take a browser too long to draw; the message says what to reduce."""


def typed_count(value: dict) -> int:
    """How many numbers a typed array (``{dtype, bdata, shape}``) holds; ChartTooCostly when its shape disagrees."""
    text = value["bdata"]
    if len(text) % 4:
        raise ChartTooCostly("typed-array data is not whole base64 (its length is not a multiple of 4)")
    size = len(text) // 4 * 3 - len(text[-2:]) + len(text[-2:].rstrip("="))
    itemsize = _ITEMSIZES[value["dtype"]]
    if size % itemsize:
        raise ChartTooCostly(f"typed-array data of {size} bytes is not a whole number of {value['dtype']} values")
    count = size // itemsize
    if "shape" in value:
        dims = [int(d) for d in str(value["shape"]).split(",")]
        if math.prod(dims) != count:
            raise ChartTooCostly(f"typed-array shape {value['shape']} declares {math.prod(dims):,} values but its "
                                 f"data holds {count:,}")
    return count


def typed_dims(value: dict) -> int:
    return len(str(value["shape"]).split(",")) if "shape" in value else 1


def _decoded(value: dict) -> np.ndarray:
    try:
        raw = base64.b64decode(value["bdata"], validate=True)
    except binascii.Error:
        raise ChartTooCostly("typed-array data is not valid base64") from None
    return np.frombuffer(raw, dtype=_DTYPES[value["dtype"]])


def length(value: object) -> int:
    """Values in a data array: list items (rows of a 2-D list summed), typed-array numbers, else 0."""
    if isinstance(value, dict) and "bdata" in value:
        return typed_count(value)
    if not isinstance(value, list):
        return 0
    rows = [item for item in value if type(item) is list]
    return len(value) - len(rows) + sum(map(len, rows))


def numeric_range(value: object) -> float | None:
    """max - min of a numeric data array (None when it is not numbers, or empty)."""
    if isinstance(value, dict) and "bdata" in value:
        numbers = _decoded(value).astype(float)
    elif isinstance(value, list):
        flat = [v for row in value for v in (row if isinstance(row, list) else [row])]
        if not flat or not all(type(v) in (int, float) for v in flat):
            return None
        numbers = np.asarray(flat, dtype=float)
    else:
        return None
    numbers = numbers[np.isfinite(numbers)]
    return float(numbers.max() - numbers.min()) if numbers.size else None


def _sub(parent: dict, key: str) -> dict:
    """A nested attribute object (``xbins``, ``contours``, ``marker``, ``cells``), or an empty one."""
    value = parent.get(key)
    return value if isinstance(value, dict) else {}


def _count_value(value: object) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _number(value: object) -> float | None:
    """A finite JSON number (not a bool), else None."""
    if type(value) is int or type(value) is float:
        return float(value) if math.isfinite(value) else None
    return None


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


def _bins(trace: dict, axis: str, where: str) -> int:
    """Bins along ``axis`` of a histogram: ``nbins<axis>``, or ``<axis>bins`` range / size."""
    count = _count_value(trace.get(f"nbins{axis}"))
    bins = _sub(trace, f"{axis}bins")
    size = _number(bins.get("size"))
    if size is not None:
        if size <= 0:
            raise ChartTooCostly(f"{where}.{axis}bins.size must be positive")
        start, end = _number(bins.get("start")), _number(bins.get("end"))
        span = end - start if start is not None and end is not None else numeric_range(trace.get(axis))
        if span is None:
            raise ChartTooCostly(f"{where}.{axis}bins.size is set but its bin count cannot be told; set "
                                 f"{axis}bins.start and end, or nbins{axis}")
        count = math.ceil(abs(span) / size)
    if count is not None and count > MAX_BINS:
        raise ChartTooCostly(f"{where} makes {count:,.0f} bins along {axis}; the limit is {MAX_BINS:,}")
    return int(count) if count is not None and count > 0 else 100


def _levels(trace: dict, where: str) -> int:
    contours = _sub(trace, "contours")
    ncontours = trace.get("ncontours")
    levels = ncontours if isinstance(ncontours, int) and not isinstance(ncontours, bool) else 15
    size = _number(contours.get("size"))
    if size is not None:
        if size <= 0:
            raise ChartTooCostly(f"{where}.contours.size must be positive")
        start, end = _number(contours.get("start")), _number(contours.get("end"))
        span = end - start if start is not None and end is not None else numeric_range(trace.get("z"))
        if span is None:
            raise ChartTooCostly(f"{where}.contours.size is set but the level count cannot be told; set "
                                 "contours.start and end, or ncontours")
        levels = math.ceil(abs(span) / size) + 1
    if levels > MAX_LEVELS:
        raise ChartTooCostly(f"{where} draws {levels:,} contour levels; the limit is {MAX_LEVELS}")
    return levels


def _density(trace: dict, where: str) -> int:
    """Violin: samples x density points when a bandwidth is set (plotly.js steps bandwidth / 3 over the span)."""
    bandwidth = _number(trace.get("bandwidth"))
    samples = max(length(trace.get("y")), length(trace.get("x")))
    if bandwidth is None:
        return samples
    if bandwidth <= 0:
        raise ChartTooCostly(f"{where}.bandwidth must be positive")
    span = trace.get("span")
    if trace.get("spanmode") == "manual" and isinstance(span, list) and len(span) == 2 \
            and all(_number(s) is not None for s in span):
        width = abs(float(span[1]) - float(span[0]))
    else:
        key = "x" if trace.get("orientation") == "h" else "y"
        data_range = numeric_range(trace.get(key))
        if data_range is None:
            raise ChartTooCostly(f"{where}.bandwidth is set on data whose range cannot be told; leave bandwidth out")
        width = data_range + (4 * bandwidth if trace.get("spanmode") != "hard" else 0)
    points = math.ceil(width / (bandwidth / 3)) if width else 1
    if points > MAX_DENSITY_POINTS or points * samples > DENSITY_BUDGET:
        raise ChartTooCostly(f"{where}: a violin bandwidth of {bandwidth:g} over a span of {width:g} evaluates "
                             f"{points:,} density points over {samples:,} samples; use a larger bandwidth")
    return samples


def image_pixels(source: str, where: str) -> int:
    """Pixels x frames of an embedded ``data:image`` (PNG, JPEG, GIF, WebP), read from its headers."""
    try:
        raw = base64.b64decode(source.split(",", 1)[1], validate=True)
    except (binascii.Error, IndexError):
        raise ChartTooCostly(f"{where}: the image is not valid base64") from None
    reader = _IMAGE_READERS.get(source[len("data:image/"):source.index(";")])
    size = reader(raw) if reader is not None else None
    if size is None:
        raise ChartTooCostly(f"{where}: the image's size cannot be read from its header")
    width, height, frames = size
    if frames > 1:
        raise ChartTooCostly(f"{where}: animated images ({frames:,} frames) are not drawn; embed one still image")
    if width * height > MAX_IMAGE_PIXELS:
        raise ChartTooCostly(f"{where}: the image is {width}x{height} pixels; the limit is {MAX_IMAGE_PIXELS:,}")
    return width * height


def _png(raw: bytes) -> tuple[int, int, int] | None:
    if raw[:8] != b"\x89PNG\r\n\x1a\n" or raw[12:16] != b"IHDR":
        return None
    width, height = struct.unpack(">II", raw[16:24])
    return width, height, 2 if b"acTL" in raw[:raw.find(b"IDAT")] else 1  # acTL before the image data: animated


def _jpeg(raw: bytes) -> tuple[int, int, int] | None:
    at = 2
    if raw[:2] != b"\xff\xd8":
        return None
    while at + 9 < len(raw):
        if raw[at] != 0xFF:
            return None
        marker, size = raw[at + 1], struct.unpack(">H", raw[at + 2:at + 4])[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", raw[at + 5:at + 9])
            return width, height, 1
        at += 2 + size
    return None


def _gif(raw: bytes) -> tuple[int, int, int] | None:
    """Walk the GIF's blocks and count its frames (image descriptors)."""
    if raw[:3] != b"GIF" or len(raw) < 13:
        return None
    width, height, flags = struct.unpack("<HHB", raw[6:11])
    at, frames = 13 + (3 << ((flags & 7) + 1) if flags & 0x80 else 0), 0
    while at < len(raw):
        block = raw[at]
        if block == 0x3B:
            break
        if block == 0x21:  # extension: label, then sub-blocks
            at += 2
        elif block == 0x2C:  # image descriptor, local colour table, LZW size, sub-blocks
            frames += 1
            local = raw[at + 9] if at + 9 < len(raw) else 0
            at += 10 + (3 << ((local & 7) + 1) if local & 0x80 else 0) + 1
        else:
            return None
        while at < len(raw) and raw[at]:
            at += raw[at] + 1
        at += 1
    return width, height, max(frames, 1)


def _webp(raw: bytes) -> tuple[int, int, int] | None:
    if raw[:4] != b"RIFF" or raw[8:12] != b"WEBP":
        return None
    chunk = raw[12:16]
    if chunk == b"VP8X":
        animated = bool(raw[20] & 0x02)
        width = 1 + int.from_bytes(raw[24:27], "little")
        height = 1 + int.from_bytes(raw[27:30], "little")
        return width, height, 2 if animated else 1
    if chunk == b"VP8 ":
        width, height = struct.unpack("<HH", raw[26:30])
        return width & 0x3FFF, height & 0x3FFF, 1
    if chunk == b"VP8L":
        bits = int.from_bytes(raw[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1, 1
    return None


_IMAGE_READERS: dict[str, Callable[[bytes], tuple[int, int, int] | None]] = {
    "png": _png, "jpeg": _jpeg, "jpg": _jpeg, "gif": _gif, "webp": _webp}


def trace_cost(trace: dict, cost: Cost, where: str) -> None:
    """Add one rebuilt trace's drawing work to ``cost``."""
    kind = trace.get("type", "scatter")
    points = max((length(trace.get(k)) for k in _DATA_KEYS), default=0)
    marker = _sub(trace, "marker")
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
        bins = _bins(trace, "y" if trace.get("orientation") == "h" else "x", where)
        cost.add("bar", bins, f"{where}: {bins:,} bins")
    elif kind in ("histogram2d", "histogram2dcontour"):
        bins = _bins(trace, "x", where) * _bins(trace, "y", where)
        cost.cells += bins
        if kind == "histogram2dcontour":
            cost.contour += bins * _levels(trace, where)
    elif kind in ("heatmap", "image"):
        cost.cells += length(trace.get("z"))
        if kind == "image" and isinstance(trace.get("source"), str):
            cost.cells += image_pixels(trace["source"], f"{where}.source") // 16
    elif kind == "contour":
        cells = length(trace.get("z"))
        cost.cells += cells
        cost.contour += cells * _levels(trace, where)
    elif kind in ("box", "violin"):
        samples = _density(trace, where) if kind == "violin" else points
        every = trace.get("boxpoints") == "all" or trace.get("points") == "all"
        cost.add("marker" if every else "box", samples, f"{where}: {samples:,} samples")
    elif kind == "pie":
        cost.add("slice", points, f"{where}: {points:,} slices, each a legend entry")
    elif kind == "table":
        count = length(_sub(trace, "cells").get("values"))
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
