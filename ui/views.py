"""Streamlit renderings shared by pages: metric stat cards, the qubit drill-down, the health report."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import pandas as pd
import streamlit as st
from pandas.io.formats.style import Styler

from copilot_core.analysis.chip_metrics import ChipMetric
from copilot_core.analysis.health import HealthReport, Trend
from copilot_core.analysis.qubit_detail import latest_values_frame, task_results_frame
from copilot_core.analysis.qubit_table import band_column, value_column
from copilot_core.analysis.timeseries import timeseries_frame
from copilot_core.charts.style import BAND_TINTS, NO_VALUE, NO_VALUE_HELP
from copilot_core.charts.timeseries import timeseries_figure
from copilot_core.domain.display import format_percent
from copilot_core.domain.metrics import SCORED_COUPLING_METRICS, format_value, metric
from copilot_core.domain.topology import qubit_label
from copilot_core.render_safety import escape, safe_label, safe_markdown
from ui import data, figures, plot

DATETIME = st.column_config.DatetimeColumn(format="YYYY-MM-DD HH:mm")


def band_cells(frame: pd.DataFrame, bands: dict[str, str], formats: dict[str, str | Callable[[Any], str]]) -> Styler:
    """``frame`` with its values kept (numbers stay numbers, so a click on a column header sorts by value,
    not alphabetically), each ``formats`` column displayed through its format (``"%.2f"`` or a function,
    never called on a missing value) and each value cell tinted by its band (``bands``: value column -> band
    column), so the band needs no column of its own (hide those with ``column_config``).  The grid shows
    the formatted text of a ``NumberColumn`` only when the column has no ``format`` of its own, and a missing
    value as the ``placeholder`` of ``st.dataframe`` (pass ``NO_VALUE``; its default is "None")."""

    def tint(part: pd.DataFrame) -> pd.DataFrame:
        css = pd.DataFrame("", index=part.index, columns=part.columns)
        for value_col, band_col in bands.items():
            if value_col in part and band_col in part:
                css[value_col] = part[band_col].map(lambda b: f"background-color: {BAND_TINTS[b]}"
                                                    if b in BAND_TINTS else "")
        return css

    styler = frame.style.apply(tint, axis=None)
    for col, fmt in formats.items():
        if col in frame:
            shown = fmt if callable(fmt) else lambda v, fmt=fmt: fmt % v
            styler = styler.format(shown, subset=[col], na_rep=NO_VALUE)
    return styler


def value_band_cells(frame: pd.DataFrame) -> Styler:
    """A (metric, value, band) table with the value cell tinted by its band."""
    return band_cells(frame, {"value": "band"}, {})


def stat_cards(cm: ChipMetric) -> None:
    """Coverage, count, median, mean, min, max in display units ("—" when unknown, never 0)."""
    s = cm.stats
    cols = st.columns(6)
    cols[0].metric("Coverage", f"{s['coverage']:.0%}")
    cols[1].metric("Count", f"{s['count']}/{s['total']}")
    for col, name in zip(cols[2:], ("median", "mean", "min", "max")):
        col.metric(safe_label(name.capitalize()), format_value(cm.metric, s[name]))


def clicked_id(event: object) -> str | None:
    """The id (qid or coupling id) carried in ``customdata`` of the first clicked point, if any."""
    try:
        points = event["selection"]["points"]  # dict access: AppTest injects plain dicts
    except (KeyError, TypeError):
        return None
    for point in points or []:
        custom = point.get("customdata") if isinstance(point, dict) else None
        if isinstance(custom, list):
            custom = custom[0] if custom else None
        if custom is not None:
            return str(custom)
    return None


def drilldown(chip: dict, qid: str, metric_name: str) -> None:
    """Recent values of every metric, the selected metric over time, and the latest task results."""
    chip_id, size = chip["chip_id"], int(chip["size"])
    params = data.qubit_params(chip_id).get(qid)
    left, right = st.columns([2, 3])
    with left:
        st.markdown(safe_markdown(f"**Latest values of {escape(qubit_label(qid, size))}**"))
        frame = latest_values_frame(params)
        if frame.empty:
            st.info(escape(f"{qubit_label(qid, size)} has no calibrated parameters (dead or never calibrated)."))
        else:
            shown = frame.assign(value=[format_value(metric(str(p), str(u or "")), v)
                                        for p, v, u in zip(frame["parameter"], frame["value"], frame["unit"],
                                                           strict=True)])
            st.dataframe(value_band_cells(shown), hide_index=True, key="drill_values", column_config={
                "metric": st.column_config.TextColumn("metric", width=130),
                "parameter": None, "unit": None, "band": None, "execution_id": None,
                "value": st.column_config.TextColumn("value", width=100,
                                                     help=safe_markdown(f"Cell colour = band. {NO_VALUE_HELP}")),
                "calibrated_at": st.column_config.DatetimeColumn("calibrated (UTC)", format="MM-DD HH:mm",
                                                                 width=110)})
    with right:
        entry = metric(metric_name)
        rows = [dict(r, qid=qid) for r in data.qubit_timeseries(chip_id, metric_name, qid, last_n=60)]
        series = timeseries_frame(rows, entry, size)
        if series.empty:
            st.info(escape(f"No {entry.title} history for {qubit_label(qid, size)}."))
        else:
            plot.chart(timeseries_figure(series, None, entry,
                                       title=f"{entry.title} of {qubit_label(qid, size)}"),
                       key="drill_series")
    failed_tasks(data.cached_qubit_health(chip_id, qid), "drill_failures")
    st.markdown("**Latest task results**")
    results = task_results_frame(data.task_results(chip_id, qid=qid, limit=15))
    if results.empty:
        st.info(escape(f"No task results for {qubit_label(qid, size)}."))
    else:
        st.dataframe(results, hide_index=True, key="drill_tasks", row_height=44, column_config={
            "task": st.column_config.TextColumn("task", width=170),
            "status": st.column_config.TextColumn("status", width=70),
            "excluded": st.column_config.CheckboxColumn("excl.", width=45),
            "started": st.column_config.DatetimeColumn("started (UTC)", format="MM-DD HH:mm", width=100),
            "execution_id": st.column_config.TextColumn("execution", width=120),
            "elapsed_s": st.column_config.NumberColumn("s", format="%.0f", width=45),
            "outputs": st.column_config.TextColumn("outputs", width="medium"),
            "message": st.column_config.TextColumn("message", width="medium")})
    figures.metric_figure(chip_id, qid, metric_name, "drill_figure")


def _trend_cell(trend: Trend) -> str:
    """``degrading -4.2% · 8 pts``: short enough for a table cell."""
    if trend.direction == "unknown":
        return f"too few points ({trend.points})"
    pct = f" {format_percent(trend.change * 100)}" if trend.change is not None else ""
    return f"{trend.direction}{pct} · {trend.points} pts"


def failed_tasks(report: HealthReport, key: str) -> None:
    """The failed task runs on the qubit and its couplings, with their messages (plain text cells)."""
    if not report.failures:
        return
    st.markdown(safe_markdown(f"**Failed tasks on {escape(report.label)} and its couplings "
                              f"(last {report.window_days} days)**"))
    st.dataframe([{"on": f.label, "task": f.task, "at": f.at, "message": f.message} for f in report.failures],
                 hide_index=True, key=key, row_height=52, column_config={
                     "on": st.column_config.TextColumn("on", width=110),
                     "task": st.column_config.TextColumn("task", width=170),
                     "at": st.column_config.DatetimeColumn("at (UTC)", format="MM-DD HH:mm", width=100),
                     "message": st.column_config.TextColumn("message", width=480)})


def flagged_metrics(report: HealthReport) -> list[str]:
    """The report's metrics in the bad band or degrading: the fits a person looks at first."""
    return [m.name for m in report.metrics if m.band == "bad" or m.trend.direction == "degrading"]


def health_report(report: HealthReport) -> None:
    """The deterministic report: verdict, findings, failed tasks, per-metric table, couplings."""
    icon = {"bad": ":material/error:", "fair": ":material/warning:", "good": ":material/check_circle:",
            "excellent": ":material/verified:"}.get(report.verdict or "", ":material/help:")
    st.markdown(safe_markdown(f"#### {icon} Health of {escape(report.label)} on {escape(report.chip_id)}: "
                              f"{escape(report.verdict or 'no scored data')}"))
    for finding in report.findings or ["Nothing stands out: every scored metric is within its band and stable."]:
        st.markdown(safe_markdown(f"- {escape(finding)}"))
    failed_tasks(report, "health_failures")
    rows = [{"metric": m.title, "value": format_value(metric(m.name), m.value), "band": m.band or NO_VALUE,
             "trend": _trend_cell(m.trend),
             "vs neighbours": NO_VALUE if m.vs_neighbours is None else
             f"{m.vs_neighbours * 100:+.0f}% (median {format_value(metric(m.name), m.neighbour_median)})",
             "thresholds": m.thresholds.split(": ", 1)[-1].replace(" (higher is better)", "")
             .replace(" (lower is better)", "")} for m in report.metrics]
    st.dataframe(rows, hide_index=True, key="health_metrics", column_config={
        "metric": st.column_config.TextColumn("metric", width=130),
        "value": st.column_config.TextColumn("value", width=90, help=safe_markdown(NO_VALUE_HELP)),
        "band": st.column_config.TextColumn("band", width=70),
        "trend": st.column_config.TextColumn("trend", width=150,
                                             help="Change over the window (least-squares fit) and the number of points"),
        "vs neighbours": st.column_config.TextColumn("vs neighbours", width=170,
                                                     help="+ = better than the median of the nearest qubits"),
        "thresholds": st.column_config.TextColumn("thresholds", width=330)})
    if report.couplings:
        failed_on: dict[frozenset[str], int] = {}
        for f in report.failures:
            if f.on_coupling:
                ends = frozenset(str(int(e)) for e in f.target.split("-"))
                failed_on[ends] = failed_on.get(ends, 0) + 1
        entries = [metric(n, kind="coupling") for n in SCORED_COUPLING_METRICS]
        rows = pd.DataFrame([{"coupling": c.label, "role": c.role,
                              "failed tasks": failed_on.get(frozenset(c.coupling_id.split("-")), 0),
                              **{k: x for m in entries for k, x in
                                 zip((value_column(m), band_column(m)), c.values.get(m.name, (None, None)))}}
                             for c in report.couplings])
        config: dict = {band_column(m): None for m in entries}  # shown as the value cell's colour
        config |= {value_column(m): st.column_config.NumberColumn(  # no format: the styler's text shows
            help=escape(f"Cell colour = band ({m.threshold_text()}). {NO_VALUE_HELP}")) for m in entries}
        st.dataframe(band_cells(rows, {value_column(m): band_column(m) for m in entries},
                                {value_column(m): partial(format_value, m, unit=False) for m in entries}),
                     hide_index=True, key="health_couplings", placeholder=NO_VALUE, column_config=config)
    st.caption(escape(f"Trend over the {report.window_days} days before the chip's last execution; neighbours are "
                      f"the nearest qubits on the topology ({', '.join(report.neighbour_labels) or 'none'})."))


def text_over_numbers(numbers: pd.DataFrame, text: pd.DataFrame, columns: tuple[str, ...]) -> Styler:
    """``numbers`` (each of ``columns`` a float column, NaN when missing) drawn with the same-shaped ``text``
    frame's cells: a header click sorts by value while each cell reads as the display rule wrote it.  Give
    those columns a ``NumberColumn`` without a ``format`` (a format of its own hides the text), and a missing
    cell shows the ``placeholder`` of ``st.dataframe``."""
    styler = numbers.style
    for column in columns:
        if column not in numbers:
            continue
        by_text: dict[str, list[object]] = {}
        for row, shown in zip(numbers.index, text[column]):
            by_text.setdefault(str(shown), []).append(row)
        for shown, rows in by_text.items():
            styler = styler.format(lambda _value, shown=shown: shown, subset=pd.IndexSlice[rows, [column]])
    return styler
