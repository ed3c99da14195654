"""compare_calibrations for "how did Q12's T1 change between the last two runs?" and "which qubits' X90 fidelity
dropped?": the named qubits' values on both sides and the fell/rose lists, against pymongo on the raw demo documents
(``tests/public_eval.two_runs``: the two newest executions, each qubit's newest usable completed, non-excluded
result in each)."""

from __future__ import annotations

import json

import pytest

from copilot_core.tools import DataStore, Toolkit
from tests.public_eval import CHIP, OTHER, two_runs


@pytest.fixture
def kit(repo):
    toolkit = Toolkit(repo, store=DataStore())
    toolkit.begin_request()
    return toolkit


def _run(kit, args):
    outcome = kit.execute("compare_calibrations", args)
    assert outcome.ok, outcome.error
    return json.loads(outcome.model_text), outcome


def test_named_qubits_get_their_previous_and_latest_values(kit, demo_db):
    before, after = two_runs(demo_db, CHIP, "t1")
    both = sorted((q for q in before if q in after), key=int)[:3]
    seen, outcome = _run(kit, {"chip_id": CHIP, "metrics": ["t1"], "qids": both})
    rows = {r["qid"]: r for r in outcome.full["qubits"]}
    assert set(rows) == set(both)
    for q in both:
        assert rows[q]["before"] == pytest.approx(before[q], rel=1e-3)  # compact numbers for the model
        assert rows[q]["latest"] == pytest.approx(after[q], rel=1e-3)
        assert f"previous run {before[q]:.1f} μs, latest run {after[q]:.1f} μs" in seen["answer"]


def test_a_qubit_without_a_value_on_one_side_says_so(kit, demo_db):
    before, after = two_runs(demo_db, CHIP, "t1")
    gone = sorted(set(before) ^ set(after), key=int)
    if not gone:
        pytest.fail("the demo data has no qubit measured in only one of the last two runs")
    seen, _ = _run(kit, {"chip_id": CHIP, "metrics": ["t1"], "qids": [gone[0]]})
    assert "no value" in seen["answer"] and "—" in seen["answer"]


@pytest.mark.parametrize("chip, name", [(CHIP, "x90_gate_fidelity"), (OTHER, "t2_echo")])
def test_one_metric_lists_which_qubits_fell_and_rose(kit, demo_db, chip, name):
    before, after = two_runs(demo_db, chip, name)
    change = {q: after[q] - before[q] for q in before if q in after}
    fell = sorted((q for q, d in change.items() if d < 0), key=lambda q: change[q])
    rose = sorted((q for q, d in change.items() if d > 0), key=lambda q: -change[q])
    seen, outcome = _run(kit, {"chip_id": chip, "metrics": [name]})
    moves = outcome.full["moves"]
    assert moves["compared"] == len(change) and len(moves["fell"]) == len(fell) and len(moves["rose"]) == len(rose)
    assert f"fell on {len(fell)} of the {len(change)} compared" in seen["answer"]
    assert f"rose on {len(rose)}" in seen["answer"]
    assert moves["fell"][0].lstrip("Q0") == fell[0].lstrip("0") and moves["rose"][0].lstrip("Q0") == rose[0].lstrip("0")


def test_a_qubit_the_chip_does_not_have_is_a_clear_error(kit):
    outcome = kit.execute("compare_calibrations", {"chip_id": CHIP, "qids": ["640"]})
    assert not outcome.ok and "does not exist" in outcome.error and "Q00..Q63" in json.loads(outcome.model_text)["hint"]
