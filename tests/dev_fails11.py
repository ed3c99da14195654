"""Dev questions for the eleventh stop's classes: "which task/qubit/coupling/run fails most" over a calendar window
written in any form ("since Tuesday", "in November", "between the 20th and the 25th", "over the last fortnight", "in
the past 72 hours", "yesterday", "this month", "last week", "since last Friday", "since the start of the month"), and
counts over such a window of runs, failed runs, failed (or coupling, or qubit) task results, excluded results and
notes, on both demo chips.

Each question carries the router call it needs, written by hand.  Every truth is a pymongo read written here over the
raw ``execution_history``, ``task_result_history`` and ``calibration_note`` documents of the demo (``demo_db``):
a window is whole UTC days from 00:00 of its first day to 00:00 after its last, with no upper bound when it ends on
(or after) the day of the chip's newest ``execution_history`` start; "last N days" (or weeks, hours rounded up) is
that day and the N-1 before it, "since <weekday>" from the latest such weekday on or before it, "yesterday" the day
before it alone, "this month" from its month's 1st.  A failure is a result with status "failed"; a qubit's results
are those whose ``qid`` holds no "-", a coupling's those with one; a run is an ``execution_id``, a task a ``name``;
a run counted is one whose status is not "scheduled".  Ties: every subject at the top count is in the patterns.
"""

from __future__ import annotations

from collections import Counter
from datetime import date, datetime, timedelta

from tests.dev_fails7 import label
from tests.dev_fails8 import last_day
from tests.eval_score import Truth
from tests.public_eval import CHIP, OTHER, Question

Call = tuple[str, dict]
Span = tuple[date, date | None]  # first day, last day (None: through the newest run's day)
_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_KEY = {"task": "name", "run": "execution_id", "qubit": "qid", "coupling": "qid"}


def span(db, chip: str, days: int | None = None, weekday: str | None = None, yesterday: bool = False,
         month: bool = False, days_of: tuple[date, date | None] | None = None) -> Span:
    """The window's first and last day on ``chip``, by hand from its newest run's day."""
    end = last_day(db, chip)
    if days is not None:
        return end - timedelta(days=days - 1), None
    if weekday is not None:
        return end - timedelta(days=(end.weekday() - _DAYS.index(weekday)) % 7), None
    if yesterday:
        return end - timedelta(days=1), end - timedelta(days=1)
    if month:
        return end.replace(day=1), None
    assert days_of is not None
    first, last = days_of
    return first, None if last is None or last >= end else last


def ordinal(day: int) -> str:
    return f"{day}{'th' if 10 <= day % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(day % 10, 'th')}"


def past_days(db, chip: str) -> tuple[date, date]:
    """Two days of one month, 10 and 6 days before ``chip``'s newest day (both in the later month when they straddle
    one), so a day written without its month ("the 20th") means the same day whatever day the demo is seeded on."""
    end = last_day(db, chip)
    first, last = end - timedelta(days=10), end - timedelta(days=6)
    return (last.replace(day=1) if first.month != last.month else first), last


def past_month(db, chip: str) -> tuple[date, date]:
    """The calendar month 10 days before ``chip``'s newest day, first and last day."""
    first = (last_day(db, chip) - timedelta(days=10)).replace(day=1)
    return first, (first + timedelta(days=32)).replace(day=1) - timedelta(days=1)


def _md(day: date) -> str:
    return f"{day.month:02d}-{day.day:02d}"


def _gdays(days: tuple[date, date]) -> dict:
    """The router's arguments for two days written without their month."""
    return {"from_date": f"---{days[0].day:02d}", "to_date": f"---{days[1].day:02d}"}


def _start_at(window: Span) -> dict:
    first, last = window
    out = {"$gte": datetime(first.year, first.month, first.day)}
    return out if last is None else {**out, "$lt": datetime(last.year, last.month, last.day) + timedelta(days=1)}


def failures(db, chip: str, by: str, window: Span) -> Counter:
    """Failed results per task, run, qubit or coupling on ``chip`` in ``window``."""
    out: Counter = Counter()
    for doc in db["task_result_history"].find({"chip_id": chip, "status": "failed", "start_at": _start_at(window)}):
        key = doc[_KEY[by]]
        if by not in ("qubit", "coupling") or ("-" in str(key)) == (by == "coupling"):
            out[key] += 1
    return out


def count(db, chip: str, what: str, window: Span) -> int:
    """Runs, failed runs, notes, failed / excluded task results, or one kind's failed results in ``window``."""
    at = _start_at(window)
    if what in ("runs", "failed runs"):
        status = "failed" if what == "failed runs" else {"$ne": "scheduled"}
        return db["execution_history"].count_documents({"chip_id": chip, "status": status, "start_at": at})
    if what == "notes":
        return db["calibration_note"].count_documents({"chip_id": chip, "timestamp": at})
    if what == "excluded tasks":
        return db["task_result_history"].count_documents({"chip_id": chip, "excluded": True, "start_at": at})
    if what in ("qubit", "coupling"):
        return sum(failures(db, chip, what, window).values())
    return db["task_result_history"].count_documents({"chip_id": chip, "status": "failed", "start_at": at})


def _most(db, qid: str, text: str, chip: str, by: str, window: Span, args: dict) -> tuple[Question, Call]:
    counts = failures(db, chip, by, window)
    best = max(counts.values())
    names = sorted(str(k) for k, n in counts.items() if n == best)
    truth = Truth(((best, 0),), patterns=tuple(label(k) for k in names))
    return Question(qid, "fails most", text, truth), ("failure_ranking", {"chip_id": chip, "by": by, **args})


def _count(db, qid: str, text: str, chip: str, what: str, window: Span, args: dict) -> tuple[Question, Call]:
    n = count(db, chip, what, window)
    call = ("failure_ranking", {"chip_id": chip, "by": what, **args}) if what in ("qubit", "coupling") else \
        ("count_in_window", {"chip_id": chip, **args, "what": what})
    return Question(qid, "window count", text, Truth(((n, 0),))), call


def _rankings(db) -> list[tuple[Question, Call]]:
    c, o = CHIP, OTHER
    d, mo = past_days(db, c), past_month(db, o)
    return [
        _most(db, "f11-most-1", "Which task failed most since Tuesday?", c, "task", span(db, c, weekday="tuesday"),
              {"since_weekday": "tuesday"}),
        _most(db, "f11-most-2", f"Which qubit failed the most in {mo[0]:%B} on 144Qv2?", o, "qubit",
              span(db, o, days_of=mo), {"from_date": _md(mo[0]), "to_date": _md(mo[1])}),
        _most(db, "f11-most-3", f"Which coupling failed most between the {ordinal(d[0].day)} and the "
              f"{ordinal(d[1].day)}?", c, "coupling", span(db, c, days_of=d), _gdays(d)),
        _most(db, "f11-most-4", "Which run had the most failures over the last fortnight?", c, "run",
              span(db, c, days=14), {"days": 14}),
        _most(db, "f11-most-5", "Which task failed most in the past 72 hours on 144Qv2?", o, "task",
              span(db, o, days=3), {"days": 3}),
        _most(db, "f11-most-6", "Which qubit failed most yesterday?", c, "qubit", span(db, c, yesterday=True),
              {"day": "yesterday"}),
        _most(db, "f11-most-7", "Which task failed the most this month on 144Qv2?", o, "task",
              span(db, o, month=True), {"from_date": "month"}),
        _most(db, "f11-most-8", "Which coupler failed most last week?", c, "coupling", span(db, c, days=7),
              {"days": 7}),
        _most(db, "f11-most-9", "Which execution had the most failed tasks since Wednesday on 144Qv2?", o, "run",
              span(db, o, weekday="wednesday"), {"since_weekday": "wednesday"}),
        _most(db, "f11-most-10", f"Which qubit has failed most since the {ordinal(d[0].day)}?", c, "qubit",
              span(db, c, days_of=(d[0], None)), {"from_date": f"---{d[0].day:02d}"}),
        _most(db, "f11-most-11", "Which task failed the most since last Friday?", c, "task",
              span(db, c, weekday="friday"), {"since_weekday": "friday"}),
        _most(db, "f11-most-12", "Which task failed most since the start of the month?", c, "task",
              span(db, c, month=True), {"from_date": "month"}),
    ]


def _counts(db) -> list[tuple[Question, Call]]:
    c, o = CHIP, OTHER
    d, mc = past_days(db, c), past_month(db, c)
    return [
        _count(db, "f11-count-1", "How many runs were there since Tuesday?", c, "runs", span(db, c, weekday="tuesday"),
               {"since_weekday": "tuesday"}),
        _count(db, "f11-count-2", "How many failed tasks yesterday?", c, "failed tasks", span(db, c, yesterday=True),
               {"day": "yesterday"}),
        _count(db, "f11-count-3", "How many calibrations failed over the last fortnight on 144Qv2?", o,
               "failed tasks", span(db, o, days=14), {"days": 14}),
        _count(db, "f11-count-4", "How many runs in the past 72 hours?", c, "runs", span(db, c, days=3), {"days": 3}),
        _count(db, "f11-count-5", f"How many tasks failed between the {ordinal(d[0].day)} and the {ordinal(d[1].day)}?", c,
               "failed tasks", span(db, c, days_of=d), _gdays(d)),
        _count(db, "f11-count-6", "How many calibration runs this month?", c, "runs", span(db, c, month=True),
               {"from_date": "month"}),
        _count(db, "f11-count-7", "How many coupler calibrations failed since Thursday?", c, "coupling",
               span(db, c, weekday="thursday"), {"since_weekday": "thursday"}),
        _count(db, "f11-count-8", f"How many runs in {mc[0]:%B}?", c, "runs", span(db, c, days_of=mc),
               {"from_date": _md(mc[0]), "to_date": _md(mc[1])}),
        _count(db, "f11-count-9", "How many excluded results yesterday on 144Qv2?", o, "excluded tasks",
               span(db, o, yesterday=True), {"day": "yesterday"}),
        _count(db, "f11-count-10", "How many runs failed over the past fortnight?", c, "failed runs",
               span(db, c, days=14), {"days": 14}),
    ]


def _attacks(db) -> list[tuple[Question, Call]]:
    """Written after the fix, to attack it: other window forms, kinds and chips."""
    c, o = CHIP, OTHER
    d, e, mc = past_days(db, c), past_days(db, o), past_month(db, c)
    return [
        _most(db, "f11-att-1", "Which qubit racked up the most failures since Monday on 144Qv2?", o, "qubit",
              span(db, o, weekday="monday"), {"since_weekday": "monday"}),
        _most(db, "f11-att-2", f"Which coupling failed most between {d[0]:%b} {d[0].day} and {d[1]:%b} {d[1].day}?", c,
              "coupling",
              span(db, c, days_of=d), {"from_date": _md(d[0]), "to_date": _md(d[1])}),
        _most(db, "f11-att-3", "Which execution had the most failures yesterday on 144Qv2?", o, "run",
              span(db, o, yesterday=True), {"day": "yesterday"}),
        _most(db, "f11-att-4", "What task failed most frequently in the last 36 hours?", c, "task", span(db, c, days=2),
              {"days": 2}),
        _most(db, "f11-att-5", "Which qubit had the most failures in the last 96 hours on 144Qv2?", o, "qubit",
              span(db, o, days=4), {"days": 4}),
        _count(db, "f11-att-6", f"How many executions between {d[0]:%b} {d[0].day} and {d[1]:%b} {d[1].day}?", c, "runs",
               span(db, c, days_of=d), {"from_date": _md(d[0]), "to_date": _md(d[1])}),
        _count(db, "f11-att-7", f"How many task results failed since {e[0].day} {e[0]:%B} on 144Qv2?", o, "failed tasks",
               span(db, o, days_of=(e[0], None)), {"from_date": _md(e[0])}),
        _count(db, "f11-att-8", "How many runs since last Friday?", c, "runs", span(db, c, weekday="friday"),
               {"since_weekday": "friday"}),
        _count(db, "f11-att-9", "How many failed tasks so far this month on 144Qv2?", o, "failed tasks",
               span(db, o, month=True), {"from_date": "month"}),
        _count(db, "f11-att-10", "How many qubit calibrations failed in the past 48 hours?", c, "qubit",
               span(db, c, days=2), {"days": 2}),
        _count(db, "f11-att-11", "How many calibration notes since Tuesday on 144Qv2?", o, "notes",
               span(db, o, weekday="tuesday"), {"since_weekday": "tuesday"}),
        _count(db, "f11-att-12", f"How many failures were there in {mc[0]:%B}?", c, "failed tasks",
               span(db, c, days_of=mc), {"from_date": _md(mc[0]), "to_date": _md(mc[1])}),
        _count(db, "f11-att-13", "Number of runs during the last two weeks on 144Qv2", o, "runs", span(db, o, days=14),
               {"days": 14}),
        _count(db, "f11-att-14", f"How many coupler tasks failed between the {ordinal(e[0].day)} and the "
               f"{ordinal(e[1].day)} on 144Qv2?", o,
               "coupling", span(db, o, days_of=e), _gdays(e)),
    ]


def planned(db) -> list[tuple[Question, Call]]:
    """Every dev question with the router call it needs."""
    return [*_rankings(db), *_counts(db), *_attacks(db)]


def build(db) -> list[Question]:
    return [q for q, _ in planned(db)]
