"""Run one chat turn on the page: the question, live progress in ``st.status``, the answer, then save.

Also gathers what a turn needs (repository, session store, issue-7 hooks) once per page run.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from typing import Any

import streamlit as st

from copilot_core.chat import ChatMessage, ChatState, ask, build_toolkit
from copilot_core.data.chat_sessions import ChatSessionStore
from copilot_core.settings import Settings
from ui.chat_render import StatusProgress, render_answer, render_user
from ui.chat_session import save_state

log = logging.getLogger(__name__)


OFF = ("off", "false", "0", "no")


@dataclass
class ChatResources:
    repo: Any = None  # CalibrationRepository, None when the database is unavailable
    sessions: ChatSessionStore | None = None
    db_error: Exception | None = None  # DatabaseUnavailable (its message is safe to show: password masked)
    extras: Any = None  # issue 7: copilot_core.turn.TurnExtras (skills, memory, tool cache, tracing)
    probe: bool = True  # issue 7: check the model's readiness before its first turn (COPILOT_READINESS=off skips)


@st.cache_resource(show_spinner=False)
def _turn_extras(key: str, _settings: Settings, _db: Any) -> Any:
    """Skills, memory and trace settings: loaded once per database target and process."""
    from copilot_core.turn import TurnExtras

    return TurnExtras.from_settings(_settings, _db)


@st.cache_resource(show_spinner=False)
def _sandbox_warming() -> threading.Thread:
    """Start the sandbox worker (a few seconds of imports) in the background, once per process."""
    from copilot_core.sandbox import warm_up

    def warm() -> None:
        try:
            warm_up()
        except Exception:  # noqa: BLE001 - the first analysis job then starts the worker itself
            log.warning("sandbox warm-up failed", exc_info=True)

    thread = threading.Thread(target=warm, name="sandbox-warm-up", daemon=True)
    thread.start()
    return thread


@st.cache_resource(show_spinner=False)
def _own_collections_indexed(key: str, _db: Any) -> bool:
    """Index the app's own collections (never QDash's) once per database target and process."""
    from copilot_core.data.memory_store import MemoryStore

    try:
        ChatSessionStore(_db).ensure_indexes()
        MemoryStore(_db).ensure_indexes()
    except Exception:  # noqa: BLE001 - a read-mostly database user may not create indexes; queries still work
        log.warning("cannot index copilot_chat_session / copilot_memory", exc_info=True)
        return False
    return True


def chat_resources(settings: Settings) -> ChatResources:
    """The app's cached repository, a session store on the same Database object, issue-7 extras (never raises)."""
    from copilot_core.data.connection import DatabaseUnavailable
    from ui.data import repository, target_key

    _sandbox_warming()
    try:
        repo = repository()
        repo.ping()
    except DatabaseUnavailable as exc:
        return ChatResources(db_error=exc)
    except Exception as exc:  # a broken configuration must not take the page down
        log.exception("cannot open the calibration database")
        return ChatResources(db_error=DatabaseUnavailable(f"the database cannot be opened ({type(exc).__name__})."))
    _own_collections_indexed(target_key(settings), repo.db)
    try:
        extras = _turn_extras(target_key(settings), settings, repo.db)
    except Exception:  # skills/memory are niceties: the chat works without them
        log.exception("copilot extras unavailable")
        extras = None
    probe = (settings.get("COPILOT_READINESS") or "on").lower() not in OFF
    return ChatResources(repo=repo, sessions=ChatSessionStore(repo.db), extras=extras, probe=probe)


def _allowed_tools(state: ChatState, res: ChatResources, status: Any) -> set[str] | None:
    """Which tools this model gets (issue 7's readiness probe, run once per provider and process)."""
    if not res.probe:
        return None
    from copilot_core.readiness import readiness_for

    status.update(label="Checking the model…")
    readiness = readiness_for(state.provider)
    if readiness.level != "full":
        status.caption(readiness.reason)
    return readiness.allowed_tools()


def _status_label(answer: ChatMessage) -> str:
    work = answer.work
    tools = len(work.tools) if work else 0
    rounds = (work.usage or {}).get("rounds", 0) if work else 0
    head = "Stopped with a problem" if answer.error else "Done"
    return f"{head}: {tools} tool call{'s' if tools != 1 else ''}, {rounds} round{'s' if rounds != 1 else ''}"


def run_turn(state: ChatState, text: str, res: ChatResources) -> None:
    """Ask, showing progress while the loop blocks; errors become messages, never tracebacks."""
    from copilot_core.agent.guardrails import check_input

    verdict = check_input(text)
    if not verdict.ok:
        st.error(verdict.message, icon=":material/block:")
        return
    with st.chat_message("user"):
        render_user(ChatMessage.user(verdict.text, verdict.flags))
    with st.chat_message("assistant"):
        with st.status("Thinking…", expanded=True) as status:
            try:
                allowed = _allowed_tools(state, res, status)
                toolkit = build_toolkit(res.repo, state.store, allowed=allowed)
                result = ask(state, verdict.text, repo=res.repo, toolkit=toolkit, listener=StatusProgress(status),
                             extras=res.extras)
            except Exception:  # the loop never raises by contract; keep the page alive if something else does
                log.exception("copilot turn failed")
                status.update(label="The copilot failed", state="error", expanded=False)
                st.error("The copilot failed unexpectedly. The error was logged; please try again.")
                return
            answer = result.answer
            if answer is None:  # input refused (already checked above; kept for safety)
                status.update(label="Not sent", state="error")
                st.error(result.notice or "The question was not sent.")
                return
            status.update(label=_status_label(answer), state="error" if answer.error else "complete",
                          expanded=False)
        render_answer(answer, len(state.messages) - 1, state)
    if warning := save_state(state, res.sessions):
        st.warning(warning)
