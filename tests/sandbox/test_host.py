"""The app-facing contract: threads, restarts, bad input, output caps, the CLI and figure validation."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from copilot_core.render_safety import UnsafeFigure, validate_figure
from copilot_core.sandbox import run_analysis, sandbox_status
from copilot_core.sandbox.cli import main as cli_main
from tests.render_safety.corpus import PIXEL
from tests.sandbox.processes import kill_and_wait


def test_concurrent_jobs_from_non_main_threads(store, planted):
    results: dict[int, object] = {}

    def job(i: int) -> None:
        results[i] = run_analysis(f"result = {{'output': str({i} * int(data['t1']['qid'].nunique()))}}", store)

    threads = [threading.Thread(target=job, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    n = store["t1"]["qid"].nunique()
    assert {i: (r.error, r.output) for i, r in results.items()} == {i: (None, str(i * n)) for i in range(6)}


def test_worker_restarts_after_it_dies(store, planted):
    status = sandbox_status()
    assert status["alive"] and status["pid"]
    kill_and_wait([status["pid"]])  # the worker this test session started; gone before the next job, not during it
    result = run_analysis("print('back')", store)
    assert result.error is None and result.output == "back"
    after = sandbox_status()
    assert after["alive"] and after["pid"] != status["pid"] and after["restarts"] == status["restarts"] + 1


def test_worker_has_a_clean_environment_and_an_empty_cwd(planted):
    pid = sandbox_status()["pid"]
    environ = Path(f"/proc/{pid}/environ").read_bytes()  # readable by the user who started it (this test)
    assert planted.token.encode() not in environ
    keys = {item.split(b"=", 1)[0].decode() for item in environ.split(b"\0") if item}
    assert keys <= {"PATH", "LANG", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "MALLOC_PERTURB_"}
    assert b"MALLOC_PERTURB_=165" in environ.split(b"\0")  # freed memory is overwritten before reuse
    cwd = Path(os.readlink(f"/proc/{pid}/cwd"))
    assert cwd.is_dir() and list(cwd.iterdir()) == [] and cwd != Path.cwd()


def test_printed_name_and_functions_share_one_buffer(store, planted):
    result = run_analysis("def f():\n    print('inner')\nf()\nprint('outer')\nresult = {'output': printed}", store)
    assert result.error is None
    assert result.output.splitlines() == ["inner", "outer"]


def test_bad_input_gives_a_message_not_a_traceback(planted):
    assert "No code" in run_analysis("", {}).error
    assert "Bad input" in run_analysis("print(1)", {"t1": 42}).error
    assert "Bad input" in run_analysis("print(1)", ["not", "a", "dict"]).error
    too_long = run_analysis("x = 1\n" * 5000, {})
    assert "limit" in too_long.error


def test_rows_as_dicts_are_accepted(planted):
    result = run_analysis("print(data['t1']['value'].sum())", {"t1": [{"value": 1.5}, {"value": 2.0}]})
    assert result.error is None and result.output == "3.5"


def test_output_is_capped_at_20kb(store, planted):
    result = run_analysis("for i in range(3000):\n    print('line', i, 'x' * 10)", store)
    assert len(result.output) < 20_500 and "truncated" in result.output


def test_cli_prints_json(tmp_path, capsys, planted):
    code = tmp_path / "job.py"
    code.write_text("print(data['t1']['value'].max())\n")
    data = tmp_path / "data.json"
    data.write_text(json.dumps({"t1": [{"qid": "0", "value": 3.0}, {"qid": "1", "value": 7.5}]}))
    assert cli_main(["sandbox", "--code-file", str(code), "--data-file", str(data)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["output"] == "7.5" and printed["error"] is None and "fork" in printed["layers"]
    assert set(printed) == {"output", "charts", "error", "layers"}
    code.write_text("import os\n")
    assert cli_main(["--code-file", str(code)]) == 3  # the code failed
    assert "not allowed" in json.loads(capsys.readouterr().out)["error"]
    assert cli_main(["--code-file", str(tmp_path / "missing.py")]) == 1  # unusable input, as every subcommand
    assert "cannot read input" in json.loads(capsys.readouterr().out)["error"]


FIG = {"data": [{"type": "scatter", "x": [1, 2], "y": [3, 4], "hovertemplate": "Q005<br>%{y:.2f}"}],
       "layout": {"title": {"text": "T1"}}}


def test_validate_figure_accepts_plain_and_data_images():
    assert validate_figure(FIG)["layout"]["title"]["text"] == "T1"
    png = PIXEL  # a whole 1x1 PNG: an image whose size its header does not tell is refused (chart_cost)
    fig = {"data": [], "layout": {"images": [{"source": png, "x": 0, "y": 0, "sizex": 1, "sizey": 1}]}}
    assert validate_figure(fig)["layout"]["images"][0]["source"] == png


@pytest.mark.parametrize("bad", [
    {"data": [], "layout": {"images": [{"source": "https://evil.example/a.png"}]}},
    {"data": [], "layout": {"images": [{"source": "data:image/svg+xml;base64,PHN2Zz4="}]}},
    {"data": [{"type": "scatter", "text": ["<a href='x'>x</a>"]}], "layout": {}},
    {"data": [], "layout": {"title": {"text": "JavaScript:alert(1)"}}},
    {"data": [], "layout": {"title": {"text": "see ftp://host/x"}}},
    {"data": [], "layout": {"__proto__": {"x": 1}}},
    {"data": [{"type": "scatter", "notaproperty": 1}], "layout": {}},
    {"data": [], "layout": {}, "config": {"editable": True}},
    "not a dict",
])
def test_validate_figure_rejects(bad):
    with pytest.raises(UnsafeFigure):
        validate_figure(bad)


def test_typed_arrays_are_checked_as_base64_not_as_text():
    # nine int8 values whose base64 starts with "//" and spells "href": neither is a link here
    fig = {"data": [{"type": "scatter", "y": {"dtype": "i1", "bdata": "//hrefsrcAAA"}}], "layout": {}}
    assert validate_figure(fig)["data"][0]["y"]["bdata"].startswith("//")
    with pytest.raises(UnsafeFigure):
        validate_figure({"data": [{"type": "scatter", "y": {"dtype": "i1", "bdata": "javascript:x"}}], "layout": {}})


def test_unencodable_output_still_returns(store, planted):
    result = run_analysis("print('bad \\ud800 surrogate')", store)
    assert result.error is None and "surrogate" in result.output


def test_a_bad_template_is_rejected_even_after_a_good_one_was_cached():
    good = {"data": [], "layout": {"template": {"layout": {"font": {"size": 12}}}}}
    assert validate_figure(good) and validate_figure(good)  # second call uses the cached verdict
    with pytest.raises(UnsafeFigure):
        validate_figure({"data": [], "layout": {"template": {"layout": {"font": {"nosuchprop": 12}}}}})
    with pytest.raises(UnsafeFigure):
        validate_figure({"data": [], "layout": {"template": {"layout": {"title": {"text": "http://x.example"}}}}})
