"""Each value of a clause naming two qubits belongs to its own qubit: the nearest named before it when the clause
names the qubits first, the nearest after it when it writes the values first.  Values are pymongo reads."""

from __future__ import annotations

import pytest

from copilot_core.checking.claims import check_claims
from copilot_core.tools import DataStore, Toolkit
from tests.public_eval import CHIP, latest_values


def _two(demo_db) -> tuple[str, str, str, str]:
    values = latest_values(demo_db, CHIP, "t1")
    a, b = [q for q in sorted(values, key=int) if values[q] is not None and int(q) >= 10][:2]
    return a, b, f"{values[a]:.2f}", f"{values[b]:.2f}"


@pytest.fixture
def outcome(repo, demo_db):
    a, b, _, _ = _two(demo_db)
    done = Toolkit(repo, store=DataStore()).execute("compare_qubits", {"chip_id": CHIP, "qids": [a, b],
                                                                       "param_names": ["t1"]})
    assert done.ok, done.error
    return done


@pytest.mark.parametrize("form", ["Q{a} has a T1 of {x} μs and Q{b} {y} μs.",
                                  "Q{a} has a T1 of {x} μs, while Q{b} has {y} μs.",
                                  "T1: {x} μs for Q{a} and {y} μs for Q{b}."])
def test_each_value_is_held_to_its_own_qubit(form, outcome, demo_db):
    a, b, va, vb = _two(demo_db)
    right = form.format(a=a, b=b, x=va, y=vb)
    swapped = form.format(a=a, b=b, x=vb, y=va)
    judged = {c.written: c.verdict for c in check_claims(right, [outcome], question=f"T1 of Q{a} and Q{b}?").claims}
    assert judged.get(va) == judged.get(vb) == "ok", (right, judged)
    judged = {c.written: c.verdict for c in check_claims(swapped, [outcome], question=f"T1 of Q{a} and Q{b}?").claims}
    assert judged.get(va) == judged.get(vb) == "wrong", (swapped, judged)
