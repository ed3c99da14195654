"""Three demo-data questions through the real agent loop and tools, answered by the local 1.5B model.

What a lab user would notice: the copilot calls a tool with a sensible argument and then answers,
and a number it quotes matches the database. Assertions are loose on purpose (a small model words
things its own way); expected values and the qubits asked about are read from the demo database.

The toolkit is the readiness check's reduced set (``copilot_core.readiness.REDUCED_TOOLS``): with all
17 schemas the first prompt is ~6.5k tokens, minutes of prompt evaluation on two shared CPU cores;
the reduced set halves it. ``REAL_LLM_TOOLS=full`` runs the same questions with every tool.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest

from copilot_core.agent import AgentRequest, provider_from_settings, run_copilot
from copilot_core.domain.metrics import CATALOGUE, metric
from copilot_core.readiness import REDUCED_TOOLS
from copilot_core.settings import load_settings
from copilot_core.tools import DataStore, Toolkit

# A CPU model on a shared 2-core box needs minutes for the first (uncached) prompt.
pytestmark = [pytest.mark.real_llm, pytest.mark.timeout(1500)]

CHIP = "64Qv3"
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
TOOLS = None if os.environ.get("REAL_LLM_TOOLS") == "full" else set(REDUCED_TOOLS)


@pytest.fixture(scope="module")
def provider(local_llm):
    """Exactly what a user gets after exporting ``local_llm.py env`` (project secrets ignored)."""
    settings = load_settings(env=local_llm["env"], secrets_path=Path("/nonexistent/secrets.toml"))
    return provider_from_settings(settings)


def ask(question: str, provider, repo, local_llm):
    """Run one question; tolerate one llama.cpp 500 (an unparsable tool call) by asking again."""
    for attempt in (1, 2):
        started = time.monotonic()
        result = run_copilot(AgentRequest(message=question, chip_id=CHIP), provider=provider,
                             toolkit=Toolkit(repo, store=DataStore(), allowed=TOOLS), repo=repo)
        local_llm["report"].append({
            "question": question, "attempt": attempt, "seconds": round(time.monotonic() - started, 1),
            "rounds": result.usage.get("rounds"), "input_tokens": result.usage.get("input_tokens"),
            "output_tokens": result.usage.get("output_tokens"),
            "tools": [f"{o.name}({o.args})" + ("" if o.ok else " !") for o in result.tool_calls],
            "error": result.error})
        if not (result.error and "500" in result.error):
            break
    return result


def _qubit_with(repo, param: str | None, preferred: str) -> str:
    """``preferred`` when it has data (``param``, or any), else the lowest qid that has: dead qubits have none."""
    table = repo.all_qubit_params(CHIP)
    for qid in [preferred, *sorted(table, key=int)]:
        if table.get(qid) and (param is None or param in table[qid]):
            return qid
    pytest.fail(f"no qubit on {CHIP} has {param or 'any parameter'}")


def _calls_for(result, predicate) -> list:
    return [o for o in result.tool_calls if o.ok and predicate(o.args)]


def _names_qubit(args: dict, qid: str) -> bool:
    return str(args.get("qid")) == qid or qid in [str(q) for q in args.get("qids") or []]


def _explain(result) -> str:
    calls = "; ".join(f"{o.name}({o.args}) ok={o.ok} {o.error or ''}" for o in result.tool_calls) or "none"
    return f"tool calls: {calls}\nerror: {result.error}\nanswer: {result.answer!r}"


def test_t1_of_one_qubit_matches_the_database(local_llm, provider, repo):
    qid = _qubit_with(repo, "t1", "5")
    expected = metric("t1").to_display(repo.qubit_params(CHIP, qid)["t1"]["value"])
    result = ask(f"What is the T1 of qubit {qid} on chip {CHIP}?", provider, repo, local_llm)
    assert _calls_for(result, lambda a: _names_qubit(a, qid)), _explain(result)
    assert result.error is None and result.answer.strip(), _explain(result)
    quoted = [float(n) for n in NUMBER.findall(result.answer.replace(",", ""))]
    assert any(abs(q - expected) <= max(0.51, 0.01 * expected) for q in quoted), \
        f"expected T1 ≈ {expected:.4g} μs in the answer\n{_explain(result)}"


def test_parameters_of_one_qubit_are_listed(local_llm, provider, repo):
    qid = _qubit_with(repo, None, "3")
    params = repo.qubit_params(CHIP, qid)
    result = ask(f"List the parameters available for qubit {qid} on {CHIP}", provider, repo, local_llm)
    assert _calls_for(result, lambda a: _names_qubit(a, qid)), _explain(result)
    assert result.error is None and result.answer.strip(), _explain(result)
    text = result.answer.lower()
    spoken = {name for name in params
              if name.lower() in text or name.replace("_", " ").lower() in text
              or (name in CATALOGUE and CATALOGUE[name].title.lower() in text)}
    assert spoken, f"none of qubit {qid}'s parameters {sorted(params)} is named\n{_explain(result)}"


def test_execution_history_of_the_chip(local_llm, provider, repo):
    executions = repo.executions(CHIP, limit=10)
    assert executions, "the demo chip has no executions to talk about"
    result = ask(f"Show the execution history of chip {CHIP}", provider, repo, local_llm)
    history_calls = [o for o in _calls_for(result, lambda a: a.get("chip_id", CHIP) == CHIP)
                     if o.name == "get_execution_history"]
    assert history_calls, _explain(result)
    assert result.error is None and result.answer.strip(), _explain(result)
