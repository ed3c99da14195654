"""Which fit figure the Qubits page opens first: a failed task's, else a flagged metric's, else the newest."""

from __future__ import annotations

from copilot_core.figures import most_relevant

NEWEST = {"name": "X90InterleavedRandomizedBenchmarking", "status": "completed",
          "output_parameters": {"x90_gate_fidelity": {"value": 0.999}}}
T1 = {"name": "CheckT1", "status": "completed", "output_parameters": {"t1": {"value": 41.0}}}
FAILED = {"name": "CheckRamsey", "status": "failed", "output_parameters": {}}


def test_the_newest_task_when_nothing_failed_or_is_flagged():
    assert most_relevant([NEWEST, T1]) == 0
    assert most_relevant([NEWEST, T1], flagged=["t2_echo"]) == 0


def test_the_task_that_measured_a_flagged_metric():
    assert most_relevant([NEWEST, T1], flagged=["t1"]) == 1


def test_a_failed_task_comes_before_a_flagged_metric():
    assert most_relevant([NEWEST, T1, FAILED], flagged=["t1"]) == 2


def test_rows_without_outputs_are_not_flagged():
    assert most_relevant([{"name": "A", "status": "completed", "output_parameters": None}, T1], flagged=["t1"]) == 1
