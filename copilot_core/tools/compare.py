"""compare_calibrations: what changed on a chip between two runs or days (stored tool).

The model gets per-metric counts and medians, the few largest changes, band crossings and lost
measurements; with ``qids``, those qubits' values on both sides; with one metric, which qubits' values fell and
which rose (largest moves first), so "How did Q12's T1 change?" and "Which qubits' X90 fidelity dropped?" are
answered by the ``answer`` sentence itself.  The full per-qubit table (every metric, both values, statuses,
spread) goes to the data store as ``data['comparison']`` for ``execute_python_analysis``.
"""

from __future__ import annotations

import math
from datetime import datetime

import pandas as pd

from copilot_core.analysis.compare import compare
from copilot_core.analysis.compare_points import CompareError, Point
from copilot_core.analysis.compare_tables import band_crossings, lost_measurements, metric_summary, ranked_changes
from copilot_core.data.runs import RunReader
from copilot_core.domain.display import format_change, format_percent
from copilot_core.domain.metrics import format_value, metric
from copilot_core.tools.compact import compact_number, from_database, inline_from_database, iso
from copilot_core.tools.spec import (
    ToolContext,
    ToolError,
    ToolResult,
    chip_id_arg,
    param_names_arg,
    qids_arg,
    tool,
)

COMPARISON_KEY = "comparison"
SHOWN = 5  # largest changes, crossings and lost measurements the model sees
LISTED = 40  # ids written out in a fell/rose sentence; the counts cover all
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
    show = _show
    parts = [f"{r['metric']} median {show(r['metric'], r['unit'], r['kind'], r['median_before'])} → "
             f"{show(r['metric'], r['unit'], r['kind'], r['median_after'])} ({r['compared']} compared, "
             f"{r['better']} better, {r['worse']} worse)" for r in summary.to_dict("records") if r["compared"]]
    units = {r["metric"]: (r["unit"], r["kind"]) for r in summary.to_dict("records")}
    largest = [f"{r['label']} {r['metric']} {show(r['metric'], *units.get(r['metric'], ('', 'qubit')), r['before'])} → "
               f"{show(r['metric'], *units.get(r['metric'], ('', 'qubit')), r['after'])}"
               for r in changes.head(3).to_dict("records")]
    return (f"From {before} to {after}: " + "; ".join(parts)
            + (". Largest changes: " + "; ".join(largest) if largest else "") + ".")


def _show(name: str, unit: str, kind: str, value: object) -> str:
    number = value if isinstance(value, (int, float)) and value == value else None
    return format_value(metric(name, unit, kind), number)  # type: ignore[arg-type]


def _signed(name: str, unit: str, kind: str, change: float) -> str:
    return format_change(metric(name, unit, kind), change)  # type: ignore[arg-type]


def _qubit_rows(frame: pd.DataFrame, qids: list[str]) -> list[dict]:
    """Each asked qubit's value of each compared qubit metric at both points (display units)."""
    def number(value: object) -> float | None:
        return float(value) if isinstance(value, (int, float)) and math.isfinite(value) else None

    rows = []
    for qid in qids:
        for r in frame[(frame["kind"] == "qubit") & (frame["id"] == qid)].to_dict("records"):
            before, after = number(r["before"]), number(r["after"])
            if before is None and after is None:
                continue
            rows.append({"qid": qid, "label": r["label"], "metric": r["metric"], "unit": r["unit"],
                         "before": before, "latest": after, "change": number(r["change"]),
                         "change_pct": number(r["change_pct"]), "status_before": r["status_before"],
                         "status_latest": r["status_after"]})
    return rows


def _qubit_sentence(rows: list[dict]) -> str:
    """One clause per value, each naming its side ("previous run", "latest run"), so a swapped pair reads wrong."""
    parts = []
    for r in rows:
        def show(value: object, r: dict = r) -> str:
            return _show(r["metric"], r["unit"], "qubit", value)

        head = f"{r['label']} {metric(r['metric']).title}: previous run {show(r['before'])}"
        if r["before"] is None or r["latest"] is None:
            why = r["status_before"] if r["before"] is None else r["status_latest"]
            parts.append(f"{head}, latest run {show(r['latest'])} (no value {'before' if r['before'] is None else 'after'}"
                         f": {why})")
            continue
        pct = f" ({format_percent(r['change_pct'])})" if r["change_pct"] else ""
        parts.append(f"{head}, latest run {show(r['latest'])}; "
                     f"change {_signed(r['metric'], r['unit'], 'qubit', r['change'])}{pct}")
    return "; ".join(parts)


def _moves(comp_frame: pd.DataFrame, name: str) -> dict:
    """Which ids' values fell and which rose (by the sign of the change, largest first)."""
    f = comp_frame[(comp_frame["metric"] == name) & comp_frame["change"].notna()]
    fell = f[f["change"] < 0].sort_values("change", kind="stable")
    rose = f[f["change"] > 0].sort_values("change", ascending=False, kind="stable")
    return {"metric": name, "compared": len(f), "fell": list(fell["label"]), "rose": list(rose["label"]),
            "unchanged": int((f["change"] == 0).sum())}


def _moves_sentence(moves: dict) -> str:
    def listed(labels: list[str]) -> str:
        return ", ".join(labels[:LISTED]) + (f" and {len(labels) - LISTED} more" if len(labels) > LISTED else "")

    title = metric(moves["metric"]).title
    fell, rose = moves["fell"], moves["rose"]
    return (f"{title} fell on {len(fell)} of the {moves['compared']} compared"
            + (f" (largest drop first: {listed(fell)})" if fell else "")
            + f" and rose on {len(rose)}" + (f" (largest rise first: {listed(rose)})" if rose else ""))


@tool("compare_calibrations",
      {"chip_id": chip_id_arg(),
       "from": _POINT | {"default": "previous", "description":
                         "'previous' (default), an execution id, a date '2026-07-19' or '-7d'."},
       "to": _POINT | {"default": "latest", "description": "'latest' (default), or as from."},
       "metrics": param_names_arg(20),
       "qids": qids_arg(10) | {"description": "Qubits whose values at both points to state, e.g. ['12']."}},
      ("chip_id",), stored_key=lambda args: COMPARISON_KEY)
def compare_calibrations(ctx: ToolContext, chip_id: str, to: str = "latest", metrics: list[str] | None = None,
                         qids: list[str] | None = None, **points: str) -> ToolResult:
    chip = ctx.chip(chip_id)
    asked = [ctx.check_qid(chip_id, str(int(q))) for q in qids or []]
    try:
        comp = compare(RunReader(ctx.repo), dict(chip), points.get("from", "previous"), to,
                       metrics=tuple(metrics) if metrics else None)
    except CompareError as exc:
        raise ToolError(str(exc), "list runs with get_execution_history, then pass execution ids or dates",
                        kind="call" if exc.malformed else "data") from None
    summary = metric_summary(comp)
    if comp.frame.empty:
        raise ToolError(f"nothing to compare on {chip_id} between {comp.before.label} and {comp.after.label}",
                        "pick other runs or metrics (list_available_parameters)", kind="data")
    before, after = _shown(comp.before), _shown(comp.after)
    per_metric = {row["metric"]: {k: compact_number(v) if isinstance(v, float) else v for k, v in row.items()
                                  if k not in ("metric", "title", "kind")}
                  for row in summary.to_dict("records")}
    answer = _answer(before, after, summary, ranked_changes(comp))
    extra: dict = {}
    if asked:
        extra["qubits"] = [{k: compact_number(v) if isinstance(v, float) else v for k, v in r.items()}
                           for r in _qubit_rows(comp.frame, asked)]
        if extra["qubits"]:
            answer = f"From {before} to {after}: {_qubit_sentence(_qubit_rows(comp.frame, asked))}."
    elif metrics and len(comp.metrics) == 1:
        extra["moves"] = _moves(comp.frame, comp.metrics[0])
        answer = answer[:-1] + f". {_moves_sentence(extra['moves'])}."
    model = {
        "answer": answer, **extra,
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
