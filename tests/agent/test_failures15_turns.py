"""The questions of ``tests/dev_failures15.py`` on the page's path (``Copilot.ask``, the real openai SDK against the
scripted server over HTTP).  Router on, every dev question ends with the count, share or ranking asked, in its unit,
window and run, as a hand-written pymongo read gives it; a "which task fails most" within one run names that run,
not the chip's whole history; a count of failed task results the model writes as runs, after a right call, is not
let stand."""

from __future__ import annotations

import pytest

from tests import dev_failures15
from tests.agent.page_turn import SMALL, asked_on_small, page_turn, shown
from tests.fakes.scripted_models import quoter
from tests.fakes.scripted_openai import call, text
from tests.public_eval import CHIP, Question, passed


@pytest.fixture(scope="module")
def dev(demo_db) -> dict[str, tuple[Question, tuple[str, dict]]]:
    return {q.id: (q, c) for q, c in dev_failures15.planned(demo_db)}


def test_the_router_answers_every_dev_question_in_its_unit_window_and_run(dev, repo, scripted_openai, tmp_path):
    scripted_openai.smart = quoter
    wrong = []
    for q, _ in dev.values():
        said = shown(page_turn(repo, scripted_openai, tmp_path, q.text, SMALL))
        if not passed(q, said, 0) or "Note:" in said:
            wrong.append(f"{q.id}: {said[:400]}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("qid, back", [("f15-run-5", 1), ("f15-run-1", 0)])
def test_a_ranking_within_one_run_names_that_run(qid, back, dev, demo_db, repo, scripted_openai, tmp_path):
    question, _ = dev[qid]
    run = dev_failures15.newest_runs(demo_db, CHIP, 2)[back]["execution_id"]
    scripted_openai.smart = quoter
    said = shown(page_turn(repo, scripted_openai, tmp_path, question.text, SMALL))
    assert f"in run {run}" in said and "over every stored run" not in said, said


def _calls_then_writes(name: str, args: dict, said: str):
    def reply(request):
        if request.has_tools and not request.tool_results:
            return call(name, args)
        return text(said)
    return reply


def test_failed_results_written_as_runs_after_a_right_call_are_not_let_stand(demo_db, repo, scripted_openai,
                                                                              tmp_path):
    end = dev_failures15.end(demo_db, (CHIP,))
    span = (end, end)
    results = dev_failures15.failed_results(demo_db, CHIP, span)
    hit = dev_failures15.runs_with_failures(demo_db, CHIP, span)
    assert results != hit
    question = "How many task results failed today?"
    scripted_openai.smart = _calls_then_writes("count_in_window", {"chip_id": CHIP, "what": "failed tasks",
                                                                   "day": "today"},
                                               f"Today {results} runs had a failed task.")
    said = asked_on_small(repo, scripted_openai, tmp_path, question, "off")
    assert f"{results} runs had a failed task" not in said or "Note:" in said, said
    assert str(results) in said, said


def test_the_same_count_written_as_task_results_stands(demo_db, repo, scripted_openai, tmp_path):
    end = dev_failures15.end(demo_db, (CHIP,))
    results = dev_failures15.failed_results(demo_db, CHIP, (end, end))
    scripted_openai.smart = _calls_then_writes("count_in_window", {"chip_id": CHIP, "what": "failed tasks",
                                                                   "day": "today"},
                                               f"Today {results} task results failed.")
    said = asked_on_small(repo, scripted_openai, tmp_path, "How many task results failed today?", "off")
    assert f"Today {results} task results failed." in said and "Note:" not in said, said
