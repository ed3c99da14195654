"""The four classes of ``tests/dev_limits7.py`` on the page's path (``Copilot.ask``, clarification on, memory off,
the chip in view) against the scripted OpenAI-compatible server: what the person reads.

Router on, every dev question ends with the count a pymongo read gives (or, for a quantity the data does not hold,
says so and states no value), with no note.  Router off, a model's own call on the wrong side of a limit, at a
fraction for a percentage, over one day for ten, counting every result for the excluded ones, is re-made as the
question reads it; a model that reads a neighbouring metric for a quantity the data does not hold is shown the note.
"""

from __future__ import annotations

import pytest

from copilot_core.checking.restate import mismatches
from copilot_core.language.question import parse
from tests import dev_limits7
from tests.agent.page_turn import asked_on_small as _ask
from tests.fakes.scripted_models import caller_then_quoter, quoter, silent
from tests.fakes.scripted_openai import call, text
from tests.public_eval import CHIP, Question, passed

NOTE = "Note:"


@pytest.fixture(scope="module")
def dev(demo_db) -> dict[str, Question]:
    return {q.id: q for q in dev_limits7.build(demo_db)}


def test_there_are_enough_dev_questions_of_every_class(dev):
    kinds = [q.shape for q in dev.values()]
    assert {k: kinds.count(k) for k in set(kinds)} == {"limits7 limit": 13, "limits7 window": 7,
                                                        "limits7 kind": 7, "limits7 absent": 7}


@pytest.mark.parametrize("model", ["silent", "quoter"])
def test_the_router_answers_every_dev_question_right_with_no_note(model, dev, repo, scripted_openai, tmp_path):
    scripted_openai.smart = {"silent": silent, "quoter": quoter}[model]
    wrong = []
    for q in dev.values():
        said = _ask(repo, scripted_openai, tmp_path, q.text, "on")
        if not passed(q, said, 0) or NOTE in said:
            wrong.append(f"{q.id}: {said[:400]}")
    assert not wrong, "\n".join(wrong)


def test_a_quantity_not_held_names_the_nearest_held_metrics(dev, repo, scripted_openai, tmp_path):
    scripted_openai.smart = quoter
    said = _ask(repo, scripted_openai, tmp_path, dev["l7-absent-1"].text, "on")
    assert "The data holds no depolarizing rate" in said, said
    assert "The nearest metrics it holds are Average gate fidelity and X90 gate fidelity" in said, said


def test_an_excluded_count_says_what_excluded_means(dev, repo, scripted_openai, tmp_path):
    scripted_openai.smart = silent
    said = _ask(repo, scripted_openai, tmp_path, dev["l7-kind-1"].text, "on")
    assert "were marked excluded (set aside by a person; QDash's excluded flag)" in said, said
    assert "(UTC, 7 days ending on the day of the newest run)" in said, said


def _filter(name: str, **sides) -> dict:
    return {"chip_id": CHIP, "metric_name": name, **sides}


def _count(what: str, **more) -> dict:
    return {"chip_id": CHIP, "what": what, **more}


WRONG_CALLS = [
    ("l7-limit-1", "filter_metric", _filter("t1", below=60)),  # "beats" read as below
    ("l7-limit-5", "filter_metric", _filter("average_readout_fidelity", above=90)),  # "doesn't reach" as above
    ("l7-limit-4", "filter_metric", _filter("x90_gate_fidelity", below=0.995)),  # a fraction for 99.5%
    ("l7-limit-11", "filter_metric", _filter("x90_gate_fidelity", above=0.995)),
    ("l7-limit-8", "filter_metric", {**_filter("zx90_gate_fidelity", above=95)}),
    ("l7-limit-10", "filter_metric", _filter("t1", below=20)),  # another value
    ("l7-window-1", "count_in_window", _count("failed tasks", days=1)),  # one day for ten
    ("l7-window-3", "count_in_window", _count("failed tasks", day="today")),
    ("l7-window-4", "count_in_window", _count("runs", days=1)),
    ("l7-kind-1", "count_in_window", _count("task results", days=7)),  # every result for the excluded ones
    ("l7-kind-3", "count_in_window", _count("failed tasks", days=10)),
    ("l7-kind-5", "count_in_window", _count("task results", days=14, task_name="CheckT1")),
]


@pytest.mark.parametrize(("qid", "name", "args"), WRONG_CALLS)
def test_a_models_wrong_call_is_re_made_as_the_question_reads_it(qid, name, args, dev, repo, scripted_openai,
                                                                 tmp_path):
    """Router off: only the model's own call; the person reads the count pymongo gives, with no note."""
    assert mismatches(parse(dev[qid].text, [CHIP]), name, args) or "0.995" in str(args), "the wrong call is wrong"
    scripted_openai.smart = caller_then_quoter(name, args)
    said = _ask(repo, scripted_openai, tmp_path, dev[qid].text, "off")
    assert passed(dev[qid], said, 0), said
    assert NOTE not in said, said


def _caller_then_silent(name: str, args: dict):
    def reply(request):
        if request.has_tools and not request.tool_results:
            return call(name, args)
        return text("")
    return reply


@pytest.mark.parametrize(("qid", "name", "args"), [WRONG_CALLS[i] for i in (1, 2, 6, 9)])
def test_a_computed_answer_comes_from_the_re_made_call(qid, name, args, dev, repo, scripted_openai, tmp_path):
    scripted_openai.smart = _caller_then_silent(name, args)
    said = _ask(repo, scripted_openai, tmp_path, dev[qid].text, "off")
    assert passed(dev[qid], said, 0), said
    assert NOTE not in said, said


@pytest.mark.parametrize(("qid", "name", "args", "note"), [
    ("l7-absent-2", "rank_metric", {"chip_id": CHIP, "metric_name": "x90_gate_fidelity", "order": "highest", "n": 1},
     f"Note: this ranks by X90 gate fidelity (highest 1) on {CHIP} only; your question asks for leakage rate, which "
     "the data does not hold (the nearest metrics it holds: X90 gate fidelity, Average gate fidelity), not X90 gate "
     "fidelity, which it does not cover."),
    ("l7-absent-1", "get_qubit_params", {"chip_id": CHIP, "qid": "5"},
     "Note: your question asks for depolarizing rate, which the data does not hold (the nearest metrics it holds: "
     "Average gate fidelity, X90 gate fidelity); no value in this answer is of it."),
    ("l7-absent-4", "get_qubit_params", {"chip_id": CHIP, "qid": "3"},
     "Note: your question asks for thermal population, which the data does not hold (the nearest metrics it holds: "
     "Readout fidelity |0>, Readout fidelity); no value in this answer is of it."),
])
def test_a_neighbouring_metric_read_for_a_quantity_not_held_is_noted(qid, name, args, note, dev, repo,
                                                                      scripted_openai, tmp_path):
    scripted_openai.smart = caller_then_quoter(name, args)
    said = _ask(repo, scripted_openai, tmp_path, dev[qid].text, "off")
    assert note in said, said
