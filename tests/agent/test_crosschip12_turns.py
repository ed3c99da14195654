"""Two chips compared on a best or worst subject, a mean or a failure count, and metrics written in shorthand,
through the page's path (``Copilot.ask``, the real openai SDK against the scripted server over HTTP); and an answer
whose every sentence the claim check leaves out: the person reads the data's own sentence (the router's call, else a
tool the model called) with the replacement note, or a plain "not answered", never a page of marks alone.
Expected values are the hand-written pymongo reads of ``tests/dev_crosschip12.py``."""

from __future__ import annotations

import pytest

from copilot_core.checking.left_out import NOT_ANSWERED
from copilot_core.checking.marks import LEFT_OUT
from tests import dev_crosschip12
from tests.agent.page_turn import SMALL, page_turn, shown
from tests.eval_score import problems
from tests.fakes.scripted_models import quoter
from tests.fakes.scripted_openai import call, text
from tests.public_eval import CHIP, OTHER

REPLACED = "was replaced by one computed from the tool results"
# figures no tool result holds, written as a comparison, a lead-in and a courtesy around them
INVENTED = ("Here is the comparison of the two chips:\n\n{a} comes out ahead at 123.45, while {b} reaches only "
            "67.89. That is a gap of 55.56.\n\nLet me know if you need anything else.")


@pytest.fixture(scope="module")
def cases(demo_db):
    return dev_crosschip12.cases(demo_db)


def _case(cases, qid: str):
    return next(q for q, _ in cases if q.id == f"cc12-{qid}")


def test_the_quoter_answers_every_dev_question(cases, repo, scripted_openai, tmp_path):
    scripted_openai.smart = quoter
    wrong = []
    for q, _ in cases:
        said = shown(page_turn(repo, scripted_openai, tmp_path, q.text, SMALL))
        if found := problems(q.truth, said):
            wrong.append((q.id, found, said))
    assert not wrong, wrong


def _inventor(request):
    """Writes the invented comparison once a tool result is in; before that, lets the turn's own call stand."""
    return text(INVENTED.format(a=CHIP, b=OTHER))


@pytest.mark.parametrize("qid", ["end-1", "end-2", "mean-1", "fail-1", "short-3", "short-6", "pair-2", "pair-3"])
def test_an_answer_left_out_entirely_is_the_routers_sentence(qid, cases, repo, scripted_openai, tmp_path):
    q = _case(cases, qid)
    scripted_openai.smart = _inventor
    said = shown(page_turn(repo, scripted_openai, tmp_path, q.text, SMALL))
    assert REPLACED in said and LEFT_OUT not in said and "123.45" not in said, said
    assert not problems(q.truth, said), (problems(q.truth, said), said)


def _caller_then_inventor(name: str, args: dict):
    def reply(request):
        if request.has_tools and not request.tool_results:
            return call(name, args)
        return text(INVENTED.format(a=CHIP, b=OTHER))
    return reply


def test_without_the_router_the_models_own_calls_sentence_stands_in(cases, repo, scripted_openai, tmp_path):
    q = _case(cases, "end-1")
    want = {"metric_name": "t1", "statistic": "max", "chip_ids": [CHIP, OTHER]}
    scripted_openai.smart = _caller_then_inventor("compare_chips", want)
    said = shown(page_turn(repo, scripted_openai, tmp_path, q.text, SMALL, {"COPILOT_TOOL_ROUTER": "off"}))
    assert REPLACED in said and LEFT_OUT not in said and "123.45" not in said, said
    assert not problems(q.truth, said), (problems(q.truth, said), said)


def test_a_single_chip_answer_left_out_entirely_is_the_datas_sentence(demo_db, repo, scripted_openai, tmp_path):
    values = sorted(dev_crosschip12.values(demo_db, CHIP, "t1"))
    median = (values[len(values) // 2] + values[(len(values) - 1) // 2]) / 2
    scripted_openai.smart = lambda request: text("The median T1 on 64Qv3 is 123.45. Let me know if you need more.")
    said = shown(page_turn(repo, scripted_openai, tmp_path, "median T1 on 64Qv3?", SMALL))
    assert REPLACED in said and LEFT_OUT not in said and f"{median:.1f} μs" in said, said


def test_when_nothing_computed_the_answer_says_plainly_it_was_not_answered(repo, scripted_openai, tmp_path):
    # the only call lists the metrics: no sentence of it answers a comparison
    scripted_openai.smart = _caller_then_inventor("list_available_parameters", {"chip_id": CHIP})
    turn = page_turn(repo, scripted_openai, tmp_path, "Which chip looks nicer to you overall, honestly?", SMALL,
                     {"COPILOT_TOOL_ROUTER": "off"})
    said = shown(turn)
    assert [o.name for o in turn.result.tool_calls] == ["list_available_parameters"], turn
    assert said.startswith(NOT_ANSWERED) and "123.45" not in said and LEFT_OUT not in said, said
