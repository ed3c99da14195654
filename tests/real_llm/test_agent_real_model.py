"""Three demo-data questions through the real agent loop and tools, answered by the local 1.5B model.

What a lab user would notice: the copilot calls a tool with a sensible argument and then answers,
and a number it quotes matches the database. Assertions are loose on purpose (a small model words
things its own way); expected values are read from the demo database, never written here.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from copilot_core.agent import AgentRequest, provider_from_settings, run_copilot
from copilot_core.domain.metrics import CATALOGUE, metric
from copilot_core.settings import load_settings
from copilot_core.tools import DataStore, Toolkit

pytestmark = pytest.mark.real_llm

CHIP = "64Qv3"
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


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
                             toolkit=Toolkit(repo, store=DataStore()), repo=repo)
        local_llm["report"].append({
            "question": question, "attempt": attempt, "seconds": round(time.monotonic() - started, 1),
            "rounds": result.usage.get("rounds"), "input_tokens": result.usage.get("input_tokens"),
            "output_tokens": result.usage.get("output_tokens"),
            "tools": [f"{o.name}({o.args})" + ("" if o.ok else " !") for o in result.tool_calls],
            "error": result.error})
        if not (result.error and "500" in result.error):
            break
    return result


def _calls_for(result, predicate) -> list:
    return [o for o in result.tool_calls if o.ok and predicate(o.args)]


def _names_qubit(args: dict, qid: str) -> bool:
    return str(args.get("qid")) == qid or qid in [str(q) for q in args.get("qids") or []]


def _explain(result) -> str:
    calls = "; ".join(f"{o.name}({o.args}) ok={o.ok} {o.error or ''}" for o in result.tool_calls) or "none"
    return f"tool calls: {calls}\nerror: {result.error}\nanswer: {result.answer!r}"


def test_t1_of_one_qubit_matches_the_database(local_llm, provider, repo):
    raw = repo.qubit_params(CHIP, "5")["t1"]["value"]
    expected = metric("t1").to_display(raw)
    result = ask(f"What is the T1 of qubit 5 on chip {CHIP}?", provider, repo, local_llm)
    assert _calls_for(result, lambda a: _names_qubit(a, "5")), _explain(result)
    assert result.error is None and result.answer.strip(), _explain(result)
    quoted = [float(n) for n in NUMBER.findall(result.answer.replace(",", ""))]
    assert any(abs(q - expected) <= max(0.51, 0.01 * expected) for q in quoted), \
        f"expected T1 ≈ {expected:.4g} μs in the answer\n{_explain(result)}"


def test_parameters_of_one_qubit_are_listed(local_llm, provider, repo):
    params = repo.qubit_params(CHIP, "3")
    result = ask(f"List the parameters available for qubit 3 on {CHIP}", provider, repo, local_llm)
    assert _calls_for(result, lambda a: _names_qubit(a, "3")), _explain(result)
    assert result.error is None and result.answer.strip(), _explain(result)
    text = result.answer.lower()
    spoken = {name for name in params
              if name.lower() in text or name.replace("_", " ").lower() in text
              or (name in CATALOGUE and CATALOGUE[name].title.lower() in text)}
    assert spoken, f"none of qubit 3's parameters {sorted(params)} is named\n{_explain(result)}"


def test_execution_history_of_the_chip(local_llm, provider, repo):
    executions = repo.executions(CHIP, limit=10)
    assert executions, "the demo chip has no executions to talk about"
    result = ask(f"Show the execution history of chip {CHIP}", provider, repo, local_llm)
    assert _calls_for(result, lambda a: a.get("chip_id") in (CHIP, None)), _explain(result)
    assert any("execution" in o.name for o in result.tool_calls if o.ok), _explain(result)
    assert result.error is None and result.answer.strip(), _explain(result)
