"""Per-request tool cache: the same tool with the same arguments runs once; failures, the sandbox and new
requests are not served from the cache; a cached heatmap does not add its chart twice."""

from __future__ import annotations

import json

from copilot_core.agent import AgentRequest, run_copilot
from copilot_core.agent.blocks import ChartBlock
from copilot_core.cache import CachingToolkit, cache_key
from copilot_core.tools import DataStore, Toolkit
from copilot_core.tools.toolkit import ToolOutcome
from tests.depth.conftest import provider_for
from tests.fakes.scripted_openai import answer, call, calls


class CountingTools:
    """A tool layer that counts how often each call really ran (the cache's only collaborator)."""

    def __init__(self, fail: set[str] = frozenset()):
        self.ran: list[tuple[str, str]] = []
        self.fail = fail
        self.began = 0

    def schemas(self):
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


def test_same_call_runs_once_per_request():
    inner = CountingTools()
    tools = CachingToolkit(inner)
    tools.begin_request()
    first = tools.execute("get_qubit_params", '{"chip_id": "64Qv3", "qid": "5"}')
    again = tools.execute("get_qubit_params", {"qid": "5", "chip_id": "64Qv3"})  # other order, dict form
    assert len(inner.ran) == 1 and tools.hits == 1
    assert again.model_text == first.model_text and again.summary.endswith("(cached)")
    assert again.charts == [] and first.charts  # the chart is appended to the answer once


def test_normalised_arguments_hit_too():
    inner = CountingTools()
    tools = CachingToolkit(inner)
    tools.execute("get_qubit_params", {"chip_id": "64Qv3", "qid": "Q05"})
    tools.execute("get_qubit_params", {"chip_id": "64Qv3", "qid": "5"})
    assert len(inner.ran) == 1


def test_new_request_failures_and_sandbox_are_not_cached():
    inner = CountingTools(fail={"get_chip_summary"})
    tools = CachingToolkit(inner)
    tools.begin_request()
    tools.execute("get_qubit_params", {"qid": "1"})
    tools.begin_request()
    tools.execute("get_qubit_params", {"qid": "1"})
    tools.execute("get_chip_summary", {"chip_id": "64Qv3"})
    tools.execute("get_chip_summary", {"chip_id": "64Qv3"})
    tools.execute("execute_python_analysis", {"code": "print(1)"})
    tools.execute("execute_python_analysis", {"code": "print(1)"})
    assert len(inner.ran) == 6 and tools.hits == 0 and inner.began == 2
    assert cache_key("x", "{not json") is None


def test_repeated_call_in_a_real_run_hits_the_cache(scripted_openai, repo, demo_chip_ids, style):
    chip = demo_chip_ids[0]
    args = {"chip_id": chip, "metric_name": "t1"}
    # The repeat is spelled as the tool normalises it (the default selection mode written out): the loop sees a
    # new call, the cache sees the same one.
    spelled_out = {**args, "selection_mode": "latest"}
    scripted_openai.push(call("generate_chip_heatmap", args),
                         calls(("generate_chip_heatmap", spelled_out), ("get_qubit_params", {"chip_id": chip, "qid": "2"})),
                         answer("Here is the T1 map.", "good"))
    tools = CachingToolkit(Toolkit(repo, store=DataStore()))
    result = run_copilot(AgentRequest("T1 heatmap", chip_id=chip), provider=provider_for(scripted_openai, style),
                         toolkit=tools, repo=repo)
    assert result.error is None
    assert [o.name for o in result.tool_calls] == ["generate_chip_heatmap", "generate_chip_heatmap",
                                                   "get_qubit_params"]
    assert tools.hits == 1 and tools.misses == 2
    assert result.tool_calls[1].summary.endswith("(cached)")
    assert result.tool_calls[0].model_text == result.tool_calls[1].model_text
    charts = [b for b in result.blocks if isinstance(b, ChartBlock)]
    assert len(charts) == 1  # one heatmap in the answer, not two
