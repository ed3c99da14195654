"""The local model's tool calls under ``COPILOT_CONSTRAIN_TOOL_CALLS=on``: each one fits its tool's schema.

llama.cpp compiles the closed schemas the request carries into its call grammar, so what the 1.5B model writes must
be a call validation accepts as written (names, types, patterns, no invented keys such as ``status`` or ``tags``),
before any normalising.  One model turn per question, with the tools the router offers for it.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from copilot_core.agent import provider_from_settings
from copilot_core.llm.calls import call_model
from copilot_core.llm.conversation import ChatConversation
from copilot_core.llm.provider import make_client
from copilot_core.routing.router import offered_tools, route
from copilot_core.settings import load_settings
from copilot_core.tools import DataStore, Toolkit
from copilot_core.tools.registry import TOOLS

pytestmark = [pytest.mark.real_llm, pytest.mark.model_eval, pytest.mark.timeout(3600)]
QUESTIONS = ("What is the T1 of Q05 on chip 64Qv3?", "Which qubit has the lowest T2 echo on 64Qv3?",
             "How many qubits on 64Qv3 have T1 below 50 us?", "Show the execution history of chip 64Qv3.",
             "Which tasks failed in the latest execution of 64Qv3?", "Where does the T1 of Q12 on 64Qv3 come from?",
             "How did Q12's T1 on 64Qv3 change between the last two runs?", "Plot the T1 history of qubit 3 on 64Qv3.")
SYSTEM = "You answer lab staff's questions about superconducting-qubit calibration data. Call a tool to look data up."


def test_every_tool_call_fits_its_schema(local_llm, repo, tmp_path, capsys):
    settings = load_settings(env={**local_llm["env"], "DATA_DIR": str(tmp_path), "COPILOT_CONSTRAIN_TOOL_CALLS": "on"},
                             secrets_path=Path("/nonexistent/secrets.toml"))
    provider = provider_from_settings(settings)
    assert provider is not None and provider.constrain_tool_calls
    schemas = Toolkit(repo, store=DataStore()).schemas()
    full = {spec.name: spec.parameters for spec in TOOLS}
    calls, bad = 0, []
    for question in QUESTIONS:
        conversation = ChatConversation(make_client(provider), provider, SYSTEM, [], question)
        turn = call_model(conversation, offered_tools(schemas, route(question)), provider=provider, dropped=set())
        for made in turn.calls:
            calls += 1
            schema = full.get(made.name)
            errors = ["unknown tool"] if schema is None and made.name != "more_tools" else []
            if schema is not None:
                try:
                    errors = [e.message for e in jsonschema.Draft202012Validator(
                        {**schema, "required": [r for r in schema["required"] if r != "chip_id"]}).iter_errors(
                        json.loads(made.arguments))]
                except ValueError as exc:
                    errors = [f"not JSON: {exc}"]
            if errors:
                bad.append(f"{question!r}: {made.name}({made.arguments}) {errors}")
            with capsys.disabled():
                print(f"\n{'ok ' if not errors else 'BAD'} {made.name}({made.arguments.strip()})", flush=True)
    with capsys.disabled():
        print(f"\nconstrained tool calls: {calls - len(bad)}/{calls} fit their schema", flush=True)
    assert calls >= len(QUESTIONS) // 2, f"only {calls} tool calls for {len(QUESTIONS)} questions"
    assert not bad, bad
