"""A task named to a tool in another case or with its words apart is the chip's task of that name; a name no task of
the chip has is said so, with the nearest names it does hold.  Truths: pymongo over the raw demo documents."""

from __future__ import annotations

import pytest

from tests.public_eval import CHIP


@pytest.mark.parametrize("written", ["CHECKT1", "checkt1", "check_t1", "Check T1"])
def test_a_window_count_of_a_task_in_any_case_counts_that_task(written, call):
    right, _ = call("count_in_window", chip_id=CHIP, what="failed tasks", task_name="CheckT1", days=7)
    other, _ = call("count_in_window", chip_id=CHIP, what="failed tasks", task_name=written, days=7)
    assert right.ok and other.ok, other.error
    assert other.summary == right.summary


@pytest.mark.parametrize("written", ["CHECKT2ECHO", "check t2 echo"])
def test_a_task_search_in_another_case_finds_the_tasks_results(written, call, demo_db):
    stored = demo_db["task_result_history"].count_documents({"chip_id": CHIP, "name": "CheckT2Echo"})
    outcome, payload = call("search_task_results", chip_id=CHIP, task_name=written, last_n=5)
    assert stored > 0 and outcome.ok, outcome.error
    assert payload["count"] == 5 and {r["name"] for r in payload["results"]} == {"CheckT2Echo"}


def test_a_task_history_in_capitals_reads_the_task(call, demo_db):
    stored = demo_db["task_result_history"].count_documents({"chip_id": CHIP, "name": "CheckT1", "qid": "5",
                                                             "status": "completed"})
    outcome, payload = call("get_task_history", chip_id=CHIP, task_name="CHECKT1", qid="5", last_n=3)
    assert outcome.ok, outcome.error
    assert payload["count"] == min(3, stored) and payload["task_name"] == "CheckT1"


@pytest.mark.parametrize("tool, args", [
    ("count_in_window", {"what": "failed tasks", "days": 7}), ("failure_ranking", {"by": "qubit"}),
    ("search_task_results", {}), ("get_latest_task_result", {"qid": "5"})])
def test_an_unknown_task_is_said_with_the_nearest_names(tool, args, call):
    outcome, _ = call(tool, chip_id=CHIP, task_name="CheckT2Ecko", **args)
    assert not outcome.ok
    assert "no task named CheckT2Ecko" in str(outcome.error) and "CheckT2Echo" in str(outcome.error), outcome.error
