"""Dev questions for a scope word the parse did not place, in wordings of my own, on both chips.

- windows in forms the window pattern left ("rolling 10-day window", "the trailing 48 hours", "the 5 preceding days",
  "the last 7 calendar days", "a rolling window of 4 days", "within 2 days", "between Monday and Wednesday"): read
  as whole UTC days ending on the newest run's day, counted and ranked over them;
- window words no reading can place ("during the last sprint", "this quarter", "two weeks ago", "since the last
  recalibration"): the answer must say it could not read them, never answer over every stored run in silence.

The data: :func:`tests.dev_windows8.midnight_db` (the newest runs start on Wednesday 2026-11-25 before midnight UTC and
end after it).  Every truth is a hand-written pymongo read (``tests/dev_windows8.py``'s ``count``, ``top_failures``,
``_days``, ``_bounds``).  Each question carries the call the router must make (None for an unread window: the call
has no window).
"""

from __future__ import annotations

from datetime import datetime

from tests.dev_windows8 import _bounds, _days, _newest, count, top_failures
from tests.eval_score import Truth
from tests.public_eval import CHIP, OTHER, Question

Call = tuple[str, dict]
UNREAD = r"could not be read as a time window"  # what the answer must say of a window it did not read
HOURS = r"hours are read as the last {} whole UTC days?"


def cases(db) -> list[tuple[Question, Call | None]]:
    o, c = OTHER, CHIP
    wed = _newest(db, c)
    mon, tue = datetime(2026, 11, 23), datetime(2026, 11, 24)
    # (kind, text, chip, what, start_at, call args, pattern the answer must hold)
    rows: list[tuple[str, str, str, str, dict, dict, str | None]] = [
        ("count", "How many failed tasks in the rolling 10-day window?", c, "failed tasks", _days(db, c, 10),
         {"days": 10}, r"from 2026-11-16 to 2026-11-25"),
        ("count", "How many runs over the trailing 48 hours on 144Qv2?", o, "runs", _days(db, o, 2), {"days": 2},
         HOURS.format(2)),
        ("count", "Failed task count for the preceding 5 days?", c, "failed tasks", _days(db, c, 5), {"days": 5},
         None),
        ("count", "How many calibration runs in the prior two weeks on 144Qv2?", o, "runs", _days(db, o, 14),
         {"days": 14}, None),
        ("count", "Count failed tasks in the last 7 calendar days", c, "failed tasks", _days(db, c, 7), {"days": 7},
         r"from 2026-11-19 to 2026-11-25"),
        ("count", "How many runs did 144Qv2 have in a 3-day window?", o, "runs", _days(db, o, 3), {"days": 3}, None),
        ("count", "how many failures in a rolling window of 4 days", c, "failed tasks", _days(db, c, 4), {"days": 4},
         None),
        ("count", "How many task results finished over the 6 preceding days on 144Qv2?", o, "task results",
         _days(db, o, 6), {"days": 6}, None),
        ("count", "How many failed tasks on 144Qv2 within 2 days?", o, "failed tasks", _days(db, o, 2), {"days": 2},
         None),
        ("count", "How many runs over the trailing twelve hours?", c, "runs", _days(db, c, 1), {"days": 1},
         HOURS.format(1)),
        ("count", "How many runs in the fourteen preceding days?", c, "runs", _days(db, c, 14), {"days": 14}, None),
        ("count", "failed tasks over a rolling week on 144Qv2?", o, "failed tasks", _days(db, o, 7), {"days": 7},
         None),
        ("count", "How many failed tasks between Monday and Wednesday?", c, "failed tasks", _bounds(db, c, mon, wed),
         {"from_date": "monday", "to_date": "wednesday"}, r"from 2026-11-23 to 2026-11-25"),
        ("count", "How many runs from Tuesday to Wednesday on 144Qv2?", o, "runs", _bounds(db, o, tue, wed),
         {"from_date": "tuesday", "to_date": "wednesday"}, r"from 2026-11-24 to 2026-11-25"),
        ("count", "How many failed tasks from the 20th to the 24th on 144Qv2?", o, "failed tasks",
         _bounds(db, o, datetime(2026, 11, 20), tue), {"from_date": "---20", "to_date": "---24"},
         r"from 2026-11-20 to 2026-11-24"),
        ("count", "How many runs since Tuesday on 144Qv2?", o, "runs", _bounds(db, o, tue, wed),
         {"since_weekday": "tuesday"}, None),
        ("count", "Number of failed tasks in the past 5 whole days", c, "failed tasks", _days(db, c, 5), {"days": 5},
         None),
        ("count", "How many runs in a 72-hour window on 144Qv2?", o, "runs", _days(db, o, 3), {"days": 3},
         HOURS.format(3)),
        ("count", "failed tasks during the trailing 3 days?", c, "failed tasks", _days(db, c, 3), {"days": 3}, None),
        ("count", "How many failed tasks over a 9 day lookback on 144Qv2?", o, "failed tasks", _days(db, o, 9),
         {"days": 9}, None),
        # written after the fix, to attack it
        ("count", "How many runs in the last 7d?", c, "runs", _days(db, c, 7), {"days": 7}, None),
        ("count", "Failures tallied over the last 10 rolling days on 144Qv2?", o, "failed tasks", _days(db, o, 10),
         {"days": 10}, None),
        ("count", "How many runs in the most recent 48-hour stretch?", c, "runs", _days(db, c, 2), {"days": 2},
         HOURS.format(2)),
    ]
    out: list[tuple[Question, Call | None]] = []
    for i, (kind, text, chip, what, start_at, args, pattern) in enumerate(rows, 1):
        truth = Truth(((count(db, chip, what, start_at), 0),), patterns=(pattern,) if pattern else ())
        out.append((Question(f"s13-{kind}-{i}", f"scope13 {kind}", text, truth),
                    ("count_in_window", {"chip_id": chip, "what": what, **args})))
    ranked = [("Which task failed most on 144Qv2 over the trailing 4 days?", o, "task", "name", 4),
              ("Which qubit failed most in the rolling 10-day window?", c, "qubit", "qid", 10),
              ("Worst qubit for failures over the preceding 3 days on 144Qv2", o, "qubit", "qid", 3),
              ("Which task failed the most in a 5-day window?", c, "task", "name", 5),
              ("Which qubit failed most in the prior 7 calendar days on 144Qv2?", o, "qubit", "qid", 7)]
    for text, chip, by, field, days in ranked:
        truth = Truth(((top_failures(db, chip, field, _days(db, chip, days)), 0),))
        out.append((Question(f"s13-rank-{len(out) + 1}", "scope13 rank", text, truth),
                    ("failure_ranking", {"chip_id": chip, "by": by, "days": days})))
    unread = [("How many tasks failed over the last sprint?", "over the last sprint"),
              ("Which qubit failed most this quarter on 144Qv2?", "this quarter"),
              ("How many runs on 144Qv2 two weeks ago?", "ago"),
              ("How many failed tasks since the last recalibration?", "since"),
              ("Which task failed most during the night shift?", "during the night shift"),
              ("How many failed tasks in the week before last?", "in the week"),
              ("Failed runs over the previous cycle on 144Qv2?", "over the previous cycle"),
              ("How many failures during the past 2 quarters?", "during the past 2 quarters"),
              ("How many runs over the last business week on 144Qv2?", "over the last business week")]
    for text, said in unread:
        truth = Truth(patterns=(UNREAD, f'"{said}"'))
        out.append((Question(f"s13-unread-{len(out) + 1}", "scope13 unread", text, truth), None))
    return out


def build(db) -> list[Question]:
    return [q for q, _ in cases(db)]
