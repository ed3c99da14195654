"""The work one value of a trace sets plotly.js: a histogram's bins, a contour's levels, a violin's density
points, each refused beyond its cap with what to change."""

from __future__ import annotations

import math


from copilot_core.render_safety.data_arrays import ChartTooCostly, length, numeric_range

DENSITY_BUDGET = 5_000_000  # violin samples x density points
MAX_DENSITY_POINTS = 5_000
MAX_BINS = 5_000  # one axis of a histogram
MAX_LEVELS = 200  # contour levels (each also a colour-bar band)


def nested(parent: dict, key: str) -> dict:
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


def bin_count(trace: dict, axis: str, where: str) -> int:
    """Bins along ``axis`` of a histogram: ``nbins<axis>``, or ``<axis>bins`` range / size."""
    count = _count_value(trace.get(f"nbins{axis}"))
    bins = nested(trace, f"{axis}bins")
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


def level_count(trace: dict, where: str) -> int:
    contours = nested(trace, "contours")
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


def density_samples(trace: dict, where: str) -> int:
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
