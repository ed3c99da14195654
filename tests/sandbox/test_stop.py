"""The stop button reaches a running sandbox job: the job's process is killed and the result says so."""

from __future__ import annotations

import os
import threading

from copilot_core.cancel import CancelToken
from copilot_core.sandbox import run_analysis
from copilot_core.sandbox.host import worker_status

LOOP = "n = 0\nwhile True:\n    n += 1\n"


def test_stop_kills_a_running_job_long_before_its_time_limit(store, planted):
    cancel = CancelToken()
    box: dict = {}
    worker = threading.Thread(target=lambda: box.update(result=run_analysis(LOOP, store, timeout_s=60, cancel=cancel)))
    worker.start()
    cancel.cancel()  # the cancel request follows the job on the same pipe, so the worker always sees the job first
    worker.join(30)
    assert not worker.is_alive(), "the job was not stopped"
    result = box["result"]
    assert result.error == "Stopped by the user: the analysis job was killed."
    assert result.elapsed_s < 30  # far below the job's 60 s limit: it was killed, not timed out
    job_pid = worker_status()["recent_job_pids"][-1]
    assert not os.path.exists(f"/proc/{job_pid}") or open(f"/proc/{job_pid}/stat").read().split()[2] == "Z"


def test_after_a_stop_the_next_job_runs_normally(store, planted):
    cancel = CancelToken()
    cancel.cancel()
    stopped = run_analysis(LOOP, store, timeout_s=60, cancel=cancel)
    assert stopped.error and stopped.error.startswith("Stopped by the user")
    again = run_analysis("print(int(data['t1']['qid'].nunique()))", store)
    assert again.error is None and again.output == str(store["t1"]["qid"].nunique())
