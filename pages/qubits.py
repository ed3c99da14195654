"""Qubits: every qubit with its latest key parameters (cells tinted by band); a selected qubit gets a
health report."""

import hashlib
from functools import partial

import streamlit as st

from copilot_core.analysis.qubit_table import (
    KEY_METRICS,
    band_column,
    filter_table,
    qubit_table,
    sort_table,
    value_column,
)
from copilot_core.charts.style import NO_VALUE, NO_VALUE_HELP
from copilot_core.domain.metrics import CATALOGUE, format_value
from copilot_core.domain.topology import qubit_label
from ui import data, figures, navigation, url_state, views, widgets
from copilot_core.render_safety import csv_bytes, escape, safe_markdown, safe_text
from ui.errors import page_guard
from ui.state import FOCUS_QUBIT_KEY
from ui.widgets import persistent_select

NO_QUBIT = "—"
LAST_ROW_KEY = "_qubits_last_row"
SHORT = {"qubit_frequency": "f01", "anharmonicity": "Anharm.", "t1": "T1", "t2_echo": "T2 echo", "t2_star": "T2*",
         "average_readout_fidelity": "Readout F", "x90_gate_fidelity": "X90 F", "x180_gate_fidelity": "X180 F"}

navigation.through_app()
st.title("Qubits")

with page_guard("the qubits table"):
    chip = widgets.chip_selector()
    if chip is not None:
        chip_id, size = chip["chip_id"], int(chip["size"])
        selected_key = f"qubits_selected_{chip_id}"
        focus = st.session_state.pop(FOCUS_QUBIT_KEY, None)  # sent by a drift flag or the heatmap
        if isinstance(focus, dict) and focus.get("chip_id") == chip_id:
            st.session_state[selected_key] = str(focus.get("qid"))

        f1, f2, f3 = st.columns([3, 2, 2], vertical_alignment="bottom")
        text = f1.text_input("Find qubit", key="qubits_find", placeholder="Q05, 5 or part of a label")
        only_bad = f2.checkbox("Only qubits with a bad metric", key="qubits_only_bad")
        window = f3.selectbox("Report window (days)", (3, 7, 14, 30), index=1, key="qubits_window")

        table = filter_table(qubit_table(chip, data.qubit_params(chip_id)), text=text, only_bad=only_bad)
        s1, s2 = st.columns([3, 4], vertical_alignment="bottom")
        sortable = ["qubit", *[value_column(CATALOGUE[n]) for n in KEY_METRICS if value_column(CATALOGUE[n]) in table]]
        sort_by = persistent_select("Sort by", sortable, "qubits_sort", default="qubit", param="sort", container=s1,
                                    help="Qubits with no usable value (dead, failed, never measured) stay last in "
                                         "both directions. A click on a column header sorts by value with a missing "
                                         "value below every number (first when ascending): the grid has no "
                                         "'missing last' option.")
        order = persistent_select("Order", ("ascending", "descending"), "qubits_order", param="order", container=s2,
                                  widget="radio", horizontal=True)
        table = sort_table(table, None if sort_by == "qubit" else sort_by, descending=order == "descending")
        if table.empty:
            widgets.no_data("No qubit matches these filters.")
        else:
            metrics = [CATALOGUE[n] for n in KEY_METRICS if value_column(CATALOGUE[n]) in table]
            config: dict = {"qid": None,
                            "qubit": st.column_config.TextColumn("qubit", width=64, pinned=True),
                            "bad metrics": st.column_config.NumberColumn("bad", width=48,
                                                                         help="Scored metrics in the bad band"),
                            "no valid value": st.column_config.TextColumn(
                                "invalid", width=54,
                                help="Metrics whose latest result was unusable (NaN, or stored as 0), since when"),
                            "last calibrated": st.column_config.DatetimeColumn("last calibrated (UTC)", width=120,
                                                                               help=safe_markdown(NO_VALUE_HELP))}
            bands = {}
            for m in metrics:
                unit = f" [{m.unit}]" if m.unit else ""
                config[value_column(m)] = st.column_config.NumberColumn(  # no format: the styler's text shows
                    safe_text(f"{SHORT.get(m.name, m.title)}{unit}"), width=92,
                    help=escape(f"{m.title}; cell colour = band ({m.threshold_text()}). {NO_VALUE_HELP}"))
                if band_column(m) in table:
                    bands[value_column(m)] = band_column(m)
                    config[band_column(m)] = None  # shown as the value cell's colour
            formats: dict = {value_column(m): partial(format_value, m, unit=False) for m in metrics}  # unit: header
            formats["last calibrated"] = lambda t: t.strftime("%m-%d %H:%M")
            formats["no valid value"] = str
            # a new key when the filters change, so a stale row index never selects another qubit
            view_key = hashlib.sha1(f"{chip_id}|{text}|{only_bad}".encode()).hexdigest()[:8]
            event = st.dataframe(views.band_cells(table, bands, formats), hide_index=True, placeholder=NO_VALUE,
                                 key=f"qubits_table_{view_key}", on_select="rerun", selection_mode="single-row",
                                 column_config=config, height=min(36 + 35 * len(table), 460))
            rows = list(event["selection"]["rows"])
            if rows and 0 <= rows[0] < len(table):
                pick = (view_key, str(table.iloc[rows[0]]["qid"]))
                if pick != st.session_state.get(LAST_ROW_KEY):  # the selection persists: act once per click
                    st.session_state[LAST_ROW_KEY] = pick
                    st.session_state[selected_key] = pick[1]
            st.caption(escape(f"{len(table)} of {size} qubits · latest values (qubit.data) in display units; cell "
                              "colour = band: red bad, orange fair, light green good, green excellent; — = no usable "
                              "value. Tick a row to see its health report below."))
            st.download_button("Download CSV", partial(csv_bytes, table), file_name=f"{chip_id}_qubits.csv",
                               mime="text/csv", on_click="ignore", key="qubits_csv", icon=":material/download:")

        st.divider()
        p1, p2 = st.columns([2, 3], vertical_alignment="bottom")
        qid = persistent_select("Qubit", [NO_QUBIT] + [str(q) for q in range(size)], selected_key,
                                default=NO_QUBIT, param="qubit", container=p1,
                                format_func=lambda q: q if q == NO_QUBIT else qubit_label(q, size),
                                to_url=lambda q: "" if q == NO_QUBIT else q, normalize=url_state.qubit_token)
        if qid == NO_QUBIT:
            st.info("Select a row in the table (or a qubit above) to see its health report.",
                    icon=":material/touch_app:")
        else:
            problem = navigation.copilot_problem()
            with p2:
                if st.button("Analyze with copilot", key="qubits_analyze", type="primary", disabled=problem is not None,
                             icon=":material/smart_toy:", help=escape(problem) if problem else None):
                    navigation.analyze_with_copilot(chip_id, qid)
            if problem:
                st.caption(escape(problem))
            report = data.cached_qubit_health(chip_id, qid, window_days=window)
            views.health_report(report)
            figures.latest_figures(chip_id, qid, "qubit_figure", views.flagged_metrics(report))
