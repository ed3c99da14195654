"""The eval's scorer on hand-written right and wrong answers: a value counts only where it is claimed."""

from __future__ import annotations

import pytest

from tests.eval_score import Expect, Truth, passed, tokens

Q05 = r"(?:Q0*5|qubit\s*0*5)(?!\d)"
RIGHT_AND_WRONG = [
    # (truth, an answer that gives it, an answer that does not)
    (Truth((Expect(28, kind="count"),)), "28 tasks failed in the latest run.",
     "The latest run was on 2026-11-28 and several tasks failed."),
    (Truth((Expect(28, kind="count"),)), "There are 28 qubits below 50 μs.", "Q28 is the worst qubit; 3 qubits fail."),
    (Truth((Expect(5, kind="count"),)), "5 qubits have T1 below 50 μs.", "The lowest T1 is 5 μs on Q12."),
    (Truth((Expect(5, kind="count"),)), "Count of failed tasks: 5 tasks.", "Execution 20261128-005 had failures."),
    (Truth((Expect(11, kind="count"),)), "11 runs happened.", "It ran at 11:05 on the last day."),
    (Truth((Expect(61.2, 0.051, near=(Q05,)),)), "Q05 has a T1 of 61.2 μs.",
     "Q07 has a T1 of 61.2 μs; Q05 has 40.1 μs."),
    (Truth((Expect(61.2, 0.051, near=(Q05,)),)), "| Q05 | 61.23 μs |\n| Q06 | 40.1 μs |",
     "| Q05 | 40.1 μs |\n| Q06 | 61.2 μs |"),
    (Truth((Expect(70.97, 0.51, unit="%"),)), "About 70.9% of the qubits have T1 above 50 μs.",
     "The median T1 is 70.9 μs."),
    (Truth((Expect(0.82, 0.02, signed=True),)), "The Pearson correlation is r = 0.82 (strong).",
     "The Pearson correlation is r = -0.82."),
    (Truth((Expect(77.8, 0.051), Expect(75.2, 0.051)), winner="64Qv3", loser="144Qv2"),
     "64Qv3 has a higher median T2 echo (77.8 μs) than 144Qv2 (75.2 μs).",
     "144Qv2 has a higher median T2 echo (75.2 μs) than 64Qv3 (77.8 μs)."),
    (Truth((Expect(77.8, 0.051), Expect(75.2, 0.051)), winner="64Qv3", loser="144Qv2"),
     "Medians: 64Qv3 77.8 μs, 144Qv2 75.2 μs. 144Qv2 is lower than 64Qv3.",
     "Medians: 64Qv3 77.8 μs, 144Qv2 75.2 μs. 64Qv3 is lower than 144Qv2."),
    (Truth(any_words=("does not exist", "no qubit"), no_values=True),
     "Qubit 200 does not exist on 64Qv3: the chip has 64 qubits.",
     "Qubit 200 does not exist, but its T1 is 20.5 μs (good)."),
    (Truth((Expect(135, kind="count", near=(r"\bCheckRamsey\b",)),)),
     "CheckRamsey fails most often: 135 failed results.",
     "ZX90InterleavedRandomizedBenchmarking failed 135 times; CheckRamsey failed 90 times."),
    (Truth(((61.2, 0.051),), (r"2026-11-2[0-9]",)), "T1 was 61.2 μs on 2026-11-27.", "T1 was 61.2 μs."),
]


@pytest.mark.parametrize("truth,right,wrong", RIGHT_AND_WRONG)
def test_a_right_answer_passes_and_a_wrong_one_fails(truth, right, wrong):
    assert passed(truth, right)
    assert not passed(truth, wrong)


def test_dates_ids_and_labels_are_not_numbers():
    said = [t.value for t in tokens("On 2026-11-28 18:43 UTC, run 20261128-001 on 64Qv3 had Q05 and coupling 3-4 "
                                    "at 99.1%.")]
    assert said == [99.1]


def test_a_count_in_the_old_tuple_form_is_a_count():
    truth = Truth(((7, 0),))
    assert passed(truth, "7 qubits have no valid T1.")
    assert not passed(truth, "The median T1 is 7 μs.")


def test_a_chart_is_required_when_asked():
    assert not passed(Truth(chart=True), "Here is the chart.", charts=0)
    assert passed(Truth(chart=True), "Here is the chart.", charts=1)
