"""The router makes the call each "which fails most" dev question needs (``tests/dev_fails7.py``): the subject
ranked, the family of tasks, count or rate, the window and the chip, every argument as written there by hand; and
the call restates the question (``checking.restate.mismatches`` empty), except for the two wordings no one call
answers, whose call the restate check must hold as missing part of the question (so the answer carries a note)."""

from __future__ import annotations

from copilot_core.checking.restate import corrected, mismatches
from copilot_core.language.question import parse
from tests import dev_fails7
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)


def test_there_are_at_least_25_dev_questions_in_every_class(demo_db):
    asked = dev_fails7.planned(demo_db)
    assert len(asked) >= 25
    kinds = {q.id.split("-")[1] for q, _ in asked}
    assert kinds == {"sub", "chip", "fam", "rate", "win", "never", "note"}


def test_each_call_restates_its_question_and_the_two_unanswerable_ones_do_not(demo_db):
    wrong = []
    for question, (tool, args) in dev_fails7.planned(demo_db):
        found = [m.missed for m in mismatches(parse(question.text, CHIPS), tool, args)]
        if bool(found) != question.id.startswith("f7-note"):
            wrong.append(f"{question.id}: {found}")
    assert not wrong, "\n".join(wrong)


# A model's call ranking another subject, family or measure is re-made as the question reads it.
def test_a_wrong_subject_family_or_measure_is_re_made():
    cases = [
        ("Which coupling fails most?", {"chip_id": CHIP, "by": "task"}, {"chip_id": CHIP, "by": "coupling"}),
        ("Which pair of qubits fails most often?", {"chip_id": CHIP, "by": "qubit"},
         {"chip_id": CHIP, "by": "coupling"}),
        ("Among the coupling tasks, which one fails most?", {"chip_id": CHIP, "by": "task"},
         {"chip_id": CHIP, "by": "task", "family": "coupling"}),
        ("Which readout task fails most?", {"chip_id": CHIP, "by": "task", "family": "qubit"},
         {"chip_id": CHIP, "by": "task", "family": "readout"}),
        ("Which task has the lowest success rate?", {"chip_id": CHIP, "by": "task"},
         {"chip_id": CHIP, "by": "task", "rate": True}),
        ("Which task fails most?", {"chip_id": CHIP, "by": "task", "family": "coupling"},
         {"chip_id": CHIP, "by": "task"}),
    ]
    for text, given, wanted in cases:
        name, args, why = corrected("failure_ranking", given, parse(text, CHIPS))
        assert (name, args) == ("failure_ranking", wanted) and why, (text, args, why)


def test_a_task_ranking_for_which_chip_is_re_made_as_counts_per_chip():
    name, args, why = corrected("failure_ranking", {"chip_id": CHIP, "by": "task"},
                                parse("Which chip fails most?", CHIPS))
    assert (name, args) == ("count_in_window", {"chip_id": CHIP, "what": "failed tasks", "chip_ids": [CHIP, OTHER]})
    assert why and "asks which chip fails most" in why
