"""Change maps: one metric's change between two runs on the chip topology, diverging around zero.

Colour is the change signed by the metric's better direction (blue = better, red = worse, so a
falling gate time is blue), while cell text and hover give the raw change in display units.
Qubit metrics draw on the same grid as the chip heatmap, with the same invisible click overlay
(``customdata`` = qid); coupling metrics draw at edge midpoints and open the control qubit.
"""

from __future__ import annotations

import math

import plotly.graph_objects as go

from copilot_core.analysis.compare import Comparison
from copilot_core.charts.heatmap import _ARROWS, TEXT_MAX_GRID, _cell_px, _grid_layout
from copilot_core.charts.style import MISSING_COLOUR
from copilot_core.domain.display import NO_VALUE, format_change
from copilot_core.domain.metrics import Metric, format_value, metric
from copilot_core.domain.topology import Topology, qubit_label

DIVERGING = "RdBu"  # red = worse, blue = better (after signing by direction)


def signed_change(m: Metric, change: float | None) -> str:
    """``+1.2 μs`` / ``-0.05 pp`` / ``-1.5 kHz`` (the display rule's change); "—" without a value."""
    return format_change(m, change, missing=NO_VALUE)


def _rows(comp: Comparison, name: str) -> tuple[Metric, dict[str, dict]]:
    f = comp.metric_frame(name)
    kind = "coupling" if not f.empty and f["kind"].iloc[0] == "coupling" else "qubit"
    m = metric(name, kind=kind)  # type: ignore[arg-type]
    rows = {str(r["id"]): r for r in f.to_dict("records")}
    return m, rows


def _num(value: object) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not math.isnan(float(value)) else None


def _improvement(m: Metric, row: dict | None) -> float | None:
    change = _num((row or {}).get("change"))
    return None if change is None else (change if m.higher_is_better else -change)


def _hover(m: Metric, label: str, row: dict | None) -> str:
    row = row or {}
    lines = [f"<b>{label}</b>", f"before: {format_value(m, _num(row.get('before')))} ({row.get('status_before', 'absent')})",
             f"after: {format_value(m, _num(row.get('after')))} ({row.get('status_after', 'absent')})",
             f"change: {signed_change(m, _num(row.get('change')))}"]
    z = _num(row.get("z"))
    if z is not None:
        lines.append(f"{z:+.1f} × its {int(row.get('spread_n') or 0)}-point spread")
    if row.get("band_move"):
        lines.append(f"band: {row.get('band_before')} → {row.get('band_after')}")
    return "<br>".join(lines)


def _scale(values: list[float]) -> float:
    return max((abs(v) for v in values), default=0.0) or 1.0


def _title(comp: Comparison, m: Metric, extra: str = "") -> str:
    unit = f" [{m.unit}]" if m.unit else ""
    return f"Change in {m.title}{unit} on {comp.chip_id}: {comp.before.label} → {comp.after.label}{extra}"


def change_figure(comp: Comparison, name: str, topology: Topology) -> go.Figure:
    """The change map of one metric (qubit grid or coupling edges)."""
    m, rows = _rows(comp, name)
    return _coupling_changes(comp, m, rows, topology) if m.kind == "coupling" else _qubit_changes(comp, m, rows,
                                                                                                  topology)


def _qubit_changes(comp: Comparison, m: Metric, rows: dict[str, dict], topology: Topology) -> go.Figure:
    n = topology.grid_size
    z: list[list[float | None]] = [[None] * n for _ in range(n)]
    missing: list[list[int | None]] = [[None] * n for _ in range(n)]
    text: list[list[str]] = [[""] * n for _ in range(n)]
    xs, ys, qids, hovers, seen = [], [], [], [], []
    for qid, (r, c) in sorted(topology.positions.items()):
        key, label = str(qid), qubit_label(qid, topology.num_qubits)
        row = rows.get(key)
        better = _improvement(m, row)
        if better is None:
            missing[r][c] = 1
        else:
            z[r][c] = better
            seen.append(better)
        text[r][c] = f"{label}<br>{signed_change(m, _num((row or {}).get('change')))}"
        xs.append(c)
        ys.append(r)
        qids.append(key)
        hovers.append(_hover(m, label, row))
    span = _scale(seen)
    show_text = n <= TEXT_MAX_GRID
    cell = _cell_px(n)
    font = {"size": max(8, min(12, cell // 5))}
    fig = go.Figure()
    fig.add_trace(go.Heatmap(
        z=missing, x=list(range(n)), y=list(range(n)), colorscale=[[0, MISSING_COLOUR], [1, MISSING_COLOUR]],
        showscale=False, hoverinfo="skip", xgap=2, ygap=2, name="not compared",
        text=text if show_text else None, texttemplate="%{text}" if show_text else None, textfont=font))
    fig.add_trace(go.Heatmap(
        z=z, x=list(range(n)), y=list(range(n)), hoverinfo="skip", xgap=2, ygap=2, name=m.name,
        colorscale=DIVERGING, zmin=-span, zmax=span,
        colorbar={"title": "worse ← → better", "tickformat": ".3g"},
        text=text if show_text else None, texttemplate="%{text}" if show_text else None, textfont=font))
    fig.add_trace(go.Scatter(
        x=xs, y=ys, mode="markers", showlegend=False, name="qubits", customdata=qids,
        hovertext=hovers, hovertemplate="%{hovertext}<extra></extra>",
        marker={"size": max(8, int(cell * 0.9)), "opacity": 0, "symbol": "square", "color": "#000"}))
    _grid_layout(fig, n, cell, _title(comp, m))
    return fig


def _coupling_changes(comp: Comparison, m: Metric, rows: dict[str, dict], topology: Topology) -> go.Figure:
    n = topology.grid_size
    cell = _cell_px(n)
    size = topology.num_qubits
    edge_x: list[float | None] = []
    edge_y: list[float | None] = []
    have: dict[str, list] = {"x": [], "y": [], "qid": [], "v": [], "sym": [], "hover": []}
    lack: dict[str, list] = {"x": [], "y": [], "qid": [], "sym": [], "hover": []}
    for cpl in topology.couplings:
        (r1, c1), (r2, c2) = topology.positions[cpl.control], topology.positions[cpl.target]
        edge_x += [c1, c2, None]
        edge_y += [r1, r2, None]
        row = rows.get(cpl.id)
        better = _improvement(m, row)
        group = have if better is not None else lack
        group["x"].append((c1 + c2) / 2)
        group["y"].append((r1 + r2) / 2)
        group["qid"].append(str(cpl.control))
        group["sym"].append(_ARROWS.get((r2 - r1, c2 - c1), "diamond"))
        label = f"{qubit_label(cpl.control, size)}→{qubit_label(cpl.target, size)}"
        group["hover"].append(_hover(m, label, row))
        if better is not None:
            have["v"].append(better)
    span = _scale(have["v"])
    marker_size = max(7, int(cell * 0.45))
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=edge_x, y=edge_y, mode="lines", line={"color": "#bbbbbb", "width": 1},
                             hoverinfo="skip", showlegend=False, name="edges"))
    if lack["qid"]:
        fig.add_trace(go.Scatter(
            x=lack["x"], y=lack["y"], mode="markers", customdata=lack["qid"], hovertext=lack["hover"],
            hovertemplate="%{hovertext}<extra></extra>", name="not compared", showlegend=False,
            marker={"size": marker_size, "symbol": lack["sym"], "color": MISSING_COLOUR,
                    "line": {"color": "#888", "width": 1}}))
    fig.add_trace(go.Scatter(
        x=have["x"], y=have["y"], mode="markers", customdata=have["qid"], hovertext=have["hover"],
        hovertemplate="%{hovertext}<extra></extra>", name=m.name, showlegend=False,
        marker={"size": marker_size, "symbol": have["sym"], "color": have["v"], "colorscale": DIVERGING,
                "cmin": -span, "cmax": span,
                    "showscale": True, "colorbar": {"title": "worse ← → better", "tickformat": ".3g"},
                    "line": {"color": "#333", "width": 0.5}}))
    _grid_layout(fig, n, cell, _title(comp, m, " · arrows point control → target"))
    return fig
