"""The side of a limit an answer's sentence puts a value on, read with the question's comparison table: every
comparison a question may use is read in an answer too, negations turn it, and a comparison far from the number
is not the number's.  Expected sides are written by hand."""

from __future__ import annotations

import pytest

from copilot_core.checking.sides import sides_said

CASES = [
    ("Q05's T1 is below 50 μs.", {"below"}),
    ("Q05's T1 is not under 50 μs.", {"above"}),
    ("Q05's T1 isn't under 50 μs.", {"above"}),
    ("Q05's T1 is no more than 50 μs.", {"below"}),
    ("Q05's T1 is at most 50 μs.", {"below"}),
    ("Q05's T1 does not reach 50 μs.", {"below"}),
    ("Q05's T1 reaches 50 μs.", {"above"}),
    ("Q05's T1 is greater than or equal to 50 μs.", {"above"}),
    ("Q05's T1 is lower, at 50 μs.", {"below"}),
    ("Q05 exceeds the lab's 50 μs limit.", {"above"}),
    ("The gate is within 50 ns.", {"below"}),
    ("Over the whole of last week, Q05 sat at 50 μs.", set()),
    ("Q05's T1 was 50 μs.", set()),
    ("Q05's T1 is below 40 μs; the limit is 50 μs.", set()),
    ("T1 is above 50 μs. T2 is under 50 μs.", {"above", "below"}),
]


@pytest.mark.parametrize(("sentence", "sides"), CASES)
def test_an_answer_puts_the_limit_on_the_side_it_says(sentence: str, sides: set[str]) -> None:
    assert sides_said(sentence, {50.0}) == sides
