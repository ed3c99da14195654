"""The pieces of the fail-closed comparison rule, each on hand-written words: which words compare, which figure a
comparison of two subjects must state, and a chip's name never read as a limit ("better than 64Qv3")."""

from __future__ import annotations

import pytest

from copilot_core.checking.asked_role import asked_role
from copilot_core.checking.comparison import compares, one_sided
from copilot_core.language.question import parse


@pytest.mark.parametrize("said", ["Q9 is ahead with 61.4 μs.", "Pair 20-6 is higher, at 98.59%.",
                                  "Q4 edges out Q6.", "64Qv3 beats 144Qv2.", "Q3 is behind on T1.",
                                  "144Qv2 is larger here, 34.0%."])
def test_words_that_say_one_side_is_ahead_compare(said):
    assert compares(said)


@pytest.mark.parametrize("said", ["Q9 has a T1 of 61.4 μs.", "The ZX90 fidelity of 20-6 is 98.59%."])
def test_a_plain_value_does_not_compare(said):
    assert not compares(said)


@pytest.mark.parametrize("question, what", [
    ("Which has the longer T1, Q4 or Q6?", "value of each of the two qubits"),
    ("pair 14-11 or pair 30-27, which has the higher Bell state fidelity?", "value of each of the two couplings"),
    ("Which coupling had the higher mean ZX90 gate fidelity over the last 7 days, Q10-Q8 or Q20-Q6?",
     "mean of each coupling over the window"),
    ("Which of Q3 and Q9 varied more in T1 over the last two weeks?", "standard deviation of each qubit's history"),
])
def test_a_comparison_of_two_needs_each_sides_figure(question, what):
    need = asked_role(parse(question))
    assert need is not None and need.what == what and one_sided(need, parse(question), "Q4 is higher.")


def test_a_top_n_is_not_a_comparison_of_two():
    asked = parse("Which 2 qubits have the highest T1?")
    need = asked_role(asked)
    assert need is not None and not one_sided(need, asked, "Q4 is highest.")


@pytest.mark.parametrize("question", ["How widely does T1 vary across 64Qv3?", "How many qubits have T1 below 50 μs?"])
def test_one_subjects_figure_is_not_a_comparison_of_two(question):
    asked = parse(question)
    need = asked_role(asked)
    assert need is not None and not one_sided(need, asked, "Q59 has the lowest T1, below 50 μs.")


@pytest.mark.parametrize("question", ["Is 144Qv2 better than 64Qv3 on median readout fidelity?",
                                      "Is 64Qv3 better than 144Qv2 on median readout fidelity?",
                                      "Does 144Qv2 have more than 64Qv3 in T1?"])
def test_a_chips_name_is_never_a_limit(question):
    assert parse(question).limits == ()


def test_a_limit_beside_a_chips_name_is_still_read():
    (limit,) = parse("How many qubits have T1 above 64 us on 144Qv2?").limits
    assert (limit.side, limit.value, limit.metric) == ("above", 64.0, "t1")
