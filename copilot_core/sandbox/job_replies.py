"""The worker's record of a running job and what it tells the app about it: the reply header, with the job's
own JSON relayed after it unread, or an error that stands for the job (stopped, timed out, too large, crashed).
"""

from __future__ import annotations

import os
import signal
import time
from dataclasses import dataclass, field

from copilot_core.sandbox import protocol


def _reply_buffer() -> protocol.OffHeap:
    """Where a job's reply is collected: off the worker's heap and never inherited by a later fork."""
    buffer = protocol.OffHeap(protocol.MAX_REPLY_BYTES + 1)
    buffer.hide_from_forks()
    return buffer


@dataclass
class Job:
    """A forked job the worker is waiting on."""

    id: int
    pid: int
    pidfd: int
    result_fd: int
    timeout_s: float
    deadline: float
    started: float
    out: protocol.OffHeap = field(default_factory=lambda: _reply_buffer())
    eof: bool = False
    status: int | None = None
    overflow: bool = False
    timed_out: bool = False
    delivered: bool = False
    request: protocol.OffHeap | None = None  # kept (hidden from forks) until a spare confirms it took the job
    acked: bool = True
    cancelled: bool = False  # the user stopped the turn: killed, and the reply says so
    yielded: bool = False  # runs at LONG_JOB_NICE: it has had LONG_JOB_S of wall time


def describe_exit(status: int | None, timeout_s: float) -> str:
    if status is None:
        return "The analysis job ended without a reply."
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig == signal.SIGXCPU:
            return "The analysis job used too much CPU time and was stopped. Hint: vectorise, avoid huge loops."
        if sig == signal.SIGKILL:
            return ("The analysis job was killed (memory or CPU limit). Hint: aggregate before building "
                    "large arrays or loops.")
        return f"The analysis job crashed ({signal.Signals(sig).name}). Hint: avoid deep recursion and huge objects."
    return f"The analysis job exited unexpectedly (code {os.WEXITSTATUS(status)})."


def reply_header(entry: Job, final: bool, layers: list[str]) -> dict | None:
    """The reply header for the app; before the job has been reaped (``final=False``) only with a whole reply.

    The job's JSON itself is relayed unparsed (``deliver`` sends ``entry.out`` after this header);
    the app decodes and checks it.  A header with ``error`` and no ``reply`` stands for the job.
    """
    meta: dict = {"id": entry.id, "elapsed_s": round(time.monotonic() - entry.started, 4), "layers": layers}
    if entry.cancelled:
        if not final:  # said once the job is reaped: a stopped job is gone when the app hears of it
            return None
        meta["error"] = "Stopped by the user: the analysis job was killed."
    elif entry.timed_out:
        meta["error"] = (f"Time limit exceeded: the job ran longer than {entry.timeout_s:g} s and was stopped. "
                         "Hint: vectorise loops, aggregate first, avoid catastrophic regexes.")
    elif entry.overflow:
        meta["error"] = "The job's reply exceeded 8 MiB and was discarded. Hint: return aggregates, not raw data."
    elif entry.out.framed():
        meta["reply"] = entry.out.filled
    elif not final:
        return None
    else:
        meta["error"] = describe_exit(entry.status, entry.timeout_s)
    return meta
