"""Who may run a sandbox job now: one running job per chat session, a bounded wait for a slot.

A session holds at most one job.  Jobs run on the cores (``slots``) plus a *reserve* of further slots, so a
session's job starts at once even while as many other sessions as there are cores (and the reserve more) each
loop: the worker lowers the CPU priority of every job that has run a second (``zygote.LONG_JOB_NICE``), so
a job that just started gets most of a core next to them.  When every slot is taken for ``PREEMPT_AFTER_S``,
the newcomer *borrows* the slot of the job that has run longest (at least ``zygote.LONG_JOB_S``): that job is
paused (``SIGSTOP``) until the newcomer's job ends, then continues.  At most ``slots`` jobs are paused at once
(a paused job keeps its memory, so the bound is twice the slots), so a new session's first job starts within a
fraction of a second however many sessions loop, up to twice the slots of them; a job that still cannot start
within ``wait_s`` is not run: the caller says "sandbox busy" and how long it waited.
"""

from __future__ import annotations

import contextlib
import contextvars
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

PREEMPT_AFTER_S = 0.25  # a job that finds every slot taken this long borrows the longest runner's slot
PAUSABLE_AFTER_S = 1.0  # only a job that has run this long is paused for a newcomer (zygote.LONG_JOB_S)
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


class Admission:
    """A job's place in the sandbox: how long it waited, and once the job is sent (``running``) how the share
    pauses and continues it when a newcomer borrows its slot."""

    __slots__ = ("waited_s", "since", "paused", "ended", "owns_slot", "lender", "borrower", "_control")

    def __init__(self, waited_s: float, owns_slot: bool, lender: Admission | None) -> None:
        self.waited_s = waited_s
        self.since = time.monotonic()
        self.paused = False
        self.ended = False
        self.owns_slot = owns_slot  # holds one of the semaphore's slots (its own, or passed on by an ended lender)
        self.lender = lender  # the paused job whose slot this one runs on
        self.borrower: Admission | None = None
        self._control: tuple[Callable[[], None], Callable[[], None]] | None = None

    def running(self, pause: Callable[[], None], resume: Callable[[], None]) -> None:
        """The job was sent: these pause and continue it (the worker's ``SIGSTOP``/``SIGCONT``)."""
        self._control = (pause, resume)


class FairShare:
    """``slots + reserve`` jobs at once, at most one per session, and as many borrowed slots (paused runners) again;
    ``admit`` waits at most ``wait_s`` for both."""

    def __init__(self, slots: int, reserve: int = 0, preempt: bool = True) -> None:
        self.slots = slots + reserve
        self.preempt = preempt
        self._free = threading.BoundedSemaphore(self.slots)
        self._turns: dict[str, _Turn] = {}
        self._turns_lock = threading.Lock()
        self._runs: list[Admission] = []
        self._runs_lock = threading.Lock()

    def _borrow(self, waited_s: float) -> Admission | None:
        """Pause the job that has run longest (at least ``PAUSABLE_AFTER_S``) and admit a newcomer on its slot;
        None if no job may be paused."""
        now = time.monotonic()
        with self._runs_lock:
            if not self.preempt or sum(run.paused for run in self._runs) >= self.slots:
                return None
            ready = [run for run in self._runs if not run.paused and run._control is not None
                     and now - run.since >= PAUSABLE_AFTER_S]
            if not ready:
                return None
            victim = min(ready, key=lambda run: run.since)
            admission = Admission(waited_s, owns_slot=False, lender=victim)
            victim.paused, victim.borrower = True, admission
            self._runs.append(admission)
            pause = victim._control[0] if victim._control is not None else None
        if pause is not None:
            pause()
        return admission

    def _admission(self, started: float, deadline: float) -> Admission:
        """A free slot or a paused runner's; SandboxBusy at the deadline."""
        first = min(PREEMPT_AFTER_S, deadline - time.monotonic())
        got = self._free.acquire(timeout=max(0.0, first))
        while not got:
            borrowed = self._borrow(time.monotonic() - started)
            if borrowed is not None:
                return borrowed
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                waited = time.monotonic() - started
                raise SandboxBusy(f"Sandbox busy: all {self.slots} job slots are taken by other chats; waited "
                                  f"{waited:.1f} s. Try again in a moment.", waited)
            got = self._free.acquire(timeout=min(PREEMPT_AFTER_S, remaining))
        admission = Admission(time.monotonic() - started, owns_slot=True, lender=None)
        with self._runs_lock:
            self._runs.append(admission)
        return admission

    def _finish(self, admission: Admission) -> None:
        """The job ended: continue the job it borrowed from, and pass its slot on (to its borrower) or free it."""
        resume = None
        with self._runs_lock:
            self._runs.remove(admission)
            admission.ended = True
            lender = admission.lender
            if lender is not None and not lender.ended:
                lender.paused, lender.borrower = False, None
                resume = lender._control[1] if lender._control is not None else None
            release = admission.owns_slot
            borrower = admission.borrower if admission.paused else None
            if release and borrower is not None and not borrower.ended:
                borrower.owns_slot, release = True, False  # lent out when it ended: the borrower keeps the slot
        if resume is not None:
            resume()
        if release:
            self._free.release()

    @contextlib.contextmanager
    def admit(self, session: str, wait_s: float) -> Iterator[Admission]:
        """Hold this session's turn and a slot (its own or a borrowed one) while the body runs; yields the
        admission (``waited_s``; the caller tells it how to pause the job), or SandboxBusy."""
        started = time.monotonic()
        deadline = started + max(0.0, wait_s)
        with self._turns_lock:
            turn = self._turns.setdefault(session, _Turn(threading.Lock()))
            turn.users += 1
        try:
            if not turn.lock.acquire(timeout=max(0.0, wait_s)):
                waited = time.monotonic() - started
                raise SandboxBusy(f"Sandbox busy: this chat's previous analysis job is still running; waited "
                                  f"{waited:.1f} s. Wait for it to finish (or simplify it) and try again.", waited)
            try:
                admission = self._admission(started, deadline)
                try:
                    yield admission
                finally:
                    self._finish(admission)
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

    def paused_jobs(self) -> int:
        """Jobs paused for a newcomer right now (for the status view and tests)."""
        with self._runs_lock:
            return sum(run.paused for run in self._runs)
