"""Dev questions that ask which task, coupling, run or qubit fails most in wordings the eighth set's fixes did not
read: a failure word and a ranking word in any phrase ("which step breaks the most", "the biggest source of
failures", "more failed tasks than any other run", "tops the failure list", "most common failing qubit"), subjects
written as "coupler", "link", "connection", "two qubits ... together", and a qubit ranking narrowed to one run (its
id, on either chip whichever chip is in view, or "the latest run"), to one task, or to a vague window ("of late").

Each question carries the router call it needs, written by hand, for ``tests/test_router_fails9.py``.  Every truth is
a pymongo read written here over the raw ``task_result_history`` documents: a failure is a document with status
"failed" on the chip; a qubit's are those whose ``qid`` has no "-", a coupling's those with one; a run is an
``execution_id``, a task a ``name``; windows are whole days ending on the chip's newest ``execution_history`` start.
Ties: every subject at the top count is in the truth's patterns, with the one count.
"""

from __future__ import annotations

from collections import Counter
from datetime import date, datetime, timedelta

from tests.dev_fails7 import label
from tests.dev_fails8 import last_day
from tests.eval_score import Truth
from tests.public_eval import CHIP, OTHER, Question

Call = tuple[str, dict]
_KEY = {"task": "name", "run": "execution_id", "qubit": "qid", "coupling": "qid"}


def newest_run(db, chip: str) -> str:
    """The chip's newest execution, read from ``execution_history``."""
    return next(db["execution_history"].find({"chip_id": chip}).sort([("start_at", -1)]).limit(1))["execution_id"]


def failing_run(db, chip: str, skip: int = 0, couplings: bool = False) -> str:
    """A run of ``chip`` with failed qubit results (and failed coupling results too, with ``couplings``), the
    ``skip``-th oldest such run: the demo's run ids follow the day it is seeded, so a question names one the database
    holds, never a written id."""
    kinds: dict[str, set[bool]] = {}
    for d in db["task_result_history"].find({"chip_id": chip, "status": "failed"}):
        kinds.setdefault(d["execution_id"], set()).add("-" in d["qid"])
    return sorted(r for r, k in kinds.items() if False in k and (True in k or not couplings))[skip]


def failures(db, chip: str, by: str, first: date | None = None, run: str | None = None,
             task: str | None = None) -> Counter:
    """Failed results per task, run, qubit or coupling on ``chip``: from ``first`` on, of one run or one task."""
    query: dict = {"chip_id": chip, "status": "failed"}
    if first is not None:
        query["start_at"] = {"$gte": datetime(first.year, first.month, first.day)}
    if run is not None:
        query["execution_id"] = run
    if task is not None:
        query["name"] = task
    out: Counter = Counter()
    for doc in db["task_result_history"].find(query):
        key = doc[_KEY[by]]
        if by not in ("qubit", "coupling") or ("-" in key) == (by == "coupling"):
            out[key] += 1
    return out


def top(counts: Counter) -> tuple[list[str], int]:
    """Every subject tied at the highest count, and the count."""
    best = max(counts.values())
    return sorted(k for k, n in counts.items() if n == best), best


def _q(qid: str, text: str, counts: Counter, call: Call) -> tuple[Question, Call]:
    names, n = top(counts)
    return Question(qid, "fails most", text, Truth(((n, 0),), patterns=tuple(label(k) for k in names))), call


def _rank(chip: str, by: str, **extra: object) -> Call:
    return "failure_ranking", {"chip_id": chip, "by": by, **extra}


def _tasks(db) -> list[tuple[Question, Call]]:
    end, other_end = last_day(db, CHIP), last_day(db, OTHER)
    week = other_end - timedelta(days=other_end.weekday())
    return [
        _q("f9-task-1", "Which calibration step breaks the most?", failures(db, CHIP, "task"), _rank(CHIP, "task")),
        _q("f9-task-2", "Which routine errors out the most on 144Qv2?", failures(db, OTHER, "task"),
           _rank(OTHER, "task")),
        _q("f9-task-3", "Which task is the flakiest?", failures(db, CHIP, "task"), _rank(CHIP, "task")),
        _q("f9-task-4", "Top failing task on 144Qv2?", failures(db, OTHER, "task"), _rank(OTHER, "task")),
        _q("f9-task-5", "Which task had the greatest number of failures in the last 5 days?",
           failures(db, CHIP, "task", end - timedelta(days=4)), _rank(CHIP, "task", days=5)),
        _q("f9-task-6", "Which task tops the failure list on 144Qv2 this week?", failures(db, OTHER, "task", week),
           _rank(OTHER, "task", since_weekday="monday")),
        _q("f9-task-7", "What's the biggest source of failures on 64Qv3?", failures(db, CHIP, "task"),
           _rank(CHIP, "task")),
        _q("f9-task-8", "Which task failed more than any other in the last week on 144Qv2?",
           failures(db, OTHER, "task", other_end - timedelta(days=6)), _rank(OTHER, "task", days=7)),
        _q("f9-task-9", "What is the most common failure?", failures(db, CHIP, "task"), _rank(CHIP, "task")),
        _q("f9-task-10", "Which task has the top failure count in the last 10 days?",
           failures(db, CHIP, "task", end - timedelta(days=9)), _rank(CHIP, "task", days=10)),
        _q("f9-task-11", "Which task is the least dependable on 144Qv2?", failures(db, OTHER, "task"),
           _rank(OTHER, "task")),
    ]


def _couplings(db) -> list[tuple[Question, Call]]:
    end = last_day(db, OTHER)
    return [
        _q("f9-pair-1", "Which coupler fails most often?", failures(db, CHIP, "coupling"), _rank(CHIP, "coupling")),
        _q("f9-pair-2", "Which two-qubit link has the most failed tasks on 144Qv2?", failures(db, OTHER, "coupling"),
           _rank(OTHER, "coupling")),
        _q("f9-pair-3", "Which connection breaks the most on 144Qv2?", failures(db, OTHER, "coupling"),
           _rank(OTHER, "coupling")),
        _q("f9-pair-4", "Which two qubits fail together most?", failures(db, CHIP, "coupling"),
           _rank(CHIP, "coupling")),
        _q("f9-pair-5", "Which coupling has the greatest number of failed tasks on 144Qv2 in the last 10 days?",
           failures(db, OTHER, "coupling", end - timedelta(days=9)), _rank(OTHER, "coupling", days=10)),
        _q("f9-pair-6", "Most common failing pair on 144Qv2", failures(db, OTHER, "coupling"),
           _rank(OTHER, "coupling")),
    ]


def _runs(db) -> list[tuple[Question, Call]]:
    end, other_end = last_day(db, CHIP), last_day(db, OTHER)
    return [
        _q("f9-run-1", "Which execution was the worst in terms of failures on 144Qv2?", failures(db, OTHER, "run"),
           _rank(OTHER, "run")),
        _q("f9-run-2", "Which run failed more tasks than any other?", failures(db, CHIP, "run"), _rank(CHIP, "run")),
        _q("f9-run-3", "Which execution had more failures than any other this week on 144Qv2?",
           failures(db, OTHER, "run", other_end - timedelta(days=other_end.weekday())),
           _rank(OTHER, "run", since_weekday="monday")),
        _q("f9-run-4", "Which run was the worst for failures in the last 7 days?",
           failures(db, CHIP, "run", end - timedelta(days=6)), _rank(CHIP, "run", days=7)),
        _q("f9-run-5", "What calibration run produced the biggest number of failed tasks on 144Qv2?",
           failures(db, OTHER, "run"), _rank(OTHER, "run")),
        _q("f9-run-6", "Which execution id has the top failed-task count?", failures(db, CHIP, "run"),
           _rank(CHIP, "run")),
    ]


def _scoped(db) -> list[tuple[Question, Call]]:
    other_run, run, other_latest = failing_run(db, OTHER, 3), failing_run(db, CHIP, 5, couplings=True), newest_run(db, OTHER)
    end = last_day(db, CHIP)
    return [
        _q("f9-scope-1", f"Which qubit failed the most in execution {other_run}?",
           failures(db, OTHER, "qubit", run=other_run), _rank(CHIP, "qubit", execution_id=other_run)),
        _q("f9-scope-2", f"In run {run} on 64Qv3, which qubit had the most failed tasks?",
           failures(db, CHIP, "qubit", run=run), _rank(CHIP, "qubit", execution_id=run)),
        _q("f9-scope-3", "Which qubit failed most in the latest run?", failures(db, CHIP, "qubit",
                                                                              run=newest_run(db, CHIP)),
           _rank(CHIP, "qubit", execution_id="latest")),
        _q("f9-scope-4", "Which qubit had the most failures in the last execution on 144Qv2?",
           failures(db, OTHER, "qubit", run=other_latest), _rank(OTHER, "qubit", execution_id="latest")),
        _q("f9-scope-5", "Which task failed most in the most recent run on 144Qv2?",
           failures(db, OTHER, "task", run=other_latest), _rank(OTHER, "task", execution_id="latest")),
        _q("f9-scope-6", "Which qubit fails CheckT1 the most?", failures(db, CHIP, "qubit", task="CheckT1"),
           _rank(CHIP, "qubit", task_name="CheckT1")),
        _q("f9-scope-7", "Which qubit has the most CheckRamsey failures on 144Qv2?",
           failures(db, OTHER, "qubit", task="CheckRamsey"), _rank(OTHER, "qubit", task_name="CheckRamsey")),
        _q("f9-scope-8", "What qubit failed most often of late?", failures(db, CHIP, "qubit", end - timedelta(days=2)),
           _rank(CHIP, "qubit", days=3)),
        _q("f9-scope-9", "Most common failing qubit in the last 3 days on 144Qv2",
           failures(db, OTHER, "qubit", last_day(db, OTHER) - timedelta(days=2)), _rank(OTHER, "qubit", days=3)),
        _q("f9-scope-10", f"Which coupling failed most in run {run}?", failures(db, CHIP, "coupling", run=run),
           _rank(CHIP, "coupling", execution_id=run)),
    ]


def _attacks(db) -> list[tuple[Question, Call]]:
    """Written after the fix, to attack it: other failure verbs, subjects, run and window words."""
    end, other_end = last_day(db, CHIP), last_day(db, OTHER)
    other_run = failing_run(db, OTHER, 4)
    return [
        _q("f9-att-1", "Which calibration blew up the most times this week?",
           failures(db, CHIP, "task", end - timedelta(days=end.weekday())), _rank(CHIP, "task", since_weekday="monday")),
        _q("f9-att-2", "Which task has crashed most often on 144Qv2?", failures(db, OTHER, "task"), _rank(OTHER, "task")),
        _q("f9-att-3", "Which qubit pairing fails most?", failures(db, CHIP, "coupling"), _rank(CHIP, "coupling")),
        _q("f9-att-4", "Which qubit has been failing the most in recent days on 144Qv2?",
           failures(db, OTHER, "qubit", other_end - timedelta(days=2)), _rank(OTHER, "qubit", days=3)),
        _q("f9-att-5", "For the latest calibration run, which qubit failed most on 144Qv2?",
           failures(db, OTHER, "qubit", run=newest_run(db, OTHER)), _rank(OTHER, "qubit", execution_id="latest")),
        _q("f9-att-6", f"Within execution {other_run}, which qubit broke the most?",
           failures(db, OTHER, "qubit", run=other_run), _rank(CHIP, "qubit", execution_id=other_run)),
        _q("f9-att-7", "What was the worst run for failures this week?",
           failures(db, CHIP, "run", end - timedelta(days=end.weekday())), _rank(CHIP, "run", since_weekday="monday")),
        _q("f9-att-8", "Rank the tasks by failures on 144Qv2", failures(db, OTHER, "task"), _rank(OTHER, "task")),
    ]


def planned(db) -> list[tuple[Question, Call]]:
    """Every dev question with the router call it needs."""
    return [*_tasks(db), *_couplings(db), *_runs(db), *_scoped(db), *_attacks(db)]


def build(db) -> list[Question]:
    return [q for q, _ in planned(db)]
