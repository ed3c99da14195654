"""Tables drawn from one ``Comparison``: per-metric summary, band crossings, lost measurements, the ranked changes
and each point's health, and the display forms pages and reports print."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from copilot_core.analysis.compare import Comparison, metric_entry
from copilot_core.domain.metrics import BANDS, CATALOGUE, Metric, metric
from copilot_core.domain.display import (
    NOT_MEASURED,
    format_change,
    format_percent,
    format_value,
    number_or_none,
)


def _median(values: pd.Series) -> float | None:
    clean = [float(v) for v in values if v is not None and not (isinstance(v, float) and math.isnan(v))]
    return float(np.median(clean)) if clean else None


def metric_summary(comp: Comparison) -> pd.DataFrame:
    """One row per metric: how many compared, medians before/after, median change, improved/worsened,
    band moves and measurements lost or restored."""
    records = []
    for name in comp.metrics:
        f = comp.metric_frame(name)
        m = metric_entry(name, "coupling" if (not f.empty and f["kind"].iloc[0] == "coupling") else "qubit")
        both = f[f["change"].notna()]
        records.append({
            "metric": name, "title": m.title, "kind": m.kind, "unit": m.unit,
            "compared": len(both), "median_before": _median(f["before"]), "median_after": _median(f["after"]),
            "median_change": _median(both["change"]),
            "better": int((both["direction"] == "better").sum()), "worse": int((both["direction"] == "worse").sum()),
            "band_worse": int((f["band_move"] == "worse").sum()), "band_better": int((f["band_move"] == "better").sum()),
            "lost": int((f["availability"] == "lost").sum()), "restored": int((f["availability"] == "restored").sum()),
        })
    return pd.DataFrame.from_records(records, columns=["metric", "title", "kind", "unit", "compared", "median_before",
                                                       "median_after", "median_change", "better", "worse",
                                                       "band_worse", "band_better", "lost", "restored"])


def band_crossings(comp: Comparison) -> pd.DataFrame:
    """Qubits and couplings whose threshold band changed, worse ones first."""
    f = comp.frame[comp.frame["band_move"] != ""]
    return f.sort_values(["band_move", "metric"], ascending=[False, True], kind="stable").reset_index(drop=True)


def lost_measurements(comp: Comparison) -> pd.DataFrame:
    """Usable before, failed / excluded / NaN-as-0 / not measured after (while the task ran on the chip)."""
    return comp.frame[comp.frame["availability"] == "lost"].reset_index(drop=True)


def ranked_changes(comp: Comparison, limit: int | None = None) -> pd.DataFrame:
    """Largest changes first, measured in each qubit's own spread (|z|); without a spread, after those,
    by relative change."""
    f = comp.frame[comp.frame["change"].notna()].copy()
    f["_z"] = pd.to_numeric(f["z"], errors="coerce").abs()  # a column of None (no spread anywhere) is no number
    f["_pct"] = pd.to_numeric(f["change_pct"], errors="coerce").abs()
    f = f.sort_values(["_z", "_pct"], ascending=[False, False], na_position="last", kind="stable")
    f = f.drop(columns=["_z", "_pct"]).reset_index(drop=True)
    return f.head(limit) if limit else f


def point_health(comp: Comparison) -> pd.DataFrame:
    """Health at the later point per scored metric: coverage, median and band counts of its values."""
    records = []
    for name in comp.metrics:
        m = CATALOGUE.get(name)
        if m is None or (m.good is None and m.bad is None):
            continue
        f = comp.metric_frame(name)
        total = comp.size if m.kind == "qubit" else (len(comp.topology.couplings) if comp.topology else len(f))
        values = [v for v in f["after"] if v is not None and not math.isnan(v)]
        if not values:
            continue
        bands = [m.score(v) for v in values]
        counts: dict[str, int] = {band: bands.count(band) for band in BANDS}
        records.append({"metric": name, "title": m.title, "unit": m.unit, "count": len(values), "total": total,
                        "median": float(np.median(values)), **counts})
    return pd.DataFrame.from_records(records, columns=["metric", "title", "unit", "count", "total", "median", *BANDS])


# ---- shown as text (pages, report, exports: one display rule) -----------------------------------------------

STATUS_WORDS = {"ok": "", "failed": "failed", "excluded": "excluded", "nan": "no value (stored as 0)",
                "absent": NOT_MEASURED}


def _entries(frame: pd.DataFrame) -> list[Metric]:
    """The catalogue entry of each row (a parameter found only in the data keeps its stored unit)."""
    return [metric(str(n), str(u or ""), "coupling" if k == "coupling" else "qubit")
            for n, u, k in zip(frame["metric"], frame["unit"], frame["kind"])]


def _missing_word(status: object) -> str:
    return STATUS_WORDS.get(str(status), NOT_MEASURED) or NOT_MEASURED


def shown_changes(frame: pd.DataFrame) -> pd.DataFrame:
    """Rows of ``frame`` (FRAME_COLUMNS) with before/after/change/change %/spread as text by the display rule:
    a missing side says why (failed, excluded, not measured), a frequency change reads in kHz/MHz, a fidelity's
    in percentage points; the other columns stay as they are (direction, band_move: CSS classes, qid: links)."""
    out = frame.copy()
    if out.empty:
        return out
    entries = _entries(frame)
    out["before"] = [format_value(m, v, missing=_missing_word(s))
                     for m, v, s in zip(entries, frame["before"], frame["status_before"])]
    out["after"] = [format_value(m, v, missing=_missing_word(s))
                    for m, v, s in zip(entries, frame["after"], frame["status_after"])]
    out["change"] = [format_change(m, c) for m, c in zip(entries, frame["change"])]
    out["change_pct"] = [format_percent(p) for p in frame["change_pct"]]
    out["z"] = [f"{z:+.1f}×" if (z := number_or_none(v)) is not None else "no spread" for v in frame["z"]]
    out["status_before"] = [_missing_word(s) if s != "ok" else "measured" for s in frame["status_before"]]
    out["status_after"] = [_missing_word(s) if s != "ok" else "measured" for s in frame["status_after"]]
    for column in ("band_before", "band_after"):
        out[column] = [str(b) if isinstance(b, str) and b else NOT_MEASURED for b in frame[column]]
    return out


def shown_summary(summary: pd.DataFrame) -> pd.DataFrame:
    """``metric_summary`` with medians and the median of per-qubit changes as text by the display rule."""
    out = summary.copy()
    if out.empty:
        return out
    entries = _entries(summary)
    out["median_before"] = [format_value(m, v, missing=NOT_MEASURED) for m, v in zip(entries, summary["median_before"])]
    out["median_after"] = [format_value(m, v, missing=NOT_MEASURED) for m, v in zip(entries, summary["median_after"])]
    out["median_change"] = [format_change(m, v) for m, v in zip(entries, summary["median_change"])]
    return out


CHANGE_NUMBERS = ("before", "after", "change", "change_pct", "z")
SUMMARY_NUMBERS = ("median_before", "median_after", "median_change")


def as_numbers(frame: pd.DataFrame, columns: tuple[str, ...]) -> pd.DataFrame:
    """``frame`` with ``columns`` as floats in display units and NaN where there is no value (never 0), so a grid
    sorting them on a header click orders by value; ``shown_changes`` / ``shown_summary`` give the text to show."""
    out = frame.copy()
    for column in columns:
        out[column] = pd.Series([number_or_none(v) for v in frame[column]], index=frame.index, dtype="float64")
    return out
