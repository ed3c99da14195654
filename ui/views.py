"""Streamlit renderings shared by pages: metric stat cards, the qubit drill-down, the health report."""

from __future__ import annotations

import streamlit as st

from copilot_core.analysis.chip_metrics import ChipMetric
from copilot_core.analysis.health import HealthReport
from copilot_core.analysis.qubit_detail import latest_values_frame, task_results_frame
from copilot_core.analysis.timeseries import timeseries_frame
from copilot_core.charts.timeseries import timeseries_figure
from copilot_core.domain.metrics import format_value, metric
from copilot_core.domain.topology import qubit_label
from ui import data
from ui.errors import plain

DATETIME = st.column_config.DatetimeColumn(format="YYYY-MM-DD HH:mm")


def stat_cards(cm: ChipMetric) -> None:
    """Coverage, count, median, mean, min, max in display units ("—" when unknown, never 0)."""
    s = cm.stats
    cols = st.columns(6)
    cols[0].metric("Coverage", f"{s['coverage']:.0%}")
    cols[1].metric("Count", f"{s['count']}/{s['total']}")
    for col, name in zip(cols[2:], ("median", "mean", "min", "max")):
        col.metric(name.capitalize(), format_value(cm.metric, s[name]))


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
        st.markdown(f"**Latest values of {qubit_label(qid, size)}**")
        frame = latest_values_frame(params)
        if frame.empty:
            st.info(f"{qubit_label(qid, size)} has no calibrated parameters (dead or never calibrated).")
        else:
            st.dataframe(frame, hide_index=True, key="drill_values",
                         column_config={"value": st.column_config.NumberColumn(format="%.5g"),
                                        "calibrated_at": DATETIME})
    with right:
        entry = metric(metric_name)
        rows = [dict(r, qid=qid) for r in data.qubit_timeseries(chip_id, metric_name, qid, last_n=60)]
        series = timeseries_frame(rows, entry, size)
        if series.empty:
            st.info(f"No {plain(entry.title)} history for {qubit_label(qid, size)}.")
        else:
            st.plotly_chart(timeseries_figure(series, None, entry,
                                              title=f"{entry.title} of {qubit_label(qid, size)}"),
                            key="drill_series")
    st.markdown("**Latest task results**")
    results = task_results_frame(data.task_results(chip_id, qid=qid, limit=15))
    if results.empty:
        st.info(f"No task results for {qubit_label(qid, size)}.")
    else:
        st.dataframe(results, hide_index=True, key="drill_tasks", column_config={"started": DATETIME})


def health_report(report: HealthReport) -> None:
    """The deterministic report: verdict, findings, per-metric table, couplings."""
    icon = {"bad": ":material/error:", "fair": ":material/warning:", "good": ":material/check_circle:",
            "excellent": ":material/verified:"}.get(report.verdict or "", ":material/help:")
    st.markdown(f"#### {icon} Health of {report.label} on {plain(report.chip_id)}: {report.verdict or 'no scored data'}")
    for finding in report.findings or ["Nothing stands out: every scored metric is within its band and stable."]:
        st.markdown(f"- {plain(finding)}")
    rows = [{"metric": m.title, "value": format_value(metric(m.name), m.value), "band": m.band or "—",
             "trend": m.trend.text(m.unit),
             "vs neighbours": "—" if m.vs_neighbours is None else f"{m.vs_neighbours * 100:+.0f}%",
             "neighbours' median": format_value(metric(m.name), m.neighbour_median),
             "thresholds": m.thresholds.split(": ", 1)[-1]} for m in report.metrics]
    st.dataframe(rows, hide_index=True, key="health_metrics")
    if report.couplings:
        st.dataframe([{"coupling": c.label, "role": c.role,
                       **{metric(n, kind="coupling").title: format_value(metric(n, kind="coupling"), v)
                          + (f" ({b})" if b else "") for n, (v, b) in c.values.items()}}
                      for c in report.couplings], hide_index=True, key="health_couplings")
    st.caption(f"Trend over the {report.window_days} days before the chip's last execution; neighbours are the "
               f"nearest qubits on the topology ({', '.join(report.neighbour_labels) or 'none'}).")
