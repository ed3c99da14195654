"""Qubits page: table values equal qubit.data in display units; a selected row shows the health report."""

from __future__ import annotations

import pandas as pd
import pytest

from copilot_core.analysis.qubit_table import KEY_METRICS, band_column, value_column
from copilot_core.domain.metrics import BANDS, CATALOGUE, SCORED_COUPLING_METRICS, SCORED_QUBIT_METRICS, metric
from copilot_core.domain.topology import qubit_label, topology_for
from copilot_core.render_safety import unescape
from tests.pages.conftest import dataframe, displayed

PAGE = "pages/qubits.py"


def table(at):
    return dataframe(at, "qubit", "last calibrated")


def select_row(at, row):
    key = next(e.proto.id.rsplit("-", 1)[-1] for e in at.dataframe if "qubits_table" in e.proto.id)
    at.session_state[key] = {"selection": {"rows": [row], "columns": [], "cells": []}}
    at.run()
    assert not at.exception


def stored_display_values(app_repo, chip: dict, name: str) -> list[float | None]:
    """Display values of ``qubit.data.<name>`` per qid 0..size-1, read straight from the collection."""
    m = CATALOGUE[name]
    docs = app_repo.db["qubit"].find({"chip_id": chip["chip_id"]}, {"_id": 0, "qid": 1, f"data.{name}.value": 1})
    raw = {d["qid"]: ((d.get("data") or {}).get(name) or {}).get("value") for d in docs}
    return [m.to_display(raw.get(str(q))) for q in range(chip["size"])]


def test_table_values_are_numbers_in_display_units_shown_at_the_labs_precision(open_page, app_repo, demo_chip):
    at = open_page(PAGE)
    data, shown = table(at), displayed(at, "qubit", "last calibrated")
    assert list(data["qid"]) == [str(q) for q in range(demo_chip["size"])]
    assert list(data["qubit"]) == [qubit_label(q, demo_chip["size"]) for q in range(demo_chip["size"])]
    checked = 0
    for name in KEY_METRICS:
        m = CATALOGUE[name]
        expected = stored_display_values(app_repo, demo_chip, name)
        if all(v is None for v in expected):
            assert value_column(m) not in data  # a parameter nobody measures is not a column of blanks
            continue
        assert pd.api.types.is_float_dtype(data[value_column(m)])  # numbers, so the grid sorts by value
        assert [None if pd.isna(v) else v for v in data[value_column(m)]] == pytest.approx(expected)
        decimals = {"%": 2, "GHz": 4, "MHz": 1, "μs": 1}.get(m.unit)  # the lab's usual precision per unit
        for got, want in zip(shown[value_column(m)], expected, strict=True):  # "—", never "None", "nan" or 0
            assert got == ("—" if want is None else f"{want:.{decimals}f}" if decimals is not None else f"{want:.4g}")
        if m.good is not None:
            bands = [None if pd.isna(b) else b for b in data[band_column(m)]]
            assert bands == [m.score(v) for v in expected]  # the cell tint's band
        checked += 1
    assert checked >= 5
    assert all(t == "—" for t, v in zip(shown["no valid value"], data["no valid value"], strict=True) if pd.isna(v))
    stamps = [t for t in data["last calibrated"] if not pd.isna(t)]
    assert pd.api.types.is_datetime64_any_dtype(data["last calibrated"]) and stamps
    assert all(s == "—" or len(s) == len("06-05 09:30") for s in shown["last calibrated"])


def test_sorting_a_value_column_orders_the_qubits_by_value(open_page, app_repo, demo_chip):
    at = open_page(PAGE)
    data = table(at)
    for name in ("t1", "average_readout_fidelity", "qubit_frequency"):
        column = value_column(CATALOGUE[name])
        values = stored_display_values(app_repo, demo_chip, name)
        measured = [q for q, v in enumerate(values) if v is not None]
        missing = [str(q) for q, v in enumerate(values) if v is None]
        if name == "t1":  # T1 spans two- and three-digit μs: sorted as text, "102.4" would precede "35.1"
            assert sorted(measured, key=lambda q: f"{values[q]:.1f}") != sorted(measured, key=lambda q: values[q])
        # what a click on the column header does in the grid: sort by the cells' data, a missing value
        # counting as the smallest (first when ascending, last when descending)
        ascending = [str(q) for q in sorted(measured, key=lambda q: (values[q], q))]
        descending = [str(q) for q in sorted(measured, key=lambda q: (-values[q], q))]
        got = data.sort_values(column, kind="stable", na_position="first")["qid"]
        assert list(got) == missing + ascending, name
        got = data.sort_values(column, ascending=False, kind="stable", na_position="last")["qid"]
        assert list(got) == descending + missing, name


def test_filters_find_a_qubit_and_the_bad_ones(open_page, app_repo, demo_chip):
    at = open_page(PAGE)
    at.text_input(key="qubits_find").set_value(qubit_label(5, demo_chip["size"])).run()
    assert list(table(at)["qid"]) == ["5"]
    at.text_input(key="qubits_find").set_value("").run()
    at.checkbox(key="qubits_only_bad").check().run()
    params = app_repo.all_qubit_params(demo_chip["chip_id"])
    scored = [n for n in KEY_METRICS if CATALOGUE[n].good is not None or CATALOGUE[n].bad is not None]
    bad = [str(q) for q in range(demo_chip["size"])
           if any(metric(n).score(metric(n).to_display((params.get(str(q), {}).get(n) or {}).get("value"))) == "bad"
                  for n in scored)]
    assert list(table(at)["qid"]) == bad


def test_selecting_a_row_shows_the_health_report(open_page, app_repo, demo_chip):
    at = open_page(PAGE)
    assert any("Select a row" in i.value for i in at.info)
    chip_id, size = demo_chip["chip_id"], demo_chip["size"]
    row = 7
    select_row(at, row)
    qid = table(at).iloc[row]["qid"]
    heading = unescape(next(m.value for m in at.markdown if m.value.startswith("####")))  # as a reader sees it
    params = app_repo.qubit_params(chip_id, qid)
    bands = [metric(n).score(metric(n).to_display((params.get(n) or {}).get("value"))) for n in SCORED_QUBIT_METRICS]
    worst = min((b for b in bands if b), key=BANDS.index, default=None)
    assert f"Health of {qubit_label(qid, size)} on {chip_id}: {worst or 'no scored data'}" in heading
    report = dataframe(at, "metric", "trend", "vs neighbours")
    t1 = report.set_index("metric").loc["T1"]
    assert t1["band"] == metric("t1").score(metric("t1").to_display(params["t1"]["value"]))
    couplings, shown = dataframe(at, "coupling", "role"), displayed(at, "coupling", "role")
    edges = topology_for(size).couplings_of(int(qid))
    assert list(couplings["coupling"]) == [f"{qubit_label(e.control, size)}→{qubit_label(e.target, size)}"
                                           for e in edges]
    docs = {d["qid"]: d.get("data") or {} for d in app_repo.db["coupling"].find({"chip_id": chip_id},
                                                                              {"_id": 0, "qid": 1, "data": 1})}
    for name in SCORED_COUPLING_METRICS:
        m = metric(name, kind="coupling")
        column = value_column(m)
        assert pd.api.types.is_float_dtype(couplings[column])  # numbers, so the grid sorts by value
        for row, e in enumerate(edges):  # the control-target document first, else the reverse one
            entry = docs.get(f"{e.control}-{e.target}", {}).get(name) or docs.get(f"{e.target}-{e.control}", {}).get(name)
            want = m.to_display((entry or {}).get("value"))
            got = couplings[column].iloc[row]
            assert (pd.isna(got) and want is None) or got == pytest.approx(want)
            assert shown[column].iloc[row] == ("—" if want is None else f"{want:.2f}")  # the unit is in the header
            assert (None if pd.isna(b := couplings[band_column(m)].iloc[row]) else b) == m.score(want)


def test_selection_acts_once_and_the_picker_wins_afterwards(open_page, demo_chip):
    at = open_page(PAGE)
    select_row(at, 3)
    picker = at.selectbox(key=f"_w_qubits_selected_{demo_chip['chip_id']}")
    assert picker.value == "3"
    picker.set_value("10").run()
    at.run()  # the ticked row persists across reruns but must not pull the report back to Q3
    assert at.selectbox(key=f"_w_qubits_selected_{demo_chip['chip_id']}").value == "10"
    assert any(qubit_label(10, demo_chip["size"]) in m.value for m in at.markdown if m.value.startswith("####"))


def test_analyze_with_copilot_is_disabled_with_the_reason_when_no_model_is_configured(open_page, demo_chip):
    at = open_page(PAGE)  # the page tests run with no OPENAI_API_KEY / OPENAI_BASE_URL
    select_row(at, 2)
    button = at.button(key="qubits_analyze")
    assert button.disabled
    reason = unescape(" ".join(c.value for c in at.caption))
    assert "No language model is configured" in reason and "make local-llm" in reason
    assert at.title[0].value == "Qubits"  # nothing switched to a copilot that cannot answer
