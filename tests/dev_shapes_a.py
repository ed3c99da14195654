"""Dev questions for four chip-wide shapes: compound filter, percentage, spread, correlation.

Truths are hand-written pymongo reads of the raw demo documents (``public_eval.latest_values``: the newest completed,
non-excluded result per qubit, NaN and QDash's 0 as no value), with the statistics written out here; nothing calls
the tools.  "With a value" is the denominator: the qubits (or couplings) a metric has a usable latest value for.
"""

from __future__ import annotations

import math
import statistics
from datetime import datetime, timedelta

from tests.eval_score import Expect, Truth
from tests.public_eval import CHIP, OTHER, Question, latest_values, tol

PCT_TOL = 0.051  # a share shown at one decimal
R_TOL = 0.0051  # a coefficient shown at two decimals


def _present(db, name: str, kind: str = "qubit") -> dict[str, float]:
    return {q: v for q, v in latest_values(db, CHIP, name, kind).items() if v is not None}


def _label(qid: str) -> str:
    return rf"Q0*{int(qid)}(?!\d)"


def _compound(db, qid: str, text: str, conds: list[tuple[str, str, float]], join: str) -> Question:
    vals = {name: _present(db, name) for name, _, _ in conds}
    ids = set().union(*vals.values())

    def meets(q: str, name: str, side: str, limit: float) -> bool | None:
        v = vals[name].get(q)
        return None if v is None else (v < limit if side == "below" else v > limit)

    verdicts = {q: [meets(q, *c) for c in conds] for q in ids}
    if join == "and":
        matched = [q for q, v in verdicts.items() if None not in v and all(v)]
    else:
        matched = [q for q, v in verdicts.items() if any(x for x in v)]
    listed = (_label(min(matched, key=int)),) if text.startswith(("Which", "List")) else ()  # "how many": a count
    return Question(qid, "compound filter", text, Truth(((len(matched), 0),), listed))


def _share(db, qid: str, text: str, name: str, side: str, limit: float, kind: str = "qubit") -> Question:
    vals = _present(db, name, kind)
    n = sum(1 for v in vals.values() if (v < limit if side == "below" else v > limit))
    return Question(qid, "percentage", text,
                    Truth((Expect(100.0 * n / len(vals), PCT_TOL, unit="%"), (n, 0))))


def _failure_share(db, qid: str, text: str, chip: str, task: str | None = None, days: int | None = None) -> Question:
    """Failed over finished (completed or failed) task results, in whole UTC days ending with the newest run's day."""
    query: dict = {"chip_id": chip}
    if task is not None:
        query["name"] = task
    if days is not None:
        last = next(db["execution_history"].find({"chip_id": chip}).sort([("start_at", -1)]).limit(1))["start_at"]
        end = datetime(last.year, last.month, last.day) + timedelta(days=1)
        query["start_at"] = {"$gte": end - timedelta(days=days), "$lt": end}
    failed = db["task_result_history"].count_documents(query | {"status": "failed"})
    finished = db["task_result_history"].count_documents(query | {"status": {"$in": ["completed", "failed"]}})
    return Question(qid, "percentage", text,
                    Truth((Expect(100.0 * failed / finished, PCT_TOL, unit="%"), (failed, 0))))


def _quartiles(xs: list[float]) -> tuple[float, float]:
    q1, _, q3 = statistics.quantiles(xs, n=4, method="inclusive")
    return q1, q3


def _spread(db, qid: str, text: str, name: str, stat: str) -> Question:
    xs = list(_present(db, name).values())
    q1, q3 = _quartiles(xs)
    value = {"std": statistics.stdev(xs), "range": max(xs) - min(xs), "iqr": q3 - q1,
             "cv": 100.0 * statistics.stdev(xs) / statistics.mean(xs)}[stat]
    word = {"std": "standard deviation", "range": "range", "iqr": "IQR|interquartile", "cv": "coefficient"}[stat]
    return Question(qid, "spread", text,
                    Truth((Expect(value, PCT_TOL if stat == "cv" else tol(name), near=(word,)),)))


def _ranks(xs: list[float]) -> list[float]:
    order = sorted(xs)
    return [order.index(x) + 1 + (order.count(x) - 1) / 2 for x in xs]


def _correlation(db, qid: str, text: str, a: str, b: str, spearman: bool = False) -> Question:
    va, vb = _present(db, a), _present(db, b)
    both = sorted(set(va) & set(vb))
    xs, ys = [va[q] for q in both], [vb[q] for q in both]
    r = statistics.correlation(_ranks(xs), _ranks(ys)) if spearman else statistics.correlation(xs, ys)
    assert math.isfinite(r)
    return Question(qid, "correlation", text,
                    Truth((Expect(r, R_TOL, signed=True), (len(both), 0))))


def build(db) -> list[Question]:
    """Four shapes, at least four questions each, two or more wordings per shape."""
    return [
        _compound(db, "cf-0", "How many qubits have T1 above 55 μs and T2 echo above 45 μs?",
                  [("t1", "above", 55.0), ("t2_echo", "above", 45.0)], "and"),
        _compound(db, "cf-1", "Which qubits combine readout fidelity below 97% with X90 gate fidelity above 99.7%?",
                  [("average_readout_fidelity", "below", 97.0), ("x90_gate_fidelity", "above", 99.7)], "and"),
        _compound(db, "cf-2", "How many qubits have either T1 below 40 μs or T2 echo below 35 μs?",
                  [("t1", "below", 40.0), ("t2_echo", "below", 35.0)], "or"),
        _compound(db, "cf-3", "List qubits with X90 gate fidelity over 99.8% and T1 over 70 μs.",
                  [("x90_gate_fidelity", "above", 99.8), ("t1", "above", 70.0)], "and"),
        _share(db, "pc-0", "What percent of qubits have T1 under 45 μs?", "t1", "below", 45.0),
        _share(db, "pc-1", "What fraction of the qubits on 64Qv3 have T2 echo above 60 μs?", "t2_echo", "above",
               60.0),
        _share(db, "pc-2", "Which share of couplings has ZX90 gate fidelity above 98.5%?", "zx90_gate_fidelity",
               "above", 98.5, "coupling"),
        _share(db, "pc-3", "What proportion of qubits have X90 gate fidelity below 99.8%?", "x90_gate_fidelity",
               "below", 99.8),
        _share(db, "pc-4", "Out of all the qubits, how many have T2 echo below 40 μs?", "t2_echo", "below", 40.0),
        _share(db, "pc-5", "In percentage terms, how many qubits reach a T1 over 70 μs?", "t1", "above", 70.0),
        _failure_share(db, "pc-6", "What percent of task results failed in the last 10 days?", CHIP, days=10),
        _failure_share(db, "pc-7", f"What share of CheckRamsey runs failed on {OTHER}?", OTHER, task="CheckRamsey"),
        _failure_share(db, "pc-8", "Failure ratio of CheckT1 over the past 2 weeks?", CHIP, task="CheckT1", days=14),
        _spread(db, "sp-0", "How spread out is T1 on 64Qv3?", "t1", "std"),
        _spread(db, "sp-1", "What is the interquartile range of T2 echo across the chip?", "t2_echo", "iqr"),
        _spread(db, "sp-2", "How much does X90 gate fidelity vary from qubit to qubit?", "x90_gate_fidelity", "std"),
        _spread(db, "sp-3", "What's the range of readout fidelity on this chip?", "average_readout_fidelity",
                "range"),
        _spread(db, "sp-4", "Give me the coefficient of variation of T1.", "t1", "cv"),
        _correlation(db, "co-0", "Is T1 correlated with T2 echo across the qubits?", "t1", "t2_echo"),
        _correlation(db, "co-1", "What is the Spearman correlation between T1 and T2 echo on 64Qv3?", "t1", "t2_echo",
                     spearman=True),
        _correlation(db, "co-2", "Do X90 gate fidelity and readout fidelity track each other?", "x90_gate_fidelity",
                     "average_readout_fidelity"),
        _correlation(db, "co-3", "How strongly does T2 echo relate to T1 on this chip?", "t2_echo", "t1"),
    ]
