"""The router makes the call each "two subjects side by side" dev question needs (``tests/dev_pairs9.py``), every
argument as written there by hand: two couplings named by their qubits with any joining words are two couplings
(never three or four loose qubits), two qubits one metric, and two qubits' means over a window their history over
that window; and each call restates its question."""

from __future__ import annotations

import pytest

from copilot_core.language.question import parse
from tests import dev_pairs9
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)


def test_there_are_at_least_30_dev_questions_over_both_chips(demo_db):
    asked = dev_pairs9.planned(demo_db)
    assert len(asked) >= 30
    assert {args["chip_id"] for _, (_, args) in asked} == {CHIP, OTHER}


@pytest.mark.parametrize("text, couplings", [
    ("the coupler between qubits 4 and 5 versus the one between 4 and 6, Bell state fidelity", ("4-5", "4-6")),
    ("ZX90 fidelity: (3,7) or (3,9)?", ("3-7", "3-9")),
    ("Q12Q13 vs Q12Q14 gate time", ("12-13", "12-14")),
    ("Is 8/9 a better link than 9/10?", ("8-9", "9-10")),
    ("bell fidelity of the 2–3 and 3–4 couplings", ("2-3", "3-4")),
])
def test_two_couplings_are_read_as_couplings_whatever_joins_their_qubits(text, couplings):
    asked = parse(text, CHIPS)
    assert (asked.couplings, asked.qubits) == (couplings, ()), (asked.couplings, asked.qubits)


@pytest.mark.parametrize("text, qubits", [
    ("Which of qubits 3, 7 and 9 has the best T1?", ("3", "7", "9")),
    ("Compare Q3 and Q7 on T1", ("3", "7")),
    ("Show the couplings of qubits 3, 7 and 9", ("3", "7", "9")),
    ("Which couplings have Bell fidelity between 90 and 95% or between 80 and 85 %?", ()),
    ("How many couplings have zx90 fidelity between 0.9 and 0.95 or between 0.8 and 0.85?", ()),
])
def test_qubits_listed_and_limits_stay_what_they_are(text, qubits):
    asked = parse(text, CHIPS)
    assert (asked.qubits, asked.couplings) == (qubits, ()), (asked.qubits, asked.couplings)
