"""Dev questions for the fifteenth stop's failure-count classes: a count or share of failures in one unit (failed
task results, runs holding a failed result, runs whose status is failed, distinct qubits or tasks) over a window of
any written form (a day counted back, "last <weekday>", the weekend, hours, a date written out, an ISO range), on
both chips; "which task fails most" within one run (the newest, the one before it, one named by id or by its day);
and one figure per chip.

Each question carries the router call it needs, written by hand.  Every truth is a pymongo read written here over the
raw ``execution_history`` and ``task_result_history`` documents of the demo (``demo_db``).  A window is whole UTC days,
both ends included, counted from the day of the chip's newest run (several chips: the newest day of any); "the last
48 hours" is the 2 whole days the demo's runs (all before noon, "now" at noon) fall in either way.  A run "with a
failure" is an execution that started (status not "scheduled") in the window and whose id a failed result holds; a
"failed run" is an execution whose own status is "failed".  A share is a percentage to one decimal.  The demo's
dates move with the clock, so dates and run ids in the wordings are read from the data here.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import date, datetime, timedelta

from tests.dev_fails8 import last_day
from tests.eval_score import Truth
from tests.public_eval import CHIP, OTHER, Question

Call = tuple[str, dict]
CHIPS = (CHIP, OTHER)
Span = tuple[date, date]  # first and last day, both included
_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def end(db, chips: tuple[str, ...] = CHIPS) -> date:
    return max(last_day(db, c) for c in chips)


def _at(span: Span) -> dict:
    first, last = span
    return {"start_at": {"$gte": datetime(first.year, first.month, first.day),
                         "$lt": datetime(last.year, last.month, last.day) + timedelta(days=1)}}


def failed_results(db, chip: str, span: Span) -> int:
    return db["task_result_history"].count_documents({"chip_id": chip, "status": "failed"} | _at(span))


def finished_results(db, chip: str, span: Span) -> int:
    return db["task_result_history"].count_documents({"chip_id": chip, "status": {"$in": ["completed", "failed"]}}
                                                     | _at(span))


def runs(db, chip: str, span: Span) -> int:
    return db["execution_history"].count_documents({"chip_id": chip, "status": {"$ne": "scheduled"}} | _at(span))


def failed_runs(db, chip: str, span: Span) -> int:
    return db["execution_history"].count_documents({"chip_id": chip, "status": "failed"} | _at(span))


def runs_with_failures(db, chip: str, span: Span) -> int:
    held = {d["execution_id"] for d in db["task_result_history"].find({"chip_id": chip, "status": "failed"},
                                                                       {"execution_id": 1})}
    started = db["execution_history"].find({"chip_id": chip, "status": {"$ne": "scheduled"}} | _at(span),
                                           {"execution_id": 1})
    return sum(1 for d in started if d["execution_id"] in held)


def failed_qubits(db, chip: str, span: Span) -> int:
    docs = db["task_result_history"].find({"chip_id": chip, "status": "failed"} | _at(span), {"qid": 1})
    return len({d["qid"] for d in docs if isinstance(d.get("qid"), str) and "-" not in d["qid"]})


def failed_task_names(db, chip: str, span: Span) -> int:
    docs = db["task_result_history"].find({"chip_id": chip, "status": "failed"} | _at(span), {"name": 1})
    return len({d["name"] for d in docs})


def percent(part: int, whole: int) -> float:
    return round(100 * part / whole, 1) if whole else 0.0


_COUNT = {"runs with failures": runs_with_failures, "failed runs": failed_runs, "failed tasks": failed_results}
_WHOLE = {"runs with failures": runs, "failed runs": runs, "failed tasks": finished_results}


def newest_runs(db, chip: str, n: int) -> list[dict]:
    """The chip's ``n`` newest runs, newest first (by start)."""
    return list(db["execution_history"].find({"chip_id": chip}).sort([("start_at", -1)]).limit(n))


def _ago(db, back: int, chips: tuple[str, ...] = CHIPS) -> date:
    return end(db, chips) - timedelta(days=back)


def _latest_weekday(db, weekday: str, chips: tuple[str, ...]) -> date:
    e = end(db, chips)
    return e - timedelta(days=(e.weekday() - _DAYS.index(weekday)) % 7)


def one_chip(qid: str, text: str, db, chip: str, what: str, span: Span, args: dict, share: bool = False,
             called: str | None = None) -> tuple[Question, Call]:
    """A count (or share) of ``what`` on one chip over ``span``; ``args``: the window the call writes."""
    n, whole = _COUNT[what](db, chip, span), _WHOLE[what](db, chip, span)
    numbers = ((percent(n, whole), 0.05),) if share else ((n, 0),)
    return Question(qid, "window count", text, Truth(numbers)), \
        ("count_in_window", {"chip_id": chip, **args, "what": called or what})


def per_chip(qid: str, text: str, db, what: str, span: Span, args: dict, total: bool = False,
             share: bool = False) -> tuple[Question, Call]:
    """One count (or share) of ``what`` per chip over one window, and their sum when ``total``."""
    counts = [_COUNT[what](db, c, span) for c in CHIPS]
    wholes = [_WHOLE[what](db, c, span) for c in CHIPS]
    numbers = tuple((percent(n, w), 0.05) for n, w in zip(counts, wholes)) if share else \
        tuple((n, 0) for n in counts) + (((sum(counts), 0),) if total else ())
    return Question(qid, "window count", text, Truth(numbers)), \
        ("count_in_window", {"chip_id": CHIP, "what": what, "chip_ids": list(CHIPS), **args})


def distinct(qid: str, text: str, db, chip: str, by: str, span: Span, args: dict) -> tuple[Question, Call]:
    """How many distinct qubits (tasks) had a failure: the failure ranking's count of subjects."""
    n = (failed_qubits if by == "qubit" else failed_task_names)(db, chip, span)
    return Question(qid, "window count", text, Truth(((n, 0),))), \
        ("failure_ranking", {"chip_id": chip, "by": by, **args})


def run_top(qid: str, text: str, db, chip: str, run: str, args: dict) -> tuple[Question, Call]:
    """Which task failed most within one run (``run``: its execution id): the top tasks by name and their count."""
    names = Counter(d["name"] for d in db["task_result_history"].find(
        {"chip_id": chip, "execution_id": run, "status": "failed"}, {"name": 1}))
    top = max(names.values())
    tied = sorted(n for n, k in names.items() if k == top)
    return Question(qid, "fails most", text, Truth(((top, 0),), tuple(re.escape(n) for n in tied))), \
        ("failure_ranking", {"by": "task", **args})


def _md(day: date) -> str:
    return f"{day:%m-%d}"


def _units(db) -> list[tuple[Question, Call]]:
    c, o = CHIP, OTHER
    two, three = _ago(db, 2, (c,)), _ago(db, 3, (c,))
    tue = _latest_weekday(db, "tuesday", (o,))
    sat, sun = _latest_weekday(db, "saturday", (c,)), _latest_weekday(db, "sunday", (c,))
    e_c, e_o = end(db, (c,)), end(db, (o,))
    since = e_o - timedelta(days=6)
    on = e_o - timedelta(days=4)
    first, last = e_c - timedelta(days=10), e_c - timedelta(days=5)
    odd = e_c - timedelta(days=4)
    wd = _DAYS[odd.weekday()]
    return [
        one_chip("f15-unit-1", "What fraction of runs had a failed task the day before yesterday?", db, c,
                 "runs with failures", (two, two), {"from_date": "-2", "to_date": "-2"}, share=True),
        one_chip("f15-unit-2", "How many task results failed last Tuesday on 144Qv2?", db, o, "failed tasks",
                 (tue, tue), {"from_date": "tuesday", "to_date": "tuesday"}),
        one_chip("f15-unit-3", "Over the weekend, how many executions included an error?", db, c,
                 "runs with failures", (sat, sun), {"from_date": "saturday", "to_date": "sunday"}),
        one_chip("f15-unit-4", "In the last 48 hours, what share of task results failed on 144Qv2?", db, o,
                 "failed tasks", (e_o - timedelta(days=1), e_o), {"days": 2}, share=True),
        one_chip("f15-unit-5", f"One in how many executions had an error since {since:%b} {since.day} on 144Qv2?",
                 db, o, "runs with failures", (since, e_o), {"from_date": _md(since)}, share=True),
        one_chip("f15-unit-6", f"What is the ratio of failed task results to all task results on {on:%Y-%m-%d} "
                 "for 144Qv2?", db, o, "failed tasks", (on, on),
                 {"from_date": f"{on:%Y-%m-%d}", "to_date": f"{on:%Y-%m-%d}"}, share=True),
        one_chip("f15-unit-7", f"How many runs ended in failure last {wd.title()}?", db, c, "failed runs",
                 (odd, odd), {"from_date": wd, "to_date": wd}),
        one_chip("f15-unit-8", "What share of runs had errors in the last 48 hours on 144Qv2?", db, o,
                 "runs with failures", (e_o - timedelta(days=1), e_o), {"days": 2}, share=True),
        one_chip("f15-unit-9", f"How many failed task results between {first:%Y-%m-%d} and {last:%Y-%m-%d}?", db, c,
                 "failed tasks", (first, last), {"from_date": f"{first:%Y-%m-%d}", "to_date": f"{last:%Y-%m-%d}"}),
        one_chip("f15-unit-10", f"What proportion of task results failed from {first:%b} {first.day} to "
                 f"{last:%b} {last.day} on 144Qv2?", db, o, "failed tasks", (first, last),
                 {"from_date": _md(first), "to_date": _md(last)}, share=True),
        one_chip("f15-unit-11", "How many runs with at least one failure were there 3 days ago?", db, c,
                 "runs with failures", (three, three), {"from_date": "-3", "to_date": "-3"}),
        one_chip("f15-unit-12", "In the past 36 hours, how many tasks failed on 144Qv2?", db, o, "failed tasks",
                 (e_o - timedelta(days=1), e_o), {"days": 2}),
        distinct("f15-unit-13", "How many distinct qubits had a failure the day before yesterday?", db, c, "qubit",
                 (two, two), {"from_date": "-2", "to_date": "-2"}),
        distinct("f15-unit-14", f"How many different tasks failed since {since:%b} {since.day} on 144Qv2?", db, o,
                 "task", (since, e_o), {"from_date": _md(since)}),
    ]


def _runs(db) -> list[tuple[Question, Call]]:
    c, o = CHIP, OTHER
    newest_c, newest_o = newest_runs(db, c, 3), newest_runs(db, o, 4)
    named = newest_o[3]["execution_id"]
    return [
        run_top("f15-run-1", "Which task fails most in the newest run?", db, c, newest_c[0]["execution_id"],
                {"chip_id": c, "execution_id": "latest"}),
        run_top("f15-run-2", f"Which task failed the most in run {named}?", db, o, named,
                {"chip_id": c, "execution_id": named}),
        run_top("f15-run-3", "What task fails most in the last execution on 144Qv2?", db, o,
                newest_o[0]["execution_id"], {"chip_id": o, "execution_id": "latest"}),
        run_top("f15-run-4", "Which task failed most during yesterday's run?", db, c, newest_c[1]["execution_id"],
                {"chip_id": c, "day": "yesterday"}),
        run_top("f15-run-5", "Which task had the most failures in the previous run?", db, c,
                newest_c[1]["execution_id"], {"chip_id": c, "execution_id": "previous"}),
        run_top("f15-run-6", "On 144Qv2, in the run before the latest one, which task failed most often?", db, o,
                newest_o[1]["execution_id"], {"chip_id": o, "execution_id": "previous"}),
        run_top("f15-run-7", "In today's run, which task failed the most?", db, c, newest_c[0]["execution_id"],
                {"chip_id": c, "execution_id": "latest"}),
    ]


def _chips(db) -> list[tuple[Question, Call]]:
    e = end(db)
    since = e - timedelta(days=5)
    on = e - timedelta(days=4)
    sat, sun = _latest_weekday(db, "saturday", CHIPS), _latest_weekday(db, "sunday", CHIPS)
    return [
        per_chip("f15-chips-1", f"How many failed tasks on each chip since {since:%b} {since.day}, and in total?", db,
                 "failed tasks", (since, e), {"from_date": _md(since)}, total=True),
        per_chip("f15-chips-2", f"Per chip, how many runs had a failure on {on:%Y-%m-%d}?", db, "runs with failures",
                 (on, on), {"from_date": f"{on:%Y-%m-%d}", "to_date": f"{on:%Y-%m-%d}"}),
        per_chip("f15-chips-3", "What share of task results failed on each chip over the weekend?", db,
                 "failed tasks", (sat, sun), {"from_date": "saturday", "to_date": "sunday"}, share=True),
    ]


def _attacks(db) -> list[tuple[Question, Call]]:
    """Wordings written after the fix, to attack it."""
    c, o = CHIP, OTHER
    two, four = _ago(db, 2, (o,)), _ago(db, 4, (c,))
    newest_c, newest_o = newest_runs(db, c, 2), newest_runs(db, o, 2)
    e = end(db)
    return [
        one_chip("f15-att-1", "On 144Qv2, how many executions saw a failed step the day before yesterday?", db, o,
                 "runs with failures", (two, two), {"from_date": "-2", "to_date": "-2"}),
        one_chip("f15-att-2", "Failed task results four days ago?", db, c, "failed tasks", (four, four),
                 {"from_date": "-4", "to_date": "-4"}),
        run_top("f15-att-3", "Which calibration task broke most often in the penultimate run on 144Qv2?", db, o,
                newest_o[1]["execution_id"], {"chip_id": o, "execution_id": "previous"}),
        run_top("f15-att-4", "Within the second most recent execution, what task had the most errors?", db, c,
                newest_c[1]["execution_id"], {"chip_id": c, "execution_id": "previous"}),
        run_top("f15-att-5", "This morning's run: which task tripped up the most?", db, c,
                newest_c[0]["execution_id"], {"chip_id": c, "execution_id": "latest"}),
        run_top("f15-att-6", "During the latest calibration on 144Qv2, which task failed the most?", db, o,
                newest_o[0]["execution_id"], {"chip_id": o, "execution_id": "latest"}),
        per_chip("f15-att-7", "For each chip, how many executions had an error 2 days ago?", db,
                 "runs with failures", (e - timedelta(days=2), e - timedelta(days=2)),
                 {"from_date": "-2", "to_date": "-2"}),
        one_chip("f15-att-8", "What percentage of runs contained a failure the day before yesterday on 144Qv2?", db,
                 o, "runs with failures", (two, two), {"from_date": "-2", "to_date": "-2"}, share=True),
    ]


def planned(db) -> list[tuple[Question, Call]]:
    """Every dev question with the router call it needs."""
    return [*_units(db), *_runs(db), *_chips(db), *_attacks(db)]


def build(db) -> list[Question]:
    return [q for q, _ in planned(db)]
