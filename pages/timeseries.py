"""Timeseries: one parameter over time: the chip median band, the qubits the user picks, outliers flagged."""

from functools import partial

import streamlit as st

from copilot_core.analysis.timeseries import OUTLIER_K
from copilot_core.charts.timeseries import timeseries_figure
from copilot_core.domain.metrics import metric, window_text
from copilot_core.domain.topology import qubit_label
from ui import data, navigation, plot, url_state, widgets
from copilot_core.render_safety import csv_bytes, escape, safe_markdown, safe_text
from ui.errors import page_guard
from ui.widgets import persistent_multiselect, persistent_select

WINDOW_DAYS = (7, 14, 30, 90, 365)

navigation.through_app()
st.title("Timeseries")

with page_guard("the timeseries"):
    chip = widgets.chip_selector()
    if chip is not None:
        chip_id, size = chip["chip_id"], int(chip["size"])
        c1, c2, c3 = st.columns([3, 5, 2])
        name = persistent_select("Parameter", widgets.metric_options(chip_id), "timeseries_metric", default="t1",
                                 format_func=widgets.metric_label, container=c1, param="parameter")
        picked = persistent_multiselect("Qubits (empty = chip band and outliers)", [str(q) for q in range(size)],
                                        "timeseries_qubits", param="qubit", container=c2,
                                        format_func=lambda q: qubit_label(q, size), normalize=url_state.qubit_token,
                                        placeholder="Pick qubits to draw their lines")
        days = persistent_select("Window (days)", WINDOW_DAYS, "timeseries_days", default=30, param="window",
                                 to_url=lambda d: f"{d}d", container=c3)
        entry = metric(name)
        every, band = data.chip_timeseries_frame(chip_id, name, days=days, size=size)  # band: every qubit
        if every.empty:
            widgets.no_data(f"No {entry.title} values on {chip_id} in the {days} days before its last execution.")
        else:
            shown = every[every["qid"].isin(picked)] if picked else every
            if shown.empty:
                widgets.no_data("The selected qubits have no values in this window.")
            else:
                plot.chart(timeseries_figure(shown, band, entry, lines=bool(picked),
                                           title=f"{entry.title} on {chip_id}, "
                                                 f"{window_text(days * 24, chip.get('last_execution_at'))}"),
                         key="timeseries_chart")
                outliers = shown[shown["outlier"]].sort_values("calibrated_at", ascending=False)
                drawn = (f"{shown['qid'].nunique()} picked qubit(s), {len(shown)} values" if picked else
                         f"all {every['qid'].nunique()} qubits with values summarised as the chip band; pick "
                         "qubits above to draw their lines")
                st.caption(escape(f"{drawn}. Shaded band = chip interquartile range, dashed = chip median per day; "
                                  f"✕ = outlier (outside the qubit's own median ± {OUTLIER_K:g}·MAD). Threshold "
                                  "lines appear when they fall inside the plotted range."))
                if outliers.empty:
                    st.success("No outliers in this window.", icon=":material/check_circle:")
                else:
                    st.markdown(safe_markdown(f"**{len(outliers)} outlier(s), newest first**"))
                    st.dataframe(outliers[["qubit", "calibrated_at", "value", "execution_id"]], hide_index=True,
                                 key="timeseries_outliers", column_config={
                                     "qubit": st.column_config.TextColumn("qubit", width="small"),
                                     "calibrated_at": st.column_config.DatetimeColumn(
                                         "calibrated (UTC)", format="YYYY-MM-DD HH:mm", width="medium"),
                                     "value": st.column_config.NumberColumn(
                                         safe_text(f"value [{entry.unit}]"), format="%.5g", width="small"),
                                     "execution_id": st.column_config.TextColumn("execution", width="large")})
                st.download_button("Download CSV", partial(csv_bytes, shown),
                                   file_name=f"{chip_id}_{name}_{days}d.csv", mime="text/csv", on_click="ignore",
                                   key="timeseries_csv", icon=":material/download:")
