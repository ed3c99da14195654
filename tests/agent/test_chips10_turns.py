"""What the person reads on the page's path (``Copilot.ask``, the scripted OpenAI-compatible server over HTTP, the
page's chip 64Qv3 in view) for the two classes of ``tests/dev_chips10.py``: a figure asked of every installed chip
is stated for each chip, the chip a "which chip" question asks for named first; a chip described in words ("the
bigger chip", "the other device") is answered on the installed chip meant, and asked about when no chip is in view
for "the other chip".  A model that calls on one chip (the chip in view) is re-made as the question reads it.
Expected figures are the hand-written pymongo reads of the dev module."""

from __future__ import annotations

import re

import pytest

from copilot_core.answer.blocks import AskBlock
from copilot_core.chat import ChatState
from copilot_core.session import Copilot
from copilot_core.settings import load_settings
from copilot_core.skills import SkillLibrary
from tests import dev_chips10
from tests.agent.page_turn import SMALL, asked_on_small, page_turn, shown
from tests.eval_score import problems
from tests.fakes.scripted_models import caller_then_quoter, quoter, silent
from tests.public_eval import CHIP, OTHER

NOTE = "Note: this"
CHIPS = (CHIP, OTHER)


def _first_chip(said: str) -> str | None:
    found = [(m.start(), c) for c in CHIPS for m in [re.search(re.escape(c), said)] if m]
    return min(found)[1] if found else None


def _wrong(q, said: str) -> list[str]:
    bad = problems(q.truth, said)
    if NOTE in said:
        bad.append("a note")
    if q.id in dev_chips10.FIRST and _first_chip(said) != dev_chips10.FIRST[q.id]:
        bad.append(f"names {_first_chip(said)} first, not {dev_chips10.FIRST[q.id]}")
    return bad


@pytest.mark.parametrize("model", ["quoter", "silent"])
def test_every_dev_question_reads_the_pymongo_truth_on_the_chips_asked(model, demo_db, repo, scripted_openai,
                                                                        tmp_path):
    scripted_openai.smart = {"quoter": quoter, "silent": silent}[model]
    wrong = []
    for q, _ in dev_chips10.cases(demo_db):
        said = shown(page_turn(repo, scripted_openai, tmp_path, q.text, SMALL))
        if bad := _wrong(q, said):
            wrong.append(f"{q.id}: {bad}: {said[:500]}")
    assert not wrong, "\n".join(wrong)


def _summary(name: str) -> dict:
    return {"chip_id": CHIP, "param_names": [name]}


ONE_CHIP_CALLS = [
    ("ch10-stat-1", "get_chip_summary", _summary("t1")),  # the chip in view's summary for a max per chip
    ("ch10-stat-3", "metric_spread", {"chip_id": CHIP, "metric_name": "t1"}),
    ("ch10-stat-5", "get_chip_summary", _summary("x90_gate_fidelity")),
    ("ch10-after-stat-2", "compare_chips", {"metric_name": "t2_echo", "statistic": "median"}),  # median, not std
    ("ch10-share-1", "filter_metric", {"chip_id": CHIP, "metric_name": "t1", "above": 50.0}),
    ("ch10-count-2", "filter_metric", {"chip_id": CHIP, "metric_name": "t2_echo", "below": 40.0}),
    ("ch10-after-count-1", "get_chip_summary", _summary("t2_echo")),
    ("ch10-fail-2", "count_in_window", {"chip_id": CHIP, "what": "failed tasks"}),  # one chip, no window
    ("ch10-desc-1", "get_chip_summary", _summary("t1")),  # the chip in view, not the bigger one
    ("ch10-desc-3", "get_chip_summary", _summary("average_readout_fidelity")),
    ("ch10-after-desc-3", "get_chip_summary", _summary("x90_gate_fidelity")),
    ("ch10-after-desc-4", "get_chip_summary", _summary("t1")),
]


@pytest.mark.parametrize("qid, name, args", ONE_CHIP_CALLS)
def test_a_model_call_on_one_chip_is_re_made_as_the_question_reads_it(qid, name, args, demo_db, repo,
                                                                      scripted_openai, tmp_path):
    q = next(q for q, _ in dev_chips10.cases(demo_db) if q.id == qid)
    scripted_openai.smart = caller_then_quoter(name, args)
    said = asked_on_small(repo, scripted_openai, tmp_path, q.text, "off")
    assert not _wrong(q, said), said


def _ask_without_a_chip_in_view(repo, server, tmp_path, question: str):
    copilot = Copilot(repo, settings=load_settings({"DATA_DIR": str(tmp_path)}), skills=SkillLibrary.load(),
                      memory=None, gate=False)
    state = ChatState(username="local", provider=server.provider("chat_completions", model=SMALL), chip_id=None)
    return copilot.ask(state, question, clarify=True)


@pytest.mark.parametrize("question", ["What is the median T1 on the other chip?",
                                      "median T2 echo of the chip that isn't in view"])
def test_the_other_chip_with_none_in_view_is_asked_about(question, repo, scripted_openai, tmp_path):
    scripted_openai.smart = quoter
    turn = _ask_without_a_chip_in_view(repo, scripted_openai, tmp_path, question)
    asks = [b for b in turn.answer.blocks if isinstance(b, AskBlock)]
    assert asks and set(asks[0].options) == set(CHIPS) and not scripted_openai.requests, turn.answer.text


def test_the_bigger_chip_with_none_in_view_is_answered_on_it(demo_db, repo, scripted_openai, tmp_path):
    q = next(q for q, _ in dev_chips10.cases(demo_db) if q.id == "ch10-desc-1")
    scripted_openai.smart = quoter
    said = shown(_ask_without_a_chip_in_view(repo, scripted_openai, tmp_path, q.text))
    assert not problems(q.truth, said), said
