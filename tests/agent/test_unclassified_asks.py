"""With a chip in view, a question the data answers is answered, never asked back, whatever its wording: a share and
two qubits side by side in wordings the parse gives no known shape, through ``Copilot.ask`` (the page's path:
clarification on, the chip in view) with a scripted model that calls ``ask_user`` first.

The model, told the question is answerable, calls the tool that answers it (the router has no call for these
wordings) and then quotes its sentence.  Truths are pymongo reads in ``tests/dev_marks.py``.  A question that names
nothing the data holds, a bare "T2" and a metric phrase that names several metrics still get the model's options.
"""

from __future__ import annotations

import json

import pytest

from copilot_core.answer.blocks import AskBlock
from copilot_core.chat import ChatState
from copilot_core.language.question import parse
from copilot_core.routing.clarify import may_ask
from copilot_core.session import Copilot
from copilot_core.settings import load_settings
from copilot_core.skills import SkillLibrary
from tests import dev_marks
from tests.eval_score import problems
from tests.fakes.scripted_models import ASKED, tool_sentences
from tests.fakes.scripted_openai import SmartRequest, call, text
from tests.public_eval import CHIP, OTHER

MODELS = {"small": "qwen2.5-coder-1.5b-instruct", "large": "gpt-4o"}
# The call a model makes once told not to ask, per dev question.
CALLS = {"marks-pc-1": ("filter_metric", {"chip_id": CHIP, "metric_name": "t1", "above": 80}),
         "marks-pair-1": ("compare_qubits", {"chip_id": CHIP, "qids": ["12", "25"], "param_names": ["t1"]})}
ROUTED = {"marks-pair-1", "marks-pc-1"}  # two qubits named with a metric; a limit written as a verb ("clear")


def _turn(repo, server, tmp_path, question: str, size: str, chip: str | None = CHIP):
    copilot = Copilot(repo, settings=load_settings({"DATA_DIR": str(tmp_path)}), skills=SkillLibrary.load(),
                      memory=None, gate=False)
    state = ChatState(username="local", provider=server.provider("chat_completions", model=MODELS[size]),
                      chip_id=chip)
    return copilot.ask(state, question, clarify=True)


def _asker_then_caller(tool: tuple[str, dict]):
    """Asks back first; told not to, calls ``tool``; with its result in, quotes the tools' sentences."""
    def model(request: SmartRequest):
        said = tool_sentences(request)
        if said:
            return text(" ".join(said))
        if not request.has_tools:
            return text("")
        refused = any("Do not ask the user" in r.output for r in request.tool_results)
        return call(*tool) if refused else call("ask_user", ASKED)
    return model


@pytest.fixture(scope="module")
def asks(demo_db):
    return {q.id: q for q in dev_marks.asks(demo_db)}


def test_the_pair_wording_has_no_known_shape_and_a_portion_reads_as_a_share(asks):
    assert parse(asks["marks-pair-1"].text).shape in {"other", "lookup"}
    assert parse(asks["marks-pc-1"].text).shape == "percentage"


@pytest.mark.parametrize("size", list(MODELS))
@pytest.mark.parametrize("qid", list(CALLS))
def test_an_unclassified_answerable_question_is_answered(qid, size, asks, repo, scripted_openai, tmp_path):
    seen: list[str] = []
    model = _asker_then_caller(CALLS[qid])

    def watched(request: SmartRequest):
        seen.extend(r.output for r in request.tool_results)
        return model(request)

    scripted_openai.smart = watched
    question = asks[qid]
    turn = _turn(repo, scripted_openai, tmp_path, question.text, size)
    assert turn.answer is not None
    assert not any(isinstance(b, AskBlock) for b in turn.answer.blocks), turn.answer.text
    assert not problems(question.truth, turn.answer.text), turn.answer.text
    refused = [json.loads(s) for s in seen if "Do not ask the user" in s]
    if qid in ROUTED:  # the router has this question's call: an ask is told to answer from its result
        assert all(CHIP in r["error"] and "from the tool results" in r["hint"] for r in refused), seen
    else:  # no call answers it yet: the model is told to call the tool
        assert refused and CHIP in refused[0]["error"] and "Call the tool" in refused[0]["hint"], seen


@pytest.mark.parametrize("text_, chip", [
    ("What about the odd one?", CHIP),  # names nothing the data holds
    ("Is the T2 of Q05 fine?", CHIP),  # bare T2
    ("How is the coherence of Q05?", CHIP),  # a phrase for several metrics
    ("What portion of the qubits clear 80 μs in T1?", None),  # no chip in view, two installed
])
def test_a_really_ambiguous_question_may_still_be_asked(text_, chip):
    assert may_ask(parse(text_, [CHIP, OTHER]), chip_id=chip, chips=[CHIP, OTHER], planned=False)


@pytest.mark.parametrize("text_", [
    "What portion of the qubits clear 80 μs in T1?", "Line Q12 up against Q25 on T1.",
    "How does the 12-13 coupling fare?", "Which execution broke the most tasks?", "Is T1 tied to T2 echo?",
    "Give me CheckT1's story.", "Anything odd in run 20261121-001?", "What's the tally of failures?",
])
def test_a_question_naming_something_the_data_holds_is_never_asked_about(text_):
    assert not may_ask(parse(text_, [CHIP, OTHER]), chip_id=CHIP, chips=[CHIP, OTHER], planned=False)


def test_a_qubit_meant_but_not_named_may_be_asked_about():
    asked = parse(f"How is the noisy qubit on {CHIP}?", [CHIP, OTHER])
    assert may_ask(asked, chip_id=CHIP, chips=[CHIP, OTHER], planned=False)
