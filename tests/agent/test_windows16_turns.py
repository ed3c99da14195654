"""The questions of ``tests/dev_windows16.py`` on the page's path (``Copilot.ask``, the real openai SDK against the
scripted server over HTTP).  Router on, every dev question ends with the count, share or ranking asked, over the N
days it writes (joined to today by any connective) and of what it names (a task, a family, a limit, a set of qubits,
distinct qubits), as a hand-written pymongo read gives it; a count of distinct qubits the model writes as task
results, after a right call, is not let stand."""

from __future__ import annotations

import pytest

from tests import dev_windows16
from tests.agent.page_turn import SMALL, asked_on_small, page_turn, shown
from tests.fakes.scripted_models import quoter
from tests.fakes.scripted_openai import call, text
from tests.public_eval import OTHER, Question, passed


@pytest.fixture(scope="module")
def dev(demo_db) -> dict[str, Question]:
    return {q.id: q for q, _, _ in dev_windows16.planned(demo_db)}


def test_the_router_answers_every_dev_question_over_its_window_and_of_what_it_names(dev, repo, scripted_openai,
                                                                                    tmp_path):
    scripted_openai.smart = quoter
    wrong = []
    for q in dev.values():
        said = shown(page_turn(repo, scripted_openai, tmp_path, q.text, SMALL))
        if not passed(q, said, 0) or "Note:" in said:
            wrong.append(f"{q.id}: {said[:400]}")
    assert not wrong, "\n".join(wrong)


def _calls_then_writes(name: str, args: dict, said: str):
    def reply(request):
        if request.has_tools and not request.tool_results:
            return call(name, args)
        return text(said)
    return reply


_DISTINCT = {"chip_id": OTHER, "what": "failed tasks", "days": 3, "distinct_qubits": True}
_QUESTION = "How many distinct qubits on 144Qv2 had a failed task in the last 3 days?"


def _qubits(demo_db) -> int:
    span = dev_windows16.back(demo_db, OTHER, 3)
    n = dev_windows16.distinct_qubits(dev_windows16.results(demo_db, OTHER, span, "failed"))
    assert n != len(dev_windows16.results(demo_db, OTHER, span, "failed"))  # the two counts differ
    return n


def test_distinct_qubits_written_as_task_results_are_not_let_stand(demo_db, repo, scripted_openai, tmp_path):
    n = _qubits(demo_db)
    scripted_openai.smart = _calls_then_writes("count_in_window", _DISTINCT, f"On 144Qv2, {n} task results failed.")
    said = asked_on_small(repo, scripted_openai, tmp_path, _QUESTION, "off")
    assert f"{n} task results failed" not in said or "Note:" in said, said


def test_the_same_count_written_as_qubits_stands(demo_db, repo, scripted_openai, tmp_path):
    n = _qubits(demo_db)
    scripted_openai.smart = _calls_then_writes("count_in_window", _DISTINCT,
                                               f"On 144Qv2, {n} distinct qubits had a failed task.")
    said = asked_on_small(repo, scripted_openai, tmp_path, _QUESTION, "off")
    assert f"{n} distinct qubits had a failed task." in said and "Note:" not in said, said
