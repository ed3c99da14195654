"""Dev questions for shapes the router had no call for: which run saw the most failures, coupling rankings, two
qubits (or a coupling) asked about together, a correlation's coefficient, two counts compared.

Every truth is a pymongo query written here on the raw demo documents, never a call of the code under test.  Windows
end at the chip's newest run's start (the data's "now"), as in ``tests/dev_shapes_b.py``.
"""

from __future__ import annotations

import re
from collections import Counter

from tests.dev_shapes_a import _correlation
from tests.dev_shapes_b import _days
from tests.eval_score import Truth
from tests.public_eval import CHIP, OTHER, Question, latest_values, merged, scale, tol


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
            (CHIP, None, 0, "Which execution had the highest count of failed tasks this week?"),
            (OTHER, 10, None, "On {chip}, which calibration run had the highest number of failures over the past "
                              "10 days?"),
            (CHIP, None, None, "which runs had the most errors?"),
            (CHIP, 3, None, "Over the last 3 days, what run logged the largest failure count?")]):
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
            ("5", "zx90_gate_fidelity", True, "Around Q5, which coupling is strongest on ZX90 fidelity?"),
            ("12", "zx90_gate_fidelity", False, "Of the couplings of Q12, where is the ZX90 gate "
                                                "fidelity lowest?"),
            ("20", "bell_state_fidelity", True, "Rank the pairs of qubit 20 on Bell state fidelity: which is "
                                                "strongest?"),
            ("9", "bell_state_fidelity", False, "worst bell fidelity among Q09's couplings?")]):
        values = _couplings_of(db, CHIP, q, name)
        pick = (max if best else min)(values, key=values.__getitem__)
        out.append(Question(f"sr-coupling-{i + 1}", "coupling ranking", text,
                            Truth(((values[pick], tol(name)),), patterns=(_coupling(pick),))))
    for i, (name, best, n, text) in enumerate([
            ("bell_state_fidelity", False, 1, "Which coupling on the chip has the worst Bell state fidelity?"),
            ("zx90_gate_fidelity", True, 3, "Top 3 couplings by ZX90 gate fidelity"),
            ("zx90_gate_fidelity", False, 2, "What are the two weakest couplings by zx90 fidelity?"),
            ("zx90_gate_fidelity", True, 1, "Which coupling on the chip reaches the best two-qubit gate fidelity?")]):
        values = {k: v for k, v in latest_values(db, CHIP, name, kind="coupling").items() if v is not None}
        picks = sorted(values, key=values.__getitem__, reverse=best)[:n]
        out.append(Question(f"sr-coupling-{i + 5}", "coupling ranking", text,
                            Truth(tuple((values[p], tol(name)) for p in picks),
                                  patterns=tuple(_coupling(p) for p in picks))))
    return out


def _qubit(q: str) -> str:
    return rf"Q0*{int(q)}(?!\d)"


def _pairs(db) -> list[Question]:
    """Two qubits asked about together (both values, the right one ahead), or the coupling of two qubits (its own
    value, never one qubit's)."""
    out = []
    for i, (a, b, name, text) in enumerate([
            ("13", "17", "t1", "What are the T1 values of Q13 and Q17?"),
            ("10", "11", "t2_echo", "How do Q10 and Q11 differ in T2 echo?"),
            ("22", "23", "average_readout_fidelity", "Which of Q22 and Q23 has the higher readout fidelity?"),
            ("30", "33", "x90_gate_fidelity", "Do Q30 and Q33 have similar X90 gate fidelity?")]):
        va, vb = (merged(db, CHIP, q, name)["value"] * scale(name) for q in (a, b))
        win, lose = (a, b) if va > vb else (b, a)
        out.append(Question(f"sr-pair-{i + 1}", "qubit pair", text,
                            Truth(((va, tol(name)), (vb, tol(name))), winner=_qubit(win), loser=_qubit(lose))))
    for i, (a, b, name, text) in enumerate([
            ("4", "5", "zx90_gate_fidelity", "What's the ZX90 fidelity of the coupling between Q4 and Q5?"),
            ("20", "21", "bell_state_fidelity", "Bell state fidelity between Q20 and Q21?"),
            ("12", "14", "zx90_gate_fidelity", "Is the coupling between Q12 and Q14 good?"),
            ("8", "9", "bell_state_fidelity", "Show me the parameters of coupling Q8-Q9.")]):
        values = _couplings_of(db, CHIP, a, name)
        pair = next(k for k in values if set(k.split("-")) == {a, b})
        out.append(Question(f"sr-pair-{i + 5}", "qubit pair", text,
                            Truth(((values[pair], tol(name)),), patterns=(_coupling(pair),))))
    return out


def _correlations(db) -> list[Question]:
    """A relation between two metrics, asked without the word "correlation": the coefficient is the answer."""
    return [_correlation(db, f"sr-corr-{i + 1}", text, a, b) for i, (text, a, b) in enumerate([
        ("Does T1 relate to T2 echo on this chip?", "t1", "t2_echo"),
        ("Could T1 and readout fidelity be related on this chip?", "t1", "average_readout_fidelity"),
        ("Are X90 gate fidelity and T1 linked across the qubits?", "x90_gate_fidelity", "t1"),
        ("Is T2 echo related to readout fidelity?", "t2_echo", "average_readout_fidelity")])]


def _failed_of(db, chip: str, qid: str, days: int | None, weekday: int | None = None) -> int:
    return db["task_result_history"].count_documents({"chip_id": chip, "qid": qid, "status": "failed",
                                                      **_days(db, chip, days, weekday)})


def _counts_compared(db) -> list[Question]:
    """Two qubits' failures compared: both counts, the qubit with more ahead."""
    out = []
    for i, (a, b, days, weekday, text) in enumerate([
            ("5", "9", None, 0, "Did Q5 or Q9 fail more tasks this week?"),
            ("3", "12", 7, None, "Which failed more often in the last 7 days, Q3 or Q12?"),
            ("10", "11", 10, None, "Compare the failed task counts of Q10 and Q11 over the past 10 days."),
            ("2", "6", 30, None, "Did qubit 2 have more failures than qubit 6 in the last 30 days?"),
            ("1", "4", None, None, "How many tasks failed on Q1 and on Q4?")]):
        na, nb = _failed_of(db, CHIP, a, days, weekday), _failed_of(db, CHIP, b, days, weekday)
        win, lose = (a, b) if na > nb else (b, a)
        out.append(Question(f"sr-count-{i + 1}", "counts compared", text,
                            Truth(((na, 0), (nb, 0)), winner=_qubit(win) if na != nb else None,
                                  loser=_qubit(lose) if na != nb else None)))
    return out


def build(db) -> list[Question]:
    """The dev questions of these shapes, with their truths."""
    return _runs(db) + _coupling_ranks(db) + _pairs(db) + _correlations(db) + _counts_compared(db)
