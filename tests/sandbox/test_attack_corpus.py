"""The project's attack corpus: every hostile snippet must end in a bounded error, with no file written,
no secret in the reply, no connection to a loopback listener, and the app process unharmed.

Markers in snippets: CANARY (a path in a world-writable temp dir), SECRETS (the planted secrets.toml),
PORT (the listener), APPPID (this test process, whose environment holds the planted secrets).
"""

from __future__ import annotations

import json
import os
import re

import numpy as np
import pytest

from copilot_core.sandbox import run_analysis, sandbox_status

TIMEOUT_S = 2.0

CORPUS: list[tuple[str, str, str]] = [
    # --- escapes aimed at RestrictedPython itself
    ("rp", "dunder-walk", "print(().__class__.__bases__[0].__subclasses__())"),
    ("rp", "getattr-built-name", "print(getattr((), '__cl' + 'ass__'))"),
    ("rp", "generator-frame", "g = (x for x in [1])\nprint(g.gi_frame.f_back.f_globals)"),
    ("rp", "str-format-field", "print('{0.__class__.__base__}'.format(1))"),
    ("rp", "string-formatter", "import string\nprint(string.Formatter().format('{0.__class__}', 1))"),
    ("rp", "except-star", "try:\n    pass\nexcept* ValueError:\n    pass"),
    ("rp", "guard-shadowing", "def f(_write_, /):\n    return _write_\nprint(f(1))"),
    ("rp", "full-width-eval", "print(ｅｖａｌ('1+1'))"),
    ("rp", "exec-builtin", "exec('import os')"),
    ("rp", "attributeerror-obj", "try:\n    pd.nonexistent\nexcept AttributeError as e:\n    print(e.obj)"),
    ("rp", "class-definition", "class A:\n    pass"),
    ("rp", "decorator", "def d(f):\n    return f\n@d\ndef g():\n    return 1"),
    ("rp", "code-object", "f = lambda: 1\nprint(f.__code__)"),
    ("rp", "type-builtin", "print(type(1).__mro__)"),
    # --- library gadgets reaching dangerous modules through public attribute chains
    ("gadget", "plotly-layout-re", "print(go.Figure().layout.re.enum.sys.modules['os'])"),
    ("gadget", "pandas-core-builtins", "print(pd.core.common.builtins.open('/etc/passwd').read())"),
    ("gadget", "numpy-f2py", "np.f2py.subprocess.run(['touch', 'CANARY'])"),
    ("gadget", "pandas-compat-sys", "print(pd.compat.sys.modules['os'].environ)"),
    ("gadget", "pandas-errors-ctypes", "print(pd.errors.ctypes)"),
    ("gadget", "ndarray-ctypes", "print(data['t1']['value'].values.ctypes)"),
    ("gadget", "class-mro", "print(pd.DataFrame.mro()[-1])"),
    ("gadget", "px-data", "print(px.data.iris())"),
    ("gadget", "groupby-obj", "print(data['t1'].groupby('qid').obj)"),
    ("gadget", "numpy-lib-pickle", "print(np.lib.npyio.pickle.loads(b'cos\\nsystem\\n.'))"),
    ("gadget", "getattr-through-map", "print(list(map(getattr, [1], ['__class__'])))"),
    # --- library evaluators
    ("evaluator", "df-eval", "print(data['t1'].eval('(1).__class__.__base__.__subclasses__()'))"),
    ("evaluator", "pd-eval", "print(pd.eval('1+1'))"),
    ("evaluator", "df-query-at", "print(data['t1'].query('@pd.core.frame.com.builtins.__import__(\"os\")'))"),
    ("evaluator", "agg-getattribute", "print(data['t1']['value'].agg('__getattribute__', '__class__'))"),
    ("evaluator", "float-format-field", "print(data['t1'].to_string(float_format='{0.__class__}'))"),
    ("evaluator", "agg-by-name-eval", "print(data['t1'].agg('eval', expr='value * 2'))"),
    ("evaluator", "apply-by-name-query", "print(data['t1'].apply('query', expr='value > 0'))"),
    ("evaluator", "pivot-aggfunc-name", "print(pd.pivot_table(data['t1'], index='qid', values='value', "
                                        "aggfunc='to_csv'))"),
    # --- file read
    ("read", "read-csv-passwd", "print(pd.read_csv('/etc/passwd').to_string())"),
    ("read", "read-app-environ", "print(pd.read_csv('/proc/APPPID/environ', sep='\\0').to_string())"),
    ("read", "read-secrets-toml", "print(pd.read_csv('SECRETS').to_string())"),
    ("read", "read-json-self-environ", "print(pd.read_json('/proc/self/environ'))"),
    ("read", "np-loadtxt", "print(np.loadtxt('SECRETS', dtype=str))"),
    ("read", "open-builtin", "print(open('SECRETS').read())"),
    # --- file write
    ("write", "to-csv-path", "data['t1'].to_csv('CANARY')"),
    ("write", "to-string-buf", "data['t1'].to_string(buf='CANARY')"),
    ("write", "to-json-kwarg", "data['t1'].to_json(path_or_buf='CANARY')"),
    ("write", "figure-write-html", "go.Figure().write_html('CANARY')"),
    ("write", "ndarray-tofile", "data['t1']['value'].values.tofile('CANARY')"),
    ("write", "np-save", "np.save('CANARY', np.arange(3))"),
    # --- pickle
    ("pickle", "read-pickle", "print(pd.read_pickle('SECRETS'))"),
    ("pickle", "np-load-pickle", "print(np.load('SECRETS', allow_pickle=True))"),
    ("pickle", "to-pickle", "data['t1'].to_pickle('CANARY')"),
    # --- network
    ("network", "read-csv-http", "print(pd.read_csv('http://127.0.0.1:PORT/x.csv'))"),
    ("network", "read-json-http", "print(pd.read_json('http://127.0.0.1:PORT/x.json'))"),
    ("network", "import-urllib", "import urllib.request\nurllib.request.urlopen('http://127.0.0.1:PORT/')"),
    ("network", "import-socket", "import socket\nsocket.create_connection(('127.0.0.1', PORT))"),
    # --- option-driven imports
    ("options", "set-option-backend", "pd.set_option('plotting.backend', 'os')\ndata['t1'].plot()"),
    ("options", "options-attribute", "pd.options.plotting.backend = 'os'"),
    ("options", "plot-backend-kwarg", "data['t1'].plot(backend='subprocess')"),
    # --- denial of service
    ("dos", "infinite-loop", "while True:\n    pass"),
    ("dos", "swallowed-timeout", "while True:\n    try:\n        pass\n    except BaseException:\n        pass"),
    ("dos", "huge-power", "x = 10 ** (10 ** 9)\nprint(x)"),
    ("dos", "catastrophic-regex", "s = pd.Series(['a' * 40 + 'b'], dtype='object')\nprint(s.str.contains(r'^(a+)+$'))"),
    ("dos", "huge-allocation", "x = np.ones((100000, 100000))\nprint(x.sum())"),
    ("dos", "huge-string", "x = 'x' * (10 ** 10)"),
    ("dos", "print-flood", "while True:\n    print('x' * 1000)"),
    ("dos", "recursion", "def f(n):\n    return f(n + 1)\nf(0)"),
    ("dos", "system-exit", "raise SystemExit(0)"),
    ("dos", "keyboard-interrupt", "raise KeyboardInterrupt"),
    ("dos", "lapack-spin", "print(np.linalg.eigvals(np.random.default_rng(0).random((4000, 4000))))"),
    ("dos", "threads", "import threading\nthreading.Thread(target=print).start()"),
    ("dos", "reply-flood", "x = np.arange(150_000)\n"
                           "result = {'chart': [go.Figure(go.Scattergl(x=x, y=x * 1.5)) for i in range(8)]}"),
    ("dos", "huge-figure", "x = np.arange(3_000_000)\n"
                           "result = {'chart': go.Figure(go.Scattergl(x=x, y=x * 1.5))}"),
    # --- host state poisoning
    ("poison", "monkeypatch-class", "pd.DataFrame.sum = lambda self: 0"),
    ("poison", "monkeypatch-namespace", "np.mean = lambda x: 0"),
    ("poison", "display-options", "pd.options.display.max_rows = 1"),
    ("poison", "figure-show", "go.Figure.show = print"),
    ("poison", "json-dumps", "json.dumps = str"),
    # --- zero-click exfiltration through figures and text
    ("exfil", "layout-image-url", "fig = go.Figure()\nfig.add_layout_image(source='http://127.0.0.1:PORT/leak.png', "
                                  "x=0, y=1, sizex=1, sizey=1)\nresult = {'chart': fig}"),
    ("exfil", "go-image-url", "result = {'chart': go.Figure(go.Image(source='https://evil.example/x.png'))}"),
    ("exfil", "protocol-relative", "fig = go.Figure()\nfig.add_layout_image(source='//evil.example/x.png')\n"
                                   "result = {'chart': fig}"),
    ("exfil", "hover-link", "result = {'chart': go.Figure(go.Scatter(x=[1], y=[1], "
                            "hovertemplate='<a href=\"https://evil.example\">x</a>'))}"),
    ("exfil", "javascript-title", "fig = go.Figure()\nfig.update_layout(title='<a href=\"java\\tscript:alert(1)\">t</a>')"
                                  "\nresult = {'chart': fig}"),
    ("exfil", "css-url", "fig = go.Figure(go.Scatter(x=[1], y=[1], text=['<span style=\"background:url(x)\">a</span>']))"
                         "\nresult = {'chart': fig}"),
    ("exfil", "markdown-image", "print('![chart](http://127.0.0.1:PORT/leak?k=1)')"),
    ("exfil", "link-in-error", "raise ValueError('![x](http://127.0.0.1:PORT/leak?k=1)')"),
    ("exfil", "proto-key", "result = {'chart': {'data': [], 'layout': {'__proto__': {'polluted': 1}}}}"),
]


def _rss_bytes() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_corpus_is_large_and_covers_every_class():
    classes = {c for c, _, _ in CORPUS}
    assert len(CORPUS) >= 40
    assert classes == {"rp", "gadget", "evaluator", "read", "write", "pickle", "network", "options", "dos",
                       "poison", "exfil"}
    assert len({n for _, n, _ in CORPUS}) == len(CORPUS)


@pytest.mark.parametrize(("kind", "name", "code"), CORPUS, ids=[f"{c}-{n}" for c, n, _ in CORPUS])
def test_hostile_snippet_is_contained(kind, name, code, planted, store):
    result = run_analysis(planted.materialise(code), store, timeout_s=TIMEOUT_S)
    reply = json.dumps({"output": result.output, "charts": result.charts, "error": result.error})
    assert result.error, f"{name} ran without an error: {result.output[:300]!r}"
    if kind != "dos":  # a timeout proves nothing about containment: the snippet must be refused or fail
        assert "Time limit exceeded" not in result.error, f"{name} only timed out: {result.error[:300]!r}"
    assert not planted.leaked(reply), f"{name} leaked a planted secret"
    assert "root:x:0:0" not in reply, f"{name} read /etc/passwd"
    assert not planted.canary("written").exists() and not list(planted.canary_dir.iterdir())
    assert planted.hits == [], f"{name} reached the loopback listener"
    assert result.charts == [], f"{name} produced a chart that passed validation"
    if kind == "exfil":
        assert not re.search(r"[A-Za-z]+://\w", result.output + result.error), "a URL survived in the text"


def test_app_process_is_unharmed_after_the_corpus(planted, store):
    before = _rss_bytes()
    for kind, _name, code in CORPUS:
        if kind == "dos":
            run_analysis(planted.materialise(code), store, timeout_s=1.0)
    assert _rss_bytes() - before < 200 * 1024 * 1024, "hostile jobs grew the app's memory"
    ok = run_analysis("result = {'output': str(len(data['t1']))}", store)
    assert ok.error is None and ok.output == str(len(store["t1"]))
    assert sandbox_status()["alive"]


def test_deadline_kills_a_job_that_swallows_timeouts(store):
    result = run_analysis("while True:\n    try:\n        pass\n    except BaseException:\n        pass",
                          store, timeout_s=1.0)
    assert result.error and "Time limit exceeded" in result.error
    assert "fork" in result.layers  # the reply still says which layers were active


def test_data_mutation_does_not_reach_the_next_job(planted, store):
    original = float(store["t1"]["value"].sum())
    poisoned = run_analysis("data['t1']['value'] = 0.0\ndata['extra'] = data['t1']\n"
                            "result = {'output': str(float(data['t1']['value'].sum()))}", store)
    assert poisoned.error is None and float(poisoned.output) == 0.0
    after = run_analysis("result = {'output': json.dumps([float(data['t1']['value'].sum()), sorted(data)])}", store)
    total, keys = json.loads(after.output)
    assert total == pytest.approx(original) and "extra" not in keys
    assert float(store["t1"]["value"].sum()) == pytest.approx(original)  # the app's copy is untouched


def test_library_state_does_not_carry_over(store):
    draw = "result = {'output': str(np.random.rand())}"
    before = run_analysis(draw, store)
    seeded = run_analysis("np.random.seed(123)\nx = np.random.rand(1000)\n" + draw, store)
    after = run_analysis(draw, store)
    assert before.error is None and seeded.error is None and after.error is None
    carried = np.random.RandomState(123)
    carried.rand(1000)
    assert seeded.output == str(carried.rand())  # the job's own seed holds within the job
    assert after.output not in (seeded.output, str(carried.rand()))  # and does not carry over to the next job
    assert after.output != before.output  # every job draws from its own fresh seed, not the worker's one state
