"""What changed page: defaults to the last two completed runs, shows the database's numbers, a ranked row or a
chart click opens the qubit, and the daily report shows the same numbers as the page."""

from __future__ import annotations

import re
import statistics
from html import unescape

import pandas as pd
import pytest

from copilot_core.domain.metrics import CATALOGUE, metric
from copilot_core.report import chip_report
from tests.compare.conftest import executions_of, expected_point
from tests.pages.conftest import dataframe, displayed, figures, texts

PAGE = "pages/compare.py"


@pytest.fixture
def runs(app_repo, demo_chip):
    return [e for e in executions_of(app_repo.db, "demo-project", demo_chip["chip_id"]) if e["status"] == "completed"]


def test_default_is_the_last_two_runs_with_the_database_s_numbers(open_page, app_repo, demo_chip, runs):
    at = open_page(PAGE)
    assert at.title[0].value == "What changed"
    chip_id = demo_chip["chip_id"]
    assert at.selectbox(key=f"_w_compare_to_{chip_id}").value == runs[0]["execution_id"]
    assert at.selectbox(key=f"_w_compare_from_{chip_id}").value == runs[1]["execution_id"]
    a = expected_point(app_repo.db, "demo-project", chip_id, [runs[1]["execution_id"]])
    b = expected_point(app_repo.db, "demo-project", chip_id, [runs[0]["execution_id"]])
    summary = displayed(at, "title", "compared", "median_change").set_index("title")
    # the display rule by hand: μs changes with one decimal, fidelity changes in percentage points
    for name, spec in (("t1", "{:+.1f} μs"), ("t2_echo", "{:+.1f} μs"), ("average_readout_fidelity", "{:+.2f} pp")):
        m = metric(name)
        deltas = [(b[k] - a[k]) * m.scale for k in b if k[0] == name and k in a]
        assert summary.loc[m.title, "compared"] == str(len(deltas))
        assert summary.loc[m.title, "median_change"] == spec.format(statistics.median(deltas))
        assert summary.loc[m.title, "worse"] == str(sum(d < 0 for d in deltas))
    ranked = displayed(at, "label", "change", "z")
    top = ranked.iloc[0]
    name = next(n for n in CATALOGUE if metric(n).title == top["title"])
    key = (name, str(int(top["label"][1:])))
    number = float(re.match(r"[-+][0-9.]+", top["change"]).group(0))
    delta = (b[key] - a[key]) * metric(name).scale
    in_unit = {"GHz": 1e6 if abs(delta) < 1e-3 else 1e3}.get(metric(name).unit, 1.0)  # kHz / MHz
    assert number == pytest.approx(delta * in_unit, abs=0.051)
    lost = next(e.value for e in at.dataframe if "compare_lost" in e.proto.id)
    assert set(lost["status_after"]) <= {"failed", "excluded", "nan", "absent"} and len(lost) > 0
    titles = {metric(n).title: n for n in {k[0] for k in a}}
    shown = {(titles[t], str(int(lbl[1:]))) for t, lbl in zip(lost["title"], lost["label"]) if "→" not in lbl}
    measured_after = {k[0] for k in b}
    gone = {k for k in a if k not in b and k[0] in measured_after and "-" not in k[1] and k[0] in titles.values()
            and metric(k[0]).title in set(summary.index)}
    assert shown == gone
    chart = figures(at)["compare_chart"]
    assert chart["layout"]["title"]["text"].startswith("Change in T1")
    assert any(t.startswith("run ") and "→ run" in t for t in texts(at))


def _key(title: str, label: str) -> tuple[str, str]:
    name = next(n for n in CATALOGUE if metric(n).title == title)
    return name, "-".join(str(int(part)) for part in label.replace("Q", "").split("→"))


def test_tables_hold_numbers_so_a_header_click_sorts_by_value(open_page, app_repo, demo_chip, runs):
    """The grid sorts what it is sent: the value columns are floats in display units (NaN, never 0 or text, where
    there is no value), each cell drawn as the display rule's text; the numbers are the database's."""
    at = open_page(PAGE)
    chip_id = demo_chip["chip_id"]
    a = expected_point(app_repo.db, "demo-project", chip_id, [runs[1]["execution_id"]])
    b = expected_point(app_repo.db, "demo-project", chip_id, [runs[0]["execution_id"]])
    tables = {key: e for key in ("compare_ranked", "compare_bands", "compare_lost")
              for e in at.dataframe if key in e.proto.id}
    tables["compare_summary"] = next(e for e in at.dataframe if "median_change" in e.value.columns)
    assert {"compare_summary", "compare_ranked", "compare_lost"} <= set(tables), [e.proto.id for e in at.dataframe]
    for key, element in tables.items():
        values = element.value
        numeric = [c for c in ("before", "after", "change", "change_pct", "z", "median_before", "median_after",
                               "median_change") if c in values]
        assert numeric, key
        for column in numeric:
            assert pd.api.types.is_float_dtype(values[column]), (key, column, values[column].dtype)
        shown = displayed(at, *values.columns)
        assert not shown[numeric].isin(["None", "nan", "NaN", ""]).any().any(), key
        if key == "compare_summary":
            continue
        for row, (title, label) in enumerate(zip(values["title"], values["label"])):
            name, qid = _key(title, label)
            scale = metric(name).scale
            for column, point in (("before", a), ("after", b)):
                if column not in values:
                    continue
                got = values[column].iloc[row]
                if (name, qid) in point:
                    assert got == pytest.approx(point[(name, qid)] * scale), (key, name, qid, column)
                else:  # failed, excluded, stored as 0 or not measured: a missing cell, never a 0
                    assert pd.isna(got), (key, name, qid, column)
                    assert shown[column].iloc[row] == "—"
            if "change" in values and (name, qid) in a and (name, qid) in b:
                assert values["change"].iloc[row] == pytest.approx((b[(name, qid)] - a[(name, qid)]) * scale)
    ranked = tables["compare_ranked"].value
    summary = tables["compare_summary"].value.set_index("title")
    shown = displayed(at, *ranked.columns)
    assert (shown["z"][ranked["z"].isna()] == "—").all()  # no spread: a missing cell, drawn as the placeholder
    assert all(t.endswith("×") for t in shown["z"][ranked["z"].notna()])
    t1 = metric("t1")
    before = [v * t1.scale for k, v in a.items() if k[0] == "t1"]
    assert summary.loc[t1.title, "median_before"] == pytest.approx(statistics.median(before))
    # a header click on "change": ascending by value, not alphabetically ("+10.0 μs" before "+2.0 μs")
    order = ranked.sort_values("change", kind="stable")["change"].tolist()
    assert order == sorted(order)


def test_days_mode_and_a_clear_message_for_the_same_day(open_page, demo_chip, runs):
    at = open_page(PAGE)
    at.radio(key="compare_by").set_value("two days").run()
    chip_id = demo_chip["chip_id"]
    day = runs[0]["start_at"].date().isoformat()
    assert at.selectbox(key=f"_w_compare_to_day_{chip_id}").value == day
    at.selectbox(key=f"_w_compare_from_day_{chip_id}").set_value(day).run()
    assert not at.exception
    assert any("same run" in w.value for w in at.warning)


def test_a_ranked_row_opens_that_qubit(open_page, demo_chip):
    at = open_page(PAGE)
    ranked = dataframe(at, "label", "change", "z")
    key = next(e.proto.id.rsplit("-", 1)[-1] for e in at.dataframe if "compare_ranked" in e.proto.id)
    at.session_state[key] = {"selection": {"rows": [0], "columns": [], "cells": []}}
    at.run()
    assert not at.exception and at.title[0].value == "Qubits"
    qid = str(int(ranked.iloc[0]["label"][1:].split("→")[0]))
    assert at.selectbox(key=f"_w_qubits_selected_{demo_chip['chip_id']}").value == qid


def test_a_chart_click_opens_that_qubit(open_page, demo_chip):
    at = open_page(PAGE)
    at.session_state["compare_chart"] = {"selection": {"points": [{"curve_number": 2, "customdata": "17"}],
                                                       "point_indices": [17], "box": [], "lasso": []}}
    at.run()
    assert not at.exception and at.title[0].value == "Qubits"
    assert at.selectbox(key=f"_w_qubits_selected_{demo_chip['chip_id']}").value == "17"


def test_report_shows_the_page_s_numbers(open_page, app_repo, demo_chip):
    at = open_page(PAGE)
    summary = displayed(at, "title", "compared", "median_change").set_index("title")  # the text the grid draws
    html = chip_report(app_repo, app_repo.get_chip(demo_chip["chip_id"])).html
    table = re.search(r'<table id="changes">(.*?)</table>', html, re.DOTALL).group(1)
    rows = {}
    for tr in re.findall(r"<tr>(.*?)</tr>", table, re.DOTALL)[1:]:
        cells = [unescape(re.sub(r"<[^>]+>", "", c)) for c in re.findall(r"<td[^>]*>(.*?)</td>", tr, re.DOTALL)]
        rows[cells[0]] = cells
    assert set(rows) == set(summary.index)
    for title, row in summary.iterrows():
        assert rows[title][2] == str(row["compared"])
        for col, index in (("median_before", 3), ("median_after", 4), ("median_change", 5)):
            assert rows[title][index] == row[col], (title, col)
            assert row[col] not in ("None", "nan", "")


def test_overview_offers_the_report(open_page, demo_chip):
    at = open_page()
    buttons = [b for b in at.get("download_button") if "overview_report" in b.proto.id]
    assert len(buttons) == 1 and buttons[0].proto.label == "Daily report (HTML)"
