"""Shared look of every chart: band colours (values are printed with ``domain.metrics.format_value``)."""

from __future__ import annotations

from copilot_core.domain.metrics import BANDS, Band

BAND_COLOURS: dict[Band, str] = {
    "bad": "#d62728",
    "fair": "#ff9f1c",
    "good": "#8bc34a",
    "excellent": "#1b7f3b",
}
MISSING_COLOUR = "#d0d0d0"
BAND_INDEX: dict[Band, int] = {b: i for i, b in enumerate(BANDS)}


def band_colourscale() -> list[list]:
    """A stepped colourscale for z = band index 0..3 (zmin -0.5, zmax 3.5)."""
    n = len(BANDS)
    scale: list[list] = []
    for i, band in enumerate(BANDS):
        scale.append([i / n, BAND_COLOURS[band]])
        scale.append([(i + 1) / n, BAND_COLOURS[band]])
    return scale
