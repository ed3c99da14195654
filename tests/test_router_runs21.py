"""The dev questions of ``tests/dev_runs21.py`` against the router and the tools: a window of the chip's newest runs,
a limit deeper than a negative value, a correlation asked as one metric following another, a ranking of N qubits.
Every expected figure is the dev file's pymongo read, never the tool's."""

from __future__ import annotations

import pytest

from copilot_core.data.repository import CalibrationRepository
from copilot_core.language.comparisons import comparison
from copilot_core.language.corrections import taken_back
from copilot_core.language.question import parse
from copilot_core.tools import DataStore, Toolkit
from tests import dev_runs21
from tests.test_router_frames20 import _held
from tests.test_router_windows16 import _routed
from tests.dev_spread13 import chip_values, spread_of
from tests.eval_score import Expect, Truth, problems
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)


def _every(db) -> list[tuple[str, str, tuple[str, dict]]]:
    return [(q.id, q.text, call) for q, call, _ in dev_runs21.run_cases(db) + dev_runs21.date_cases(db)] + \
        list(dev_runs21.ROUTED)


def test_there_are_enough_dev_questions_over_both_chips(demo_db):
    asked = _every(demo_db)
    assert len(asked) >= 16
    chips = {args.get("chip_id") for _, _, (_, args) in asked}
    assert set(CHIPS) <= chips


def test_the_router_makes_the_call_each_dev_question_needs(demo_db):
    wrong = [(i, text, routed, call) for i, text, call in _every(demo_db) if (routed := _routed(text)) != call]
    assert not wrong, wrong


def test_each_call_counts_the_results_of_the_newest_runs_or_the_days_written(demo_db):
    toolkit = Toolkit(CalibrationRepository(demo_db), store=DataStore())
    wrong = []
    for q, (name, args), want in dev_runs21.run_cases(demo_db) + dev_runs21.date_cases(demo_db):
        out = toolkit.execute(name, args)
        if not out.ok or (got := _held(out.full, want)) != want:
            wrong.append((q.id, out.ok and got, want, out.error))
    assert not wrong, wrong


def test_the_answer_names_the_runs_it_counted(demo_db):
    """What a reader checks the count against: how many runs, the oldest and newest of them by id."""
    toolkit = Toolkit(CalibrationRepository(demo_db), store=DataStore())
    runs = dev_runs21.newest(demo_db, OTHER, 4)
    out = toolkit.execute("count_in_window", {"chip_id": OTHER, "what": "failed tasks", "last_runs": 4})
    assert out.ok and "in its last 4 runs" in out.full["answer"]
    assert f"{runs[-1]} to {runs[0]}" in out.full["answer"] and out.full["runs"] == runs


def test_more_runs_than_the_chip_holds_are_all_of_them_said_so(demo_db):
    toolkit = Toolkit(CalibrationRepository(demo_db), store=DataStore())
    stored = demo_db["execution_history"].count_documents({"chip_id": CHIP})
    if stored >= 50:
        pytest.fail("the demo chip holds 50 runs or more: pick a smaller chip for this check")
    out = toolkit.execute("count_in_window", {"chip_id": CHIP, "what": "task results", "last_runs": 50})
    every = demo_db["task_result_history"].count_documents({"chip_id": CHIP, "status": {"$in": ["completed", "failed"]}})
    assert out.ok and out.full["count"] == every
    assert f"in all {stored} of its runs (fewer than the 50 asked" in out.full["answer"]


@pytest.mark.parametrize("args", [{"days": 3}, {"from_date": "11-20"}, {"since_weekday": "monday"}])
def test_a_window_of_runs_and_one_of_days_together_do_not_fit(demo_db, args):
    toolkit = Toolkit(CalibrationRepository(demo_db), store=DataStore())
    for name in ("count_in_window", "failure_ranking"):
        out = toolkit.execute(name, {"chip_id": CHIP, "what": "failed tasks", "last_runs": 3, **args}
                              if name == "count_in_window" else {"chip_id": CHIP, "last_runs": 3, **args})
        assert not out.ok and "last_runs" in (out.error or ""), out.error


@pytest.mark.parametrize("text, n", [
    ("failed tasks in the last 5 runs", 5), ("its 3 most recent executions", 3), ("the previous ten calibration runs",
                                                                                  10),
    ("over the past two runs", 2), ("the 7 newest runs", 7), ("across its final 4 batches", 4),
])
def test_a_window_of_runs_is_read_with_its_size_and_is_no_limit(text, n):
    asked = parse(f"how many failed tasks on 64Qv3 {text}?", CHIPS)
    assert asked.last_runs == n and asked.threshold is None and asked.extreme_n is None and asked.window is None


@pytest.mark.parametrize("text", ["how many runs failed in the last 5 days on 64Qv3?", "5 runs failed on 64Qv3",
                                  "which of the 3 runs on 64Qv3 failed most?", "T1 of Q5 in run 20261120-003"])
def test_runs_without_a_window_word_are_no_window_of_runs(text):
    assert parse(text, CHIPS).last_runs is None


@pytest.mark.parametrize("written, side", [
    ("deeper than", ("below", False)), ("more negative than", ("below", False)),
    ("shallower than", ("above", False)), ("less negative than", ("above", False)),
    ("not deeper than", ("above", True)),
])
def test_depth_words_put_a_negative_limit_on_its_side(written, side):
    assert comparison(written) == side


@pytest.mark.parametrize("text, first, last", [
    ("failed tasks Nov 27-30", "11-27", "11-30"), ("failed tasks 27–30 Nov", "11-27", "11-30"),
    ("failed tasks Nov 26 to 29", "11-26", "11-29"), ("failed tasks from 24 to 28 November", "11-24", "11-28"),
    ("failures on Oct 3 – 5", "10-03", "10-05"), ("Nov 28–Dec 1", "11-28", "12-01"),
    ("from November 26th through the 29th", "11-26", "11-29"),
])
def test_a_range_that_writes_its_month_once_has_both_ends(text, first, last):
    asked = parse(text, CHIPS)
    assert asked.dates == (first, last) and not asked.qubits and asked.threshold is None


@pytest.mark.parametrize("text", ["T1 on Nov 27 of Q5-Q6", "Nov 27: 30 failed tasks?", "on Nov 27, 30 qubits failed",
                                  "failed tasks on Nov 27 - 28:30 UTC", "T1 on Nov 27 to 29.5 us?"])
def test_a_number_not_joined_to_a_day_by_a_range_is_no_end(text):
    assert parse(text, CHIPS).dates == ("11-27", "11-27")


@pytest.mark.parametrize("chip, stat", [(CHIP, "std"), (OTHER, "range")])
def test_a_spread_asked_in_ms_is_said_in_ms(demo_db, chip, stat):
    toolkit = Toolkit(CalibrationRepository(demo_db), store=DataStore())
    out = toolkit.execute("metric_spread", {"chip_id": chip, "metric_name": "t1", "lead": stat, "unit": "ms"})
    want = spread_of(chip_values(demo_db, chip, "t1"), stat) / 1000  # stored in μs
    assert out.ok and out.full["unit"] == "ms"
    assert not problems(Truth((Expect(want, 0.00006),)), out.full["answer"]), out.full["answer"]


@pytest.mark.parametrize("text, read", [
    ("T1 of Q5, sorry, I meant Q7, on 64Qv3", "T1 of Q7, , on 64Qv3"),
    ("best T1 on 144Qv2, or rather on 64Qv3?", "best T1 on 64Qv3, ?"),
    ("qubits with T1 below 20 us - make that T2 star below 20 us", "qubits with T2 star below 20 us"),
])
def test_a_correction_takes_back_what_it_replaces(text, read):
    assert taken_back(text, CHIPS) == read


@pytest.mark.parametrize("text", [
    "I mean, which qubits on 64Qv3 have the best T1?", "T1 of Q5 on 64Qv3 after the readout correction, and Q6?",
    "which qubits have T1 above 40 us? no wait is fine", "oops, what is the T1 of Q5?",
])
def test_words_that_correct_nothing_change_nothing(text):
    assert taken_back(text, CHIPS) == text
