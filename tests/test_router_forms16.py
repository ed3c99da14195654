"""The parse and the router's call for every question of ``tests/dev_forms16.py``, each call's own sentence held to
the hand-written pymongo truth: a ranking lists as many as the form has blanks or the count word says; a chip named
by its qubit count is the installed chip of that stored size (asked about when no chip has it); two qubit mentions
joined loosely on a coupling metric are one coupling, named as the data names it; a run or a list of qubits is not."""

from __future__ import annotations

import re

import pytest

from copilot_core.language.question import parse
from copilot_core.language.ranked import form_blanks
from copilot_core.routing.chip_meant import ChipFacts, chips_meant_by, facts_of
from copilot_core.routing.prefetch import plan_prefetch
from copilot_core.tools import DataStore, Toolkit
from copilot_core.tools.toolkit import answer_line
from tests import dev_forms16 as dev
from tests.dev_ranks14 import found_at, ranked_truth
from tests.eval_score import problems

NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _said(repo, plan) -> str:
    return answer_line(Toolkit(repo, store=DataStore()).execute(plan.name, dict(plan.args))) or ""


def _close(said: str, value: float, places: int) -> bool:
    return any(abs(float(n) - value) <= 0.6 * 10 ** -places for n in NUMBER.findall(said))


def test_there_are_at_least_20_dev_questions_and_6_written_after_the_fix(demo_db):
    total, after = dev.count(demo_db)
    assert total >= 20 and after >= 6


@pytest.mark.parametrize("case", dev.RANKED, ids=[c.id for c in dev.RANKED])
def test_a_ranking_lists_as_many_as_its_form_or_count_word_asks(case, demo_db, repo):
    assert parse(case.text, dev.CHIPS).extreme_n == case.n
    plan = plan_prefetch(case.text, chip_id=dev.CHIP, chips=dev.CHIPS)
    assert plan is not None and (plan.name, plan.args) == (
        "rank_metric", {"chip_id": case.chip, "metric_name": case.metric, "order": case.order, "n": case.n}), plan
    said = _said(repo, plan)
    truth = ranked_truth(demo_db, case)
    at = [found_at(said, case.chip, s) for s, _ in truth]
    assert -1 not in at and at == sorted(at), (truth, said)
    places = 1 if case.metric in ("zx90_gate_time", "t1", "t2_echo") else 2
    assert all(_close(said, v, places) for _, v in truth), (truth, said)


@pytest.mark.parametrize(("text", "n"), [
    ("1) Q5 2) Q7 3) Q9: which has the lowest T1?", None),  # a filled list, no blanks
    ("worst T1 since 2026-11-20", None),  # a date's digits are no blanks
    ("rank them\n1.\n2.\n3.\n4.\n5.\n6.", 6),
    ("1. ___\n2. ___", 2),
    ("just 1)", None),
])
def test_blanks_are_counted_only_in_an_empty_numbered_form(text, n):
    assert form_blanks(text) == n


@pytest.mark.parametrize(("text", "n"), [
    ("Which qubits failed most this week?\n1)\n2)\n3)", 3),
    ("which qubits fail most often, top four", 4),
    ("T1 spread on the chip, the extremes:\n1.\n2.\n3.", 3),
])
def test_every_shape_that_takes_n_reads_it_the_one_way(text, n):
    assert parse(text, dev.CHIPS).extreme_n == n


def test_a_filled_list_or_a_qubit_number_is_never_the_ranking_size():
    assert parse("list the 3 qubits with the best T1: 1) Q5 2) Q7", dev.CHIPS).extreme_n == 3
    assert parse("worst T1 around Q12, top five", dev.CHIPS).extreme_n == 5


@pytest.fixture(scope="module")
def sized_cases(demo_db):
    return dev.sized(demo_db)


def test_a_chip_named_by_its_qubit_count_is_the_installed_chip_of_that_size(sized_cases, repo):
    wrong = []
    kit = Toolkit(repo, store=DataStore())
    for case in sized_cases:
        meant = chips_meant_by(case.question.text, facts_of(repo.list_chips()), dev.CHIP)
        chip = meant.chips[0] if len(meant.chips) == 1 else parse(case.question.text, dev.CHIPS).chip  # "144q": an id
        plan = plan_prefetch(case.question.text, chip_id=chip or dev.CHIP, chips=dev.CHIPS)
        said = answer_line(kit.execute(plan.name, dict(plan.args))) if plan is not None else ""
        if chip != case.chip or plan is None or (plan.name, dict(plan.args)) != case.call or \
                problems(case.question.truth, said or ""):
            wrong.append((case.question.id, chip, plan, said))
    assert not wrong, wrong


@pytest.mark.parametrize("text", dev.UNSIZED)
def test_a_size_no_installed_chip_has_is_asked_about_naming_the_chips(text, repo):
    meant = chips_meant_by(text, facts_of(repo.list_chips()), dev.CHIP)
    assert meant.unclear and set(meant.options) == set(dev.CHIPS)


def test_two_chips_of_one_size_are_asked_about_and_both_sizes_named_mean_both_chips():
    facts = [ChipFacts("A", 64, None), ChipFacts("B", 64, None), ChipFacts("C", 144, None)]
    assert chips_meant_by("median T1 on the 64 one", facts, "C").unclear
    assert chips_meant_by("median T1 on the 144 one", facts, "A").chips == ("C",)
    both = chips_meant_by("median T1 on the 144 one against the 64-qubit chip", facts[1:], "B")
    assert both.chips == ("C", "B")


@pytest.fixture(scope="module")
def pair_cases(demo_db):
    return dev.pairs(demo_db)


def test_two_qubits_joined_on_a_coupling_metric_are_one_coupling_named_as_stored(pair_cases, repo):
    wrong = []
    kit = Toolkit(repo, store=DataStore())
    for question, call, _ in pair_cases:
        plan = plan_prefetch(question.text, chip_id=dev.CHIP, chips=dev.CHIPS)
        said = answer_line(kit.execute(plan.name, dict(plan.args))) if plan is not None else ""
        read = parse(question.text, dev.CHIPS)  # one coupling, no loose qubits (the claim check binds to it)
        if read.couplings != (call[1]["coupling_id"],) or read.qubits or plan is None or \
                (plan.name, dict(plan.args)) != call or problems(question.truth, said or ""):
            wrong.append((question.id, question.text, plan, said))
    assert not wrong, wrong


@pytest.mark.parametrize(("qid", "text", "qubits", "span"), dev.NOT_PAIRS, ids=[c[0] for c in dev.NOT_PAIRS])
def test_a_run_a_list_or_a_comparison_of_qubits_is_no_coupling(qid, text, qubits, span):
    read = parse(text, dev.CHIPS)
    assert read.couplings == () and read.qubits == qubits and read.span == span
