"""Dev questions for counts over a window of other kinds, counts per chip, and chip statistics side by side, in
wordings of my own, on both demo chips, over data whose newest runs cross midnight UTC (``dev_windows8.midnight_db``):

- a count of the kind asked (failed, completed or excluded task results, where "skipped" and "set aside" are the
  excluded flag QDash stores; runs, failed runs, calibration notes, the distinct qubits, couplings or tasks that
  failed, one task's results) over the window asked, a day of the month written alone ("since the 20th") included;
- which chip had more of a kind over a window: both counts over the same window;
- a chip statistic (median, mean) of a qubit or coupling metric per chip: both values, the better chip first.

Every truth is a hand-written pymongo read over ``task_result_history``, ``execution_history`` and
``calibration_note`` (status, excluded, start_at or timestamp, chip_id) with windows computed here, or the newest
usable value per qubit (``public_eval.latest_values``).  Each question carries the call the router must make.
"""

from __future__ import annotations

from datetime import datetime

from tests.dev_crosschip7 import _values, stat
from tests.dev_windows8 import _bounds, _days, _newest, midnight_db
from tests.eval_score import Truth
from tests.public_eval import CHIP, OTHER, Question, tol

__all__ = ["cases", "build", "count", "midnight_db"]
Call = tuple[str, dict]
_TASK_STATUS = {"failed tasks": "failed", "completed tasks": "completed",
                "task results": {"$in": ["completed", "failed"]}}


def count(db, chip: str, what: str, start_at: dict, task: str | None = None) -> int:
    """A count of ``what`` on ``chip`` whose start (a note: its timestamp) is in ``start_at``, by hand."""
    if what in ("runs", "failed runs"):
        status = "failed" if what == "failed runs" else {"$ne": "scheduled"}
        return db["execution_history"].count_documents({"chip_id": chip, "status": status, "start_at": start_at})
    if what == "notes":
        return db["calibration_note"].count_documents({"chip_id": chip, "timestamp": start_at})
    query: dict = {"chip_id": chip, "start_at": start_at} | ({"name": task} if task else {})
    if what == "excluded tasks":
        return db["task_result_history"].count_documents(query | {"excluded": True})
    if what.startswith("distinct "):  # the distinct qubits (couplings, task names) with a failed result
        field, kind = {"distinct qubits": ("qid", "qubit"), "distinct couplings": ("qid", "coupling"),
                       "distinct tasks": ("name", None)}[what]
        found = {doc[field] for doc in db["task_result_history"].find(query | {"status": "failed"})
                 if kind is None or doc.get("task_type") == kind}
        return len(found)
    return db["task_result_history"].count_documents(query | {"status": _TASK_STATUS[what]})


def _day(db, chip: str, first: int, last: int | None = None) -> dict:
    """From 00:00 of November ``first`` through ``last`` (None: the newest run's day, that run counted whole)."""
    newest = _newest(db, chip)
    return _bounds(db, chip, datetime(2026, 11, first), newest if last is None else datetime(2026, 11, last))


def _one_chip(db) -> list[tuple[Question, Call]]:
    c, o = CHIP, OTHER
    rows: list[tuple[str, str, str, dict, dict, str | None]] = [
        ("How many task results failed in the last 3 days on 144Qv2?", o, "failed tasks", _days(db, o, 3),
         {"what": "failed tasks", "days": 3}, None),
        ("How many excluded task results in the last 10 days?", c, "excluded tasks", _days(db, c, 10),
         {"what": "excluded tasks", "days": 10}, None),
        ("How many results were skipped over the past 10 days on 144Qv2?", o, "excluded tasks", _days(db, o, 10),
         {"what": "excluded tasks", "days": 10}, None),
        ("how many tasks got set aside since the 20th", c, "excluded tasks", _day(db, c, 20),
         {"what": "excluded tasks", "from_date": "---20"}, None),
        ("How many completed tasks this week on 144Qv2?", o, "completed tasks", _day(db, o, 23),
         {"what": "completed tasks", "since_weekday": "monday"}, None),
        ("How many task results succeeded since the 22nd?", c, "completed tasks", _day(db, c, 22),
         {"what": "completed tasks", "from_date": "---22"}, None),
        ("How many executions in the last 5 days on 144Qv2?", o, "runs", _days(db, o, 5), {"what": "runs", "days": 5},
         None),
        ("How many calibration runs since the 21st?", c, "runs", _day(db, c, 21),
         {"what": "runs", "from_date": "---21"}, None),
        ("How many runs failed since the 18th?", c, "failed runs", _day(db, c, 18),
         {"what": "failed runs", "from_date": "---18"}, None),
        ("How many calibration notes in the last 4 days?", c, "notes", _days(db, c, 4), {"what": "notes", "days": 4},
         None),
        ("How many calibration notes were written this week on 144Qv2?", o, "notes", _day(db, o, 23),
         {"what": "notes", "since_weekday": "monday"}, None),
        ("number of notes since the 22nd on 144Qv2", o, "notes", _day(db, o, 22),
         {"what": "notes", "from_date": "---22"}, None),
        ("How many CheckT1 results failed since the 19th?", c, "failed tasks", _day(db, c, 19),
         {"what": "failed tasks", "task_name": "CheckT1", "from_date": "---19"}, "CheckT1"),
        ("How many CheckRamsey tasks ran in the last 4 days on 144Qv2?", o, "task results", _days(db, o, 4),
         {"what": "task results", "task_name": "CheckRamsey", "days": 4}, "CheckRamsey"),
        ("failed tasks since the 23rd?", c, "failed tasks", _day(db, c, 23), {"what": "failed tasks",
                                                                               "from_date": "---23"}, None),
        ("How many excluded results between the 20th and the 23rd on 144Qv2?", o, "excluded tasks",
         _day(db, o, 20, 23), {"what": "excluded tasks", "from_date": "---20", "to_date": "---23"}, None),
        ("How many skipped results yesterday?", c, "excluded tasks", _day(db, c, 24, 24),
         {"what": "excluded tasks", "day": "yesterday"}, None),
    ]
    out = []
    for i, (text, chip, what, window, args, task) in enumerate(rows, 1):
        truth = Truth(((count(db, chip, what, window, task), 0),))
        out.append((Question(f"c9-count-{i}", "counts9 count", text, truth),
                    ("count_in_window", {"chip_id": chip, **args})))
    distinct = [("How many different qubits failed in the last 3 days?", c, "qubit", _days(db, c, 3), {"days": 3}),
                ("How many distinct qubits had failures this week on 144Qv2?", o, "qubit", _day(db, o, 23),
                 {"since_weekday": "monday"}),
                ("How many unique couplings failed since the 20th on 144Qv2?", o, "coupling", _day(db, o, 20),
                 {"from_date": "---20"}),
                ("How many different tasks failed in the last 7 days on 144Qv2?", o, "task", _days(db, o, 7),
                 {"days": 7}),
                ("number of distinct qubits with a failed task over the past 5 days", c, "qubit", _days(db, c, 5),
                 {"days": 5})]
    for j, (text, chip, by, window, args) in enumerate(distinct, len(out) + 1):
        truth = Truth(((count(db, chip, f"distinct {by}s", window), 0),),
                      patterns=(rf"\b{count(db, chip, f'distinct {by}s', window)} {by}s had at least one failure",))
        out.append((Question(f"c9-distinct-{j}", "counts9 distinct", text, truth),
                    ("failure_ranking", {"chip_id": chip, "by": by, **args})))
    return out


def _per_chip(db) -> list[tuple[Question, Call]]:
    rows: list[tuple[str, str, int, dict]] = [
        ("Which chip had more failed tasks since the 20th?", "failed tasks", 20, {"from_date": "---20"}),
        ("Which chip had more failures in the last 3 days?", "failed tasks", -3, {"days": 3}),
        ("Which chip had more excluded results over the last 10 days?", "excluded tasks", -10, {"days": 10}),
        ("Did 64Qv3 or 144Qv2 have more completed tasks this week?", "completed tasks", 23,
         {"since_weekday": "monday"}),
        ("Which chip had more calibration runs since the 19th?", "runs", 19, {"from_date": "---19"}),
        ("Which chip had more failed runs in the last 10 days?", "failed runs", -10, {"days": 10}),
        ("Which chip had more calibration notes in the last 5 days?", "notes", -5, {"days": 5}),
        ("which device skipped more results since the 21st", "excluded tasks", 21, {"from_date": "---21"}),
    ]
    out = []
    for i, (text, what, first, args) in enumerate(rows, 1):  # first < 0: the last -first days; else since that day
        a, b = (count(db, chip, what, _days(db, chip, -first) if first < 0 else _day(db, chip, first))
                for chip in (CHIP, OTHER))
        more, less = (CHIP, OTHER) if a > b else (OTHER, CHIP)
        truth = Truth(((a, 0), (b, 0)), winner=more if a != b else None, loser=less if a != b else None)
        out.append((Question(f"c9-chips-{i}", "counts9 per chip", text, truth),
                    ("count_in_window", {"chip_id": CHIP, "chip_ids": [CHIP, OTHER], "what": what, **args})))
    return out


def _statistics(db) -> list[tuple[Question, Call]]:
    rows = [("What's the mean T2 echo per chip?", "t2_echo", "mean"),
            ("Median ZX90 gate fidelity per chip", "zx90_gate_fidelity", "median"),
            ("Which chip has the better median T1?", "t1", "median"),
            ("Which chip has the higher mean X90 gate fidelity?", "x90_gate_fidelity", "mean"),
            ("mean readout fidelity on each chip?", "average_readout_fidelity", "mean"),
            ("median CZ gate fidelity, chip by chip", "zx90_gate_fidelity", "median")]
    out = []
    for i, (text, name, how) in enumerate(rows, 1):
        kind = "coupling" if name == "zx90_gate_fidelity" else "qubit"
        a, b = (stat(_values(db, c, name, kind), how) for c in (CHIP, OTHER))
        better, worse = (CHIP, OTHER) if a > b else (OTHER, CHIP)  # higher is better for each of these metrics
        truth = Truth(((a, tol(name)), (b, tol(name))), winner=better, loser=worse)
        out.append((Question(f"c9-stat-{i}", "counts9 statistic", text, truth),
                    ("compare_chips", {"metric_name": name, "statistic": how})))
    return out


def cases(db) -> list[tuple[Question, Call]]:
    return _one_chip(db) + _per_chip(db) + _statistics(db)


def build(db) -> list[Question]:
    return [q for q, _ in cases(db)]
