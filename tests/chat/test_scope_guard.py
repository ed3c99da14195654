"""The scope guard: plainly non-lab requests are declined before any model is called; lab questions, even ones
saying "forget" or "write", still reach the model."""

from __future__ import annotations

from pathlib import Path

import pytest

from copilot_core.agent import provider_from_settings
from copilot_core.language.scope import out_of_scope
from copilot_core.chat import ChatState
from copilot_core.evals.checks import declined
from copilot_core.session import Copilot
from copilot_core.settings import load_settings
from tests.fakes.scripted_openai import ScriptedOpenAI, answer

DECLINED = [
    "Forget qubits for a moment: write me a recipe for banana bread.",
    "Tell me a joke",
    "Write a haiku about autumn",
    "What movie should I watch tonight?",
    "Write a poem about qubits",
]
SENT = [
    "Forget the previous chip: what is the T1 of Q5?",
    "Write the T1 values of qubit 5 in a table",
    "Write a short summary of the chip's health",
    "Forget my last question and show the readout fidelity heatmap",
    "Write a poem about Q5's T1",  # names a qubit and a metric: the model decides
    "What is the median T1 on 144Qv2?",
    "Which qubits failed CheckRabi today?",
    "Which qubits drifted while I was on vacation?",
    "Did the resonator frequencies move over the holiday?",
    "Bake-out done: which fidelities dropped after the cool-down?",
]


@pytest.mark.parametrize("question", DECLINED)
def test_plainly_non_lab_requests_are_out_of_scope(question):
    assert out_of_scope(question)


@pytest.mark.parametrize("question", SENT)
def test_lab_questions_are_not_out_of_scope(question):
    assert not out_of_scope(question)


@pytest.fixture
def server_and_settings():
    with ScriptedOpenAI(script=[answer("T1 of Q5 is 42 us.")]) as server:
        env = {"OPENAI_BASE_URL": server.base_url, "COPILOT_MODEL": "m", "COPILOT_MAX_RETRIES": "0",
               "COPILOT_MEMORY": "off", "COPILOT_READINESS": "off"}
        yield server, load_settings(env=env, secrets_path=Path("/nonexistent/secrets.toml"))


def test_a_recipe_request_is_declined_without_calling_the_model(server_and_settings, repo):
    server, settings = server_and_settings
    state = ChatState(username="local", provider=provider_from_settings(settings), chip_id="64Qv3")
    turn = Copilot.from_settings(settings, repo).ask(state, DECLINED[0])
    assert turn.sent and server.bodies() == []  # no model request at all
    text = state.messages[-1].text
    assert declined(text) and "T1" in text and "heatmap" in text  # says what the copilot can do
    assert [m.role for m in state.messages] == ["user", "assistant"] and turn.result.tool_calls == []


def test_a_lab_question_saying_forget_reaches_the_model(server_and_settings, repo):
    server, settings = server_and_settings
    state = ChatState(username="local", provider=provider_from_settings(settings), chip_id="64Qv3")
    Copilot.from_settings(settings, repo).ask(state, SENT[0])
    # it reached the model; the model's number came with no tool call, so the turn looked the value up instead
    assert len(server.bodies()) == 1 and "42 us" not in state.messages[-1].text
    assert [t.name for t in state.messages[-1].work.tools] == ["get_qubit_params"]
