"""Run one chat turn on the page: the question, live progress in ``st.status``, the answer (the turn's worker
saves the chat; the page says when that failed).

Also gathers what a turn needs (repository, session store, the turn service) once per page run.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import streamlit as st

from copilot_core.chat import ChatMessage, ChatState
from copilot_core.chat.background import BackgroundTurn
from copilot_core.data.chat_sessions import ChatSessionStore
from copilot_core.data.connection import DatabaseUnavailable
from copilot_core.data.engine import Database
from copilot_core.data.repository import CalibrationRepository
from copilot_core.render_safety import escape, safe_label
from copilot_core.session import Copilot, TurnResult
from copilot_core.settings import Settings
from ui.analysis_progress import turn_progress
from ui.chat_render import render_answer, render_user, show_events, turn_slots
from ui.chat_session import save_failure

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
def _own_collections_indexed(key: str, _db: Database) -> bool:
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
    from copilot_core.sandbox.host import weaker_mode_notice

    if notice := weaker_mode_notice():  # an operator allowed a weaker sandbox: the person sees it
        st.caption(escape(notice))
    try:
        repo = repository()
        repo.ping()
    except DatabaseUnavailable as exc:
        return ChatResources(db_error=exc)
    except Exception as exc:  # a broken configuration must not take the page down
        log.exception("cannot open the calibration database")
        return ChatResources(db_error=DatabaseUnavailable(f"the database cannot be opened ({type(exc).__name__})."))
    _own_collections_indexed(target_key(settings), repo.db)
    copilot = _copilot(target_key(settings), id(settings), settings, repo)
    if copilot.gate:  # the model's readiness, probed in the background at start-up: the first question need not wait
        from copilot_core.readiness import start_probe
        from ui.chat_session import provider_for

        provider, _ = provider_for(settings)
        if provider is not None:
            start_probe(provider)
    return ChatResources(repo=repo, sessions=ChatSessionStore(repo.db), copilot=copilot)


TURN_KEY = "copilot_turn"  # the running (or last) BackgroundTurn of this browser session
STOP_KEY = "copilot_stop"  # the Stop button every running turn shows, however it was started
STOP_GRACE_S = 5.0  # how long a stop waits for the model stream and a sandbox job to close before the run ends
STOP_CLOSE_S = 60.0  # then how long the next page run waits for it, so the stopped turn is drawn with the history


def _status_label(answer: ChatMessage) -> str:
    work = answer.work
    tools = len(work.tools) if work else 0
    rounds = (work.usage or {}).get("rounds", 0) if work else 0
    head = "Stopped" if answer.stopped else ("Stopped with a problem" if answer.error else "Done")
    return f"{head}: {tools} tool call{'s' if tools != 1 else ''}, {rounds} round{'s' if rounds != 1 else ''}"


def _stop_check() -> Callable[[], None]:
    """Raises Streamlit's stop (the chat input's stop button) or rerun; called between page updates."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    return ctx.yield_check if ctx is not None else (lambda: None)


def _stop_clicked() -> None:
    """The turn's Stop button: cancel the running turn now; the click's rerun then redraws the chat from its
    history, so the stopped answer shows its mark at once."""
    turn = st.session_state.get(TURN_KEY)
    if isinstance(turn, BackgroundTurn):
        turn.cancel.cancel()


def finish_previous_turn() -> None:
    """A turn stopped in an earlier page run may still be closing its stream: let it end before the history is
    drawn, so its question and stopped answer show (bounded: a stuck provider holds the page a minute at most)."""
    turn = st.session_state.get(TURN_KEY)
    if not isinstance(turn, BackgroundTurn) or not turn.running or turn.wait(STOP_GRACE_S):
        return
    with st.spinner("Closing the stopped answer…"):  # a loaded machine: the question and its mark come with it
        if turn.wait(STOP_CLOSE_S):
            return
    st.warning("The stopped answer is still closing; it shows when the page next updates.", icon=":material/schedule:")


def run_turn(state: ChatState, text: str, res: ChatResources) -> None:
    """Ask on a worker thread, showing progress and the answer as it is written; the chat input's stop button
    cancels the turn (what was shown is kept, marked stopped, and saved).  Errors become messages, never
    tracebacks."""
    copilot = res.copilot
    if copilot is None:
        return
    verdict = copilot.check(text)
    if not verdict.ok:
        st.error(escape(verdict.message), icon=":material/block:")
        return
    with st.chat_message("user"):
        render_user(ChatMessage.user(verdict.text, verdict.flags))
    with st.chat_message("assistant"):
        slots = turn_slots()
        slots.stop.button("Stop", key=STOP_KEY, icon=":material/stop_circle:", on_click=_stop_clicked,
                          help="Stop this answer: what was shown so far is kept, marked stopped.")
        early = slots.early  # the analysis of a qubit draws its report here before the model answers
        with slots.status.status("Thinking…", expanded=True) as status:
            progress = turn_progress(state, status, early)
        draft = slots.draft
        turn: BackgroundTurn[TurnResult] = BackgroundTurn(partial(copilot.ask, state, verdict, clarify=True),
                                                          state, res.sessions)  # the worker saves the chat
        st.session_state[TURN_KEY] = turn
        turn.start()
        try:
            result = turn.pump(lambda events: show_events(events, progress, draft), _stop_check())
        except Exception:  # the turn never raises by contract; keep the page alive if something else does
            log.exception("copilot turn failed")
            status.update(label="The copilot failed", state="error", expanded=False)
            st.error(escape("The copilot failed unexpectedly. The error was logged; please try again."))
            return
        except BaseException:  # Streamlit's stop (the stop button) or a rerun: end the turn, keep what it showed
            turn.stop(STOP_GRACE_S)
            raise
        slots.stop.empty()
        answer = result.answer if result is not None else None
        if answer is None:
            status.update(label="Not sent", state="error")
            st.error(escape((result.notice if result is not None else None) or "The question was not sent."))
            return
        status.update(label=safe_label(_status_label(answer)), state="error" if answer.error and not answer.stopped
                      else "complete", expanded=False)
        draft.empty()
        early.empty()
        render_answer(answer, len(state.messages) - 1, state)
    if turn.save_failure is not None:
        st.warning(escape(save_failure(turn.save_failure)))
