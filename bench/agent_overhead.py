"""Time per tool round spent outside the model, with a scripted server that answers at once.

Run: ``.venv/bin/python bench/agent_overhead.py [--requests N] [--rounds R]``.  A 64-qubit demo chip
is seeded into an in-memory embedded database; each request makes R rounds of direct tool calls
(the real Toolkit on the real repository), then a final answer.  The tracer hook measures the time
inside model calls (SDK + HTTP + the scripted server); everything else (prompt building, argument
validation, tool queries, compaction, answer parsing, sanitising) is the loop's overhead.
Target: <= 30 ms per round for direct tools.  Also printed, side by side: the same loop
with a no-op tool, which isolates the loop's own cost from the tools' database time.

Second table, prompt cache per round: one question that runs until the round limit forces the final answer,
read from the server's usage fields (cached = prompt tokens the server reused from its cache).  Side by side:
*before* (the final call drops the tools, as the loop used to), *after* (the final call keeps them with
``tool_choice="none"``) and *after + router* (the routed tools only).  The scripted server's cache is a one-slot
longest-common-prefix cache like llama.cpp's, in estimated tokens.  ``--url http://127.0.0.1:8089/v1`` runs the
same comparison against a real server (``scripts/local_llm.py serve``) with its own figures; the model then
decides the rounds, so ``--question`` picks what it is asked.  ``--url ... --quick`` checks only the final call
on that server, with the routed tools and a short system prompt: a tool round, then the forced answer once with
the tools kept (``tool_choice="none"``) and once with them dropped, each after the same first request; it prints
the server's own cached / processed prompt tokens (llama.cpp: ``timings.cache_n`` / ``timings.prompt_n``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from copilot_core.agent import AgentRequest, ProviderConfig, run_copilot  # noqa: E402
from copilot_core.llm import models as agent_models  # noqa: E402
from copilot_core.tools import ToolOutcome  # noqa: E402
from tests.fakes.scripted_openai import ScriptedOpenAI, tools_then_answer  # noqa: E402

TARGET_MS = 30.0
CHIP = "64Qv3"
DIRECT_CALLS = [
    ("get_qubit_params", {"chip_id": CHIP, "qid": "5"}),
    ("compare_qubits", {"chip_id": CHIP, "qids": ["1", "2", "3", "4"]}),
    ("get_coupling_params", {"chip_id": CHIP, "qubit_id": "5"}),
    ("get_task_history", {"chip_id": CHIP, "qid": "5", "task_name": "CheckT1", "last_n": 5}),
    ("get_parameter_timeseries", {"chip_id": CHIP, "qid": "5", "parameter_name": "t1", "last_n": 10}),
    ("get_execution_history", {"chip_id": CHIP, "last_n": 5}),
]


class TimingTracer:
    """Sums the time spent inside ``llm.call`` spans."""

    def __init__(self) -> None:
        self.model_s = 0.0

    @contextmanager
    def span(self, name: str, **attrs: Any):
        start = time.perf_counter()
        try:
            yield None
        finally:
            if name == "llm.call":
                self.model_s += time.perf_counter() - start

    def record_usage(self, input_tokens: int, output_tokens: int, model: str) -> None:
        return None


class NoopToolkit:
    """A tool layer that does nothing: isolates the loop's own per-round cost."""

    def schemas(self) -> list[dict]:
        return [{"name": n, "description": n, "parameters": {"type": "object"}} for n, _ in DIRECT_CALLS]

    def begin_request(self) -> None:
        return None

    def execute(self, name: str, raw_args: Any) -> ToolOutcome:
        return ToolOutcome(name, {}, True, '{"ok":true}', name)


def smart(rounds: int):
    plan = [DIRECT_CALLS[i % len(DIRECT_CALLS)] for i in range(rounds)]
    return tools_then_answer(plan, lambda results: f"Done after {len(results)} tool results.", "good")


def measure(server: ScriptedOpenAI, style: str, toolkit: Any, repo: Any, requests: int, rounds: int) -> dict:
    provider = ProviderConfig(api_key="bench", base_url=server.base_url, model="bench", api_style=style,
                              max_retries=0, timeout_s=30)
    per_round_ms, model_ms = [], []
    for _ in range(requests):
        tracer = TimingTracer()
        started = time.perf_counter()
        result = run_copilot(AgentRequest("bench", chip_id=CHIP), provider=provider, toolkit=toolkit, repo=repo,
                             tracer=tracer)
        total = time.perf_counter() - started
        assert result.error is None and len(result.tool_calls) == rounds, result.error
        per_round_ms.append((total - tracer.model_s) / (rounds + 1) * 1000)
        model_ms.append(tracer.model_s / (rounds + 1) * 1000)
    return {"p50": statistics.median(per_round_ms), "max": max(per_round_ms), "model": statistics.median(model_ms)}


def until_forced(request: Any) -> Any:
    """A model that calls a new tool every round it may (the round limit then forces the final answer)."""
    from tests.fakes.scripted_openai import answer, call

    if not request.has_tools:
        return answer(f"Done after {len(request.tool_results)} tool results.", "good")
    name, args = DIRECT_CALLS[(request.round - 1) % len(DIRECT_CALLS)]
    return call(name, {**args, "chip_id": CHIP} | ({"qid": str(request.round)} if "qid" in args else {}))


@contextmanager
def final_call_drops_tools():
    """The loop as it was: the forced final call sends no tools (so the prompt prefix changes)."""
    keep = agent_models._choice

    def drop(tools: Any, tool_choice: Any, dropped: Any) -> tuple[Any, dict]:
        return (None, {}) if tool_choice == "none" else (tools, {})

    agent_models._choice = drop  # type: ignore[assignment]
    try:
        yield
    finally:
        agent_models._choice = keep  # type: ignore[assignment]


def cache_rounds(provider: ProviderConfig, repo: Any, question: str) -> dict[str, Any]:
    """Per-round prompt and cached tokens for before / after / after + router."""
    from copilot_core.tools import DataStore, Toolkit

    runs: dict[str, Any] = {}
    for label, router, before in (("before", False, True), ("after", False, False), ("after+router", True, False)):
        started = time.perf_counter()
        if before:
            with final_call_drops_tools():
                result = run_copilot(AgentRequest(question, chip_id=CHIP), provider=provider,
                                     toolkit=Toolkit(repo, store=DataStore()), repo=repo)
        else:
            result = run_copilot(AgentRequest(question, chip_id=CHIP), provider=provider,
                                 toolkit=Toolkit(repo, store=DataStore()), repo=repo, router=router)
        if result.error:
            print(f"{label}: {result.error}")
        runs[label] = (result, time.perf_counter() - started)
    return runs


def quick_final_call(url: str, model: str) -> None:
    """The final call on a real server: prompt tokens it reused vs processed, tools kept vs dropped."""
    import openai

    from copilot_core.routing.router import offered_tools, route
    from copilot_core.tools.registry import TOOLS

    client = openai.OpenAI(api_key="local", base_url=url, timeout=1800)
    schemas = offered_tools([s.schema() for s in TOOLS], route("What is the median T1 on 64Qv3?"))
    tools = [{"type": "function", "function": {"name": t["name"], "description": t["description"],
                                               "parameters": t["parameters"]}} for t in schemas]
    first = [{"role": "system", "content": "You answer questions about a quantum chip's calibration with tools."},
             {"role": "user", "content": "What is the median T1 on 64Qv3?"}]
    final = first + [{"role": "assistant", "content": None, "tool_calls": [{"id": "call_1", "type": "function",
                      "function": {"name": "get_chip_summary", "arguments": json.dumps({"chip_id": CHIP})}}]},
                     {"role": "tool", "tool_call_id": "call_1", "content": json.dumps({"t1_median_us": 48.2})},
                     {"role": "user", "content": "Answer now from the results you have."}]

    def send(messages: list[dict], **kwargs: Any) -> tuple[int, int, int, float]:
        started = time.perf_counter()
        reply = client.chat.completions.create(model=model, messages=messages, max_tokens=24, temperature=0,
                                               **kwargs)
        timings = (reply.model_extra or {}).get("timings") or {}
        usage = reply.usage
        return (usage.prompt_tokens if usage else 0, int(timings.get("cache_n") or 0),
                int(timings.get("prompt_n") or 0), time.perf_counter() - started)

    print(f"final call on {url} ({model}); {len(tools)} routed tool schemas")
    print(f"{'final call':<34}{'prompt':>9}{'cached':>9}{'processed':>11}{'seconds':>10}")
    for label, kwargs in (("tools kept, tool_choice=none", {"tools": tools, "tool_choice": "none"}),
                          ("tools dropped (before)", {})):
        send(first, tools=tools)  # the tool round: the slot now holds this prompt
        prompt, cached, processed, seconds = send(final, **kwargs)
        print(f"{label:<34}{prompt:>9,}{cached:>9,}{processed:>11,}{seconds:>10.1f}")


def print_cache_rounds(runs: dict[str, Any]) -> None:
    labels = list(runs)
    print(f"{'round':<7}" + "".join(f"{label + ' prompt/cached':>28}" for label in labels))
    depth = max(len(r.rounds) for r, _ in runs.values())
    for i in range(depth):
        cells = []
        for result, _ in runs.values():
            if i < len(result.rounds):
                r = result.rounds[i]
                mark = " F" if r["final"] else "  "
                cells.append(f"{r['input_tokens']:>13,} / {r['cached_tokens']:>8,}{mark}")
            else:
                cells.append(" " * 28)
        print(f"{i + 1:<7}" + "".join(f"{c:>28}" for c in cells))
    print(f"{'total':<7}" + "".join(f"{r.usage['input_tokens']:>13,} / {r.usage['cached_tokens']:>8,}  "
                                     for r, _ in runs.values()))
    print(f"{'uncached':<7}" + "".join(f"{r.usage['input_tokens'] - r.usage['cached_tokens']:>25,}   "
                                       for r, _ in runs.values()))
    print(f"{'seconds':<7}" + "".join(f"{s:>25.1f}   " for _, s in runs.values()))
    base = runs[labels[0]][0].usage
    for label in labels[1:]:
        usage = runs[label][0].usage
        ratio = (base["input_tokens"] - base["cached_tokens"]) / max(1, usage["input_tokens"] - usage["cached_tokens"])
        print(f"uncached prompt tokens, before / {label}: {ratio:.2f}x")
    print("(F = the forced final answer call; prompt = the server's prompt_tokens / input_tokens)")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--url", help="a real OpenAI-compatible server (e.g. llama.cpp): prompt cache figures only")
    parser.add_argument("--model", default="qwen2.5-coder-1.5b-instruct")
    parser.add_argument("--question", default="How is Q5 doing? Use the tools, then answer.")
    parser.add_argument("--quick", action="store_true", help="with --url: only the final-call cache check")
    opts = parser.parse_args()

    if opts.url and opts.quick:
        quick_final_call(opts.url, opts.model)
        return 0
    from copilot_core.data.connection import open_memory_database
    from copilot_core.data.repository import CalibrationRepository
    from copilot_core.demo.seed import chip_specs, seed_database
    from copilot_core.tools import DataStore, Toolkit

    t0 = time.perf_counter()
    db = open_memory_database("bench-agent-overhead")
    seed_database(db, chip_specs((64,), days=10))
    repo = CalibrationRepository(db, project_id=None)
    if opts.url:
        provider = ProviderConfig(api_key="local", base_url=opts.url, model=opts.model, api_style="chat_completions",
                                  max_retries=0, timeout_s=900, temperature=0.0, max_output_tokens=512)
        print(f"prompt cache per round on {opts.url} ({opts.model}), question: {opts.question!r}")
        print_cache_rounds(cache_rounds(provider, repo, opts.question))
        return 0
    print(f"seeded 64-qubit demo chip in {time.perf_counter() - t0:.1f} s; "
          f"{opts.requests} requests x {opts.rounds} tool rounds + 1 final answer each")
    print(f"{'api':<18}{'toolkit':<14}{'outside model p50':>20}{'max':>10}{'in model p50':>15}{'vs target':>12}")
    with ScriptedOpenAI(smart=smart(opts.rounds)) as server:
        for style in ("responses", "chat_completions"):
            for label, toolkit in (("real tools", Toolkit(repo, store=DataStore())), ("no-op tools", NoopToolkit())):
                measure(server, style, toolkit, repo, 1, opts.rounds)  # warm caches and connections
                m = measure(server, style, toolkit, repo, opts.requests, opts.rounds)
                print(f"{style:<18}{label:<14}{m['p50']:>17.1f} ms{m['max']:>7.1f} ms{m['model']:>12.1f} ms"
                      f"{m['p50'] / TARGET_MS:>11.2f}x")
    print(f"target: <= {TARGET_MS:.0f} ms per round outside the model for direct tools (ratio <= 1.00x)")
    with ScriptedOpenAI(smart=until_forced) as server:
        for style in ("chat_completions", "responses"):
            print(f"\nprompt cache per round, scripted server ({style}), question: {opts.question!r}")
            provider = ProviderConfig(api_key="bench", base_url=server.base_url, model="bench", api_style=style,
                                      max_retries=0, timeout_s=30)
            print_cache_rounds(cache_rounds(provider, repo, opts.question))
    return 0


if __name__ == "__main__":
    sys.exit(main())
