"""Moving between pages with context: open a qubit on the Qubits page, hand a qubit to the copilot."""

from __future__ import annotations

import streamlit as st

from ui.state import CHIP_KEY, FOCUS_QUBIT_KEY

QUBITS_PAGE = "pages/qubits.py"
COPILOT_PAGE = "pages/copilot.py"
COPILOT_ANALYSIS_KEY = "copilot_analysis"


def open_qubit(chip_id: str, qid: str) -> None:
    """Show one qubit on the Qubits page (its row selected, its health report open)."""
    st.session_state[CHIP_KEY] = chip_id
    st.session_state[FOCUS_QUBIT_KEY] = {"chip_id": chip_id, "qid": str(qid)}
    st.switch_page(QUBITS_PAGE)


def analyze_with_copilot(chip_id: str, qid: str) -> None:
    """Open the copilot page in analysis mode for one qubit (call once per click: from ``if st.button``)."""
    st.session_state[COPILOT_ANALYSIS_KEY] = {"chip_id": chip_id, "qid": str(qid)}
    st.switch_page(COPILOT_PAGE)
