"""What the person reads on the page's path (``Copilot.ask``, the scripted OpenAI-compatible server over HTTP, the
page's chip 64Qv3 in view) for the questions of ``tests/dev_forms16.py``: a ranking lists as many subjects as the
form's blanks or the count word ask, in order, with their values; a chip named by its qubit count is answered on
that chip, and a count no installed chip has is asked about; a coupling written as two loose qubit mentions is
answered with its value in a sentence that names the coupling as the data does, also when the model names it
loosely.  Expected figures are the hand-written pymongo reads of the dev module."""

from __future__ import annotations

import re

import pytest

from copilot_core.answer.blocks import AskBlock
from tests import dev_forms16 as dev
from tests.agent.page_turn import SMALL, page_turn, shown
from tests.dev_ranks14 import found_at, ranked_truth
from tests.eval_score import problems
from tests.fakes.scripted_models import quoter, silent
from tests.fakes.scripted_openai import call, text

MODELS = {"quoter": quoter, "silent": silent}
NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _ranked_wrong(demo_db, case, said: str) -> list[str]:
    truth = ranked_truth(demo_db, case)
    at = [found_at(said, case.chip, s) for s, _ in truth]
    places = 1 if case.metric in ("zx90_gate_time", "t1", "t2_echo") else 2
    close = [any(abs(float(n) - v) <= 0.6 * 10 ** -places for n in NUMBER.findall(said)) for _, v in truth]
    return [] if -1 not in at and at == sorted(at) and all(close) else [f"{truth} not listed in order"]


@pytest.mark.parametrize("model", list(MODELS))
def test_every_dev_question_reads_the_pymongo_truth(model, demo_db, repo, scripted_openai, tmp_path):
    scripted_openai.smart = MODELS[model]
    wrong = []
    for case in dev.RANKED:
        said = shown(page_turn(repo, scripted_openai, tmp_path, case.text, SMALL))
        if bad := _ranked_wrong(demo_db, case, said):
            wrong.append((case.id, bad, said[:400]))
    for question in [s.question for s in dev.sized(demo_db)] + [q for q, _, _ in dev.pairs(demo_db)]:
        said = shown(page_turn(repo, scripted_openai, tmp_path, question.text, SMALL))
        if bad := problems(question.truth, said):
            wrong.append((question.id, bad, said[:400]))
    assert not wrong, "\n".join(map(str, wrong))


@pytest.mark.parametrize("question", dev.UNSIZED)
def test_a_qubit_count_no_chip_has_is_asked_about_before_any_model_call(question, repo, scripted_openai, tmp_path):
    scripted_openai.smart = quoter
    turn = page_turn(repo, scripted_openai, tmp_path, question, SMALL)
    asks = [b for b in turn.answer.blocks if isinstance(b, AskBlock)]
    assert asks and set(asks[0].options) == set(dev.CHIPS) and not scripted_openai.requests, turn.answer.text


def test_a_model_naming_the_coupling_loosely_still_shows_it_named_as_stored(demo_db, repo, scripted_openai,
                                                                             tmp_path):
    for question, (tool, args), _ in dev.pairs(demo_db)[:4]:
        a, b = args["coupling_id"].split("-")
        value = question.truth.expects[0].value
        unit = " ns" if args["param_names"] == ["zx90_gate_time"] else "%"
        loose = f"Between qubit {a} and qubit {b} it is {value:.2f}{unit}."

        def model(request, loose=loose, tool=tool, args=args):
            return text(loose) if request.tool_results else call(tool, args)

        scripted_openai.smart = model
        said = shown(page_turn(repo, scripted_openai, tmp_path, question.text, SMALL))
        assert not problems(question.truth, said), said
