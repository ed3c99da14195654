"""Dev questions for the fourteenth stop's failure-count classes: a count asked in one unit answered in another (failed
task results where runs holding a failure, runs whose status is failed, or one run's failures were asked), a share
asked and a count given, and a window left off a count across both chips.

Each question carries the router call it needs, written by hand.  Every truth is a pymongo read written here over the
raw ``execution_history`` and ``task_result_history`` documents of the demo (``demo_db``): a run "with a failure" is
an execution that started (status not "scheduled") in the window and whose id some result with status "failed"
holds; a "failed run" is an execution whose own status is "failed".  A window is whole UTC days ending with the
newest run's day (several chips: the newest day of any of them).  A share is written as a percentage to one decimal.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from tests.dev_fails8 import last_day
from tests.eval_score import Truth
from tests.public_eval import CHIP, OTHER, Question

Call = tuple[str, dict]
CHIPS = (CHIP, OTHER)
_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def first_day(db, chips: tuple[str, ...], days: int | None = None, weekday: str | None = None) -> date | None:
    """The window's first day, by hand from the newest run's day of any of ``chips``; None: every stored run."""
    end = max(last_day(db, c) for c in chips)
    if days is not None:
        return end - timedelta(days=days - 1)
    if weekday is not None:
        return end - timedelta(days=(end.weekday() - _DAYS.index(weekday)) % 7)
    return None


def _at(first: date | None) -> dict:
    return {} if first is None else {"start_at": {"$gte": datetime(first.year, first.month, first.day)}}


def runs(db, chip: str, first: date | None) -> int:
    return db["execution_history"].count_documents({"chip_id": chip, "status": {"$ne": "scheduled"}} | _at(first))


def failed_runs(db, chip: str, first: date | None) -> int:
    return db["execution_history"].count_documents({"chip_id": chip, "status": "failed"} | _at(first))


def runs_with_failures(db, chip: str, first: date | None) -> int:
    held = {d["execution_id"] for d in db["task_result_history"].find({"chip_id": chip, "status": "failed"},
                                                                       {"execution_id": 1})}
    started = db["execution_history"].find({"chip_id": chip, "status": {"$ne": "scheduled"}} | _at(first),
                                           {"execution_id": 1})
    return sum(1 for d in started if d["execution_id"] in held)


def failed_results(db, chip: str, first: date | None) -> int:
    return db["task_result_history"].count_documents({"chip_id": chip, "status": "failed"} | _at(first))


def finished_results(db, chip: str, first: date | None) -> int:
    return db["task_result_history"].count_documents({"chip_id": chip, "status": {"$in": ["completed", "failed"]}}
                                                     | _at(first))


def percent(part: int, whole: int) -> float:
    return round(100 * part / whole, 1) if whole else 0.0


_COUNT = {"runs with failures": runs_with_failures, "failed runs": failed_runs, "failed tasks": failed_results}
_WHOLE = {"runs with failures": runs, "failed runs": runs, "failed tasks": finished_results}


def _window(args: dict) -> dict:
    return {k: args[k] for k in ("days", "since_weekday") if k in args}


def one_chip(db, qid: str, text: str, chip: str, what: str, args: dict, share: bool = False,
             called: str | None = None) -> tuple[Question, Call]:
    """A count (or share) of ``what`` on one chip in the window ``args`` say; ``called``: the count the call makes
    when another states it too (every run's count states the share of failed runs)."""
    first = first_day(db, (chip,), args.get("days"), args.get("since_weekday"))
    n, whole = _COUNT[what](db, chip, first), _WHOLE[what](db, chip, first)
    numbers = ((percent(n, whole), 0.05),) if share else ((n, 0),)
    return Question(qid, "window count", text, Truth(numbers)), ("count_in_window", {"chip_id": chip, **args,
                                                                                     "what": called or what})


def both_chips(db, qid: str, text: str, what: str, args: dict) -> tuple[Question, Call]:
    """One count of ``what`` per chip in one window (the answer states each)."""
    first = first_day(db, CHIPS, args.get("days"), args.get("since_weekday"))
    numbers = tuple((_COUNT[what](db, c, first), 0) for c in CHIPS)
    return Question(qid, "window count", text, Truth(numbers)), \
        ("count_in_window", {"chip_id": CHIP, "what": what, "chip_ids": list(CHIPS), **args})


def _runs(db) -> list[tuple[Question, Call]]:
    c, o = CHIP, OTHER
    return [
        one_chip(db, "f14-runs-1", "How many runs had at least one failed task over the past fortnight?", c,
                 "runs with failures", {"days": 14}),
        one_chip(db, "f14-runs-2", "Since Monday, how many executions contained a failure?", c,
                 "runs with failures", {"since_weekday": "monday"}),
        one_chip(db, "f14-runs-3", "How many batches on 144Qv2 saw an error in the last 10 days?", o,
                 "runs with failures", {"days": 10}),
        one_chip(db, "f14-runs-4", "Number of jobs with a failed calibration during the last two weeks", c,
                 "runs with failures", {"days": 14}),
        one_chip(db, "f14-runs-5", "In how many runs did a task fail this week?", c, "runs with failures",
                 {"since_weekday": "monday"}),
        one_chip(db, "f14-runs-6", "How many runs failed at least one task in the past 5 days on 144Qv2?", o,
                 "runs with failures", {"days": 5}),
        one_chip(db, "f14-runs-7", "How many calibration runs failed in the last two weeks?", c, "failed runs",
                 {"days": 14}),
        one_chip(db, "f14-runs-8", "How many executions ended failed since Monday on 144Qv2?", o, "failed runs",
                 {"since_weekday": "monday"}),
        one_chip(db, "f14-runs-9", "Out of the runs in the last 7 days, how many had errors?", c,
                 "runs with failures", {"days": 7}),
        one_chip(db, "f14-runs-10", "How many failed task results were there over the past fortnight?", c,
                 "failed tasks", {"days": 14}),
    ]


def _shares(db) -> list[tuple[Question, Call]]:
    c, o = CHIP, OTHER
    return [
        one_chip(db, "f14-share-1", "What share of runs had a failed task in the last 14 days?", c,
                 "runs with failures", {"days": 14}, share=True),
        one_chip(db, "f14-share-2", "What percentage of task results failed this week?", c, "failed tasks",
                 {"since_weekday": "monday"}, share=True),
        one_chip(db, "f14-share-3", "What fraction of executions on 144Qv2 hit an error over the fortnight?", o,
                 "runs with failures", {"days": 14}, share=True),
        one_chip(db, "f14-share-4", "What proportion of calibration runs failed in the last 10 days?", c,
                 "failed runs", {"days": 10}, share=True, called="runs"),
        one_chip(db, "f14-share-5", "Failure rate of the task results on 144Qv2 since Monday?", o, "failed tasks",
                 {"since_weekday": "monday"}, share=True),
        one_chip(db, "f14-share-6", "One in how many runs had a failure in the past two weeks?", c,
                 "runs with failures", {"days": 14}, share=True),
    ]


def _chips(db) -> list[tuple[Question, Call]]:
    return [
        both_chips(db, "f14-chips-1", "Across both chips, how many tasks failed in the past fortnight?",
                   "failed tasks", {"days": 14}),
        both_chips(db, "f14-chips-2", "Fleet-wide, how many task failures this fortnight?", "failed tasks",
                   {"days": 14}),
        both_chips(db, "f14-chips-3", "How many runs with a failed task on both chips since Monday?",
                   "runs with failures", {"since_weekday": "monday"}),
        both_chips(db, "f14-chips-4", "How many calibration runs failed on each chip in the last two weeks?",
                   "failed runs", {"days": 14}),
        both_chips(db, "f14-chips-5", "How many task failures did each device have over the previous two weeks?",
                   "failed tasks", {"days": 14}),
        both_chips(db, "f14-chips-6", "How many jobs had failures in the past 10 days on every chip?",
                   "runs with failures", {"days": 10}),
        both_chips(db, "f14-chips-7", "Failed tasks on 64Qv3 and 144Qv2 since Monday?", "failed tasks",
                   {"since_weekday": "monday"}),
        both_chips(db, "f14-chips-8", "Per chip, how many executions contained an error this week?",
                   "runs with failures", {"since_weekday": "monday"}),
    ]


def _attacks(db) -> list[tuple[Question, Call]]:
    """Wordings written after the fix, to attack it."""
    c, o = CHIP, OTHER
    return [
        one_chip(db, "f14-att-1", "Over the last fortnight, how many of the runs were not clean?", c,
                 "runs with failures", {"days": 14}),
        one_chip(db, "f14-att-2", "How many executions were touched by a failure this week on 144Qv2?", o,
                 "runs with failures", {"since_weekday": "monday"}),
        one_chip(db, "f14-att-3", "Count the runs where something errored in the past 3 days", c,
                 "runs with failures", {"days": 3}),
        one_chip(db, "f14-att-4", "What percent of runs in the last fortnight included a failed step?", c,
                 "runs with failures", {"days": 14}, share=True),
        both_chips(db, "f14-att-5", "How many runs held a failure on either chip during the past 7 days?",
                   "runs with failures", {"days": 7}),
        both_chips(db, "f14-att-6", "Tally of failed tasks for all chips combined over the last 14 days",
                   "failed tasks", {"days": 14}),
        one_chip(db, "f14-att-7", "How many jobs that showed an error since Monday?", c, "runs with failures",
                 {"since_weekday": "monday"}),
        one_chip(db, "f14-att-8", "In the past 6 days, how many executions on 144Qv2 featured at least one error?",
                 o, "runs with failures", {"days": 6}),
    ]


def planned(db) -> list[tuple[Question, Call]]:
    """Every dev question with the router call it needs."""
    return [*_runs(db), *_shares(db), *_chips(db), *_attacks(db)]


def build(db) -> list[Question]:
    return [q for q, _ in planned(db)]
