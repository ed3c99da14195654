"""A call that answers another question never reaches the person as the answer without a note, on the page's path.

Turns go through ``Copilot.ask`` (clarification on, memory off, the chip in view) against the scripted
OpenAI-compatible server over real HTTP.  Router on, the dev questions of ``tests/dev_restate.py`` end with the value
a pymongo read of the raw demo documents gives, and no note.  Router off, a model whose own call drops a condition,
swaps a side, takes another limit, another metric, another N or end, a coupling for two qubits (or two qubits for a
coupling) or other qubits gets its call re-made as the question reads it (the value checked against pymongo); a
call no single correction restates is shown with the note that says what it computed and what it leaves out.
"""

from __future__ import annotations

import re

import pytest

from copilot_core.checking.restate import mismatches
from copilot_core.language.question import parse
from tests import dev_restate
from tests.agent.page_turn import asked_on_small as _ask
from tests.eval_score import Truth
from tests.fakes.scripted_models import caller_then_quoter, quoter, silent
from tests.fakes.scripted_openai import call, text
from tests.public_eval import CHIP, OTHER, Question, latest_values, passed

NOTE = "Note: this"


@pytest.fixture(scope="module")
def dev(demo_db) -> dict[str, Question]:
    return {q.id: q for q in dev_restate.build(demo_db)}


def test_there_are_enough_dev_questions_of_every_kind(dev):
    kinds = [q.shape for q in dev.values()]
    assert len(kinds) >= 20
    assert {k: kinds.count(k) for k in set(kinds)} == {"restate filter": 6, "restate share": 5,
                                                        "restate top n": 6, "restate pair": 4}


@pytest.mark.parametrize("model", ["silent", "quoter"])
def test_the_routers_calls_restate_every_dev_question_and_carry_no_note(model, dev, repo, scripted_openai, tmp_path):
    scripted_openai.smart = {"silent": silent, "quoter": quoter}[model]
    wrong = []
    for q in dev.values():
        said = _ask(repo, scripted_openai, tmp_path, q.text, "on")
        if not passed(q, said, 0) or NOTE in said:
            wrong.append(f"{q.id}: {said[:300]}")
    assert not wrong, wrong


def _conditions(*conds: tuple[str, str, float], join: str = "and") -> dict:
    return {"chip_id": CHIP, "join": join, "conditions": [{"metric_name": n, s: v} for n, s, v in conds]}


def _one(name: str, side: str, value: float) -> dict:
    return {"chip_id": CHIP, "metric_name": name, side: value}


def _rank(name: str, order: str, n: int) -> dict:
    return {"chip_id": CHIP, "metric_name": name, "order": order, "n": n}


def _pair_ids(dev: dict[str, Question], qid: str) -> list[str]:
    """The two qubits a pair question names, as written in it ("Q4 and Q5"), read by hand."""
    return sorted(re.findall(r"\bQ(\d+)\b", dev[qid].text), key=int)


WRONG_CALLS = [
    ("rf-1", "filter_metric", _one("t1", "below", 55)),  # a condition dropped
    ("rf-1", "filter_metrics", _conditions(("t1", "above", 55), ("t2_echo", "above", 35))),  # a side swapped
    ("rf-1", "filter_metrics", _conditions(("t1", "below", 55), ("t2_echo", "above", 35), join="or")),  # or for and
    ("rf-3", "filter_metrics", _conditions(("t1", "above", 40), ("t2_echo", "above", 25))),  # a range's end dropped
    ("rf-4", "filter_metrics", _conditions(("t1", "above", 35), ("x90_gate_fidelity", "above", 99.5))),  # 1 of 3
    ("rf-6", "filter_metrics", _conditions(("t2_echo", "above", 30), ("t2_echo", "below", 80), ("t1", "above", 40))),
    ("rf-5", "filter_metrics", _conditions(("average_readout_fidelity", "above", 93), ("t2_echo", "below", 60))),
    ("rs-1", "filter_metric", _one("t1", "below", 50)),  # another limit
    ("rs-2", "filter_metric", _one("t2_echo", "below", 50)),  # the other side
    ("rs-5", "filter_metric", _one("t2_echo", "above", 65)),  # another metric
    ("rt-1", "rank_metric", _rank("t1", "highest", 5)),  # another N
    ("rt-4", "rank_metric", _rank("average_readout_fidelity", "highest", 2)),  # the other end
    ("rt-3", "rank_metric", _rank("t1", "highest", 3)),  # another metric
    ("rt-6", "rank_metric", _rank("t2_echo", "highest", 5)),  # another metric, end and N at once
]


@pytest.mark.parametrize(("qid", "name", "args"), WRONG_CALLS)
def test_a_models_call_that_answers_another_question_is_re_made_as_the_question_reads_it(
        qid, name, args, dev, repo, scripted_openai, tmp_path):
    """Router off: only the model's own call; the person reads the value pymongo gives, with no note."""
    assert mismatches(parse(dev[qid].text, [CHIP]), name, args), "the wrong call must be wrong"
    scripted_openai.smart = caller_then_quoter(name, args)
    said = _ask(repo, scripted_openai, tmp_path, dev[qid].text, "off")
    assert passed(dev[qid], said, 0), said
    assert NOTE not in said, said


@pytest.mark.parametrize(("qid", "name", "args"), [WRONG_CALLS[i] for i in (0, 4, 7, 12)])
def test_a_computed_answer_comes_from_the_re_made_call(qid, name, args, dev, repo, scripted_openai, tmp_path):
    """The model writes nothing after its wrong call: the answer computed from the data is the re-made call's."""
    scripted_openai.smart = _caller_then_silent(name, args)
    said = _ask(repo, scripted_openai, tmp_path, dev[qid].text, "off")
    assert passed(dev[qid], said, 0), said
    assert NOTE not in said, said


def _caller_then_silent(name: str, args: dict):
    """Makes one call of its own, then writes nothing: the answer is computed from the call."""
    def reply(request):
        if request.has_tools and not request.tool_results:
            return call(name, args)
        return text("")
    return reply


def test_a_coupling_read_for_two_qubits_own_values_is_re_made_for_the_qubits(dev, repo, scripted_openai, tmp_path):
    a, b = _pair_ids(dev, "rp-3")
    scripted_openai.smart = caller_then_quoter("get_coupling_params", {"chip_id": CHIP, "coupling_id": f"{a}-{b}"})
    said = _ask(repo, scripted_openai, tmp_path, dev["rp-3"].text, "off")
    assert passed(dev["rp-3"], said, 0) and NOTE not in said, said


def test_two_qubits_read_for_a_couplings_fidelity_are_re_made_for_the_coupling(dev, repo, scripted_openai, tmp_path):
    a, b = _pair_ids(dev, "rp-1")
    scripted_openai.smart = caller_then_quoter("compare_qubits", {"chip_id": CHIP, "qids": [a, b]})
    said = _ask(repo, scripted_openai, tmp_path, dev["rp-1"].text, "off")
    assert passed(dev["rp-1"], said, 0) and NOTE not in said, said


def test_another_qubit_is_re_made_for_the_two_named(dev, repo, scripted_openai, tmp_path):
    a, b = _pair_ids(dev, "rp-4")
    other = str(int(b) + 7)
    scripted_openai.smart = caller_then_quoter("compare_qubits", {"chip_id": CHIP, "qids": [a, other],
                                                                  "param_names": ["t2_echo"]})
    said = _ask(repo, scripted_openai, tmp_path, dev["rp-4"].text, "off")
    assert passed(dev["rp-4"], said, 0) and NOTE not in said, said


def _t1_t2(db) -> tuple[dict[str, float], dict[str, float]]:
    t1 = {q: v for q, v in latest_values(db, CHIP, "t1").items() if v is not None}
    t2 = {q: v for q, v in latest_values(db, CHIP, "t2_echo").items() if v is not None}
    return t1, t2


@pytest.mark.parametrize("model", ["quoter", "silent"])
def test_a_ranking_that_leaves_out_the_questions_limit_is_shown_with_a_note(model, demo_db, repo, scripted_openai,
                                                                         tmp_path):
    """No single call restates "of those with T1 above 50 μs, the lowest T2 echo": the ranking's answer (right about
    what it ranked) is shown with the note that says what it ranked and which limit it leaves out."""
    question = "Among qubits with T1 above 50 μs, which 3 have the lowest T2 echo?"
    args = _rank("t2_echo", "lowest", 3)
    scripted_openai.smart = caller_then_quoter("rank_metric", args) if model == "quoter" else \
        _caller_then_silent("rank_metric", args)
    said = _ask(repo, scripted_openai, tmp_path, question, "off")
    _, t2 = _t1_t2(demo_db)
    lowest = sorted(t2, key=lambda q: (t2[q], int(q)))[:3]
    ranked = Question("x", "x", question, Truth(patterns=tuple(rf"Q0*{int(q)}(?!\d)" for q in lowest)))
    assert passed(ranked, said, 0), said  # what was computed is shown, and is right about what it computed
    assert f"{NOTE} ranks by T2 echo (lowest 3)" in said, said
    assert "your question also sets T1 above 50 μs, which it does not cover" in said, said


def test_a_filter_on_another_chip_than_the_one_named_is_re_made_on_it(demo_db, repo, scripted_openai, tmp_path):
    question = f"How many qubits on {CHIP} have T1 below 50 μs and T2 echo above 30 μs?"
    scripted_openai.smart = caller_then_quoter("filter_metrics", {**_conditions(("t1", "below", 50),
                                                                               ("t2_echo", "above", 30)),
                                                                  "chip_id": OTHER})
    said = _ask(repo, scripted_openai, tmp_path, question, "off")
    t1, t2 = latest_values(demo_db, CHIP, "t1"), latest_values(demo_db, CHIP, "t2_echo")
    both = [q for q in t1 if t1[q] is not None and t2.get(q) is not None]
    hit = sum(1 for q in both if t1[q] < 50 and t2[q] > 30)
    assert f"{hit} of {len(both)} qubits" in said and f"on {CHIP}" in said and NOTE not in said, said
    assert f"on {OTHER}" not in said, said


@pytest.mark.parametrize(("text", "name", "args"), [
    ("How many qubits have T1 and T2 echo both above 60 μs?", "filter_metrics",
     _conditions(("t1", "above", 60), ("t2_echo", "above", 60))),
    ("How many qubits have T1 between 40 and 70 μs?", "filter_metric",
     {"chip_id": CHIP, "metric_name": "t1", "above": 40, "below": 70}),
    ("How many qubits have T2 echo above 20000 ns?", "filter_metric", _one("t2_echo", "above", 20)),
    ("Which 4 qubits have the worst readout fidelity?", "rank_metric", _rank("average_readout_fidelity", "lowest", 4)),
    ("Which qubit has the lowest T1?", "rank_metric", _rank("t1", "lowest", 5)),  # N not asked: any N shows the end
    ("Which chip has the higher mean T1?", "compare_chips", {"metric_name": "t1", "statistic": "mean"}),
    ("What is the T1 of Q5?", "get_chip_summary", {"chip_id": CHIP}),  # a call that carries nothing settled
])
def test_a_call_that_restates_its_question_has_no_mismatch(text, name, args):
    assert mismatches(parse(text, [CHIP, OTHER]), name, args) == []


@pytest.mark.parametrize(("text", "name", "args", "missed"), [
    ("Which chip has the higher mean T1?", "compare_chips", {"metric_name": "t1", "statistic": "median"},
     "asks for the mean, not the median"),
    ("How many qubits have T1 between 40 and 70 μs?", "filter_metric", _one("t1", "above", 40),
     "also sets T1 below 70 μs"),
    ("How many qubits have T2 echo above 20000 ns?", "filter_metric", _one("t2_echo", "above", 20000),
     "sets T2 echo above 20 μs, not T2 echo above 20000 μs"),
])
def test_each_mismatch_says_what_the_question_settles(text, name, args, missed):
    assert [m.missed for m in mismatches(parse(text, [CHIP, OTHER]), name, args)] == [missed]


def test_a_history_of_another_metric_is_shown_with_a_note(repo, scripted_openai, tmp_path):
    question = "How has the T1 of Q5 moved over its last 10 measurements?"
    scripted_openai.smart = caller_then_quoter("get_parameter_timeseries", {"chip_id": CHIP, "qid": "5",
                                                                            "parameter_name": "t2_echo", "last_n": 10})
    said = _ask(repo, scripted_openai, tmp_path, question, "off")
    assert f"{NOTE} reads T2 echo on {CHIP} only; your question asks about T1, not T2 echo" in said, said


@pytest.fixture(scope="module")
def chips_side_by_side(demo_db) -> dict[str, Question]:
    from tests import dev_ranking
    return {q.id: q for q in dev_ranking.build(demo_db) if q.id.startswith("rank-chips-")}


@pytest.mark.parametrize(("qid", "days"), [("rank-chips-1", 14), ("rank-chips-2", 10), ("rank-chips-3", 3)])
@pytest.mark.parametrize("writer", ["quoter", "silent"])
def test_a_count_of_one_chip_for_two_chips_named_is_re_made_for_both(qid, days, writer, chips_side_by_side, repo,
                                                                     scripted_openai, tmp_path):
    """Router off: the model counts the chip in view only; the person reads both chips' counts (pymongo's) and the
    winner, with no note."""
    question = chips_side_by_side[qid]
    args = {"chip_id": CHIP, "what": "failed tasks", "days": days}
    assert mismatches(parse(question.text, [CHIP]), "count_in_window", args), "one chip for two named must be wrong"
    scripted_openai.smart = caller_then_quoter("count_in_window", args) if writer == "quoter" else \
        _caller_then_silent("count_in_window", args)
    said = _ask(repo, scripted_openai, tmp_path, question.text, "off")
    assert passed(question, said, 0), said
    assert OTHER in said and NOTE not in said, said


def test_a_chip_comparison_over_the_named_chips_is_no_mismatch():
    asked = parse(f"Is the median T1 higher on {CHIP} or {OTHER}?", [CHIP])
    assert not mismatches(asked, "compare_chips", {"metric_name": "t1", "statistic": "median"})
    assert not mismatches(asked, "compare_chips", {"metric_name": "t1", "chip_ids": [OTHER, CHIP]})
    assert not mismatches(asked, "count_in_window", {"chip_id": CHIP, "what": "runs", "days": 7,
                                                     "chip_ids": [CHIP, OTHER]})
