"""The router's call and its tool's own sentence for every question of ``tests/dev_ranks14.py``: a ranking asked in
error words is made at the fidelity's other end, a qubit's couplings are ranked among themselves, two chips are
compared on the statistic asked; each sentence holds the hand-written pymongo truth.  A model's call at the wrong
end, over the whole chip, or with the median is re-made as the question reads it."""

from __future__ import annotations

import re

import pytest

from copilot_core.checking.restate import corrected
from copilot_core.language.question import parse
from copilot_core.routing.prefetch import plan_prefetch
from copilot_core.tools import DataStore, Toolkit
from copilot_core.tools.toolkit import answer_line
from tests import dev_ranks14 as dev

NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _plan(text: str):
    return plan_prefetch(text, chip_id=dev.CHIP, chips=dev.CHIPS)


def _said(repo, plan) -> str:
    return answer_line(Toolkit(repo, store=DataStore()).execute(plan.name, dict(plan.args))) or ""


def _close(said: str, value: float, places: int) -> bool:
    """``value`` is written in ``said`` at the precision the tools use (or finer)."""
    return any(abs(float(n) - value) <= 0.6 * 10 ** -places for n in NUMBER.findall(said))


def test_there_are_at_least_30_dev_questions_some_written_after_the_fix():
    assert len(dev.RANKED) + len(dev.OF_QUBIT) + len(dev.ACROSS) >= 30 and len(dev.after()) >= 10


@pytest.mark.parametrize("case", dev.RANKED, ids=[c.id for c in dev.RANKED])
def test_a_ranking_in_error_words_is_made_at_the_fidelitys_other_end(case, demo_db, repo):
    plan = _plan(case.text)
    assert plan is not None and (plan.name, plan.args) == (
        "rank_metric", {"chip_id": case.chip, "metric_name": case.metric, "order": case.order, "n": case.n}), plan
    said = _said(repo, plan)
    truth = dev.ranked_truth(demo_db, case)
    at = [dev.found_at(said, case.chip, s) for s, _ in truth]
    assert -1 not in at and at == sorted(at), (truth, said)
    assert all(_close(said, v, 1 if case.metric == "zx90_gate_time" else 2) for _, v in truth), (truth, said)


@pytest.mark.parametrize("case", dev.OF_QUBIT, ids=[c.id for c in dev.OF_QUBIT])
def test_a_qubits_couplings_are_ranked_among_themselves(case, demo_db, repo):
    plan = _plan(case.text)
    assert plan is not None and (plan.name, plan.args) == (
        "get_coupling_params", {"chip_id": dev.CHIP, "qubit_id": str(case.qubit), "param_names": [case.metric]})
    said = _said(repo, plan)
    ranked = dev.qubit_couplings(demo_db, case)
    end = ranked[0] if case.end == "best" else ranked[-1]
    lead = said.lower().find(f"{case.end}: ")
    assert lead >= 0 and dev.found_at(said[lead:], dev.CHIP, end[0]) == len(case.end) + 2, (ranked, said)
    assert all(dev.found_at(said, dev.CHIP, s) >= 0 for s, _ in ranked), (ranked, said)


def _across_args(case: dev.Across) -> dict:
    if case.statistic.startswith("share"):
        return {"metric_name": case.metric, ("above" if case.statistic == "share>" else "below"): case.limit}
    return {"metric_name": case.metric, "statistic": case.statistic}


@pytest.mark.parametrize("case", dev.ACROSS, ids=[c.id for c in dev.ACROSS])
def test_two_chips_are_compared_on_the_statistic_asked(case, demo_db, repo):
    plan = _plan(case.text)
    assert plan is not None and plan.name == "compare_chips", plan
    assert {k: v for k, v in plan.args.items() if k != "chip_ids"} == _across_args(case), plan
    said = _said(repo, plan)
    truth = dev.across_truth(demo_db, case)
    places = 1 if case.statistic.startswith("share") or case.metric in ("t1", "t2_echo") else 2
    assert all(_close(said, v, places) for v in truth.values()), (truth, said)
    if not case.statistic.startswith("share") and case.statistic not in ("std", "range", "iqr"):
        better = max(truth, key=truth.get)  # every metric here is higher-better
        assert said.startswith(f"{better} has the higher"), (truth, said)


WRONG_END = [("cz-err-low", "lowest"), ("ro-err-high", "highest"), ("err-rate", "highest"),
             ("measure-err", "lowest")]


@pytest.mark.parametrize("qid, given", WRONG_END)
def test_a_ranking_made_at_the_errors_end_is_re_made_at_the_fidelitys(qid, given):
    case = next(c for c in dev.RANKED if c.id == qid)
    name, args, why = corrected("rank_metric", {"chip_id": case.chip, "metric_name": case.metric, "order": given,
                                                "n": case.n}, parse(case.text, dev.CHIPS))
    assert why and (name, args["order"], args["n"]) == ("rank_metric", case.order, case.n), (name, args, why)


@pytest.mark.parametrize("case", dev.OF_QUBIT, ids=[c.id for c in dev.OF_QUBIT])
def test_a_chip_wide_ranking_for_one_qubits_couplings_is_re_made_as_its_couplings(case):
    name, args, why = corrected("rank_metric", {"chip_id": dev.CHIP, "metric_name": case.metric, "order": "lowest",
                                                "n": 2}, parse(case.text, dev.CHIPS))
    assert why and "couplings of qubit" in why, why
    assert (name, args) == ("get_coupling_params", {"chip_id": dev.CHIP, "qubit_id": str(case.qubit),
                                                    "param_names": [case.metric]})


@pytest.mark.parametrize("case", [c for c in dev.ACROSS if not c.statistic.startswith("share")],
                         ids=lambda c: c.id)
def test_a_median_comparison_is_re_made_with_the_statistic_asked(case):
    name, args, why = corrected("compare_chips", {"metric_name": case.metric, "statistic": "median",
                                                  "chip_ids": list(dev.CHIPS)}, parse(case.text, dev.CHIPS))
    assert why and name == "compare_chips" and args["statistic"] == case.statistic, (args, why)


@pytest.mark.parametrize("text, read", [
    ("Which three couplings have the lowest CZ error?", "Which three couplings have the highest CZ fidelity?"),
    ("Lowest readout error rate please", "Highest readout fidelity please"),
    ("Which chip has the lower mean CZ error?", "Which chip has the higher mean CZ fidelity?"),
    ("Which tasks had errors yesterday?", "Which tasks had errors yesterday?"),  # a failure, no fidelity's error
    ("How many qubits have readout error above 2%?", "How many qubits have readout fidelity below 98%?"),  # held
])
def test_an_error_word_is_read_as_its_fidelity_with_the_end_turned(text, read):
    from copilot_core.language.error_words import as_fidelity
    assert as_fidelity(text)[0] == read
