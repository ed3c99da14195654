"""The router's call for every question of ``tests/dev_scope13.py`` (a window in a form the window pattern left, or
one no reading can place), the count its tool gives (held to a hand-written pymongo read), a model's windowless call
marked as a mismatch, and the parse's ``unplaced`` scope words."""

from __future__ import annotations

import pytest

from copilot_core.agent.lookups import lookup_plan
from copilot_core.checking.restate import mismatches
from copilot_core.data.repository import CalibrationRepository
from copilot_core.language.question import parse
from copilot_core.language.window_words import read_window, unread_window, window_reading
from copilot_core.routing.prefetch import plan_prefetch
from copilot_core.tools import DataStore, Toolkit
from copilot_core.tools.toolkit import answer_line
from tests import dev_scope13
from tests.eval_score import problems
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)
_WINDOW_ARGS = ("days", "day", "since_weekday", "from_date", "to_date")


@pytest.fixture(scope="module")
def cases(midnight):
    return dev_scope13.cases(midnight)


def _plan(text: str):
    return lookup_plan(text, CHIP) or plan_prefetch(text, chip_id=CHIP, chips=CHIPS)


def test_there_are_enough_dev_questions_on_both_chips(cases):
    kinds = [q.shape for q, _ in cases]
    assert {k: kinds.count(k) for k in set(kinds)} == {"scope13 count": 23, "scope13 rank": 5, "scope13 unread": 9}
    assert {call[1]["chip_id"] for _, call in cases if call} == {CHIP, OTHER}


@pytest.mark.parametrize("kind", ["count", "rank"])
def test_the_router_makes_each_questions_windowed_call(cases, kind):
    wrong = []
    for q, call in cases:
        if q.shape != f"scope13 {kind}" or call is None:
            continue
        tool, want = call
        plan = _plan(q.text)
        if plan is None or plan.name != tool or any(plan.args.get(k) != v for k, v in want.items()):
            wrong.append(f"{q.id}: {q.text!r} -> {plan and (plan.name, plan.args)} != {tool}({want})")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("kind", ["count", "rank"])
def test_each_windowed_call_gives_the_hand_counted_figure(cases, midnight, kind):
    toolkit = Toolkit(CalibrationRepository(midnight), store=DataStore())
    wrong = []
    for q, call in cases:
        if q.shape != f"scope13 {kind}" or call is None:
            continue
        said = answer_line(toolkit.execute(call[0], dict(call[1]))) or ""
        reading = window_reading(parse(q.text, CHIPS).window)
        if found := problems(q.truth, f"{said} {reading or ''}"):
            wrong.append(f"{q.id}: {found} in {said!r}")
    assert not wrong, "\n".join(wrong)


def test_a_windowless_call_for_a_windowed_question_is_a_mismatch(cases):
    """Asked a window, got every stored run: the restate check marks it, never passes it."""
    unmarked = []
    for q, call in cases:
        if call is None:
            continue
        tool, args = call
        bare = {k: v for k, v in args.items() if k not in _WINDOW_ARGS}
        if not mismatches(parse(q.text, CHIPS), tool, bare):
            unmarked.append(q.id)
    assert not unmarked


def test_every_unread_window_is_recorded_on_the_question_and_routed_without_a_window(cases):
    wrong = []
    for q, _ in cases:
        if q.shape != "scope13 unread":
            continue
        asked = parse(q.text, CHIPS)
        said = q.truth.patterns[1].strip('"')
        if asked.unplaced != (said,) or asked.window or asked.dates or asked.since_weekday:
            wrong.append(f"{q.id}: {asked.unplaced} {asked.window} {asked.dates}")
        plan = _plan(q.text)
        if plan is not None and any(plan.args.get(k) is not None for k in _WINDOW_ARGS):
            wrong.append(f"{q.id}: routed with a window {plan.args}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("text, n, unit", [
    ("runs in the rolling 10-day window", 10, "day"),
    ("failures over the trailing 48 hours", 48, "hour"),
    ("tasks of the preceding five days", 5, "day"),
    ("runs in the prior 2 weeks", 2, "week"),
    ("the last 7 calendar days", 7, "day"),
    ("a 36-hour window", 36, "hour"),
    ("a rolling window of 10 days", 10, "day"),
    ("the 3 trailing days", 3, "day"),
    ("over a sliding fortnight", 2, "week"),
    ("over a trailing month", 1, "month"),
    ("within 4 days", 4, "day"),
    ("during the trailing thirteen days", 13, "day"),
])
def test_a_window_in_another_form_is_read(text, n, unit):
    window = read_window(text)
    assert window is not None and (window.n, window.unit) == (n, unit)


@pytest.mark.parametrize("text", ["Which qubits are trailing on T1?", "What is the T1 of Q5?",
                                  "How many runs per day?", "Which qubit fails most?", "Show the latest run"])
def test_no_window_is_read_or_left_unplaced_where_none_is_written(text):
    asked = parse(text, CHIPS)
    assert asked.window is None and asked.unplaced == ()


def test_trailing_next_to_a_window_is_no_extreme_but_alone_it_is():
    assert parse("How many runs over the trailing 48 hours?", CHIPS).extreme is None
    assert parse("Which qubits are trailing on T1?", CHIPS).extreme == "worst"


def test_the_note_names_the_words_and_says_what_the_answer_covers():
    note = unread_window("during the last sprint")
    assert '"during the last sprint" could not be read as a time window' in note
    assert "not limited to it" in note and "every stored run" in note
