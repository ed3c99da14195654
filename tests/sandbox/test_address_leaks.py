"""No memory address leaves a job: whatever route printed, raised or charted an object's default ``repr``, the app
shows ``0x…`` in its place (every job forks from one interpreter, so an address from one reply would be valid in
the next).  ``id`` is refused and ``hash`` takes values only.  Cases written after the guard."""

from __future__ import annotations

import json
import re

from copilot_core.render_safety.figures import validate_figure
from copilot_core.sandbox import run_analysis
from copilot_core.sandbox.reply_checks import job_reply as _job_reply

# What CPython prints for %p: "0x" and at least six hex digits (the tests' own spelling, not the guard's).
_HEX = re.compile(r"0x[0-9a-f]{6,}", re.IGNORECASE)
WORKER = {"id": 1, "elapsed_s": 0.1, "layers": ["fork"]}

PRINTED = {
    "function-print": "f = data['t1'].groupby('qid')\nprint(f)",
    "function-repr": "f = data['t1'].groupby('qid')\nprint(repr(f))",
    "fstring-repr": "f = data['t1'].groupby('qid')\nprint(f'{f!r} and {f}')",
    "percent-format": "f = data['t1'].groupby('qid')\nprint('%r' % (f,))",
    "join-map-str": "print('-'.join(map(str, [pd.DataFrame({'a': [1]}).groupby('a')])))",
    "str-call": "print(str(np.errstate()))",
    "model-function-shows-no-address": "def f():\n    return 1\nprint(f, hex(2 ** 47 - 4096))",
    "numpy-generator-repr": "print(repr(np.random.default_rng(1)))",
    "generator": "print((x for x in [1]))",
    "series-groupby-in-a-list": "print([data['t1'].groupby('qid').value])",
    "as-a-result": "result = {'output': str(pd.Series([1]).groupby([1]))}",
    "dict-of-objects": "print({'g': data['t1'].groupby('qid')})",
}


def test_printed_objects_show_no_address(store):
    for name, code in PRINTED.items():
        result = run_analysis(code, store)
        assert result.error is None, (name, result.error)
        assert "0x…" in result.output and not _HEX.search(result.output), (name, result.output)


def test_an_error_quoting_an_object_shows_no_address(store):
    raised = {
        "raise-with-repr": "f = data['t1'].groupby('qid')\nraise ValueError(repr(f) + ' bad')",
        "raise-with-object": "raise KeyError(pd.Series([1]).groupby([1]))",
        "assert-message": "assert False, (x for x in [1])",
    }
    for name, code in raised.items():
        result = run_analysis(code, store)
        assert result.error and "0x…" in result.error and not _HEX.search(result.error), (name, result.error)


def test_chart_text_holding_an_address_is_drawn_without_it(store):
    code = ("f = data['t1'].groupby('qid')\n"
            "fig = go.Figure(go.Bar(x=[str(f)[1:-1], 'b'], y=[1, 2], hovertext=[repr(f)[1:-1], 'x']))\n"
            "fig.update_layout(title=f'made by {str(f)[1:-1]}')\nresult = {'chart': fig}")
    result = run_analysis(code, store)
    assert result.error is None and len(result.charts) == 1, result.error
    text = json.dumps(result.charts[0], ensure_ascii=False)
    assert text.count("0x…") >= 3 and not _HEX.search(text), text[:400]


def test_a_refused_chart_quoting_an_address_is_reported_without_it(store):
    result = run_analysis("f = data['t1'].groupby('qid')\nresult = {'chart': go.Figure(go.Bar(x=[str(f)], y=[1]))}", store)
    assert result.charts == [] and "Chart rejected" in (result.error or "") and "0x…" in (result.error or "")
    assert not _HEX.search(result.error or ""), result.error


def test_a_forged_reply_s_addresses_are_cut_and_small_hex_numbers_stay():
    reply = _job_reply(dict(WORKER), json.dumps({
        "output": "at 0x7f3a2b1c0d10 and 0X55D0C0FFEE00; register 0xFF, mask 0x1f",
        "error": "<function f at 0x00007ffd12345678>", "layers_missing": ["seen 0xdeadbeef00"]}).encode())
    assert reply["output"] == "at 0x… and 0x…; register 0xFF, mask 0x1f"
    assert reply["error"] == "<function f at 0x…>" and reply["layers_missing"] == ["seen 0x…"]


def test_a_chart_handed_in_with_an_address_is_cut():
    fig = validate_figure({"data": [{"type": "bar", "x": ["bound method at 0x7f00aa11bb22"], "y": [1],
                                     "name": "0x7F00AA11BB22"}], "layout": {"title": {"text": "ok 0x10"}}})
    assert fig["data"][0]["x"] == ["bound method at 0x…"] and fig["data"][0]["name"] == "0x…"
    assert fig["layout"]["title"]["text"] == "ok 0x10"


def test_id_is_refused_and_hash_of_an_object_too(store):
    for code in ("print(id(len))", "i = id(data)", "print(hash(lambda: 0))", "print(hash(pd.Series.sum))",
                 "print(hash((1, np.random.default_rng())))"):
        result = run_analysis(code, store)
        assert result.error and not result.output and not re.search(r"\d{9,}", result.error), (code, result.error)
