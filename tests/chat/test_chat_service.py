"""One chat turn through the turn service without Streamlit: the real agent loop over real HTTP to the scripted
server, on the demo DB."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from copilot_core.agent import provider_from_settings
from copilot_core.chat import ChatState
from copilot_core.session import Copilot
from copilot_core.settings import load_settings
from tests.fakes.scripted_openai import ScriptedOpenAI, SmartRequest, answer, call

CHIP = "64Qv3"


class Recorder:
    """A TurnListener that remembers what the page would have drawn."""

    def __init__(self) -> None:
        self.events: list[tuple] = []

    def tool_call(self, name: str, args: dict) -> None:
        self.events.append(("call", name, args))

    def tool_result(self, outcome) -> None:
        self.events.append(("result", outcome.name, outcome.summary))

    def phase(self, text: str) -> None:
        self.events.append(("phase", text))

    def notice(self, text: str) -> None:
        self.events.append(("notice", text))


def smart(req: SmartRequest):
    if not req.tool_results:
        return call("get_qubit_params", {"chip_id": CHIP, "qid": "Q05"})
    json.loads(req.tool_results[-1].output)  # the result the model read is JSON
    return answer("Qubit 5 parameters: read from the tool.", "good")


@pytest.fixture
def provider():
    with ScriptedOpenAI(smart=smart) as server:
        env = {"OPENAI_BASE_URL": server.base_url, "COPILOT_MODEL": "m", "COPILOT_MAX_RETRIES": "0",
               "COPILOT_MEMORY": "off", "COPILOT_READINESS": "off"}
        settings = load_settings(env=env, secrets_path=Path("/nonexistent/secrets.toml"))  # never the real secrets
        yield server, provider_from_settings(settings), settings


def test_a_turn_reports_progress_and_records_show_work(provider, repo):
    server, config, settings = provider
    copilot = Copilot.from_settings(settings, repo)
    state = ChatState(username="local", provider=config)
    state.chip_id = CHIP
    progress = Recorder()
    result = copilot.ask(state, "What are qubit 5's parameters?", progress)
    assert result.sent and result.answer is state.messages[-1]
    calls = [e for e in progress.events if e[0] == "call"]
    results = [e for e in progress.events if e[0] == "result"]
    assert calls == [("call", "get_qubit_params", {"chip_id": CHIP, "qid": "Q05"})]
    assert results and results[0][1] == "get_qubit_params" and results[0][2]
    assert ("phase", "done") in progress.events
    work = result.answer.work
    assert [t.name for t in work.tools] == ["get_qubit_params"] and work.tools[0].args["qid"] == "5"
    assert work.usage["rounds"] == 2 and work.usage["input_tokens"] > 0
    assert result.answer.assessment == "good" and "Qubit 5 parameters" in result.answer.text

    # The second turn carries the first as history (as text, from the agent's own preparation).
    copilot.ask(state, "And qubit 5 again?")
    last = server.bodies()[-2]  # the second turn's first request
    roles = [m["role"] for m in last["messages"]]
    assert roles == ["system", "user", "assistant", "system", "user"]  # the context message sits before the question
    assert last["messages"][1]["content"] == "What are qubit 5's parameters?"
    assert "- chip_id: 64Qv3" in last["messages"][3]["content"] and last["messages"][4]["content"] == "And qubit 5 again?"


def test_an_over_long_question_is_not_sent(provider, repo):
    server, config, settings = provider
    state = ChatState(username="local", provider=config)
    result = Copilot.from_settings(settings, repo).ask(state, "q" * 2001)
    assert not result.sent and "2,000" in result.notice
    assert state.messages == [] and server.bodies() == []
