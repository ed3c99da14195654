"""Questions that ask which subject fails most, counts compared across two chips or two qubits, and shares: the
answer is held against the router's call from the question's side, through the page's path (``Copilot.ask`` with
scripted models over real HTTP).

Expected subjects and counts are pymongo reads (``tests/dev_ranking.py``), never the tools' output.  A wrong subject
(of any kind, in ranking words no table holds), no subject, a tie told half, a count left out or made up, a share
answered with a list or with ids the data does not hold: the person reads the tools' sentence with the replacement
note.  A right answer is kept as written.
"""

from __future__ import annotations

import pytest

from tests import dev_ranking
from tests.agent.page_turn import SMALL, page_turn
from tests.eval_score import problems
from tests.fakes.scripted_models import quoter
from tests.fakes.scripted_openai import SmartRequest, call, text
from tests.public_eval import CHIP, OTHER

REPLACED = "was replaced by one computed from the tool results"
TASK_Q = "Which calibration task is the least reliable on this chip?"


def _ask(repo, server, tmp_path, question: str, answer: str, first: tuple[str, dict] | None = None
         ) -> tuple[str, str]:
    """``answer`` written by a model that makes ``first`` when it may call and has no result yet."""
    def model(request: SmartRequest):
        if first is not None and request.has_tools and not request.tool_results:
            return call(*first)
        return text(answer)
    server.smart = model
    turn = page_turn(repo, server, tmp_path, question, SMALL)
    assert turn.answer is not None and turn.result is not None
    return turn.answer.text, turn.result.claims


def _q(n: str) -> str:
    return f"Q{int(n):02d}"


@pytest.fixture(scope="module")
def tasks(demo_db):
    counts = dev_ranking.failures_by(demo_db, CHIP, "name")
    assert counts[0][1] > counts[1][1]
    return counts


# Ranking words no word table of the answer check holds ("flakiest", "keeps misbehaving"), and none at all.
@pytest.mark.parametrize("wrong", [
    "Q04-Q05 is the flakiest one; it keeps misbehaving.",
    "Qubit 7 is the shakiest part of the chip.",
    "{second} is the flakiest task here.",
    "Honestly, {second} stands out as the shakiest.",
    "Several tasks misbehave now and then.",
])
def test_a_wrong_subject_or_none_is_replaced_by_the_ranking(wrong, tasks, repo, scripted_openai, tmp_path):
    said = wrong.format(second=tasks[1][0])
    shown, claims = _ask(repo, scripted_openai, tmp_path, TASK_Q, said)
    assert said not in shown and REPLACED in shown, shown
    assert claims == "replaced" and tasks[0][0] in shown and str(tasks[0][1]) in shown, shown


@pytest.mark.parametrize("right", ["{top} is the flakiest task here, with {n} failures.",
                                   "The shakiest one is {top} ({n} failed results), by a margin."])
def test_the_right_task_in_unknown_words_is_kept(right, tasks, repo, scripted_openai, tmp_path):
    said = right.format(top=tasks[0][0], n=tasks[0][1])
    shown, claims = _ask(repo, scripted_openai, tmp_path, TASK_Q, said)
    assert shown.strip() == said and claims == "kept", shown


def test_a_tie_told_half_is_replaced_and_told_whole_is_kept(demo_db, repo, scripted_openai, tmp_path):
    counts = dev_ranking.failures_by(demo_db, CHIP, "qid")
    tied = [q for q, n in counts if n == counts[0][1]]
    assert len(tied) == 2, counts  # the demo has two qubits tied first
    question = "Which qubit is least reliable?"
    half = f"{_q(tied[0])} is the flakiest qubit."
    shown, claims = _ask(repo, scripted_openai, tmp_path, question, half)
    assert half not in shown and claims == "replaced" and all(_q(q) in shown for q in tied), shown
    whole = f"{_q(tied[0])} and {_q(tied[1])} are tied as the flakiest qubits."
    shown, claims = _ask(repo, scripted_openai, tmp_path, question, whole)
    assert shown.strip() == whole and claims == "kept", shown


def test_a_qubit_named_for_the_coupling_that_fails_most_is_replaced(demo_db, repo, scripted_openai, tmp_path):
    couplings = dev_ranking.failures_by(demo_db, CHIP, "coupling")
    tied = [c for c, n in couplings if n == couplings[0][1]]
    qubit = dev_ranking.failures_by(demo_db, CHIP, "qid")[0][0]
    assert "-" not in qubit
    said = f"{_q(qubit)} is the coupling that misbehaves the most."
    shown, claims = _ask(repo, scripted_openai, tmp_path, "Which coupling breaks down most often?", said)
    assert said not in shown and claims == "replaced", shown
    assert all("→".join(_q(e) for e in c.split("-")) in shown for c in tied), shown


CHIPS_Q = f"Did {CHIP} or {OTHER} log more failed tasks over the past 14 days?"


@pytest.fixture(scope="module")
def chips(demo_db):
    both = (CHIP, OTHER)
    counts = {c: dev_ranking.failed_on(demo_db, both, c, 14) for c in both}
    (win, a), (lose, b) = sorted(counts.items(), key=lambda kv: -kv[1])
    assert a > b
    return win, a, lose, b


def test_cross_chip_counts_right_are_kept(chips, repo, scripted_openai, tmp_path):
    win, a, lose, b = chips
    said = f"{win} logged more: {a} failed tasks against {b} on {lose}."
    shown, claims = _ask(repo, scripted_openai, tmp_path, CHIPS_Q, said)
    assert shown.strip() == said and claims == "kept", shown


@pytest.mark.parametrize("wrong", [
    "{lose} logged more: {a} failed tasks against {b} on {win}.",  # the winner and the counts swapped
    "{win} logged more: {a1} failed tasks against {b} on {lose}.",  # a count made up
])
def test_cross_chip_counts_wrong_are_replaced(wrong, chips, repo, scripted_openai, tmp_path):
    win, a, lose, b = chips
    said = wrong.format(win=win, lose=lose, a=a, b=b, a1=a + 1)
    shown, claims = _ask(repo, scripted_openai, tmp_path, CHIPS_Q, said)
    assert said not in shown and claims == "replaced" and REPLACED in shown, shown
    assert f"{win} had more" in shown and str(a) in shown and str(b) in shown, shown


def test_cross_chip_counts_left_out_get_the_counts_with_a_note(chips, repo, scripted_openai, tmp_path):
    win, a, lose, b = chips
    said = f"{win} was clearly the busier chip for failures."
    shown, claims = _ask(repo, scripted_openai, tmp_path, CHIPS_Q, said)
    assert claims in ("completed", "replaced") and f"{win} had more" in shown, shown
    assert str(a) in shown and str(b) in shown and "_" in shown.split(f"{win} had more")[1], shown


@pytest.mark.parametrize("case", [0, 1])
def test_two_qubits_calibration_counts(case, demo_db, repo, scripted_openai, tmp_path):
    question, counts, _ = dev_ranking.calibration_counts(demo_db)[case]
    (qa, na), (qb, nb) = counts.items()
    right = f"{_q(qa)} was calibrated in {na} runs and {_q(qb)} in {nb} runs."
    shown, claims = _ask(repo, scripted_openai, tmp_path, question, right)
    assert shown.strip() == right and claims == "kept", shown
    wrong = f"{_q(qa)} was calibrated {na + 3} times, {_q(qb)} only {max(nb - 2, 0)} times."
    shown, claims = _ask(repo, scripted_openai, tmp_path, question, wrong)
    assert wrong not in shown and claims == "replaced" and str(na) in shown and str(nb) in shown, shown


SHARE_Q = "What percent of calibration runs failed in the last 30 days?"


@pytest.fixture(scope="module")
def run_share(demo_db):
    failed = dev_ranking.runs_on(demo_db, (CHIP,), CHIP, 30, "failed")
    runs = dev_ranking.runs_on(demo_db, (CHIP,), CHIP, 30)
    assert 0 < failed < runs
    return failed, runs


@pytest.mark.parametrize("listed", [
    f"Failed runs: {CHIP}-001, {CHIP}-002.",  # made-up labels
    "These runs failed: the Tuesday one and the one after it.",  # a list, no share
])
def test_a_share_answered_with_a_list_is_replaced_by_the_share(listed, run_share, repo, scripted_openai, tmp_path):
    failed, runs = run_share
    shown, claims = _ask(repo, scripted_openai, tmp_path, SHARE_Q, listed)
    assert listed not in shown and claims == "replaced" and REPLACED in shown, shown
    assert f"{failed} of {runs}" in shown and f"{100 * failed / runs:.1f}%" in shown, shown


def test_a_share_stated_is_kept(run_share, repo, scripted_openai, tmp_path):
    failed, runs = run_share
    said = f"{failed} of {runs} runs failed, {100 * failed / runs:.1f}% of them."
    shown, claims = _ask(repo, scripted_openai, tmp_path, SHARE_Q, said)
    assert shown.strip() == said and claims == "kept", shown


def test_the_quoter_answers_every_dev_ranking_question(demo_db, repo, scripted_openai, tmp_path):
    wrong = []
    for question in dev_ranking.build(demo_db):
        turn = page_turn(repo, _quoting(scripted_openai), tmp_path, question.text, SMALL)
        shown = turn.answer.text if turn.answer is not None else ""
        if problems(question.truth, shown):
            wrong.append((question.id, shown))
    assert not wrong, wrong


def _quoting(server):
    server.smart = quoter
    return server


@pytest.mark.parametrize("form", ["{top} is the flakiest task here, with {n} failures.",
                                  "{top} is the flakiest, misbehaving {n} times.", "{top} tops it: {n}."])
def test_a_made_up_count_for_the_right_task_is_replaced(form, tasks, repo, scripted_openai, tmp_path):
    said = form.format(top=tasks[0][0], n=tasks[0][1] + 7)
    shown, claims = _ask(repo, scripted_openai, tmp_path, TASK_Q, said)
    assert said not in shown and claims == "replaced" and str(tasks[0][1]) in shown, shown


@pytest.mark.parametrize("question", ["List the calibration runs of this chip.", "How are the runs going lately?"])
def test_a_run_id_the_data_does_not_hold_is_never_shown_unmarked(question, demo_db, repo, scripted_openai,
                                                                 tmp_path):
    made_up = "20990101-007"
    assert demo_db["execution_history"].count_documents({"execution_id": made_up}) == 0
    said = f"The latest run, {made_up}, went fine."
    shown, _ = _ask(repo, scripted_openai, tmp_path, question, said, ("get_execution_history", {"chip_id": CHIP}))
    assert said not in shown or "Not in the data: no tool of this turn returned 20990101-007" in shown, shown
    assert REPLACED in shown or "Not in the data" in shown, shown


@pytest.mark.parametrize("question, name, args", [
    ("Which calibration task is the least reliable on this chip?", "failure_ranking", {"by": "task"}),
    ("What task shows the poorest success rate?", "failure_ranking", {"by": "task"}),
    ("Name the task that breaks down most frequently.", "failure_ranking", {"by": "task"}),
    ("Which calibration run had the poorest success rate?", "failure_ranking", {"by": "run"}),
    ("Which coupling fails most?", "failure_ranking", {"by": "coupling"}),
    ("Which qubit is least reliable?", "failure_ranking", {"by": "qubit"}),
    (f"Did {CHIP} or {OTHER} log more failed tasks over the past 14 days?", "count_in_window",
     {"what": "failed tasks", "chip_ids": [CHIP, OTHER], "days": 14}),
    (f"Between {OTHER} and {CHIP}, which saw more calibration runs since Monday?", "count_in_window",
     {"what": "runs", "chip_ids": [OTHER, CHIP], "since_weekday": "monday"}),
    ("Was Q4 or Q9 calibrated more often in the last week?", "count_in_window",
     {"what": "runs", "qids": ["4", "9"], "days": 7}),
    ("What percent of calibration runs failed in the last 30 days?", "count_in_window", {"what": "runs", "days": 30}),
    ("What percentage of task results failed?", "count_in_window", {"what": "failed tasks"}),
    (f"Which chip has the higher median T1, {CHIP} or {OTHER}?", "compare_chips", {"metric_name": "t1"}),
])
def test_the_router_makes_the_call_the_question_fixes(question, name, args):
    from copilot_core.routing.prefetch import plan_prefetch

    plan = plan_prefetch(question, chip_id=CHIP)
    assert plan is not None and plan.name == name, plan
    assert {k: plan.args.get(k) for k in args} == args, plan.args
