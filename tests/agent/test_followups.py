"""Next questions are built from the answer's tool calls, by rule."""

from __future__ import annotations

from copilot_core.language.question import parse
from copilot_core.routing.followups import follow_ups


def test_follow_ups_name_what_the_tools_touched():
    calls = [("get_qubit_params", {"chip_id": "64Qv3", "qid": "17"}),
             ("get_chip_parameter_timeseries", {"chip_id": "64Qv3", "parameter_name": "t1"})]
    assert follow_ups("How is qubit 17?", calls, size_of={"64Qv3": 64}.__getitem__) == [
        "T1 trend of Q17 on 64Qv3 over the last 30 days",
        "Which qubits on 64Qv3 have the worst T1?",
        "Show every parameter of Q17 on 64Qv3",
    ]


def test_a_qubit_in_a_follow_up_is_labelled_as_the_tables_label_it():
    """Q017 on a 144-qubit chip (the width QDash prints), Q17 when the chip's size is unknown; the question parse
    reads the label back as qubit 17, so the follow-up asks what it says."""
    calls = [("get_qubit_params", {"chip_id": "144Qv2", "qid": "17"})]
    asked = follow_ups("q", calls, size_of={"144Qv2": 144}.__getitem__)
    assert asked[0] == "Show every parameter of Q017 on 144Qv2"
    assert follow_ups("q", calls)[0] == "Show every parameter of Q17 on 144Qv2"
    assert parse(asked[0], ["144Qv2"]).qubits == ("17",)


def test_a_chip_only_answer_suggests_chip_questions():
    calls = [("generate_chip_heatmap", {"chip_id": "144Qv2", "metric_name": "t2_echo"})]
    assert follow_ups("T2 echo heatmap of 144Qv2", calls) == [
        "Which qubits on 144Qv2 have the worst T2 echo?",
        "What changed on 144Qv2 since the last calibration run?",
    ]


def test_none_after_a_failure_or_without_tools():
    calls = [("get_qubit_params", {"chip_id": "64Qv3", "qid": "5"})]
    assert follow_ups("q", calls, failed=True) == []
    assert follow_ups("q", []) == []


def test_hostile_arguments_never_reach_a_follow_up():
    calls = [("get_qubit_params", {"chip_id": "[x](https://evil.example)", "qid": "5; drop",
                                   "metric_name": "<img src=x>"})]
    assert follow_ups("q", calls) == []
    assert follow_ups("q", calls, chip_in_view="64Qv3") == ["What changed on 64Qv3 since the last calibration run?"]


def test_the_question_just_asked_is_not_suggested_again():
    calls = [("generate_chip_heatmap", {"chip_id": "64Qv3", "metric_name": "t1"})]
    assert "Which qubits on 64Qv3 have the worst T1?" not in follow_ups(
        "which qubits on 64Qv3 have the worst T1", calls)
