"""The chat as a notebook: exported from a real turn (scripted model over real HTTP, demo database), then run
headless with nbclient + ipykernel against the same database; its outputs must reproduce the answer's numbers."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from copilot_core.agent import provider_from_settings
from copilot_core.chat import ChatState
from copilot_core.chat.notebook import chat_notebook
from copilot_core.data.connection import open_database
from copilot_core.data.repository import CalibrationRepository
from copilot_core.session import Copilot
from copilot_core.settings import load_settings
from tests.fakes.scripted_openai import ScriptedOpenAI, SmartRequest, answer, call

CHIP = "64Qv3"
CANARY_KEY = "sk-notebook-canary-0123456789abcdef"
CODE = ("t1 = data['t1']\n"
        "print('rows', len(t1), 'median', round(float(t1['value'].median()), 4))\n")
HOSTILE = "![x](https://evil.example/p.png) [click](https://evil.example/steal)"


def smart(req: SmartRequest):
    if len(req.tool_results) == 0:
        return call("generate_chip_heatmap", {"chip_id": CHIP, "metric_name": "t1"})
    if len(req.tool_results) == 1:
        return call("get_chip_parameter_timeseries", {"parameter_name": "t1", "chip_id": CHIP})
    if len(req.tool_results) == 2:
        return call("execute_python_analysis", {"code": CODE})
    median = json.loads(req.tool_results[0].output)["stats"]["median"]
    printed = json.loads(req.tool_results[2].output)["output"].strip()
    return answer(f"Median T1 on {CHIP} is {median} μs. The analysis printed: {printed}. {HOSTILE}")


@pytest.fixture
def exported(seeded_data_dir, tmp_path, monkeypatch):
    data_dir = tmp_path / "data"
    shutil.copytree(seeded_data_dir, data_dir)
    with ScriptedOpenAI(smart=smart) as server:
        env = {"OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": CANARY_KEY, "COPILOT_MODEL": "m",
               "COPILOT_MAX_RETRIES": "0", "COPILOT_MEMORY": "off", "COPILOT_READINESS": "off",
               "DATA_DIR": str(data_dir)}
        settings = load_settings(env=env, secrets_path=Path("/nonexistent/secrets.toml"))
        db = open_database(settings)
        try:
            copilot = Copilot.from_settings(settings, CalibrationRepository(db), memory=False)
            state = ChatState(username="local", provider=provider_from_settings(settings))
            turn = copilot.ask(state, f"Median T1 of {CHIP}, and analyse it in Python")
        finally:
            db.close()
    assert turn.answer is not None and turn.answer.error is None
    return state, settings, chat_notebook(state.messages, title=state.title, settings=settings)


def test_an_exported_notebook_runs_headless_and_reproduces_the_numbers(exported, tmp_path, monkeypatch):
    state, settings, text = exported
    assert CANARY_KEY not in text and "OPENAI_API_KEY" not in text  # no secret written
    assert "evil.example" not in text.replace("evil.example/", "")  # links and images defanged...
    nb = nbformat.reads(text, as_version=4)
    markdown = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert "](https://evil.example" not in markdown  # ...so no live link or image in any markdown cell
    answer_text = state.messages[-1].text
    median = re.search(r"Median T1 on \S+ is ([0-9.]+) μs", answer_text).group(1)
    printed = re.search(r"printed: (rows \d+ median \d+(?:\.\d+)?)", answer_text).group(1)

    monkeypatch.delenv("DATA_DIR", raising=False)  # the notebook's own settings cell points at the chat's data
    monkeypatch.setenv("CALIBRATION_COPILOT_SECRETS", str(tmp_path / "none.toml"))
    for key in ("MONGODB_URI", "OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(key, raising=False)
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()

    outputs = "\n".join(o.get("text", "") if o.get("output_type") == "stream" else json.dumps(o.get("data", {}))
                        for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))
    assert not [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
                if o.get("output_type") == "error"]
    assert re.search(rf'"median": ?{re.escape(median)}\b', outputs)  # the heatmap's statistics, fetched again
    assert printed in outputs  # the sandbox job, run verbatim again on the refetched data
    assert "application/vnd.plotly.v1+json" in outputs  # the heatmap drawn again


def test_code_shown_in_a_cell_cannot_run_outside_the_sandbox():
    from copilot_core.chat.notebook import _tool_cell

    source = _tool_cell("execute_python_analysis", {"code": "print(1)\rimport os\u2028os.system('x')\nx = 1"})
    lines = source.splitlines()
    executable = [line for line in lines if line.strip() and not line.startswith("#")]
    assert executable == [lines[-2], lines[-1]]  # only the code literal and the call to the sandbox tool
    assert lines[-2].startswith("code = ") and compile(source, "<cell>", "exec")


def test_the_cli_exports_a_saved_chat(seeded_data_dir, tmp_path, monkeypatch, capsys):
    from copilot_core.__main__ import main
    from copilot_core.agent.blocks import TextBlock
    from copilot_core.chat import ChatMessage, ShowWork
    from copilot_core.chat.showwork import ToolRecord
    from copilot_core.data.chat_sessions import ChatSessionStore

    data_dir = tmp_path / "data"
    shutil.copytree(seeded_data_dir, data_dir)
    for key in ("MONGODB_URI", "OPENAI_BASE_URL"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("DATA_DIR", str(data_dir))
    monkeypatch.setenv("OPENAI_API_KEY", CANARY_KEY)
    monkeypatch.setenv("CALIBRATION_COPILOT_SECRETS", str(tmp_path / "none.toml"))
    args = {"chip_id": CHIP, "metric_name": "t1"}
    work = ShowWork(tools=[ToolRecord("generate_chip_heatmap", args, True, "heatmap drawn")])
    messages = [ChatMessage.user("T1 heatmap please"), ChatMessage.assistant([TextBlock("Here it is.")], work=work)]
    settings = load_settings()
    db = open_database(settings)
    try:
        ChatSessionStore(db).save("alice", "1700000000000-abcdef", title="T1 chat", context={},
                                  messages=[m.to_document() for m in messages])
    finally:
        db.close()
    out = tmp_path / "chat.ipynb"
    assert main(["export", "1700000000000-abcdef", "--user", "alice", "--out", str(out)]) == 0
    assert json.loads(capsys.readouterr().out) == {"out": str(out), "messages": 2}
    text = out.read_text()
    assert CANARY_KEY not in text
    nb = nbformat.reads(text, as_version=4)
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    assert code[1] == f"outcome = run_tool('generate_chip_heatmap', json.loads({json.dumps(args)!r}))"
    assert [c.source for c in nb.cells if c.cell_type == "markdown"][1:] == ["**Question:** T1 heatmap please",
                                                                             "**Answer:**\n\nHere it is\\."]
    assert main(["export", "no-such-chat", "--user", "alice", "--out", str(out)]) == 1
