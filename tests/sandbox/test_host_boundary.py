"""What crosses from a job to the host: valid UTF-8 (through the CLI and the chat page), no links, and
charts already checked inside the job."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from copilot_core.sandbox import run_analysis
from tests.chat.conftest import chat_app, chat_data_dir  # noqa: F401 - the chat page fixtures
from tests.fakes.scripted_openai import SmartRequest, answer, call

ROOT = Path(__file__).resolve().parents[2]
SURROGATES = "print('before \\ud800 after')\nprint('x\\udfff')\nraise ValueError('bad \\udc80 value')"


def test_lone_surrogates_reach_the_cli_as_valid_utf8(tmp_path, planted):
    code = tmp_path / "job.py"
    code.write_text(SURROGATES, encoding="utf-8")  # the escapes are ASCII in the file; the job makes the surrogates
    done = subprocess.run([sys.executable, "-m", "copilot_core", "sandbox", "--code-file", str(code)], cwd=ROOT,
                          capture_output=True, timeout=120)
    assert done.returncode == 3, done.stderr.decode("utf-8", "replace")[-2000:]
    printed = json.loads(done.stdout.decode("utf-8"))  # strict: a surrogate would not decode
    assert printed["output"] == "before \ufffd after\nx\ufffd"
    assert "ValueError: bad \ufffd value" in printed["error"]


def test_lone_surrogates_in_the_reply_object(store, planted):
    result = run_analysis(SURROGATES, store)
    for text in (result.output, result.error or ""):
        text.encode("utf-8")
    assert result.output == "before \ufffd after\nx\ufffd"


def test_links_in_output_and_errors_are_neutralised(store, planted):
    result = run_analysis("print('a //evil.example/x b http:\\\\\\\\evil.example c [t](https://e.example) "
                          "d ![i](x.png) e www.evil.example')\nraise KeyError('see //evil.example/k')", store)
    assert result.output == "a [link removed] b [link removed] c t [link removed] d i [link removed] e [link removed]"
    assert result.error is not None and "evil" not in result.error and "[link removed]" in result.error


def test_a_hostile_chart_is_rejected_inside_the_job(store, planted):
    result = run_analysis("result = {'chart': {'data': [{'type': 'scatter', 'x': [1], 'y': [1], "
                          "'hovertemplate': '<a href=\"//evil.example\">x</a>'}], 'layout': {}}}", store)
    assert result.charts == []
    assert (result.error or "").startswith("Chart rejected: ")  # the job's message; the app's would say "Chart 1 rejected"
    capped = run_analysis("result = {'chart': {'data': [{'type': 'bar', 'y': [1]}] * 1000, 'layout': {}}}", store)
    assert capped.charts == [] and capped.error == ("Chart rejected: a chart may have 200 traces, not 1000; "
                                                    "combine or aggregate them")


def _surrogate_model(req: SmartRequest):
    if not req.tool_results:
        return call("execute_python_analysis", {"code": SURROGATES.replace("raise", "print('ok')\n#")})
    return answer("Done.")


def test_lone_surrogates_on_the_chat_page(chat_app):  # noqa: F811 - the fixture imported above
    app = chat_app(_surrogate_model)
    app.run()
    at = app.ask("Run a quick analysis")
    assert not at.exception
    assistant = at.chat_message[1]
    work = [e for e in assistant.expander if e.label == "Show work"][0]
    outputs = [c.value for c in work.code]
    assert any("before \ufffd after" in o for o in outputs), outputs
    for value in outputs + [m.value for m in at.main.markdown]:
        value.encode("utf-8")
    at = app.run()  # a rerun redraws the same chat without crashing
    assert not at.exception
