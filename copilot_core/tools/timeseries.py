"""Parameter history: one qubit (direct, throttled by the toolkit) or a whole chip in one call (stored).

The chip-wide tool exists because models otherwise call the per-qubit tool 144 times; its rows
go to the data store (full precision, ISO timestamps) and the model gets per-chip statistics,
the row schema and the key to analyse them with ``execute_python_analysis``.
"""

from __future__ import annotations

from datetime import datetime

import pandas as pd

from copilot_core.analysis.stats import describe, mad_bounds
from copilot_core.data.rows import ChipSeriesRow
from copilot_core.domain.metrics import Metric, format_value, metric, missing_since, missing_text
from copilot_core.domain.windows import dates_text, day_window, read_end
from copilot_core.tools.aggregates import ranking
from copilot_core.tools.derived import (STATISTICS, Statistic, gap_facts, series_statistic, statistic_facts,
                                         two_statistics)
from copilot_core.tools.compact import compact_number, compact_timestamp, from_database, iso
from copilot_core.tools.spec import (Limit, ToolContext, ToolError, ToolResult, chip_id_arg, days_arg,
                                     last_n_arg, parameter_name_arg, qid_arg, qids_arg, tool)

FRAME_COLUMNS = ["qid", "calibrated_at", "value", "raw_value", "unit", "execution_id", "task_id"]
TREND_BAND = 0.01  # latest vs first within ±1 % is "stable"
SPELLED_OUT = 10  # a history this short has every value, with its date, in the answer sentence
Span = tuple[datetime, datetime, datetime] | None  # a window's [start, end) and the newest run it ends on
NAMED_QUBITS = 12  # a history of this many named qubits is answered qubit by qubit (and drawn one line each)


def window_last_n(default: int, maximum: int) -> dict:
    """``last_n`` of a tool that also takes ``days``: no schema default, so a window in days is never cut to the
    default count (the tool picks ``default`` without a window, every point up to ``maximum`` with one)."""
    schema = {k: v for k, v in last_n_arg(default, maximum).items() if k != "default"}
    return schema | {"description": f"Default {default}; with days, every point of the window. Max {maximum}."}


def _points(last_n: int | None, span: Span, default: int, maximum: int) -> int:
    return last_n if last_n is not None else (maximum if span is not None else default)


def _span(ctx: ToolContext, chip_id: str, days: int | None) -> Span:
    """The window of "the last N days": whole UTC days ending on the chip's newest run's day; None without one."""
    if days is None:
        return None
    last = ctx.repo.window_end(chip_id)
    since, until = day_window(last, days)
    return since, until, last


def _window(span: Span, points: int) -> str:
    return f"{dates_text(*span)} ({points} points)" if span is not None else f"last {points} points"


def _trend(first: float | None, last: float | None) -> str | None:
    if first is None or last is None or first == 0:
        return None
    change = (last - first) / abs(first)
    return "up" if change > TREND_BAND else "down" if change < -TREND_BAND else "stable"


def _failed_latest(ctx: ToolContext, chip_id: str, parameter_name: str, *, coupling: bool = False,
                   qid: str | None = None) -> dict[str, datetime]:
    """id -> date of a newest completed, non-excluded result that is NaN/NaN-as-0: "latest" is missing
    there (as on the heatmap and in get_qubit_params), even though older usable points exist."""
    latest = ctx.repo.metric_values(chip_id, parameter_name, kind="coupling" if coupling else "qubit", qid=qid)
    return {key: at for key, row in latest.items() if (at := missing_since(row)) is not None}


def _stats(values: list[float | None]) -> dict[str, object]:
    """Chip-wide or per-series statistics, compacted because the model reads them."""
    stats = describe(values)
    return {k: compact_number(v) for k, v in stats.items() if k not in ("total", "coverage")}


@tool("get_parameter_timeseries",
      {"parameter_name": parameter_name_arg(),
       "chip_id": chip_id_arg(), "qid": qid_arg(), "last_n": window_last_n(10, 100), "days": days_arg()},
      ("parameter_name", "chip_id", "qid"), reduced=True,
      limit=Limit(3, "use get_chip_parameter_timeseries(chip_id, parameter_name, qids=[...]) to fetch many qubits "
                     "in one call, then analyse data[parameter_name] with execute_python_analysis"))
def get_parameter_timeseries(ctx: ToolContext, parameter_name: str, chip_id: str, qid: str,
                             last_n: int | None = None, days: int | None = None) -> ToolResult:
    ctx.check_qid(chip_id, qid)
    span = _span(ctx, chip_id, days)
    rows = ctx.repo.parameter_timeseries(chip_id, parameter_name, qid, last_n=_points(last_n, span, 10, 100),
                                         since=span[0] if span else None,
                                         until=read_end(span[1], span[2]) if span else None)
    if not rows:
        within = f" {dates_text(*span)}" if span is not None else ""
        raise ToolError(f"no {parameter_name} values for {ctx.label(chip_id, qid)} on {chip_id}{within}",
                        "list names with list_available_parameters(chip_id, qid)", kind="data")
    entry = metric(parameter_name, str(rows[-1].get("unit") or ""))
    values = [entry.to_display(r.get("value")) for r in rows]
    points = [{"calibrated_at": r.get("calibrated_at"), "value": value,
               "execution_id": from_database(r.get("execution_id"))} for r, value in zip(rows, values)]
    failed_at = _failed_latest(ctx, chip_id, parameter_name, coupling="-" in qid, qid=qid).get(qid)
    latest = None if failed_at is not None else values[-1]
    stats = describe(values)
    latest_text = ("no valid value (" + missing_text(failed_at) + ")" if failed_at is not None
                   else format_value(entry, latest))
    answer = (f"{parameter_name} of {ctx.label(chip_id, qid)} on {chip_id}, {_window(span, len(points))}: "
              f"latest {latest_text}, lowest {format_value(entry, stats['min'])}, highest "
              f"{format_value(entry, stats['max'])}, mean {format_value(entry, stats['mean'])}, "
              f"trend {_trend(values[0], values[-1]) or 'unknown'}" + _newest_first(entry, points) + ".")
    data = {"answer": answer, "chip_id": chip_id, "qid": qid, "label": ctx.label(chip_id, qid),
            "parameter_name": parameter_name, "unit": entry.unit, "stats": _stats(values),
            "trend": _trend(values[0], values[-1]),
            "latest": compact_number(latest) if latest is not None else None, "points": points}
    if failed_at is not None:
        data["missing"] = missing_text(failed_at)
        shown = f", latest: {data['missing']}"
    else:
        shown = f", latest {format_value(entry, latest)}" if latest is not None else ""
    return ToolResult(data, f"{parameter_name} of {ctx.label(chip_id, qid)} on {chip_id}: {len(points)} points{shown}")


def _newest_first(entry: Metric, points: list[dict]) -> str:
    """The values with their dates, newest first, when few enough to quote ("the two most recent values")."""
    if len(points) > SPELLED_OUT:
        return ""
    shown = ", ".join(f"{format_value(entry, p['value'])} ({compact_timestamp(p['calibrated_at'], year=True)})"
                      for p in reversed(points))
    return f"; values, newest first: {shown}"


def _two_compared(entry: Metric, labels: dict[str, str], frame: pd.DataFrame, over: str,
                  statistic: Statistic) -> tuple[str, dict, dict]:
    """Two qubits' histories compared on ``statistic`` (:func:`~copilot_core.tools.derived.two_statistics`): the
    sentence, each side's figure (and their gap) as numbers, and, for a center or an extreme, the order the claim
    check holds (best first by the metric's direction)."""
    series = {labels[str(q)]: group["value"].tolist() for q, group in frame.groupby("qid", sort=False)
              if str(q) in labels}
    text = two_statistics(entry, series, over, statistic)
    if not text:
        return "", {}, {}
    facts = statistic_facts(entry, series, statistic)
    if statistic in ("std", "drift", "gain"):
        return text, facts, {}
    values = sorted(((k, float(series_statistic(v, statistic) or 0)) for k, v in series.items()),
                    key=lambda kv: -kv[1])
    facts |= gap_facts(entry, values[0][1], values[1][1])
    return text, facts, ranking("qubit", entry.name, [(k, [format_value(entry, v)]) for k, v in values],
                                entry.higher_is_better)


def _frame(rows: list[ChipSeriesRow], parameter_name: str) -> pd.DataFrame:
    """The long table the sandbox gets as ``data[parameter_name]`` (display units, full precision)."""
    records = []
    for r in rows:
        entry = metric(parameter_name, str(r.get("unit") or ""))
        records.append({"qid": str(r.get("qid")), "calibrated_at": iso(r.get("calibrated_at")),
                        "value": entry.to_display(r.get("value")), "raw_value": r.get("value"), "unit": entry.unit,
                        "execution_id": r.get("execution_id"), "task_id": r.get("task_id")})
    frame = pd.DataFrame.from_records(records, columns=FRAME_COLUMNS)
    frame["value"] = pd.to_numeric(frame["value"], errors="coerce")
    return frame


def _per_qubit(frame: pd.DataFrame, failed: dict[str, datetime]) -> list[dict]:
    """Per-qubit summary; ``latest`` is None with ``missing`` when the newest result failed (``failed``)."""
    out = []
    for qid, group in frame.groupby("qid", sort=False):
        values = group["value"].tolist()
        at = failed.get(str(qid))
        row = {"qid": qid, "latest": compact_number(values[-1]) if at is None else None, "count": len(values),
               "min": compact_number(min(values)), "max": compact_number(max(values)),
               "mean": compact_number(float(sum(values) / len(values))), "trend": _trend(values[0], values[-1])}
        if at is not None:
            row["missing"] = missing_text(at)
        out.append(row)
    return sorted(out, key=lambda r: int(r["qid"]))


@tool("get_chip_parameter_timeseries",
      {"parameter_name": parameter_name_arg(), "chip_id": chip_id_arg(),
       "qids": qids_arg(2048), "last_n": window_last_n(10, 365), "days": days_arg(),
       "statistic": {"type": "string", "pattern": "^(" + "|".join(STATISTICS) + ")$",
                     "description": "Of two qids, compare on: " + ", ".join(STATISTICS) + " (default mean)."}},
      ("parameter_name", "chip_id"), stored_key=lambda args: args["parameter_name"])
def get_chip_parameter_timeseries(ctx: ToolContext, parameter_name: str, chip_id: str, qids: list[str] | None = None,
                                  last_n: int | None = None, days: int | None = None,
                                  statistic: Statistic | None = None) -> ToolResult:
    for q in qids or ():
        ctx.check_qid(chip_id, q)
    span = _span(ctx, chip_id, days)
    rows = ctx.repo.chip_parameter_timeseries(chip_id, parameter_name, qids=qids,
                                              last_n=_points(last_n, span, 10, 365),
                                              since=span[0] if span else None,
                                              until=read_end(span[1], span[2]) if span else None)
    frame = _frame(rows, parameter_name).dropna(subset=["value"]).reset_index(drop=True)
    if frame.empty:
        raise ToolError(f"no {parameter_name} values on {chip_id}", "list names with list_available_parameters", kind="data")
    unit = str(frame["unit"].iloc[0])
    times = [at for r in rows if isinstance(at := r["calibrated_at"], datetime)]  # datetimes: compacted for the model
    failed = {q: at for q, at in _failed_latest(ctx, chip_id, parameter_name).items() if qids is None or q in qids}
    qubits = _per_qubit(frame, failed)
    latest = [q["latest"] for q in qubits if q["latest"] is not None]
    bounds = mad_bounds(latest)
    low = [q["qid"] for q in qubits if bounds and q["latest"] is not None and q["latest"] < bounds[0]]
    high = [q["qid"] for q in qubits if bounds and q["latest"] is not None and q["latest"] > bounds[1]]
    trends = {t: sum(1 for q in qubits if q["trend"] == t) for t in ("up", "down", "stable")}
    entry = metric(parameter_name, unit)
    latest_stats = describe(latest)
    answer = (f"{parameter_name} on {chip_id}, newest value of {len(latest)} qubits: median "
              f"{format_value(entry, latest_stats['median'])}, mean {format_value(entry, latest_stats['mean'])}, "
              f"min {format_value(entry, latest_stats['min'])}, max {format_value(entry, latest_stats['max'])}; "
              f"trends: {trends['up']} up, {trends['down']} down, {trends['stable']} stable.")
    data = {"answer": answer, "chip_id": chip_id, "parameter_name": parameter_name, "unit": unit,
            "num_qubits": len(qubits),
            "num_points": len(frame), "first_at": min(times), "last_at": max(times),
            "statistics": _stats(frame["value"].tolist()), "latest_statistics": _stats(latest),
            "trend_counts": trends, "outliers_low": low, "outliers_high": high,
            "no_valid_latest": {q: missing_text(at) for q, at in failed.items()} or None,
            "qubits": qubits, "rows": frame.to_dict("records")}
    if qids is not None and len(qubits) <= NAMED_QUBITS:  # named qubits: each one's own history, never pooled
        labels = {str(q["qid"]): ctx.label(chip_id, str(q["qid"])) for q in qubits}
        data["labels"] = labels
        over = dates_text(*span) if span is not None else f"over their last {last_n or 10} points each"
        means, derived, order = _two_compared(entry, labels, frame, over, statistic or "mean") \
            if span is not None or statistic is not None else ("", {}, {})
        if order:
            data["ranking"] = order
        if derived:
            data["derived"] = derived
        data["answer"] = means + f"{parameter_name} on {chip_id} " \
            f"{_window(span, len(frame))}: " + "; ".join(
            f"{labels[str(q['qid'])]} latest "
            + (format_value(entry, q["latest"]) if q["latest"] is not None else q.get("missing", "no valid value"))
            + f" ({q['count']} points, mean {format_value(entry, q['mean'])}, {format_value(entry, q['min'])} to "
              f"{format_value(entry, q['max'])}, trend {q['trend'] or 'unknown'})" for q in qubits) + "."
    median = data["latest_statistics"]["median"]
    return ToolResult(data, f"{parameter_name} on {chip_id}: {len(qubits)} qubits, {len(frame)} points, "
                            f"median latest {median} {unit}", frame=frame)
