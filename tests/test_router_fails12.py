"""The dev questions of ``tests/dev_fails12.py`` against the router: the subject of "fails most" as written (runs,
executions, qubits, qids, couplers, pairs, tasks; inactive qubits left out when asked), every window form (dates
in words or ISO, numbers in words, the weekend, this morning, a named month) and a task written loosely are carried
into the router's call; a window word no reading takes is said in the answer, never silently every run."""

from __future__ import annotations

import pytest

from copilot_core.domain.task_names import task_meant
from copilot_core.language.question import parse
from copilot_core.language.window_words import unread_window
from copilot_core.routing.prefetch import plan_prefetch
from tests import dev_fails12
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)


def test_there_are_at_least_30_dev_questions_over_both_chips_and_classes(demo_db):
    asked = dev_fails12.planned(demo_db)
    assert len(asked) >= 30 and len([q for q, _ in asked if "-att-" in q.id]) >= 6
    assert {args["chip_id"] for _, (_, args) in asked} == set(CHIPS)
    assert {args.get("by") for _, (_, args) in asked} >= {"task", "qubit", "coupling", "run"}
    assert any(args.get("active_only") for _, (_, args) in asked)


def test_the_router_makes_the_call_each_dev_question_needs(demo_db):
    wrong = [(q.id, q.text, plan and (plan.name, plan.args), call) for q, call in dev_fails12.planned(demo_db)
             if (plan := plan_prefetch(q.text, chip_id=CHIP, chips=CHIPS)) is None or (plan.name, plan.args) != call]
    assert not wrong, wrong


@pytest.mark.parametrize("written, names, meant", [
    (["T1", "check"], ["CheckT1", "CheckT1Average", "CheckRamsey"], "CheckT1"),
    (["ZX90", "interleaved", "benchmarking"], ["CreateZX90", "ZX90InterleavedRandomizedBenchmarking"],
     "ZX90InterleavedRandomizedBenchmarking"),
    (["ramsey"], ["CheckRamsey", "CheckT1"], "CheckRamsey"),
    (["spectroscopy"], ["CheckQubitSpectroscopy", "CheckResonatorSpectroscopy"], None),  # two fit: no one task
    (["rabi"], ["CheckRamsey", "CheckT1"], None),  # none holds it
])
def test_a_task_written_loosely_means_the_one_name_that_holds_its_words(written, names, meant):
    assert task_meant(written, names) == meant


@pytest.mark.parametrize("text", ["How many qubit tasks failed this week?", "How many readout tasks failed?",
                                  "How many ZX90 calibrations failed in the last 8 days?", "How many 1Q tasks failed?"])
def test_a_family_of_tasks_is_no_one_task(text):
    assert parse(text, CHIPS).task_name is None


@pytest.mark.parametrize("text, said", [
    ("How many tasks failed during the last sprint?", "during the last sprint"),
    ("Which qubit failed most this quarter?", "this quarter"),
])
def test_a_window_word_no_reading_takes_is_found_for_the_answer_to_say(text, said):
    asked = parse(text, CHIPS)
    assert asked.window is None and asked.dates is None and asked.since_weekday is None
    assert asked.said("window hint") == said
    assert said in unread_window(said)
