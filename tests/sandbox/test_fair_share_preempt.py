"""Fair share beyond the slots: when every slot is held by a looping session, a new session's first job borrows
the slot of the job that has run longest (that job is stopped while the newcomer runs, then continues), so it
starts within a second however many sessions loop, up to twice the slots of them."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator

import pytest

from copilot_core.sandbox import SandboxResult, host, run_analysis
from copilot_core.sandbox.fairshare import FairShare
from copilot_core.sandbox.host import worker_status
from copilot_core.sandbox.zygote import LONG_JOB_NICE

LOOP = "while True:\n    pass"
# About a second of work at this VM's pace: long enough to see the lender stopped while it runs.
NEWCOMER = "n = 0\nfor i in range(400_000):\n    n = n + i % 7\nprint(n)"
NEWCOMER_OUTPUT = str(sum(i % 7 for i in range(400_000)))


def _state(pid: int) -> str:
    """The process state letter from /proc (``T``: stopped), ``gone`` when it ended."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return "gone"


def _nice(pid: int) -> int | None:
    try:
        return os.getpriority(os.PRIO_PROCESS, pid)
    except ProcessLookupError:
        return None


def _until(condition, what: str, deadline_s: float = 30.0) -> None:
    """Poll a condition the worker or the kernel reports (not a sleep standing in for an event)."""
    end = time.monotonic() + deadline_s
    while not condition():
        assert time.monotonic() < end, what
        time.sleep(0.02)


@pytest.fixture
def share() -> Iterator[list[FairShare]]:
    saved = host._share
    holder: list[FairShare] = []
    yield holder
    host._share = saved


def _loops(store, count: int, timeout_s: float) -> tuple[list[threading.Thread], dict[str, SandboxResult]]:
    results: dict[str, SandboxResult] = {}

    def loop(session: str) -> None:
        results[session] = run_analysis(LOOP, store, timeout_s=timeout_s, session=session, wait_s=5.0)

    threads = [threading.Thread(target=loop, args=(f"chat-loop-{i}",)) for i in range(count)]
    for thread in threads:
        thread.start()
    return threads, results


def test_a_new_session_borrows_the_slot_of_the_longest_loop_which_stops_and_then_continues(store, planted, share):
    host._share = FairShare(1)
    threads, loops = _loops(store, 1, timeout_s=8.0)
    _until(lambda: worker_status()["running"] >= 1, "the loop never started")
    loop_pid = worker_status()["recent_job_pids"][-1]
    _until(lambda: _nice(loop_pid) == LONG_JOB_NICE, "the loop never ran its first second")  # pausable from then
    seen: list[str] = []
    newcomer: dict[str, SandboxResult] = {}
    runner = threading.Thread(target=lambda: newcomer.setdefault(
        "r", run_analysis(NEWCOMER, store, session="chat-new", wait_s=5.0)))
    runner.start()
    _until(lambda: seen.append(_state(loop_pid)) or seen[-1] in ("T", "t") or "r" in newcomer,
           "the newcomer neither ran nor stopped the loop")
    runner.join(timeout=60)
    result = newcomer["r"]
    assert result.error is None and result.output == NEWCOMER_OUTPUT, result.error
    assert result.waited_s < 1.0, f"waited {result.waited_s:.2f} s"
    assert "T" in seen or "t" in seen, f"the loop was never stopped: {sorted(set(seen))}"
    _until(lambda: _state(loop_pid) in ("R", "S", "gone"), "the loop was not continued")
    for thread in threads:
        thread.join(timeout=60)
    assert "Time limit exceeded" in (loops["chat-loop-0"].error or ""), loops


def test_without_borrowing_the_same_newcomer_gets_sandbox_busy(store, planted, share):
    """The control: the test above sees what it claims (one slot, no preemption: the newcomer is refused)."""
    host._share = FairShare(1, preempt=False)
    threads, _ = _loops(store, 1, timeout_s=5.0)
    _until(lambda: worker_status()["running"] >= 1, "the loop never started")
    result = run_analysis("print(1)", store, session="chat-new", wait_s=1.5)
    assert (result.error or "").startswith("Sandbox busy: all 1 job slots are taken"), result.error
    for thread in threads:
        thread.join(timeout=60)


def test_eight_looping_sessions_do_not_keep_a_ninth_waiting(store, planted, share):
    host._share = FairShare(host.MAX_CONCURRENT, host.RESERVE_SLOTS)
    count = host._share.slots + 2  # more looping chats than slots
    threads, loops = _loops(store, count, timeout_s=8.0)
    _until(lambda: worker_status()["running"] >= count, f"the {count} loops never all started")
    code = "print(int(data['t1']['value'].count()))"
    result = run_analysis(code, store, session="chat-new", wait_s=5.0)
    assert result.error is None and result.output == str(int(store["t1"]["value"].count())), result.error
    assert result.waited_s < 1.0, f"the new chat's first job waited {result.waited_s:.2f} s"
    for thread in threads:
        thread.join(timeout=60)
    assert len(loops) == count and all("Time limit exceeded" in (r.error or "") for r in loops.values()), loops
