"""One meaning of "the last N days" for every tool that takes days: whole UTC days ending on the day of the chip's
newest run; "yesterday" is the one day before it.  Dates are written out by hand; counts are pymongo reads of the raw
demo documents, never the tools."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from copilot_core.analysis.health import qubit_health
from copilot_core.domain.windows import dates_text, day_window
from copilot_core.language.question import parse
from copilot_core.routing.prefetch import plan_prefetch
from copilot_core.tools import DataStore, Toolkit

CHIP = "64Qv3"
SUNDAY = datetime(2026, 11, 29, 14, 30)  # a Sunday afternoon


@pytest.mark.parametrize(("kwargs", "start", "end"), [
    ({"days": 7}, datetime(2026, 11, 23), datetime(2026, 11, 30)),
    ({"days": 1}, datetime(2026, 11, 29), datetime(2026, 11, 30)),
    ({}, datetime(2026, 11, 29), datetime(2026, 11, 30)),
    ({"day": "today"}, datetime(2026, 11, 29), datetime(2026, 11, 30)),
    ({"day": "yesterday"}, datetime(2026, 11, 28), datetime(2026, 11, 29)),
    ({"weekday": "monday"}, datetime(2026, 11, 23), datetime(2026, 11, 30)),
    ({"weekday": "sunday"}, datetime(2026, 11, 29), datetime(2026, 11, 30)),
])
def test_whole_utc_days_end_on_the_newest_runs_day(kwargs, start, end):
    assert day_window(SUNDAY, **kwargs) == (start, end)


def test_the_dates_are_stated():
    assert dates_text(datetime(2026, 11, 23), datetime(2026, 11, 30), SUNDAY) == \
        "from 2026-11-23 to 2026-11-29 (UTC, 7 days ending on the day of the newest run)"
    assert dates_text(datetime(2026, 11, 28), datetime(2026, 11, 29), SUNDAY) == \
        "on 2026-11-28 (UTC, 1 day ending 1 day before the day of the newest run, 2026-11-29)"


@pytest.mark.parametrize(("question", "days", "yesterday"), [
    ("How many tasks failed yesterday?", 1.0, True), ("How many tasks failed today?", 1.0, False),
    ("How many tasks failed in the last 3 days?", 3.0, False), ("runs over the past two weeks", 14.0, False),
])
def test_yesterday_is_one_day(question, days, yesterday):
    window = parse(question).window
    assert window is not None and window.days == days and window.yesterday is yesterday


def _newest(db) -> datetime:
    return db["execution_history"].find_one({"chip_id": CHIP}, sort=[("start_at", -1)])["start_at"]


def _midnight_after(at: datetime) -> datetime:
    return datetime(at.year, at.month, at.day) + timedelta(days=1)


def _t1_points(db, qid: str, start: datetime, end: datetime) -> int:
    docs = db["task_result_history"].find({"chip_id": CHIP, "qid": qid, "status": "completed",
                                           "excluded": {"$ne": True}, "output_parameters.t1": {"$exists": True},
                                           "start_at": {"$gte": start, "$lt": end}})
    values = [d["output_parameters"]["t1"]["value"] for d in docs]
    return sum(1 for v in values if isinstance(v, (int, float)) and v == v and v != 0)  # NaN and 0: no value


@pytest.mark.parametrize("days", [1, 3, 7])
def test_a_history_and_a_count_of_the_last_n_days_read_the_same_documents(repo, db, days):
    end = _midnight_after(_newest(db))
    truth = _t1_points(db, "5", end - timedelta(days=days), end)
    assert truth > 0
    toolkit = Toolkit(repo, store=DataStore())
    history = toolkit.execute("get_parameter_timeseries", {"chip_id": CHIP, "parameter_name": "t1", "qid": "5",
                                                           "days": days})
    counted = toolkit.execute("count_in_window", {"chip_id": CHIP, "what": "measurements", "metric_name": "t1",
                                                  "qid": "5", "days": days})
    chip_wide = toolkit.execute("get_chip_parameter_timeseries", {"chip_id": CHIP, "parameter_name": "t1",
                                                                  "qids": ["5"], "days": days})
    assert history.ok and counted.ok and chip_wide.ok
    assert len(history.full["points"]) == counted.full["count"] == truth
    assert chip_wide.full["num_points"] == truth
    first = end - timedelta(days=days)
    stated = f"{first:%Y-%m-%d}" if days == 1 else f"from {first:%Y-%m-%d} to {end - timedelta(days=1):%Y-%m-%d}"
    assert stated in history.full["answer"] and stated in counted.full["answer"], history.full["answer"]


def test_yesterday_counts_and_ranks_the_one_day_before_the_newest_runs_day(repo, db):
    end = _midnight_after(_newest(db)) - timedelta(days=1)
    window = {"chip_id": CHIP, "status": "failed", "start_at": {"$gte": end - timedelta(days=1), "$lt": end}}
    failed = db["task_result_history"].count_documents(window)
    assert failed > 0
    toolkit = Toolkit(repo, store=DataStore())
    counted = toolkit.execute("count_in_window", {"chip_id": CHIP, "what": "failed tasks", "day": "yesterday"})
    ranked = toolkit.execute("failure_ranking", {"chip_id": CHIP, "day": "yesterday"})
    assert counted.ok and counted.full["count"] == failed
    assert ranked.ok and ranked.full["total"] == failed
    assert f"on {end - timedelta(days=1):%Y-%m-%d}" in counted.full["answer"]
    plan = plan_prefetch(f"How many tasks failed yesterday on {CHIP}?", chip_id=CHIP)
    assert plan is not None and plan.args.get("day") == "yesterday" and "days" not in plan.args


def test_the_qubit_review_reads_the_same_whole_days(repo, db):
    newest = _newest(db)
    end = _midnight_after(newest)
    start = end - timedelta(days=7)
    report = qubit_health(repo, CHIP, "5")
    assert report.window.startswith(f"from {start:%Y-%m-%d} to {newest:%Y-%m-%d}"), report.window
    failed = db["task_result_history"].count_documents({"chip_id": CHIP, "status": "failed", "qid": "5",
                                                              "start_at": {"$gte": start, "$lt": end}})
    assert len([f for f in report.failures if f.label == "Q05"]) == failed
