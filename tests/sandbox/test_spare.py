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

from copilot_core.sandbox import host, protocol, run_analysis
from copilot_core.sandbox.host import worker_status
from tests.sandbox.processes import kill_and_wait

POISON = ("px.colors.qualitative.Plotly[0] = '#000000'\nnp.random.seed(123)\ndata['t1']['value'] = 0.0\n"
          "result = {'output': json.dumps([px.colors.qualitative.Plotly[0], float(data['t1']['value'].sum())])}")
INSPECT = ("result = {'output': json.dumps([px.colors.qualitative.Plotly[0], float(data['t1']['value'].sum()), "
           "float(np.random.rand())])}")


def _nice(pid: int) -> int:
    """The nice value of a process, from ``/proc/<pid>/stat`` (field 19)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[16])


def _spares() -> list[int]:
    spares = worker_status()["spare_pids"]
    assert spares, "the worker keeps spare job processes ready between jobs"
    return spares


def _ran_on_a_spare(spares_before: list[int]) -> int:
    """The process that ran the last job: one of the spares waiting before it, no longer waiting now."""
    status = worker_status()
    job_pid = status["recent_job_pids"][-1]
    assert job_pid in spares_before
    assert job_pid not in status["spare_pids"] and status["spare_pids"]
    return job_pid


def test_a_job_on_a_spare_sees_nothing_of_the_job_before(store, planted):
    poisoned = run_analysis(POISON, store)
    assert poisoned.error is None
    assert json.loads(poisoned.output) == ["#000000", 0.0]  # the writes did land, in that job's process
    spares = _spares()
    after = run_analysis(INSPECT, store)
    _ran_on_a_spare(spares)
    assert after.error is None
    colour, total, draw = json.loads(after.output)
    assert colour == plotly.colors.qualitative.Plotly[0] == "#636EFA"  # plotly's module-level list, pristine
    assert total == pytest.approx(float(store["t1"]["value"].sum()))
    assert draw != np.random.RandomState(123).rand()  # not the seeded stream the job before set up


def test_a_spare_serves_one_job_and_is_replaced(store, planted):
    job_pids = []
    for i in range(4):
        spares = _spares()
        result = run_analysis(f"result = {{'output': str({i} + len(data['t1']))}}", store)
        assert result.error is None and result.output == str(i + len(store["t1"]))
        job_pids.append(_ran_on_a_spare(spares))
    assert len(set(job_pids)) == len(job_pids)  # one process per job, never reused


def test_spares_have_a_clean_environment(planted):
    for pid in _spares():
        environ = Path(f"/proc/{pid}/environ").read_bytes()
        assert planted.token.encode() not in environ
        keys = {item.split(b"=", 1)[0].decode() for item in environ.split(b"\0") if item}
        assert keys <= {"PATH", "LANG", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "MALLOC_PERTURB_"}


def test_killed_idle_spares_are_replaced_without_an_error(store, planted):
    killed = _spares()
    kill_and_wait(killed)
    result = run_analysis("result = {'output': str(data['t1']['qid'].nunique())}", store)
    assert result.error is None and result.output == str(store["t1"]["qid"].nunique())
    assert "fork" in result.layers and "audit-hook" in result.layers
    assert not set(_spares()) & set(killed)


def test_a_spare_that_dies_before_reading_its_job_is_retried_on_a_fresh_fork(store, planted):
    for pid in _spares():  # every waiting spare is stopped: whichever gets the job cannot read it
        os.kill(pid, signal.SIGSTOP)
    stopped = _spares()
    results: list = []
    job = threading.Thread(target=lambda: results.append(run_analysis("print(6 * 7)", {})))
    try:
        job.start()
        while set(worker_status()["spare_pids"]) == set(stopped):  # until the worker hands one the request
            assert job.is_alive()
    finally:
        kill_and_wait(stopped)
    job.join(timeout=60)
    assert [(r.error, r.output) for r in results] == [(None, "42")]
    assert worker_status()["recent_job_pids"][-1] not in stopped  # it ran in a fresh process
    assert not set(_spares()) & set(stopped)


def test_the_replacement_spare_gets_ready_while_the_job_runs(planted):
    spares = _spares()
    results: list = []
    job = threading.Thread(target=lambda: results.append(run_analysis("while True:\n    pass", {}, timeout_s=2)))
    job.start()
    try:
        status = worker_status()
        while status["running"] == 0:  # until the worker has handed the job to a spare
            assert job.is_alive()
            status = worker_status()
        job_pid = status["recent_job_pids"][-1]
        assert job_pid in spares and job_pid not in status["spare_pids"]
        assert len(status["spare_pids"]) == len(spares)  # already replaced, before the job's reply
        if os.geteuid() == 0:  # the worker may raise a priority back only as root; otherwise spares keep it
            assert _nice(job_pid) == 0  # the job runs at normal priority
            assert {_nice(pid) for pid in status["spare_pids"]} == {10}  # its replacement gets ready below it
    finally:
        job.join(timeout=60)
    assert len(results) == 1 and "Time limit exceeded" in (results[0].error or "")


def test_the_number_of_spares_is_configurable(store, planted, monkeypatch):
    try:
        monkeypatch.setenv(host.SPARES_SETTING, "3")
        host.use_spare()  # restarts the worker with the configured count
        result = run_analysis("result = {'output': str(len(data['t1']))}", store)
        assert result.error is None and result.output == str(len(store["t1"]))
        assert len(worker_status()["spare_pids"]) == 3
        monkeypatch.setenv(host.SPARES_SETTING, "lots")
        host.use_spare()
        refused = run_analysis("print(1)", {})
        assert refused.output == "" and f"{host.SPARES_SETTING} must be a whole number from 0 to" in refused.error
    finally:
        monkeypatch.delenv(host.SPARES_SETTING)
        host.use_spare()
    after = run_analysis("print(2)", {})
    assert after.output == "2", after.error
    assert len(worker_status()["spare_pids"]) == protocol.SPARES


def test_a_job_s_limit_counts_from_when_its_spare_takes_it(planted):
    """A spare held up before it takes its job (stopped here: a starved warm-up on a loaded host) does not spend the
    job's one-second limit: the job runs once the spare goes on, and answers."""
    spares = _spares()
    for pid in spares:
        os.kill(pid, signal.SIGSTOP)
    results: list = []
    job = threading.Thread(target=lambda: results.append(run_analysis("print(3)", {}, timeout_s=1)))
    try:
        job.start()
        status = worker_status()
        while status["running"] == 0:  # until the worker has handed the job to a (stopped) spare
            assert job.is_alive()
            status = worker_status()
        held = threading.Event()
        assert not held.wait(2.5)  # the spare stays stopped past the job's whole limit
    finally:
        for pid in spares:
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
        job.join(timeout=60)
    assert [(r.error, r.output) for r in results] == [(None, "3")]


def test_a_spare_that_never_takes_its_job_is_killed_and_the_job_forked_directly(planted):
    """A spare stopped for good (never scheduled again) holds its job only for the hand-over allowance: then the
    worker kills it and runs the job on a direct fork, so the person gets an answer, not a time-out."""
    stopped = _spares()
    for pid in stopped:
        os.kill(pid, signal.SIGSTOP)
    results: list = []
    job = threading.Thread(target=lambda: results.append(run_analysis("print(5 + 2)", {}, timeout_s=0.5)))
    try:
        job.start()
        job.join(timeout=protocol.HANDOVER_S + 60)
    finally:
        kill_and_wait(stopped, missing_ok=True)  # the worker killed and reaped the one it handed the job
    assert [(r.error, r.output) for r in results] == [(None, "7")], results
    ran = worker_status()["recent_job_pids"][-1]
    assert ran not in stopped  # a fresh process ran it, not the spare that was handed it
    assert not set(_spares()) & set(stopped)
