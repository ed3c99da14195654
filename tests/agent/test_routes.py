"""Shapes the router had no call for, now routed: which run saw the most failures, coupling rankings, two qubits
or a coupling asked about together, a correlation's coefficient and two counts compared.

Through the router's own call, and through ``Copilot.ask`` (the page's path, clarification on, no memory) with the
scripted OpenAI-compatible server: a quoting model, a silent one, and one that names the wrong thing.  Truths are
the pymongo queries of ``tests/dev_routes.py``.
"""

from __future__ import annotations

import pytest

from copilot_core.routing.prefetch import plan_prefetch
from copilot_core.tools import DataStore, Toolkit
from copilot_core.tools.toolkit import answer_line
from tests import dev_routes
from tests.eval_score import problems
from tests.fakes.scripted_models import quoter, silent
from tests.fakes.scripted_openai import text
from tests.public_eval import CHIP
from tests.agent.page_turn import SMALL, page_turn, shown

RUNS = ["sr-run-1", "sr-run-2", "sr-run-3", "sr-run-4", "sr-run-5"]


@pytest.fixture(scope="module")
def questions(demo_db):
    return {q.id: q for q in dev_routes.build(demo_db)}


def _ask(repo, server, tmp_path, question: str, model: str | None = SMALL) -> str:
    return shown(page_turn(repo, server, tmp_path, question, model))


def _routed(repo, question: str) -> tuple[str, dict, str]:
    planned = plan_prefetch(question, chip_id=CHIP)
    assert planned is not None, question
    said = answer_line(Toolkit(repo, store=DataStore()).execute(planned.name, planned.args))
    assert said is not None, planned
    return planned.name, planned.args, said


@pytest.mark.parametrize("qid", RUNS)
def test_the_routers_call_ranks_the_runs(qid, questions, repo):
    question = questions[qid]
    name, args, said = _routed(repo, question.text)
    assert (name, args["by"]) == ("failure_ranking", "run")
    assert not problems(question.truth, said), said


@pytest.mark.parametrize("qid", RUNS)
@pytest.mark.parametrize("model", [quoter, silent])
def test_a_quoting_or_silent_model_shows_the_run_with_most_failures(qid, model, questions, repo, scripted_openai,
                                                                    tmp_path):
    question = questions[qid]
    scripted_openai.smart = model
    shown = _ask(repo, scripted_openai, tmp_path, question.text)
    assert not problems(question.truth, shown), shown


@pytest.mark.parametrize("qid", ["sr-run-1", "sr-run-3", "sr-run-5"])
def test_a_wrong_run_named_by_the_model_is_not_shown_unmarked(qid, questions, repo, scripted_openai, tmp_path):
    question = questions[qid]
    _, args, said = _routed(repo, question.text)
    result = Toolkit(repo, store=DataStore()).execute("failure_ranking", args)
    runs = [row["name"] for row in result.full["failures"]]
    second = result.full["failures"][1]
    assert second["count_failed"] < result.full["failures"][0]["count_failed"]
    wrong = f"Run {second['name']} had the most failed tasks: {second['count_failed']} of them."
    scripted_openai.smart = lambda request: text(wrong)
    shown = _ask(repo, scripted_openai, tmp_path, question.text)
    assert wrong not in shown, shown
    assert not problems(question.truth, shown) or "not checked" in shown.lower(), shown
    assert runs[0] in shown, shown


COUPLINGS = ["sr-coupling-1", "sr-coupling-2", "sr-coupling-3", "sr-coupling-4", "sr-coupling-5", "sr-coupling-6",
             "sr-coupling-7", "sr-coupling-8"]


@pytest.mark.parametrize("qid", COUPLINGS)
def test_the_routers_call_ranks_the_couplings(qid, questions, repo):
    question = questions[qid]
    name, args, said = _routed(repo, question.text)
    assert name in ("get_coupling_params", "rank_metric"), name
    if "qubit_id" in args or name == "get_coupling_params":  # one qubit's couplings, never the whole chip's
        assert args["qubit_id"] in question.text.replace("Q0", "Q")
    assert not problems(question.truth, said), said


@pytest.mark.parametrize("qid", COUPLINGS)
@pytest.mark.parametrize("model", [quoter, silent])
def test_a_quoting_or_silent_model_shows_the_right_coupling(qid, model, questions, repo, scripted_openai, tmp_path):
    question = questions[qid]
    scripted_openai.smart = model
    shown = _ask(repo, scripted_openai, tmp_path, question.text)
    assert not problems(question.truth, shown), shown


@pytest.mark.parametrize("qid", ["sr-coupling-1", "sr-coupling-3", "sr-coupling-4"])
def test_a_wrong_coupling_named_by_the_model_is_not_shown_unmarked(qid, questions, repo, scripted_openai, tmp_path):
    question = questions[qid]
    _, args, _ = _routed(repo, question.text)
    order = Toolkit(repo, store=DataStore()).execute("get_coupling_params", args).full["ranking"]
    best, runner = order["names"][:2] if order["higher_is_better"] else order["names"][::-1][:2]
    asks_worst = "worst" in question.text or "lowest" in question.text
    right, wrong_one = (order["names"][-1], order["names"][-2]) if asks_worst else (best, runner)
    word = "worst" if asks_worst else "best"
    wrong = f"{wrong_one} has the {word} value, {order['written'][wrong_one][0]}."
    scripted_openai.smart = lambda request: text(wrong)
    shown = _ask(repo, scripted_openai, tmp_path, question.text)
    assert wrong not in shown, shown
    assert right in shown, shown


PAIRS = [f"sr-pair-{i}" for i in range(1, 9)]
CORRELATIONS = [f"sr-corr-{i}" for i in range(1, 5)]
COUNTS = [f"sr-count-{i}" for i in range(1, 6)]


@pytest.mark.parametrize("qid", PAIRS + CORRELATIONS + COUNTS)
def test_the_routers_call_answers_the_pair_the_relation_or_both_counts(qid, questions, repo):
    question = questions[qid]
    name, args, said = _routed(repo, question.text)
    expected = {"pair": ("compare_qubits", "get_coupling_params"), "corr": ("correlate_metrics",),
                "count": ("failure_ranking",)}[qid.split("-")[1]]
    assert name in expected, (name, args)
    assert not problems(question.truth, said), said


@pytest.mark.parametrize("qid", PAIRS + CORRELATIONS + COUNTS)
@pytest.mark.parametrize("model", [quoter, silent])
def test_a_quoting_or_silent_model_answers_the_pair_the_relation_or_both_counts(qid, model, questions, repo,
                                                                                  scripted_openai, tmp_path):
    question = questions[qid]
    scripted_openai.smart = model
    shown = _ask(repo, scripted_openai, tmp_path, question.text)
    assert not problems(question.truth, shown), shown


def _one_side(said: str) -> str:
    """The tool's pair sentence cut to its first qubit's value: one qubit answered, the other dropped."""
    head, _, values = said.partition(": ")
    return head.split(" is ")[0] + " has " + values.split(" vs ")[0].split(" ", 1)[1] + "."


@pytest.mark.parametrize("qid", ["sr-pair-1", "sr-pair-2", "sr-pair-3"])
def test_a_pair_answered_with_one_qubit_only_gets_both(qid, questions, repo, scripted_openai, tmp_path):
    question = questions[qid]
    _, _, said = _routed(repo, question.text)
    one = _one_side(said)
    assert problems(question.truth, one), one  # the cut answer misses the other qubit
    scripted_openai.smart = lambda request: text(one)
    shown = _ask(repo, scripted_openai, tmp_path, question.text)
    assert not problems(question.truth, shown), shown
    missing = "the difference between the two" if qid == "sr-pair-2" else "the value of each of the two qubits"
    assert f"does not state {missing}" in shown, shown  # "how do they differ" asks the difference, not only values


@pytest.mark.parametrize("qid", CORRELATIONS)
def test_no_correlation_without_a_coefficient_gets_the_coefficient_and_a_note(qid, questions, repo, scripted_openai,
                                                                              tmp_path):
    question = questions[qid]
    _, args, _ = _routed(repo, question.text)
    pairs = Toolkit(repo, store=DataStore()).execute("correlate_metrics", args).full["pairs"]
    no_r = f"There is no correlation between the two metrics across the {pairs} qubits with both values."
    scripted_openai.smart = lambda request: text(no_r)
    shown = _ask(repo, scripted_openai, tmp_path, question.text)
    assert not problems(question.truth, shown), shown
    # the coefficient added beside the words, or the words (a relation the data does not support) replaced
    assert "does not state the correlation coefficient" in shown or ("was replaced" in shown and no_r not in shown), \
        shown


@pytest.mark.parametrize("qid", ["sr-count-1", "sr-count-2", "sr-count-4"])
def test_two_counts_compared_without_the_counts_get_both_counts(qid, questions, repo, scripted_openai, tmp_path):
    question = questions[qid]
    _, args, _ = _routed(repo, question.text)
    rows = Toolkit(repo, store=DataStore()).execute("failure_ranking", args).full["failures"]
    one = f"{rows[0]['label']} failed more often, with {rows[0]['count_failed']} failed tasks."
    scripted_openai.smart = lambda request: text(one)
    shown = _ask(repo, scripted_openai, tmp_path, question.text)
    assert not problems(question.truth, shown), shown
    assert one not in shown and "_The model's answer was replaced" in shown, shown


@pytest.mark.parametrize("qid", ["sr-count-2", "sr-count-4"])
def test_two_counts_swapped_by_the_model_are_not_shown_unmarked(qid, questions, repo, scripted_openai, tmp_path):
    question = questions[qid]
    _, args, _ = _routed(repo, question.text)
    rows = Toolkit(repo, store=DataStore()).execute("failure_ranking", args).full["failures"]
    (more, n_more), (fewer, n_fewer) = ((r["label"], r["count_failed"]) for r in rows)
    assert n_more > n_fewer
    wrong = f"{fewer} had more failed tasks than {more}: {n_more} vs {n_fewer}."
    scripted_openai.smart = lambda request: text(wrong)
    shown = _ask(repo, scripted_openai, tmp_path, question.text)
    assert wrong not in shown, shown


def _run_ranking() -> dict:
    return {"ranking": {"kind": "run", "metric": "failures", "names": ["20261123-001", "20261129-001"],
                        "written": {"20261123-001": ["14", "22%"], "20261129-001": ["13", "20%"]},
                        "higher_is_better": False, "complete": True}}


@pytest.mark.parametrize("sentence, verdict", [
    ("Run 20261129-001 saw 14 failed tasks.", "wrong"),  # the other run's count, no ranking word
    ("Run 20261129-001 had the most failed tasks.", "wrong"),
    ("Run 20261120-001 had the most failed tasks.", "wrong"),  # a run the ranking does not hold
    ("Run 20261123-001 had the most failed tasks: 14.", "ok"),
    ("Run 20261123-001 had more failed tasks than run 20261129-001.", "ok"),
    ("Run 20261129-001 had more failed tasks than run 20261123-001.", "wrong"),
    ("Run 20261120-001 had more failed tasks than run 20261129-001.", "wrong"),  # no failures vs 13
])
def test_the_order_check_knows_runs_by_their_ids(sentence, verdict):
    from copilot_core.checking.order import order_claims

    claims = order_claims(sentence, [_run_ranking()])
    assert [c.verdict for c in claims] == [verdict], claims
