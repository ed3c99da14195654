"""Run one chat turn on the page: the question, live progress in ``st.status``, the answer, then save.

Also gathers what a turn needs (repository, session store, the turn service) once per page run.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from typing import Any

import streamlit as st

from copilot_core.chat import ChatMessage, ChatState
from copilot_core.data.chat_sessions import ChatSessionStore
from copilot_core.data.connection import DatabaseUnavailable
from copilot_core.data.repository import CalibrationRepository
from copilot_core.session import Copilot
from copilot_core.settings import Settings
from ui.analysis_progress import turn_progress
from ui.chat_render import render_answer, render_user
from ui.chat_session import save_state

log = logging.getLogger(__name__)


@dataclass
class ChatResources:
    repo: CalibrationRepository | None = None  # None when the database is unavailable
    sessions: ChatSessionStore | None = None
    db_error: DatabaseUnavailable | None = None  # its message is safe to show (password masked)
    copilot: Copilot | None = None  # the turn service


@st.cache_resource(show_spinner=False)
def _copilot(key: str, settings_id: int, _settings: Settings, _repo: CalibrationRepository) -> Copilot:
    """The turn service (skills, memory, sandbox, readiness gating): built once per database target, settings and
    process.  Skills and memory are niceties: if they cannot be loaded the chat works without them."""
    try:
        return Copilot.from_settings(_settings, _repo)
    except Exception:  # noqa: BLE001
        log.exception("copilot skills/memory unavailable")
        from copilot_core.sandbox import run_analysis
        from copilot_core.session import switched_on
        from copilot_core.skills import SkillLibrary

        return Copilot(_repo, settings=_settings, skills=SkillLibrary({}), sandbox=run_analysis,
                       gate=switched_on(_settings, "COPILOT_READINESS"))


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
    """The app's cached repository, a session store on the same Database object, the turn service (never raises)."""
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
    return ChatResources(repo=repo, sessions=ChatSessionStore(repo.db),
                         copilot=_copilot(target_key(settings), id(settings), settings, repo))


def _status_label(answer: ChatMessage) -> str:
    work = answer.work
    tools = len(work.tools) if work else 0
    rounds = (work.usage or {}).get("rounds", 0) if work else 0
    head = "Stopped with a problem" if answer.error else "Done"
    return f"{head}: {tools} tool call{'s' if tools != 1 else ''}, {rounds} round{'s' if rounds != 1 else ''}"


def run_turn(state: ChatState, text: str, res: ChatResources) -> None:
    """Ask, showing progress while the loop blocks; errors become messages, never tracebacks."""
    if res.copilot is None:
        return
    verdict = res.copilot.check(text)
    if not verdict.ok:
        st.error(verdict.message, icon=":material/block:")
        return
    with st.chat_message("user"):
        render_user(ChatMessage.user(verdict.text, verdict.flags))
    with st.chat_message("assistant"):
        early = st.empty()  # the analysis of a qubit draws its report here before the model answers
        with st.status("Thinking…", expanded=True) as status:
            try:
                result = res.copilot.ask(state, verdict, turn_progress(state, status, early))
            except Exception:  # the turn never raises by contract; keep the page alive if something else does
                log.exception("copilot turn failed")
                status.update(label="The copilot failed", state="error", expanded=False)
                st.error("The copilot failed unexpectedly. The error was logged; please try again.")
                return
            answer = result.answer
            if answer is None:
                status.update(label="Not sent", state="error")
                st.error(result.notice or "The question was not sent.")
                return
            status.update(label=_status_label(answer), state="error" if answer.error else "complete",
                          expanded=False)
        early.empty()
        render_answer(answer, len(state.messages) - 1, state)
    if warning := save_state(state, res.sessions):
        st.warning(warning)
