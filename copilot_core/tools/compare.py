"""compare_calibrations: what changed on a chip between two runs or days (stored tool).

The model gets per-metric counts and medians, the few largest changes, band crossings and lost
measurements; the full per-qubit table (every metric, both values, statuses, spread) goes to the
data store as ``data['comparison']`` for ``execute_python_analysis``.
"""

from __future__ import annotations

from datetime import datetime

import pandas as pd

from copilot_core.analysis.compare import (
    CompareError,
    Point,
    band_crossings,
    compare,
    lost_measurements,
    metric_summary,
    ranked_changes,
)
from copilot_core.data.runs import RunReader
from copilot_core.domain.metrics import format_value, metric
from copilot_core.tools.compact import compact_number, from_database, inline_from_database, iso
from copilot_core.tools.spec import (
    ToolContext,
    ToolError,
    ToolResult,
    chip_id_arg,
    param_names_arg,
    tool,
)

COMPARISON_KEY = "comparison"
SHOWN = 5  # largest changes, crossings and lost measurements the model sees
_POINT = {"type": "string", "pattern": r"^[A-Za-z0-9 \-]{1,20}$"}


def _brief(frame: pd.DataFrame, columns: list[str]) -> list[dict]:
    return [{k: compact_number(v) if isinstance(v, float) else v for k, v in row.items()}
            for row in frame[columns].head(SHOWN).to_dict("records")]


def _frame(full: pd.DataFrame) -> pd.DataFrame:
    out = full.copy()
    for column in ("at_before", "at_after"):
        out[column] = [iso(v) if isinstance(v, datetime) else None for v in out[column]]
    return out


def _shown(point: Point) -> str:
    """A run or day label for the model: it embeds execution ids from the database, so a label whose ids are
    not plain identifiers goes through ``from_database`` whole."""
    plain = all(isinstance(from_database(str(e)), str) for e in point.execution_ids)
    return point.label if plain else inline_from_database(point.label, 160)


def _answer(before: str, after: str, summary: pd.DataFrame, changes: pd.DataFrame) -> str:
    """Medians per metric and the largest changes as one quotable sentence (display units)."""
    def show(name: str, unit: str, kind: str, value: object) -> str:
        number = value if isinstance(value, (int, float)) and value == value else None
        return format_value(metric(name, unit, kind), number)  # type: ignore[arg-type]

    parts = [f"{r['metric']} median {show(r['metric'], r['unit'], r['kind'], r['median_before'])} → "
             f"{show(r['metric'], r['unit'], r['kind'], r['median_after'])} ({r['compared']} compared, "
             f"{r['better']} better, {r['worse']} worse)" for r in summary.to_dict("records") if r["compared"]]
    units = {r["metric"]: (r["unit"], r["kind"]) for r in summary.to_dict("records")}
    largest = [f"{r['label']} {r['metric']} {show(r['metric'], *units.get(r['metric'], ('', 'qubit')), r['before'])} → "
               f"{show(r['metric'], *units.get(r['metric'], ('', 'qubit')), r['after'])}"
               for r in changes.head(3).to_dict("records")]
    return (f"From {before} to {after}: " + "; ".join(parts)
            + (". Largest changes: " + "; ".join(largest) if largest else "") + ".")


@tool("compare_calibrations",
      {"chip_id": chip_id_arg(),
       "from": _POINT | {"default": "previous", "description":
                         "'previous' (default), an execution id, a date '2026-07-19' or '-7d'."},
       "to": _POINT | {"default": "latest", "description": "'latest' (default), or as from."},
       "metrics": param_names_arg(20)},
      ("chip_id",), stored_key=lambda args: COMPARISON_KEY)
def compare_calibrations(ctx: ToolContext, chip_id: str, to: str = "latest", metrics: list[str] | None = None,
                         **points: str) -> ToolResult:
    chip = ctx.chip(chip_id)
    try:
        comp = compare(RunReader(ctx.repo), dict(chip), points.get("from", "previous"), to,
                       metrics=tuple(metrics) if metrics else None)
    except CompareError as exc:
        raise ToolError(str(exc), "list runs with get_execution_history, then pass execution ids or dates") from None
    summary = metric_summary(comp)
    if comp.frame.empty:
        raise ToolError(f"nothing to compare on {chip_id} between {comp.before.label} and {comp.after.label}",
                        "pick other runs or metrics (list_available_parameters)")
    before, after = _shown(comp.before), _shown(comp.after)
    per_metric = {row["metric"]: {k: compact_number(v) if isinstance(v, float) else v for k, v in row.items()
                                  if k not in ("metric", "title", "kind")}
                  for row in summary.to_dict("records")}
    model = {
        "answer": _answer(before, after, summary, ranked_changes(comp)),
        "chip_id": chip_id, "from": before, "to": after,
        "spread_days": comp.spread_days, "metrics": per_metric,
        "largest_changes": _brief(ranked_changes(comp), ["metric", "label", "before", "after", "change", "z",
                                                          "direction"]),
        "band_crossings": {"count": len(band_crossings(comp)),
                           "worst": _brief(band_crossings(comp), ["metric", "label", "band_before", "band_after"])},
        "lost_measurements": {"count": len(lost_measurements(comp)),
                              "first": _brief(lost_measurements(comp), ["metric", "label", "before", "status_after"])},
        "failed_tasks_in_to": len(comp.failed_after),
        "note": "values in display units; z = change / the qubit's own standard deviation over spread_days",
    }
    frame = _frame(comp.frame)
    data = {**model, "rows": frame.to_dict("records")}
    changed = int(comp.frame["change"].notna().sum())
    return ToolResult(data, f"compared {comp.before.label} → {comp.after.label} on {chip_id}: {changed} values in "
                            f"{len(comp.metrics)} metrics", model=model, frame=frame)
