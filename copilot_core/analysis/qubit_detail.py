"""Drill-down tables for one qubit: every metric's latest value and its newest task results."""

from __future__ import annotations

from datetime import datetime

import pandas as pd

from copilot_core.domain.metrics import CATALOGUE, format_value, metric

MESSAGE_CHARS = 160


def latest_values_frame(params: dict[str, dict] | None) -> pd.DataFrame:
    """One row per parameter in ``qubit.data``: display value, unit, band, when and by which execution.
    Catalogue metrics first, then anything else the lab stores."""
    records = []
    for name, entry in (params or {}).items():
        if not isinstance(entry, dict):
            continue
        m = metric(name, unit=str(entry.get("unit") or "") if name not in CATALOGUE else "")
        value = m.to_display(entry.get("value"))
        records.append({"metric": m.title, "parameter": name, "value": value, "unit": m.unit,
                        "band": m.score(value), "calibrated_at": entry.get("calibrated_at"),
                        "execution_id": entry.get("execution_id"), "catalogued": name in CATALOGUE})
    frame = pd.DataFrame.from_records(
        records, columns=["metric", "parameter", "value", "unit", "band", "calibrated_at", "execution_id", "catalogued"])
    order = {n: i for i, n in enumerate(CATALOGUE)}
    frame["_order"] = frame["parameter"].map(lambda n: order.get(n, len(order)))
    frame = frame.sort_values(["_order", "parameter"]).drop(columns=["_order", "catalogued"]).reset_index(drop=True)
    return frame


def task_results_frame(results: list[dict]) -> pd.DataFrame:
    """Task results (repository shape) as a table; outputs in display units; messages are shortened
    database text, shown as plain text only."""
    records = []
    for res in results:
        outputs = []
        for name, entry in (res.get("output_parameters") or {}).items():
            if isinstance(entry, dict):
                m = metric(name)
                value = m.to_display(entry.get("value"))
                shown = format_value(m, value, unit=name in CATALOGUE)
                outputs.append(f"{name}={shown}")
        start = res.get("start_at")
        records.append({"task": res.get("name"), "status": res.get("status"),
                        "excluded": bool(res.get("excluded")),
                        "started": start if isinstance(start, datetime) else None,
                        "execution_id": res.get("execution_id"), "elapsed_s": res.get("elapsed_time"),
                        "outputs": ", ".join(outputs),
                        "message": str(res.get("message") or "")[:MESSAGE_CHARS]})
    return pd.DataFrame.from_records(
        records, columns=["task", "status", "excluded", "started", "execution_id", "elapsed_s", "outputs", "message"])
