"""Calibration Copilot: Streamlit entry point (navigation only)."""

import streamlit as st

# An emoji favicon is drawn locally; a ":material/...:" favicon is fetched from fonts.gstatic.com.
st.set_page_config(page_title="Calibration Copilot", page_icon="🔬", layout="wide")

from ui.signin import sign_in_gate  # noqa: E402  (after set_page_config)

sign_in_gate()  # stops here unless the visitor may see the app

pages = {
    "Dashboard": [
        st.Page("pages/overview.py", title="Overview", icon=":material/dashboard:", default=True),
        st.Page("pages/heatmap.py", title="Chip heatmap", icon=":material/grid_on:"),
        st.Page("pages/timeseries.py", title="Timeseries", icon=":material/show_chart:"),
        st.Page("pages/qubits.py", title="Qubits", icon=":material/table_rows:"),
    ],
    "Copilot": [
        st.Page("pages/copilot.py", title="Copilot", icon=":material/smart_toy:"),
        st.Page("pages/memory.py", title="Copilot memory", icon=":material/psychology:"),
    ],
}
st.navigation(pages, position="sidebar").run()
