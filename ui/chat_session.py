"""Per-browser-session chat state for the Copilot page, the user's name, and what the page says
when the chat could not be saved.

``st.session_state`` is per browser session, so each session gets its own ChatState (messages, data store,
provider): one session never sees another's data.
"""

from __future__ import annotations

import re

import streamlit as st

from copilot_core.llm.provider import ProviderConfig
from copilot_core.chat import ChatState, analysis_request
from copilot_core.data.chat_sessions import InvalidChatSession, clean_context
from copilot_core.errors import user_message
from copilot_core.settings import ConfigError, Settings

STATE_KEY = "copilot_chat"
HANDOFF_KEY = "copilot_analysis"  # set by the Qubits page's "Analyze with copilot" button
_NAME = re.compile(r"[^A-Za-z0-9_.@+-]")


def current_username(settings: Settings) -> str:
    """Who owns this browser's chats: the signed-in user's stable id when sign-in is on (the gate in
    ``app.py`` lets nobody else through), else the USERNAME setting, else "local"."""
    from ui.signin import sign_in_enabled, signed_in_user

    if sign_in_enabled():
        user = signed_in_user()
        if user is None:
            raise PermissionError("sign-in is required")
        return user.owner
    name = settings.get("USERNAME") or "local"
    return _NAME.sub("_", str(name))[:128] or "local"


def provider_for(settings: Settings) -> tuple[ProviderConfig | None, str | None]:
    """(ProviderConfig or None, a configuration problem to show or None)."""
    from copilot_core.agent import provider_from_settings

    try:
        return provider_from_settings(settings), None
    except ConfigError as exc:
        return None, user_message(exc)


def chat_state(settings: Settings) -> ChatState:
    """This browser session's chat (created on first use, with the configured provider)."""
    state = st.session_state.get(STATE_KEY)
    username = current_username(settings)
    if not isinstance(state, ChatState) or state.username != username:  # a different user signed in here
        provider, _ = provider_for(settings)
        state = ChatState(username=username, provider=provider)
        st.session_state[STATE_KEY] = state
    return state


def take_handoff(state: ChatState) -> bool:
    """Start analysis mode when the Qubits page handed over a chip and qubit; True when it did."""
    handoff = st.session_state.pop(HANDOFF_KEY, None)
    if not isinstance(handoff, dict):
        return False
    target = clean_context(handoff)
    chip_id, qid = target["chip_id"], target["qid"]
    if not (chip_id and qid):
        return False
    size = _chip_size(chip_id)
    state.start_analysis(chip_id, qid, analysis_request(chip_id, qid, size), size)
    return True


def _chip_size(chip_id: str) -> int:
    """The chip's qubit count for labels; 0 (two-digit labels) when it cannot be read."""
    from ui import data

    try:
        chip = data.chip(chip_id)
        return int(chip["size"]) if chip else 0
    except Exception:  # the label is cosmetic: never fail the page for it
        return 0


def target_label(state: ChatState) -> str:
    """The analysed qubit as the dashboard labels it (``Q05`` on 64 qubits, ``Q005`` on 144)."""
    from copilot_core.domain.topology import qubit_label

    try:
        return qubit_label(state.qid or 0, _chip_size(state.chip_id or ""))
    except ValueError:  # not a qubit id: shown as stored
        return str(state.qid)


def save_failure(exc: Exception) -> str:
    """What the page says when the chat could not be stored (the chat itself goes on): the store's own reason for
    a chat it refuses, the error's kind for a database failure, never a traceback."""
    if isinstance(exc, InvalidChatSession):
        return f"This chat could not be saved: {exc}"
    return f"This chat could not be saved to the database ({type(exc).__name__})."
