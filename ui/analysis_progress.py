"""Turn progress for the one-click qubit analysis: the qubit's report is drawn the moment it exists, above the
status, while the model writes its review (the final answer then redraws it as its first block)."""

from __future__ import annotations

from typing import Any

import streamlit as st

from copilot_core.chat import ChatState
from copilot_core.render_safety import safe_markdown
from ui.chat_render import StatusProgress


class ReportFirst(StatusProgress):
    """A ``StatusProgress`` that is also a ``ReportListener``: the report goes into ``slot`` at once."""

    def __init__(self, status: Any, slot: Any) -> None:
        super().__init__(status)
        self.slot = slot

    def report(self, markdown: str) -> None:
        with self.slot.container():
            st.markdown(safe_markdown(markdown))
            st.caption("The model's review of this report follows.")


def turn_progress(state: ChatState, status: Any, slot: Any) -> StatusProgress:
    """The listener for a turn: the report-first one for the analysis of a qubit."""
    return ReportFirst(status, slot) if state.mode == "analysis" else StatusProgress(status)
