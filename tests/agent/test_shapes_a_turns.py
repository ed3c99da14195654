"""Compound filter, percentage, spread and correlation questions asked through ``Copilot.ask`` (the page's path:
clarification on, no memory) with the scripted OpenAI-compatible server over HTTP, a small model's name (so the
router and its prefetch decide the call) and three scripted models: one that quotes the tool's sentence, one that
writes nothing, one that swaps the sentence's first two decimals.  The answer the person reads must hold each truth
(``tests/dev_shapes_a.py``: pymongo on the raw documents) and never the swapped sentence."""

from __future__ import annotations

import pytest

from copilot_core.chat import ChatState
from copilot_core.session import Copilot
from copilot_core.settings import load_settings
from copilot_core.skills import SkillLibrary
from tests import dev_shapes_a
from tests.agent.test_public_eval import MODELS, SWAPPED
from tests.eval_score import problems
from tests.public_eval import CHIP

SMALL = "qwen2.5-coder-1.5b-instruct"
PLANNED = {"compound filter": ("filter_metrics",), "percentage": ("filter_metric", "count_in_window"),
           "spread": ("metric_spread",), "correlation": ("correlate_metrics",)}


@pytest.fixture(scope="module")
def questions(demo_db):
    return dev_shapes_a.build(demo_db)


def test_every_shape_has_four_questions_in_two_wordings(questions):
    for shape in PLANNED:
        mine = [q for q in questions if q.shape == shape]
        assert len(mine) >= 4 and len({q.text.split()[0] for q in mine}) >= 2


@pytest.mark.parametrize("model", list(MODELS))
def test_the_answer_read_holds_the_truth(model, questions, repo, scripted_openai, tmp_path):
    scripted_openai.smart = MODELS[model]
    copilot = Copilot(repo, settings=load_settings({"DATA_DIR": str(tmp_path)}), skills=SkillLibrary.load(),
                      memory=None, gate=False)
    failed, let_through = [], []
    for q in questions:
        SWAPPED.clear()
        state = ChatState(username="local", provider=scripted_openai.provider("chat_completions", model=SMALL),
                          chip_id=CHIP)
        turn = copilot.ask(state, q.text, clarify=True)
        shown = turn.answer.text if turn.answer is not None else (turn.notice or "")
        called = [t.name for t in turn.answer.work.tools] if turn.answer is not None and turn.answer.work else []
        why = problems(q.truth, shown, 0)
        if why or not set(PLANNED[q.shape]) & set(called):
            failed.append(f"{q.id} {called}: {why} -> {shown[:240]!r}")
        if any(s in shown for s in SWAPPED):
            let_through.append(q.id)
    assert not failed, "\n".join(failed)
    assert not let_through
