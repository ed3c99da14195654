"""Five more elements a call must restate, on the page's path (``Copilot.ask``, clarification on, memory off, the
chip in view) against the scripted OpenAI-compatible server over real HTTP: a condition in words with no number, a
coupling's gate time, N subjects asked, a spread's statistic and unit, a correlation's two metrics.

Router on, the dev questions of ``tests/dev_restate2.py`` end with the value a pymongo read gives and no note.
Router off, a model whose own call leaves an element out gets the call re-made as the question reads it; a call no
correction restates is shown with the note, word for word.
"""

from __future__ import annotations

import pytest

from copilot_core.checking.restate import mismatches
from copilot_core.language.question import parse
from tests import dev_restate2
from tests.agent.page_turn import asked_on_small as _ask
from tests.fakes.scripted_models import caller_then_quoter, quoter, silent
from tests.fakes.scripted_openai import call, text
from tests.public_eval import CHIP, Question, passed

NOTE = "Note: this"


@pytest.fixture(scope="module")
def dev(demo_db) -> dict[str, Question]:
    return {q.id: q for q in dev_restate2.build(demo_db)}


def test_there_are_enough_dev_questions_of_every_element(dev):
    kinds = [q.shape for q in dev.values()]
    assert {k: kinds.count(k) for k in set(kinds)} == {"restate2 condition": 5, "restate2 gate time": 4,
                                                        "restate2 n": 4, "restate2 spread": 4,
                                                        "restate2 correlation": 4}


@pytest.mark.parametrize("model", ["silent", "quoter"])
def test_the_routers_calls_restate_every_dev_question_and_carry_no_note(model, dev, repo, scripted_openai, tmp_path):
    scripted_openai.smart = {"silent": silent, "quoter": quoter}[model]
    wrong = []
    for q in dev.values():
        said = _ask(repo, scripted_openai, tmp_path, q.text, "on")
        if not passed(q, said, 0) or NOTE in said:
            wrong.append(f"{q.id}: {said[:400]}")
    assert not wrong, wrong


def test_a_condition_in_words_says_which_band_limit_it_used(dev, repo, scripted_openai, tmp_path):
    scripted_openai.smart = quoter
    said = _ask(repo, scripted_openai, tmp_path, dev["r2c-1"].text, "on")
    assert "t2_echo below 30 μs" in said and "30 μs is the lab's 'bad' limit of t2_echo." in said, said


def _rank(name: str, order: str, n: int) -> dict:
    return {"chip_id": CHIP, "metric_name": name, "order": order, "n": n}


def _spread(name: str, lead: str = "std") -> dict:
    return {"chip_id": CHIP, "metric_name": name, "lead": lead}


WRONG_CALLS = [
    ("r2c-1", "rank_metric", _rank("t2_echo", "lowest", 5)),  # a ranking for a condition in words
    ("r2c-2", "filter_metric", {"chip_id": CHIP, "metric_name": "t1", "above": 50}),  # one condition dropped
    ("r2c-4", "filter_metric", {"chip_id": CHIP, "metric_name": "zx90_gate_fidelity", "above": 99}),  # another limit
    ("r2g-1", "rank_metric", _rank("zx90_gate_fidelity", "highest", 1)),  # fidelity for gate time
    ("r2g-2", "rank_metric", _rank("zx90_gate_fidelity", "lowest", 3)),
    ("r2n-1", "rank_metric", _rank("t2_echo", "lowest", 1)),  # one of three
    ("r2n-2", "rank_metric", _rank("average_readout_fidelity", "highest", 1)),  # one where several are listed
    ("r2s-1", "metric_spread", _spread("t1")),  # the standard deviation for the IQR
    ("r2s-2", "metric_spread", _spread("qubit_frequency")),  # GHz for MHz
    ("r2s-3", "metric_spread", _spread("t2_echo", "iqr")),  # the IQR for the range
    ("r2r-1", "correlate_metrics", {"chip_id": CHIP, "metric_a": "t1", "metric_b": "t2_star"}),  # another metric
    ("r2r-2", "metric_spread", _spread("average_readout_fidelity")),  # no correlation at all
]


@pytest.mark.parametrize(("qid", "name", "args"), WRONG_CALLS)
def test_a_models_call_that_leaves_an_element_out_is_re_made_as_the_question_reads_it(
        qid, name, args, dev, repo, scripted_openai, tmp_path):
    """Router off: only the model's own call; the person reads the value pymongo gives, with no note."""
    assert mismatches(parse(dev[qid].text, [CHIP]), name, args), "the wrong call must be wrong"
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


@pytest.mark.parametrize(("qid", "name", "args"), [WRONG_CALLS[i] for i in (0, 3, 5, 8, 11)])
def test_a_computed_answer_comes_from_the_re_made_call(qid, name, args, dev, repo, scripted_openai, tmp_path):
    scripted_openai.smart = _caller_then_silent(name, args)
    said = _ask(repo, scripted_openai, tmp_path, dev[qid].text, "off")
    assert passed(dev[qid], said, 0), said
    assert NOTE not in said, said


@pytest.mark.parametrize(("question", "name", "args", "note"), [
    ("How many couplings have a long ZX90 gate time?", "rank_metric", _rank("zx90_gate_time", "highest", 5),
     f"{NOTE} ranks by ZX90 gate time (highest 5) on {CHIP} only; your question asks for long ZX90 gate time, and "
     "the lab sets no limit for it (say which limit you mean), which it does not cover."),
    ("Among the qubits with poor T2 echo, which 2 have the lowest T1?", "rank_metric", _rank("t1", "lowest", 2),
     f"{NOTE} ranks by T1 (lowest 2) on {CHIP} only; your question also sets T2 echo below 30 μs, which it does "
     "not cover."),
])
def test_a_call_no_correction_restates_is_shown_with_the_note(question, name, args, note, repo, scripted_openai,
                                                               tmp_path):
    scripted_openai.smart = caller_then_quoter(name, args)
    said = _ask(repo, scripted_openai, tmp_path, question, "off")
    assert note in said, said


@pytest.mark.parametrize(("text", "name", "args"), [
    ("How many qubits have poor T2 echo?", "filter_metric", {"chip_id": CHIP, "metric_name": "t2_echo", "below": 30}),
    ("Which qubits have the lowest T1?", "rank_metric", _rank("t1", "lowest", 5)),
    ("What is the IQR of T1?", "metric_spread", _spread("t1", "iqr")),
    ("What is the spread of the qubit frequency in MHz?", "metric_spread",
     {**_spread("qubit_frequency"), "unit": "MHz"}),
    ("Does T1 track T2 echo?", "correlate_metrics", {"chip_id": CHIP, "metric_a": "t2_echo", "metric_b": "t1"}),
    ("Which coupling has the longest gate time?", "rank_metric", _rank("zx90_gate_time", "highest", 1)),
])
def test_a_call_that_restates_its_element_has_no_mismatch(text, name, args):
    assert mismatches(parse(text, [CHIP]), name, args) == []
