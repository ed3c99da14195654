"""A chat to take away: a runnable Jupyter notebook that does the chat's work again.

Each question and answer becomes a markdown cell (rebuilt by ``render_safety.safe_markdown``, as on the page, so
a hostile answer cannot plant a live link or image in the notebook); each tool call becomes a code cell that
fetches the same data through the project's public API (``Toolkit.execute`` on a repository opened with the same
settings) and draws the tool's charts; each sandbox job runs its code verbatim, in the sandbox, on the data the
cells above fetched.  Settings are read as the app reads them (environment, secrets file): only non-secret
connection names are written, never a key, password or URI.

Everything the model wrote reaches a code cell as a Python string literal (``repr``), and code is shown as
comments split on every line break, so nothing it wrote can run outside the sandbox.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from copilot_core.answer.blocks import AskBlock, TextBlock
from copilot_core.chat.messages import ChatMessage
from copilot_core.figures import figure_root
from copilot_core.render_safety import safe_markdown
from copilot_core.render_safety.markdown_check import loads_nothing, plain_text
from copilot_core.settings import PROJECT_ROOT, Settings
from copilot_core.tools.registry import TOOLS_BY_NAME, runs_code

_NAME = re.compile(r"[^A-Za-z0-9_]")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u2028\u2029]")


def _setup_source(settings: Settings | None) -> str:
    names = {}
    if settings is not None:  # connection names only: the URI (password) and API keys stay in the environment
        names = {"DATA_DIR": str(settings.data_dir), "MONGO_DB_NAME": settings.mongo_db_name}
        if settings.project_id:
            names["QDASH_PROJECT_ID"] = settings.project_id
        names["CALIB_DATA_DIR"] = str(figure_root(settings).root)  # the lab's fit figures, redrawn by the notebook
    lines = ["import json", "import os", "import sys", "",
             f"sys.path.insert(0, {str(PROJECT_ROOT)!r})  # the Calibration Copilot checkout this chat came from",
             "# The same connection as the app: MONGODB_URI / secrets come from your environment, never from here."]
    lines += [f"os.environ.setdefault({k!r}, {v!r})" for k, v in names.items()]
    lines += ["", "import plotly.io as pio", "from copilot_core.data.connection import open_database",
              "from copilot_core.data.repository import CalibrationRepository",
              "from copilot_core.sandbox import run_analysis", "from copilot_core.settings import load_settings",
              "from copilot_core.tools import DataStore, Toolkit",
              "from copilot_core.figures import available_root",
              "from copilot_core.checking.verify import asked_chart", "",
              "settings = load_settings()",
              "repo = CalibrationRepository(open_database(settings), project_id=settings.project_id)",
              "toolkit = Toolkit(repo, store=DataStore(), sandbox=run_analysis, figures=available_root(settings))",
              "turn = []  # this question's tool outcomes, for the chart the answer drew from them", "",
              "def run_tool(name, args):",
              "    \"\"\"One tool call as the copilot made it: what it saw, and its charts drawn.\"\"\"",
              "    toolkit.begin_request(args.get('chip_id'))",
              "    outcome = toolkit.execute(name, args)",
              "    print(outcome.model_text if outcome.ok else 'failed: ' + str(outcome.error))",
              "    for figure in outcome.charts or []:",
              "        pio.from_json(json.dumps(figure)).show()",
              "    turn.append(outcome)",
              "    return outcome", "",
              "def draw_answer_chart(question):",
              "    \"\"\"The chart the answer drew from the tool results (a plot asked for in words), drawn again.\"\"\"",
              "    drawn = [f for o in turn for f in (o.charts or [])]",
              "    for figure in asked_chart(question, turn, drawn):",
              "        pio.from_json(json.dumps(figure)).show()",
              "    turn.clear()"]
    return "\n".join(lines)


def _commented(code: str) -> str:
    """Code shown as comments: split on every line break Python or an editor knows, control characters dropped."""
    return "\n".join("# " + _CONTROL.sub(" ", line) for line in code.splitlines()) or "# (no code)"


def _tool_cell(name: str, args: dict) -> str:
    tool = _NAME.sub("", name)[:64]
    if runs_code(tool) and isinstance(args.get("code"), str):
        code = args["code"]
        rest = {k: v for k, v in args.items() if k != "code"}
        return "\n".join([f"# Sandbox job {tool}: the copilot's code, run verbatim in the sandbox:",
                          _commented(code), "",
                          f"code = {code!r}",
                          f"outcome = run_tool({tool!r}, {{**json.loads({json.dumps(rest)!r}), 'code': code}})"])
    return f"outcome = run_tool({tool!r}, json.loads({json.dumps(args, ensure_ascii=False, default=str)!r}))"


def _answer_markdown(message: ChatMessage) -> str:
    parts: list[str] = []
    for block in message.blocks:
        if isinstance(block, TextBlock) and block.text.strip():
            parts.append(safe_markdown(block.text))
        elif isinstance(block, AskBlock):
            chosen = f" You chose: {block.answer}." if block.answer else ""
            parts.append(safe_markdown(f"{block.question} Options: {', '.join(block.options)}.{chosen}"))
    if message.stopped:
        parts.append("_Stopped by the user before the answer was complete._")
    if message.unverified_numbers:
        parts.append(safe_markdown("Not found in any tool result: " + ", ".join(message.unverified_numbers)))
    return "\n\n".join(parts) or "_(no text)_"


def _markdown_cell(markdown: str) -> nbformat.NotebookNode:
    """A markdown cell whose exact text passed the same second look as an answer on the page (rendered again and
    holding nothing that loads or links); otherwise the text as a code block."""
    return new_markdown_cell(markdown if loads_nothing(markdown) else plain_text(markdown))


def notebook_filename(title: str) -> str:
    """A safe file name for the chat's notebook (the title may hold anything the user typed)."""
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", title).strip("._")[:60] or "chat"
    return f"copilot_{stem}.ipynb"


def chat_notebook(messages: Sequence[ChatMessage], *, title: str, settings: Settings | None = None) -> str:
    """The chat as ``.ipynb`` JSON text (nbformat 4)."""
    cells = [_markdown_cell(f"# {safe_markdown(title)}\n\nExported from Calibration Copilot. Run all cells to "
                            "fetch the same data again and redo each analysis."),
             new_code_cell(_setup_source(settings))]
    question = ""
    for message in messages:
        if message.role == "user":
            question = message.text
            cells.append(_markdown_cell("**Question:** " + safe_markdown(message.text)))
            continue
        work = message.work
        codes = iter(a.code for a in work.analyses) if work is not None else iter(())
        for tool in work.tools if work is not None else []:
            args = dict(tool.args)
            if runs_code(tool.name):  # the analysis record keeps the whole code (arguments are cut shorter)
                args["code"] = next(codes, args.get("code", ""))
            if tool.ok and tool.name in TOOLS_BY_NAME:
                cells.append(new_code_cell(_tool_cell(tool.name, args)))
        if work is not None and work.tools:
            cells.append(new_code_cell(f"draw_answer_chart({question!r})"))
        cells.append(_markdown_cell("**Answer:**\n\n" + _answer_markdown(message)))
    notebook = new_notebook(cells=cells, metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "language_info": {"name": "python"}})
    nbformat.validate(notebook)
    return json.dumps(notebook, ensure_ascii=False, indent=1) + "\n"
