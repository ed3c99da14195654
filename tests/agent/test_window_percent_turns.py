"""Window counts and shares through ``Copilot.ask`` (the page's path: clarification on, no memory) with the scripted
OpenAI-compatible server: a model that writes a share of its own, one that writes a count of its own, and the claim
check.  Truths are pymongo reads in ``tests/dev_shapes_a.py`` / ``tests/dev_shapes_b.py``, never the tools."""

from __future__ import annotations

import pytest

from tests import dev_shapes_a, dev_shapes_b
from tests.agent.page_turn import SMALL, page_turn
from tests.agent.page_turn import shown as shown_by
from tests.eval_score import problems
from tests.fakes.scripted_openai import SmartRequest, text
from tests.public_eval import CHIP

OWN_SHARE = "About 37.5% of them do, so roughly a third."
OWN_COUNT = "There were 9999 of them in that window."


@pytest.mark.parametrize("qid", ["pc-0", "pc-4", "pc-6", "pc-7"])
def test_a_share_the_model_made_up_is_never_shown_as_it_wrote_it(qid, repo, demo_db, scripted_openai, tmp_path):
    question = next(q for q in dev_shapes_a.build(demo_db) if q.id == qid)

    def own_share(request: SmartRequest):
        return text(OWN_SHARE)

    scripted_openai.smart = own_share
    shown = shown_by(page_turn(repo, scripted_openai, tmp_path, question.text, model=SMALL))
    assert not problems(question.truth, shown), shown  # the tool's share, with its count
    assert OWN_SHARE not in shown, shown


@pytest.mark.parametrize("qid", ["sb-window-3", "sb-window-6", "sb-window-7", "sb-window-8"])
def test_a_count_the_model_made_up_is_never_shown_as_it_wrote_it(qid, repo, demo_db, scripted_openai, tmp_path):
    question = next(q for q in dev_shapes_b.build(demo_db) if q.id == qid)

    def own_count(request: SmartRequest):
        return text(OWN_COUNT)

    scripted_openai.smart = own_count
    shown = shown_by(page_turn(repo, scripted_openai, tmp_path, question.text, model=SMALL))
    assert not problems(question.truth, shown), shown
    assert OWN_COUNT not in shown, shown


def _share_truth(demo_db, qid: str) -> float:
    question = next(q for q in dev_shapes_a.build(demo_db) if q.id == qid)
    return next(e.value for e in question.truth.expects if e.unit == "%")


@pytest.mark.parametrize(("qid", "tool", "args"), [
    ("pc-0", "filter_metric", {"chip_id": CHIP, "metric_name": "t1", "below": 45.0}),
    ("pc-6", "count_in_window", {"chip_id": CHIP, "what": "failed tasks", "days": 10}),
])
def test_the_claim_check_holds_a_written_share_to_the_tools_share(qid, tool, args, repo, demo_db):
    from copilot_core.checking.claims import check_claims
    from copilot_core.tools import DataStore, Toolkit

    truth = _share_truth(demo_db, qid)
    outcome = Toolkit(repo, store=DataStore()).execute(tool, args)
    assert outcome.ok
    right = check_claims(f"{truth:.1f}% of them do.", [outcome], question="what share?")
    assert [c.verdict for c in right.claims] == ["ok"]
    made_up = 100.0 - truth  # a share the tools never gave
    wrong = check_claims(f"{made_up:.1f}% of them do.", [outcome], question="what share?")
    assert [c.verdict for c in wrong.claims] == ["wrong"]


def test_a_share_written_with_its_words_is_corrected_in_the_answer_read(repo, demo_db, scripted_openai, tmp_path):
    question = next(q for q in dev_shapes_a.build(demo_db) if q.id == "pc-6")
    truth = _share_truth(demo_db, "pc-6")
    made_up = f"{100.0 - truth:.1f}%"

    def own_share(request: SmartRequest):
        return text(f"{made_up} of task results failed in the last 10 days.")

    scripted_openai.smart = own_share
    shown = shown_by(page_turn(repo, scripted_openai, tmp_path, question.text, model=SMALL))
    assert f"{truth:.1f}%" in shown and not problems(question.truth, shown), shown
    assert f"{made_up} of task results failed" not in shown, shown


def test_a_window_counts_whole_days_and_only_finished_results(tmp_path):
    """Hand-made documents at the window's edges and in every status: the count a person makes by hand."""
    from datetime import datetime

    from copilot_core.data.connection import open_memory_database
    from copilot_core.data.repository import CalibrationRepository
    from copilot_core.tools import DataStore, Toolkit

    db = open_memory_database(f"window-edges-{tmp_path.name}")
    db["chip"].insert_one({"chip_id": "8Qw", "size": 8})
    newest = datetime(2026, 11, 26, 9, 30)  # a Thursday: "the last 3 days" are Nov 24, 25, 26
    runs = [(datetime(2026, 11, 23, 9, 30), "completed"), (datetime(2026, 11, 23, 23, 59, 59), "failed"),
            (datetime(2026, 11, 24, 0, 0), "completed"), (datetime(2026, 11, 25, 9, 30), "cancelled"),
            (datetime(2026, 11, 26, 9, 0), "scheduled"), (newest, "completed"),
            (datetime(2026, 11, 30, 9, 0), "scheduled")]  # planned for next week: not the data's "now"
    db["execution_history"].insert_many([{"chip_id": "8Qw", "execution_id": f"2026112{i}-001", "start_at": at,
                                          "status": status} for i, (at, status) in enumerate(runs)])
    statuses = ["completed", "failed", "skipped", "running", "failed", "completed"]
    db["task_result_history"].insert_many([
        {"chip_id": "8Qw", "task_id": f"t{i}", "name": "CheckT1" if i % 2 else "CheckRabi", "qid": str(i % 3),
         "task_type": "qubit", "status": status, "start_at": at, "excluded": False, "output_parameters": {}}
        for i, ((at, _), status) in enumerate(zip(runs, statuses))])
    toolkit = Toolkit(CalibrationRepository(db), store=DataStore())

    def count(**args) -> int:
        outcome = toolkit.execute("count_in_window", {"chip_id": "8Qw", **args})
        assert outcome.ok, outcome.error
        return outcome.full["count"]

    # by hand: Nov 24 00:00 (completed), Nov 25 (cancelled), Nov 26 09:30 (completed); the scheduled one never started
    assert count(what="runs", days=3) == 3
    assert count(what="runs", since_weekday="tuesday") == 3  # Nov 24 is a Tuesday
    assert count(what="runs") == 5  # and neither scheduled one
    # task results: t0 Nov 23 completed, t1 Nov 23 23:59:59 failed, t2 Nov 24 skipped, t3 Nov 25 running,
    # t4 Nov 26 failed, t5 Nov 26 completed; finished ones in the last 3 days: t4, t5
    assert count(what="task results", days=3) == 2
    assert count(what="failed tasks", days=3) == 1
    assert count(what="failed tasks") == 2
    assert count(what="task results", task_name="CheckT1") == 2  # t1, t5 (t3 still running)
    answer = toolkit.execute("count_in_window", {"chip_id": "8Qw", "what": "failed tasks", "days": 3}).full["answer"]
    assert "from 2026-11-24 to 2026-11-26" in answer and "1 of 2 finished task results (50.0%)" in answer
