"""Dev questions for shapes the router had no call for: which run saw the most failures, coupling rankings, two
qubits (or a coupling) asked about together, a correlation's coefficient, two counts compared.

Every truth is a pymongo query written here on the raw demo documents, never a call of the code under test.  Windows
end at the chip's newest run's start (the data's "now"), as in ``tests/dev_shapes_b.py``.
"""

from __future__ import annotations

import re
from collections import Counter

from tests.dev_shapes_b import _days
from tests.eval_score import Truth
from tests.public_eval import CHIP, OTHER, Question, latest_values, scale, tol


def _run_failures(db, chip: str, days: int | None, weekday: int | None = None) -> tuple[str, int, str]:
    """The run with the most failed task results in the window: a pattern of its id (any of them on a tie), its
    count, and a pattern of the day it started."""
    failed = db["task_result_history"].find({"chip_id": chip, "status": "failed", **_days(db, chip, days, weekday)},
                                            {"execution_id": 1})
    counts = Counter(d["execution_id"] for d in failed)
    n = max(counts.values())
    top = sorted(run for run, count in counts.items() if count == n)
    days_of = [f"{db['execution_history'].find_one({'chip_id': chip, 'execution_id': r})['start_at']:%Y-%m-%d}"
               for r in top]
    return "|".join(map(re.escape, top)), n, "|".join(map(re.escape, days_of))


def _runs(db) -> list[Question]:
    out = []
    for i, (chip, days, weekday, text) in enumerate([
            (CHIP, 7, None, "Which run saw the most failures in the last 7 days?"),
            (CHIP, None, 0, "Which execution had the most failed tasks this week?"),
            (OTHER, 10, None, "On {chip}, which calibration run had the highest number of failures over the past "
                              "10 days?"),
            (CHIP, None, None, "which runs had the most errors?"),
            (CHIP, 3, None, "Over the last 3 days, what run logged the most failed tasks?")]):
        run, n, day = _run_failures(db, chip, days, weekday)
        out.append(Question(f"sr-run-{i + 1}", "fails most by run", text.format(chip=chip),
                            Truth(((n, 0),), patterns=(run, day))))
    return out


def _coupling(pair: str) -> str:
    """A coupling's label pattern, either direction: "Q04→Q05", "Q5-Q4"."""
    a, b = (int(n) for n in pair.split("-"))
    return "|".join(rf"Q0*{x}\s*(?:→|->|-|–)\s*Q0*{y}(?!\d)" for x, y in ((a, b), (b, a)))


def _couplings_of(db, chip: str, q: str, name: str) -> dict[str, float]:
    """The merged value of ``name`` of every coupling of qubit ``q`` (the direction that holds data)."""
    out = {}
    for doc in db["coupling"].find({"chip_id": chip}):
        value = ((doc.get("data") or {}).get(name) or {}).get("value")
        if q in doc["qid"].split("-") and isinstance(value, float) and value == value and value != 0:
            out[doc["qid"]] = value * scale(name)
    return out


def _coupling_ranks(db) -> list[Question]:
    out = []
    for i, (q, name, best, text) in enumerate([
            ("5", "zx90_gate_fidelity", True, "Which couplings around Q5 have the best ZX90 fidelity?"),
            ("12", "zx90_gate_fidelity", False, "Of the couplings of Q12, which one has the lowest ZX90 gate "
                                                "fidelity?"),
            ("20", "bell_state_fidelity", True, "Rank the pairs of qubit 20 by Bell state fidelity: which is "
                                                "strongest?"),
            ("9", "bell_state_fidelity", False, "worst bell fidelity among Q09's couplings?")]):
        values = _couplings_of(db, CHIP, q, name)
        pick = (max if best else min)(values, key=values.__getitem__)
        out.append(Question(f"sr-coupling-{i + 1}", "coupling ranking", text,
                            Truth(((values[pick], tol(name)),), patterns=(_coupling(pick),))))
    for i, (name, best, n, text) in enumerate([
            ("bell_state_fidelity", False, 1, "Which coupling on the chip has the worst Bell state fidelity?"),
            ("zx90_gate_fidelity", True, 3, "Top 3 couplings by ZX90 gate fidelity"),
            ("zx90_gate_fidelity", False, 2, "What are the two weakest couplings by zx90 fidelity?")]):
        values = {k: v for k, v in latest_values(db, CHIP, name, kind="coupling").items() if v is not None}
        picks = sorted(values, key=values.__getitem__, reverse=best)[:n]
        out.append(Question(f"sr-coupling-{i + 5}", "coupling ranking", text,
                            Truth(tuple((values[p], tol(name)) for p in picks),
                                  patterns=tuple(_coupling(p) for p in picks))))
    return out


def build(db) -> list[Question]:
    """The dev questions of these shapes, with their truths."""
    return _runs(db) + _coupling_ranks(db)
