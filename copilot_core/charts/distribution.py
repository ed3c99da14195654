"""Distribution of one metric across a chip (CDF or histogram) with the threshold lines."""

from __future__ import annotations

from typing import Literal

import numpy as np
import plotly.graph_objects as go

from copilot_core.analysis.chip_metrics import ChipMetric
from copilot_core.analysis.stats import finite
from copilot_core.charts.style import BAND_COLOURS
from copilot_core.domain.metrics import Band
from copilot_core.errors import InvalidRequest

Kind = Literal["cdf", "histogram"]


def distribution_figure(cm: ChipMetric, kind: Kind = "cdf") -> go.Figure:
    """CDF (QDash's default beside each heatmap) or histogram of the chip's display values."""
    if kind not in ("cdf", "histogram"):
        raise InvalidRequest(f"kind must be 'cdf' or 'histogram', not {kind!r}")
    values = np.sort(finite(cm.values.values()))
    unit = f" [{cm.metric.unit}]" if cm.metric.unit else ""
    fig = go.Figure()
    if kind == "cdf":
        frac = np.arange(1, values.size + 1) / max(values.size, 1)
        fig.add_trace(go.Scatter(x=values, y=frac, mode="lines", line=dict(shape="hv", color="#1f77b4"),
                                 hovertemplate="%{x:.4g}: %{y:.0%}<extra></extra>", name="CDF"))
        fig.update_yaxes(title="fraction of measured", range=[0, 1.02], tickformat=".0%")
    else:
        fig.add_trace(go.Histogram(x=values, nbinsx=min(40, max(5, values.size // 3)), marker_color="#1f77b4",
                                   name="count"))
        fig.update_yaxes(title="count")
    thresholds: tuple[tuple[Band, float | None], ...] = (("bad", cm.metric.bad), ("good", cm.metric.good),
                                                        ("excellent", cm.metric.excellent))
    for band, threshold in thresholds:
        if threshold is not None:
            fig.add_vline(x=threshold, line=dict(color=BAND_COLOURS[band], dash="dash", width=1),
                          annotation_text=band, annotation_position="top")
    if cm.stats["median"] is not None:
        fig.add_vline(x=cm.stats["median"], line=dict(color="#333", width=1), annotation_text="median",
                      annotation_position="bottom right")
    fig.update_xaxes(title=f"{cm.metric.title}{unit}")
    fig.update_layout(height=380, margin=dict(l=10, r=10, t=40, b=10), showlegend=False,
                      title=dict(text=f"{'CDF' if kind == 'cdf' else 'Histogram'} ({cm.stats['count']} values)",
                                 x=0, font=dict(size=14)))
    return fig
