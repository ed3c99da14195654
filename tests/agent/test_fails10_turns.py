"""Failure rankings and counts of one kind through the page's path (``Copilot.ask``, the real openai SDK against the
scripted server over HTTP), the tool router off as on a model that picks its own calls: a listing, a chip summary or
a ranking of another subject for "which ... fails most" is re-made, and the model's own claim replaced by the re-made
ranking's sentence (never kept "not checked"); a count over every subject for "how many coupler calibrations failed"
is re-made as the coupling failures of the window; a run id no tool returned gets a visible note.  Expected values are
the hand-written pymongo reads of ``tests/dev_fails10.py``."""

from __future__ import annotations

import re

import pytest

from tests import dev_fails10
from tests.agent.page_turn import SMALL, asked_on_small, page_turn, shown
from tests.dev_fails7 import label
from tests.dev_fails9 import failures, top
from tests.eval_score import problems
from tests.fakes.scripted_models import quoter, tool_sentences
from tests.fakes.scripted_openai import call, text
from tests.public_eval import CHIP, OTHER

REPLACED = "was replaced by one computed from the tool results"


def test_the_quoter_answers_every_dev_question(demo_db, repo, scripted_openai, tmp_path):
    scripted_openai.smart = quoter
    wrong = []
    for question, _ in dev_fails10.planned(demo_db):
        said = shown(page_turn(repo, scripted_openai, tmp_path, question.text, SMALL))
        if found := problems(question.truth, said):
            wrong.append((question.id, found, said))
    assert not wrong, wrong


def _calls_then_writes(name: str, args: dict, said: str | None):
    """Makes one call of its own, then writes ``said`` (None: quotes the tools)."""
    def reply(request):
        if request.has_tools and not request.tool_results:
            return call(name, args)
        return text(said if said is not None else " ".join(tool_sentences(request)))
    return reply


@pytest.mark.parametrize("question, name, args, chip, by, claim", [
    ("Which task has failed the most times?", "search_task_results", {"status": "failed"}, CHIP, "task",
     "CheckRabi fails most, with 9 failures."),
    ("Which qubit failed most often on 144Qv2?", "get_execution_history", {"chip_id": OTHER}, OTHER, "qubit",
     "Q05 fails most, with 7 failures."),
    ("Which coupling had the most failures?", "failure_ranking", {"by": "task"}, CHIP, "coupling",
     "CheckCZ fails most: 12 failures."),
    ("Which run had the most failed tasks?", "get_chip_summary", {}, CHIP, "run",
     "Run 20261120-009 had the most failures, 14 of them."),
])
def test_the_models_own_claim_from_another_kind_of_call_is_replaced(question, name, args, chip, by, claim, demo_db,
                                                                    repo, scripted_openai, tmp_path):
    keys, n = top(failures(demo_db, chip, by))
    scripted_openai.smart = _calls_then_writes(name, {"chip_id": CHIP, **args}, claim)
    said = asked_on_small(repo, scripted_openai, tmp_path, question, "off")
    assert REPLACED in said and "not checked" not in said, said
    assert all(re.search(label(k), said) for k in keys) and f"{n} of" in said, said


@pytest.mark.parametrize("question, args, chip, days", [
    ("How many coupling calibrations failed in the last 5 days?", {"what": "failed tasks"}, CHIP, 5),
    ("How many coupler tasks failed in the last 7 days on 144Qv2?", {"chip_id": OTHER, "what": "failed tasks",
                                                                      "days": 7}, OTHER, 7),
])
def test_a_count_over_every_subject_for_coupling_failures_is_re_made(question, args, chip, days, demo_db, repo,
                                                                     scripted_openai, tmp_path):
    first = dev_fails10._first(demo_db, chip, days)
    n, every = dev_fails10.failed_of_kind(demo_db, chip, "coupling", first), \
        sum(dev_fails10.failed_of_kind(demo_db, chip, k, first) for k in ("coupling", "qubit"))
    assert n != every
    scripted_openai.smart = _calls_then_writes("count_in_window", {"chip_id": CHIP, **args}, None)
    said = asked_on_small(repo, scripted_openai, tmp_path, question, "off")
    assert f"of {n} failed" in said and f"{every} " not in said, said


def test_a_run_id_no_tool_returned_gets_a_note(demo_db, repo, scripted_openai, tmp_path):
    assert demo_db["execution_history"].count_documents({"execution_id": "20261120-009"}) == 0
    scripted_openai.smart = _calls_then_writes("get_run_failures", {"chip_id": CHIP}, "Run 20261120-009 had 3 "
                                                                                      "failures.")
    said = asked_on_small(repo, scripted_openai, tmp_path, "What failed in run 20261120-009?", "off")
    assert "Not in the data: no tool of this turn returned 20261120-009" in said, said


@pytest.mark.parametrize("claim", [
    "The coupler next to it is stronger.",
    "It is healthier than the rest of the chip.",
    "Q05 beats its neighbours.",
    "So Q05 is the more reliable qubit.",
])
def test_a_comparison_next_to_a_sentence_left_out_is_marked(claim, repo, scripted_openai, tmp_path):
    scripted_openai.smart = _calls_then_writes("get_qubit_params", {"chip_id": CHIP, "qid": "5"},
                                               f"Q05 has a T1 of 999 us. {claim}")
    said = asked_on_small(repo, scripted_openai, tmp_path, "What is the T1 of Q05?", "off")
    assert "a sentence was left out here" in said and f"{claim} *(not checked)*" in said, said
