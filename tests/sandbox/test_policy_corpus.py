"""A second hostile corpus, aimed at the policy layer: every API of pandas, numpy and plotly that takes a
callable, a name, a format string, a path or a buffer, plus internals of Cython functions, module
namespaces in containers, uninitialised memory, time-zone paths and output that could break the host.

Every snippet must end in a bounded error with nothing leaked, written or fetched, as in
``test_attack_corpus`` (same markers: CANARY, SECRETS, PORT).  Each snippet names the guard it meets.
"""

from __future__ import annotations

import json
import re

import pytest

from copilot_core.sandbox import run_analysis

TIMEOUT_S = 4.0
# What a browser or a markdown renderer would follow: scheme:// or scheme:\\, //host at a word start, www., ](, <img
LINK = re.compile(r"""(?i)\b[a-z][a-z0-9+.\-]*:\s*[/\\]{2}|(?:^|[\s"'(<\[=])[/\\]{2}[\w.-]|www\.|\]\(|<img""")
S = "data['t1']['value']"
DF = "data['t1']"

CORPUS: list[tuple[str, str, str]] = [
    # --- uninitialised memory and the real numpy/pandas modules
    ("memory", "np-empty", "print(np.empty(4096).sum())"),
    ("memory", "np-empty-like", "print(np.empty_like(np.zeros(9)))"),
    ("memory", "ndarray-callable", "print(np.ndarray((4096,)).tobytes()[:64])"),
    ("memory", "ndarray-buffer", "print(np.ndarray((4,), buffer=b'abcdabcdabcdabcd', dtype='u1'))"),
    ("memory", "getattr-ndarray-new", "print(getattr(np.ndarray, '__new__'))"),
    ("memory", "agg-name-empty", f"print({S}.agg('empty'))"),
    ("memory", "transform-name-empty-like", f"print({S}.transform('empty_like'))"),
    ("memory", "apply-ndarray-of-names", f"print({S}.apply(np.array(['empty'])))"),
    ("memory", "agg-index-of-names", f"print({S}.agg(pd.Index(['empty'])))"),
    ("memory", "agg-series-of-names", f"print({S}.agg(pd.Series(['ndarray'])))"),
    ("memory", "dtype-type-module", "print(np.dtype('f8').type.__module__)"),
    # --- Cython function internals (func_*), module objects and module namespaces
    ("internals", "cython-func-globals", "print(pd.Timestamp('2026-01-01').ceil.func_globals['np'])"),
    ("internals", "cython-func-globals-keys", "print(list(pd.Timedelta('1d').total_seconds.func_globals))"),
    ("internals", "cython-func-defaults", "print(pd.Timestamp.isoformat.func_defaults)"),
    ("internals", "cython-func-closure", "print(pd.Timedelta.round.func_closure)"),
    ("internals", "cython-func-dict", "print(pd.Period.strftime.func_dict)"),
    ("internals", "cython-func-code", "print(pd.Timestamp.date.func_code)"),
    ("internals", "getattr-func-globals", "print(getattr(pd.Timestamp.ctime, 'func_' + 'globals'))"),
    ("internals", "im-func", "print(data['t1'].copy.im_func)"),
    ("internals", "gi-frame-name", "g = (x for x in [1])\nprint(getattr(g, 'gi_' + 'frame'))"),
    ("internals", "f-globals-name", "print(getattr(data, 'f_' + 'globals'))"),
    ("internals", "cython-call-args-checked", "print(pd.Timestamp('2026-01-01').strftime('{0.__class__}'))"),
    ("internals", "module-in-list", "m = [pd.Timestamp.ceil.func_globals]\nprint(m[0]['np'])"),
    ("internals", "vars-builtin", "print(vars(pd))"),
    ("internals", "dir-builtin", "print(dir(np))"),
    # --- by-name dispatch in every form pandas accepts
    ("byname", "agg-list-dunder", f"print({S}.agg(['sum', '__dir__']))"),
    ("byname", "agg-index-dunder", f"print({S}.agg(pd.Index(['__dir__'])))"),
    ("byname", "agg-dict-name", f"print({DF}.agg({{'value': 'to_csv'}}))"),
    ("byname", "agg-dict-list", f"print({DF}.agg({{'value': ['mean', 'pipe']}}))"),
    ("byname", "named-agg-tuple", f"print({DF}.groupby('qid').agg(m=('value', 'to_json')))"),
    ("byname", "named-agg-class", f"print({DF}.groupby('qid').agg(m=pd.NamedAgg('value', 'to_string')))"),
    ("byname", "pivot-positional-aggfunc", f"print(pd.pivot_table({DF}, 'value', 'qid', None, 'to_csv'))"),
    ("byname", "method-pivot-positional-aggfunc", f"print({DF}.pivot_table('value', 'qid', None, 'to_json'))"),
    ("byname", "crosstab-positional-aggfunc",
     f"print(pd.crosstab({DF}['qid'], {DF}['unit'], {DF}['value'], None, None, 'to_csv'))"),
    ("byname", "crosstab-aggfunc-index",
     f"print(pd.crosstab({DF}['qid'], {DF}['unit'], values={DF}['value'], aggfunc=pd.Index(['to_csv'])))"),
    ("byname", "resample-agg-name",
     "df = data['t1'].copy()\ndf['t'] = pd.to_datetime(df['calibrated_at'])\n"
     "print(df.set_index('t')['value'].resample('7D').agg('to_pickle'))"),
    ("byname", "rolling-agg-name", f"print({S}.rolling(3).agg(['mean', 'to_string']))"),
    ("byname", "groupby-transform-name", f"print({DF}.groupby('qid')['value'].transform('to_json'))"),
    ("byname", "star-args-name", f"a = ['to_csv']\nprint({S}.agg(*a))"),
    ("byname", "star-kwargs-name", f"k = {{'func': 'to_csv'}}\nprint({S}.agg(**k))"),
    ("byname", "star-kwargs-class-call", "k = {'float_format': '{0.__class__}'}\nprint(data['t1'].to_string(**k))"),
    ("byname", "ndarray-object-names", f"print({S}.agg(np.array(['sum', 'to_csv'], dtype='O')))"),
    # --- callbacks: map/filter/sorted/min/max and pandas callables get guarded callables only
    ("callback", "map-getattr-dunder", "print(list(map(getattr, [1], ['__class__'])))"),
    ("callback", "map-cython-method", "print(list(map(pd.Timestamp.ceil.func_globals.get, ['np'])))"),
    ("callback", "sorted-key-dunder", "print(sorted([1, 2], key=lambda x: getattr(x, '__class__')))"),
    ("callback", "filter-func-globals", "print(list(filter(None, [pd.Timestamp.ceil.func_globals])))"),
    ("callback", "max-key-format", "print(max(['a'], key='{0.__class__}'.format))"),
    ("callback", "series-map-format", f"print({S}.map('{{0.__class__}}'.format))"),
    ("callback", "apply-getattr", f"print({S}.head(1).apply(getattr, args=('__class__',)))"),
    ("callback", "pipe-func-globals", f"print({DF}.pipe(lambda d: pd.Timestamp.ceil.func_globals))"),
    ("callback", "for-each-trace", "fig = go.Figure(go.Scatter(x=[1], y=[1]))\n"
                                   "fig.for_each_trace(lambda t: print(t.__class__))"),
    # --- budgets: an argument or container too large to check is refused, never passed unchecked
    ("budget", "agg-huge-list", f"print({S}.agg(['sum'] * 20000 + ['to_csv']))"),
    ("budget", "deep-args", "x = 'a'\nfor i in range(30):\n    x = [x]\nprint(data['t1'].rename(columns={'qid': x}))"),
    ("budget", "huge-dunder-list", "print(data['t1'].head(1).to_string(header=['x'] * 20000 + ['__class__']))"),
    # --- time-zone names that are paths
    ("tz", "tz-dateutil-abs", "print(pd.Timestamp('2026-01-01', tz='dateutil//etc/hostname'))"),
    ("tz", "tz-dateutil-dotdot", "print(pd.Timestamp('2026-01-01', tz='dateutil/../../../proc/1/status'))"),
    ("tz", "tz-convert-dotdot", f"print(pd.to_datetime({DF}['calibrated_at']).dt.tz_convert('../../etc/hostname'))"),
    ("tz", "tz-backslash", "print(pd.Timestamp.now('Asia\\\\..\\\\..\\\\etc'))"),
    ("tz", "tz-dateutil-real-file", "print(pd.Timestamp('2026-01-01 12:00', tz='dateutil//etc/localtime'))"),
    ("tz", "tz-series-localize",
     "print(pd.Series(pd.to_datetime(['2026-01-01'])).dt.tz_localize('dateutil//etc/localtime'))"),
    ("tz", "tz-timestamp-localize", "print(pd.Timestamp('2026-01-01').tz_localize('dateutil/Asia/../../../etc/hosts'))"),
    ("tz", "tz-localize-proc", "print(pd.date_range('2026-01-01', periods=2).tz_localize('dateutil//proc/1/cmdline'))"),
    ("tz", "tz-date-range-kwarg", "print(pd.date_range('2026-01-01', periods=2, tz='/etc/localtime'))"),
    ("tz", "tz-unknown-name", "print(pd.Timestamp('2026-01-01', tz='dateutil/NoSuch/Zone'))"),
    # --- format strings, paths and buffers handed to library functions
    ("format", "to-string-float-format", f"print({DF}.to_string(float_format='{{0.__class__}}'))"),
    ("format", "to-html-formatters", f"print({DF}.head(1).to_html(formatters={{'value': '{{0.__class__}}'.format}}))"),
    ("format", "strftime-field", "print(pd.Timestamp('2026-01-01').strftime('{0.__init__}'))"),
    ("format", "to-csv-buffer", f"print({DF}.to_csv(open('CANARY', 'w')))"),
    ("format", "to-html-buf-kwarg", f"{DF}.to_html(buf='CANARY')"),
    ("format", "to-json-positional", f"{DF}.to_json('CANARY')"),
    ("format", "to-string-buf-positional", f"{DF}.to_string('CANARY')"),
    # --- output that could break the host or link out
    ("output", "lone-surrogate-print", "print('a\\ud800b')\nraise ValueError('x\\udfff')"),
    ("output", "protocol-relative", "print('see //127.0.0.1:PORT/leak')\nraise ValueError('//evil.example/x')"),
    ("output", "backslash-scheme", "print('http:\\\\\\\\127.0.0.1:PORT\\\\leak')"),
    ("output", "markdown-link", "print('[click me](https://evil.example/?q=1)')"),
    ("output", "markdown-image-error", "raise ValueError('![x](//evil.example/p.png)')"),
    ("output", "html-img", "print('<img src=x onerror=alert(1)>')"),
    ("output", "reference-link", "print('[a]: https://evil.example')"),
    ("output", "chart-link-in-job", "result = {'chart': {'data': [{'type': 'scatter', 'x': [1], 'y': [1], "
                                    "'hovertemplate': '<a href=\"//evil.example\">x</a>'}], 'layout': {}}}"),
    ("output", "chart-too-many-traces", "result = {'chart': {'data': [{'type': 'scatter', 'y': [1]}] * 5000, "
                                        "'layout': {}}}"),
    ("output", "chart-too-deep", "x = {}\nfor i in range(60):\n    x = {'a': x}\n"
                                 "result = {'chart': {'data': [], 'layout': {'meta': x}}}"),
]


def test_corpus_covers_every_class():
    classes = {c for c, _, _ in CORPUS}
    assert classes == {"memory", "internals", "byname", "callback", "budget", "tz", "format", "output"}
    assert len(CORPUS) >= 60
    assert len({n for _, n, _ in CORPUS}) == len(CORPUS)


@pytest.mark.parametrize(("kind", "name", "code"), CORPUS, ids=[f"{c}-{n}" for c, n, _ in CORPUS])
def test_policy_snippet_is_refused(kind, name, code, planted, store):
    result = run_analysis(planted.materialise(code), store, timeout_s=TIMEOUT_S)
    reply = json.dumps({"output": result.output, "charts": result.charts, "error": result.error}, ensure_ascii=False)
    reply.encode("utf-8")  # valid UTF-8: no lone surrogate reaches the app
    assert result.error, f"{name} ran without an error: {result.output[:300]!r}"
    assert "Time limit exceeded" not in result.error, f"{name} was not refused, it ran out of time"
    assert "sandbox internal error" not in result.error
    assert not planted.leaked(reply), f"{name} leaked a planted secret"
    assert not planted.canary("written").exists() and not list(planted.canary_dir.iterdir())
    assert planted.hits == [], f"{name} reached the loopback listener"
    assert result.charts == [], f"{name} produced a chart"
    assert "<module" not in reply and "<function" not in reply, f"{name} handed out a module or function"
    text = result.output + "\n" + result.error
    assert not LINK.search(text), f"{name}: a link survived"
    assert "\ud800" not in text and "\udfff" not in text
    if kind == "tz":  # refused by name, before dateutil looked at the file system
        assert re.search(r"time zone '[^']*' is not allowed|unknown time zone", result.error), result.error
