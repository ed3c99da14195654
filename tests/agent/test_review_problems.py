"""The review must say what is wrong with THAT qubit in the report's own words (metric + band/condition): on
hand-made reports and hand-written reviews, every problem the review leaves out or names vaguely is added in the
report's own sentence, and a problem the report does not list is left out.  Expected outputs are written by
hand."""

from __future__ import annotations

from datetime import datetime

import pytest

from copilot_core.review.qubit_facts import report_facts, summary_line
from copilot_core.review.qubit_review import review_block
from copilot_core.review.review_check import check_review
from copilot_core.analysis.health import CouplingCheck, HealthReport, MetricCheck, TaskFailure, Trend

DAY = datetime(2026, 1, 5, 12, 0)
FLAT = Trend(5, 0.0, 0.0, "stable")


def metric_check(name: str, title: str, value: float, band: str, **extra) -> MetricCheck:
    return MetricCheck(name, title, "μs" if name.startswith("t") else "%", value, band, "", DAY, FLAT, None, 0, None,
                       **extra)


def sick() -> HealthReport:
    """Q05: T1 12.3 μs is bad; T2 echo 30.0 μs fell 40% below its own median of 50.0 μs (band fair); CheckT1
    failed; the coupling Q05→Q06 has a bad ZX90 fidelity."""
    return HealthReport(
        "64Qv3", "5", "Q05", 64, 7, "bad",
        [metric_check("t1", "T1", 12.3, "bad"),
         metric_check("t2_echo", "T2 echo", 30.0, "fair", own_median=50.0, own_drop=0.4),
         metric_check("average_readout_fidelity", "Readout fidelity", 97.5, "good")],
        ["4", "6"],
        [CouplingCheck("5-6", "Q05→Q06", "control", "6", {"zx90_gate_fidelity": (80.0, "bad")}),
         CouplingCheck("4-5", "Q04→Q05", "target", "4", {"zx90_gate_fidelity": (99.0, "excellent")})],
        ["1 task run(s) failed on Q05 in the last 7 days (CheckT1; see Failed tasks).",
         "T1 12.3 μs is bad (< 20 μs).",
         "T2 echo 30.0 μs dropped 40% below its own 7-day median (50.0 μs).",
         "Coupling Q05→Q06 has a bad ZX90 gate fidelity (80.00%)."],
        "7 days up to 2026-01-05",
        [TaskFailure("5", "Q05", "CheckT1", DAY, "fit failed")])


def two_problems() -> HealthReport:
    """Q05 with only its T1 and T2 echo problems."""
    report = sick()
    return HealthReport(report.chip_id, report.qid, report.label, 64, 7, "bad", report.metrics, report.neighbours,
                        [report.couplings[1]], report.findings[1:3], report.window, [])


def healthy() -> HealthReport:
    return HealthReport("64Qv3", "5", "Q05", 64, 7, "good",
                        [metric_check("t1", "T1", 62.0, "good"), metric_check("t2_echo", "T2 echo", 80.0, "good")],
                        ["4", "6"], [CouplingCheck("5-6", "Q05→Q06", "control", "6",
                                                   {"zx90_gate_fidelity": (99.0, "excellent")})], [],
                        "7 days up to 2026-01-05", [])


T1_BAD = "T1 12.3 μs is bad, measured 2026-01-05."
T2_DROP = "T2 echo dropped 40% below its own 7-day median: 30.0 μs on 2026-01-05, median before 50.0 μs."
FAILED = "CheckT1 failed on Q05 at 2026-01-05 12:00."
COUPLING = "Coupling Q05→Q06 has a bad ZX90 gate fidelity (80.00%)."


def check(text: str, report: HealthReport):
    return check_review(text, report, report_facts(report), summary_line(report))


def test_the_report_lists_the_problems_in_its_own_words():
    facts = report_facts(sick())
    assert [line[3:] for line in facts.splitlines() if line[:1].isdigit()] == [T1_BAD, FAILED, T2_DROP, COUPLING]


def test_a_review_that_names_every_problem_is_shown_as_written():
    review = ("What is wrong: T1 12.3 μs is bad and T2 echo dropped 40% below its own median.\n"
              "CheckT1 failed; the coupling to Q06 has a bad ZX90 fidelity.\nWhat to re-run: CheckT1")
    result = check(review, sick())
    assert (result.status, result.added, result.dropped, result.reason) == ("checked", (), (), None)
    assert review_block(sick(), result, "m") == (
        "**Review of Q05** by m, checked against the report:\n\n"
        "- What is wrong: T1 12.3 μs is bad and T2 echo dropped 40% below its own median.\n"
        "- CheckT1 failed; the coupling to Q06 has a bad ZX90 fidelity.\n- What to re-run: CheckT1\n\n"
        "**Why the tasks failed** (the stored task messages):\n- CheckT1 on Q05: “fit failed”")


def test_a_vague_problems_gets_the_reports_lines_added_and_says_so():
    review = "What is wrong: Q05 has problems with T1 and T2 echo.\nWhat to re-run: CheckT1"
    result = check(review, two_problems())
    assert result.status == "checked" and result.text == review and result.dropped == ()
    assert result.added == (T1_BAD, T2_DROP)
    assert result.reason == "the check added 2 problem(s) from the report that the review did not name"
    assert review_block(two_problems(), result, "m") == (
        "**Review of Q05** by m:\n\n"
        "- What is wrong: Q05 has problems with T1 and T2 echo.\n- What to re-run: CheckT1\n\n"
        "_Added by the check, from the report (the review did not name them):_\n"
        f"- {T1_BAD}\n- {T2_DROP}\n\n"
        "_the check added 2 problem(s) from the report that the review did not name._")


@pytest.mark.parametrize("review, added", [
    ("What is wrong: T1 12.3 μs is bad.", (T2_DROP,)),  # one of two left out
    ("What is wrong: T2 echo dropped 40%.", (T1_BAD,)),
    ("T1 is low and T2 echo is lower than before.", (T1_BAD, T2_DROP)),  # no band, no "dropped"
    ("T1 is not bad. T2 echo dropped.", (T1_BAD,)),  # a negated band does not name it
    ("T1 12.3 μs is bad and T2 echo dropped, both since 2026-01-05.", ()),  # one sentence may name both
])
def test_each_problem_left_out_or_named_vaguely_is_added(review, added):
    result = check(review, two_problems())
    assert result.added == added and result.dropped == ()


def test_a_coupling_or_a_failure_needs_its_own_words_and_partner():
    result = check("T1 12.3 μs is bad. T2 echo dropped. A coupling is bad. CheckT1 had trouble.", sick())
    assert result.added == (FAILED, COUPLING) and result.dropped == ()
    named = check("T1 12.3 μs is bad. T2 echo dropped. Q05→Q06: bad ZX90 gate fidelity. CheckT1 failed.", sick())
    assert named.added == () and named.status == "checked"


@pytest.mark.parametrize("review", [
    "What is wrong: T1 dropped below its own median.",
    "What is wrong: Q05 has some problems.",
    "The coupling Q05→Q06 has a bad ZX90 fidelity.",
    "CheckT2Echo failed on Q05.",
    "Readout fidelity is missing.",
    # each inflection of a condition word is that condition
    "CheckT2Echo fails on Q05.", "A failing CheckT2Echo run on Q05.", "CheckT2Echo failure on Q05.",
    "CheckT2Echo failures on Q05.", "T1 drops below its own median.", "T1 keeps dropping.",
    "The readout fidelity is poor.", "Readout fidelity: no data.", "Q05 has issues.",
])
def test_a_healthy_qubits_review_may_not_invent_a_problem(review):
    result = check(f"{review}\nWhat to re-run: nothing", healthy())
    assert result.status == "trimmed" and result.text == "What to re-run: nothing" and result.added == ()
    assert result.dropped[0] in ("it named a problem of Q05; the report lists none",
                                 "it reported a failure; the report has none")


def test_a_healthy_qubits_plain_review_is_kept_and_nothing_is_added():
    review = "What is wrong: Q05 is healthy: nothing stands out. No problems.\nWhat to re-run: nothing"
    result = check(review, healthy())
    assert (result.status, result.text, result.added, result.dropped) == ("checked", review, (), ())


@pytest.mark.parametrize("line, why", [
    ("Readout fidelity has no valid value.", "it said Readout fidelity has no valid value; the report does not"),
    ("T1 dropped below its median.", "it said T1 dropped; the report does not"),
    ("CheckRamsey failed on Q05.", "it said CheckRamsey failed; the report does not"),
    ("The coupling Q04→Q05 is bad.", "it called a coupling bad; the report does not"),
])
def test_an_invented_problem_of_a_sick_qubit_is_left_out(line, why):
    review = f"T1 12.3 μs is bad. T2 echo dropped 40%. CheckT1 failed. Coupling Q05→Q06 has a bad ZX90 fidelity.\n{line}"
    result = check(review, sick())
    assert result.status == "trimmed" and result.dropped == (why,) and result.added == ()
    assert line not in (result.text or "")


def test_a_replaced_review_still_gets_every_problem_added():
    result = check("The whole chip is fine.", two_problems())
    assert result.status == "replaced" and result.text == "Q05 on 64Qv3 is bad: T1 12.3 μs is bad (< 20 μs)."
    assert result.added == (T2_DROP,)
    assert result.reason == ("the model's review was replaced by the report's summary: it talked about the chip, "
                             "not Q05; the check added 1 problem(s) from the report that the review did not name")


@pytest.mark.parametrize("line, kept", [
    ("T1 12.3 μs is bad.", True), ("T1 is 12 μs, which is bad.", True), ("T2 echo fell to 30 μs.", True),
    ("T1 is 12.7 μs, which is bad.", False),  # one decimal shown: off by 0.4, more than its rounding
    ("T1 is 13 μs, which is bad.", False),  # no decimal shown: off by 0.7
    ("T1 is 16 μs, which is bad.", False), ("T1 is 123 μs, which is bad.", False), ("T2 echo fell to 31.5 μs.", False),
])
def test_a_review_number_must_equal_the_reports_to_the_digits_it_shows(line, kept):
    """The report says T1 12.3 μs and T2 echo 30.0 μs: a review number may differ only by the rounding of the
    digits it writes (half a unit of its last digit), so a tolerance ten times wider is caught."""
    result = check(line, sick())
    assert (not result.dropped) is kept, result
