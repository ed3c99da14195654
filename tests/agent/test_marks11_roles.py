"""The fail-closed rule of the claim check, per role: a number that matches SOME value of the turn is checked only
when its role (a latest value, a mean, a maximum, a gap, a count), its subject (which qubit) and its metric are the
ones the words give it.  Hand-written right and wrong sentences over one real call (two qubits' T1 side by side and
their history over a window), the values written here from hand-written pymongo reads (``tests/dev_pairs10``)."""

from __future__ import annotations

import pytest

from copilot_core.checking.claims import check_claims
from copilot_core.tools import DataStore, Toolkit
from tests.dev_pairs10 import history, latest
from tests.public_eval import CHIP

A, B = 5, 9


@pytest.fixture(scope="module")
def turn(repo, demo_db):
    kit = Toolkit(repo, store=DataStore())
    kit.begin_request(CHIP)
    pair = kit.execute("compare_qubits", {"chip_id": CHIP, "qids": [str(A), str(B)], "param_names": ["t1"]})
    assert pair.ok, pair.error
    va, vb = latest(demo_db, CHIP, A, "t1"), latest(demo_db, CHIP, B, "t1")
    assert va is not None and vb is not None and abs(va - vb) > 1
    return [pair], va, vb


def _verdicts(said: str, outcomes) -> set[str]:
    return {c.verdict for c in check_claims(said, outcomes, question=f"Compare T1 of Q{A} and Q{B}").claims}


def test_each_side_said_of_its_own_qubit_passes(turn):
    outcomes, va, vb = turn
    assert _verdicts(f"Q{A:02d} has a T1 of {va:.1f} μs and Q{B:02d} has {vb:.1f} μs.", outcomes) == {"ok"}


@pytest.mark.parametrize("how", ["subject", "metric", "gap as a value", "mean"])
def test_a_number_with_another_role_subject_or_metric_is_wrong(how, turn):
    outcomes, va, vb = turn
    gap = abs(va - vb)
    said = {"subject": f"Q{B:02d} has a T1 of {va:.1f} μs.",
            "metric": f"Q{A:02d} has a T2 echo of {va:.1f} μs.",
            "gap as a value": f"Q{A:02d} has a T1 of {gap:.1f} μs.",
            "mean": f"The mean T1 of Q{A:02d} over its history is {va:.1f} μs."}[how]
    assert "wrong" in _verdicts(said, outcomes) or "unbacked" in _verdicts(said, outcomes), said


def test_a_history_statistic_said_of_a_latest_value_is_wrong(repo, demo_db):
    """Two qubits' mean over 7 days computed: their latest values said as the mean are not that role."""
    kit = Toolkit(repo, store=DataStore())
    kit.begin_request(CHIP)
    out = kit.execute("get_chip_parameter_timeseries", {"chip_id": CHIP, "parameter_name": "t1", "qids": [str(A), str(B)],
                                                       "days": 7})
    assert out.ok, out.error
    values = history(demo_db, CHIP, A, "t1", 7)
    mean = sum(values) / len(values)
    assert f"Q{A:02d} mean {mean:.1f} μs" in (out.full or {}).get("answer", "")  # the tool's own figure
    va = latest(demo_db, CHIP, A, "t1")
    assert va is not None and abs(va - mean) > 0.1
    wrong = f"Over the last 7 days the mean T1 of Q{A:02d} was {va:.1f} μs."
    assert "wrong" in _verdicts(wrong, [out]) or "unbacked" in _verdicts(wrong, [out]), wrong
