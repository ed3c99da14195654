"""Typical analysis jobs the copilot writes: they must pass, and their numbers must match pandas run here."""

from __future__ import annotations

import base64
import json
import subprocess
import sys

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

from copilot_core.render_safety import validate_figure
from copilot_core.render_safety.frozen import plotly_input
from copilot_core.sandbox import run_analysis


def _run(code: str, store) -> dict:
    result = run_analysis(code, store)
    assert result.error is None, result.error
    return {"output": result.output, "charts": result.charts, "layers": result.layers}


def _values(array) -> np.ndarray:
    """Plotly JSON arrays are plain lists or typed arrays ``{"dtype", "bdata"}``."""
    if isinstance(array, dict):
        return np.frombuffer(base64.b64decode(array["bdata"]), dtype=np.dtype(array["dtype"]))
    return np.asarray(array)


def _frame(store) -> pd.DataFrame:
    df = store["t1"].copy()
    df["t"] = pd.to_datetime(df["calibrated_at"])
    return df


def test_groupby_mean_matches(store, planted):
    out = _run("g = data['t1'].groupby('qid')['value'].mean()\n"
               "result = {'output': json.dumps({k: round(float(v), 9) for k, v in g.items()})}", store)
    expected = store["t1"].groupby("qid")["value"].mean()
    got = json.loads(out["output"])
    assert got.keys() == set(expected.index)
    assert all(got[q] == pytest.approx(expected[q], abs=1e-8) for q in expected.index)


def test_pivot_table_shape_and_values(store, planted):
    out = _run("p = data['t1'].pivot_table(index='calibrated_at', columns='qid', values='value')\n"
               "print(p.shape[0], p.shape[1], round(float(p.to_numpy().sum()), 6))", store)
    p = store["t1"].pivot_table(index="calibrated_at", columns="qid", values="value")
    rows, cols, total = out["output"].split()
    assert (int(rows), int(cols)) == p.shape
    assert float(total) == pytest.approx(float(p.to_numpy().sum()), rel=1e-9)


def test_resample_weekly_after_datetime_parsing(store, planted):
    out = _run("df = data['t1'].copy()\ndf['t'] = pd.to_datetime(df['calibrated_at'])\n"
               "w = df.set_index('t')['value'].resample('7D').median()\n"
               "print(json.dumps([[str(i), round(float(v), 9)] for i, v in w.items()]))", store)
    expected = _frame(store).set_index("t")["value"].resample("7D").median()
    got = json.loads(out["output"])
    assert [g[0] for g in got] == [str(i) for i in expected.index]
    assert [g[1] for g in got] == pytest.approx(list(expected.values), abs=1e-8)


def test_rolling_and_describe(store, planted):
    out = _run("df = data['t1'][data['t1']['qid'] == '7'].copy()\n"
               "df['t'] = pd.to_datetime(df['calibrated_at'])\n"
               "r = df.sort_values('t')['value'].rolling(5).mean().dropna()\n"
               "d = df['value'].describe()\n"
               "result = {'output': json.dumps({'last': float(r.iloc[-1]), 'n': int(r.size), "
               "'std': float(d['std']), 'q75': float(d['75%'])})}", store)
    df = _frame(store)
    q7 = df[df["qid"] == "7"].sort_values("t")
    rolled = q7["value"].rolling(5).mean().dropna()
    got = json.loads(out["output"])
    assert got["n"] == rolled.size and got["last"] == pytest.approx(rolled.iloc[-1])
    assert got["std"] == pytest.approx(q7["value"].std()) and got["q75"] == pytest.approx(q7["value"].quantile(0.75))


def test_chip_summary_outliers_with_numpy_and_statistics(store, planted):
    out = _run("s = data['chip_summary']\nmed = statistics.median(s['t1_mean'])\n"
               "mad = np.median(np.abs(s['t1_mean'] - med)) * 1.4826\n"
               "low = s[s['t1_mean'] < med - 2 * mad]['qid'].tolist()\n"
               "result = {'output': json.dumps(sorted(low))}", store)
    s = store["chip_summary"]
    med = s["t1_mean"].median()
    mad = (s["t1_mean"] - med).abs().median() * 1.4826
    assert json.loads(out["output"]) == sorted(s[s["t1_mean"] < med - 2 * mad]["qid"].tolist())


def test_px_line_figure_is_returned_and_valid(store, planted):
    out = _run("df = data['t1'].copy()\ndf['t'] = pd.to_datetime(df['calibrated_at'])\n"
               "m = df.groupby('t', as_index=False)['value'].median()\n"
               "fig = px.line(m, x='t', y='value', title='Median T1')\n"
               "result = {'output': 'median T1 per day', 'chart': fig}", store)
    assert out["output"] == "median T1 per day" and len(out["charts"]) == 1
    fig = go.Figure(plotly_input(out["charts"][0]))
    assert fig.layout.title.text == "Median T1"
    expected = _frame(store).groupby("t")["value"].median()
    assert len(fig.data[0].x) == len(expected)
    assert list(_values(out["charts"][0]["data"][0]["y"])) == pytest.approx(list(expected.values))


def test_go_figures_and_make_subplots(store, planted):
    out = _run("s = data['chip_summary']\n"
               "fig = make_subplots(rows=1, cols=2, subplot_titles=['T1', 'X90'])\n"
               "fig.add_trace(go.Bar(x=s['qid'], y=s['t1_mean']), row=1, col=1)\n"
               "fig.add_trace(go.Histogram(x=s['x90_gate_fidelity'] * 100), row=1, col=2)\n"
               "heat = go.Figure(go.Heatmap(z=np.array(s['t1_mean']).reshape(12, 12), colorscale='Viridis'))\n"
               "heat.update_yaxes(autorange='reversed')\n"
               "result = {'chart': [fig, heat]}", store)
    sub, heat = (go.Figure(plotly_input(c)) for c in out["charts"])
    assert [t.type for t in sub.data] == ["bar", "histogram"]
    assert [a.text for a in sub.layout.annotations] == ["T1", "X90"]
    assert len(sub.data[0].x) == len(store["chip_summary"])
    assert heat.data[0].type == "heatmap" and heat.layout.yaxis.autorange == "reversed"


def test_print_only_job_and_itertuples(store, planted):
    out = _run("for row in data['chip_summary'].head(3).itertuples():\n    print(row.qid, round(row.t1_mean, 3))",
               store)
    head = store["chip_summary"].head(3)
    assert out["output"].splitlines() == [f"{r.qid} {round(r.t1_mean, 3)}" for r in head.itertuples()]


def test_imports_and_datetime_module(store, planted):
    out = _run("import pandas as pd\nimport numpy as np\nfrom plotly.subplots import make_subplots\n"
               "import plotly.graph_objects as go\nfrom datetime import datetime, timedelta\n"
               "from collections import Counter\n"
               "t = datetime.strptime('2026-07-01', '%Y-%m-%d') + timedelta(days=2)\n"
               "c = Counter(data['t1']['unit'])\nprint(t.date(), c.most_common(1)[0][1])", store)
    assert out["output"] == f"2026-07-03 {len(store['t1'])}"


def test_error_reports_line_and_hint(store, planted):
    result = run_analysis("x = 1\ny = data['missing']\n", store)
    assert result.error.startswith("Line 2: `y = data['missing']`: KeyError")
    assert "chip_summary" in result.error and "t1" in result.error  # the hint lists the keys


def test_syntax_error_reports_line(store, planted):
    result = run_analysis("x = 1\nif x\n    print(x)", store)
    assert "SyntaxError" in result.error and "line 2" in result.error.lower()


def test_layers_report_what_is_active(store, planted):
    from copilot_core.sandbox import isolation
    result = run_analysis("print(1)", store)
    expected = {"policy:restrictedpython", "fork", "setsid", "rlimits", "audit-hook"}
    if isolation.landlock_abi() > 0:
        expected.add(f"landlock:abi{isolation.landlock_abi()}")
    assert expected <= set(result.layers)


def test_px_figures_match_plotly_with_its_own_template_validation(store, planted, tmp_path):
    """The sandbox copies px's registered template without re-validating it; the chart must not change.  The
    expected charts are built by plotly in a fresh interpreter, so no state an earlier test left in this
    process (plotly's validators, templates) can make them differ."""
    out = _run("m = data['t1'].groupby('qid', as_index=False)['value'].median()\n"
               "a = px.line(m, x='qid', y='value', title='T1')\n"
               "b = px.scatter(data['chip_summary'], x='t1_mean', y='x90_gate_fidelity', hover_name='qid')\n"
               "result = {'chart': [a, b]}", store)
    store["t1"].to_pickle(tmp_path / "t1.pkl")
    store["chip_summary"].to_pickle(tmp_path / "summary.pkl")
    script = ("import json, sys, pandas as pd, plotly.express as px\n"
              "d = sys.argv[1]\n"
              "m = pd.read_pickle(d + '/t1.pkl').groupby('qid', as_index=False)['value'].median()\n"
              "s = pd.read_pickle(d + '/summary.pkl')\n"
              "figs = [px.line(m, x='qid', y='value', title='T1'),\n"
              "        px.scatter(s, x='t1_mean', y='x90_gate_fidelity', hover_name='qid')]\n"
              "print(json.dumps([json.loads(f.to_json()) for f in figs]))\n")
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True,
                          timeout=120, check=True)
    # the host then rebuilds each chart from the allowlist (dropping template sections for undrawable charts)
    assert out["charts"] == [validate_figure(c) for c in json.loads(done.stdout)]


def test_each_px_figure_gets_its_own_validated_template(store, planted):
    out = _run("m = data['chip_summary']\n"
               "a = px.bar(m, x='qid', y='t1_mean')\na.layout.template.layout.font.size = 30\n"
               "b = px.bar(m, x='qid', y='t1_mean')\n"
               "try:\n    b.layout.template.layout.font.size = 'big'\n    verdict = 'accepted'\n"
               "except ValueError:\n    verdict = 'rejected'\n"
               "result = {'output': verdict, 'chart': [a, b]}", store)
    assert out["output"] == "rejected"  # an edit of a figure's template is still checked by plotly
    sizes = [chart["layout"]["template"]["layout"].get("font", {}).get("size") for chart in out["charts"]]
    assert sizes == [30, None]  # editing one figure's template leaves the next figure's alone
