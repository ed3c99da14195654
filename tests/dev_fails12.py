"""Dev questions for the twelfth stop's classes: the subject of "fails most" (run, execution, qubit, qid, coupler,
pair, task) kept in every wording ("piled highest", "racked up", "the biggest tally"), qubits the chip marks
inactive left out when asked; windows written as "between <Month> <Nth> and <Month> <Mth>", ISO ranges, numbers in
words ("the fourteen most recent days", "the previous seventy-two hours"), "over the weekend", "this morning"; counts
of one task written loosely ("T1 check", "ZX90 interleaved-benchmarking", "Ramsey check"); a named month's window.

Each question carries the router call it needs, written by hand.  Every truth is a pymongo read written here over the
raw ``execution_history``, ``task_result_history`` and ``qubit`` documents of the demo (``demo_db``); every date in a
question is made from the chip's newest run's day read here (the demo is seeded relative to now).  A window is whole
UTC days (see ``tests/dev_fails11.py``); "the weekend" is the latest Saturday on or before the newest run's day and
the Sunday after it; "this morning" the newest run's whole day.  An inactive qubit is a ``qubit`` document whose
``status`` is "inactive".
"""

from __future__ import annotations

from collections import Counter
from datetime import date, timedelta

from tests.dev_fails7 import label
from tests.dev_fails8 import last_day
from tests.dev_fails11 import Span, _start_at, count, failures, span
from tests.eval_score import Truth
from tests.public_eval import CHIP, OTHER, Question

Call = tuple[str, dict]


def _nth(day: date) -> str:
    suffix = "th" if 10 <= day.day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day.day % 10, "th")
    return f"{day:%B} {day.day}{suffix}"


def days_back(db, chip: str, first: int, last: int) -> Span:
    """The days ``first`` and ``last`` days before the chip's newest run's day."""
    end = last_day(db, chip)
    return end - timedelta(days=first), end - timedelta(days=last)


def weekend(db, chip: str) -> Span:
    end = last_day(db, chip)
    saturday = end - timedelta(days=(end.weekday() - 5) % 7)
    sunday = saturday + timedelta(days=1)
    return saturday, None if sunday >= end else sunday


def inactive(db, chip: str) -> set[str]:
    return {d["qid"] for d in db["qubit"].find({"chip_id": chip, "status": "inactive"})}


def task_failures(db, chip: str, name: str, window: Span | None) -> int:
    query = {"chip_id": chip, "status": "failed", "name": name}
    return db["task_result_history"].count_documents(query | ({"start_at": _start_at(window)} if window else {}))


def _top(counts: Counter) -> Truth:
    best = max(counts.values())
    return Truth(((best, 0),), patterns=tuple(label(str(k)) for k, n in counts.items() if n == best))


def _most(db, qid: str, text: str, chip: str, by: str, window: Span | None, args: dict,
          active: bool = False) -> tuple[Question, Call]:
    counts = failures(db, chip, by, window or (date(1970, 1, 1), None))
    if active:
        dead = inactive(db, chip)
        counts = Counter({k: n for k, n in counts.items() if k not in dead})
    extra = {"active_only": True} if active else {}
    return Question(qid, "fails most", text, _top(counts)), ("failure_ranking", {"chip_id": chip, "by": by,
                                                                                 **args, **extra})


def _count(db, qid: str, text: str, chip: str, what: str, window: Span, args: dict) -> tuple[Question, Call]:
    return Question(qid, "window count", text, Truth(((count(db, chip, what, window), 0),))), \
        ("count_in_window", {"chip_id": chip, **args, "what": what})


def _task(db, qid: str, text: str, chip: str, name: str, window: Span | None, args: dict) -> tuple[Question, Call]:
    n = task_failures(db, chip, name, window)
    return Question(qid, "window count", text, Truth(((n, 0),))), \
        ("count_in_window", {"chip_id": chip, **args, "task_name": name, "what": "failed tasks"})


def _subjects(db) -> list[tuple[Question, Call]]:
    c, o = CHIP, OTHER
    return [
        _most(db, "f12-sub-1", "Which execution had the most failures? Give its id and tally.", c, "run", None, {}),
        _most(db, "f12-sub-2", "Which single run piled up the most failed tasks?", c, "run", None, {}),
        _most(db, "f12-sub-3", "worst qubit by # failed tasks, qid + count", c, "qubit", None, {}),
        _most(db, "f12-sub-4", "Which qubit racked up the most failures, skip the inactive ones?", c, "qubit", None,
              {}, active=True),
        _most(db, "f12-sub-5", "Which qubit has the biggest tally of failures on 144Qv2 if we ignore dead qubits?",
              o, "qubit", None, {}, active=True),
        _most(db, "f12-sub-6", "Which coupler piled highest in failed tasks?", c, "coupling", None, {}),
        _most(db, "f12-sub-7", "Which pair of qubits racked up the most failures on 144Qv2?", o, "coupling", None,
              {}),
        _most(db, "f12-sub-8", "Name the run with the biggest tally of failed tasks on 144Qv2.", o, "run", None, {}),
        _most(db, "f12-sub-9", "qid with the most failures, not counting disabled qubits", c, "qubit", None, {},
              active=True),
        _most(db, "f12-sub-10", "Which task piled up the most failures?", c, "task", None, {}),
        _most(db, "f12-sub-11", "Which individual execution had the highest failure count in the last 7 days?", c,
              "run", span(db, c, days=7), {"days": 7}),
    ]


def _windows(db) -> list[tuple[Question, Call]]:
    c, o = CHIP, OTHER
    a, b = days_back(db, c, 9, 4)
    i1, i2 = days_back(db, o, 12, 2)
    return [
        _most(db, "f12-win-1", f"Which run racked up the most failures between {_nth(a)} and {_nth(b)}, both days "
              "included?", c, "run", (a, b), {"from_date": f"{a:%m-%d}", "to_date": f"{b:%m-%d}"}),
        _most(db, "f12-win-2", "Which task failed most in the fourteen most recent days?", c, "task",
              span(db, c, days=14), {"days": 14}),
        _most(db, "f12-win-3", "Which qubit failed most across the last ten days?", c, "qubit", span(db, c, days=10),
              {"days": 10}),
        _count(db, "f12-win-4", "How many tasks failed in the previous seventy-two hours?", c, "failed tasks",
               span(db, c, days=3), {"days": 3}),
        _count(db, "f12-win-5", "How many failed tasks in the past 48 hours on 144Qv2?", o, "failed tasks",
               span(db, o, days=2), {"days": 2}),
        _count(db, "f12-win-6", f"How many failed tasks {i1:%Y-%m-%d} to {i2:%Y-%m-%d} on 144Qv2?", o,
               "failed tasks", (i1, i2), {"from_date": f"{i1:%Y-%m-%d}", "to_date": f"{i2:%Y-%m-%d}"}),
        _count(db, "f12-win-7", "How many failed tasks over the weekend?", c, "failed tasks", weekend(db, c),
               {"from_date": "saturday", "to_date": "sunday"}),
        _count(db, "f12-win-8", "How many runs this morning?", c, "runs", span(db, c, days=1), {"days": 1}),
        _most(db, "f12-win-9", "Which coupling failed most in the previous twenty-one days?", c, "coupling",
              span(db, c, days=21), {"days": 21}),
        _count(db, "f12-win-10", "How many runs in the last fifteen days on 144Qv2?", o, "runs",
               span(db, o, days=15), {"days": 15}),
    ]


def _tasks(db) -> list[tuple[Question, Call]]:
    c, o = CHIP, OTHER
    return [
        _task(db, "f12-task-1", "How many CheckT1 tasks failed in the last 7 days?", c, "CheckT1",
              span(db, c, days=7), {"days": 7}),
        _task(db, "f12-task-2", "tally failed ZX90 interleaved-benchmarking tasks this week", c,
              "ZX90InterleavedRandomizedBenchmarking", span(db, c, weekday="monday"), {"since_weekday": "monday"}),
        _task(db, "f12-task-3", "tally failed T1 check tasks in the last 10 days", c, "CheckT1", span(db, c, days=10),
              {"days": 10}),
        _task(db, "f12-task-4", "How many Ramsey check tasks failed?", c, "CheckRamsey", None, {}),
        _task(db, "f12-task-5", "How many qubit spectroscopy tasks failed on 144Qv2 in the past fortnight?", o,
              "CheckQubitSpectroscopy", span(db, o, days=14), {"days": 14}),
        _task(db, "f12-task-6", "Number of failed Bell state tomography tasks this week", c,
              "CheckBellStateTomography", span(db, c, weekday="monday"), {"since_weekday": "monday"}),
    ]


def month_question(db) -> tuple[Question, Call]:
    """A month named (the newest run's): its own first and last days."""
    end = last_day(db, CHIP)
    first = end.replace(day=1)
    final = (first + timedelta(days=32)).replace(day=1) - timedelta(days=1)
    q, _ = _count(db, "f12-month-1", f"How many failed tasks in {end:%B}?", CHIP, "failed tasks",
                  (first, None if final >= end else final), {})
    return q, ("count_in_window", {"chip_id": CHIP, "from_date": f"{first:%m-%d}", "to_date": f"{final:%m-%d}",
                                   "what": "failed tasks"})


def _attacks(db) -> list[tuple[Question, Call]]:
    """Written after the fix, to attack it: other wordings of each class."""
    c, o = CHIP, OTHER
    i1, i2 = days_back(db, c, 8, 3)
    return [
        _most(db, "f12-att-1", "Which run piled highest in failures over the past ninety-six hours?", c, "run",
              span(db, c, days=4), {"days": 4}),
        _most(db, "f12-att-2", "Leaving out the inactive ones, which qubit failed the most over the last fortnight?",
              c, "qubit", span(db, c, days=14), {"days": 14}, active=True),
        _task(db, "f12-att-3", "How many T2 echo checks failed in the last twelve days?", c, "CheckT2Echo",
              span(db, c, days=12), {"days": 12}),
        _most(db, "f12-att-4", f"Which execution had the largest number of failures from {i1:%Y-%m-%d} to "
              f"{i2:%Y-%m-%d}?", c, "run", (i1, i2), {"from_date": f"{i1:%Y-%m-%d}", "to_date": f"{i2:%Y-%m-%d}"}),
        _task(db, "f12-att-5", "How many failed X90 IRB tasks on 144Qv2 in the last thirty days?", o,
              "X90InterleavedRandomizedBenchmarking", span(db, o, days=30), {"days": 30}),
        _most(db, "f12-att-6", "Which qubit on 144Qv2 racked up the most failed tasks, only the active qubits?", o,
              "qubit", None, {}, active=True),
        _most(db, "f12-att-7", "Which one run had the biggest tally of failures in the last eleven days?", c, "run",
              span(db, c, days=11), {"days": 11}),
        _most(db, "f12-att-8", "Which execution id saw the most qubits fail on 144Qv2?", o, "run", None, {}),
        _most(db, "f12-att-9", "Which run had the most failing qubit results?", c, "run", None, {}),
        month_question(db),
    ]


def planned(db) -> list[tuple[Question, Call]]:
    """Every dev question with the router call it needs."""
    return [*_subjects(db), *_windows(db), *_tasks(db), *_attacks(db)]


def build(db) -> list[Question]:
    return [q for q, _ in planned(db)]
