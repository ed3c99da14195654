"""Chip figures laid out on the topology: qubit heatmap and coupling map (Plotly, no Streamlit).

Drawn the way QDash draws them (go.Heatmap, Viridis, origin top-left, cell text ``Q005<br>99.87%``)
plus what Streamlit needs for clicks: heatmap cells emit no selection events, so an invisible
scatter sits on the cell centres carrying each qid in ``customdata`` (streamlit-recipes.md (c)).
The copilot's ``generate_chip_heatmap`` tool uses the same builders, so there is one chip picture.
"""

from __future__ import annotations

from typing import Literal

import plotly.graph_objects as go

from copilot_core.analysis.chip_metrics import ChipMetric
from copilot_core.charts.style import BAND_COLOURS, BAND_INDEX, MISSING_COLOUR, band_colourscale, cell_text
from copilot_core.domain.metrics import BANDS, Band, format_value
from copilot_core.domain.topology import Topology, qubit_label
from copilot_core.errors import InvalidRequest

ColorBy = Literal["value", "band"]
TEXT_MAX_GRID = 16  # beyond 16x16 cells are too small for labels: hover carries them instead


def _cell_px(grid: int) -> int:
    return max(22, min(64, 640 // grid))


def _title(cm: ChipMetric, suffix: str = "") -> str:
    unit = f" [{cm.metric.unit}]" if cm.metric.unit else ""
    window = f", {cm.window}" if cm.within_hours else ""
    return f"{cm.metric.title}{unit} on {cm.chip_id} ({cm.mode}{window}){suffix}"


def _colour_mode(cm: ChipMetric, color_by: ColorBy) -> tuple[bool, str]:
    """(use bands?, title suffix): a metric without thresholds falls back to value colouring."""
    if color_by not in ("value", "band"):
        raise InvalidRequest(f"color_by must be 'value' or 'band', not {color_by!r}")
    if color_by == "band" and all(b is None for b in cm.bands.values()) and cm.metric.good is None:
        return False, " (no thresholds: coloured by value)"
    return color_by == "band", ""


def _hover(cm: ChipMetric, item_id: str) -> str:
    value = cm.values.get(item_id)
    band = cm.bands.get(item_id)
    row = cm.raw.get(item_id) or {}
    lines = [f"<b>{cm.label(item_id)}</b>", f"{cm.metric.title}: {format_value(cm.metric, value)}"]
    if band:
        lines.append(f"band: {band}")
    if row.get("stddev") is not None and value is not None:
        lines.append(f"σ: {format_value(cm.metric, row['stddev'] * cm.metric.scale)} (n={row.get('count')})")
    reason = cm.missing_reason(item_id)
    if reason:
        lines.append(reason)
    if row.get("at") is not None:
        lines.append(f"at: {str(row['at'])[:16]}")
    return "<br>".join(lines)


def qubit_heatmap(cm: ChipMetric, topology: Topology, *, color_by: ColorBy = "value") -> go.Figure:
    """Heatmap of a qubit metric on the chip grid; trace 2 (the last) is the clickable overlay."""
    if cm.kind != "qubit":
        raise InvalidRequest(f"{cm.metric.name} is a coupling metric: draw it with coupling_map")
    use_bands, suffix = _colour_mode(cm, color_by)
    n = topology.grid_size
    z: list[list[float | None]] = [[None] * n for _ in range(n)]
    missing: list[list[int | None]] = [[None] * n for _ in range(n)]
    text: list[list[str]] = [[""] * n for _ in range(n)]
    xs, ys, qids, hovers = [], [], [], []
    for qid, (r, c) in sorted(topology.positions.items()):
        key = str(qid)
        value = cm.values.get(key)
        band = cm.bands.get(key)
        if value is None:
            missing[r][c] = 1
        elif use_bands:
            z[r][c] = BAND_INDEX[band] if band else None
        else:
            z[r][c] = value
        text[r][c] = f"{qubit_label(qid, topology.num_qubits)}<br>{cell_text(cm.metric, value)}"
        xs.append(c)
        ys.append(r)
        qids.append(key)
        hovers.append(_hover(cm, key))

    show_text = n <= TEXT_MAX_GRID
    cell = _cell_px(n)
    font = dict(size=max(8, min(13, cell // 4)))
    fig = go.Figure()
    # the underlay labels only its own (missing) cells: the value trace labels the rest, and a label drawn twice
    # on the same cell is twice the browser's work for nothing a person can see
    underlay_text = [[t if m else "" for t, m in zip(trow, mrow, strict=True)] for trow, mrow in zip(text, missing,
                                                                                                    strict=True)]
    fig.add_trace(go.Heatmap(  # grey underlay: qubits without data stay visible as "—"
        z=missing, x=list(range(n)), y=list(range(n)), colorscale=[[0, MISSING_COLOUR], [1, MISSING_COLOUR]],
        showscale=False, hoverinfo="skip", xgap=2, ygap=2, name="no data",
        text=underlay_text if show_text else None, texttemplate="%{text}" if show_text else None, textfont=font))
    if use_bands:
        colour = dict(colorscale=band_colourscale(), zmin=-0.5, zmax=len(BANDS) - 0.5,
                      colorbar=dict(title="band", tickvals=list(range(len(BANDS))), ticktext=list(BANDS)))
    else:
        colour = dict(colorscale="Viridis", reversescale=not cm.metric.higher_is_better,
                      zmin=cm.stats["min"], zmax=cm.stats["max"],
                      colorbar=dict(title=cm.metric.unit or cm.metric.name))
    fig.add_trace(go.Heatmap(
        z=z, x=list(range(n)), y=list(range(n)), hoverinfo="skip", xgap=2, ygap=2, name=cm.metric.name,
        text=text if show_text else None, texttemplate="%{text}" if show_text else None, textfont=font, **colour))
    fig.add_trace(go.Scatter(  # invisible click targets on cell centres (heatmap cells emit no selection)
        x=xs, y=ys, mode="markers", showlegend=False, name="qubits", customdata=qids,
        hovertext=hovers, hovertemplate="%{hovertext}<extra></extra>",
        marker=dict(size=max(8, int(cell * 0.9)), opacity=0, symbol="square", color="#000")))
    _grid_layout(fig, n, cell, _title(cm, suffix))
    return fig


def _grid_layout(fig: go.Figure, n: int, cell: int, title: str) -> None:
    fig.update_layout(
        title=dict(text=title, x=0, font=dict(size=14)), height=cell * n + 90, margin=dict(l=10, r=10, t=40, b=10),
        plot_bgcolor="white", paper_bgcolor="white", clickmode="event+select", hovermode="closest")
    fig.update_xaxes(visible=False, range=[-0.5, n - 0.5], constrain="domain")
    fig.update_yaxes(visible=False, range=[n - 0.5, -0.5], scaleanchor="x", scaleratio=1, constrain="domain")


_ARROWS = {(0, 1): "triangle-right", (0, -1): "triangle-left", (1, 0): "triangle-down", (-1, 0): "triangle-up"}


def coupling_map(cm: ChipMetric, topology: Topology, *, color_by: ColorBy = "value") -> go.Figure:
    """Coupling metric on the topology edges: a triangle at each edge midpoint points control → target
    (y grows downwards, as on the heatmap), coloured by value or band; grey when there is no data."""
    if cm.kind != "coupling":
        raise InvalidRequest(f"{cm.metric.name} is a qubit metric: draw it with qubit_heatmap")
    use_bands, suffix = _colour_mode(cm, color_by)
    n = topology.grid_size
    cell = _cell_px(n)
    size = topology.num_qubits
    edge_x: list[float | None] = []
    edge_y: list[float | None] = []
    have: dict[str, list] = {"x": [], "y": [], "id": [], "v": [], "sym": [], "hover": [], "colour": []}
    lack: dict[str, list] = {"x": [], "y": [], "id": [], "sym": [], "hover": []}
    for cpl in topology.couplings:
        (r1, c1), (r2, c2) = topology.positions[cpl.control], topology.positions[cpl.target]
        edge_x += [c1, c2, None]
        edge_y += [r1, r2, None]
        mx, my = (c1 + c2) / 2, (r1 + r2) / 2
        sym = _ARROWS.get((r2 - r1, c2 - c1), "diamond")
        value = cm.values.get(cpl.id)
        group = have if value is not None else lack
        group["x"].append(mx)
        group["y"].append(my)
        group["id"].append(cpl.id)
        group["sym"].append(sym)
        group["hover"].append(_hover(cm, cpl.id))
        if value is not None:
            have["v"].append(value)
            band = cm.bands.get(cpl.id)
            have["colour"].append(BAND_COLOURS[band] if band else MISSING_COLOUR)

    marker_size = max(7, int(cell * 0.45))
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=edge_x, y=edge_y, mode="lines", line=dict(color="#bbbbbb", width=1),
                             hoverinfo="skip", showlegend=False, name="edges"))
    qx = [c for _, (r, c) in sorted(topology.positions.items())]
    qy = [r for _, (r, c) in sorted(topology.positions.items())]
    qlabels = [qubit_label(q, size) for q in sorted(topology.positions)]
    show_text = n <= TEXT_MAX_GRID
    fig.add_trace(go.Scatter(
        x=qx, y=qy, mode="markers+text" if show_text else "markers", text=qlabels, textposition="middle center",
        textfont=dict(size=max(8, min(12, cell // 5)), color="#222"), hovertext=qlabels,
        hovertemplate="%{hovertext}<extra></extra>",
        marker=dict(size=max(6, int(cell * 0.55)), color="#f2f2f2", line=dict(color="#999999", width=1)),
        showlegend=False, name="qubits"))
    if lack["id"]:
        fig.add_trace(go.Scatter(
            x=lack["x"], y=lack["y"], mode="markers", customdata=lack["id"], hovertext=lack["hover"],
            hovertemplate="%{hovertext}<extra></extra>", name="no data", showlegend=False,
            marker=dict(size=marker_size, symbol=lack["sym"], color=MISSING_COLOUR,
                        line=dict(color="#888888", width=1))))
    if use_bands:
        marker = dict(size=marker_size, symbol=have["sym"], color=have["colour"], line=dict(color="#333", width=0.5))
    else:
        marker = dict(size=marker_size, symbol=have["sym"], color=have["v"], colorscale="Viridis",
                      reversescale=not cm.metric.higher_is_better, cmin=cm.stats["min"], cmax=cm.stats["max"],
                      showscale=True, colorbar=dict(title=cm.metric.unit or cm.metric.name),
                      line=dict(color="#333", width=0.5))
    fig.add_trace(go.Scatter(
        x=have["x"], y=have["y"], mode="markers", customdata=have["id"], hovertext=have["hover"],
        hovertemplate="%{hovertext}<extra></extra>", name=cm.metric.name, showlegend=False, marker=marker))
    if use_bands or lack["id"]:
        _band_legend(fig, BANDS if use_bands else (), missing=bool(lack["id"]))
    _grid_layout(fig, n, cell, _title(cm, suffix + " · arrows point control → target"))
    return fig


def _band_legend(fig: go.Figure, bands: tuple[Band, ...], *, missing: bool) -> None:
    """What the colours mean: one legend entry per band (and grey for no data), drawn as entries only (no point),
    so a click on a coupling still selects a coupling."""
    for band in bands:
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name=band, showlegend=True, hoverinfo="skip",
                                 marker=dict(size=10, symbol="square", color=BAND_COLOURS[band])))
    if missing:
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name="no data", showlegend=True,
                                 hoverinfo="skip", marker=dict(size=10, symbol="square", color=MISSING_COLOUR)))
    fig.update_layout(showlegend=True, legend=dict(orientation="h", y=-0.02, yanchor="top", x=0))
