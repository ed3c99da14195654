"""The parse and the router on the dev questions of ``tests/dev_ranges15.py``: a run of qubits is a set, never a
coupling, nor two qubits asked about; the qubits left out are never subjects; the router's call (settled as every
call of a turn is) carries the set written by hand there; the missing-subject lead stays quiet; and the couplings,
qubit pairs and limits of other questions read as before."""

from __future__ import annotations

import pytest

from copilot_core.agent.plan import missing_subjects
from copilot_core.language.question import parse
from copilot_core.routing.limits import settle_limits
from copilot_core.routing.prefetch import plan_prefetch
from tests import dev_ranges15 as dev
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)


def test_there_are_enough_dev_questions_on_both_chips():
    assert len([a for a in dev.QUESTIONS if not a.fresh]) >= 20 and len([a for a in dev.QUESTIONS if a.fresh]) >= 6
    assert {a.chip for a in dev.QUESTIONS} == {CHIP, OTHER}


@pytest.mark.parametrize("asked", dev.QUESTIONS, ids=lambda a: a.id)
def test_a_run_or_a_left_out_qubit_is_no_subject(asked):
    q = parse(asked.text, CHIPS)
    assert q.couplings == () and q.qubits == (), (q.couplings, q.qubits)
    assert q.span == tuple(str(n) for n in (asked.qubits or ()))
    assert q.left_out == tuple(str(n) for n in asked.left_out)


@pytest.mark.parametrize("asked", dev.QUESTIONS, ids=lambda a: a.id)
def test_the_routed_call_is_over_the_set_asked(asked):
    plan = plan_prefetch(asked.text, chip_id=CHIP, chips=CHIPS)
    assert plan is not None and plan.name == asked.tool, plan
    args = settle_limits(plan.name, dict(plan.args), parse(asked.text, CHIPS)).args
    assert args["chip_id"] == asked.chip
    assert args.get("qubits") == (list(asked.qubits) if asked.qubits is not None else None)
    assert args.get("leaving_out") == (list(asked.left_out) or None)
    if asked.above is not None and asked.tool == "filter_metric":
        assert args["above"] == asked.above


@pytest.mark.parametrize("asked", dev.QUESTIONS, ids=lambda a: a.id)
def test_no_subject_of_a_set_is_said_missing(asked, repo):
    missing, _, _ = missing_subjects(asked.text, CHIP, repo, CHIPS)
    assert missing == (), missing


@pytest.mark.parametrize("text, couplings", [
    ("What is the ZX90 fidelity of coupling Q03-Q09?", ("3-9",)),
    ("ZX90 fidelity of Q10-Q11", ("10-11",)),
    ("Compare the ZX90 fidelity between 16 and 17 or 16 and 18", ("16-17", "16-18")),
    ("How fast is the CR gate on the 3/9 coupler?", ("3-9",)),
    ("T1 of Q3-Q4", ("3-4",)),
    ("Is the CR gate of Q25-Q11 shorter than 274 ns?", ("25-11",)),
    ("Is the two-qubit gate on 37-23 longer than 158 ns?", ("37-23",)),
])
def test_couplings_still_read_as_couplings(text, couplings):
    q = parse(text, CHIPS)
    assert q.couplings == couplings and q.span == (), (q.couplings, q.span)


@pytest.mark.parametrize("text, qubits", [("Is Q5's T1 higher than Q6's?", ("5", "6")),
                                          ("T1 of qubits 3, 7 and 9", ("3", "7", "9")),
                                          ("What is the T1 of Q12?", ("12",))])
def test_named_qubits_are_still_subjects(text, qubits):
    q = parse(text, CHIPS)
    assert q.qubits == qubits and q.span == () and q.left_out == ()


def test_a_limits_range_is_no_qubit_run():
    q = parse("Which qubits have T1 between 40 and 60 us?", CHIPS)
    assert q.span == () and [(r.low, r.high) for r in q.ranges] == [(40.0, 60.0)]


def test_a_conditions_exclusion_is_still_read():
    q = parse("Which qubits have T1 above 40 us but not T2 echo above 30 us?", CHIPS)
    assert q.left_out == () and {(t.metric, t.value) for t in q.limits} >= {("t1", 40.0)}


@pytest.mark.parametrize("text, left_out", [("T1 std without 2 outliers", ()), ("std of T1 except 5", ()),
                                            ("T1 std except qubits 3 and 7", ("3", "7")),
                                            ("T1 std, leaving qubit 12 aside", ("12",))])
def test_only_a_qubit_written_as_one_is_left_out(text, left_out):
    assert parse(text, CHIPS).left_out == left_out


@pytest.mark.parametrize("text, qubits", [("What is the gap in T1 between qubit 13 and qubit 16?", ("13", "16")),
                                          ("difference between qubits 5 and 9 in T1", ("5", "9"))])
def test_two_qubits_compared_between_are_no_run(text, qubits):
    q = parse(text, CHIPS)
    assert q.qubits == qubits and q.span == ()
