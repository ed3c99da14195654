"""The fifth sealed set's window and failure truths, recounted another way (the truths every set shares are checked in
``test_sealed_truths.py``).  Only question ids appear in failure messages, never the questions."""

from __future__ import annotations

import math
import re
from datetime import datetime, timedelta

import pytest

from tests.public_eval import CHIP, OTHER
from tests.sealed.heldout5 import build_heldout5
from tests.sealed.calendar import sealed_fixtures


sealed_day, sealed_db, sealed_now = sealed_fixtures(build_heldout5)


@pytest.fixture(scope="module")
def questions(sealed_day):
    return sealed_day.questions


def test_the_windows_end_on_the_newest_run_s_day(questions, sealed_db):
    """Recounted from the day written in each execution id (``YYYYMMDD-NNN``), not from timestamps: the 64-qubit
    chip's runs in the 14 days ending on its newest run's day, the 144-qubit chip's failed tasks in its last 5 days,
    and both chips' failed runs from 19 days before the newest day on."""
    def days(chip: str, n: int) -> set[str]:
        ids = sorted(e["execution_id"] for e in sealed_db["execution_history"].find({"chip_id": chip}))
        last = datetime.strptime(ids[-1][:8], "%Y%m%d").date()
        return {(last - timedelta(days=k)).strftime("%Y%m%d") for k in range(n)}

    runs = [e["execution_id"][:8] for e in sealed_db["execution_history"].find({"chip_id": CHIP})]
    failed = [r["execution_id"][:8] for r in sealed_db["task_result_history"].find({"chip_id": OTHER, "status": "failed"})]
    since = min(days(CHIP, 20))
    broken = [e["execution_id"][:8] for e in sealed_db["execution_history"].find({"status": "failed"})]
    by_id = {q.id: q.truth.expects[0].value for q in questions if q.shape == "window count"}
    assert by_id["sealed5-window-count-1"] == sum(day in days(CHIP, 14) for day in runs) >= 14
    assert by_id["sealed5-window-count-2"] == sum(day in days(OTHER, 5) for day in failed) >= 10
    assert by_id["sealed5-window-count-4"] == sum(day >= since for day in broken) >= 2


def test_the_fail_counts_and_rates_recount(questions, sealed_db):
    """The busiest failing run and the worst failure rate, recounted with one aggregation each."""
    by_id = {q.id: q.truth for q in questions if q.shape == "fails most"}
    runs = list(sealed_db["task_result_history"].aggregate([
        {"$match": {"chip_id": CHIP, "status": "failed"}},
        {"$group": {"_id": "$execution_id", "n": {"$sum": 1}}}]))
    top = max(runs, key=lambda r: r["n"])
    assert by_id["sealed5-fails-most-2"].patterns == (top["_id"],)
    assert by_id["sealed5-fails-most-2"].expects[0].value == top["n"]
    rows = list(sealed_db["task_result_history"].find({"chip_id": OTHER}, {"name": 1, "status": 1}))
    rate = {n: 100 * sum(r["status"] == "failed" for r in rows if r["name"] == n) / sum(r["name"] == n for r in rows)
            for n in {r["name"] for r in rows}}
    worst = max(rate, key=lambda n: rate[n])
    assert math.isclose(by_id["sealed5-fails-most-3"].expects[0].value, rate[worst])
    assert re.search(by_id["sealed5-fails-most-3"].patterns[0], worst)
