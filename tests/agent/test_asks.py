"""An answerable question is answered, never asked back: through ``Copilot.ask`` (the page's path: clarification on,
the chip in view, no memory) with the scripted OpenAI-compatible server and a model that calls ``ask_user``.

Both model sizes: a small one (the router makes the question's call first) and a large one (no router: the model's
own rounds, where ``ask_user`` used to end the turn).  Truths are pymongo reads in ``tests/dev_asks.py``.  A really
ambiguous question (a bare "T2", a metric phrase that names none, no chip while several are installed) still gets
its options.
"""

from __future__ import annotations

import pytest

from copilot_core.answer.blocks import AskBlock
from copilot_core.chat import ChatState
from copilot_core.session import Copilot
from copilot_core.settings import load_settings
from copilot_core.skills import SkillLibrary
from tests import dev_asks
from tests.eval_score import problems
from tests.fakes.scripted_models import ASKED, asker, asker_then_quoter
from tests.fakes.scripted_openai import SmartRequest
from tests.public_eval import CHIP

MODELS = {"small": "qwen2.5-coder-1.5b-instruct", "large": "gpt-4o"}


def _turn(repo, server, tmp_path, question: str, *, size: str = "large", chip: str | None = CHIP):
    copilot = Copilot(repo, settings=load_settings({"DATA_DIR": str(tmp_path)}), skills=SkillLibrary.load(),
                      memory=None, gate=False)
    state = ChatState(username="local", provider=server.provider("chat_completions", model=MODELS[size]),
                      chip_id=chip)
    return copilot.ask(state, question, clarify=True)


def _shown(turn) -> str:
    assert turn.answer is not None
    assert not any(isinstance(b, AskBlock) for b in turn.answer.blocks), turn.answer.text
    return turn.answer.text


@pytest.fixture(scope="module")
def asks(demo_db):
    return {q.id: q for q in dev_asks.build(demo_db)}


def test_the_dev_questions_cover_the_shapes_twice(asks):
    shapes = [q.shape for q in asks.values()]
    assert {s for s in shapes} == {"window count", "compound filter", "fails most", "qubit pair", "percentage"}
    assert all(shapes.count(s) >= 2 for s in shapes)


@pytest.mark.parametrize("size", list(MODELS))
@pytest.mark.parametrize("model", [asker, asker_then_quoter], ids=["asker", "asker-then-quoter"])
def test_a_model_that_asks_back_still_answers_every_dev_question(asks, model, size, repo, scripted_openai, tmp_path):
    scripted_openai.smart = model
    wrong = []
    for question in asks.values():
        shown = _shown(_turn(repo, scripted_openai, tmp_path, question.text, size=size))
        if why := problems(question.truth, shown):
            wrong.append(f"{question.id}: {why} | {shown[:300]!r}")
    assert not wrong, "\n".join(wrong)


def test_the_refusal_names_the_chip_in_view_and_the_model_answers_in_its_own_words(asks, repo, scripted_openai,
                                                                                   tmp_path):
    seen: list[str] = []

    def ask_then_answer(request: SmartRequest):
        outputs = [r.output for r in request.tool_results]
        seen.extend(outputs)
        return asker_then_quoter(request)

    scripted_openai.smart = ask_then_answer
    question = asks["ask-window-1"]
    turn = _turn(repo, scripted_openai, tmp_path, question.text)
    shown = _shown(turn)
    assert not problems(question.truth, shown), shown
    assert any("Do not ask the user" in s and CHIP in s for s in seen), seen
    assert turn.result is not None and turn.result.claims != "computed"  # the model's words, not the fallback


@pytest.mark.parametrize("size", list(MODELS))
@pytest.mark.parametrize("text, chip", [
    ("Which qubit has the highest T2?", CHIP),  # bare T2: echo or star
    ("How many qubits have T1 above 50 μs?", None),  # no chip in view, two installed
    ("Which qubit has the best coherence?", CHIP),  # a metric phrase that names none: the model's question
])
def test_a_really_ambiguous_question_still_gets_options(text, chip, size, repo, scripted_openai, tmp_path):
    scripted_openai.smart = asker
    turn = _turn(repo, scripted_openai, tmp_path, text, size=size, chip=chip)
    assert turn.answer is not None
    [ask] = [b for b in turn.answer.blocks if isinstance(b, AskBlock)]
    assert len(ask.options) >= 2


@pytest.mark.parametrize("size", list(MODELS))
def test_a_question_of_no_known_shape_keeps_the_models_options(size, repo, scripted_openai, tmp_path):
    """Nothing in the words fixes what is asked ("the odd one"): the model's question is the answer."""
    scripted_openai.smart = asker
    turn = _turn(repo, scripted_openai, tmp_path, f"What about the odd one on {CHIP}?", size=size)
    assert turn.answer is not None
    [ask] = [b for b in turn.answer.blocks if isinstance(b, AskBlock)]
    assert ask.question == ASKED["question"] and list(ask.options) == ASKED["options"]
