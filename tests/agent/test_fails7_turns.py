""""Which fails most" questions through the page's path (``Copilot.ask``, scripted OpenAI-compatible server over
HTTP): what the person reads names the subject the question ranks (task, qubit, coupling, run, chip), over the family
of tasks it asks about, by count or by rate, with the count the data gives; a wording no one call answers carries
a note.  Expected subjects and counts are the hand-written pymongo reads of ``tests/dev_fails7.py``."""

from __future__ import annotations

import re

import pytest

from tests import dev_fails7
from tests.agent.page_turn import SMALL, asked_on_small, page_turn, shown
from tests.eval_score import problems
from tests.fakes.scripted_models import quoter, silent
from tests.fakes.scripted_openai import SmartRequest, call, text
from tests.public_eval import CHIP

REPLACED = "was replaced by one computed from the tool results"


def test_the_quoter_answers_every_dev_question(demo_db, repo, scripted_openai, tmp_path):
    scripted_openai.smart = quoter
    wrong = []
    for question, _ in dev_fails7.planned(demo_db):
        said = shown(page_turn(repo, scripted_openai, tmp_path, question.text, SMALL))
        found = problems(question.truth, said)
        if not question.id.startswith("f7-note") and dev_fails7.NOTE in said:
            found.append("a note where the call restates the question")
        if found:
            wrong.append((question.id, found, said))
    assert not wrong, wrong


def _first(db, by: str, family: str | None = None) -> tuple[list[str], int]:
    return dev_fails7.tops(dev_fails7.tally(db, CHIP, by, family))


def test_a_task_named_for_a_coupling_question_is_replaced_by_the_coupling_ranking(demo_db, repo, scripted_openai,
                                                                                   tmp_path):
    task, _ = _first(demo_db, "task")
    couplings, n = _first(demo_db, "coupling")
    scripted_openai.smart = lambda request: text(f"{task[0]} is the coupling that fails most.")
    said = shown(page_turn(repo, scripted_openai, tmp_path, "Which coupling has the most failed calibrations?", SMALL))
    assert REPLACED in said and all(re.search(dev_fails7.label(c), said) for c in couplings), said
    assert f"{n} of" in said, said


def _calls(args: dict):
    """A model that makes ``failure_ranking(args)`` first, then quotes the tool's sentence."""
    def model(request: SmartRequest):
        if request.has_tools and not request.tool_results:
            return call("failure_ranking", args)
        return quoter(request)
    return model


@pytest.mark.parametrize("question, args, by, family", [
    ("Which pair of qubits fails most often?", {"by": "task"}, "coupling", None),
    ("Which edge of the chip breaks most often?", {"by": "qubit"}, "coupling", None),
    ("Among the coupling tasks, which one fails most?", {"by": "task"}, "task", "coupling"),
    ("Of the readout tasks, which has the most failures?", {"by": "task", "family": "coupling"}, "task", "readout"),
    ("Which qubit fails most in single-qubit calibrations?", {"by": "task"}, "qubit", "qubit"),
])
def test_a_model_call_of_another_subject_or_family_is_re_made(question, args, by, family, demo_db, repo,
                                                              scripted_openai, tmp_path):
    names, n = _first(demo_db, by, family)
    scripted_openai.smart = _calls({"chip_id": CHIP, **args})
    said = asked_on_small(repo, scripted_openai, tmp_path, question, "off")
    assert all(re.search(dev_fails7.label(k), said) for k in names), said
    assert f"{n} of" in said, said


def test_a_rate_question_answered_by_count_is_re_made_as_a_rate(demo_db, repo, scripted_openai, tmp_path):
    failed = dev_fails7.tally(demo_db, CHIP, "task", "coupling")
    done = dev_fails7.tally(demo_db, CHIP, "task", "coupling", finished=True)
    names, n = dev_fails7.rate_tops(failed, done)
    scripted_openai.smart = _calls({"chip_id": CHIP, "by": "task", "family": "coupling"})
    said = asked_on_small(repo, scripted_openai, tmp_path, "Which coupling task has the highest failure rate?", "off")
    assert said.startswith(names[0]) and f"{n} of {done[names[0]]} failed" in said, said
    assert f"{100 * n / done[names[0]]:.1f}%" in said, said


def test_a_silent_model_still_reads_the_family_ranking(demo_db, repo, scripted_openai, tmp_path):
    names, n = _first(demo_db, "task", "readout")
    scripted_openai.smart = silent
    said = shown(page_turn(repo, scripted_openai, tmp_path, "only readout tasks: which one has the most failures?",
                           SMALL))
    assert said.startswith(names[0]) and f"{n} of" in said and "readout tasks" in said, said
