"""Parameter over time: one line per qubit, the chip median with its interquartile band, outliers marked."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from copilot_core.domain.metrics import Metric

MAX_LEGEND = 20


def y_range(frame: pd.DataFrame, band: pd.DataFrame | None, *, pad: float = 0.06) -> tuple[float, float] | None:
    """The y-range of the drawn data (lines, points, chip band) with a small margin; None when empty."""
    parts = [frame["value"]] if not frame.empty else []
    if band is not None and not band.empty:
        parts += [band["q25"], band["q75"], band["median"]]
    values = pd.concat(parts).dropna() if parts else pd.Series(dtype=float)
    if values.empty:
        return None
    low, high = float(values.min()), float(values.max())
    margin = (high - low) * pad or abs(high) * pad or 1.0
    return low - margin, high + margin


def timeseries_figure(frame: pd.DataFrame, band: pd.DataFrame | None, entry: Metric, *, title: str = "",
                      lines: bool = True) -> go.Figure:
    """``frame`` from ``analysis.timeseries.timeseries_frame``; ``band`` from ``median_band`` (None: no band).

    ``lines=False`` draws only the chip band and the outliers (the all-qubits view: 141 lines hide the data).
    The y-range follows the data; a threshold line is drawn only when it falls inside that range."""
    unit = f" [{entry.unit}]" if entry.unit else ""
    fig = go.Figure()
    drawn = frame if lines else frame.iloc[0:0]
    many = drawn["qid"].nunique() > MAX_LEGEND if not drawn.empty else False
    line_type = go.Scattergl if many else go.Scatter
    # many qubits: thin grey lines so the chip band and the outliers stay readable on top
    style = dict(line=dict(width=0.7, color="rgba(90,110,140,0.35)"), marker=dict(size=2)) if many else \
        dict(line=dict(width=1.5), marker=dict(size=5))
    for label, part in drawn.groupby("qubit", sort=True):
        fig.add_trace(line_type(x=part["calibrated_at"], y=part["value"], mode="lines+markers", name=str(label),
                                showlegend=not many, **style,
                                hovertemplate=f"{label}<br>%{{x|%Y-%m-%d %H:%M}}<br>%{{y:.4g}}{unit}<extra></extra>"))
    if band is not None and not band.empty:
        fig.add_trace(go.Scatter(x=band["day"], y=band["q75"], mode="lines", line=dict(width=0), hoverinfo="skip",
                                 showlegend=False, name="q75"))
        fig.add_trace(go.Scatter(x=band["day"], y=band["q25"], mode="lines", line=dict(width=0), fill="tonexty",
                                 fillcolor="rgba(255,160,40,0.25)", hoverinfo="skip", name="chip IQR"))
        fig.add_trace(go.Scatter(x=band["day"], y=band["median"], mode="lines", name="chip median",
                                 line=dict(color="#e07000", dash="dash", width=2.5),
                                 hovertemplate="chip median %{y:.4g}<extra></extra>"))
    outliers = frame[frame["outlier"]] if not frame.empty else frame
    if not outliers.empty:
        fig.add_trace(go.Scatter(x=outliers["calibrated_at"], y=outliers["value"], mode="markers", name="outlier",
                                 marker=dict(symbol="x", size=10, color="#d62728", line=dict(width=2)),
                                 customdata=outliers["qubit"],
                                 hovertemplate="outlier %{customdata}<br>%{y:.4g}<extra></extra>"))
    shown_range = y_range(drawn if lines else outliers, band)
    for threshold, colour, name in ((entry.bad, "#d62728", "bad"), (entry.good, "#8bc34a", "good")):
        if threshold is not None and shown_range is not None and shown_range[0] <= threshold <= shown_range[1]:
            fig.add_hline(y=threshold, line=dict(color=colour, dash="dot", width=1), annotation_text=name,
                          annotation_position="top left", annotation_font={"size": 11, "color": colour})
    if shown_range is not None:
        fig.update_yaxes(range=list(shown_range))
    fig.update_layout(height=460, margin=dict(l=10, r=10, t=40, b=10), hovermode="closest",
                      legend={"orientation": "h", "y": -0.12},
                      title=dict(text=title or f"{entry.title}{unit}", x=0, font=dict(size=14)))
    fig.update_yaxes(title=f"{entry.title}{unit}")
    return fig
