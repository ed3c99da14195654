"""A count asked per day is answered with each UTC day's count as well as the window's, through the page's path
with a model that writes nothing of its own.  Truths: pymongo counts of the raw documents per whole UTC day, the
window ending on the day of the chip's newest run (the last day read to the end, as a run crossing midnight
counts whole); a question with no window gets the last 7 days."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from tests.agent.page_turn import SMALL, page_turn, shown
from tests.fakes.scripted_models import silent
from tests.public_eval import CHIP

ASKED = [  # (wording, days in the window, collection, filter)
    ("How many task results failed each day over the last 4 days?", 4, "task_result_history", {"status": "failed"}),
    ("daily tally of failed tasks for the past week", 7, "task_result_history", {"status": "failed"}),
    ("Runs per day in the last 3 days on this chip?", 3, "execution_history", {"status": {"$ne": "scheduled"}}),
    ("Break down the failed task results by day.", 7, "task_result_history", {"status": "failed"}),
]


def _per_day(db, days: int, collection: str, where: dict) -> list[tuple[str, int]]:
    newest = next(db["execution_history"].find({"chip_id": CHIP}).sort([("start_at", -1)]).limit(1))["start_at"]
    end = datetime(newest.year, newest.month, newest.day) + timedelta(days=1)
    out = []
    for i in range(days, 0, -1):
        start = end - timedelta(days=i)
        when = {"$gte": start} | ({"$lt": start + timedelta(days=1)} if i > 1 else {})
        out.append((f"{start:%Y-%m-%d}", db[collection].count_documents({"chip_id": CHIP, **where,
                                                                          "start_at": when})))
    return out


@pytest.mark.parametrize("text, days, collection, where", ASKED, ids=[a[0][:32] for a in ASKED])
def test_a_count_per_day_lists_each_day(text, days, collection, where, demo_db, repo, scripted_openai, tmp_path):
    scripted_openai.smart = silent
    said = shown(page_turn(repo, scripted_openai, tmp_path, text, SMALL))
    expected = _per_day(demo_db, days, collection, where)
    assert "Per day (UTC): " + ", ".join(f"{day} {n}" for day, n in expected) + "." in said, (expected, said)
    assert f" {sum(n for _, n in expected)} " in said, said  # the window's count: the days' sum
