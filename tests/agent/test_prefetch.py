"""Router prefetch: a hand-written table of questions and the one call each plainly needs (or none), the shared
metric vocabulary, and what reaches the model through the real SDK over HTTP."""

from __future__ import annotations

import json

import pytest

from copilot_core.agent import AgentRequest, run_copilot
from copilot_core.checking.verify import NO_ANSWER
from copilot_core.routing.prefetch import plan_prefetch
from copilot_core.chat.showwork import ShowWork, show_work_from
from copilot_core.domain.vocabulary import metrics_named
from copilot_core.tools import DataStore, Toolkit
from tests.fakes.scripted_openai import SmartRequest, answer, call, text

CHIP = "64Qv3"
# (question, selected qubit, expected call or None); written by hand from what each question asks.
TABLE = [
    ("What is the T1 of qubit Q5 on chip 64Qv3?", None,
     ("get_qubit_params", {"chip_id": CHIP, "qid": "5", "param_names": ["t1"]})),
    ("What is the average readout fidelity of qubit 12 on 64Qv3, in percent?", None,
     ("get_qubit_params", {"chip_id": CHIP, "qid": "12", "param_names": ["average_readout_fidelity"]})),
    ("Give me the qubit frequency and anharmonicity of Q07.", None,
     ("get_qubit_params", {"chip_id": CHIP, "qid": "7", "param_names": ["qubit_frequency", "anharmonicity"]})),
    ("For qubit 12, how do T1 and T2 echo compare? Is T2 echo within 2*T1?", None,
     ("get_qubit_params", {"chip_id": CHIP, "qid": "12", "param_names": ["t1", "t2_echo"]})),
    ("How is this qubit doing?", "9", ("get_qubit_params", {"chip_id": CHIP, "qid": "9"})),
    ("Show the T1 trend of qubit 5 over its last 20 measurements. What was the lowest value?", None,
     ("get_parameter_timeseries", {"parameter_name": "t1", "chip_id": CHIP, "qid": "5", "last_n": 20})),
    ("Has the T2 echo of qubit 7 been stable recently? Give the latest value.", None,
     ("get_parameter_timeseries", {"parameter_name": "t2_echo", "chip_id": CHIP, "qid": "7", "last_n": 10})),
    ("How has the readout fidelity of Q3 drifted?", None,
     ("get_parameter_timeseries", {"parameter_name": "average_readout_fidelity", "chip_id": CHIP, "qid": "3",
                                   "last_n": 10})),
    ("Show a T1 heatmap of chip 64Qv3 and tell me the median.", None,
     ("generate_chip_heatmap", {"chip_id": CHIP, "metric_name": "t1"})),
    ("Draw the X90 gate fidelity map of 64Qv3. What is the median fidelity?", None,
     ("generate_chip_heatmap", {"chip_id": CHIP, "metric_name": "x90_gate_fidelity"})),
    ("Give me a health report of chip 64Qv3: median T1 and T2 echo.", None,
     ("get_chip_summary", {"chip_id": CHIP, "param_names": ["t1", "t2_echo"]})),
    ("Give me a health summary of the chip", None, ("get_chip_summary", {"chip_id": CHIP})),
    ("What is the median T1 on 64Qv3?", None, ("get_chip_summary", {"chip_id": CHIP, "param_names": ["t1"]})),
    ("What is the mean T2* across the chip?", None,
     ("get_chip_summary", {"chip_id": CHIP, "param_names": ["t2_star"]})),
    ("Show the execution history of chip 64Qv3", None,
     ("get_execution_history", {"chip_id": CHIP, "last_n": 10})),
    ("List the last 5 runs on this chip.", None, ("get_execution_history", {"chip_id": CHIP, "last_n": 5})),
    ("What were the recent executions?", None, ("get_execution_history", {"chip_id": CHIP, "last_n": 10})),
    ("How long did the last 3 runs take?", None, ("get_execution_history", {"chip_id": CHIP, "last_n": 3})),
    # the model decides: several qubits, another chip, another tool, an ambiguous metric, a chip-wide trend
    ("Compare T1 of qubits 5, 12 and 7.", None, None),
    ("Which is better, Q3 or Q9?", None, ("compare_qubits", {"chip_id": CHIP, "qids": ["3", "9"]})),
    ("Compare the median T1 of chip 64Qv3 with chip 144Qv2.", None,
     ("compare_chips", {"metric_name": "t1", "statistic": "median", "chip_ids": ["64Qv3", "144Qv2"]})),
    ("What is the median T1 on 144Qv2?", None, None),
    ("Show the latest CheckT1 result for qubit 4.", None, None),
    ("Which qubits are the topology neighbours of Q5?", None, None),
    ("Why does Q12 have this readout fidelity?", None, None),
    ("What is the ZX90 gate fidelity of coupling 0-1?", None,  # the coupling's own values, not a qubit's
     ("get_coupling_params", {"chip_id": CHIP, "coupling_id": "0-1", "param_names": ["zx90_gate_fidelity"]})),
    ("Show the T2 trend of qubit 5.", None, None),
    ("Show the T1 trend across the chip", None, None),
    ("What is the median fidelity?", None, None),
    ("Hello there", None, None),
    ("Which executions failed this week?", None, None),
    ("Show the executions tagged weekly", None, None),
    ("Show the execution history of chip 144Qv2", None, None),
    ("Which recent executions calibrated qubit 5?", None, None),
    ("List the runs since 2026-11-01", None, None),
    ("Which tasks ran in the latest executions?", None, None),
]


@pytest.mark.parametrize(("question", "qid", "expected"), TABLE, ids=[q for q, _, _ in TABLE])
def test_the_call_a_question_plainly_needs(question, qid, expected):
    planned = plan_prefetch(question, chip_id=CHIP, qid=qid)
    assert (None if planned is None else (planned.name, planned.args)) == expected


def test_no_prefetch_without_a_chip_or_when_the_tool_is_not_offered():
    assert plan_prefetch("What is the T1 of Q5?", chip_id=None) is None
    assert plan_prefetch("What is the T1 of Q5?", chip_id=CHIP, available=["get_chip_summary"]) is None


VOCABULARY = [
    ("T2 echo of Q5", ["t2_echo"]),
    ("readout fidelity and readout frequency", ["average_readout_fidelity", "readout_frequency"]),
    ("X90 gate fidelity versus ZX90", ["x90_gate_fidelity", "zx90_gate_fidelity"]),
    ("T2* then t1_average", ["t2_star", "t1_average"]),
    ("the T2 of Q5", [None]),
    ("average gate fidelity (RB)", ["average_gate_fidelity"]),
]


@pytest.mark.parametrize(("question", "expected"), VOCABULARY, ids=[q for q, _ in VOCABULARY])
def test_the_shared_vocabulary_names_one_metric_per_phrase(question, expected):
    assert metrics_named(question) == expected


# ------------------------------------------------------------------------------ through the server


def tool_messages(body: dict) -> list[str]:
    items = body.get("input") or body.get("messages") or []
    return [i.get("output") or i.get("content") for i in items
            if i.get("type") == "function_call_output" or i.get("role") == "tool"]


def assistant_calls(body: dict) -> list[tuple[str, dict]]:
    items = body.get("input") or body.get("messages") or []
    out = [(i["name"], json.loads(i["arguments"])) for i in items if i.get("type") == "function_call"]
    for msg in items:
        for tc in msg.get("tool_calls") or []:
            out.append((tc["function"]["name"], json.loads(tc["function"]["arguments"])))
    return out


def test_prefetched_call_reaches_the_model_and_is_shown_as_the_routers(scripted_openai, style, repo, demo_db):
    qid = "5"
    t1 = demo_db["qubit"].find_one({"chip_id": CHIP, "qid": qid})["data"]["t1"]["value"]  # stored in μs
    expected = f"{t1:.1f} μs"  # the dashboard's rounding of μs, written out

    def quote_the_tool(req: SmartRequest):
        line = json.loads(req.tool_results[0].output)["answer"]
        return answer(f"From the tool: {line}")

    scripted_openai.smart = quote_the_tool
    result = run_copilot(AgentRequest(f"What is the T1 of qubit Q{qid}?", chip_id=CHIP),
                         provider=scripted_openai.provider(style), toolkit=Toolkit(repo, store=DataStore()),
                         repo=repo, router=True)
    assert result.error is None, result.error
    (body,) = scripted_openai.bodies()  # one model round: the call was already made
    assert assistant_calls(body) == [("get_qubit_params", {"chip_id": CHIP, "qid": qid, "param_names": ["t1"]})]
    (reply,) = tool_messages(body)
    assert f"t1 {expected}" in json.loads(reply)["answer"]
    assert f"t1 {expected}" in result.answer and result.unverified_numbers == []
    assert [(c.name, c.origin) for c in result.tool_calls] == [("get_qubit_params", "router")]
    work = ShowWork.from_dict(show_work_from(result).to_dict())  # as stored with the chat and read back
    assert [(t.name, t.origin) for t in work.tools] == [("get_qubit_params", "router")]
    assert result.usage["rounds"] == 1


def test_router_off_makes_no_call_of_its_own(scripted_openai, toolkit):
    scripted_openai.push(answer("T1 of Q5 is 99.9 μs."))
    result = run_copilot(AgentRequest("What is the T1 of qubit Q5?", chip_id=CHIP),
                         provider=scripted_openai.provider(), toolkit=toolkit, repo=None)
    assert tool_messages(scripted_openai.bodies()[0]) == []  # nothing is called before the model's first round
    # the model answered a data question with no call: that answer is not shown; the turn looks it up itself after
    assert [name for name, _ in toolkit.executed] == ["get_qubit_params"]
    assert "99.9" not in result.answer and "42.5" in result.answer


def test_a_tool_call_written_as_text_is_run_and_never_shown(scripted_openai, style, toolkit):
    written = '```json\n{"name": "get_qubit_params", "arguments": {"chip_id": "64Qv3", "qid": "5"}}\n```'
    scripted_openai.push(text(written), answer("T1 of Q5 is 42.5 μs."))
    result = run_copilot(AgentRequest("What is the T1 of qubit Q5?", chip_id=CHIP),
                         provider=scripted_openai.provider(style), toolkit=toolkit, repo=None)
    assert result.error is None and result.answer == "T1 of Q5 is 42.5 μs."
    assert toolkit.executed == [("get_qubit_params", {"chip_id": CHIP, "qid": "5"})]
    second = scripted_openai.bodies()[1]
    assert assistant_calls(second) == [("get_qubit_params", {"chip_id": CHIP, "qid": "5"})]
    assert "42.5" in tool_messages(second)[0]


class AnswerToolkit:
    """A toolkit whose one tool writes an ``answer`` sentence first, as the real lookups do."""

    LINE = "Q05 on 64Qv3: t1 42.5 μs (fair)."

    def __init__(self) -> None:
        self.runs = 0

    def schemas(self) -> list[dict]:
        return [{"name": "get_qubit_params", "description": "One qubit's values.",
                 "parameters": {"type": "object", "properties": {"qid": {"type": "string"}}}}]

    def names(self) -> list[str]:
        return ["get_qubit_params"]

    def begin_request(self, chip_id: str | None = None) -> None:
        return None

    def execute(self, name, raw_args):
        from copilot_core.tools import ToolOutcome

        self.runs += 1
        return ToolOutcome(name, {"qid": "5"}, True, json.dumps({"answer": self.LINE}), "Q05: 1 parameter")


def test_a_tool_call_as_the_final_answer_shows_the_tools_answers_instead(scripted_openai, style):
    as_text = '<tool_call>\n{"name": "get_qubit_params", "arguments": {"qid": "5"}}\n</tool_call>'
    scripted_openai.push(*[call("get_qubit_params", {"qid": "5"})] * 2, text(as_text))
    toolkit = AnswerToolkit()
    result = run_copilot(AgentRequest("What is the T1 of qubit Q5?"), provider=scripted_openai.provider(style),
                         toolkit=toolkit, repo=None)
    assert toolkit.runs == 1 and result.error is None  # the repeat was not run, then the final call was forced
    assert "tool_call" not in result.answer and "get_qubit_params" not in result.answer
    assert AnswerToolkit.LINE in result.answer and NO_ANSWER in result.answer
    # it reads as an answer: the tools' sentence first, then one line saying it was computed from the data
    assert result.answer.startswith(AnswerToolkit.LINE) and result.claims == "computed"


def test_after_the_prefetch_the_model_answers_in_that_round_and_cannot_call_again(scripted_openai, style):
    """A server that ignores ``tool_choice="none"`` and sends a call anyway: nothing more runs, and the page shows
    the tool's answer sentence, labelled, instead of the call."""
    scripted_openai.push(call("get_qubit_params", {"qid": "5"}))
    toolkit = AnswerToolkit()
    result = run_copilot(AgentRequest("What is the T1 of qubit Q5?", chip_id=CHIP),
                         provider=scripted_openai.provider(style), toolkit=toolkit, repo=None, router=True)
    assert toolkit.runs == 1 and [o.origin for o in result.tool_calls] == ["router"]
    (body,) = scripted_openai.bodies()
    assert body.get("tool_choice") == "none" and body.get("tools")
    assert result.error is None and AnswerToolkit.LINE in result.answer
    assert NO_ANSWER in result.answer and "get_qubit_params" not in result.answer


def test_an_empty_final_answer_shows_the_tools_answers_instead(scripted_openai, style):
    scripted_openai.push(call("get_qubit_params", {"qid": "5"}), text(""), text(""))
    result = run_copilot(AgentRequest("What is the T1 of qubit Q5?"), provider=scripted_openai.provider(style),
                         toolkit=AnswerToolkit(), repo=None)
    assert result.error is None and len(scripted_openai.bodies()) == 3
    assert AnswerToolkit.LINE in result.answer and NO_ANSWER in result.answer


def test_a_call_to_a_tool_that_does_not_exist_is_not_shown_as_the_answer(scripted_openai, style):
    """What the local 1.5B model wrote after the prefetched summary: a fenced call to an invented tool."""
    invented = ('```json\n{"name": "chip-health-report", "arguments": {"chip_id": "64Qv3", "metric_name": "t1", '
                '"selection_mode": "latest", "within_hours": null}}\n```')
    scripted_openai.push(text(invented))
    toolkit = AnswerToolkit()
    result = run_copilot(AgentRequest("What is the T1 of qubit Q5?", chip_id=CHIP),
                         provider=scripted_openai.provider(style), toolkit=toolkit, repo=None, router=True)
    assert toolkit.runs == 1 and result.error is None
    assert "chip-health-report" not in result.answer and "```" not in result.answer
    assert AnswerToolkit.LINE in result.answer and NO_ANSWER in result.answer


def test_an_invented_call_in_a_tool_round_ends_the_rounds(scripted_openai, style):
    invented = '<tool_call>\n{"name": "health_report", "arguments": {}}\n</tool_call>'
    scripted_openai.push(call("get_qubit_params", {"qid": "5"}), text(invented), answer("T1 of Q5 is 42.5 μs."))
    result = run_copilot(AgentRequest("What is the T1 of qubit Q5?"), provider=scripted_openai.provider(style),
                         toolkit=AnswerToolkit(), repo=None)
    assert result.error is None and result.answer == "T1 of Q5 is 42.5 μs."
    final = scripted_openai.bodies()[2]
    assert final.get("tool_choice") == "none"
    assert "does not exist" in json.dumps(final)


# The question shapes the local model got wrong (issue 20), and their neighbours, each with the call it needs.
SHAPES = [
    ("Which qubit has the lowest T1?", ("rank_metric", {"chip_id": CHIP, "metric_name": "t1", "order": "lowest",
                                                        "n": 1})),
    ("Which qubits have the worst T2 echo?", ("rank_metric", {"chip_id": CHIP, "metric_name": "t2_echo",
                                                              "order": "lowest", "n": 5})),
    ("What are the 3 best qubits by readout fidelity?",
     ("rank_metric", {"chip_id": CHIP, "metric_name": "average_readout_fidelity", "order": "highest", "n": 3})),
    ("Which coupling has the lowest ZX90 fidelity?",
     ("rank_metric", {"chip_id": CHIP, "metric_name": "zx90_gate_fidelity", "order": "lowest", "n": 1})),
    ("Which qubits have T1 below 50 μs?", ("filter_metric", {"chip_id": CHIP, "metric_name": "t1", "below": 50.0})),
    ("How many qubits have x90 gate fidelity above 99.9%?",
     ("filter_metric", {"chip_id": CHIP, "metric_name": "x90_gate_fidelity", "above": 99.9})),
    ("How many qubits have no valid T1?", ("missing_metric", {"chip_id": CHIP, "metric_name": "t1"})),
    ("How many tasks failed in the most recent run?", ("get_run_failures", {"chip_id": CHIP})),
    ("Which tasks failed in execution 20261120-001?",
     ("get_run_failures", {"chip_id": CHIP, "execution_id": "20261120-001"})),
    ("When was the chip last calibrated?", ("get_execution_history", {"chip_id": CHIP, "last_n": 1})),
    ("When did the most recent execution start?", ("get_execution_history", {"chip_id": CHIP, "last_n": 1})),
    ("What were Q017's two most recent T1 values?",
     ("get_parameter_timeseries", {"parameter_name": "t1", "chip_id": CHIP, "qid": "17", "last_n": 2})),
    ("Plot the T1 history of qubit 5.",
     ("get_parameter_timeseries", {"parameter_name": "t1", "chip_id": CHIP, "qid": "5", "last_n": 10})),
    ("Where does the T1 of Q5 come from?",
     ("get_parameter_lineage", {"parameter_name": "t1", "qid": "5", "chip_id": CHIP})),
    ("Is the T1 of Q5 below 50?",  # one qubit: its values
     ("get_qubit_params", {"chip_id": CHIP, "qid": "5", "param_names": ["t1"]})),
    ("Which qubit has the lowest T2?", None),  # T2 is ambiguous: the model chooses
]


@pytest.mark.parametrize(("question", "expected"), SHAPES, ids=[q for q, _ in SHAPES])
def test_the_call_each_question_shape_needs(question, expected):
    planned = plan_prefetch(question, chip_id=CHIP)
    assert (None if planned is None else (planned.name, planned.args)) == expected


def test_prefetched_questions_offer_the_same_tools_so_a_prompt_cache_keeps_them(scripted_openai, style, repo):
    """A T1 lookup (routed: the qubit tools) and a T1 map (routed: heatmap and summary), both prefetched: their one
    model round offers every tool of the toolkit in its order, not callable, so the second question's prompt
    shares the system text and the whole tool list with the first.  A question without a prefetch still gets the
    routed few plus ``more_tools``."""
    toolkit = Toolkit(repo, store=DataStore())
    every = [s["name"] for s in toolkit.schemas()]
    scripted_openai.push(answer("T1 answer."), answer("Map answer."), call("get_qubit_params", {"qid": "3"}),
                         answer("Compared."))
    for question in ("What is the T1 of qubit Q5?", f"Show a T1 heatmap of chip {CHIP}",
                     "How have qubits 3 and 7 drifted lately?"):  # a trend of two: the model chooses
        run_copilot(AgentRequest(question, chip_id=CHIP), provider=scripted_openai.provider(style),
                    toolkit=toolkit, repo=repo, router=True)
    lookup, heatmap, free_round = scripted_openai.bodies()[:3]
    assert assistant_calls(lookup) == [("get_qubit_params", {"chip_id": CHIP, "qid": "5", "param_names": ["t1"]})]
    assert [name for name, _ in assistant_calls(heatmap)] == ["generate_chip_heatmap"]
    for body in (lookup, heatmap):
        assert offered_names(body) == every and body.get("tool_choice") == "none"
    assert json.dumps(lookup["tools"]) == json.dumps(heatmap["tools"])
    assert assistant_calls(free_round) == [] and free_round.get("tool_choice") is None
    assert offered_names(free_round)[-1] == "more_tools" and len(offered_names(free_round)) < len(every)
    assert {"get_qubit_params", "compare_qubits"} <= set(offered_names(free_round))


def offered_names(body: dict) -> list[str]:
    return [t.get("name") or t["function"]["name"] for t in body.get("tools") or []]
