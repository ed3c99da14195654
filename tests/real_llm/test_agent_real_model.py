"""Three demo-data questions through the turn service, answered by the local 1.5B model as the chat page gets them.

What a lab user would notice: the copilot calls a tool with a sensible argument and then answers,
and a number it quotes matches the database. Assertions are loose on purpose (a small model words
things its own way); expected values and the qubits asked about are read from the demo database.

The turn runs as the app runs it for this model: the readiness check gives it the reduced tool set
(``copilot_core.readiness.REDUCED_TOOLS``) and ``COPILOT_TOOL_ROUTER=auto`` turns the router and its prefetch on.
``REAL_LLM_ROUTER=off`` runs the same questions with the model choosing every call itself.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest

from copilot_core.agent import provider_from_settings
from copilot_core.chat import ChatState
from copilot_core.domain.metrics import CATALOGUE, metric
from copilot_core.session import Copilot
from copilot_core.settings import load_settings

# A CPU model on a shared 2-core box needs minutes for the first (uncached) prompt.
pytestmark = [pytest.mark.real_llm, pytest.mark.timeout(1500)]

CHIP = "64Qv3"
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


@pytest.fixture(scope="module")
def provider(local_llm, repo, tmp_path_factory):
    """Exactly what a user gets after exporting ``local_llm.py env`` (project secrets ignored; memory off so the
    questions do not see each other): the provider and the turn service the chat page uses."""
    env = {**local_llm["env"], "DATA_DIR": str(tmp_path_factory.mktemp("data")), "COPILOT_MEMORY": "off",
           "COPILOT_TOOL_ROUTER": os.environ.get("REAL_LLM_ROUTER", "auto")}
    settings = load_settings(env=env, secrets_path=Path("/nonexistent/secrets.toml"))
    return provider_from_settings(settings), Copilot.from_settings(settings, repo, memory=False, gate=True)


def ask(question: str, provider, repo, local_llm):
    """Run one question in a fresh chat; tolerate one llama.cpp 500 (an unparsable tool call) by asking again."""
    config, copilot = provider
    for attempt in (1, 2):
        started = time.monotonic()
        turn = copilot.ask(ChatState(username="real-llm", provider=config, chip_id=CHIP), question)
        assert turn.result is not None, f"the question was not sent: {turn.notice}"
        result = turn.result
        local_llm["report"].append({
            "question": question, "attempt": attempt, "seconds": round(time.monotonic() - started, 1),
            "rounds": result.usage.get("rounds"), "input_tokens": result.usage.get("input_tokens"),
            "output_tokens": result.usage.get("output_tokens"),
            "tools": [f"{o.name}({o.args})" + ("*" if o.origin == "router" else "") + ("" if o.ok else " !")
                      for o in result.tool_calls],
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
    completed = sum(e["status"] == "completed" for e in executions)
    named = [e["execution_id"] for e in executions if e["execution_id"] in result.answer]
    counted = str(completed) in NUMBER.findall(result.answer) and "complet" in result.answer.lower()
    assert named or counted, (f"the answer names none of the latest runs {[e['execution_id'] for e in executions]} "
                              f"and not the {completed} completed ones\n{_explain(result)}")
