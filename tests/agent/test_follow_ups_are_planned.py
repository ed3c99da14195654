"""Every follow-up question the app itself offers gets a router plan that makes a call: a small model that writes
no tool call still answers the app's own suggestion ("What changed on 144Qv2 since the last calibration run?").
The expected tools and arguments are written by hand, one per follow-up template."""

from __future__ import annotations

import pytest

from copilot_core.routing.followups import follow_ups
from copilot_core.routing.prefetch import plan_prefetch
from copilot_core.routing.router import route

SIZES = {"144Qv2": 144, "64Qv3": 64}
# (calls of the answer, the chip in view) -> the follow-ups those calls give
CASES = [
    ([("get_parameter_timeseries", {"chip_id": "144Qv2", "qid": "17", "parameter_name": "t1"})], "144Qv2"),
    ([("get_qubit_params", {"chip_id": "64Qv3", "qid": "5"})], "64Qv3"),
    ([("get_chip_summary", {"chip_id": "144Qv2"})], "144Qv2"),
    ([("rank_metric", {"metric_name": "t2_echo"})], None),
]
# each template's plan, by hand: (what the follow-up starts with, tool, arguments)
EXPECTED = {
    "T1 trend of Q017 on 144Qv2 over the last 30 days":
        ("get_parameter_timeseries", {"chip_id": "144Qv2", "qid": "17", "parameter_name": "t1", "days": 30}),
    "Which qubits on 144Qv2 have the worst T1?":
        ("rank_metric", {"chip_id": "144Qv2", "metric_name": "t1", "order": "lowest", "n": 5}),
    "Show every parameter of Q017 on 144Qv2": ("get_qubit_params", {"chip_id": "144Qv2", "qid": "17"}),
    "What changed on 144Qv2 since the last calibration run?": ("compare_calibrations", {"chip_id": "144Qv2"}),
    "Show every parameter of Q05 on 64Qv3": ("get_qubit_params", {"chip_id": "64Qv3", "qid": "5"}),
    "What changed on 64Qv3 since the last calibration run?": ("compare_calibrations", {"chip_id": "64Qv3"}),
    "T2 echo trend over the last 30 days":
        ("get_chip_parameter_timeseries", {"chip_id": "144Qv2", "parameter_name": "t2_echo", "days": 30}),
}


def _offered() -> list[tuple[str, str]]:
    return [(q, chip or "144Qv2") for calls, chip in CASES
            for q in follow_ups("", calls, chip_in_view=chip, size_of=SIZES.__getitem__)]


def test_every_template_is_offered_here():
    """A follow-up template added without a case here fails this test."""
    assert sorted({q for q, _ in _offered()}) == sorted(EXPECTED)


@pytest.mark.parametrize(("question", "chip"), _offered())
def test_the_apps_own_follow_up_gets_a_router_plan(question, chip):
    planned = plan_prefetch(question, chip_id=chip)
    assert planned is not None, question
    assert (planned.name, planned.args) == EXPECTED[question]
    assert planned.name in route(question).names, route(question).names


@pytest.mark.parametrize(("question", "metrics"), [
    ("What has changed since the previous run?", None),
    ("what changed on 144Qv2 from the last calibration?", None),
    ("What changed in T1 since the last run?", ["t1"]),
])
def test_what_changed_since_the_last_run_compares_the_two_runs(question, metrics):
    planned = plan_prefetch(question, chip_id="144Qv2")
    assert planned is not None and planned.name == "compare_calibrations", planned
    assert planned.args.get("metrics") == metrics


@pytest.mark.parametrize("question", ["What changed on Q017 yesterday?", "When was the last calibration run?"])
def test_other_questions_about_runs_are_not_this_plan(question):
    planned = plan_prefetch(question, chip_id="144Qv2")
    assert planned is None or planned.name != "compare_calibrations", planned
