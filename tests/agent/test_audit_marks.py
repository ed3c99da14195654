"""Wrong answers a small model writes that the claim check used to verify or keep silently, replayed through
``Copilot.ask`` (the page's path: clarification on, the chip in view) with scripted models over real HTTP.

Six classes found auditing the local model's dev answers:

- a negated comparison or ranking ("Q06 is not better than Q14", "CheckRamsey is not the task with the most
  failures"): the order checks read the word as if it were said plainly, so the wrong way round was verified;
- words saying how two metrics relate ("only a weak correlation (r = 0.82)", "strongly correlated" over r = 0.02,
  "not correlated"): the coefficient's number was verified, its words were never read;
- a qubit named right after a comma ("Q06 has 100.0 μs, Q14 has 100.0 μs"): the clause cut took the name with the
  comma, so the value after it was held to no qubit and passed as anyone's;
- two subjects said to be the same, equal or alike ("Q06 and Q14 have the same T1"): a sentence naming two ranked
  names with no comparison word was verified on its numbers alone;
- none said in words ("None of the 62 qubits …"): its number (a total) verified, the zero it claims never read;
  most or all said of a share ("Most qubits (24.2%) …"): the share verified, the word never read.

Each wrong sentence must not reach the person unmarked; each right one is kept as written, with no mark.  Values
are pymongo reads of the demo documents (``tests/public_eval.latest_values``, ``tests/dev_marks.failure_counts``)
and coefficients computed here from them, never the tools' output.
"""

from __future__ import annotations

import statistics

import pytest

from copilot_core.checking.marks import LEFT_OUT, NOT_CHECKED
from tests import dev_marks
from tests.agent.page_turn import SMALL, page_turn
from tests.fakes.scripted_openai import SmartRequest, text
from tests.public_eval import CHIP, OTHER, latest_values

REPLACED = "was replaced by one computed from the tool results"


def _writer(answer: str):
    def model(request: SmartRequest):
        return text(answer)
    return model


def _ask(repo, server, tmp_path, question: str, answer: str) -> tuple[str, str]:
    server.smart = _writer(answer)
    turn = page_turn(repo, server, tmp_path, question, SMALL)
    assert turn.answer is not None and turn.result is not None
    return turn.answer.text, turn.result.claims


def _shown_unmarked(sentence: str, shown: str) -> bool:
    """``sentence`` reaches the person as written, with no mark after it and no note that it was replaced."""
    at = shown.find(sentence)
    return at >= 0 and not shown[at + len(sentence):].lstrip().startswith(NOT_CHECKED) and REPLACED not in shown


def _label(qid: str) -> str:
    return f"Q{int(qid):02d}"


@pytest.fixture(scope="module")
def pair(demo_db):
    """Q06 and Q14 by their T1, higher first (``(label, value)`` each)."""
    t1 = latest_values(demo_db, CHIP, "t1")
    a, b = ("6", t1["6"]), ("14", t1["14"])
    assert a[1] is not None and b[1] is not None and round(a[1], 1) != round(b[1], 1)
    win, lose = sorted((a, b), key=lambda x: x[1], reverse=True)  # type: ignore[arg-type, return-value]
    return (_label(win[0]), win[1]), (_label(lose[0]), lose[1])


@pytest.fixture(scope="module")
def chips(demo_db):
    """The two chips by their median T2 echo, higher first."""
    medians = {c: statistics.median(v for v in latest_values(demo_db, c, "t2_echo").values() if v is not None)
               for c in (CHIP, OTHER)}
    return sorted(medians.items(), key=lambda kv: kv[1], reverse=True)


PAIR_Q = "For T1, is Q06 or Q14 the better qubit?"
CHIPS_Q = f"Between {CHIP} and {OTHER}, whose median T2 echo is larger?"


@pytest.mark.parametrize("template", [
    "{w} ({wv:.1f} μs) is not better than {l} ({lv:.1f} μs) on T1.",
    "{l} ({lv:.1f} μs) is not worse than {w} ({wv:.1f} μs).",
    "On T1, {w} isn't higher than {l}: {wv:.1f} μs against {lv:.1f} μs.",
    "{w} does not have a longer T1 than {l} ({wv:.1f} vs {lv:.1f} μs).",
])
def test_a_negated_comparison_of_two_qubits_is_not_verified(template, pair, repo, scripted_openai, tmp_path):
    (w, wv), (lose, lv) = pair
    wrong = template.format(w=w, wv=wv, l=lose, lv=lv)
    shown, _ = _ask(repo, scripted_openai, tmp_path, PAIR_Q, wrong)
    assert not _shown_unmarked(wrong, shown), shown


def test_the_same_comparison_said_plainly_is_kept_unmarked(pair, repo, scripted_openai, tmp_path):
    (w, wv), (lose, lv) = pair
    right = f"{w} ({wv:.1f} μs) is better than {lose} ({lv:.1f} μs) on T1."
    shown, claims = _ask(repo, scripted_openai, tmp_path, PAIR_Q, right)
    assert shown.strip() == right and claims == "kept", shown


def test_no_as_the_answer_word_is_not_a_negation(pair, repo, scripted_openai, tmp_path):
    (w, wv), (lose, lv) = pair
    right = f"No, {w} ({wv:.1f} μs) is better than {lose} ({lv:.1f} μs) on T1."
    shown, claims = _ask(repo, scripted_openai, tmp_path, PAIR_Q, right)
    assert shown.strip() == right and claims == "kept", shown


@pytest.mark.parametrize("template", [
    "{w} has T1 {wv:.1f} μs, {l} has {wv:.1f} μs.",
    "On T1 {w} reads {wv:.1f} μs, {l} reads {wv:.1f} μs as well.",
])
def test_a_value_given_to_the_qubit_named_after_a_comma_is_held_to_that_qubit(template, pair, repo,
                                                                              scripted_openai, tmp_path):
    (w, wv), (lose, lv) = pair
    wrong = template.format(w=w, wv=wv, l=lose, lv=lv)
    shown, _ = _ask(repo, scripted_openai, tmp_path, PAIR_Q, wrong)
    assert not _shown_unmarked(wrong, shown), shown


def test_a_negated_comparison_of_two_chips_is_not_verified(chips, repo, scripted_openai, tmp_path):
    (win, wv), (lose, lv) = chips
    wrong = f"{win}'s median T2 echo ({wv:.1f} μs) is not larger than {lose}'s ({lv:.1f} μs)."
    shown, _ = _ask(repo, scripted_openai, tmp_path, CHIPS_Q, wrong)
    assert not _shown_unmarked(wrong, shown), shown


def test_a_negated_top_task_is_not_verified(demo_db, repo, scripted_openai, tmp_path):
    top = dev_marks.failure_counts(demo_db, CHIP, "name")[0][0]
    wrong = f"{top} is not the task with the most failures."
    shown, _ = _ask(repo, scripted_openai, tmp_path, f"Which task's failures are highest on {CHIP}?", wrong)
    assert not _shown_unmarked(wrong, shown), shown


def _coefficient(db, a: str, b: str) -> float:
    va, vb = latest_values(db, CHIP, a), latest_values(db, CHIP, b)
    both = sorted(q for q in set(va) & set(vb) if va[q] is not None and vb[q] is not None)
    return statistics.correlation([va[q] for q in both], [vb[q] for q in both])  # type: ignore[misc]


def _band(r: float) -> str:
    """The bands by hand: 0.7 and up strong, 0.4 moderate, 0.1 weak, below that none."""
    size = abs(r)
    return "strong" if size >= 0.7 else "moderate" if size >= 0.4 else "weak" if size >= 0.1 else "none"


STRONG_Q = "Is T1 correlated with T2 echo across the qubits?"
NONE_Q = "Do X90 gate fidelity and readout fidelity track each other?"


@pytest.fixture(scope="module")
def coefficients(demo_db):
    strong = _coefficient(demo_db, "t1", "t2_echo")
    none = _coefficient(demo_db, "x90_gate_fidelity", "average_readout_fidelity")
    assert _band(strong) == "strong" and strong > 0 and _band(none) == "none"
    return {STRONG_Q: strong, NONE_Q: none}


@pytest.mark.parametrize("question, template", [
    (STRONG_Q, "There is only a weak correlation between T1 and T2 echo (Pearson r = {r:.2f})."),
    (STRONG_Q, "T1 and T2 echo show a strong negative correlation (r = {r:.2f})."),
    (STRONG_Q, "Across the qubits, T1 and T2 echo are not correlated."),
    (STRONG_Q, "T1 is independent of T2 echo (r = {r:.2f})."),
    (STRONG_Q, "They are moderately related, with r = {r:.2f}."),
    (NONE_Q, "X90 gate fidelity and readout fidelity are strongly correlated (r = {r:.2f})."),
    (NONE_Q, "Yes, they track each other closely."),
    (NONE_Q, "There is a clear positive relationship between them."),
])
def test_words_that_misstate_a_relation_are_not_shown_unmarked(question, template, coefficients, repo,
                                                               scripted_openai, tmp_path):
    r = coefficients[question]
    wrong = template.format(r=r)
    shown, _ = _ask(repo, scripted_openai, tmp_path, question, wrong)
    assert not _shown_unmarked(wrong, shown), shown
    assert f"{r:.2f}" in shown, shown  # the person reads the coefficient the data gives


@pytest.mark.parametrize("question, template", [
    (STRONG_Q, "Yes: T1 and T2 echo are strongly positively correlated, Pearson r = {r:.2f}."),
    (STRONG_Q, "T1 and T2 echo are not weakly related: r = {r:.2f}, a strong relation."),
    (NONE_Q, "No, they are not correlated (r = {r:.2f})."),
    (NONE_Q, "X90 gate fidelity and readout fidelity are uncorrelated: r = {r:.2f}."),
])
def test_words_that_state_a_relation_rightly_are_kept_unmarked(question, template, coefficients, repo,
                                                               scripted_openai, tmp_path):
    right = template.format(r=coefficients[question])
    shown, claims = _ask(repo, scripted_openai, tmp_path, question, right)
    assert shown.strip() == right and claims == "kept", shown


def test_a_relation_no_tool_computed_is_marked(repo, scripted_openai, tmp_path):
    said = "Q05's T1 is strongly correlated with its readout fidelity."
    shown, _ = _ask(repo, scripted_openai, tmp_path, "What is the T1 of Q05?", said)
    assert NOT_CHECKED in shown or LEFT_OUT in shown or REPLACED in shown, shown


def _count(db, conditions: list[tuple[str, str, float]]) -> int:
    """Qubits of the chip whose every named value is on the given side of its limit (pymongo reads)."""
    values = {name: latest_values(db, CHIP, name) for name, _, _ in conditions}
    qubits = set.intersection(*({q for q, v in vs.items() if v is not None} for vs in values.values()))
    return sum(all((values[n][q] > limit) if side == "above" else (values[n][q] < limit)  # type: ignore[operator]
                   for n, side, limit in conditions) for q in qubits)


BOTH_Q = "How many qubits have T1 above 55 μs and T2 echo above 45 μs?"
BOTH = [("t1", "above", 55.0), ("t2_echo", "above", 45.0)]


@pytest.mark.parametrize("wrong", [
    "None of the 62 qubits have T1 above 55 μs and T2 echo above 45 μs.",
    "No qubits have T1 above 55 μs and T2 echo above 45 μs.",
    "Not a single qubit has both T1 above 55 μs and T2 echo above 45 μs.",
])
def test_none_said_in_words_over_a_count_that_is_not_zero_is_not_shown_unmarked(wrong, demo_db, repo,
                                                                               scripted_openai, tmp_path):
    n = _count(demo_db, BOTH)
    assert n > 0
    shown, _ = _ask(repo, scripted_openai, tmp_path, BOTH_Q, wrong)
    assert not _shown_unmarked(wrong, shown), shown
    assert str(n) in shown, shown


def test_none_said_in_words_over_a_count_of_zero_is_kept_unmarked(demo_db, repo, scripted_openai, tmp_path):
    assert _count(demo_db, [("t1", "above", 500.0)]) == 0
    right = "No qubits have T1 above 500 μs."
    shown, claims = _ask(repo, scripted_openai, tmp_path, "How many qubits have T1 above 500 μs?", right)
    assert shown.strip() == right and claims == "kept", shown


def test_no_before_a_qubit_number_names_it_and_counts_nothing(repo, scripted_openai, tmp_path):
    right = f"Q05 has no T1 above 500 μs on {CHIP}."
    shown, _ = _ask(repo, scripted_openai, tmp_path, "What is the T1 of Q05?", right)
    assert NOT_CHECKED not in shown and LEFT_OUT not in shown, shown


@pytest.mark.parametrize("template", [
    "{w} ({wv:.1f} μs) and {l} ({lv:.1f} μs) have the same T1.",
    "{w} and {l} are equally good on T1: {wv:.1f} μs and {lv:.1f} μs.",
    "On T1, {l} and {w} are tied.",
    "{w} and {l} have a similar T1.",
])
def test_two_qubits_said_to_be_equal_or_alike_are_not_verified_when_they_differ(template, pair, repo,
                                                                               scripted_openai, tmp_path):
    (w, wv), (lose, lv) = pair
    wrong = template.format(w=w, wv=wv, l=lose, lv=lv)
    shown, _ = _ask(repo, scripted_openai, tmp_path, PAIR_Q, wrong)
    assert not _shown_unmarked(wrong, shown), shown


def test_two_chips_said_to_be_equal_are_not_verified_when_they_differ(chips, repo, scripted_openai, tmp_path):
    (win, wv), (lose, lv) = chips
    wrong = f"{win} ({wv:.1f} μs) and {lose} ({lv:.1f} μs) have an equal median T2 echo."
    shown, _ = _ask(repo, scripted_openai, tmp_path, CHIPS_Q, wrong)
    assert not _shown_unmarked(wrong, shown), shown
    assert f"{wv:.1f}" in shown and f"{lv:.1f}" in shown, shown


def _share(db, name: str, side: str, limit: float) -> float:
    values = [v for v in latest_values(db, CHIP, name).values() if v is not None]
    return 100 * sum((v > limit) if side == "above" else (v < limit) for v in values) / len(values)


SHARE_Q = "What percent of qubits have T1 under 45 μs?"


@pytest.mark.parametrize("template", [
    "Most qubits ({p:.1f}%) have T1 under 45 μs.",
    "The majority of qubits, {p:.1f}%, have T1 under 45 μs.",
    "All qubits have T1 under 45 μs ({p:.1f}%).",
])
def test_most_or_all_said_of_a_share_under_half_is_not_shown_unmarked(template, demo_db, repo, scripted_openai,
                                                                       tmp_path):
    p = _share(demo_db, "t1", "below", 45.0)
    assert p < 50
    wrong = template.format(p=p)
    shown, _ = _ask(repo, scripted_openai, tmp_path, SHARE_Q, wrong)
    assert not _shown_unmarked(wrong, shown), shown


def test_most_said_of_a_share_over_half_is_kept_unmarked(demo_db, repo, scripted_openai, tmp_path):
    p = _share(demo_db, "t2_echo", "above", 60.0)
    assert p > 50
    right = f"Most qubits ({p:.1f}%) have T2 echo above 60 μs."
    shown, claims = _ask(repo, scripted_openai, tmp_path, "What fraction of the qubits have T2 echo above 60 μs?",
                         right)
    assert shown.strip() == right and claims == "kept", shown


def test_the_most_failures_is_a_ranking_not_a_share(demo_db, repo, scripted_openai, tmp_path):
    top, n = dev_marks.failure_counts(demo_db, CHIP, "name")[0]
    right = f"{top} has the most failures, {n} of them."
    shown, claims = _ask(repo, scripted_openai, tmp_path, f"Which task's failures are highest on {CHIP}?", right)
    assert shown.strip() == right and claims == "kept", shown


def test_all_after_of_or_across_names_what_a_share_is_of(demo_db, repo, scripted_openai, tmp_path):
    p = _share(demo_db, "t1", "below", 45.0)
    right = f"Across all qubits with a value, {p:.1f}% have T1 under 45 μs."
    shown, claims = _ask(repo, scripted_openai, tmp_path, SHARE_Q, right)
    assert shown.strip() == right and claims == "kept", shown
