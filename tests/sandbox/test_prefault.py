"""Prefaulting: a spare copies, before its job arrives, the worker pages a typical job writes.

Measured with the kernel's own minor-fault counter for the job's process, not with a clock: a job run
after ``populate`` must take far fewer copy-on-write faults than the same job in a plain fork.
"""

from __future__ import annotations

import gc
import json
import os
import resource

import pytest

from copilot_core.sandbox import job, prefault, warmup
from copilot_core.sandbox.proxies import build_namespaces

FIGURE_JOB = ("df = data['t1'].copy()\ndf['t'] = pd.to_datetime(df['calibrated_at'])\n"
              "m = df.groupby('t', as_index=False)['value'].median()\n"
              "result = {'output': 'ok', 'chart': px.line(m, x='t', y='value')}")


@pytest.fixture(scope="module")
def warmed() -> dict:
    """This test process set up like the worker: namespaces built, typical jobs run, heap frozen."""
    namespaces = build_namespaces()
    data = warmup.synthetic_timeseries()
    warmup.warm_lazy_imports()
    for snippet in warmup.WARMUP_SNIPPETS:
        assert job.compile_and_run(snippet, namespaces, data)["error"] is None
    gc.collect()
    gc.freeze()
    yield {"namespaces": namespaces, "data": data}
    gc.unfreeze()


def _faults_in_fork(warmed: dict, runs: prefault.Runs) -> dict:
    """Fork; populate ``runs``; then count the minor faults of one figure job in that child."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            gc.disable()
            populated = prefault.populate(runs)
            before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
            reply = job.compile_and_run(FIGURE_JOB, warmed["namespaces"], warmed["data"])
            faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
            os.write(write_fd, json.dumps({"faults": faults, "populated": populated,
                                           "error": reply["error"], "charts": len(reply["charts"])}).encode())
        finally:
            os._exit(0)
    os.close(write_fd)
    with os.fdopen(read_fd, "rb") as fh:
        out = json.loads(fh.read())
    os.waitpid(pid, 0)
    return out


def test_a_prefaulted_fork_takes_far_fewer_copy_on_write_faults(warmed):
    runs = prefault.learn(lambda: job.compile_and_run(warmup.SPARE_SNIPPET, warmed["namespaces"],
                                                      warmup.spare_data()))
    if not runs:
        pytest.skip("this kernel cannot prefault (MADV_POPULATE_WRITE needs Linux 5.14)")
    cold = _faults_in_fork(warmed, [])
    warm = _faults_in_fork(warmed, runs)
    assert cold["error"] is None and warm["error"] is None and cold["charts"] == warm["charts"] == 1
    # Nearly every learned page is copied in; a run the test process unmapped since learning is skipped, not fatal.
    learned = sum(length for _, length in runs) // prefault.PAGE
    assert learned * 0.95 <= warm["populated"] <= learned
    assert warm["faults"] * 3 < cold["faults"], (warm, cold)


def test_learned_pages_lie_inside_the_workers_writable_memory(warmed):
    ranges = prefault.writable_private_ranges()
    runs = prefault.learn(lambda: job.compile_and_run(warmup.SPARE_SNIPPET, warmed["namespaces"],
                                                      warmup.spare_data()))
    assert runs
    for start, length in runs:
        assert start % prefault.PAGE == 0 and length > 0 and length % prefault.PAGE == 0
        assert any(lo <= start and start + length <= lo + size for lo, size in ranges)


def test_a_probe_that_fails_teaches_nothing():
    def broken() -> None:
        raise RuntimeError("probe failed")

    assert prefault.learn(broken) == []
