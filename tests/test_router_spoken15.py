"""The parse and the router on the dev questions of ``tests/dev_spoken15.py``: a dictated or form-like question gets
the tool that answers it (a ranking, a spread, a cross-chip statistic, a filter, a correlation) with the arguments
it asks, never the chip summary; and the readings that make it so (a spoken metric, a pasted log line) on their own."""

from __future__ import annotations

import pytest

from copilot_core.language.question import parse
from copilot_core.routing.clarify import may_ask
from copilot_core.routing.prefetch import plan_prefetch
from copilot_core.routing.router import route
from tests import dev_spoken15 as dev
from tests.public_eval import CHIP

CHIPS = dev.CHIPS


@pytest.mark.parametrize("case", dev.QUESTIONS, ids=lambda c: c.id)
def test_the_router_calls_the_tool_asked_with_its_arguments(case):
    plan = plan_prefetch(case.text, chip_id=CHIP, chips=CHIPS)
    assert plan is not None, case.text
    assert (plan.name, plan.args) == (case.tool, case.args), case.text


@pytest.mark.parametrize("case", dev.QUESTIONS, ids=lambda c: c.id)
def test_the_routed_tools_hold_the_planned_call(case):
    names = route(case.text, available=None).names
    plan = plan_prefetch(case.text, chip_id=CHIP, chips=CHIPS)
    assert plan is not None and plan.name != "get_chip_summary", case.text
    assert names, case.text


@pytest.mark.parametrize("spoken, metric", [
    ("t one", "t1"), ("tee one", "t1"), ("T 1", "t1"), ("t two echo", "t2_echo"), ("tee two star", "t2_star"),
    ("T 2 star", "t2_star"), ("zed x ninety fidelity", "zx90_gate_fidelity"), ("z x 90 fidelity", "zx90_gate_fidelity"),
    ("x ninety fidelity", "x90_gate_fidelity"), ("ex ninety gate fidelity", "x90_gate_fidelity"),
    ("x one eighty fidelity", "x180_gate_fidelity"), ("c z fidelity", "zx90_gate_fidelity"),
    ("ket zero fidelity", "readout_fidelity_0"), ("ket one readout fidelity", "readout_fidelity_1"),
    ("readout fidelity for state one", "readout_fidelity_1"), ("readout fidelity of state zero", "readout_fidelity_0"),
])
def test_a_spoken_metric_reads_as_the_metric(spoken, metric):
    assert parse(f"median {spoken} of the chip", CHIPS).metrics == (metric,)


@pytest.mark.parametrize("text", ["don't one two three", "a t shirt", "the x axis of the map", "t phi of Q5"])
def test_a_lone_letter_is_no_metric(text):
    assert not any(parse(text, CHIPS).metrics)


@pytest.mark.parametrize("pasted", [
    "2026-11-30 12:00:01 ERROR CheckT2Echo failed on Q05",
    "Traceback (most recent call last):",
    "KeyError: 'x90_gate_fidelity'",
    '  File "page.py", line 40, in render',
    "WARNING: slow query on coupling 4-5",
])
def test_a_pasted_line_before_a_self_contained_ask_is_left_out(pasted):
    asked = parse(f"{pasted}\nwhich three qubits have the longest t one", CHIPS)
    assert asked.metrics == ("t1",) and not asked.couplings and not asked.qubits, asked
    assert plan_prefetch(asked.text, chip_id=CHIP, chips=CHIPS).args == dev._rank(CHIP, "t1", "highest", 3)


def test_a_question_about_the_pasted_line_keeps_it():
    asked = parse("2026-11-30 12:00:01 ERROR CheckT1 failed on Q05\nwhy did this fail", CHIPS)
    assert asked.qubits == ("5",) and asked.task_name == "CheckT1", asked


def test_a_chip_id_spoken_letter_by_letter_is_the_chip():
    assert parse("median t one on one forty four q v two", CHIPS).chip_ids != ()
    assert parse("median t one on 144 q v 2", CHIPS).chip == dev.OTHER


@pytest.mark.parametrize("text", ["which four qubits are the best", "give me the spread on this chip",
                                  "which chip is better on average", "- want: top 3\n- chip: 64Qv3"])
def test_a_shape_read_without_a_metric_may_ask_back(text):
    asked = parse(text, CHIPS)
    assert plan_prefetch(text, chip_id=CHIP, chips=CHIPS) is None, text
    assert may_ask(asked, chip_id=CHIP, chips=CHIPS, planned=False), text


@pytest.mark.parametrize("text", ["what does the chip look like overall", "give me a summary of 64Qv3"])
def test_an_overview_is_not_asked_back(text):
    assert not may_ask(parse(text, CHIPS), chip_id=CHIP, chips=CHIPS, planned=False), text


@pytest.mark.parametrize("line", ["error rates of the top 3 qubits", "Info on the best 3 qubits by T1 please"])
def test_a_question_line_starting_with_a_level_word_is_kept(line):
    asked = parse(f"{line}\nand their t one too", CHIPS)
    assert asked.extreme_n == 3, asked


def test_a_pasted_date_is_no_window_of_the_ask():
    asked = parse("2026-11-30 08:00:00 WARN slow query\nthe three longest t one", CHIPS)
    assert asked.dates is None and asked.window is None, asked
