"""Chip heatmap: one metric on the topology, its distribution, and two tabs below: a click-to-drill-down into a
qubit and the couplings' map.  Only the open tab is built and drawn (a tab click reruns the page)."""

from functools import partial

import streamlit as st

from copilot_core.analysis.chip_metrics import Mode, chip_metric_frame, chip_topology
from copilot_core.charts.distribution import distribution_figure
from copilot_core.charts.heatmap import ColorBy, coupling_map, qubit_heatmap
from copilot_core.domain.topology import Topology, qubit_label
from ui import data, navigation, plot, url_state, views, widgets
from copilot_core.render_safety import csv_bytes, escape, safe_label
from ui.errors import page_guard
from ui.widgets import persistent_select

DRILL_KEY = "heatmap_drill_qid"
LAST_CLICK_KEY = "_heatmap_last_click"
NO_QUBIT = "—"
SECTION_KEY = "heatmap_section"
DRILL_TAB = "Qubit drill-down"  # the first tab's label: a click on a cell opens it


def qubit_drilldown(chip: dict, metric_name: str) -> None:
    """The first tab: pick a qubit (or click its cell) for its values, the metric's history and its tasks."""
    chip_id, size = chip["chip_id"], int(chip["size"])
    options = [NO_QUBIT] + [str(q) for q in range(size)]
    qid = persistent_select("Qubit", options, DRILL_KEY, default=NO_QUBIT, param="qubit",
                            format_func=lambda q: q if q == NO_QUBIT else qubit_label(q, size),
                            to_url=lambda q: "" if q == NO_QUBIT else q, normalize=url_state.qubit_token)
    if qid != NO_QUBIT:
        if st.button(safe_label(f"Open {qubit_label(qid, size)} on the Qubits page"), key="heatmap_open_qubit",
                     icon=":material/open_in_new:"):
            navigation.open_qubit(chip_id, qid)
        views.drilldown(chip, qid, metric_name)


def couplings(chip_id: str, topology: Topology, mode: Mode, hours: float | None, color_by: ColorBy) -> None:
    """The second tab: a coupling metric on the topology's edges, with the heatmap's mode, window and colouring."""
    picker, _ = st.columns(2)  # the picker at half the width
    coupling_name = persistent_select("Coupling metric",
                                      widgets.metric_options(chip_id, kind="coupling", catalogue_only=True),
                                      "heatmap_coupling_metric", format_func=widgets.metric_label, container=picker)
    ccm = data.cached_chip_metric(chip_id, coupling_name, mode=mode, within_hours=hours)
    if ccm.stats["count"] == 0:
        widgets.no_data(f"No {ccm.metric.title} data on the couplings of {chip_id} for mode '{mode}'.")
        return
    views.stat_cards(ccm)
    plot.chart(coupling_map(ccm, topology, color_by=color_by), key="coupling_chart",
               config={"displayModeBar": False})
    st.download_button("Download coupling CSV", partial(csv_bytes, chip_metric_frame(ccm)),
                       file_name=f"{chip_id}_{coupling_name}_{mode}.csv", mime="text/csv",
                       on_click="ignore", key="coupling_csv", icon=":material/download:")


navigation.through_app()
st.title("Chip heatmap")

with page_guard("the chip heatmap"):
    chip = widgets.chip_selector()
    topology = chip_topology(chip) if chip else None
    if chip is not None and topology is None:
        widgets.no_data(f"Chip {chip['chip_id']} has a layout this app cannot draw ({chip.get('topology_id')}).")
    elif chip is not None:
        chip_id = chip["chip_id"]
        c1, c2, c3, c4, c5 = st.columns([3, 3, 2, 2, 2])
        metric_name = persistent_select("Metric", widgets.metric_options(chip_id), "heatmap_metric", default="t1",
                                        format_func=widgets.metric_label, container=c1, param="metric")
        mode = widgets.mode_selector("heatmap_mode", container=c2)
        hours = widgets.window_selector("heatmap_window", container=c3)
        color_by = persistent_select("Colour by", ("value", "band"), "heatmap_color_by", param="colour",
                                     widget="radio", horizontal=True, container=c4)
        dist_kind = c5.radio("Distribution", ("cdf", "histogram"), horizontal=True, key="heatmap_dist",
                             format_func=lambda k: safe_label(k.upper() if k == "cdf" else k))

        cm = data.cached_chip_metric(chip_id, metric_name, mode=mode, within_hours=hours)
        if cm.stats["count"] == 0:
            widgets.no_data(f"No {cm.metric.title} data on {chip_id} for mode '{mode}'"
                            f"{'' if hours is None else f' in {cm.window}'}. Try another metric or a "
                            "wider window.")
        else:
            views.stat_cards(cm)
            left, right = st.columns([2, 1])
            with left:
                event = plot.chart(qubit_heatmap(cm, topology, color_by=color_by), key="heatmap_chart",
                                    on_select="rerun", selection_mode="points",
                                    config={"displayModeBar": False})
                clicked = views.clicked_id(event)
                if clicked is not None and clicked != st.session_state.get(LAST_CLICK_KEY):
                    st.session_state[LAST_CLICK_KEY] = clicked  # act once per click: the selection persists
                    st.session_state[DRILL_KEY] = clicked
                    st.session_state[SECTION_KEY] = DRILL_TAB
                st.caption(escape(f"{cm.mode.capitalize()}, {cm.window}. Click a qubit to open its drill-down "
                                  "below. Grey cells: no usable value."
                                  + "".join(f" {cm.label(i)}: {cm.missing_reason(i)}." for i in cm.missing_since)))
            with right:
                plot.chart(distribution_figure(cm, dist_kind), key="heatmap_distribution")
            st.download_button("Download CSV", partial(csv_bytes, chip_metric_frame(cm)),
                               file_name=f"{chip_id}_{metric_name}_{mode}.csv", mime="text/csv",
                               on_click="ignore", key="heatmap_csv", icon=":material/download:")

        st.divider()
        drill_tab, couplings_tab = st.tabs(["Qubit drill-down", "Couplings"], key=SECTION_KEY, on_change="rerun")
        if drill_tab.open:  # the closed tab's charts are neither built nor sent: a tab click draws them
            with drill_tab:
                qubit_drilldown(chip, metric_name)
        if couplings_tab.open:
            with couplings_tab:
                couplings(chip_id, topology, mode, hours, color_by)
