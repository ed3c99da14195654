"""Copilot: chat about the calibration data, with live tool progress, native charts and show-work.

Layout only: the chat logic is in ``copilot_core.chat``, the Streamlit glue in ``ui/chat_*``.
"""

from __future__ import annotations

import streamlit as st

from ui import data
from ui.chat_render import SETUP_HELP, render_history, render_starters
from ui.chat_session import chat_state, provider_for, take_handoff, target_label
from ui.chat_sidebar import render_analysis_target, render_exports, render_provider, render_sessions
from ui.chat_turn import chat_resources, finish_previous_turn, run_turn
from ui import navigation
from copilot_core.render_safety import escape, safe_markdown
from ui.errors import page_guard, show_error

navigation.through_app()
st.title("Copilot")
with page_guard("the copilot page"):
    settings = data.settings()
    state = chat_state(settings)
    take_handoff(state)
    _, provider_problem = provider_for(settings)
    resources = chat_resources(settings)

    with st.sidebar:
        render_provider(state, provider_problem)
        render_analysis_target(state)

    if state.mode == "analysis" and state.chip_id and state.qid:
        st.caption(escape(f"Analysis of {target_label(state)} on chip {state.chip_id}. Ask follow-ups below."))
    else:
        st.caption("Ask about chips, qubits, trends and calibration history. Every answer shows its work.")
    if state.provider is None:
        st.info(safe_markdown(SETUP_HELP), icon=":material/key:")
    if resources.db_error is not None:
        show_error(resources.db_error)

    finish_previous_turn()
    render_history(state)

    ready = state.provider is not None and resources.repo is not None
    starters = st.empty()  # always one element here, so the chat below keeps its place from one run to the next
    if ready and not state.messages and state.pending is None:
        with starters.container():
            render_starters(state, state.chip_id or next((c["chip_id"] for c in data.chips()), None))
    prompt = st.chat_input("Ask about the calibration data…", key="copilot_input", disabled=not ready,
                           submit_mode="disable")  # a running turn has its own Stop button
    request = prompt or (state.take_pending() if ready else None)  # analysis mode: the first request runs by itself
    if request:
        run_turn(state, request, resources)

    with st.sidebar:
        render_sessions(state, resources.sessions)
        render_exports(state)
