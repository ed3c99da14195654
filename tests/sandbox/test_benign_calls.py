"""Benign calls that a stricter policy must keep working: the six that failed on lazy imports, and the
legitimate forms of every construct the policy now checks (by-name lists, positional aggfunc,
callbacks, ``*args``, time zones).  Expected values are computed here with pandas/numpy directly.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

from copilot_core.render_safety.frozen import plotly_input
from copilot_core.sandbox import run_analysis


def _run(code: str, store) -> str:
    result = run_analysis(code, store)
    assert result.error is None, result.error
    return result.output


def _summary(store) -> pd.DataFrame:
    return store["chip_summary"]


def test_to_html(store, planted):
    out = _run("print(data['chip_summary'].head(3).to_html(index=False))", store)
    expected = _summary(store).head(3).to_html(index=False)
    assert out.strip() == expected.strip()
    assert out.count("<tr") == 4  # header row and three qubits


def test_to_dict_into_dict(store, planted):
    out = _run("d = data['chip_summary'].head(2).to_dict(into=dict)\n"
               "result = {'output': json.dumps({k: {str(i): v for i, v in col.items()} for k, col in d.items()})}", store)
    expected = _summary(store).head(2).to_dict()
    got = json.loads(out)
    assert set(got) == set(expected)
    assert got["qid"] == {str(i): v for i, v in expected["qid"].items()}
    assert got["t1_mean"]["1"] == pytest.approx(expected["t1_mean"][1])


def test_np_dtype_object(store, planted):
    out = _run("a = data['chip_summary']['qid'].to_numpy(dtype=np.dtype('O'))\nprint(np.dtype('O'), a.dtype, len(a))",
               store)
    assert out.split() == ["object", "object", str(len(_summary(store)))]


def test_str_of_an_object_array(store, planted):
    out = _run("print(str(data['chip_summary'][['qid']].head(3).to_numpy()))", store)
    assert out.strip() == str(_summary(store)[["qid"]].head(3).to_numpy())


def test_go_table(store, planted):
    result = run_analysis("s = data['chip_summary'].head(4)\n"
                          "fig = go.Figure(go.Table(header=dict(values=['qid', 'T1']), "
                          "cells=dict(values=[s['qid'], s['t1_mean'].round(2)])))\nresult = {'chart': fig}", store)
    assert result.error is None, result.error
    table = go.Figure(plotly_input(result.charts[0])).data[0]
    assert table.type == "table" and list(table.header.values) == ["qid", "T1"]
    assert list(table.cells.values[0]) == list(_summary(store)["qid"].head(4))


def test_update_layout_updatemenus(store, planted):
    result = run_analysis("fig = px.line(data['t1'][data['t1']['qid'].isin(['0', '1'])], x='calibrated_at', "
                          "y='value', color='qid')\n"
                          "fig.update_layout(updatemenus=[dict(type='buttons', buttons=["
                          "dict(label='Linear', method='relayout', args=[{'yaxis.type': 'linear'}]), "
                          "dict(label='Log', method='relayout', args=[{'yaxis.type': 'log'}])])])\n"
                          "result = {'chart': fig}", store)
    assert result.error is None, result.error
    menu = go.Figure(plotly_input(result.charts[0])).layout.updatemenus[0]
    assert [b.label for b in menu.buttons] == ["Linear", "Log"]
    assert menu.buttons[1].args[0] == {"yaxis.type": "log"}


def test_reducer_names_in_every_accepted_form(store, planted):
    out = _run("s = data['t1']['value']\ndf = data['t1']\n"
               "a = s.agg(pd.Index(['sum', 'mean']))\n"
               "b = df.groupby('qid').agg(m=pd.NamedAgg('value', 'max'), n=('value', 'min'))\n"
               "c = pd.pivot_table(df, 'value', 'qid', None, 'median')\n"
               "k = {'func': ['min', 'max']}\nd = s.agg(**k)\n"
               "result = {'output': json.dumps([float(a['sum']), float(a['mean']), float(b.loc['5', 'm']), "
               "float(b.loc['5', 'n']), float(c.loc['5', 'value']), float(d['max'])])}", store)
    t1 = store["t1"]
    q5 = t1[t1["qid"] == "5"]["value"]
    assert json.loads(out) == pytest.approx([t1["value"].sum(), t1["value"].mean(), q5.max(), q5.min(), q5.median(),
                                             t1["value"].max()])


def test_callbacks_and_star_args(store, planted):
    out = _run("names = sorted(data['chip_summary']['qid'].head(12).tolist(), key=len)\n"
               "lens = list(map(len, names))\nbig = list(filter(lambda q: len(q) > 1, names))\n"
               "args = (data['t1']['value'],)\nm = np.mean(*args)\n"
               "longest = max(names, key=len)\n"
               "picked = [f([3, 1, 2]) for f in [min, max, len, sum]]\n"
               "result = {'output': json.dumps([lens, big, round(float(m), 9), longest, picked])}", store)
    names = sorted(_summary(store)["qid"].head(12).tolist(), key=len)
    assert json.loads(out) == [[len(n) for n in names], [n for n in names if len(n) > 1],
                               round(float(np.mean(store["t1"]["value"])), 9), max(names, key=len), [1, 3, 3, 6]]


def test_iana_time_zones_still_convert(store, planted):
    out = _run("t = pd.to_datetime(data['t1']['calibrated_at']).head(2)\n"
               "print(t.dt.tz_convert('Asia/Tokyo').dt.strftime('%Y-%m-%d %H:%M').tolist())\n"
               "print(pd.Timestamp('2026-07-01 12:00', tz='dateutil/Europe/Berlin').strftime('%H:%M %Z'))\n"
               "print(pd.date_range('2026-07-01', periods=2, tz='UTC').tz_convert('America/New_York')[0].hour)",
               store)
    first = pd.to_datetime(store["t1"]["calibrated_at"]).head(2).dt.tz_convert("Asia/Tokyo")
    lines = out.splitlines()
    assert lines[0] == str(first.dt.strftime("%Y-%m-%d %H:%M").tolist())
    assert lines[1] == "12:00 CEST"
    assert lines[2] == str(pd.Timestamp("2026-07-01", tz="UTC").tz_convert("America/New_York").hour)
