"""The fourth to ninth sealed sets' truths are computable on the demo store, not degenerate, and scorable.

Only question ids appear in failure messages, never the questions.  The latest-value rule of each set's module is
checked against ``tests/public_eval.latest_values`` (written separately) and against the ``qubit``/``coupling``
documents, which QDash keeps equal to the newest completed, non-excluded result.
"""

from __future__ import annotations

import math
import re
from collections import Counter

import pytest

from tests.eval_score import Expect, passed
from tests.public_eval import CHIP, OTHER, latest_values
from tests.sealed import heldout4, heldout5, heldout6, heldout7, heldout8, heldout9
from tests.sealed.calendar import answerable_day

SHAPES = {"compound filter", "percentage", "top N", "cross-chip", "spread", "correlation", "missing thing",
          "window count", "fails most", "qubit pair"}
_QUBIT = re.compile(r"\(\?i\)\(\?:\\bQ0\*(\d+)\|")
_PAIR = re.compile(r"\(\?i\)\(\?:\(\?<!\[\\d\.\]\)Q\?0\*(\d+)\\D\{1,6\}Q\?0\*(\d+)")
# the sets' modules: the same truth helpers, one per set
SETS = {4: heldout4, 5: heldout5, 6: heldout6, 7: heldout7, 8: heldout8, 9: heldout9}
_CHIPS = {pattern: chip for chip, pattern in heldout4.CHIP_RE.items() | heldout5.CHIP_RE.items()
          | heldout6.CHIP_RE.items() | heldout7.CHIP_RE.items() | heldout8.CHIP_RE.items()
          | heldout9.CHIP_RE.items()}


@pytest.fixture(scope="module", params=sorted(SETS))
def questions(request, demo_db, demo_now):
    number = request.param
    return answerable_day(getattr(SETS[number], f"build_heldout{number}"), demo_db, demo_now).questions


def _label(pattern: str) -> str:
    """The subject as an answer would write it, read back from a ``near``/``winner``/``patterns`` regex."""
    if pattern in _CHIPS:
        return _CHIPS[pattern]
    pair = _PAIR.match(pattern)
    if pair:
        return f"Q{int(pair.group(1)):02d}-Q{int(pair.group(2)):02d}"
    qubit = _QUBIT.match(pattern)
    if qubit:
        return f"Q{int(qubit.group(1)):02d}"
    return pattern.removeprefix("(?i)")  # a task name or an execution id, written as is


def _sentence(expect: Expect, value: float) -> str:
    subject = " ".join(_label(p) for p in expect.near)
    if expect.kind == "count":
        return f"{subject}: {int(value)} results." if subject else f"That makes {int(value)} qubits."
    digits = max(1, math.ceil(-math.log10(2 * expect.tol)))  # rounding to these digits stays within tolerance
    text = f"{value:.{digits}f}{'%' if expect.unit == '%' else ''}"
    return f"{subject or 'The figure'} is at {text}."


def _answer(question, shift: float = 0.0, alternative: bool = False, named: tuple[str, ...] | None = None) -> str:
    """A hand-written answer that states the truth (moved by ``shift``; the first alternative value when asked;
    ``named`` in place of the subjects the truth's patterns require)."""
    truth = question.truth
    lines = [_sentence(e, (e.alternatives[0] if alternative and e.alternatives else e.value) + shift)
             for e in truth.expects]
    labels = named if named is not None else tuple(_label(p) for p in truth.patterns)
    if labels:
        lines.append("Named: " + ", ".join(labels) + ".")
    if truth.winner:
        lines.append(f"{_label(truth.winner)} is higher than {_label(truth.loser)}.")
    if truth.any_words:
        lines.append("There is no such qubit, chip, coupling or metric in the data.")
    return "\n".join(lines)


def test_forty_questions_ten_shapes_of_four(questions):
    number = questions[0].split.removeprefix("held-out-")
    assert len(questions) == 40 and len({q.id for q in questions}) == 40
    assert all(q.split == f"held-out-{number}" for q in questions)
    assert Counter(q.shape for q in questions) == dict.fromkeys(SHAPES, 4)
    assert all(re.fullmatch(rf"sealed{number}-{q.shape.replace(' ', '-')}-[1-4]", q.id) for q in questions)


def test_a_question_s_repr_shows_neither_its_words_nor_its_truth(questions):
    shown = [q.id for q in questions if q.text in repr(q) or "Truth(" in repr(q) or "Expect(" in repr(q)]
    assert not shown and all(q.id in repr(q) for q in questions)


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
            if e.unit == "%" and not all(0 < v < 100 for v in (e.value, *e.alternatives)):
                bad.append(f"{q.id}: share {e.value}")
        if q.shape == "compound filter" and not (1 <= truth.expects[0].value <= 10
                                                 and len(truth.patterns) == truth.expects[0].value):
            bad.append(f"{q.id}: the filter keeps none, too many, or other qubits than it names")
        if q.shape == "correlation" and not (-1 <= truth.expects[0].value <= 1 and abs(truth.expects[0].value) > 0.1):
            bad.append(f"{q.id}: r")
        if truth.winner is not None:
            a, b = truth.expects[0], truth.expects[1]
            if truth.winner == truth.loser or abs(a.value - b.value) <= a.tol + b.tol:
                bad.append(f"{q.id}: the two sides do not differ")
            win = [e.value for e in truth.expects if e.near == (truth.winner,)]
            lose = [e.value for e in truth.expects if e.near == (truth.loser,)]
            if not (len(win) == len(lose) == 1 and win[0] > lose[0]):
                bad.append(f"{q.id}: the side named higher does not hold the larger figure")
        if q.shape == "top N":
            values = [e.value for e in truth.expects]
            if not 3 <= len(values) <= 10 or len({e.near for e in truth.expects}) != len(values):
                bad.append(f"{q.id}: top N not N distinct subjects")
            if any(abs(x - y) <= 2 * e.tol for x, y, e in zip(values, values[1:], truth.expects)):
                bad.append(f"{q.id}: two ranks cannot be told apart")
            if values != sorted(values) and values != sorted(values, reverse=True):
                bad.append(f"{q.id}: top N not in order")
    assert not bad, bad


def test_an_answer_stating_the_truth_passes_and_one_off_by_a_step_fails(questions):
    """Each truth is scorable: written out it passes the eval's scorer; every number moved by a visible step fails."""
    not_passing = [q.id for q in questions if not passed(q.truth, _answer(q))]
    assert not not_passing
    wrong_passing = [q.id for q in questions if q.truth.expects and passed(q.truth, _answer(q, shift=3.0))]
    assert not wrong_passing


def test_the_other_reading_of_a_figure_passes_too(questions):
    """A share over every qubit/coupling (not only the measured ones), a population std, another quartile method,
    a rank correlation, the non-excluded count: each accepted."""
    with_other = [q for q in questions if any(e.alternatives for e in q.truth.expects)]
    assert len(with_other) >= 8
    assert [q.id for q in with_other if not passed(q.truth, _answer(q, alternative=True))] == []


def test_a_winner_put_below_the_loser_fails(questions):
    compared = [q for q in questions if q.truth.winner]
    assert len(compared) >= 6
    swapped = [q.id for q in compared if passed(q.truth, _answer(q).replace(" is higher than ", " is lower than "))]
    assert not swapped


def _wrong_subject(question) -> str:
    """The right numbers, but another task, run, qubit or coupling named, or one qubit of a list left out."""
    right = _answer(question)
    labels = [_label(p) for p in question.truth.patterns]
    if question.shape == "compound filter":
        return _answer(question, named=tuple(labels[:-1]))
    first = labels[0]
    other = ("Q00-Q99" if "-Q" in first else "Q99" if first.startswith("Q") else
             "20000101-001" if first[0].isdigit() else "CheckT1")
    assert other not in labels
    return right.replace(first, other)


def test_the_wrong_subject_fails(questions):
    named = [q for q in questions if q.truth.patterns]
    assert {q.shape for q in named} == {"fails most", "compound filter", "qubit pair"} and len(named) >= 10
    kept = [q.id for q in named if passed(q.truth, _wrong_subject(q))]
    assert not kept


def test_a_value_bound_to_the_wrong_qubit_fails(questions):
    """Top-N and pair values must sit beside their own qubit: the same figures with the subjects rotated fail."""
    bound = [q for q in questions if len({e.near for e in q.truth.expects if e.near}) >= 2]
    assert len(bound) >= 6
    rotated = []
    for q in bound:
        expects = q.truth.expects
        lines = [_sentence(Expect(e.value, e.tol, e.kind, near=expects[(k + 1) % len(expects)].near, unit=e.unit),
                           e.value) for k, e in enumerate(expects)]
        if passed(q.truth, "\n".join(lines)):
            rotated.append(q.id)
    assert not rotated


def test_a_correlation_with_the_wrong_sign_fails(questions):
    signed = [q for q in questions if q.shape == "correlation"]
    assert all(e.signed for q in signed for e in q.truth.expects)
    assert any(q.truth.expects[0].value < 0 for q in signed) and any(q.truth.expects[0].value > 0 for q in signed)
    flipped = [q.id for q in signed if passed(q.truth, _answer(q, shift=-2 * q.truth.expects[0].value))]
    assert not flipped


def test_a_value_for_something_that_does_not_exist_fails(questions):
    missing = [q for q in questions if q.shape == "missing thing"]
    assert [q.id for q in missing if not passed(q.truth, _answer(q))] == []
    invented = [q.id for q in missing if passed(q.truth, _answer(q) + "\nIts T1 is 45.2 μs.")]
    assert not invented


@pytest.mark.parametrize("name", ["t1", "t2_echo", "qubit_frequency", "average_readout_fidelity",
                                  "x90_gate_fidelity"])
@pytest.mark.parametrize("chip", [CHIP, OTHER])
@pytest.mark.parametrize("number", sorted(SETS))
def test_the_latest_value_rule_matches_the_dev_eval_s(demo_db, chip, name, number):
    ours = SETS[number].latest(demo_db, chip, name)
    theirs = {q: v for q, v in latest_values(demo_db, chip, name).items() if v is not None}
    assert ours.keys() == theirs.keys() and len(ours) > 0.9 * demo_db["qubit"].count_documents({"chip_id": chip})
    assert all(math.isclose(ours[q], theirs[q]) for q in ours)


@pytest.mark.parametrize(("kind", "name"), [("qubit", "t1"), ("qubit", "t2_star"), ("qubit", "anharmonicity"),
                                            ("qubit", "readout_frequency"), ("qubit", "average_readout_fidelity"),
                                            ("coupling", "zx90_gate_fidelity"), ("coupling", "zx90_gate_time"),
                                            ("coupling", "bell_state_fidelity")])
@pytest.mark.parametrize("chip", [CHIP, OTHER])
@pytest.mark.parametrize("number", sorted(SETS))
def test_the_latest_value_is_what_the_state_documents_hold(demo_db, chip, kind, name, number):
    """QDash merges the newest completed, non-excluded result into ``qubit.data``/``coupling.data`` (a NaN fit
    as 0): every usable merged value is the truth's latest value, and no id has a latest value without one."""
    merged = {d["qid"]: d["data"][name]["value"] for d in demo_db[kind].find({"chip_id": chip})
              if name in d.get("data", {}) and d["data"][name]["value"] != 0}
    ours = SETS[number].latest(demo_db, chip, name, kind)
    assert ours.keys() == merged.keys() and len(ours) > 50
    assert all(math.isclose(ours[q], merged[q] * SETS[number].scale(name)) for q in ours)
