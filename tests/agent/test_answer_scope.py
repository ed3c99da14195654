"""A narrower scope the question states (a window, one task, one qubit) is kept, or the person is told it was not.

Through ``Copilot.ask`` (the page's path, clarification on, no memory) with the scripted OpenAI-compatible server:
the router's own call answers each dev question of ``tests/dev_scope.py`` (truths by pymongo there); a model that
calls the wider tool (no window, every task, the whole chip) and quotes it gets a visible scope note; a model that
calls the right-scope tool gets none.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from copilot_core.answer.blocks import TextBlock
from copilot_core.checking.scope import scoped_blocks
from copilot_core.routing.prefetch import plan_prefetch
from copilot_core.tools import DataStore, Toolkit
from copilot_core.tools.toolkit import answer_line
from tests import dev_scope
from tests.eval_score import problems
from tests.fakes.scripted_models import quoter
from tests.fakes.scripted_openai import tools_then_answer
from tests.public_eval import CHIP
from tests.agent.page_turn import SMALL, page_turn, shown

NOTE = "which the question asked about"
IDS = ["sc-fails-1", "sc-fails-2", "sc-fails-3", "sc-fails-4", "sc-task-1", "sc-task-2", "sc-task-3", "sc-runs-1",
       "sc-runs-2", "sc-runs-3", "sc-runs-4", "sc-qubit-1", "sc-qubit-2", "sc-qubit-3"]


@pytest.fixture(scope="module")
def questions(demo_db):
    return {q.id: q for q in dev_scope.build(demo_db)}


def _ask(repo, server, tmp_path, question: str, model: str | None = None) -> str:
    return shown(page_turn(repo, server, tmp_path, question, model))


def _wide(planned_args: dict) -> dict:
    """The same call with every narrowing the question stated dropped: the chip's all-time figure."""
    return {k: v for k, v in planned_args.items() if k not in ("days", "since_weekday", "qid", "task_name")}


@pytest.mark.parametrize("qid", IDS)
def test_the_routers_call_keeps_the_scope_the_question_states(qid, questions, repo):
    question = questions[qid]
    planned = plan_prefetch(question.text, chip_id=CHIP)
    assert planned is not None, question.text
    outcome = Toolkit(repo, store=DataStore()).execute(planned.name, planned.args)
    said = answer_line(outcome)
    assert said is not None and not problems(question.truth, said), (planned, said)


@pytest.mark.parametrize("qid", IDS)
def test_a_small_model_reads_the_right_scope_answer(qid, questions, repo, scripted_openai, tmp_path):
    question = questions[qid]
    scripted_openai.smart = quoter  # answers in the tools' own words, from the router's call
    shown = _ask(repo, scripted_openai, tmp_path, question.text, model=SMALL)
    assert not problems(question.truth, shown), shown
    assert NOTE not in shown, shown


@pytest.mark.parametrize("qid", IDS)
def test_a_model_that_calls_the_wider_tool_gets_a_scope_note(qid, questions, repo, scripted_openai, tmp_path):
    question = questions[qid]
    planned = plan_prefetch(question.text, chip_id=CHIP)
    assert planned is not None
    wide = _wide(planned.args)
    toolkit = Toolkit(repo, store=DataStore())
    wide_said = answer_line(toolkit.execute(planned.name, wide))
    scoped_said = answer_line(toolkit.execute(planned.name, dict(planned.args)))
    # the wider figure differs from the scoped one (its sentence may still hold the truth's number elsewhere, "2 of 32")
    assert wide_said is not None and wide_said != scoped_said, "the wider call must answer differently"
    scripted_openai.smart = tools_then_answer([(planned.name, wide)], _quote)
    shown = _ask(repo, scripted_openai, tmp_path, question.text)
    if NOTE not in shown:  # the restate check re-made the call on the window asked: the scoped answer, unmarked
        assert not problems(question.truth, shown) and wide_said not in shown, shown
        return
    assert "Scope:" in shown, shown  # else the person is told the figures are wider than asked


@pytest.mark.parametrize("qid", ["sc-fails-2", "sc-task-1", "sc-runs-1", "sc-qubit-3"])
def test_a_model_that_calls_the_right_scope_gets_no_note(qid, questions, repo, scripted_openai, tmp_path):
    question = questions[qid]
    planned = plan_prefetch(question.text, chip_id=CHIP)
    assert planned is not None
    scripted_openai.smart = tools_then_answer([(planned.name, planned.args)], _quote)
    shown = _ask(repo, scripted_openai, tmp_path, question.text)
    assert not problems(question.truth, shown), shown
    assert NOTE not in shown, shown


@pytest.mark.parametrize("qid", ["sc-fails-1", "sc-task-2", "sc-runs-2", "sc-qubit-1"])
def test_the_routers_right_scope_sentence_replaces_an_answer_from_a_wider_call(qid, questions, repo):
    question = questions[qid]
    planned = plan_prefetch(question.text, chip_id=CHIP)
    assert planned is not None
    toolkit = Toolkit(repo, store=DataStore())
    routed = replace(toolkit.execute(planned.name, planned.args), origin="router")
    wide = toolkit.execute(planned.name, _wide(planned.args))
    wide_said = answer_line(wide)
    assert wide_said is not None
    shown = scoped_blocks([TextBlock(wide_said)], question.text, [routed, wide])
    text = "\n".join(b.text for b in shown if isinstance(b, TextBlock))
    assert not problems(question.truth, text.split("\n")[0]), text
    assert wide_said not in text and "is shown instead" in text, text


def _quote(seen) -> str:
    """The ``answer`` sentences of the results the scripted model has seen, quoted."""
    out = []
    for result in seen:
        body = json.loads(result.output)
        if isinstance(body, dict) and isinstance(body.get("answer"), str):
            out.append(body["answer"])
    return " ".join(out)
