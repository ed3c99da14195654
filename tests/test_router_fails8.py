"""The router makes the call each "which qubit / coupling / run fails most" dev question needs
(``tests/dev_fails8.py``), every argument as written there by hand, and that call restates its question; a call that
ranks another subject, window, family or chip, counts one number, or reads one run's failed tasks is re-made as the
question reads it."""

from __future__ import annotations

import pytest

from copilot_core.checking.restate import corrected, mismatches
from copilot_core.language.question import parse
from tests import dev_fails8
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)


def test_there_are_at_least_30_dev_questions_over_both_chips(demo_db):
    asked = dev_fails8.planned(demo_db)
    assert len(asked) >= 30
    assert {args["chip_id"] for _, (_, args) in asked} == {CHIP, OTHER}
    assert {q.id.split("-")[1] for q, _ in asked} == {"sub", "win", "rate", "fam", "never", "chip"}


@pytest.mark.parametrize("text, name, given, wanted", [
    ("What's the worst qubit for failures?", "get_run_failures", {"chip_id": CHIP},
     {"chip_id": CHIP, "by": "qubit"}),
    ("Which calibration run went worst?", "get_run_failures", {"chip_id": CHIP}, {"chip_id": CHIP, "by": "run"}),
    ("Which qubit keeps failing?", "failure_ranking", {"chip_id": CHIP, "by": "task"},
     {"chip_id": CHIP, "by": "qubit"}),
    ("Which of our runs had the most failed tasks?", "failure_ranking", {"chip_id": CHIP, "by": "task"},
     {"chip_id": CHIP, "by": "run"}),
    ("most unreliable coupling", "count_in_window", {"chip_id": CHIP, "what": "failed tasks"},
     {"chip_id": CHIP, "by": "coupling"}),
    ("worst qubit for failures this week", "failure_ranking", {"chip_id": CHIP, "by": "qubit"},
     {"chip_id": CHIP, "by": "qubit", "since_weekday": "monday"}),
    ("Which qubit failed most in the last 10 days?", "failure_ranking", {"chip_id": CHIP, "by": "qubit", "days": 30},
     {"chip_id": CHIP, "by": "qubit", "days": 10}),
    ("Which run had the most failures?", "failure_ranking", {"chip_id": CHIP, "by": "run", "days": 7},
     {"chip_id": CHIP, "by": "run"}),
    ("Which coupling fails the most on 144Qv2?", "failure_ranking", {"chip_id": CHIP, "by": "coupling"},
     {"chip_id": OTHER, "by": "coupling"}),
    ("Which qubit had the most failed readout calibrations?", "failure_ranking", {"chip_id": CHIP, "by": "qubit"},
     {"chip_id": CHIP, "by": "qubit", "family": "readout"}),
    ("Which qubits never failed?", "get_run_failures", {"chip_id": CHIP},
     {"chip_id": CHIP, "by": "qubit", "rate": True}),
])
def test_a_call_of_another_subject_window_family_chip_or_tool_is_re_made(text, name, given, wanted):
    got_name, args, why = corrected(name, given, parse(text, CHIPS))
    assert (got_name, args) == ("failure_ranking", wanted) and why, (text, got_name, args, why)


@pytest.mark.parametrize("text, args", [
    ("Which run had the most failures since 2026-11-03?", {"chip_id": CHIP, "by": "run", "from_date": "11-03"}),
    ("Since November 3, which coupling failed most?", {"chip_id": CHIP, "by": "coupling", "from_date": "2026-11-03"}),
])
def test_a_date_written_with_or_without_its_year_is_the_same_window(text, args):
    assert not mismatches(parse(text, CHIPS), "failure_ranking", args)


def test_the_latest_runs_failures_asked_tersely_are_still_that_run():
    assert not mismatches(parse("list failed tasks", CHIPS), "get_run_failures", {"chip_id": CHIP})
