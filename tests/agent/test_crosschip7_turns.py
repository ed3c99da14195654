"""What the person reads on the page's path (``Copilot.ask``, the scripted OpenAI-compatible server over HTTP) for
the three classes of ``tests/dev_crosschip7.py``: a statistic across chips (pooled over every qubit of the chips,
each chip's own beside it, or each chip side by side), a spread per chip in the unit asked, and two couplings
compared as couplings.  Router on: the router's call answers with the numbers a hand-written pymongo read gives,
and no note.  Router off: a model's call with another statistic, scope, unit or subject (one chip's summary, a
median for a spread, three qubits for two couplings) is re-made as the question reads it."""

from __future__ import annotations

import pytest

from copilot_core.checking.restate import mismatches
from copilot_core.language.question import parse
from tests import dev_crosschip7
from tests.agent.page_turn import asked_on_small as _ask
from tests.fakes.scripted_models import caller_then_quoter, quoter, silent
from tests.fakes.scripted_openai import call, text
from tests.public_eval import CHIP, OTHER, Question, passed

NOTE = "Note: this"
FAILED = "could not be computed"
CHIPS = (CHIP, OTHER)


@pytest.fixture(scope="module")
def dev(demo_db) -> dict[str, Question]:
    return {q.id: q for q in dev_crosschip7.build(demo_db)}


def test_there_are_enough_dev_questions_of_every_class(dev):
    prefixes = [q.split("-")[1] for q in dev]
    assert prefixes.count("pool") >= 6 and prefixes.count("each") >= 6 and prefixes.count("pair") >= 5
    assert prefixes.count("nopair") >= 2


@pytest.mark.parametrize("model", ["silent", "quoter"])
def test_the_routers_call_answers_every_dev_question_with_no_note(model, dev, repo, scripted_openai, tmp_path):
    scripted_openai.smart = {"silent": silent, "quoter": quoter}[model]
    wrong = []
    for q in dev.values():
        said = _ask(repo, scripted_openai, tmp_path, q.text, "on")
        if not passed(q, said, 0) or NOTE in said or FAILED in said:
            wrong.append(f"{q.id}: {said[:600]}")
    assert not wrong, "\n".join(wrong)


def _summary(name: str) -> dict:
    return {"chip_id": CHIP, "param_names": [name]}


WRONG_CALLS = [
    ("cc7-pool-1", "get_chip_summary", _summary("t1")),  # one chip's statistics for a pooled mean
    ("cc7-pool-3", "get_chip_summary", _summary("t2_echo")),
    ("cc7-pool-4", "compare_chips", {"metric_name": "average_readout_fidelity", "statistic": "median"}),  # per chip
    ("cc7-pool-2", "compare_chips", {"metric_name": "t1", "statistic": "median", "pooled": True}),  # median, not mean
    ("cc7-pool-6", "compare_chips", {"metric_name": "t1", "statistic": "median"}),  # median per chip for a pooled max
    ("cc7-each-3", "compare_chips", {"metric_name": "qubit_frequency", "statistic": "median"}),  # median for a spread
    ("cc7-each-3", "metric_spread", {"chip_id": CHIP, "metric_name": "qubit_frequency", "unit": "MHz"}),  # one chip
    ("cc7-each-4", "compare_chips", {"metric_name": "t1", "statistic": "median"}),
    ("cc7-each-5", "compare_chips", {"metric_name": "t2_echo", "statistic": "std"}),  # std for the IQR
    ("cc7-each-7", "compare_chips", {"metric_name": "qubit_frequency", "statistic": "std"}),  # GHz for MHz
    ("cc7-pair-1", "compare_qubits", {"chip_id": CHIP, "qids": ["0", "1", "4"], "param_names": ["zx90_gate_fidelity"]}),
    ("cc7-pair-3", "compare_qubits", {"chip_id": CHIP, "qids": ["8", "9", "10"]}),
    ("cc7-pair-2", "get_coupling_params", {"chip_id": CHIP, "coupling_id": "11-10",
                                           "param_names": ["zx90_gate_fidelity"]}),  # one of the two
]


@pytest.mark.parametrize(("qid", "name", "args"), WRONG_CALLS)
def test_a_models_call_with_another_statistic_scope_or_subject_is_re_made(qid, name, args, dev, repo,
                                                                          scripted_openai, tmp_path):
    """Router off: only the model's own call; the person reads the values pymongo gives, with no note."""
    assert mismatches(parse(dev[qid].text, CHIPS), name, args), "the wrong call must be wrong"
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


@pytest.mark.parametrize(("qid", "name", "args"), [WRONG_CALLS[i] for i in (0, 2, 5, 10)])
def test_a_computed_answer_comes_from_the_re_made_call(qid, name, args, dev, repo, scripted_openai, tmp_path):
    scripted_openai.smart = _caller_then_silent(name, args)
    said = _ask(repo, scripted_openai, tmp_path, dev[qid].text, "off")
    assert passed(dev[qid], said, 0), said
    assert NOTE not in said, said


def test_a_pooled_answer_says_it_is_pooled_and_shows_each_chip(dev, repo, scripted_openai, tmp_path):
    scripted_openai.smart = quoter
    said = _ask(repo, scripted_openai, tmp_path, dev["cc7-pool-1"].text, "on")
    assert "together (pooled)" in said and f"{CHIP} " in said and f"{OTHER} " in said, said


@pytest.mark.parametrize(("text", "name", "args"), [
    ("mean T1 across all chips", "compare_chips", {"metric_name": "t1", "statistic": "mean", "pooled": True}),
    ("which chip has the higher mean T1", "compare_chips", {"metric_name": "t1", "statistic": "mean"}),
    ("T1 IQR on each chip", "compare_chips", {"metric_name": "t1", "statistic": "iqr"}),
    ("median T1 of the chip", "get_chip_summary", {"chip_id": CHIP, "param_names": ["t1"]}),
    ("coupling 0-1 vs 4-1 ZX90 fidelity", "get_coupling_params",
     {"chip_id": CHIP, "coupling_ids": ["1-0", "4-1"], "param_names": ["zx90_gate_fidelity"]}),
])
def test_a_call_that_restates_its_scope_has_no_mismatch(text, name, args):
    assert mismatches(parse(text, CHIPS), name, args) == []
