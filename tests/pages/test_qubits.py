"""Qubits page: table values equal qubit.data in display units; a selected row shows the health report."""

from __future__ import annotations

import pandas as pd

from copilot_core.analysis.qubit_table import KEY_METRICS, band_column, value_column
from copilot_core.domain.metrics import BANDS, CATALOGUE, SCORED_QUBIT_METRICS, metric
from copilot_core.domain.topology import qubit_label, topology_for
from tests.pages.conftest import dataframe

PAGE = "pages/qubits.py"


def table(at):
    return dataframe(at, "qubit", "last calibrated")


def select_row(at, row):
    key = next(e.proto.id.rsplit("-", 1)[-1] for e in at.dataframe if "qubits_table" in e.proto.id)
    at.session_state[key] = {"selection": {"rows": [row], "columns": [], "cells": []}}
    at.run()
    assert not at.exception


def test_table_values_equal_qubit_data_in_display_units(open_page, app_repo, demo_chip):
    at = open_page(PAGE)
    shown = table(at)
    params = app_repo.all_qubit_params(demo_chip["chip_id"])
    assert list(shown["qid"]) == [str(q) for q in range(demo_chip["size"])]
    assert list(shown["qubit"]) == [qubit_label(q, demo_chip["size"]) for q in range(demo_chip["size"])]
    checked = 0
    for name in KEY_METRICS:
        m = CATALOGUE[name]
        expected = [m.to_display((params.get(str(q), {}).get(name) or {}).get("value")) for q in range(demo_chip["size"])]
        if all(v is None for v in expected):
            assert value_column(m) not in shown  # a parameter nobody measures is not a column of blanks
            continue
        decimals = {"%": 2, "GHz": 4, "MHz": 1, "μs": 1}.get(m.unit)  # the lab's usual precision per unit
        for got, want in zip(shown[value_column(m)], expected, strict=True):  # "—", never "None" or 0
            assert got == ("—" if want is None else f"{want:.{decimals}f}" if decimals is not None else f"{want:.4g}")
        if m.good is not None:
            bands = [None if pd.isna(b) else b for b in shown[band_column(m)]]
            assert bands == [m.score(v) for v in expected]
        checked += 1
    assert checked >= 5


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
    heading = next(m.value for m in at.markdown if m.value.startswith("####"))
    params = app_repo.qubit_params(chip_id, qid)
    bands = [metric(n).score(metric(n).to_display((params.get(n) or {}).get("value"))) for n in SCORED_QUBIT_METRICS]
    worst = min((b for b in bands if b), key=BANDS.index, default=None)
    assert f"Health of {qubit_label(qid, size)} on {chip_id}: {worst or 'no scored data'}" in heading
    report = dataframe(at, "metric", "trend", "vs neighbours")
    t1 = report.set_index("metric").loc["T1"]
    assert t1["band"] == metric("t1").score(metric("t1").to_display(params["t1"]["value"]))
    couplings = dataframe(at, "coupling", "role")
    assert len(couplings) == len(topology_for(size).couplings_of(int(qid)))


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
    reason = " ".join(c.value for c in at.caption)
    assert "No language model is configured" in reason and "make local-llm" in reason
    assert at.title[0].value == "Qubits"  # nothing switched to a copilot that cannot answer
