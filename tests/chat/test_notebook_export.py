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
    from copilot_core.answer.blocks import TextBlock
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


FIGURE_CHIP, FIGURE_QID = "144Qv2", "17"


def figure_smart(req: SmartRequest):
    if not req.tool_results:
        return call("get_task_figure", {"chip_id": FIGURE_CHIP, "qid": FIGURE_QID, "parameter_name": "t1"})
    return answer("**The T1 fit** of Q017 is shown _below_.")


def test_a_notebook_redraws_the_fit_figure_and_the_html_renders_markdown(seeded_data_dir, tmp_path, monkeypatch):
    """The chat showed a lab fit figure (``get_task_figure``): the notebook draws the same figure again, and the HTML
    export shows the answer's markdown rendered (bold and emphasis as tags, no literal asterisks)."""
    from copilot_core.chat.html_export import chat_html
    from copilot_core.demo.figures import write_demo_figures
    from copilot_core.figures import FigureRoot

    data_dir = tmp_path / "data"
    shutil.copytree(seeded_data_dir, data_dir)
    with ScriptedOpenAI(smart=figure_smart) as server:
        env = {"OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": CANARY_KEY, "COPILOT_MODEL": "m",
               "COPILOT_MAX_RETRIES": "0", "COPILOT_MEMORY": "off", "COPILOT_READINESS": "off",
               "DATA_DIR": str(data_dir)}
        settings = load_settings(env=env, secrets_path=Path("/nonexistent/secrets.toml"))
        db = open_database(settings)
        try:
            rows = list(db["task_result_history"].find({"chip_id": FIGURE_CHIP, "qid": FIGURE_QID}, {"_id": 0}))
            assert write_demo_figures(rows, FigureRoot(data_dir / "calib_data")) > 0
            copilot = Copilot.from_settings(settings, CalibrationRepository(db), memory=False)
            state = ChatState(username="local", provider=provider_from_settings(settings))
            turn = copilot.ask(state, f"Show the T1 fit figure of Q017 on {FIGURE_CHIP}")
        finally:
            db.close()
    assert turn.answer is not None and turn.answer.error is None
    shown = [json.dumps(c, sort_keys=True) for c in turn.answer.charts()]
    assert shown, "the chat drew the fit figure"

    page = chat_html(state.messages, title=state.title)
    assert "<strong>The T1 fit</strong>" in page and "<em>below</em>" in page and "**The T1 fit**" not in page

    nb = nbformat.reads(chat_notebook(state.messages, title=state.title, settings=settings), as_version=4)
    monkeypatch.delenv("DATA_DIR", raising=False)
    monkeypatch.setenv("CALIBRATION_COPILOT_SECRETS", str(tmp_path / "none.toml"))
    for key in ("MONGODB_URI", "OPENAI_API_KEY", "OPENAI_BASE_URL", "CALIB_DATA_DIR"):
        monkeypatch.delenv(key, raising=False)
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    redrawn = [o["data"]["application/vnd.plotly.v1+json"] for o in outputs
               if "application/vnd.plotly.v1+json" in o.get("data", {})]
    # the same traces as the chat drew (the figure file read again through the same tool)
    assert redrawn and redrawn[0]["data"]
    assert [t.get("y") for t in redrawn[0]["data"]] == [t.get("y") for t in turn.answer.charts()[0]["data"]]


def test_every_exported_markdown_passes_the_second_look():
    """A notebook cell is kept as markdown only when its exact text renders to nothing that loads or links; an HTML
    answer only when its rendered markdown passes the same look; hostile answers stay inert either way."""
    from copilot_core.answer.blocks import TextBlock
    from copilot_core.chat import ChatMessage
    from copilot_core.chat.html_export import chat_html
    from copilot_core.chat.notebook import _markdown_cell
    from copilot_core.render_safety.markdown_check import loads_nothing

    assert _markdown_cell("**bold** answer").source == "**bold** answer"
    kept = _markdown_cell("see https://evil.example/x and <img src=x>").source
    assert kept.startswith("```") and loads_nothing(kept)
    hostile = [ChatMessage.user("q"), ChatMessage.assistant([TextBlock(
        f"{HOSTILE} <script>alert(1)</script> www.evil.example mail@evil.example **fine**")])]
    body = chat_html(hostile, title="t").split("<body>", 1)[1]  # the head holds plotly.js, written by us
    assert "<strong>fine</strong>" in body
    assert "<script>alert" not in body and "<img" not in body and "href=" not in body
    assert "evil.example" not in re.sub(r"<code>[^<]*</code>", "", body)  # every address shown as code, never live
    nb = nbformat.reads(chat_notebook(hostile, title="t"), as_version=4)
    assert all(loads_nothing(c.source) for c in nb.cells if c.cell_type == "markdown")
