"""Moving between pages with context: open a qubit on the Qubits page, hand a qubit to the copilot."""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager

from ui.state import CHIP_KEY, FOCUS_QUBIT_KEY

QUBITS_PAGE = "pages/qubits.py"
COPILOT_PAGE = "pages/copilot.py"
COPILOT_ANALYSIS_KEY = "copilot_analysis"


def through_app() -> None:
    """Call first in every page: make sure ``app.py`` (page setup, titled navigation) runs around it.

    A deep link (``/heatmap``) as the very first request of a fresh server runs the page file on its own,
    because Streamlit treats a ``pages/`` folder next to the entry point as the legacy multipage layout
    until ``st.navigation`` has run once: the sidebar then lists file names and the layout is narrow.
    Switching that mode off and rerunning sends the same URL through ``app.py``.  Only a browser session
    (it has request headers) needs this; AppTest sessions keep Streamlit's own behaviour."""
    if PagesManager.uses_pages_directory and st.context.headers:
        PagesManager.uses_pages_directory = False
        st.rerun()


def copilot_problem() -> str | None:
    """Why the copilot cannot analyse a qubit right now (shown beside the disabled button), or None."""
    from copilot_core.agent import provider_from_settings
    from copilot_core.errors import user_message
    from copilot_core.settings import ConfigError, current_settings

    try:
        provider = provider_from_settings(current_settings())
    except ConfigError as exc:
        return user_message(exc)
    if provider is None:
        return ("No language model is configured, so the copilot cannot analyse this qubit. Set OPENAI_API_KEY "
                "(or OPENAI_BASE_URL for a self-hosted server), or run `make local-llm` for a small offline model, "
                "then restart the app.")
    return None


def open_qubit(chip_id: str, qid: str) -> None:
    """Show one qubit on the Qubits page (its row selected, its health report open)."""
    st.session_state[CHIP_KEY] = chip_id
    st.session_state[FOCUS_QUBIT_KEY] = {"chip_id": chip_id, "qid": str(qid)}
    st.switch_page(QUBITS_PAGE)


def analyze_with_copilot(chip_id: str, qid: str) -> None:
    """Open the copilot page in analysis mode for one qubit (call once per click: from ``if st.button``)."""
    st.session_state[COPILOT_ANALYSIS_KEY] = {"chip_id": chip_id, "qid": str(qid)}
    st.switch_page(COPILOT_PAGE)
