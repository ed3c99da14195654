"""The second sealed set's truths are computable on the demo store, not degenerate, and scorable.

Only question ids appear in failure messages, never the questions.  The latest-value rule of ``heldout2.py`` is
checked against ``tests/public_eval.latest_values``, written separately, on every metric both define alike.
"""

from __future__ import annotations

import math
import re
from collections import Counter

import pytest

from tests.eval_score import Expect, passed
from tests.public_eval import CHIP, OTHER, latest_values
from tests.sealed.heldout2 import build_heldout2, latest
from tests.sealed.calendar import sealed_fixtures


sealed_day, sealed_db, sealed_now = sealed_fixtures(build_heldout2)


@pytest.fixture(scope="module")
def questions(sealed_day):
    return sealed_day.questions


def _label(pattern: str) -> str:
    """A qubit or coupling as an answer would write it, read back from a ``near``/``winner`` pattern."""
    coupling = re.search(r"Q\?0\*(\d+).*Q\?0\*(\d+)", pattern)
    if coupling:
        return f"Q{coupling.group(1)}-Q{coupling.group(2)}"
    qubit = re.search(r"Q0\*(\d+)", pattern)
    if qubit:
        return f"Q{qubit.group(1)}"
    task = re.fullmatch(r"\\b(\w+)\\b", pattern)
    return task.group(1) if task else pattern


def _sentence(expect: Expect, shift: float = 0.0) -> str:
    value = expect.value + shift
    if expect.kind == "count":
        subject = " ".join(_label(p) for p in expect.near)
        return f"{subject} {int(value)} failed tasks." if subject else f"There are {int(value)} qubits."
    digits = max(1, math.ceil(-math.log10(2 * expect.tol)))  # rounding to these digits stays within tolerance
    text = f"{value:.{digits}f}{'%' if expect.unit == '%' else ''}"
    return f"{' '.join(_label(p) for p in expect.near)} is at {text}.".strip()


def _answer(question, shift: float = 0.0) -> str:
    truth = question.truth
    lines = [_sentence(e, shift) for e in truth.expects]
    if truth.winner:
        lines.append(f"{_label(truth.winner)} is higher than {_label(truth.loser)}.")
    if truth.any_words:
        lines.append(f"There is no such thing as {truth.any_words[0]} in the data.")
    return "\n".join(lines)


def test_forty_questions_ten_shapes_of_four(questions):
    assert len(questions) == 40 and len({q.id for q in questions}) == 40
    assert all(q.split == "held-out-2" for q in questions)
    assert sorted(Counter(q.shape for q in questions).values()) == [4] * 10


def test_every_truth_is_a_real_number_that_tells_answers_apart(questions):
    bad = []
    for q in questions:
        truth = q.truth
        if q.shape == "missing thing":
            if not (truth.no_values and truth.any_words and not truth.expects):
                bad.append(q.id)
            continue
        if not truth.expects or not all(math.isfinite(e.value) for e in truth.expects):
            bad.append(q.id)
        for e in truth.expects:
            if e.kind == "count" and not (e.value >= 1 and float(e.value).is_integer()):
                bad.append(f"{q.id}: count {e.value}")
            if e.unit == "%" and not 0 < e.value < 100:
                bad.append(f"{q.id}: share {e.value}")
        if q.shape == "correlation" and not -1 <= truth.expects[0].value <= 1:
            bad.append(f"{q.id}: r")
        if truth.winner is not None:
            a, b = truth.expects[0], truth.expects[1]
            if truth.winner == truth.loser or abs(a.value - b.value) <= a.tol + b.tol:
                bad.append(f"{q.id}: the two sides do not differ")
        if q.shape == "top N":
            values = [e.value for e in truth.expects]
            if len(values) < 2 or len(set(values)) != len(values) or len({e.near for e in truth.expects}) != len(values):
                bad.append(f"{q.id}: top N not distinct")
            if values != sorted(values) and values != sorted(values, reverse=True):
                bad.append(f"{q.id}: top N not in order")
    assert not bad, bad


def test_an_answer_stating_the_truth_passes_and_one_off_by_a_step_fails(questions):
    """Each truth is scorable: written out it passes the eval's scorer; every number moved by a visible step fails."""
    not_passing = [q.id for q in questions if not passed(q.truth, _answer(q))]
    assert not not_passing
    wrong_passing = [q.id for q in questions if q.truth.expects and passed(q.truth, _answer(q, shift=3.0))]
    assert not wrong_passing


def test_a_winner_put_below_the_loser_fails(questions):
    swapped = [q.id for q in questions if q.truth.winner
               and passed(q.truth, _answer(q).replace(" is higher than ", " is lower than "))]
    assert not swapped


@pytest.mark.parametrize("name", ["t1", "t2_echo", "qubit_frequency", "average_readout_fidelity",
                                  "x90_gate_fidelity"])
@pytest.mark.parametrize("chip", [CHIP, OTHER])
def test_the_latest_value_rule_matches_the_dev_eval_s(sealed_db, chip, name):
    ours = latest(sealed_db, chip, name)
    theirs = {q: v for q, v in latest_values(sealed_db, chip, name).items() if v is not None}
    assert ours.keys() == theirs.keys() and len(ours) > 0.9 * sealed_db["qubit"].count_documents({"chip_id": chip})
    assert all(math.isclose(ours[q], theirs[q]) for q in ours)
