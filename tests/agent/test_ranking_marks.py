"""A sentence that names a subject (task, run, coupling, qubit, chip) at an end, or above the others, is verified
against what the turn's tools ranked, or carries the visible "not checked" mark: through ``Copilot.ask`` (the page's
path: clarification on, the chip in view) with scripted models that write hand-made right and wrong answers.

The subjects at each end are pymongo reads (``tests/dev_marks.py``, ``tests/public_eval.latest_values``), never the
tools' output.  Wrong: the person reads the tools' sentence with the replacement note, or the sentence marked or
left out.  Right: kept as written, with no mark.  The quoter's answers to every dev ranking question stay unmarked.
"""

from __future__ import annotations

import json
import statistics

import pytest

from copilot_core.checking.claims import check_claims
from copilot_core.checking.marks import LEFT_OUT, NOT_CHECKED, mark_claims
from tests import dev_marks
from tests.eval_score import problems
from tests.dev_shapes_a import _correlation
from tests.fakes.scripted_models import quoter, tool_sentences
from tests.fakes.scripted_openai import SmartRequest, call, text
from tests.public_eval import CHIP, OTHER, latest_values
from tests.agent.page_turn import SMALL, page_turn

REPLACED = "was replaced by one computed from the tool results"
# A claim verb per way of saying "at the top": the task, run or subject is the one a tool ranked first.
TOP_VERBS = ("{x} fails most often.", "The task that had the most failures is {x}.",
             "{x} failed more often than any other task.", "{x} has the highest failure count.",
             "{x} is the worst task here.")


def _ask(repo, server, tmp_path, question: str) -> tuple[str, str]:
    turn = page_turn(repo, server, tmp_path, question, SMALL)
    assert turn.answer is not None and turn.result is not None
    return turn.answer.text, turn.result.claims


def _writer(answer: str, first: tuple[str, dict] | None = None):
    """A model that makes ``first`` (when it may call and no result is in yet), then writes ``answer``."""
    def model(request: SmartRequest):
        if first is not None and request.has_tools and not request.tool_results:
            return call(*first)
        return text(answer)
    return model


def _shown_unmarked(sentence: str, shown: str) -> bool:
    """``sentence`` reaches the person as written, with no mark after it."""
    at = shown.find(sentence)
    return at >= 0 and not shown[at + len(sentence):].lstrip().startswith(NOT_CHECKED)


def _label(subject: str) -> str:
    return "→".join(f"Q{int(q):02d}" for q in subject.split("-"))  # as the tools write a coupling


@pytest.fixture(scope="module")
def tasks(demo_db):
    return dev_marks.failure_counts(demo_db, CHIP, "name")


TASK_Q = f"Which task's failures are highest on {CHIP}?"


@pytest.mark.parametrize("verb", TOP_VERBS)
def test_a_wrong_task_at_the_top_is_replaced_by_the_ranking(verb, tasks, repo, scripted_openai, tmp_path):
    top, second = tasks[0][0], tasks[1][0]
    wrong = verb.format(x=second)
    scripted_openai.smart = _writer(wrong)
    shown, claims = _ask(repo, scripted_openai, tmp_path, TASK_Q)
    assert not _shown_unmarked(wrong, shown), shown
    assert claims == "replaced" and REPLACED in shown and top in shown, shown


@pytest.mark.parametrize("verb", TOP_VERBS)
def test_the_right_task_at_the_top_is_kept_unmarked(verb, tasks, repo, scripted_openai, tmp_path):
    right = verb.format(x=tasks[0][0])
    scripted_openai.smart = _writer(right)
    shown, claims = _ask(repo, scripted_openai, tmp_path, TASK_Q)
    assert shown.strip() == right and claims == "kept", shown


def test_a_task_the_ranking_does_not_list_at_the_top_is_replaced(tasks, repo, scripted_openai, tmp_path):
    never = "CheckResonatorSpectroscopy" if "CheckResonatorSpectroscopy" not in dict(tasks[:1]) else "CheckT1"
    wrong = f"{never} had the most failures, {tasks[0][1]} of them."  # the count is the top task's: right number
    scripted_openai.smart = _writer(wrong)
    shown, _ = _ask(repo, scripted_openai, tmp_path, TASK_Q)
    assert not _shown_unmarked(wrong, shown) and tasks[0][0] in shown, shown


@pytest.mark.parametrize("verb", ["Execution {x} saw the most failed tasks.", "Run {x} had the most failures.",
                                  "{x} failed more tasks than any other run."])
def test_a_run_no_tool_ranked_is_never_shown_unmarked(verb, demo_db, repo, scripted_openai, tmp_path):
    question, top, _ = dev_marks.runs(demo_db)
    other = dev_marks.failure_counts(demo_db, CHIP, "execution_id")[-1][0]
    assert other != top
    wrong = verb.format(x=other)
    scripted_openai.smart = _writer(wrong, ("get_execution_history", {"chip_id": CHIP}))
    shown, _ = _ask(repo, scripted_openai, tmp_path, question)
    assert not _shown_unmarked(wrong, shown), shown
    assert NOT_CHECKED in shown or LEFT_OUT in shown or REPLACED in shown, shown


def _top_bottom(db, name: str, kind: str = "qubit") -> list[str]:
    values = {k: v for k, v in latest_values(db, CHIP, name, kind).items() if v is not None}
    return sorted(values, key=lambda k: values[k], reverse=True)


@pytest.mark.parametrize("kind, name, words, question", [
    ("coupling", "zx90_gate_fidelity", "ZX90 gate fidelity",
     f"Which coupling has the highest ZX90 gate fidelity on {CHIP}?"),
    ("qubit", "t1", "T1", "Which qubit has the highest T1?"),
])
@pytest.mark.parametrize("verb", ["{x} has the highest {w}.", "The strongest {w} is on {x}.", "{x} tops the chip for {w}."])
def test_a_subject_at_the_top_of_a_metric(kind, name, words, question, verb, demo_db, repo, scripted_openai, tmp_path):
    order = _top_bottom(demo_db, name, kind)
    right, wrong = verb.format(x=_label(order[0]), w=words), verb.format(x=_label(order[1]), w=words)
    scripted_openai.smart = _writer(wrong)
    shown, claims = _ask(repo, scripted_openai, tmp_path, question)
    assert not _shown_unmarked(wrong, shown) and _label(order[0]) in shown, shown
    scripted_openai.smart = _writer(right)
    shown, claims = _ask(repo, scripted_openai, tmp_path, question)
    assert shown.strip() == right and claims == "kept", shown


@pytest.mark.parametrize("verb", ["{x} has the higher median T1.", "{x} leads on median T1.",
                                  "{x} has a higher median T1 than {y}."])
def test_a_chip_on_the_wrong_side_is_not_shown_as_written(verb, demo_db, repo, scripted_openai, tmp_path):
    [question] = [q for q in dev_marks.build(demo_db) if q.id == "marks-chip-1"]
    a = statistics.median(v for v in latest_values(demo_db, CHIP, "t1").values() if v is not None)
    b = statistics.median(v for v in latest_values(demo_db, OTHER, "t1").values() if v is not None)
    win, lose = (CHIP, OTHER) if a > b else (OTHER, CHIP)
    wrong, right = verb.format(x=lose, y=win), verb.format(x=win, y=lose)
    scripted_openai.smart = _writer(wrong)
    shown, _ = _ask(repo, scripted_openai, tmp_path, question.text)
    assert not _shown_unmarked(wrong, shown), shown
    scripted_openai.smart = _writer(right)
    shown, claims = _ask(repo, scripted_openai, tmp_path, question.text)
    assert shown.strip() == right and claims == "kept", shown


def test_the_quoters_answers_to_the_dev_ranking_questions_are_right_and_unmarked(demo_db, repo, scripted_openai,
                                                                                 tmp_path):
    scripted_openai.smart = quoter
    for question in dev_marks.build(demo_db):
        shown, claims = _ask(repo, scripted_openai, tmp_path, question.text)
        assert not problems(question.truth, shown), (question.id, shown)
        assert NOT_CHECKED not in shown and LEFT_OUT not in shown and claims == "kept", (question.id, shown)


# The check is one reader for every kind: a ranking a tool returned, written by hand here, of each kind.
def _ranking(kind: str, names: list[str], higher_is_better: bool = True) -> str:
    return json.dumps({"answer": f"{names[0]} is first.", "ranking": {
        "kind": kind, "metric": "failures", "names": names, "written": {n: [str(30 - 10 * i)] for i, n in enumerate(names)},
        "higher_is_better": higher_is_better, "complete": True}})


@pytest.mark.parametrize("kind, names", [
    ("task", ["CheckRamsey", "CheckT1", "CreateZX90"]),
    ("run", ["20261121-001", "20261113-001", "20261127-001"]),
    ("qubit", ["Q07", "Q05", "Q12"]),
    ("coupling", ["Q04-Q05", "Q08-Q05", "Q04-Q06"]),
    ("chip", ["64Qv3", "144Qv2", "16Qv1"]),
])
@pytest.mark.parametrize("verb, end", [("{x} saw the most failures.", 0), ("{x} had the fewest failures.", -1),
                                       ("{x} failed more often than any other.", 0), ("{x} fails most often.", 0)])
def test_every_kind_and_verb_is_held_against_the_ranking(kind, names, verb, end):
    result = _ranking(kind, names)
    right = check_claims(verb.format(x=names[end]), [result])
    wrong = check_claims(verb.format(x=names[1]), [result])
    assert [c.verdict for c in right.claims if c.written == names[end]] == ["ok"], right.claims
    assert [c.verdict for c in wrong.claims if c.written == names[1]] == ["wrong"], wrong.claims


@pytest.mark.parametrize("sentence", ["CheckRamsey saw the most failures, 14 of them.",
                                      "Run 20261121-001 had the most failures.", "Q04-Q05 is the best coupling.",
                                      "64Qv3 fails most often.", "Q07 beats every other qubit on T1."])
def test_a_ranking_no_tool_made_is_marked_not_checked(sentence):
    report = check_claims(sentence, [json.dumps({"answer": "14 task results failed.", "count_failed": 14})])
    assert any(c.verdict == "unchecked" for c in report.claims), report.claims


def test_a_verified_number_does_not_vouch_for_the_ranking_in_its_sentence():
    sentence = "Run 20261121-001 had the most failures, 14 of them."
    report = check_claims(sentence, [json.dumps({"answer": "14 task results failed.", "count_failed": 14})])
    shown, left_out, marked = mark_claims(sentence, report.claims)
    assert ("14", "ok") in [(c.written, c.verdict) for c in report.claims]
    assert shown == f"{sentence} {NOT_CHECKED}" and (left_out, marked) == (0, 1)


CORR_Q = "Is T1 tied to T2 echo?"  # no known shape: the answer's own words ask for the coefficient
CORR_CALL = ("correlate_metrics", {"chip_id": CHIP, "metric_a": "t1", "metric_b": "t2_echo"})


def test_no_correlation_without_the_coefficient_gets_the_tools_coefficient(demo_db, repo, scripted_openai, tmp_path):
    truth = _correlation(demo_db, "marks-corr", CORR_Q, "t1", "t2_echo").truth
    wrong = "There is no correlation between T1 and T2 echo on this chip."
    assert problems(truth, wrong)
    scripted_openai.smart = _writer(wrong, CORR_CALL)
    shown, claims = _ask(repo, scripted_openai, tmp_path, CORR_Q)
    assert not problems(truth, shown) and ("does not state the correlation coefficient" in shown
                                           or (REPLACED in shown and wrong not in shown)), shown


def test_a_coefficient_quoted_from_the_tool_is_kept_unmarked(demo_db, repo, scripted_openai, tmp_path):
    truth = _correlation(demo_db, "marks-corr", CORR_Q, "t1", "t2_echo").truth

    def model(request: SmartRequest):
        return text(" ".join(tool_sentences(request))) if request.tool_results else call(*CORR_CALL)

    scripted_openai.smart = model
    shown, claims = _ask(repo, scripted_openai, tmp_path, CORR_Q)
    assert not problems(truth, shown) and claims == "kept" and "\n_" not in shown and NOT_CHECKED not in shown, shown


def test_a_comparison_of_counts_answered_with_medians_gets_a_note(demo_db, repo, scripted_openai, tmp_path):
    question = "Between Q12 and Q25, which one has more failures?"
    t1 = latest_values(demo_db, CHIP, "t1")
    wrong = f"The T1 of Q12 is {t1['12']:.1f} μs. The T1 of Q25 is {t1['25']:.1f} μs."
    scripted_openai.smart = _writer(wrong, ("compare_qubits", {"chip_id": CHIP, "qids": ["12", "25"],
                                                               "param_names": ["t1"]}))
    shown, _ = _ask(repo, scripted_openai, tmp_path, question)
    failed = {q: demo_db["task_result_history"].count_documents({"chip_id": CHIP, "qid": q, "status": "failed"})
              for q in ("12", "25")}
    assert failed["12"] != failed["25"]
    # what the person reads: both counts, and a visible note that the model's own words were not kept
    assert f"{failed['12']} vs {failed['25']}" in shown or f"{failed['25']} vs {failed['12']}" in shown, shown
    assert "does not state the count" in shown or "was replaced" in shown, shown


def test_a_chip_wide_end_does_not_make_a_claim_about_one_qubits_couplings_wrong():
    chip_wide = json.dumps({"answer": "The highest zx90_gate_fidelity on 64Qv3 is Q51→Q50 with 99.49%.",
                            "metric": "zx90_gate_fidelity", "order": "highest",
                            "highest": [{"label": "Q51→Q50", "coupling_id": "51-50", "value": 99.49}]})
    sentence = "Q04→Q05 has the highest ZX90 gate fidelity."
    scoped = check_claims(sentence, [chip_wide], question="Which coupling of Q5 has the highest ZX90 fidelity?")
    assert [c.verdict for c in scoped.claims] == ["unchecked"]
    assert [c.verdict for c in check_claims(sentence, [chip_wide]).claims] == ["wrong"]
