"""Dev questions: which subject fails most (in wordings the ranking words of an answer do not give away), counts
compared across two chips over a window, two qubits' failure or calibration counts, and shares.

Wordings written for this file.  Truths are hand-written pymongo reads of the raw demo documents: a window is whole
UTC days ending with the day of the newest run (of either chip, when two are compared), a run is an execution that
is not only scheduled, a failure is a task result whose status is failed, and a share is failed over finished.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta

from tests.dev_shapes_a import PCT_TOL
from tests.eval_score import Expect, Truth
from tests.public_eval import CHIP, OTHER, Question, latest_values


def _window(db, chips: tuple[str, ...], days: int | None) -> dict:
    if days is None:
        return {}
    last = max(next(db["execution_history"].find({"chip_id": c}).sort([("start_at", -1)]).limit(1))["start_at"]
               for c in chips)
    end = datetime(last.year, last.month, last.day) + timedelta(days=1)
    return {"start_at": {"$gte": end - timedelta(days=days), "$lt": end}}


def failures_by(db, chip: str, key: str, days: int | None = None) -> list[tuple[str, int]]:
    """Failed task results per ``key`` ("name", "qid", "execution_id"; "coupling": per qid of a coupling only),
    most first."""
    docs = db["task_result_history"].find({"chip_id": chip, "status": "failed", **_window(db, (chip,), days)})
    if key == "coupling":
        return Counter(d["qid"] for d in docs if "-" in d["qid"]).most_common()
    return Counter(d[key] for d in docs).most_common()


def failure_rates(db, chip: str, key: str) -> list[tuple[str, float]]:
    """Failed over finished task results per ``key``, highest first."""
    done = Counter(d[key] for d in db["task_result_history"].find({"chip_id": chip,
                                                                   "status": {"$in": ["completed", "failed"]}}))
    failed = dict(failures_by(db, chip, key))
    return sorted(((k, failed.get(k, 0) / n) for k, n in done.items()), key=lambda kv: -kv[1])


def failed_on(db, chips: tuple[str, ...], chip: str, days: int | None) -> int:
    return db["task_result_history"].count_documents({"chip_id": chip, "status": "failed",
                                                      **_window(db, chips, days)})


def runs_on(db, chips: tuple[str, ...], chip: str, days: int | None, status: object = None) -> int:
    return db["execution_history"].count_documents({"chip_id": chip, "status": status or {"$ne": "scheduled"},
                                                    **_window(db, chips, days)})


def runs_of_qubit(db, chip: str, qid: str, days: int | None) -> int:
    held = {d["execution_id"] for d in db["task_result_history"].find({"chip_id": chip, "qid": qid})}
    return db["execution_history"].count_documents({"chip_id": chip, "status": {"$ne": "scheduled"},
                                                    "execution_id": {"$in": sorted(held)},
                                                    **_window(db, (chip,), days)})


def _label(name: str) -> str:
    if "-" in name and all(p.isdigit() and len(p) <= 4 for p in name.split("-")):  # a coupling: "Q23→Q26"
        a, b = name.split("-")
        return rf"Q0*{int(a)}\s*(?:→|->|-)\s*Q0*{int(b)}(?!\d)"
    return rf"Q0*{int(name)}(?!\d)" if name.isdigit() else name


def _fails_most(db, qid: str, text: str, chip: str, key: str, days: int | None = None) -> Question:
    counts = failures_by(db, chip, key, days)
    tops = [k for k, n in counts if n == counts[0][1]]
    return Question(qid, "fails most", text, Truth(((counts[0][1], 0),), patterns=tuple(_label(t) for t in tops)))


def _fails_rate(db, qid: str, text: str, chip: str, key: str) -> Question:
    """A rate question: the top by failed over finished results, with its failed count."""
    rates = failure_rates(db, chip, key)
    tops = [k for k, r in rates if r == rates[0][1]]
    return Question(qid, "fails most", text, Truth(((dict(failures_by(db, chip, key))[tops[0]], 0),),
                                                   patterns=tuple(_label(t) for t in tops)))


def _two(qid: str, shape: str, text: str, counts: dict[str, int]) -> Question:
    """Both counts; the one with more is the side a comparison puts higher (a "fewer" question too)."""
    (a, na), (b, nb) = sorted(counts.items(), key=lambda kv: kv[1], reverse=True)
    assert na != nb, "a dev comparison needs a winner"
    return Question(qid, shape, text, Truth(((na, 0), (nb, 0)), winner=_label(a), loser=_label(b)))


def _share(qid: str, text: str, part: int, whole: int) -> Question:
    return Question(qid, "percentage", text, Truth((Expect(100.0 * part / whole, PCT_TOL, unit="%"), (part, 0))))


def build(db) -> list[Question]:
    both = (CHIP, OTHER)
    rate_top = failure_rates(db, CHIP, "name")[0][0]
    assert rate_top == failures_by(db, CHIP, "name")[0][0], "a rate question needs the same top as its count"
    t1 = [v for v in latest_values(db, CHIP, "t1").values() if v is not None]
    echo = [v for v in latest_values(db, CHIP, "t2_echo").values() if v is not None]
    finished_week = db["task_result_history"].count_documents({"chip_id": OTHER, "status": {"$in": [
        "completed", "failed"]}, **_window(db, (OTHER,), 7)})
    return [
        _fails_most(db, "rank-task-1", "Which calibration task is the least reliable on this chip?", CHIP, "name"),
        _fails_most(db, "rank-task-2", "What task shows the poorest success rate?", CHIP, "name"),
        _fails_most(db, "rank-task-3", "Name the task that breaks down most frequently.", CHIP, "name"),
        _fails_most(db, "rank-task-4", "Across all runs, the most errors came from which task?", CHIP, "name"),
        _fails_most(db, "rank-task-5", "Over the last 7 days, which task was the most troublesome?", CHIP, "name", 7),
        _fails_rate(db, "rank-task-6", f"On {OTHER}, which task shows the poorest failure rate?", OTHER, "name"),
        _fails_most(db, "rank-qubit-1", "Which qubit is least reliable?", CHIP, "qid"),
        _fails_most(db, "rank-coupling-1", "Which coupling breaks down most often?", CHIP, "coupling"),
        _fails_most(db, "rank-run-1", "In which run did task failures pile up the most?", CHIP, "execution_id"),
        _two("rank-chips-1", "cross-chip", f"Did {CHIP} or {OTHER} log more failed tasks over the past 14 days?",
             {c: failed_on(db, both, c, 14) for c in both}),
        _two("rank-chips-2", "cross-chip", f"Over the last 10 days, which chip recorded more task failures: {OTHER} "
                                           f"or {CHIP}?", {c: failed_on(db, both, c, 10) for c in both}),
        _two("rank-chips-3", "cross-chip", f"Over the last 3 days, which had fewer failed tasks: {CHIP} or {OTHER}?",
             {c: failed_on(db, both, c, 3) for c in both}),
        _two("rank-chips-4", "cross-chip", f"Across {CHIP} and {OTHER}, which one saw more failures overall?",
             {c: failed_on(db, both, c, None) for c in both}),
        _two("rank-pair-1", "qubit pair", "How often did Q3 fail compared with Q48?",
             {q: dict(failures_by(db, CHIP, "qid")).get(q, 0) for q in ("3", "48")}),
        _two("rank-pair-2", "qubit pair", "Was Q12 or Q47 involved in more failed tasks?",
             {q: dict(failures_by(db, CHIP, "qid")).get(q, 0) for q in ("12", "47")}),
        _two("rank-pair-3", "qubit pair", "Did Q7 pile up more failures than Q12 over the last fortnight?",
             {q: dict(failures_by(db, CHIP, "qid", 14)).get(q, 0) for q in ("7", "12")}),
        _share("rank-share-1", "What percent of calibration runs failed in the last 30 days?",
               runs_on(db, (CHIP,), CHIP, 30, "failed"), runs_on(db, (CHIP,), CHIP, 30)),
        _share("rank-share-2", "What percentage of the executions ended in failure?",
               runs_on(db, (CHIP,), CHIP, None, "failed"), runs_on(db, (CHIP,), CHIP, None)),
        _share("rank-share-3", f"What share of task results failed on {OTHER} over the past week?",
               failed_on(db, (OTHER,), OTHER, 7), finished_week),
        _share("rank-share-4", "What fraction of the qubits sit below 50 μs in T1?", sum(v < 50 for v in t1), len(t1)),
        _share("rank-share-5", "What proportion of qubits have a T2 echo above 40 μs?",
               sum(v > 40 for v in echo), len(echo)),
    ]


def calibration_counts(db) -> list[tuple[str, dict[str, int], int]]:
    """Two qubits' calibration runs compared over a window: (question, runs per qubit, days); asked by
    ``tests/agent/test_fails_most.py`` (every demo run calibrates every qubit, so the counts tie)."""
    return [("Was Q4 or Q9 calibrated more often in the last week?", {q: runs_of_qubit(db, CHIP, q, 7)
                                                                       for q in ("4", "9")}, 7),
            ("How many times was Q10 calibrated versus Q20 over the past 30 days?",
             {q: runs_of_qubit(db, CHIP, q, 30) for q in ("10", "20")}, 30)]
