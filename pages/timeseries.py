"""Timeseries: one parameter over time, one line per qubit, the chip median band, outliers flagged."""

import streamlit as st

from copilot_core.analysis.timeseries import OUTLIER_K, median_band, timeseries_frame
from copilot_core.charts.timeseries import timeseries_figure
from copilot_core.domain.metrics import metric
from copilot_core.domain.topology import qubit_label
from ui import data, navigation, widgets
from ui.errors import page_guard
from ui.widgets import persistent_select

WINDOW_DAYS = (7, 14, 30, 90, 365)

navigation.through_app()
st.title("Timeseries")

with page_guard("the timeseries"):
    chip = widgets.chip_selector()
    if chip is not None:
        chip_id, size = chip["chip_id"], int(chip["size"])
        c1, c2, c3 = st.columns([3, 5, 2])
        name = persistent_select("Parameter", widgets.metric_options(chip_id), "timeseries_metric", default="t1",
                                 format_func=widgets.metric_label, container=c1)
        picked = c2.multiselect("Qubits (empty = all)", [str(q) for q in range(size)], key="timeseries_qubits",
                                format_func=lambda q: qubit_label(q, size), placeholder="All qubits")
        days = c3.selectbox("Window (days)", WINDOW_DAYS, index=2, key="timeseries_days")
        entry = metric(name)
        every = timeseries_frame(data.chip_timeseries(chip_id, name, qids=None, days=days), entry, size)
        if every.empty:
            widgets.no_data(f"No {entry.title} values on {chip_id} in the {days} days before its last execution.")
        else:
            band = median_band(every)  # the chip's band: every qubit, whichever are drawn
            shown = every[every["qid"].isin(picked)] if picked else every
            if shown.empty:
                widgets.no_data("The selected qubits have no values in this window.")
            else:
                st.plotly_chart(timeseries_figure(shown, band, entry, title=f"{entry.title} on {chip_id}, last "
                                                  f"{days} days"), key="timeseries_chart")
                outliers = shown[shown["outlier"]]
                st.caption(f"{shown['qid'].nunique()} qubit(s), {len(shown)} values; shaded band = chip interquartile "
                           f"range, dashed = chip median per day; ✕ = outlier (outside the qubit's own median ± "
                           f"{OUTLIER_K:g}·MAD).")
                if outliers.empty:
                    st.success("No outliers in this window.", icon=":material/check_circle:")
                else:
                    st.markdown(f"**{len(outliers)} outlier(s)**")
                    st.dataframe(outliers[["qubit", "calibrated_at", "value", "execution_id"]], hide_index=True,
                                 key="timeseries_outliers", column_config={
                                     "calibrated_at": st.column_config.DatetimeColumn(format="YYYY-MM-DD HH:mm"),
                                     "value": st.column_config.NumberColumn(f"value [{entry.unit}]", format="%.5g")})
                st.download_button("Download CSV", shown.to_csv(index=False).encode(),
                                   file_name=f"{chip_id}_{name}_{days}d.csv", mime="text/csv", on_click="ignore",
                                   key="timeseries_csv", icon=":material/download:")
