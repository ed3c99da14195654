"""Answers in the model's own words with a number in a unit its metric does not have, a statistic no tool gave, or a
claim that every run succeeded, replayed through ``Copilot.ask`` (the page's path: clarification on, the chip in
view) with a scripted model over real HTTP.

Before: "the standard deviation of T1 is 26.7 MHz" passed on the tools' 26.7 μs (numbers were matched by value
only), "T1 varies by 40 μs" was held to no statistic, "about three microseconds" was no number at all, and "all of
them were successful" was no claim.  Each wrong sentence must not reach the person unmarked; each right one (its
value converted to another unit of the family included: 0.0599 ms for 59.9 μs) is kept as written, with no mark.

Expected values are pymongo reads of the demo documents (``tests.public_eval.latest_values``) and statistics
computed here from them (sample standard deviation, linear quartiles), never the tools' output.
"""

from __future__ import annotations

import statistics

import pytest

from copilot_core.checking.claim_units import fact_unit, spelled_value, unit_fits, written_unit
from copilot_core.checking.claim_facts import Fact
from copilot_core.checking.marks import LEFT_OUT, NOT_CHECKED
from tests.agent.page_turn import SMALL, page_turn
from tests.fakes.scripted_openai import SmartRequest, text
from tests.public_eval import CHIP, latest_values

REPLACED = "was replaced by one computed from the tool results"
SPREAD_Q = "What is the spread of T1 across the chip?"
MEDIAN_Q = "What's the chip's median T1?"
FIDELITY_Q = "What's the median X90 gate fidelity on the chip?"
RUN_Q = f"Did the latest calibration run on {CHIP} have failures?"


def _ask(repo, server, tmp_path, question: str, answer: str) -> tuple[str, str]:
    def model(request: SmartRequest):
        return text(answer)
    server.smart = model
    turn = page_turn(repo, server, tmp_path, question, SMALL)
    assert turn.answer is not None and turn.result is not None
    return turn.answer.text, turn.result.claims


def _shown_unmarked(sentence: str, shown: str) -> bool:
    """``sentence`` reaches the person as written, with no mark after it and no note that it was replaced."""
    at = shown.find(sentence)
    return at >= 0 and not shown[at + len(sentence):].lstrip().startswith(NOT_CHECKED) and REPLACED not in shown


@pytest.fixture(scope="module")
def t1(demo_db) -> dict[str, float]:
    """T1 across the chip by hand: median, sample standard deviation, range, linear-quartile IQR, CV, ends."""
    values = sorted(v for v in latest_values(demo_db, CHIP, "t1").values() if v is not None)
    q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive")
    std = statistics.stdev(values)
    median = statistics.median(values)
    assert 50 <= median < 100  # T1's catalogue bands: good from 50 μs, excellent from 100 μs
    return {"median": median, "std": std, "range": values[-1] - values[0], "iqr": q3 - q1,
            "cv": 100 * std / statistics.mean(values), "min": values[0], "max": values[-1], "n": len(values)}


@pytest.fixture(scope="module")
def x90_median(demo_db) -> float:
    return statistics.median(v for v in latest_values(demo_db, CHIP, "x90_gate_fidelity").values() if v is not None)


@pytest.fixture(scope="module")
def run_failures(demo_db) -> int:
    """Failed task results of the chip's newest calibration run (the execution of its newest task result)."""
    docs = list(demo_db["task_result_history"].find({"chip_id": CHIP}))
    newest = max(docs, key=lambda d: d["start_at"])["execution_id"]
    failed = sum(1 for d in docs if d["execution_id"] == newest and d["status"] == "failed")
    assert failed > 0
    return failed


@pytest.mark.parametrize("question, template", [
    (SPREAD_Q, "The spread of T1 is about 3.2 MHz."),  # a number no tool gave, in a frequency's unit
    (SPREAD_Q, "The standard deviation of T1 is {std:.1f} MHz."),  # the right number in a unit T1 does not have
    (SPREAD_Q, "The IQR of T1 is {iqr:.1f} dB."),
    (SPREAD_Q, "T1 ranges over {range:.1f} GHz across the chip."),
    (SPREAD_Q, "T1 varies by 40 ns across the chip."),
    (SPREAD_Q, "T1 is between 20 and 40 MHz on this chip."),  # a range: the first number's unit is after the second
    (SPREAD_Q, "T1 varies by {median:.1f} μs from qubit to qubit."),  # the median said to be a spread
    (MEDIAN_Q, "T1 varies by {median:.1f} μs across the chip."),  # a spread no tool of this turn computed
    (MEDIAN_Q, "The median T1 is {median:.1f} μs and the IQR is 12 dB."),
    (MEDIAN_Q, "The median T1 is {median:.1f} μs, and its standard deviation is {median:.1f} μs."),
    (MEDIAN_Q, "The median T1 is {ms:.4f} ms, which is excellent."),  # converted, then graded: 50-100 μs is good
    (MEDIAN_Q, "The median T1 is {median:.1f} MHz."),
    (MEDIAN_Q, "Q99 holds the chip's median T1, {median:.1f} μs."),  # a subject no tool returned (64 qubits)
])
def test_a_value_in_a_unit_its_metric_lacks_or_a_statistic_no_tool_gave_is_not_shown_unmarked(
        question, template, t1, repo, scripted_openai, tmp_path):
    wrong = template.format(**t1, ms=t1["median"] / 1000)
    shown, _ = _ask(repo, scripted_openai, tmp_path, question, wrong)
    assert not _shown_unmarked(wrong, shown), shown


def test_a_unit_that_cannot_be_the_metrics_replaces_the_answer_with_the_tools_sentence(t1, repo, scripted_openai,
                                                                                      tmp_path):
    wrong = f"The standard deviation of T1 is {t1['std']:.1f} MHz."
    shown, claims = _ask(repo, scripted_openai, tmp_path, SPREAD_Q, wrong)
    assert claims == "replaced" and wrong not in shown, shown
    assert f"standard deviation {t1['std']:.1f} μs" in shown and "MHz" in shown, shown  # the note names the unit


def test_a_fraction_written_as_a_percentage_is_replaced(x90_median, repo, scripted_openai, tmp_path):
    wrong = f"The median X90 gate fidelity is {x90_median / 100:.4f}%."
    shown, claims = _ask(repo, scripted_openai, tmp_path, FIDELITY_Q, wrong)
    assert claims == "replaced" and wrong not in shown and f"{x90_median:.2f}%" in shown, shown
    assert "reads a fraction as a percentage" in shown, shown  # the note says what is wrong with it


@pytest.mark.parametrize("question, template", [
    (SPREAD_Q, "The standard deviation of T1 is about three microseconds."),  # a number in words
    (SPREAD_Q, "T1's IQR is roughly twelve μs."),
    (MEDIAN_Q, "The median T1 is {median:.1f} μs; there are 12 anomalies on the chip."),  # a count nobody counted
    (MEDIAN_Q, "The median T1 is {median:.1f} μs; {n} outliers were found."),  # ... equal to the qubits counted
])
def test_a_value_in_words_or_a_count_nobody_made_is_marked(question, template, t1, repo, scripted_openai, tmp_path):
    said = template.format(**t1)
    shown, _ = _ask(repo, scripted_openai, tmp_path, question, said)
    assert NOT_CHECKED in shown or LEFT_OUT in shown or REPLACED in shown, shown


@pytest.mark.parametrize("question, template", [
    (SPREAD_Q, "The standard deviation of T1 is {std:.1f} μs, or {std_ms:.4f} ms."),
    (SPREAD_Q, "T1 varies between {min:.1f} and {max:.1f} μs, a range of {range:.1f} μs."),
    (SPREAD_Q, "The IQR of T1 is {iqr:.1f} microseconds."),
    (SPREAD_Q, "T1 varies by {cv:.1f}% around its mean."),
    (MEDIAN_Q, "The median T1 is {ms:.4f} ms."),
    (MEDIAN_Q, "The median T1 is {ns} ns, which is good."),
])
def test_a_right_value_in_own_words_and_units_is_kept_unmarked(question, template, t1, repo, scripted_openai,
                                                              tmp_path):
    right = template.format(**t1, std_ms=t1["std"] / 1000, ms=t1["median"] / 1000,
                            ns=f"{round(t1['median'], 1) * 1000:.0f}")
    shown, claims = _ask(repo, scripted_openai, tmp_path, question, right)
    assert shown.strip() == right and claims == "kept", shown


@pytest.mark.parametrize("template", ["The median X90 gate fidelity is {f:.4f}.", "The median X90 gate fidelity is "
                                      "{p:.2f}%."])
def test_a_fidelity_as_a_fraction_or_a_percentage_is_kept_unmarked(template, x90_median, repo, scripted_openai,
                                                                   tmp_path):
    right = template.format(f=x90_median / 100, p=x90_median)
    shown, claims = _ask(repo, scripted_openai, tmp_path, FIDELITY_Q, right)
    assert shown.strip() == right and claims == "kept", shown


@pytest.mark.parametrize("wrong", [
    "No, all of them were successful.",
    "Every task in the run succeeded.",
    "Nothing failed in the latest run.",
    "There were no errors in that run.",
])
def test_every_run_succeeded_is_held_to_the_turns_failure_count(wrong, run_failures, repo, scripted_openai,
                                                                tmp_path):
    shown, _ = _ask(repo, scripted_openai, tmp_path, RUN_Q, wrong)
    assert not _shown_unmarked(wrong, shown), shown
    assert f"{run_failures} of" in shown, shown  # the person reads the count of failures the data gives


def test_not_every_task_succeeded_is_kept_when_some_failed(run_failures, repo, scripted_openai, tmp_path):
    right = f"Not every task in the run succeeded: {run_failures} tasks failed."
    shown, claims = _ask(repo, scripted_openai, tmp_path, RUN_Q, right)
    assert shown.strip() == right and claims == "kept", shown


# The readers themselves, on hand-written text (no tool output involved).
@pytest.mark.parametrize("after, unit", [
    (" μs.", "μs"), (" microseconds", "μs"), ("ms", "ms"), (" and 40 MHz", "MHz"), ("–40 ns", "ns"),
    (" to 5 GHz", "GHz"), (" percent of", "%"), (" qubits", None), (" and Q05", None),
])
def test_the_unit_after_a_number(after, unit):
    assert written_unit(after) == unit


@pytest.mark.parametrize("written, unit, fact, fits", [
    ("0.0452", "ms", Fact(45.2, "median", "t1"), True), ("45200", "ns", Fact(45.234, "median", "t1"), True),
    ("45.2", "MHz", Fact(45.2, "median", "t1"), False), ("45.2", "ms", Fact(45.2, "median", "t1"), False),
    ("0.9978", None, Fact(99.78, "median", "x90_gate_fidelity"), True),
    ("0.9978", "%", Fact(99.78, "median", "x90_gate_fidelity"), False),
    ("41.3", "%", Fact(41.3, "cv", "t1"), True), ("41.3", "μs", Fact(41.3, "cv", "t1"), False),
    ("62", "μs", Fact(62, "count"), False), ("62", None, Fact(62, "count"), True),
    ("3.2", "MHz", Fact(3.2, "other"), True),  # no metric, no unit stated: any unit may state it
])
def test_a_number_states_a_fact_in_its_unit_or_one_converted(written, unit, fact, fits):
    assert fact_unit(Fact(1.0, "count")) == "" and fact_unit(Fact(1.0, "std", "t1")) == "μs"
    assert unit_fits(written, unit, fact) is fits


@pytest.mark.parametrize("sentence, states", [
    ("The spread is about three microseconds.", True), ("Roughly twenty percent of them.", True),
    ("It is ten %.", True), ("One of the qubits is slow.", False), ("No one's T1 is known.", False),
])
def test_a_value_in_words(sentence, states):
    assert spelled_value(sentence) is states
