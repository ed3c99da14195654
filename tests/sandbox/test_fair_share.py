"""Fair share: one running job per chat session, a bounded wait, and another session unaffected by one
session's runaway loops."""

from __future__ import annotations

import threading
import time

from copilot_core.sandbox import SandboxResult, run_analysis
from copilot_core.sandbox.host import worker_status

LOOP = "while True:\n    pass"
RUNAWAY_TIMEOUT_S = 6.0
WAIT_S = 2.0


def _until_running(count: int, deadline_s: float = 30.0) -> None:
    """Poll the worker's own job count (not a sleep standing in for an event): ``count`` jobs are running."""
    end = time.monotonic() + deadline_s
    while worker_status()["running"] < count:
        assert time.monotonic() < end, "the runaway job never started"
        time.sleep(0.02)


def test_runaway_loops_in_one_session_leave_a_slot_for_another_session(store, planted):
    results: dict[str, SandboxResult] = {}

    def runaway(name: str) -> None:
        results[name] = run_analysis(LOOP, store, timeout_s=RUNAWAY_TIMEOUT_S, session="chat-a", wait_s=WAIT_S)

    first = threading.Thread(target=runaway, args=("a1",))
    first.start()
    _until_running(1)
    second = threading.Thread(target=runaway, args=("a2",))
    second.start()
    other = run_analysis("result = {'output': str(len(data['t1']))}", store, session="chat-b", wait_s=WAIT_S)
    assert other.error is None and other.output == str(len(store["t1"]))
    assert other.waited_s < 1.0, f"another session's job waited {other.waited_s:.2f} s for a slot"
    assert other.elapsed_s < RUNAWAY_TIMEOUT_S  # it did not wait for a runaway job's deadline
    second.join(timeout=60)
    first.join(timeout=60)
    busy, timed_out = results["a2"], results["a1"]
    assert (busy.error or "").startswith("Sandbox busy: this chat's previous analysis job is still running; waited 2.")
    assert busy.output == "" and WAIT_S <= busy.waited_s < RUNAWAY_TIMEOUT_S
    assert "Time limit exceeded" in (timed_out.error or "")


def test_a_session_s_next_job_runs_once_its_previous_one_is_done(store, planted):
    first = run_analysis("print(1)", store, session="chat-c")
    second = run_analysis("print(2)", store, session="chat-c")
    assert (first.error, first.output, second.error, second.output) == (None, "1", None, "2")
