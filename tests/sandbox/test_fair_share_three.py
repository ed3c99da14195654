"""Fair share with three sessions: while two other chats each run a runaway loop, a third chat's first job
starts at once and finishes quickly (the loops hold two slots; the reserve holds more, and the worker has
lowered their priority after their first second)."""

from __future__ import annotations

import os
import threading
import time

from copilot_core.sandbox import SandboxResult, run_analysis
from copilot_core.sandbox.host import sandbox_status, worker_status
from copilot_core.sandbox.zygote import LONG_JOB_NICE

LOOP = "while True:\n    pass"
RUNAWAY_TIMEOUT_S = 8.0


def _until_running(count: int, deadline_s: float = 30.0) -> None:
    """Poll the worker's own job count (not a sleep standing in for an event)."""
    end = time.monotonic() + deadline_s
    while worker_status()["running"] < count:
        assert time.monotonic() < end, "the runaway jobs never started"
        time.sleep(0.02)


def _nice(pid: int) -> int | None:
    try:
        return os.getpriority(os.PRIO_PROCESS, pid)
    except ProcessLookupError:  # the job ended (its deadline) before it was ever lowered
        return None


def test_a_third_session_s_first_job_starts_within_a_second_while_two_others_loop(store, planted):
    results: dict[str, SandboxResult] = {}

    def runaway(session: str) -> None:
        results[session] = run_analysis(LOOP, store, timeout_s=RUNAWAY_TIMEOUT_S, session=session, wait_s=2.0)

    loops = [threading.Thread(target=runaway, args=(f"chat-loop-{i}",)) for i in range(2)]
    for thread in loops:
        thread.start()
    _until_running(2)
    loop_pids = worker_status()["recent_job_pids"][-2:]
    end = time.monotonic() + 10
    while {_nice(pid) for pid in loop_pids} != {LONG_JOB_NICE}:
        assert time.monotonic() < end, "the looping jobs kept their priority after their first second"
        time.sleep(0.02)
    for session in ("chat-loop-0", "chat-loop-1"):  # each looping chat's second job still waits for its first
        again = run_analysis("print(1)", store, session=session, wait_s=0.5)
        assert (again.error or "").startswith("Sandbox busy: this chat's previous analysis job is still running")
    code = "print(int(data['t1']['value'].count()))"
    third = run_analysis(code, store, session="chat-new", wait_s=5.0)
    assert third.error is None and third.output == str(int(store["t1"]["value"].count()))
    assert third.waited_s < 1.0, f"the third chat's first job waited {third.waited_s:.2f} s"
    assert third.elapsed_s < RUNAWAY_TIMEOUT_S / 2  # it did not wait for a loop's deadline either
    for thread in loops:
        thread.join(timeout=60)
    assert all("Time limit exceeded" in (r.error or "") for r in results.values()), results
    assert sandbox_status()["max_concurrent"] > 2  # the cores plus the reserve
