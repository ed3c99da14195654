"""Time per tool round spent outside the model, with a scripted server that answers at once.

Run: ``.venv/bin/python bench/agent_overhead.py [--requests N] [--rounds R]``.  A 64-qubit demo chip
is seeded into an in-memory embedded database; each request makes R rounds of direct tool calls
(the real Toolkit on the real repository), then a final answer.  The tracer hook measures the time
inside model calls (SDK + HTTP + the scripted server); everything else (prompt building, argument
validation, tool queries, compaction, answer parsing, sanitising) is the loop's overhead.
Target: <= 30 ms per round for direct tools.  Also printed, side by side: the same loop
with a no-op tool, which isolates the loop's own cost from the tools' database time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from copilot_core.agent import AgentRequest, ProviderConfig, run_copilot  # noqa: E402
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


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=6)
    opts = parser.parse_args()

    from copilot_core.data.connection import open_memory_database
    from copilot_core.data.repository import CalibrationRepository
    from copilot_core.demo.seed import chip_specs, seed_database
    from copilot_core.tools import DataStore, Toolkit

    t0 = time.perf_counter()
    db = open_memory_database("bench-agent-overhead")
    seed_database(db, chip_specs((64,), days=10))
    repo = CalibrationRepository(db, project_id=None)
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
