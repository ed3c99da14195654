"""The dev questions of ``tests/dev_counting17.py`` against the router and the parse: a share of failed task results
is taken over the family of tasks, the task or the set of qubits the question names (a family or task word before
"results"/"tasks" names what is counted, not a metric); "which run/session had the most failures" ranks runs; a
ranking of failures takes the N asked; runs holding a failure are narrowed to a family or a set of qubits; and the
narrowed window count is counted by the server, the same as a hand count over the raw documents."""

from __future__ import annotations

import pytest

from copilot_core.data.repository import CalibrationRepository
from copilot_core.data.window_counts import Narrowed
from copilot_core.language.question import parse
from copilot_core.routing.limits import settle_limits
from copilot_core.routing.prefetch import plan_prefetch
from tests import dev_counting17
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)


def _routed(text: str) -> tuple[str, dict] | None:
    """The router's call as the turn makes it (a run of qubits settled onto the call)."""
    plan = plan_prefetch(text, chip_id=CHIP, chips=CHIPS)
    return None if plan is None else \
        (plan.name, dict(settle_limits(plan.name, dict(plan.args), parse(text, CHIPS)).args))


def test_there_are_enough_dev_questions_over_both_chips(demo_db):
    asked = dev_counting17.planned(demo_db)
    assert len([q for q, _ in asked if "-att-" not in q.id]) >= 20
    assert len([q for q, _ in asked if "-att-" in q.id]) >= 6
    assert {args["chip_id"] for _, (_, args) in asked} == set(CHIPS)


def test_the_router_makes_the_call_each_dev_question_needs(demo_db):
    wrong = [(q.id, q.text, _routed(q.text), call) for q, call in dev_counting17.planned(demo_db)
             if _routed(q.text) != call]
    assert not wrong, wrong


@pytest.mark.parametrize("text", ["What is the readout fidelity of Q5?", "Median Ramsey T2* of the chip?",
                                  "Which qubit has the worst readout fidelity?"])
def test_a_family_or_task_word_with_no_failure_is_still_a_metric(text):
    assert any(parse(text, CHIPS).metrics), parse(text, CHIPS).metrics


@pytest.mark.parametrize("text", ["Which run had the most failures?", "Which calibration session failed the most?",
                                  "Which 3 runs had the most failed tasks?"])
def test_which_run_ranks_runs_by_failed_results_never_counts_failed_runs(text):
    plan = plan_prefetch(text, chip_id=CHIP, chips=CHIPS)
    assert plan is not None and plan.name == "failure_ranking" and plan.args["by"] == "run", plan


@pytest.mark.parametrize("within, keep", [
    (Narrowed(family="readout"), dev_counting17.readout),
    (Narrowed(family="coupling", qubits=frozenset({"0", "1", "2", "3", "8", "9"})),
     lambda d: dev_counting17.coupling(d) and dev_counting17.on_set({"0", "1", "2", "3", "8", "9"})(d)),
    (Narrowed(leaving_out=frozenset({"3", "7"})),
     lambda d: not {"3", "7"} & set(str(d.get("qid")).split("-"))),
])
def test_the_narrowed_count_is_the_hand_count(demo_db, within, keep):
    repo = CalibrationRepository(demo_db)
    got = repo.count_in_window(OTHER, "failed tasks", within=within)
    assert got == dev_counting17.share(demo_db, OTHER, keep, {})[0]


def test_distinct_qubits_of_a_narrowed_count_are_counted_once(demo_db):
    repo = CalibrationRepository(demo_db)
    got = repo.count_in_window(CHIP, "failed tasks", within=Narrowed(family="qubit", distinct_qubits=True))
    hand = {d["qid"] for d in demo_db["task_result_history"].find({"chip_id": CHIP, "status": "failed",
                                                                   "task_type": "qubit"})}
    assert got == len(hand)
