"""The parse and the router's call for every question of ``tests/dev_structured17.py``, held to the hand-written
pymongo truth: a compound filter written as a block (JSON, Mongo operators, YAML, SQL, a table, TOML, a URL query)
is planned with every condition; a coupling written as a field or a list of two is one coupling, named as stored; a
run of qubits with a coupling word, or a dash-marked list, is no coupling; a chip id with one typing slip is the one
chip it can mean, and a key struck for another is no chip."""

from __future__ import annotations

import pytest

from copilot_core.agent.lookups import lookup_plan
from copilot_core.agent.plan import absent_plan
from copilot_core.domain.vocabulary import chips_meant
from copilot_core.language.layout import as_prose
from copilot_core.language.question import parse
from copilot_core.routing.limits import settle_limits
from copilot_core.routing.prefetch import plan_prefetch
from copilot_core.tools import DataStore, Toolkit
from copilot_core.tools.toolkit import answer_line
from tests import dev_structured17 as dev
from tests.dev_compound12 import Case, truth
from tests.eval_score import problems


def _planned(case: Case, repo) -> tuple[str, dict] | None:
    plan = absent_plan(case.text, dev.CHIP, repo, dev.CHIPS) or lookup_plan(case.text, dev.CHIP) or \
        plan_prefetch(case.text, chip_id=dev.CHIP, chips=dev.CHIPS)
    if plan is None:
        return None
    return plan.name, dict(settle_limits(plan.name, dict(plan.args), parse(case.text, dev.CHIPS)).args)


def test_there_are_at_least_20_dev_questions_and_6_written_after_the_fix(demo_db):
    total, after = dev.count()
    assert total >= 20 and after >= 6
    assert {c.chip for c in dev.CASES} == {dev.CHIP, dev.OTHER}
    empty = [c.id for c in dev.CASES if not truth(demo_db, c)]
    assert not empty, f"every filter has subjects to list: {empty}"


@pytest.mark.parametrize("case", dev.CASES, ids=[c.id for c in dev.CASES])
def test_every_condition_of_a_block_is_planned(case, repo):
    assert _planned(case, repo) == (case.call[0], {"chip_id": case.chip, **case.call[1]})


@pytest.mark.parametrize("case", dev.CASES, ids=[c.id for c in dev.CASES])
def test_the_planned_filter_lists_the_pymongo_truth(case, demo_db, repo):
    planned = _planned(case, repo)
    assert planned is not None
    full = Toolkit(repo, store=DataStore()).execute(*planned).full
    assert isinstance(full, dict)
    listed = {str(row.get("qid") or row.get("coupling_id")) for row in full["matching"]}
    assert {"-".join(sorted(s.split("-"), key=int)) for s in listed} == truth(demo_db, case), full["answer"]


@pytest.fixture(scope="module")
def pair_cases(demo_db):
    return dev.pairs(demo_db)


def test_a_pair_in_a_field_or_list_is_one_coupling_named_as_stored(pair_cases, repo):
    wrong = []
    kit = Toolkit(repo, store=DataStore())
    for question, call, _ in pair_cases:
        plan = plan_prefetch(question.text, chip_id=dev.CHIP, chips=dev.CHIPS)
        said = answer_line(kit.execute(plan.name, dict(plan.args))) if plan is not None else ""
        read = parse(question.text, dev.CHIPS)
        if read.couplings != (call[1]["coupling_id"],) or read.qubits or plan is None or \
                (plan.name, dict(plan.args)) != call or problems(question.truth, said or ""):
            wrong.append((question.id, question.text, read.couplings, read.qubits, plan, said))
    assert not wrong, wrong


@pytest.mark.parametrize(("qid", "text", "qubits", "span"), dev.NOT_PAIRS, ids=[c[0] for c in dev.NOT_PAIRS])
def test_a_run_or_a_dash_list_of_qubits_is_no_coupling(qid, text, qubits, span):
    read = parse(text, dev.CHIPS)
    assert read.couplings == () and read.qubits == qubits and read.span == span


@pytest.mark.parametrize(("text", "couplings"), [
    ("compare the couplings 3-11 and 4-12 by CZ fidelity", ("3-11", "4-12")),  # two pairs: no run
    ("CZ fidelity of the coupling from Q10 to Q18", ("10-18",)),  # one coupling, "from ... to"
    ("ZX90 fidelity of couplings 3-4", ("3-4",)),  # neighbours: a pair
])
def test_pairs_written_with_a_dash_or_to_stay_couplings(text, couplings):
    read = parse(text, dev.CHIPS)
    assert read.couplings == couplings and read.span == ()


@pytest.fixture(scope="module")
def slipped_cases(demo_db):
    return dev.slipped(demo_db)


def test_a_chip_id_with_one_slip_is_the_chip_it_means(slipped_cases, repo):
    wrong = []
    kit = Toolkit(repo, store=DataStore())
    for case in slipped_cases:
        read = parse(case.question.text, dev.CHIPS)
        plan = plan_prefetch(case.question.text, chip_id=dev.CHIP, chips=dev.CHIPS)
        said = answer_line(kit.execute(plan.name, dict(plan.args))) if plan is not None else ""
        if read.chip != case.chip or plan is None or (plan.name, dict(plan.args)) != case.call or \
                problems(case.question.truth, said or ""):
            wrong.append((case.question.id, read.chip, plan, said))
    assert not wrong, wrong


@pytest.mark.parametrize("text", dev.NO_SUCH)
def test_a_key_struck_for_another_is_no_installed_chip(text):
    assert parse(text, dev.CHIPS).chip is None


def test_a_slip_that_could_be_two_chips_is_a_choice():
    assert set(chips_meant("20Qaab", ["20Qab", "20Qaba"])) == {"20Qab", "20Qaba"}
    assert chips_meant("20Qaab", ["20Qab"]) == ("20Qab",)
    assert chips_meant("46Qv3", ["64Qv3"]) == ()  # the qubit count itself is never slipped


@pytest.mark.parametrize(("text", "kept"), [
    ("Which qubits have T1 above 40 us?", "Which qubits have T1 above 40 us?"),
    ("Fill in:\n1.\n2.\n3.", "Fill in:\n1.\n2.\n3."),
    ("failed at 10:20 today", "failed at 10:20 today"),
])
def test_a_sentence_is_read_as_written(text, kept):
    assert as_prose(text) == kept
