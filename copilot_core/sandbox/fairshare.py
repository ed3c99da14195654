"""Who may run a sandbox job now: one running job per chat session, a bounded wait for a slot.

A session holds at most one job.  Jobs run on the cores (``slots``) plus a *reserve* of further slots, so a
session's job starts at once even while as many other sessions as there are cores (and the reserve more) each
loop: the worker lowers the CPU priority of every job that has run a second (``zygote.LONG_JOB_NICE``), so
a job that just started gets most of a core next to them.  The reserve is bounded (each job may use its
memory headroom), so only more looping sessions than slots make a new one wait; a job that cannot start
within ``wait_s`` is not run: the caller says "sandbox busy" and how long it waited.
"""

from __future__ import annotations

import contextlib
import contextvars
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

_session: contextvars.ContextVar[str | None] = contextvars.ContextVar("sandbox_session", default=None)


class SandboxBusy(Exception):
    """No slot within the wait; ``str()`` is the message for the model and the person."""

    def __init__(self, message: str, waited_s: float) -> None:
        super().__init__(message)
        self.waited_s = waited_s


@contextlib.contextmanager
def session_scope(key: str) -> Iterator[None]:
    """Jobs started inside count against chat session ``key`` (callers that know their session)."""
    token = _session.set(str(key))
    try:
        yield
    finally:
        _session.reset(token)


def current_session() -> str:
    """The chat session a job belongs to: ``session_scope``, else Streamlit's session, else the thread."""
    key = _session.get()
    if key:
        return key
    if "streamlit" in sys.modules:  # never import Streamlit here (the CLI and the worker do not need it)
        try:
            from streamlit.runtime.scriptrunner import get_script_run_ctx

            ctx = get_script_run_ctx(suppress_warning=True)
        except Exception:  # noqa: BLE001 - no Streamlit runtime: fall back to the thread
            ctx = None
        if ctx is not None and getattr(ctx, "session_id", None):
            return f"streamlit:{ctx.session_id}"
    return f"thread:{threading.get_ident()}"


@dataclass
class _Turn:
    lock: threading.Lock
    users: int = 0


class FairShare:
    """``slots + reserve`` jobs at once, at most one per session; ``admit`` waits at most ``wait_s`` for both."""

    def __init__(self, slots: int, reserve: int = 0) -> None:
        self.slots = slots + reserve
        self._free = threading.BoundedSemaphore(self.slots)
        self._turns: dict[str, _Turn] = {}
        self._turns_lock = threading.Lock()

    @contextlib.contextmanager
    def admit(self, session: str, wait_s: float) -> Iterator[float]:
        """Hold this session's turn and a slot while the body runs; yields the seconds waited, or SandboxBusy."""
        started = time.monotonic()
        with self._turns_lock:
            turn = self._turns.setdefault(session, _Turn(threading.Lock()))
            turn.users += 1
        try:
            if not turn.lock.acquire(timeout=max(0.0, wait_s)):
                waited = time.monotonic() - started
                raise SandboxBusy(f"Sandbox busy: this chat's previous analysis job is still running; waited "
                                  f"{waited:.1f} s. Wait for it to finish (or simplify it) and try again.", waited)
            try:
                if not self._free.acquire(timeout=max(0.0, wait_s - (time.monotonic() - started))):
                    waited = time.monotonic() - started
                    raise SandboxBusy(f"Sandbox busy: all {self.slots} job slots are taken by other chats; waited "
                                      f"{waited:.1f} s. Try again in a moment.", waited)
                try:
                    yield time.monotonic() - started
                finally:
                    self._free.release()
            finally:
                turn.lock.release()
        finally:
            with self._turns_lock:
                turn.users -= 1
                if not turn.users:
                    self._turns.pop(session, None)

    def running_sessions(self) -> int:
        """Sessions with a job running or waiting (for the status view)."""
        with self._turns_lock:
            return len(self._turns)
