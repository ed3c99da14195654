"""After the model speaks: wrong claims corrected or replaced (and the person told), the deterministic answer when
the model wrote nothing, the retry of invented filters, and a chart whenever a question asks to plot.  The real
loop, the real SDK over HTTP to the scripted server, the real toolkit on the demo database; truths from pymongo."""

from __future__ import annotations

import base64
import math

import numpy as np
import pytest

from copilot_core.agent import AgentRequest, run_copilot
from copilot_core.checking.verify import NO_ANSWER
from copilot_core.answer.blocks import ChartBlock
from copilot_core.tools import DataStore, Toolkit
from tests.fakes.scripted_openai import answer, call, text
from tests.public_eval import two_runs

CHIP = "64Qv3"


def latest_t1(demo_db) -> dict[str, float]:
    """Newest completed, non-excluded T1 per qubit (usable values only), from the raw documents."""
    newest: dict[str, dict] = {}
    for doc in demo_db["task_result_history"].find({"chip_id": CHIP, "status": "completed", "task_type": "qubit",
                                                    "excluded": {"$ne": True}, "output_parameters.t1":
                                                    {"$exists": True}}):
        if doc["qid"] not in newest or doc["start_at"] > newest[doc["qid"]]["start_at"]:
            newest[doc["qid"]] = doc
    values = {q: d["output_parameters"]["t1"]["value"] for q, d in newest.items()}
    return {q: v for q, v in values.items() if math.isfinite(v) and v != 0}


def decoded(values) -> list:
    """A figure array as drawn: plotly writes numeric arrays as typed base64 (``bdata``)."""
    if isinstance(values, dict):
        return np.frombuffer(base64.b64decode(values["bdata"]), dtype=values["dtype"]).tolist()
    return list(values)


@pytest.fixture
def kit(repo) -> Toolkit:
    return Toolkit(repo, store=DataStore())


def ask(server, style, kit, repo, question: str, *, router: bool = True):
    return run_copilot(AgentRequest(question, chip_id=CHIP), provider=server.provider(style), toolkit=kit,
                       repo=repo, router=router)


def test_the_count_with_data_given_as_the_count_below_is_corrected_from_the_data(scripted_openai, style, kit, repo,
                                                                                 demo_db):
    values = latest_t1(demo_db)
    below = sum(1 for v in values.values() if v < 50)
    scripted_openai.push(answer(f"{len(values)} qubits have T1 below 50 μs."))
    result = ask(scripted_openai, style, kit, repo, "How many qubits have T1 below 50 μs?")
    assert [o.name for o in result.tool_calls] == ["filter_metric"]
    assert result.claims == "corrected"
    assert result.answer.startswith(f"{below} qubits have T1 below 50 μs.")
    assert f"Corrected from the data: {len(values)} → {below}" in result.answer


def test_the_right_value_on_an_invented_qubit_is_replaced_by_the_tools_answer(scripted_openai, style, kit, repo,
                                                                               demo_db):
    values = latest_t1(demo_db)
    lowest = min(values, key=values.get)
    other = max(values, key=values.get)
    scripted_openai.push(answer(f"The qubit with the lowest T1 is Q{other} with {values[lowest]:.1f} μs."))
    result = ask(scripted_openai, style, kit, repo, "Which qubit has the lowest T1?")
    assert result.claims == "replaced"
    first = result.answer.splitlines()[0]
    assert first.startswith(f"The lowest t1 on {CHIP} is Q{int(lowest):02d} with {values[lowest]:.1f} μs")
    assert "replaced by one computed from the tool results" in result.answer
    assert f"Q{other}" not in result.answer  # the note gives the check's reason, never the model's words


def test_a_right_answer_is_kept_as_written(scripted_openai, style, kit, repo, demo_db):
    values = latest_t1(demo_db)
    lowest = min(values, key=values.get)
    written = f"Q{int(lowest):02d} has the lowest T1, {values[lowest]:.1f} μs."
    scripted_openai.push(answer(written))
    result = ask(scripted_openai, style, kit, repo, "Which qubit has the lowest T1?")
    assert result.claims == "kept" and result.answer == written


def test_no_final_answer_shows_the_two_values_asked_for(scripted_openai, style, kit, repo, demo_db):
    docs = [d for d in demo_db["task_result_history"].find({"chip_id": CHIP, "qid": "17", "status": "completed",
                                                             "excluded": {"$ne": True}, "output_parameters.t1":
                                                             {"$exists": True}})
            if math.isfinite(d["output_parameters"]["t1"]["value"]) and d["output_parameters"]["t1"]["value"] != 0]
    docs.sort(key=lambda d: d["start_at"], reverse=True)
    scripted_openai.push(text(""))
    result = ask(scripted_openai, style, kit, repo, "What were Q017's two most recent T1 values?")
    assert result.error is None and NO_ANSWER in result.answer
    # what the person reads: the values as the answer, then one line saying they were computed from the data
    assert result.answer.rstrip("_ \n").endswith("Computed from the data: the model wrote no answer of its own.")
    assert "did not write a final answer" not in result.answer and "the tools found" not in result.answer
    assert result.claims == "computed"
    for doc in docs[:2]:
        t1 = doc["output_parameters"]["t1"]
        assert f"{t1['value']:.1f} μs ({t1['calibrated_at']:%Y-%m-%d %H:%M})" in result.answer
    assert f"{docs[2]['output_parameters']['t1']['value']:.1f} μs (" not in result.answer


def test_invented_filters_on_the_execution_history_are_retried_without_them(scripted_openai, style, kit, repo,
                                                                            demo_db):
    newest = list(demo_db["execution_history"].find({"chip_id": CHIP}).sort([("start_at", -1)]).limit(1))[0]
    scripted_openai.push(call("get_execution_history", {"tags": [CHIP], "status": "completed", "last_n": 1}),
                         answer(f"The chip was last calibrated in {newest['execution_id']}."))
    result = ask(scripted_openai, style, kit, repo, "When did the 64Qv3 chip get its calibration?", router=False)
    [outcome] = result.tool_calls
    assert outcome.ok and outcome.full["executions"][0]["execution_id"] == newest["execution_id"]
    assert outcome.args == {"chip_id": CHIP, "status": "completed", "last_n": 1}  # the chip-id tag dropped only
    assert "retried without tags" in outcome.summary
    assert result.answer == f"The chip was last calibrated in {newest['execution_id']}."


def test_a_plot_question_always_gets_a_chart(scripted_openai, style, kit, repo):
    scripted_openai.push(answer("Here is the T1 history of Q05."))
    result = ask(scripted_openai, style, kit, repo, "Plot the T1 history of qubit 5.")
    charts = [b for b in result.blocks if isinstance(b, ChartBlock)]
    assert [o.name for o in result.tool_calls] == ["get_parameter_timeseries"] and len(charts) == 1
    points = result.tool_calls[0].full["points"]
    drawn = decoded(charts[0].figure["data"][0]["y"])
    assert [round(v, 6) for v in drawn] == [round(p["value"], 6) for p in points]


def test_a_show_question_on_ranked_qubits_gets_bars(scripted_openai, style, kit, repo, demo_db):
    values = latest_t1(demo_db)
    scripted_openai.push(answer("These are the five qubits with the lowest T1."))
    result = ask(scripted_openai, style, kit, repo, "Show the 5 qubits with the lowest T1.")
    [chart] = [b for b in result.blocks if isinstance(b, ChartBlock)]
    expected = sorted(values, key=values.get)[:5]
    assert decoded(chart.figure["data"][0]["x"]) == [f"Q{int(q):02d}" for q in expected]


def test_a_change_with_the_wrong_sign_is_corrected_as_a_change_not_into_a_level(scripted_openai, style, kit, repo,
                                                                                demo_db):
    before, after = two_runs(demo_db, CHIP, "x90_gate_fidelity")
    changes = {q: after[q] - before[q] for q in sorted(set(before) & set(after), key=int)}
    qid = next(q for q, c in changes.items() if abs(c) >= 0.01 and abs(abs(c) * 100 % 1 - 0.5) > 0.1)
    change, level = changes[qid], after[qid]
    right, flipped = ("+" if change > 0 else "-"), ("-" if change > 0 else "+")
    scripted_openai.push(answer(f"Q{int(qid):02d}'s X90 gate fidelity changed by {flipped}{abs(change):.2f}% "
                                f"({level:.2f}%)."))
    result = ask(scripted_openai, style, kit, repo,
                 f"How has the X90 gate fidelity of qubit {int(qid)} changed from the previous run to the latest?")
    assert [o.name for o in result.tool_calls] == ["compare_calibrations"]
    assert result.claims == "corrected"
    assert result.answer.startswith(f"Q{int(qid):02d}'s X90 gate fidelity changed by {right}{abs(change):.2f}% "
                                    f"({level:.2f}%).")
    assert f"{flipped}{abs(change):.2f} → {right}{abs(change):.2f}" in result.answer
