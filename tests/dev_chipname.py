"""Dev questions for chips written the way people write them ("64Q", "the 64-qubit chip", "144q") and for counts
over a window since a written date on each chip ("per chip", "on both chips"): one count per chip, of the thing
asked (runs that failed are executions; tasks that failed are task results).

Every truth is a pymongo query written here on the raw demo documents, never a call of the code under test.
"""

from __future__ import annotations

import statistics
from datetime import date, datetime, timedelta

from tests.eval_score import Truth
from tests.public_eval import CHIP, OTHER, Question, latest_values

CHIPS = (CHIP, OTHER)


def _newest(db) -> date:
    """The day of the newest run of either chip: the day a window over both chips ends on."""
    doc = next(db["execution_history"].find({"chip_id": {"$in": list(CHIPS)}}).sort([("start_at", -1)]).limit(1))
    return doc["start_at"].date()


def _since(day: date) -> dict:
    return {"start_at": {"$gte": datetime(day.year, day.month, day.day)}}


def failed_runs(db, chip: str, day: date) -> int:
    return db["execution_history"].count_documents({"chip_id": chip, "status": "failed", **_since(day)})


def runs(db, chip: str, day: date) -> int:
    return db["execution_history"].count_documents({"chip_id": chip, "status": {"$ne": "scheduled"}, **_since(day)})


def failed_tasks(db, chip: str, day: date) -> int:
    return db["task_result_history"].count_documents({"chip_id": chip, "status": "failed", **_since(day)})


def _side_by_side(counts: dict[str, int]) -> Truth:
    """Both counts stated; the chip with more put first when they differ."""
    (a, na), (b, nb) = sorted(counts.items(), key=lambda kv: -kv[1])
    numbers = ((na, 0), (nb, 0))
    return Truth(numbers, winner=a, loser=b) if na != nb else Truth(numbers, patterns=(r"(?i)same|each|both|tie",))


def _start(db, count) -> date:
    """A day 5-20 days before the newest run on which the two chips' counts differ (else 10 days before)."""
    end = _newest(db)
    return next((end - timedelta(days=back) for back in range(5, 21)
                 if count(db, CHIP, end - timedelta(days=back)) != count(db, OTHER, end - timedelta(days=back))),
                end - timedelta(days=10))


def _per_chip(db) -> list[Question]:
    out = []
    for i, (count, wording) in enumerate([
            (failed_runs, "Since {long}, how many calibration runs failed on each chip?"),
            (failed_runs, "failed executions per chip since {short}"),
            (failed_tasks, "How many tasks failed on both chips since {iso}?"),
            (failed_tasks, "Per chip, what number of task results failed since {short}?"),
            (runs, "How many calibration runs did each chip have since {long}?")]):
        day = _start(db, count)
        text = wording.format(long=f"{day.day} {day:%B}", short=f"{day:%b} {day.day}", iso=day.isoformat())
        out.append(Question(f"cn-window-{i + 1}", "window per chip", text,
                            _side_by_side({chip: count(db, chip, day) for chip in CHIPS})))
    return out


def _median_t1(db, chip: str) -> float:
    return statistics.median(v for v in latest_values(db, chip, "t1").values() if v is not None)


def _written_short(db) -> list[Question]:
    return [Question(f"cn-short-{i + 1}", "chip written short", text, Truth(((_median_t1(db, chip), 0.051),)))
            for i, (text, chip) in enumerate([("What is the median T1 on 64Q?", CHIP),
                                               ("What's the median T1 of the 64-qubit chip?", CHIP),
                                               ("median T1 on 144q", OTHER),
                                               ("What is the median T1 of the 144 qubit chip?", OTHER)])]


def build(db) -> list[Question]:
    return _per_chip(db) + _written_short(db)
