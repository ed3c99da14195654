"""The router makes the call each dev question of ``tests/dev_fails9.py`` needs (every argument as written there by
hand), and that call restates its question; a call over every stored run for a question about one run, or a count
for a question about which task fails most, is re-made as the question reads it; a run window no call can narrow
to ("the last 5 runs") is a mismatch left for the note.  Questions that only look like rankings stay what they are."""

from __future__ import annotations

import pytest

from copilot_core.checking.restate import corrected, mismatches
from copilot_core.language.question import parse
from tests import dev_fails9
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)


def test_there_are_at_least_30_dev_questions_over_both_chips_and_every_subject(demo_db):
    asked = dev_fails9.planned(demo_db)
    assert len(asked) >= 30
    assert {args["chip_id"] for _, (_, args) in asked} == {CHIP, OTHER}
    assert {args["by"] for _, (_, args) in asked} == {"task", "coupling", "run", "qubit"}


@pytest.mark.parametrize("text, name, given, wanted", [
    ("Which calibration step breaks the most?", "count_in_window", {"chip_id": CHIP, "what": "failed tasks"},
     {"chip_id": CHIP, "by": "task"}),
    ("Which task had the greatest number of failures in the last 5 days?", "count_in_window",
     {"chip_id": CHIP, "what": "failed tasks", "days": 5}, {"chip_id": CHIP, "by": "task", "days": 5}),
    ("Which coupler fails most often?", "failure_ranking", {"chip_id": CHIP, "by": "task"},
     {"chip_id": CHIP, "by": "coupling"}),
    ("Which run failed more tasks than any other?", "get_run_failures", {"chip_id": CHIP},
     {"chip_id": CHIP, "by": "run"}),
    ("Which qubit failed the most in execution 20261111-003?", "failure_ranking", {"chip_id": CHIP, "by": "qubit"},
     {"chip_id": CHIP, "by": "qubit", "execution_id": "20261111-003"}),
    ("Which qubit failed most in the latest run?", "get_run_failures", {"chip_id": CHIP},
     {"chip_id": CHIP, "by": "qubit", "execution_id": "latest"}),
    ("Which qubit failed most in the latest run?", "failure_ranking",
     {"chip_id": CHIP, "by": "qubit", "execution_id": "20261123-001"},
     {"chip_id": CHIP, "by": "qubit", "execution_id": "latest"}),
    ("Which qubit fails CheckT1 the most?", "failure_ranking", {"chip_id": CHIP, "by": "qubit"},
     {"chip_id": CHIP, "by": "qubit", "task_name": "CheckT1"}),
    ("What qubit failed most often of late?", "failure_ranking", {"chip_id": CHIP, "by": "qubit"},
     {"chip_id": CHIP, "by": "qubit", "days": 3}),
])
def test_a_call_of_another_tool_subject_or_scope_is_re_made(text, name, given, wanted):
    got_name, args, why = corrected(name, given, parse(text, CHIPS))
    assert (got_name, args) == ("failure_ranking", wanted) and why, (text, got_name, args, why)


def test_a_ranking_over_every_run_where_the_last_n_runs_are_asked_is_re_made_over_them():
    asked = parse("Which qubit failed most in the last 5 runs?", CHIPS)
    args = {"chip_id": CHIP, "by": "qubit"}
    assert [m.missed for m in mismatches(asked, "failure_ranking", args)] == [
        "ranks over the last 5 runs, not every stored run"]
    name, fixed, why = corrected("failure_ranking", args, asked)
    assert (name, fixed) == ("failure_ranking", {**args, "last_runs": 5}) and why


@pytest.mark.parametrize("text", [
    "Which qubits failed in the latest run?",
    "How many tasks failed in the most recent run?",
    "What is the highest T1 among qubits that failed?",
    "Which task failed at most twice?",
    "When did CheckT1 last fail?",
    "Show the failed tasks of the most recent execution",
    "Did the most recent run fail?",
    "Which qubit has the highest readout fidelity, and did it fail?",
    "List every failed task of run 20261123-001",
])
def test_recency_bounds_and_metrics_are_no_failure_ranking(text):
    assert parse(text, CHIPS).shape != "fails most", text
