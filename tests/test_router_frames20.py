"""The dev questions of ``tests/dev_frames20.py`` against the router and the tools: a window ending on the newest
run, a window's size that is no limit, a terse count, a range as one end minus the other, a unit asked by itself,
"lead on", a framing family word, a snake-case column header, a quoted name.  Every expected figure is the dev file's
pymongo read or a statistic by hand, never the tool's."""

from __future__ import annotations

import pytest

from copilot_core.data.repository import CalibrationRepository
from copilot_core.language.question import parse
from copilot_core.tools import DataStore, Toolkit
from tests import dev_frames20
from tests.eval_score import Expect, Truth, problems
from tests.public_eval import CHIP, OTHER, tol
from tests.test_router_windows16 import _routed

CHIPS = (CHIP, OTHER)


def _held(full: dict, want: dict) -> dict:
    """The figures of a tool's result ``want`` names, read as a person reads them."""
    got: dict = {}
    for key in want:
        if key == "counts":
            got[key] = {row["chip_id"]: row.get("count_failed", row.get("count")) for row in full["counts"]}
        elif key == "top":
            got[key] = full["failures"][0]["count_failed"]
        else:
            got[key] = full[key]
    return got


def _every(db) -> list[tuple[str, str, tuple[str, dict]]]:
    return [(q.id, q.text, call) for q, call, _ in dev_frames20._failure_cases(db)] + \
        [(s.id, s.text, s.call) for s in dev_frames20.stated_cases(db)] + list(dev_frames20.ROUTED)


def test_there_are_enough_dev_questions_over_both_chips(demo_db):
    asked = _every(demo_db)
    assert len([i for i, _, _ in asked if "-att-" not in i]) >= 16
    assert len([i for i, _, _ in asked if "-att-" in i]) >= 6
    chips = {args.get("chip_id") for _, _, (_, args) in asked} | {c for _, _, (_, a) in asked for c in a.get("chip_ids", [])}
    assert set(CHIPS) <= chips


def test_the_router_makes_the_call_each_dev_question_needs(demo_db):
    wrong = [(i, text, routed, call) for i, text, call in _every(demo_db) if (routed := _routed(text)) != call]
    assert not wrong, wrong


def test_each_failure_call_counts_what_the_question_names(demo_db):
    toolkit = Toolkit(CalibrationRepository(demo_db), store=DataStore())
    wrong = []
    for q, (name, args), want in dev_frames20._failure_cases(demo_db):
        out = toolkit.execute(name, args)
        if not out.ok or (got := _held(out.full, want)) != want:
            wrong.append((q.id, out.ok and got, want))
    assert not wrong, wrong


def test_each_stated_call_says_the_figures_by_hand(demo_db):
    toolkit = Toolkit(CalibrationRepository(demo_db), store=DataStore())
    wrong = []
    for case in dev_frames20.stated_cases(demo_db):
        name, args = case.call
        out = toolkit.execute(name, args)
        metric = args.get("metric_name", "")
        truth = Truth(tuple(Expect(v, max(tol(metric), abs(v) * 0.001)) for v in case.figures))
        if not out.ok or (found := problems(truth, out.full["answer"])):
            wrong.append((case.id, out.ok and out.full["answer"][:300], out.ok and found))
    assert not wrong, wrong


@pytest.mark.parametrize("text, days", [
    ("the 5 days up to its latest run", 5), ("10 calendar days through each chip's newest execution", 10),
    ("over the 3 days leading up to the last calibration run", 3), ("2 weeks ending with its most recent run", 14),
])
def test_a_window_ending_on_the_newest_run_is_counted_back_and_names_no_run(text, days):
    asked = parse(f"failed tasks on 64Qv3 {text}", CHIPS)
    assert asked.window is not None and asked.window.whole_days == days
    assert not asked.has("latest run") and asked.threshold is None and asked.extreme_n is None


@pytest.mark.parametrize("text", ["which task failed most on 64Qv3 in the latest run?",
                                  "failures in the newest run of 144Qv2 since the last 5 days began"])
def test_the_latest_run_without_a_window_of_days_is_still_the_run_asked(text):
    assert parse(text, CHIPS).has("latest run")


@pytest.mark.parametrize("text", ["is Q5's frequency above 5.1 GHz, not 4.9 GHz?", "T1 of Q5 on 64Qv3"])
def test_a_value_s_unit_is_no_unit_asked(text):
    assert parse(text, CHIPS).unit_asked is None


def test_a_bare_t2_beside_t2_echo_is_still_asked_about():
    assert None in parse("T2 and T2 echo of Q5", CHIPS).metrics
