"""Typical analysis jobs the worker runs on itself before serving.

Plotly builds its validators lazily and pandas imports helpers on first use; running these once in
the worker means every forked job inherits them instead of paying ~100 ms (and needing file access
the job no longer has).  The same data shape doubles as the benchmark's 144-qubit time series.
"""

from __future__ import annotations

import numpy as np
import pandas as pd


def synthetic_timeseries(qubits: int = 144, points: int = 30, seed: int = 0) -> dict[str, pd.DataFrame]:
    """A data store like the copilot's: ``t1`` long table and a one-row-per-qubit ``chip_summary``."""
    rng = np.random.default_rng(seed)
    start = pd.Timestamp("2026-07-01T03:00:00Z")
    rows = [{"qid": str(q), "calibrated_at": (start + pd.Timedelta(days=d)).isoformat(),
             "value": float(rng.normal(60, 15)), "unit": "μs", "execution_id": f"202607{d + 1:02d}-001"}
            for q in range(qubits) for d in range(points)]
    t1 = pd.DataFrame(rows)
    summary = t1.groupby("qid", sort=False)["value"].agg(t1_mean="mean", t1_last="last").reset_index()
    summary["x90_gate_fidelity"] = rng.uniform(0.995, 0.9999, len(summary))
    return {"t1": t1, "chip_summary": summary}


WARMUP_SNIPPETS = (
    "df = data['t1'].copy()\ndf['t'] = pd.to_datetime(df['calibrated_at'])\n"
    "g = df.groupby('qid')['value'].agg(['mean', 'std', 'count'])\nprint(g.describe())\n"
    "p = df.pivot_table(index='t', columns='qid', values='value', aggfunc='mean')\n"
    "r = df.set_index('t').groupby('qid')['value'].resample('7D').mean()\n"
    "roll = df.sort_values('t').groupby('qid')['value'].rolling(5).mean()\n"
    "print(df['t'].dt.tz_convert('Asia/Tokyo').dt.strftime('%Y-%m-%d').head(2))\n"
    "from datetime import datetime\nprint(datetime.strptime('2026-07-01', '%Y-%m-%d'))\n"
    "print(df.describe(include='all').to_string())\nprint(df.head().to_csv(index=False))\n"
    "print(json.dumps({'m': float(np.median(df['value']))}), statistics.mean([1, 2]))\n"
    "for row in df.head(3).itertuples():\n    print(row.qid, row.value)\n",
    "df = data['t1'].copy()\ndf['t'] = pd.to_datetime(df['calibrated_at'])\n"
    "fig = px.line(df, x='t', y='value', color='qid', title='T1')\n"
    "fig2 = px.scatter(data['chip_summary'], x='t1_mean', y='x90_gate_fidelity', hover_name='qid')\n"
    "fig3 = px.histogram(df, x='value', nbins=30)\nfig4 = px.box(df, x='qid', y='value')\n"
    "fig5 = px.bar(data['chip_summary'], x='qid', y='t1_mean')\n"
    "fig6 = px.imshow(np.arange(144.0).reshape(12, 12), color_continuous_scale='Viridis')\n"
    "fig7 = px.ecdf(df, x='value')\nfig8 = px.violin(df, y='value')\n"
    "result = {'output': 'ok', 'chart': [fig, fig2, fig3, fig4, fig5, fig6, fig7, fig8]}\n",
    "fig = make_subplots(rows=2, cols=2, subplot_titles=['a', 'b', 'c', 'd'])\n"
    "fig.add_trace(go.Scatter(x=[1, 2], y=[3, 4], mode='lines+markers', name='s'), row=1, col=1)\n"
    "fig.add_trace(go.Bar(x=['a', 'b'], y=[1, 2]), row=1, col=2)\n"
    "fig.add_trace(go.Heatmap(z=[[1, 2], [3, 4]], colorscale='Viridis'), row=2, col=1)\n"
    "fig.add_trace(go.Histogram(x=[1, 2, 2, 3]), row=2, col=2)\n"
    "fig.update_layout(title='grid', height=600, showlegend=False)\n"
    "fig.add_hline(y=2, line_dash='dash')\nfig.add_annotation(x=1, y=3, text='Q005<br>99.87%')\n"
    "fig.update_xaxes(title_text='x')\nfig.update_yaxes(autorange='reversed')\n"
    "f2 = go.Figure(go.Box(y=[1, 2, 3]))\nf2.add_trace(go.Violin(y=[1, 2, 3]))\n"
    "f3 = go.Figure(go.Pie(labels=['a', 'b'], values=[1, 2]))\n"
    "f4 = go.Figure(go.Scatter(x=pd.to_datetime(['2026-07-01', '2026-07-02']), y=[1, 2], error_y=dict(array=[0.1, 0.2])))\n"
    "result = {'output': 'ok', 'chart': [fig, f2, f3, f4]}\n",
    # first use of these imports helpers lazily (marshal.loads of a .pyc), which a locked-down job may not
    "small = data['chip_summary'].head(3)\n"
    "print(small.to_html()[:10], len(small.to_dict(into=dict)), small.to_dict('records')[:1], np.dtype('O'))\n"
    "print(str(small.to_numpy()), repr(small[['qid']].to_numpy()), str(np.array([1.5, 2.0])))\n"
    "t = go.Figure(go.Table(header=dict(values=['qid', 't1']), cells=dict(values=[small['qid'], small['t1_mean']])))\n"
    "t.update_layout(updatemenus=[dict(type='buttons', buttons=[dict(label='x', method='restyle', "
    "args=['visible', [True]])])], sliders=[dict(steps=[dict(label='a', method='restyle', args=['visible', [True]])])])\n"
    "result = {'output': 'ok', 'chart': [t]}\n",
)


# Run by an idle pre-forked spare (``job_process.run_spare``) before it receives its request: it touches what a
# typical pandas + px job touches, so those copy-on-write faults happen while nobody waits.
SPARE_SNIPPET = (
    "df = data['t1'].copy()\ndf['t'] = pd.to_datetime(df['calibrated_at'])\n"
    "m = df.groupby('t', as_index=False)['value'].agg(['median', 'mean'])\n"
    "g = df.groupby('qid')['value'].agg(['mean', 'std']).describe().to_string()\n"
    "fig = px.line(m, x='t', y='median', title='warm')\nfig.add_trace(go.Scatter(x=[1], y=[2]))\n"
    "result = {'output': g, 'chart': fig}\n"
)


def warm_lazy_imports() -> None:
    """Calls whose first use imports a helper, made here in trusted code before any job is locked down.

    A job may not import (its ``__import__`` is the sandbox's, its audit hook refuses ``marshal.loads``),
    and numpy's C code imports ``arrayprint`` through the caller's ``__import__``, so ``str()`` of an
    array would fail in every job that did not inherit the import from the worker.
    """
    import plotly.graph_objects as go

    small = pd.DataFrame({"qid": ["0", "1"], "value": [1.5, 2.0]})
    for array in (small.to_numpy(), np.array([1.5, 2.0]), np.array([[1, 2]]), np.array(["a"], dtype=object)):
        str(array), repr(array)
    small.to_html(), small.to_dict(into=dict), small.to_dict("records"), np.dtype("O")
    table = go.Figure(go.Table(header={"values": ["qid"]}, cells={"values": [small["qid"]]}))
    table.update_layout(updatemenus=[{"type": "buttons", "buttons": [{"label": "x", "method": "restyle",
                                                                      "args": ["visible", [True]]}]}],
                        sliders=[{"steps": [{"label": "a", "method": "restyle", "args": ["visible", [True]]}]}])
    table.to_json()


def spare_data() -> dict[str, pd.DataFrame]:
    """A small store of the usual shape for the spare's warm-up."""
    return synthetic_timeseries(4, 5)
