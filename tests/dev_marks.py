"""Dev questions about rankings of named subjects (the task, run, coupling, qubit or chip at an end) and questions in
unusual wordings a model tends to ask back about (a share, two qubits side by side).

Wordings written for this file.  Truths are pymongo reads of the raw demo documents (through the helpers of
``tests/public_eval.py`` and ``tests/dev_shapes_b.py``), never a call of the code under test.  :func:`build` holds
the ones the router answers (in the public eval); :func:`asks`, :func:`runs` and :func:`couplings` are asked by
``tests/agent/test_ranking_marks.py`` and ``tests/agent/test_unclassified_asks.py`` only.
"""

from __future__ import annotations

import statistics
from collections import Counter

from tests.dev_shapes_a import _share
from tests.dev_shapes_b import _failed_since, _label
from tests.eval_score import Truth
from tests.public_eval import CHIP, OTHER, Question, latest_values, tol


def failure_counts(db, chip: str, key: str) -> list[tuple[str, int]]:
    """Failed task results of ``chip`` per ``key`` ("name", "execution_id", "qid"), most first."""
    return Counter(d[key] for d in _failed_since(db, chip, None)).most_common()


def _top(counts: list[tuple[str, int]]) -> tuple[str, int]:
    (top, n), (_, second) = counts[0], counts[1]
    assert n > second, "a dev ranking question needs one subject at the top"
    return top, n


def build(db) -> list[Question]:
    """The ranking questions the router's calls answer: a task and a chip at an end."""
    task, n = _top(failure_counts(db, CHIP, "name"))
    a = statistics.median(v for v in latest_values(db, CHIP, "t1").values() if v is not None)
    b = statistics.median(v for v in latest_values(db, OTHER, "t1").values() if v is not None)
    win, lose = (CHIP, OTHER) if a > b else (OTHER, CHIP)
    return [
        Question("marks-task-1", "fails most", f"Which task's failures are highest on {CHIP}?",
                 Truth(((n, 0),), patterns=(task,))),
        Question("marks-chip-1", "cross-chip", f"Of {CHIP} and {OTHER}, which one holds the higher median T1?",
                 Truth(((a, tol("t1")), (b, tol("t1"))), winner=win, loser=lose)),
    ]


def asks(db) -> list[Question]:
    """A share and two qubits side by side, worded so the parse finds no known shape."""
    t1 = latest_values(db, CHIP, "t1")
    va, vb = t1["12"], t1["25"]
    assert va is not None and vb is not None and va != vb
    win, lose = ("12", "25") if va > vb else ("25", "12")
    return [
        _share(db, "marks-pc-1", "What portion of the qubits clear 80 μs in T1?", "t1", "above", 80.0),
        Question("marks-pair-1", "qubit pair", "Line Q12 up against Q25 on T1.",
                 Truth(((va, tol("t1")), (vb, tol("t1"))), winner=_label(win, 0), loser=_label(lose, 0))),
    ]


def runs(db) -> tuple[str, str, int]:
    """The run with the most failed task results on the chip in view: (question, execution id, count)."""
    run, n = _top(failure_counts(db, CHIP, "execution_id"))
    return "Which execution saw the largest number of failed tasks?", run, n


def couplings(db, qubit: str = "5") -> list[tuple[str, float]]:
    """The couplings of ``qubit`` with their latest ZX90 fidelity (in %), best first."""
    values = latest_values(db, CHIP, "zx90_gate_fidelity", "coupling")
    mine = [(c, v) for c, v in values.items() if v is not None and qubit in c.split("-")]
    return sorted(mine, key=lambda cv: cv[1], reverse=True)
