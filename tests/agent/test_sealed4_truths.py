"""The fourth sealed set's window truths, recounted another way (the truths every set shares are checked in
``test_sealed_truths.py``).  Only question ids appear in failure messages, never the questions."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from tests.public_eval import CHIP
from tests.sealed.heldout4 import build_heldout4
from tests.sealed.calendar import sealed_fixtures


sealed_day, sealed_db, sealed_now = sealed_fixtures(build_heldout4)


@pytest.fixture(scope="module")
def questions(sealed_day):
    return sealed_day.questions


def test_the_windows_end_on_the_newest_run_s_day(questions, sealed_db):
    """Recounted from the day written in each execution id (``YYYYMMDD-NNN``), not from timestamps: the runs of the
    7 days ending on the newest run's day, and the failed tasks since the Monday on or before that day."""
    ids = sorted(e["execution_id"] for e in sealed_db["execution_history"].find({"chip_id": CHIP}))
    last = datetime.strptime(ids[-1][:8], "%Y%m%d").date()
    week = {(last - timedelta(days=k)).strftime("%Y%m%d") for k in range(7)}
    monday = last - timedelta(days=last.weekday())
    since = {(monday + timedelta(days=k)).strftime("%Y%m%d") for k in range((last - monday).days + 1)}
    failed = [r["execution_id"][:8] for r in sealed_db["task_result_history"].find({"chip_id": CHIP, "status": "failed"})]
    by_id = {q.id: q.truth.expects[0].value for q in questions if q.shape == "window count"}
    assert by_id["sealed4-window-count-1"] == sum(i[:8] in week for i in ids) >= 7
    assert by_id["sealed4-window-count-2"] == sum(day in since for day in failed) >= 1
