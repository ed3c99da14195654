"""The chat input's stop button, and streamed answers, on the Copilot page in AppTest.

The model is the scripted OpenAI-compatible server (real HTTP, real SDK); a paused step is a slow model that waits on
an event.  The stop is Streamlit's own stop request to the script runner (what the stop button sends), made when
the slow model or the sandbox job is known to be running.
"""

from __future__ import annotations

import threading

import pytest
import streamlit.testing.v1.app_test as app_test_module
from streamlit.testing.v1.local_script_runner import LocalScriptRunner

from copilot_core.chat import ChatState
from copilot_core.sandbox.host import worker_status
from tests.fakes.scripted_openai import SmartRequest, answer, call, paused
from tests.render_safety.checks import readable
from ui.chat_render import STOPPED_NOTE

CHIP = "64Qv3"
SLOW_ANSWER = "The median T1 on 64Qv3 is being computed and this sentence never ends here"
LOOP = "n = 0\nwhile True:\n    n += 1\n"


@pytest.fixture
def runners(monkeypatch) -> list[LocalScriptRunner]:
    """The script runners AppTest starts, so a test can send the stop request the stop button sends."""
    started: list[LocalScriptRunner] = []

    class Recorded(LocalScriptRunner):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            started.append(self)

    monkeypatch.setattr(app_test_module, "LocalScriptRunner", Recorded)
    return started


def run_in_background(app) -> threading.Thread:
    thread = threading.Thread(target=app.run, name="apptest-run")
    thread.start()
    return thread


def saved_messages(app) -> list[dict]:
    state: ChatState = app.at.session_state["copilot_chat"]
    doc = app.sessions().get(app.username, state.session_id)
    return doc["messages"] if doc else []


def test_stop_during_a_slow_answer_keeps_what_was_shown_saves_and_the_chat_goes_on(chat_app, runners):
    slow, pause = paused(answer(SLOW_ANSWER), after=10)
    turns = {"first": True}

    def smart(req: SmartRequest):
        if "second question" in req.user_text:
            return answer("The second answer arrived in full.")
        if not req.tool_results:
            return call("generate_chip_heatmap", {"chip_id": CHIP, "metric_name": "t1"})
        if turns["first"]:
            turns["first"] = False
            return slow
        return answer("unexpected extra round")

    app = chat_app(smart)
    app.run()
    app.at.chat_input(key="copilot_input").set_value(f"What is the median T1 on {CHIP}?")
    thread = run_in_background(app)
    assert pause.reached.wait(120), "the slow answer never started"
    runners[-1].request_stop()  # what the chat input's stop button sends
    thread.join(120)
    assert not thread.is_alive(), "the page run did not end after the stop"
    assert pause.hung_up.wait(60), "the model's stream was not closed by the stop"

    # saved: the question and the stopped answer, which keeps the tool result shown before the stop
    messages = saved_messages(app)
    assert [m["role"] for m in messages] == ["user", "assistant"]
    assert '"stopped": true' in messages[1]["content"]
    assert f"t1 on {CHIP}" in messages[1]["content"]
    assert "never ends here" not in messages[1]["content"]  # nothing after the stop was taken in

    # the next page run shows it marked stopped, and the chat input takes the next question
    at = app.run()
    assert not at.exception
    assert len(at.chat_message) == 2
    assert any(STOPPED_NOTE in readable(c.value) for c in at.chat_message[1].caption)
    at = app.ask("And a second question, please")
    assert not at.exception
    assert len(at.chat_message) == 4
    assert any("The second answer arrived in full." in readable(m.value) for m in at.chat_message[3].markdown)
    assert len(saved_messages(app)) == 4


def test_stop_kills_a_running_sandbox_job(chat_app, runners):
    def smart(req: SmartRequest):
        if not req.tool_results:
            return call("get_chip_parameter_timeseries", {"parameter_name": "t1", "chip_id": CHIP})
        if len(req.tool_results) == 1:
            return call("execute_python_analysis", {"code": LOOP})
        return answer("unexpected: the loop returned")

    app = chat_app(smart)
    app.run()
    worker_status()  # the sandbox worker is up before the turn starts
    app.at.chat_input(key="copilot_input").set_value(f"Loop over T1 on {CHIP} forever")
    thread = run_in_background(app)
    while worker_status()["running"] == 0:  # a condition on the worker's job table, not a clock
        assert thread.is_alive(), "the turn ended before its sandbox job started"
    runners[-1].request_stop()
    thread.join(120)
    assert not thread.is_alive()
    assert worker_status()["running"] == 0  # the looping job is gone, long before its time limit
    messages = saved_messages(app)
    assert [m["role"] for m in messages] == ["user", "assistant"]
    assert "Stopped by the user: the analysis job was killed." in messages[1]["content"]
    assert '"stopped": true' in messages[1]["content"]
