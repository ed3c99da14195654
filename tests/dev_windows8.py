"""Dev questions for windows the app did not read, and for a window's edge, in wordings of my own, on both chips:

- hours ("the last 48 hours", "past 36h", "the last day and a half"): whole UTC days ending on the newest run's day,
  rounded up (48 h: 2 days, 36 h: 2, 12 h: 1), and the answer says so;
- no number ("the last few days", "recently", "lately", "several days"): 3 days; "a couple of days": 2;
  "last/past month": 30 days, "fortnight"/"two weeks": 14, "this month": since the 1st, "this week": since Monday,
  also in terse questions ("failed tasks this week?");
- the newest run crossing midnight UTC: a window that ends on the newest run's day takes in the whole run.

The data: the demo seeded with ``now`` at 00:30 UTC (:func:`midnight_db`), so each chip's newest run starts before
midnight and ends after it.  Every truth is a hand-written pymongo read over the raw collections: tasks and runs
that started on or after 00:00 of the window's first day, with no upper bound when the window ends on the newest
run's day (else before 00:00 after its last day).  Each question carries the call the router must make.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from tests.eval_score import Truth
from tests.public_eval import CHIP, OTHER, Question

NOW = datetime(2026, 11, 26, 0, 30)  # a Thursday; the newest runs start on Wednesday 25th before midnight
SEED_DAYS = 12
Call = tuple[str, dict]


def midnight_db(name: str = "windows8"):
    """An in-memory demo database whose newest runs cross midnight UTC."""
    from copilot_core.data.connection import open_memory_database
    from copilot_core.demo.seed import chip_specs, seed_database

    db = open_memory_database(name)
    seed_database(db, chip_specs(days=SEED_DAYS), seed=7, now=NOW)
    return db


def _newest(db, chip: str) -> datetime:
    doc = next(db["execution_history"].find({"chip_id": chip, "status": {"$ne": "scheduled"}})
               .sort([("start_at", -1)]).limit(1))
    return doc["start_at"]


def _bounds(db, chip: str, first: datetime, last_day: datetime) -> dict:
    """``start_at`` from 00:00 of ``first`` on; before 00:00 after ``last_day`` only when that day is not the
    newest run's (the newest run counted whole)."""
    newest = _newest(db, chip)
    start = datetime(first.year, first.month, first.day)
    end = datetime(last_day.year, last_day.month, last_day.day) + timedelta(days=1)
    return {"$gte": start} if end > newest else {"$gte": start, "$lt": end}


def _days(db, chip: str, days: int) -> dict:
    newest = _newest(db, chip)
    return _bounds(db, chip, newest - timedelta(days=days - 1), newest)


def count(db, chip: str, what: str, start_at: dict) -> int:
    """Failed tasks, finished task results or runs (scheduled ones never started) in ``start_at``."""
    if what == "runs":
        return db["execution_history"].count_documents({"chip_id": chip, "status": {"$ne": "scheduled"},
                                                        "start_at": start_at})
    status = "failed" if what == "failed tasks" else {"$in": ["completed", "failed"]}
    return db["task_result_history"].count_documents({"chip_id": chip, "status": status, "start_at": start_at})


def top_failures(db, chip: str, by: str, start_at: dict) -> int:
    """The failure count of the task (or qubit) that failed most."""
    counts: dict[str, int] = {}
    for doc in db["task_result_history"].find({"chip_id": chip, "status": "failed", "start_at": start_at}):
        key = str(doc.get(by))
        counts[key] = counts.get(key, 0) + 1
    return max(counts.values()) if counts else 0


HOURS = r"hours are read as the last {} whole UTC days?"
NO_NUMBER = r"is read as the last {} whole UTC days?"


def cases(db) -> list[tuple[Question, Call]]:
    o, c = OTHER, CHIP
    wed = _newest(db, c)
    monday, first = datetime(2026, 11, 23), datetime(2026, 11, 1)
    since = {"since_weekday": "monday"}
    month = {"from_date": "month"}
    # (id kind, text, chip, what, start_at window, call args, pattern the answer must hold)
    rows: list[tuple[str, str, str, str, dict, dict, str | None]] = [
        ("hours", "How many tasks failed in the last 48 hours?", c, "failed tasks", _days(db, c, 2), {"days": 2},
         HOURS.format(2)),
        ("hours", "how many runs on 144Qv2 in the past 36h", o, "runs", _days(db, o, 2), {"days": 2}, HOURS.format(2)),
        ("hours", "failed tasks over the last day and a half on 144Qv2", o, "failed tasks", _days(db, o, 2),
         {"days": 2}, HOURS.format(2)),
        ("hours", "How many task results finished in the last 72 hours on 144Qv2?", o, "task results",
         _days(db, o, 3), {"days": 3}, HOURS.format(3)),
        ("hours", "How many calibration runs were there in the last 12 hours?", c, "runs", _days(db, c, 1),
         {"days": 1}, HOURS.format(1)),
        ("hours", "How many failed tasks on 144Qv2 over the previous 96 hours?", o, "failed tasks", _days(db, o, 4),
         {"days": 4}, HOURS.format(4)),
        ("hours", "Count the failed task results of the last 30 hrs on 144Qv2.", o, "failed tasks", _days(db, o, 2),
         {"days": 2}, HOURS.format(2)),
        ("vague", "How many failed tasks in the last few days?", c, "failed tasks", _days(db, c, 3), {"days": 3},
         NO_NUMBER.format(3)),
        ("vague", "failed tasks the past couple of days on 144Qv2", o, "failed tasks", _days(db, o, 2), {"days": 2},
         NO_NUMBER.format(2)),
        ("vague", "how many runs on 144Qv2 recently", o, "runs", _days(db, o, 3), {"days": 3}, NO_NUMBER.format(3)),
        ("vague", "How many task results failed over the past several days on 144Qv2?", o, "failed tasks",
         _days(db, o, 3), {"days": 3}, NO_NUMBER.format(3)),
        ("vague", "How many calibration runs lately?", c, "runs", _days(db, c, 3), {"days": 3}, NO_NUMBER.format(3)),
        ("month", "how many failed tasks in the last month", c, "failed tasks", _days(db, c, 30), {"days": 30}, None),
        ("month", "failed tasks over the past month on 144Qv2", o, "failed tasks", _days(db, o, 30), {"days": 30},
         None),
        ("month", "runs in the last fortnight", c, "runs", _days(db, c, 14), {"days": 14}, None),
        ("month", "runs in the past two weeks on 144Qv2", o, "runs", _days(db, o, 14), {"days": 14}, None),
        ("month", "how many failed tasks this month", c, "failed tasks", _bounds(db, c, first, wed), month,
         r"from 2026-11-01 to 2026-11-25"),
        ("month", "How many runs this month on 144Qv2?", o, "runs", _bounds(db, o, first, wed), month,
         r"from 2026-11-01 to 2026-11-25"),
        ("month", "failed tasks this week?", c, "failed tasks", _bounds(db, c, monday, wed), since,
         r"from 2026-11-23 to 2026-11-25"),
        ("month", "runs so far this week on 144Qv2?", o, "runs", _bounds(db, o, monday, wed), since,
         r"from 2026-11-23 to 2026-11-25"),
        ("month", "failed tasks this month on 144Qv2?", o, "failed tasks", _bounds(db, o, first, wed), month, None),
        ("edge", "How many failed tasks in the last 1 day on 144Qv2?", o, "failed tasks", _days(db, o, 1),
         {"days": 1}, r"on 2026-11-25"),
        ("edge", "How many task results failed in the last 3 days on 144Qv2?", o, "failed tasks", _days(db, o, 3),
         {"days": 3}, r"from 2026-11-23 to 2026-11-25"),
        ("edge", "How many failed tasks today on 144Qv2?", o, "failed tasks", _days(db, o, 1), {"days": 1},
         None),
        ("edge", "How many failed tasks on 144Qv2 since 2026-11-24?", o, "failed tasks",
         _bounds(db, o, datetime(2026, 11, 24), wed), {"from_date": "2026-11-24"}, r"from 2026-11-24 to 2026-11-25"),
        ("edge", "How many task results finished on 144Qv2 since Nov 25?", o, "task results",
         _bounds(db, o, wed, wed), {"from_date": "11-25"}, None),
        ("edge", "How many failed tasks on 144Qv2 between 2026-11-24 and 2026-11-25?", o, "failed tasks",
         _bounds(db, o, datetime(2026, 11, 24), wed), {"from_date": "2026-11-24", "to_date": "2026-11-25"}, None),
        ("edge", "How many failed tasks yesterday on 144Qv2?", o, "failed tasks",
         _bounds(db, o, datetime(2026, 11, 24), datetime(2026, 11, 24)), {"day": "yesterday"}, r"on 2026-11-24"),
        ("edge", "How many task results finished on 144Qv2 in the last 7 days?", o, "task results", _days(db, o, 7),
         {"days": 7}, None),
        ("edge", "How many calibration runs in the past 5 days on 144Qv2?", o, "runs", _days(db, o, 5), {"days": 5},
         None),
        ("edge", "failed tasks on 144Qv2 over the last 2 days", o, "failed tasks", _days(db, o, 2), {"days": 2},
         None),
        ("edge", "How many failed tasks in the last 4 days?", c, "failed tasks", _days(db, c, 4), {"days": 4}, None),
    ]
    out: list[tuple[Question, Call]] = []
    for i, (kind, text, chip, what, start_at, args, pattern) in enumerate(rows, 1):
        truth = Truth(((count(db, chip, what, start_at), 0),), patterns=(pattern,) if pattern else ())
        out.append((Question(f"w8-{kind}-{i}", f"windows8 {kind}", text, truth),
                    ("count_in_window", {"chip_id": chip, "what": what, **args})))
    ranked = [("Which task failed most on 144Qv2 over the past 24 hours?", "task", "name", 1, HOURS.format(1)),
              ("Which qubit failed most on 144Qv2 in the last 2 days?", "qubit", "qid", 2, None),
              ("Which task failed most on 144Qv2 recently?", "task", "name", 3, NO_NUMBER.format(3))]
    for j, (text, by, field, days, pattern) in enumerate(ranked, len(out) + 1):
        truth = Truth(((top_failures(db, o, field, _days(db, o, days)), 0),), patterns=(pattern,) if pattern else ())
        out.append((Question(f"w8-rank-{j}", "windows8 rank", text, truth),
                    ("failure_ranking", {"chip_id": o, "by": by, "days": days})))
    return out


def build(db) -> list[Question]:
    return [q for q, _ in cases(db)]
