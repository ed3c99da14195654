"""Overview (default page): chips, chip health per metric, recent executions, drift flags."""

import streamlit as st

from copilot_core.analysis.chip_health import health_frame
from copilot_core.analysis.overview import chips_frame, executions_frame, flags_frame
from copilot_core.charts.style import NO_VALUE_HELP
from copilot_core.domain.metrics import BANDS
from ui import compare, data, navigation, widgets
from copilot_core.render_safety import escape, safe_markdown, safe_text
from ui.errors import page_guard

FLAGS_GENERATION_KEY = "_overview_flags_generation"

navigation.through_app()
st.title("Overview")

with page_guard("the overview"):
    st.caption(escape(f"Data: {data.target_description()}"))
    chip = widgets.chip_selector()
    if chip is not None:
        chip_id = chip["chip_id"]
        st.download_button("Daily report (HTML)", lambda: compare.report_html(chip_id).encode(),
                           file_name=f"{chip_id}_daily_report.html", mime="text/html", on_click="ignore",
                           key="overview_report", icon=":material/summarize:",
                           help="The last run's health, changes since the run before, drift flags, failed tasks and "
                                "notes in one self-contained page that opens offline.")
        st.subheader("Chips")
        st.dataframe(chips_frame(data.chips()), hide_index=True, key="overview_chips", column_config={
            "coverage": st.column_config.ProgressColumn("coverage", format="percent", min_value=0, max_value=1,
                                                        color="green"),
            "last execution": st.column_config.DatetimeColumn("last execution (UTC)", format="YYYY-MM-DD HH:mm")})

        st.subheader("Drift flags")
        pct = st.slider("Flag a drop larger than (% of the qubit's own 7-day median)", 5, 80, data.DEFAULT_DRIFT_PCT, step=5,
                        key="overview_drift_pct")
        flags = data.drift(chip_id, pct / 100)
        drops = [f for f in flags if f.reason == "drop"]
        failed = [f for f in flags if f.reason == "failed_task"]
        st.caption(escape(f"{len(drops)} drop(s) in T1, T2 echo or gate fidelity; {len(failed)} qubit(s) or "
                          "coupling(s) with tasks that failed in the 24 h before the last execution."))
        if not flags:
            st.success("No drift and no failing tasks.", icon=":material/check_circle:")
        else:
            frame = flags_frame(flags, int(chip["size"]))
            # a fresh widget after each jump: the selection is consumed once, so one click = one action
            generation = st.session_state.setdefault(FLAGS_GENERATION_KEY, 0)
            event = st.dataframe(frame, hide_index=True, key=f"overview_flags_{generation}", on_select="rerun",
                                 selection_mode="single-row", row_height=52, height=min(38 + 52 * len(frame), 420),
                                 column_config={
                                     "qid": None,
                                     "where": st.column_config.TextColumn("where", width=90),
                                     "flag": st.column_config.TextColumn("flag", width=80),
                                     "what": st.column_config.TextColumn("what", width=140),
                                     "latest": st.column_config.TextColumn("latest", width=75,
                                                                           help=safe_markdown(NO_VALUE_HELP)),
                                     "7-day median": st.column_config.TextColumn("7-day med.", width=80,
                                                                                  help="The qubit's own 7-day median"),
                                     "drop": st.column_config.NumberColumn("drop", format="percent", width=55),
                                     "at": st.column_config.DatetimeColumn("at (UTC)", format="MM-DD HH:mm",
                                                                           width=90),
                                     "message": st.column_config.TextColumn("message", width=320)})
            st.caption("Tick a flag to open that qubit on the Qubits page with its health report.")
            rows = list(event["selection"]["rows"])
            if rows and 0 <= rows[0] < len(frame):
                st.session_state[FLAGS_GENERATION_KEY] = generation + 1
                navigation.open_qubit(chip_id, str(frame.iloc[rows[0]]["qid"]))

        st.subheader(escape(f"Health of {chip_id}"))
        rows = data.health(chip_id)
        if rows:
            frame = health_frame(rows)
            st.dataframe(frame.drop(columns=["median", "unit", "kind"]), hide_index=True, key="overview_health",
                         column_config={"metric": st.column_config.TextColumn("metric", width=125),
                                        "coverage": st.column_config.TextColumn("count", width=60),
                                        "median_text": st.column_config.TextColumn("median", width=80),
                                        **{b: st.column_config.NumberColumn(safe_text(b), format="%d", width=70)
                                           for b in (*BANDS, "missing")}})
            st.caption("Latest values (qubit.data / coupling.data) scored against the thresholds; "
                       "missing = no usable value (dead, never measured, or NaN stored as 0).")
        else:
            widgets.no_data(f"No scored metric has data on {chip_id} yet.")
        st.subheader("Recent executions")
        runs = executions_frame(data.executions(chip_id, limit=10))
        if runs.empty:
            widgets.no_data(f"No executions recorded for {chip_id}.")
        else:
            st.dataframe(runs, hide_index=True, key="overview_runs", column_config={
                "started": st.column_config.DatetimeColumn("started (UTC)", format="MM-DD HH:mm", width=100),
                "ended": st.column_config.DatetimeColumn("ended (UTC)", format="MM-DD HH:mm", width=100),
                "minutes": st.column_config.NumberColumn("min", format="%.0f", width=45)})
