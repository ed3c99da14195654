"""What changed: two runs (or two days) of a chip side by side, metric by metric; a click opens the qubit."""

from datetime import datetime
from functools import partial

import pandas as pd
import streamlit as st
from pandas.io.formats.style import Styler

from copilot_core.analysis.compare_points import resolve_point
from copilot_core.analysis.compare_tables import (
    CHANGE_NUMBERS,
    SUMMARY_NUMBERS,
    as_numbers,
    band_crossings,
    lost_measurements,
    metric_summary,
    ranked_changes,
    shown_changes,
    shown_summary,
)
from copilot_core.charts.compare import change_figure
from copilot_core.domain.display import MEDIAN_CHANGE_LABEL, NO_VALUE, NOT_MEASURED
from ui import compare as compare_data
from ui import figures, navigation, plot, url_state, views, widgets
from copilot_core.render_safety import csv_bytes, escape, safe_label
from ui.errors import page_guard
from ui.widgets import persistent_select

LAST_CLICK_KEY = "_compare_last_click"
GENERATION_KEY = "_compare_table_generation"
RANKED_ROWS = 100
MODES = ("two runs", "two days")
NUMBER = st.column_config.NumberColumn
SHOWN = ["title", "label", "before", "after", "change", "change_pct", "z", "band_before", "band_after",
         "status_before", "status_after", "qid"]
CONFIG = {"qid": None, "title": "metric", "label": "qubit / coupling", "before": NUMBER("before"),
          "after": NUMBER("after"), "change": NUMBER("change"), "change_pct": NUMBER("change %"),
          "z": NUMBER("× own spread"), "status_before": "before was", "status_after": "after is"}

st.title("What changed")


def _open_selected(event: object, frame: pd.DataFrame, chip_id: str) -> None:
    """A ticked row opens its qubit; the tables get fresh keys afterwards, so one tick = one jump."""
    rows = list(event["selection"]["rows"])  # type: ignore[index]
    if rows and 0 <= rows[0] < len(frame):
        st.session_state[GENERATION_KEY] = st.session_state.get(GENERATION_KEY, 0) + 1
        navigation.open_qubit(chip_id, str(frame.iloc[rows[0]]["qid"]))


def _sortable(frame: pd.DataFrame, columns: list[str], text: pd.DataFrame, numeric: tuple[str, ...]) -> Styler:
    """``text`` (the display rule's cells) over the numbers of ``frame``: a header click sorts by value."""
    numeric = tuple(c for c in numeric if c in columns)
    numbers = text[columns].copy()
    for column in numeric:
        numbers[column] = as_numbers(frame, (column,))[column]
    return views.text_over_numbers(numbers, text[columns], numeric)


def _changes(frame: pd.DataFrame, columns: list[str]) -> Styler:
    return _sortable(frame, columns, shown_changes(frame), CHANGE_NUMBERS)


with page_guard("the comparison"):
    chip = widgets.chip_selector()
    if chip is not None:
        chip_id = chip["chip_id"]
        runs = [e for e in compare_data.runs(chip_id) if isinstance(e.get("start_at"), datetime)]
        if len(runs) < 2:
            widgets.no_data(f"{chip_id} has {len(runs)} recorded execution(s): a comparison needs two.")
            st.stop()
        labels = {e["execution_id"]: f"{e['execution_id']} · {e['start_at']:%Y-%m-%d %H:%M} · {e.get('status')}"
                  for e in runs}
        url_state.adopt("by", "compare_by", MODES, to_url=lambda mode: mode.split()[-1])
        by = st.radio("Compare", MODES, horizontal=True, key="compare_by",
                      format_func=lambda mode: safe_label(mode))
        url_state.publish("by", by.split()[-1])
        c1, c2 = st.columns(2)
        if by == "two runs":
            options = list(labels)
            before = persistent_select("From run", options, f"compare_from_{chip_id}", container=c1, param="from",
                                       default=resolve_point("previous", runs).execution_ids[0],
                                       format_func=lambda e: labels[e])
            after = persistent_select("To run", options, f"compare_to_{chip_id}", container=c2, param="to",
                                      default=resolve_point("latest", runs).execution_ids[0],
                                      format_func=lambda e: labels[e])
        else:
            days = sorted({e["start_at"].date().isoformat() for e in runs}, reverse=True)
            before = persistent_select("From day", days, f"compare_from_day_{chip_id}", container=c1, param="from",
                                       default=days[1] if len(days) > 1 else days[0])
            after = persistent_select("To day", days, f"compare_to_day_{chip_id}", container=c2, default=days[0],
                                      param="to")
        comp = compare_data.comparison(chip_id, before, after)  # a CompareError is the guard's warning
        st.caption(escape(f"{comp.before.label} → {comp.after.label}. Values: each qubit's newest completed, "
                         f"non-excluded result in that run; spread: its standard deviation over the {comp.spread_days}"
                         " days before the later point."))

        summary = metric_summary(comp)
        st.subheader("Per metric")
        shown = [c for c in summary.columns if c not in ("metric", "kind", "unit")]
        st.dataframe(_sortable(summary, shown, shown_summary(summary), SUMMARY_NUMBERS), hide_index=True,
                     key="compare_summary", placeholder=NOT_MEASURED, column_config={
                         "title": "metric", "median_before": NUMBER("median before"),
                         "median_after": NUMBER("median after"), "median_change": NUMBER(MEDIAN_CHANGE_LABEL),
                         "band_worse": NUMBER("band ↓", format="%d"), "band_better": NUMBER("band ↑", format="%d")})
        st.caption(escape(f"{MEDIAN_CHANGE_LABEL}: the middle of each qubit's own change (after − before), not the "
                          "median after minus the median before."))

        st.subheader("Change on the chip")
        topology = comp.topology
        compared = [n for n in comp.metrics if int(summary.set_index("metric").loc[n, "compared"])]
        if topology is None:
            widgets.no_data(f"{chip_id} has a layout this app cannot draw; the tables below still apply.")
        elif not compared:
            widgets.no_data("No metric was measured in both points; pick other runs.")
        else:
            name = persistent_select("Metric", compared, "compare_metric", default="t1", param="metric",
                                     format_func=widgets.metric_label)
            event = plot.chart(change_figure(comp, name, topology), key="compare_chart", on_select="rerun",
                                selection_mode="points", config={"displayModeBar": False})
            clicked = views.clicked_id(event)
            if clicked is not None and clicked != st.session_state.get(LAST_CLICK_KEY):
                st.session_state[LAST_CLICK_KEY] = clicked
                navigation.open_qubit(chip_id, clicked.split("-", 1)[0])
            st.caption("Blue = better, red = worse by the metric's direction; grey = not in both runs. "
                       "Click a qubit (or a coupling's arrow: its control qubit) to open it on the Qubits page.")

        generation = st.session_state.get(GENERATION_KEY, 0)
        st.subheader("Largest changes against each qubit's own spread")
        ranked = ranked_changes(comp, RANKED_ROWS)
        if ranked.empty:
            widgets.no_data("Nothing was measured in both points.")
        else:
            event = st.dataframe(_changes(ranked, SHOWN), hide_index=True, placeholder=NO_VALUE,
                                 key=f"compare_ranked_{generation}",
                                 on_select="rerun", selection_mode="single-row", column_config=CONFIG, height=390)
            st.caption(escape(f"Top {len(ranked)} of {int(comp.frame['change'].notna().sum())} changes. "
                              "Tick a row to open that qubit on the Qubits page. — = no value (× own spread: fewer than "
                              "two earlier values); a click on a header sorts by value, a missing one first."))
            _open_selected(event, ranked, chip_id)
            figures.changed_qubit(chip_id, ranked, comp.before.execution_ids, comp.after.execution_ids)

        left, right = st.columns(2)
        with left:
            st.subheader("Crossed a threshold band")
            crossed = band_crossings(comp)
            if crossed.empty:
                st.success("No qubit changed band.", icon=":material/check_circle:")
            else:
                columns = ["title", "label", "band_before", "band_after", "band_move", "before", "after", "qid"]
                event = st.dataframe(_changes(crossed, columns), hide_index=True, placeholder=NO_VALUE,
                                     key=f"compare_bands_{generation}",
                                     on_select="rerun", selection_mode="single-row", column_config=CONFIG, height=300)
                _open_selected(event, crossed, chip_id)
        with right:
            st.subheader("New missing or failed")
            lost = lost_measurements(comp)
            if lost.empty:
                st.success("Every value of the earlier point is there again.", icon=":material/check_circle:")
            else:
                columns = ["title", "label", "before", "status_after", "qid"]
                event = st.dataframe(_changes(lost, columns), hide_index=True, placeholder=NO_VALUE,
                                     key=f"compare_lost_{generation}", on_select="rerun", selection_mode="single-row",
                                     column_config=CONFIG | {"status_after": "now"}, height=300)
                st.caption("now: failed, excluded, no value (stored as 0) or not measured (while the task ran).")
                _open_selected(event, lost, chip_id)

        st.download_button("Download CSV", partial(csv_bytes, comp.frame),
                           file_name=f"{chip_id}_{comp.before.execution_ids[0]}_{comp.after.execution_ids[0]}.csv",
                           mime="text/csv", on_click="ignore", key="compare_csv", icon=":material/download:")
