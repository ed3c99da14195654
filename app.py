"""Calibration Copilot: Streamlit entry point (navigation only)."""

from pathlib import Path

import streamlit as st

from ui.data import settings_reload_button, wait_for_store
from ui import shutdown  # noqa: F401  (the process stops without walking its heap at exit)

# A local favicon: an icon name or emoji makes the browser fetch it from a font or CDN host (not offline-safe).
ASSETS = Path(__file__).parent / "assets"
ICON = ASSETS / "favicon.png"
st.set_page_config(page_title="Calibration Copilot", page_icon=str(ICON), layout="wide")
st.html(ASSETS / "charts.css")  # the project's own style sheet: whole-pixel chart widths (each chart drawn once)

from ui.signin import sign_in_gate  # noqa: E402  (after set_page_config)

sign_in_gate()  # stops here unless the visitor may see the app

pages = {
    "Dashboard": [
        st.Page("pages/overview.py", title="Overview", icon=":material/dashboard:", default=True),
        st.Page("pages/heatmap.py", title="Chip heatmap", icon=":material/grid_on:"),
        st.Page("pages/timeseries.py", title="Timeseries", icon=":material/show_chart:"),
        st.Page("pages/qubits.py", title="Qubits", icon=":material/table_rows:"),
        st.Page("pages/compare.py", title="What changed", icon=":material/compare_arrows:"),
    ],
    "Copilot": [
        st.Page("pages/copilot.py", title="Copilot", icon=":material/smart_toy:"),
        st.Page("pages/memory.py", title="Copilot memory", icon=":material/psychology:"),
    ],
}
page = st.navigation(pages, position="sidebar")
settings_reload_button()
wait_for_store()  # a progress bar instead of a blank page while the embedded store is indexed
page.run()
