"""The pre-forked spare: one fresh, hardened process per job, replaced after use and after a crash.

Each job is handed to the spare the worker forked ahead of time; the worker's own status (not the
job) says which process is waiting, so these tests see a spare being consumed and replaced.
"""

from __future__ import annotations

import json
import os
import signal
import threading
from pathlib import Path

import numpy as np
import plotly.colors
import pytest

from copilot_core.sandbox import run_analysis
from copilot_core.sandbox.host import worker_status

POISON = ("px.colors.qualitative.Plotly[0] = '#000000'\nnp.random.seed(123)\ndata['t1']['value'] = 0.0\n"
          "result = {'output': json.dumps([px.colors.qualitative.Plotly[0], float(data['t1']['value'].sum())])}")
INSPECT = ("result = {'output': json.dumps([px.colors.qualitative.Plotly[0], float(data['t1']['value'].sum()), "
           "float(np.random.rand())])}")


def _waiting_spare() -> int:
    spare = worker_status()["spare_pid"]
    assert isinstance(spare, int), "the worker keeps a spare job process ready between jobs"
    return spare


def test_a_job_on_a_spare_sees_nothing_of_the_job_before(store, planted):
    first = _waiting_spare()
    poisoned = run_analysis(POISON, store)
    assert poisoned.error is None
    assert json.loads(poisoned.output) == ["#000000", 0.0]  # the writes did land, in that job's process
    second = _waiting_spare()
    assert second != first  # the first spare ran the job and is gone; the next one was forked fresh
    after = run_analysis(INSPECT, store)
    assert after.error is None
    colour, total, draw = json.loads(after.output)
    assert colour == plotly.colors.qualitative.Plotly[0] == "#636EFA"  # plotly's module-level list, pristine
    assert total == pytest.approx(float(store["t1"]["value"].sum()))
    assert draw != np.random.RandomState(123).rand()  # not the seeded stream job 1 set up
    assert _waiting_spare() not in (first, second)


def test_a_spare_serves_one_job_and_is_replaced(store, planted):
    seen = [_waiting_spare()]
    for i in range(3):
        result = run_analysis(f"result = {{'output': str({i} + len(data['t1']))}}", store)
        assert result.error is None and result.output == str(i + len(store["t1"]))
        seen.append(_waiting_spare())
    assert len(set(seen)) == len(seen)


def test_spare_has_a_clean_environment(planted):
    environ = Path(f"/proc/{_waiting_spare()}/environ").read_bytes()
    assert planted.token.encode() not in environ
    keys = {item.split(b"=", 1)[0].decode() for item in environ.split(b"\0") if item}
    assert keys <= {"PATH", "LANG", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"}


def test_a_killed_idle_spare_is_replaced_without_an_error(store, planted):
    killed = _waiting_spare()
    os.kill(killed, signal.SIGKILL)
    result = run_analysis("result = {'output': str(data['t1']['qid'].nunique())}", store)
    assert result.error is None and result.output == str(store["t1"]["qid"].nunique())
    assert "fork" in result.layers and "audit-hook" in result.layers
    assert _waiting_spare() != killed


def test_a_spare_that_dies_before_reading_its_job_is_retried_on_a_fresh_fork(store, planted):
    spare = _waiting_spare()
    os.kill(spare, signal.SIGSTOP)  # it cannot read the request the worker is about to hand it
    results: list = []
    job = threading.Thread(target=lambda: results.append(run_analysis("print(6 * 7)", {})))
    try:
        job.start()
        while worker_status()["spare_pid"] == spare:  # replaced once the request is handed to the stopped spare
            assert job.is_alive()
    finally:
        os.kill(spare, signal.SIGKILL)
    job.join(timeout=60)
    assert [(r.error, r.output) for r in results] == [(None, "42")]
    assert _waiting_spare() != spare
