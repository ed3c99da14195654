"""Shared look of every chart: band colours (values are printed with ``domain.metrics.format_value``)."""

from __future__ import annotations

from copilot_core.domain.metrics import BANDS, Band, Metric

BAND_COLOURS: dict[Band, str] = {
    "bad": "#d62728",
    "fair": "#ff9f1c",
    "good": "#8bc34a",
    "excellent": "#1b7f3b",
}
MISSING_COLOUR = "#d0d0d0"
# light tints of the band colours for table cells: the value stays readable on top
BAND_TINTS: dict[Band, str] = {
    "bad": "#f9d4d4",
    "fair": "#ffe8c7",
    "good": "#e3f2d3",
    "excellent": "#c3e6cd",
}
NO_VALUE = "—"
NO_VALUE_HELP = "— = no usable value: dead or never measured qubit, failed fit, or NaN stored as 0."
BAND_INDEX: dict[Band, int] = {b: i for i, b in enumerate(BANDS)}


def cell_text(metric: Metric, value: float | None) -> str:
    """A value short enough for a heatmap cell (the unit is in the title): ``51``, ``99.87``, ``5.012``."""
    if value is None:
        return "—"
    if metric.unit == "%":
        return f"{value:.2f}"
    if metric.unit == "GHz":
        return f"{value:.3f}"
    size = abs(value)
    return f"{value:.0f}" if size >= 100 else f"{value:.1f}" if size >= 1 else f"{value:.3g}"


def band_colourscale() -> list[list]:
    """A stepped colourscale for z = band index 0..3 (zmin -0.5, zmax 3.5)."""
    n = len(BANDS)
    scale: list[list] = []
    for i, band in enumerate(BANDS):
        scale.append([i / n, BAND_COLOURS[band]])
        scale.append([(i + 1) / n, BAND_COLOURS[band]])
    return scale
