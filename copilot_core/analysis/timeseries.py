"""Parameter timeseries in display units with robust outlier flags and the chip median band."""

from __future__ import annotations

import pandas as pd

from copilot_core.analysis.stats import mad_bounds
from copilot_core.domain.metrics import Metric
from copilot_core.domain.topology import qubit_label

OUTLIER_K = 3.0
COLUMNS = ["qid", "qubit", "calibrated_at", "value", "outlier", "execution_id", "task_id"]


def timeseries_frame(rows: list[dict], entry: Metric, size: int, *, k: float = OUTLIER_K) -> pd.DataFrame:
    """Rows ({qid, calibrated_at, value, ...} raw) -> display values, oldest first, with ``outlier``
    True where a point leaves its own qubit's median ± k·MAD band (a jump, e.g. a TLS dip)."""
    records = []
    for row in rows:
        value = entry.to_display(row.get("value"))
        if value is None or row.get("calibrated_at") is None:
            continue
        qid = str(row.get("qid"))
        records.append({"qid": qid, "qubit": qubit_label(qid, size), "calibrated_at": row["calibrated_at"],
                        "value": value, "outlier": False, "execution_id": row.get("execution_id"),
                        "task_id": row.get("task_id")})
    frame = pd.DataFrame.from_records(records, columns=COLUMNS)
    if frame.empty:
        return frame
    frame["calibrated_at"] = pd.to_datetime(frame["calibrated_at"])
    frame = frame.sort_values(["calibrated_at", "qid"], kind="stable").reset_index(drop=True)
    for _, idx in frame.groupby("qid").groups.items():
        bounds = mad_bounds(frame.loc[idx, "value"], k)
        if bounds is not None:
            low, high = bounds
            frame.loc[idx, "outlier"] = (frame.loc[idx, "value"] < low) | (frame.loc[idx, "value"] > high)
    frame["outlier"] = frame["outlier"].astype(bool)
    return frame


def median_band(frame: pd.DataFrame) -> pd.DataFrame:
    """Per calendar day (UTC): chip median and interquartile range of the values shown."""
    if frame.empty:
        return pd.DataFrame(columns=["day", "median", "q25", "q75", "count"])
    day = frame["calibrated_at"].dt.floor("D")
    grouped = frame.groupby(day)["value"]
    out = pd.DataFrame({"median": grouped.median(), "q25": grouped.quantile(0.25), "q75": grouped.quantile(0.75),
                        "count": grouped.count()})
    out.index.name = "day"
    return out.reset_index()
