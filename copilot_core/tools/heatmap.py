"""generate_chip_heatmap: the dashboard's chip picture for the answer, its numbers for the model.

The figure comes from the same builders as the heatmap page (one chip picture in the project);
it travels in ``ToolResult.charts`` and is appended to the answer, so the model only reads the
statistics and the best/worst qubits, never 5-10 K tokens of chart JSON.
"""

from __future__ import annotations

import json

from copilot_core.analysis.chip_metrics import MODES, ChipMetric, UnknownChip, chip_metric
from copilot_core.charts.heatmap import coupling_map, qubit_heatmap
from copilot_core.domain.metrics import BANDS, CATALOGUE, format_value
from copilot_core.tools.spec import ToolContext, ToolError, ToolResult, chip_id_arg, name_arg, tool

CHART_NOTE = "Chart generated; it will be appended to your answer. Do not copy chart JSON."
RANKED = 3  # best and worst entries shown to the model


def _measure(ctx: ToolContext, chip_id: str, metric_name: str, mode: str, within_hours: float | None) -> ChipMetric:
    try:
        found = chip_metric(ctx.repo, chip_id, metric_name, mode=mode, within_hours=within_hours)  # type: ignore[arg-type]
        if found.stats["count"] == 0 and metric_name not in CATALOGUE:  # an uncatalogued coupling parameter?
            coupling = chip_metric(ctx.repo, chip_id, metric_name, mode=mode, within_hours=within_hours,  # type: ignore[arg-type]
                                   kind="coupling")
            found = coupling if coupling.stats["count"] else found
    except UnknownChip as exc:
        raise ToolError(str(exc), "list chips in the app's overview", kind="data") from None
    return found


def _ranked(cm: ChipMetric) -> tuple[list[dict], list[dict]]:
    present = sorted(((i, v) for i, v in cm.values.items() if v is not None), key=lambda t: t[1],
                     reverse=cm.metric.higher_is_better)
    rows = [{"id": i, "label": cm.label(i), "value": v} for i, v in present]
    return rows[:RANKED], rows[::-1][:RANKED]


def _answer(cm: ChipMetric, best: list[dict], worst: list[dict]) -> str:
    """The map's statistics and extremes as one quotable sentence (display units, the dashboard's rounding)."""
    show = lambda v: format_value(cm.metric, v)  # noqa: E731
    ranked = lambda rows: ", ".join(f"{r['label']} {show(r['value'])}" for r in rows)  # noqa: E731
    return (f"{cm.metric.name} on {cm.chip_id} ({cm.window}): median {show(cm.stats['median'])}, mean "
            f"{show(cm.stats['mean'])}, min {show(cm.stats['min'])}, max {show(cm.stats['max'])} over "
            f"{cm.stats['count']} of {cm.stats['total']} {cm.kind}s; best {ranked(best)}; worst {ranked(worst)}.")


@tool("generate_chip_heatmap",
      {"chip_id": chip_id_arg(), "metric_name": name_arg("Metric, e.g. 't1', 'zx90_gate_fidelity'."),
       "selection_mode": {"type": "string", "enum": list(MODES), "default": "latest",
                          "description": "Default latest."},
       "within_hours": {"type": "number", "exclusiveMinimum": 0, "maximum": 24 * 365,
                        "description": "Only the last N hours of data."}},
      ("chip_id", "metric_name"), reduced=True)
def generate_chip_heatmap(ctx: ToolContext, chip_id: str, metric_name: str, selection_mode: str = "latest",
                          within_hours: float | None = None) -> ToolResult:
    ctx.chip(chip_id)
    cm = _measure(ctx, chip_id, metric_name, selection_mode, within_hours)
    window = f" in {cm.window}" if within_hours else ""
    if cm.stats["count"] == 0:
        raise ToolError(f"no {metric_name} data on {chip_id}{window}",
                        "list names with list_available_parameters" + (", or widen within_hours" if window else ""),
                        kind="data")
    topo = ctx.topology(chip_id)
    figure = qubit_heatmap(cm, topo) if cm.kind == "qubit" else coupling_map(cm, topo)
    best, worst = _ranked(cm)
    stats = {k: cm.stats[k] for k in ("count", "total", "coverage", "median", "mean", "min", "max")}
    bands = {b: sum(1 for v in cm.bands.values() if v == b) for b in BANDS}
    model = {"answer": _answer(cm, best, worst), "chip_id": chip_id, "metric": cm.metric.name, "kind": cm.kind,
             "unit": cm.metric.unit,
             "selection_mode": selection_mode, "within_hours": within_hours, "stats": {**stats, "unit": cm.metric.unit},
             "bands": bands if any(bands.values()) else None, "best": best, "worst": worst,
             "window": cm.window, "missing": len(cm.missing),
             "no_valid_latest": {cm.label(i): cm.missing_reason(i) for i in cm.missing_since} or None,
             "chart": CHART_NOTE}
    data = {**model, "values": cm.values}
    summary = (f"{cm.metric.name} on {chip_id}: {stats['count']} {cm.kind}s, median "
               f"{format_value(cm.metric, stats['median'])}")
    return ToolResult(data, summary, model=model, charts=[json.loads(figure.to_json())])
