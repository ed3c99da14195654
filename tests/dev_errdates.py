"""Dev questions for windows written as dates (whole UTC days, both ends included: "between 3 and 9 November",
"since Nov 3, 2026", "2026-11-01 to 2026-11-10", "in October 2026", "on Tuesday") and for limits written as
inclusive ("at least", "no more than", "≥").

The dates are written from the data (its newest run's day), so the questions hold whatever day the demo ends on.
Every truth is a pymongo query written here on the raw demo documents, never a call of the code under test.
"""

from __future__ import annotations

from collections import Counter
from datetime import date, datetime, timedelta

from tests.eval_score import Truth
from tests.public_eval import CHIP, OTHER, Question, latest_values

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _newest(db, chip: str) -> date:
    doc = next(db["execution_history"].find({"chip_id": chip}).sort([("start_at", -1)]).limit(1))
    return doc["start_at"].date()


def _between(first: date | None, last: date | None) -> dict:
    """``start_at`` on the whole UTC days ``first`` through ``last`` (either end open)."""
    span: dict = {}
    if first is not None:
        span["$gte"] = datetime(first.year, first.month, first.day)
    if last is not None:
        span["$lt"] = datetime(last.year, last.month, last.day) + timedelta(days=1)
    return {"start_at": span} if span else {}


def _runs(db, chip: str, first: date | None, last: date | None) -> int:
    return db["execution_history"].count_documents({"chip_id": chip, "status": {"$ne": "scheduled"},
                                                    **_between(first, last)})


def _failed(db, chip: str, first: date | None, last: date | None, task: str | None = None) -> list[dict]:
    query = {"chip_id": chip, "status": "failed", **_between(first, last)}
    if task is not None:
        query["name"] = task
    return list(db["task_result_history"].find(query))


def _results(db, chip: str, task: str, first: date, last: date) -> int:
    return db["task_result_history"].count_documents({"chip_id": chip, "name": task,
                                                      "status": {"$in": ["completed", "failed"]},
                                                      **_between(first, last)})


def _t1_measurements(db, chip: str, qid: str, first: date, last: date) -> int:
    docs = db["task_result_history"].find({"chip_id": chip, "qid": qid, "status": "completed",
                                           "excluded": {"$ne": True}, "output_parameters.t1": {"$exists": True},
                                           **_between(first, last)})
    return sum(1 for d in docs if d["output_parameters"]["t1"]["value"] not in (0, None)
               and d["output_parameters"]["t1"]["value"] == d["output_parameters"]["t1"]["value"])


def _long(day: date) -> str:
    return f"{day.day} {day:%B %Y}"  # "3 November 2026"


def _us(day: date) -> str:
    return f"{day:%b} {day.day}, {day.year}"  # "Nov 3, 2026"


def _windows(db) -> list[Question]:
    end = _newest(db, CHIP)
    a, b = end - timedelta(days=9), end - timedelta(days=3)
    tue = end - timedelta(days=(end.weekday() - 1) % 7)  # the latest Tuesday on or before the newest run's day
    month_start = end.replace(day=1)
    before_month = month_start - timedelta(days=1)
    qs = [
        ("ed-1", "window count", f"How many calibration runs happened between {_long(a)} and {_long(b)}?",
         _runs(db, CHIP, a, b)),
        ("ed-2", "window count", f"Count the failed tasks from {a.isoformat()} to {b.isoformat()}.",
         len(_failed(db, CHIP, a, b))),
        ("ed-3", "window count", f"Since {_us(b)}, what number of tasks ended in failure?", len(_failed(db, CHIP, b, None))),
        ("ed-4", "window count", f"Number of runs in {end:%B %Y}?", _runs(db, CHIP, month_start, end)),
        ("ed-5", "window count", f"How many executions were there in {before_month:%B %Y}?",
         _runs(db, CHIP, before_month.replace(day=1), before_month)),
        ("ed-6", "window count", f"How many CheckT1 results were recorded on {b.day} {b:%b}?",
         _results(db, CHIP, "CheckT1", b, b)),
        ("ed-7", "window count", "How many calibration runs were there on Tuesday?", _runs(db, CHIP, tue, tue)),
        ("ed-8", "window count", f"What number of T1 readings did Q05 get from {a:%b} {a.day} to "
                                 f"{b:%b} {b.day}?", _t1_measurements(db, CHIP, "5", a, b)),
        ("ed-9", "window count", f"Tally the failed tasks on {OTHER} since {a.isoformat()}.",
         len(_failed(db, OTHER, a, None))),
        ("ed-10", "window count", f"How many runs took place between {a:%d.%m.%Y} and {b:%d.%m.%Y}?",
         _runs(db, CHIP, a, b)),
        ("ed-11", "window count", f"How many tasks failed before {_long(a)}?",
         len(_failed(db, CHIP, None, a - timedelta(days=1)))),
        ("ed-12", "window count", f"How many calibration runs ran after {b.day} {b:%B}?",
         _runs(db, CHIP, b + timedelta(days=1), None)),
        ("ed-13", "window count", f"What is the count of failed CheckRamsey tasks during {end:%B %Y}?",
         len(_failed(db, CHIP, month_start, end, "CheckRamsey"))),
    ]
    late = next(end - timedelta(days=back) for back in range(3, 25)  # six days of one month inside the data
                if (end - timedelta(days=back + 5)).month == (end - timedelta(days=back)).month)
    early = late - timedelta(days=5)
    qs.append(("ed-15", "window count", f"Between {early.day} and {_long(late)}, how many runs were recorded?",
               _runs(db, CHIP, early, late)))
    out = [Question(i, shape, text, Truth(((n, 0),))) for i, shape, text, n in qs]
    failed_tue = Counter(d["name"] for d in _failed(db, CHIP, tue, tue))
    if failed_tue:
        top, n = failed_tue.most_common(1)[0]
        out.append(Question("ed-14", "fails most", "Which task failed most often on Tuesday?",
                            Truth(((n, 0),), any_words=(top.lower(),))))
    return out


def _at_limit(db, name: str, side: str) -> tuple[float, int]:
    """A limit at a value one qubit has exactly (as written to two decimals when that is exact), and how many
    qubits are on its side of it, the qubit at the limit counted."""
    values = sorted(v for v in latest_values(db, CHIP, name).values() if v is not None)
    limit = values[len(values) // 2]
    count = sum(1 for v in values if (v >= limit if side == "above" else v <= limit))
    return limit, count


def _limits(db) -> list[Question]:
    """Inclusive limits: a qubit exactly at the limit counts ("at least", "no more than", "≥", "<=")."""
    out = []
    for i, (name, side, text) in enumerate([
            ("t1", "above", "T1 at least {v} μs: on how many qubits does that hold?"),
            ("t1", "below", "How many qubits have a T1 of no more than {v} us?"),
            ("t2_echo", "above", "T2 echo ≥ {v} μs: on how many qubits is that so?"),
            ("t2_echo", "below", "How many qubits have T2 echo <= {v} μs?")]):
        limit, n = _at_limit(db, name, side)
        out.append(Question(f"ed-limit-{i + 1}", "limit inclusive", text.format(v=repr(limit)), Truth(((n, 0),))))
    return out


def build(db) -> list[Question]:
    return _windows(db) + _limits(db)
