"""The turn's call ledger: the same call, in any spelling the tool normalises to the same arguments, runs once per
turn and is answered from the ledger; a failure, the sandbox and a new turn run again; a repeated heatmap does
not add its chart twice.  Every turn goes through the real loop over real HTTP to the scripted server."""

from __future__ import annotations

import json

from copilot_core.agent import AgentRequest, run_copilot
from copilot_core.answer.blocks import ChartBlock
from copilot_core.agent.ledger import cache_key
from copilot_core.tools import DataStore, Toolkit
from copilot_core.tools.toolkit import ToolOutcome
from tests.depth.conftest import provider_for
from tests.fakes.scripted_openai import answer, call, calls

ALREADY = "This call was already made"


class CountingTools:
    """A tool layer that counts how often each call really ran (the ledger's only collaborator); it normalises a
    qubit id as the real tools do ("Q05" -> "5")."""

    def __init__(self, fail: frozenset[str] = frozenset()):
        self.ran: list[tuple[str, str]] = []
        self.fail = fail
        self.began = 0

    def schemas(self):
        return []

    def names(self):
        return []

    def begin_request(self, chip_id=None):
        self.began += 1

    def execute(self, name, raw_args):
        args = json.loads(raw_args) if isinstance(raw_args, str) else dict(raw_args)
        if "qid" in args:
            args["qid"] = str(args["qid"]).lstrip("Q").lstrip("0") or "0"
        self.ran.append((name, json.dumps(args, sort_keys=True)))
        ok = name not in self.fail
        return ToolOutcome(name=name, args=args, ok=ok, model_text=json.dumps({"n": len(self.ran)}),
                           summary=f"{name} #{len(self.ran)}", charts=[{"data": [], "layout": {}}],
                           error=None if ok else "failed")


def _turn(server, tools, *steps):
    server.push(*steps, answer("Done.", "good"))
    return run_copilot(AgentRequest("T1 of Q5?", chip_id="64Qv3"), provider=provider_for(server), toolkit=tools,
                       repo=None)


def _tool_outputs(server) -> list[str]:
    """What the model read back for each call (the function outputs of the last request)."""
    body = server.bodies()[-1]
    items = body.get("input") or body.get("messages") or []
    return [str(i.get("output") or i.get("content")) for i in items
            if i.get("type") == "function_call_output" or i.get("role") == "tool"]


def test_same_call_in_another_order_and_spelling_runs_once(scripted_openai):
    tools = CountingTools()
    result = _turn(scripted_openai, tools, call("get_qubit_params", {"chip_id": "64Qv3", "qid": "Q05"}),
                   call("get_qubit_params", {"qid": "5", "chip_id": "64Qv3"}))  # normalised spelling, other order
    assert result.error is None and len(tools.ran) == 1
    assert [o.name for o in result.tool_calls] == ["get_qubit_params"]
    outputs = _tool_outputs(scripted_openai)
    assert len(outputs) == 2 and ALREADY in outputs[1] and ALREADY not in outputs[0]
    assert len([b for b in result.blocks if isinstance(b, ChartBlock)]) == 1  # the chart once


def test_failures_the_sandbox_and_a_new_turn_run_again(scripted_openai):
    tools = CountingTools(fail=frozenset({"get_chip_summary"}))
    _turn(scripted_openai, tools, call("get_chip_summary", {"chip_id": "64Qv3", "qid": "Q05"}),
          call("get_chip_summary", {"chip_id": "64Qv3", "qid": "5"}),  # a failure is not reused for another spelling
          call("execute_python_analysis", {"code": "print(1)", "qid": "Q05"}),
          call("execute_python_analysis", {"code": "print(1)", "qid": "5"}))  # model code: only its exact text
    assert [name for name, _ in tools.ran] == ["get_chip_summary"] * 2 + ["execute_python_analysis"] * 2
    _turn(scripted_openai, tools, call("get_qubit_params", {"qid": "1"}))
    _turn(scripted_openai, tools, call("get_qubit_params", {"qid": "1"}))  # a new turn: a new ledger
    assert [name for name, _ in tools.ran][4:] == ["get_qubit_params"] * 2 and tools.began == 3
    assert cache_key("x", "{not json") is None


def test_exact_repeat_of_a_failure_is_answered_from_the_ledger(scripted_openai):
    tools = CountingTools(fail=frozenset({"get_chip_summary"}))
    _turn(scripted_openai, tools, call("get_chip_summary", {"chip_id": "64Qv3"}),
          call("get_chip_summary", {"chip_id": "64Qv3"}))
    assert len(tools.ran) == 1 and ALREADY in _tool_outputs(scripted_openai)[1]


def test_repeated_call_in_a_real_run_is_answered_from_the_ledger(scripted_openai, repo, demo_chip_ids, style):
    chip = demo_chip_ids[0]
    args = {"chip_id": chip, "metric_name": "t1"}
    spelled_out = {**args, "selection_mode": "latest"}  # the default written out: the tool's normalised arguments
    scripted_openai.push(call("generate_chip_heatmap", args),
                         calls(("generate_chip_heatmap", spelled_out), ("get_qubit_params", {"chip_id": chip, "qid": "2"})),
                         answer("Here is the T1 map.", "good"))
    result = run_copilot(AgentRequest("T1 heatmap", chip_id=chip), provider=provider_for(scripted_openai, style),
                         toolkit=Toolkit(repo, store=DataStore()), repo=repo)
    assert result.error is None
    assert [o.name for o in result.tool_calls] == ["generate_chip_heatmap", "get_qubit_params"]
    outputs = _tool_outputs(scripted_openai)
    assert ALREADY in outputs[1] and ALREADY not in outputs[2]
    charts = [b for b in result.blocks if isinstance(b, ChartBlock)]
    assert len(charts) == 1  # one heatmap in the answer, not two
