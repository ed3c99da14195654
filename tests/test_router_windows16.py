"""The dev questions of ``tests/dev_windows16.py`` against the router, the parse and the tools: N days joined to
today by any connective are N days counted back, never today alone; a window count counts what the question names
(a task, a family of tasks, measurements past a limit, a set of qubits, distinct qubits), and its answer says so.
Every expected figure is the dev file's pymongo read, never the tool's."""

from __future__ import annotations

import pytest

from copilot_core.data.repository import CalibrationRepository
from copilot_core.language.question import parse
from copilot_core.language.window_words import read_window
from copilot_core.routing.limits import settle_limits
from copilot_core.routing.prefetch import plan_prefetch
from copilot_core.tools import DataStore, Toolkit
from tests import dev_windows16
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)


def _routed(text: str) -> tuple[str, dict] | None:
    plan = plan_prefetch(text, chip_id=CHIP, chips=CHIPS)
    if plan is None:
        return None
    return plan.name, dict(settle_limits(plan.name, dict(plan.args), parse(text, CHIPS)).args)


def test_there_are_enough_dev_questions_over_both_chips(demo_db):
    asked = dev_windows16.planned(demo_db)
    assert len([q for q, _, _ in asked if "-att-" not in q.id]) >= 20
    assert len([q for q, _, _ in asked if "-att-" in q.id]) >= 6
    assert {args["chip_id"] for _, (_, args), _ in asked} == set(CHIPS)


def test_the_router_makes_the_call_each_dev_question_needs(demo_db):
    wrong = [(q.id, q.text, routed, call) for q, call, _ in dev_windows16.planned(demo_db)
             if (routed := _routed(q.text)) != call]
    assert not wrong, wrong


def _held(full: dict, want: dict) -> dict:
    """The figures of a tool's result ``want`` names, read as a person reads them."""
    got: dict = {}
    for key in want:
        if key == "counts":
            got[key] = {row["chip_id"]: row["count"] for row in full["counts"]}
        elif key == "top":
            got[key] = full["failures"][0]["count_failed"]
        else:
            got[key] = full[key]
    return got


def test_each_call_counts_what_the_question_names(demo_db):
    toolkit = Toolkit(CalibrationRepository(demo_db), store=DataStore())
    wrong = []
    for q, (name, args), want in dev_windows16.planned(demo_db):
        out = toolkit.execute(name, args)
        if not out.ok or (got := _held(out.full, want)) != want:
            wrong.append((q.id, out.ok and got, want))
    assert not wrong, wrong


@pytest.mark.parametrize("text, days", [
    ("failures over the 5 days up to today", 5), ("the 4 days ending today", 4), ("for the 6 days to date", 6),
    ("in the 3 days until today", 3), ("the 7 days through today", 7), ("the 2 days up to and including today", 2),
    ("over 5 days, today included", 5), ("the 3 calendar days ending today", 3), ("two weeks up to today", 14),
    ("the 3 days leading up to today", 3), ("the week ending today", 7),
])
def test_days_joined_to_today_are_counted_back_from_it(text, days):
    window = read_window(text)
    assert window is not None and window.whole_days == days and not window.yesterday, window


@pytest.mark.parametrize("text", ["what failed today", "which qubit failed most today on 64Qv3"])
def test_today_alone_is_still_one_day(text):
    window = read_window(text)
    assert window is not None and window.unit == "today"


def test_a_count_of_distinct_qubits_says_it_counts_qubits(demo_db):
    toolkit = Toolkit(CalibrationRepository(demo_db), store=DataStore())
    out = toolkit.execute("count_in_window", {"chip_id": OTHER, "what": "failed tasks", "days": 3,
                                              "distinct_qubits": True})
    assert out.ok and "distinct qubits" in out.full["answer"] and "not task results" in out.full["answer"]


def test_a_count_over_a_set_of_qubits_names_the_set(demo_db):
    toolkit = Toolkit(CalibrationRepository(demo_db), store=DataStore())
    out = toolkit.execute("count_in_window", {"chip_id": CHIP, "what": "failed tasks", "days": 4,
                                              "qubits": list(range(10, 20))})
    assert out.ok and "on Q10 to Q19" in out.full["answer"]


def test_a_limit_on_anything_but_measurements_is_refused(demo_db):
    toolkit = Toolkit(CalibrationRepository(demo_db), store=DataStore())
    out = toolkit.execute("count_in_window", {"chip_id": CHIP, "what": "failed tasks", "days": 4, "below": 3.0})
    assert not out.ok
