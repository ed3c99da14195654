"""One display rule for every number: values planted in a small QDash database, then every place that prints them
(the What changed tables, the daily report, the copilot's tool sentences, the qubit health findings) compared
against ONE table of strings written here by hand.

The planted day-5 -> day-6 changes of chip 16Qa (16 qubits: labels Q00..Q15):
- Q00 qubit frequency 5.0474015 -> 5.0474 GHz: a change of -1.5 kHz (never "-0.0000015 GHz")
- Q01 qubit frequency 4.81 -> 4.8224 GHz: +12.4 MHz
- Q00 X90 fidelity 0.998 -> 0.99912: 99.80% -> 99.91%, +0.11 pp (percentage points)
- coupling 0-1 ZX90 fidelity 0.97 -> 0.955: Q00→Q01, -1.50 pp
- Q01 T1 33 -> 10 μs: -23.0 μs; -69.7%; the one drop figure of the health report is 70% (33 -> 10)
- Q00 T2* 20 -> 20 μs: "no change"
- Q02 T1 failed in both runs ("SNR 1.7 < 3.0" in the newest): "failed", and its change "not measured"
qubit.data (what the chip summary reads): Q00 5.0474 GHz, Q01 4.8224 GHz -> median 4.9349 GHz (four significant
figures then four decimals printed 4.9350).
"""

from __future__ import annotations

import copy
import json
import re
import uuid
from html import unescape

import pandas as pd
import pytest

from copilot_core.analysis.compare import compare
from copilot_core.analysis.compare_tables import (
    CHANGE_NUMBERS,
    as_numbers,
    metric_summary,
    ranked_changes,
    shown_changes,
    shown_summary,
)
from copilot_core.analysis.health import qubit_health
from copilot_core.data.connection import ensure_indexes, open_memory_database
from copilot_core.data.repository import CalibrationRepository
from copilot_core.data.runs import RunReader
from copilot_core.report import chip_report
from copilot_core.tools import DataStore, Toolkit
from tests.data.conftest import CHIP, DOCS, P1, _exec_id, _task

# ---- THE table: (metric title, label) -> (before, after, change, change %), written by hand ------------------
CHANGES = {
    ("Qubit frequency", "Q00"): ("5.0474 GHz", "5.0474 GHz", "-1.5 kHz", "< 0.1%"),
    ("Qubit frequency", "Q01"): ("4.8100 GHz", "4.8224 GHz", "+12.4 MHz", "+0.3%"),
    ("X90 gate fidelity", "Q00"): ("99.80%", "99.91%", "+0.11 pp", "+0.1%"),
    ("ZX90 gate fidelity", "Q00→Q01"): ("97.00%", "95.50%", "-1.50 pp", "-1.5%"),
    ("T1", "Q01"): ("33.0 μs", "10.0 μs", "-23.0 μs", "-69.7%"),
    ("T2*", "Q00"): ("20.0 μs", "20.0 μs", "no change", "no change"),
    ("T1", "Q02"): ("failed", "failed", "not measured", "not measured"),
}
# metric title -> (median before, median after, median of per-qubit changes)
SUMMARY = {
    "Qubit frequency": ("4.9287 GHz", "4.9349 GHz", "+6.2 MHz"),
    "X90 gate fidelity": ("99.80%", "99.91%", "+0.11 pp"),
    "ZX90 gate fidelity": ("97.00%", "95.50%", "-1.50 pp"),
}
CHIP_SUMMARY_SENTENCE = "qubit_frequency median 4.9349 GHz (mean 4.9349 GHz, 2 qubits)"
COMPARE_SENTENCE = ("Q00 Qubit frequency: previous run 5.0474 GHz, latest run 5.0474 GHz; change -1.5 kHz (< 0.1%); "
                    "Q01 Qubit frequency: previous run 4.8100 GHz, latest run 4.8224 GHz; change +12.4 MHz (+0.3%)")
T1_DROP = "T1 10.0 μs dropped 70% below its own 7-day median (33.0 μs)."
FAILED_TARGET, FAILED_MESSAGE = "Q02", "SNR 1.7 < 3.0"
NEVER = ("None", "nan", "NaN", "0.0000015", "4.9350")


def _planted() -> dict[str, list[dict]]:
    docs = copy.deepcopy(DOCS)
    tasks = docs["task_result_history"]
    for doc in tasks:
        if doc["execution_id"] == _exec_id(5) and doc["name"] == "CheckRamsey" and doc["qid"] == "0":
            doc["output_parameters"]["qubit_frequency"]["value"] = 5.0474015
    ghz, us, au = "GHz", "μs", "a.u."
    tasks += [
        _task(101, 6, "CheckRamsey", "0", "completed", {"qubit_frequency": (5.0474, ghz), "t2_star": (20.0, us)}),
        _task(102, 6, "CheckRamsey", "1", "completed", {"qubit_frequency": (4.8224, ghz)}),
        _task(103, 6, "X90InterleavedRandomizedBenchmarking", "0", "completed", {"x90_gate_fidelity": (0.99912, au)}),
        _task(104, 6, "ZX90InterleavedRandomizedBenchmarking", "0-1", "completed", {"zx90_gate_fidelity": (0.955, au)},
              task_type="coupling"),
        _task(105, 6, "CheckT1", "1", "completed", {"t1": (10.0, us)}),
        _task(106, 6, "CheckT1", "2", "failed", {}),
    ]
    tasks[-1]["message"] = FAILED_MESSAGE
    by_qid = {q["qid"]: q for q in docs["qubit"] if q["project_id"] == P1 and q["chip_id"] == CHIP}
    for qid, value in (("0", 5.0474), ("1", 4.8224)):
        by_qid[qid]["data"]["qubit_frequency"] = {"value": value, "unit": ghz, "calibrated_at": tasks[-2]["start_at"],
                                                  "execution_id": _exec_id(6)}
    by_qid["1"]["data"]["t1"] = dict(tasks[-2]["output_parameters"]["t1"])
    return docs


@pytest.fixture(scope="module")
def repo():
    db = open_memory_database(f"display-{uuid.uuid4().hex}")
    for collection, rows in _planted().items():
        db[collection].insert_many(rows)
    ensure_indexes(db)
    yield CalibrationRepository(db, project_id=P1)
    db.close()


@pytest.fixture(scope="module")
def comparison(repo):
    return compare(RunReader(repo), repo.get_chip(CHIP), _exec_id(5), _exec_id(6))


def _cells(html: str, table_id: str) -> list[list[str]]:
    body = re.search(rf'<table id="{table_id}">(.*?)</table>', html, re.DOTALL).group(1)
    return [[unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", tr, re.DOTALL)]
            for tr in re.findall(r"<tr>(.*?)</tr>", body, re.DOTALL)[1:]]


def test_what_changed_tables_print_the_table(comparison):
    """The page's ranked, band and lost tables are ``shown_changes`` of the comparison's rows."""
    shown = shown_changes(comparison.frame)
    rows = {(r["title"], r["label"]): (r["before"], r["after"], r["change"], r["change_pct"])
            for r in shown.to_dict("records")}
    for key, expected in CHANGES.items():
        assert rows[key] == expected, key
    for cells in rows.values():
        assert not any(text in cell for cell in cells for text in NEVER), cells
    summary = {r["title"]: (r["median_before"], r["median_after"], r["median_change"])
               for r in shown_summary(metric_summary(comparison)).to_dict("records")}
    for title, expected in SUMMARY.items():
        assert summary[title] == expected, title


def test_the_daily_report_prints_the_same_table(repo):
    html = chip_report(repo, repo.get_chip(CHIP)).html
    ranked = {(c[0], c[1]): (c[2], c[3], c[4], c[5]) for c in _cells(html, "ranked")}
    for key, expected in CHANGES.items():
        if expected[2] != "not measured":  # the ranked table lists changes only
            assert ranked[key] == expected, key
    changes = {c[0]: (c[3], c[4], c[5]) for c in _cells(html, "changes")}
    for title, expected in SUMMARY.items():
        assert changes[title] == expected, title
    assert [FAILED_TARGET, FAILED_MESSAGE] == [c for c in _cells(html, "failed") if c[1] == FAILED_TARGET][0][1:3]
    own = html[html.index("<h1"):] if "<h1" in html else html
    text = unescape(re.sub(r"<[^>]+>", " ", re.sub(r"<script.*?</script>", "", own, flags=re.DOTALL)))
    for never in NEVER:
        assert not re.search(rf"(?<![\w.]){re.escape(never)}(?![\w])", text), never
    assert "median of per-qubit changes" in text


def test_copilot_tool_sentences_print_the_table(repo):
    kit = Toolkit(repo, store=DataStore())
    kit.begin_request()
    summary = kit.execute("get_chip_summary", {"chip_id": CHIP, "param_names": ["qubit_frequency"]})
    assert summary.ok, summary.error
    assert CHIP_SUMMARY_SENTENCE in json.loads(summary.model_text)["answer"]
    compared = kit.execute("compare_calibrations", {"chip_id": CHIP, "from": _exec_id(5), "to": _exec_id(6),
                                                    "metrics": ["qubit_frequency"], "qids": ["0", "1"]})
    assert compared.ok, compared.error
    assert COMPARE_SENTENCE in json.loads(compared.model_text)["answer"]


def test_a_health_report_gives_one_drop_figure_per_metric(repo):
    findings = qubit_health(repo, CHIP, "1").findings
    figures = [f for f in findings if f.startswith("T1 ") and "%" in f]
    assert figures == [T1_DROP], findings


def test_ranked_rows_keep_the_table_order(comparison):
    """Sorting happens on numbers before the text is printed: the largest relative change stays first."""
    top = shown_changes(ranked_changes(comparison)).iloc[0]
    assert (top["title"], top["label"]) in CHANGES


# (metric title, label) -> (before, after, change) as the numbers the page's grid sorts, by hand; None = missing
NUMBERS = {
    ("T1", "Q01"): (33.0, 10.0, -23.0),
    ("X90 gate fidelity", "Q00"): (99.8, 99.912, 0.112),
    ("ZX90 gate fidelity", "Q00→Q01"): (97.0, 95.5, -1.5),
    ("T2*", "Q00"): (20.0, 20.0, 0.0),
    ("T1", "Q02"): (None, None, None),
}


def test_the_page_grid_sorts_numbers_and_a_missing_value_is_missing(comparison):
    """What the What changed tables send under the text: floats in display units, NaN (never 0) where failed."""
    numbers = as_numbers(comparison.frame, CHANGE_NUMBERS)
    for column in CHANGE_NUMBERS:
        assert pd.api.types.is_float_dtype(numbers[column]), column
    rows = {(r["title"], r["label"]): r for r in numbers.to_dict("records")}
    for key, expected in NUMBERS.items():
        for column, want in zip(("before", "after", "change"), expected):
            got = rows[key][column]
            assert (pd.isna(got) if want is None else got == pytest.approx(want)), (key, column, got)


# tool call -> the start of its one-line summary (shown under "show work") or its message, written by hand
TOOL_LINES = [
    ("get_task_history", {"task_name": "CheckT1", "qid": "2"}, "CheckT1 on Q02: "),
    ("get_task_history", {"task_name": "ZX90InterleavedRandomizedBenchmarking", "qid": "0-1"},
     "ZX90InterleavedRandomizedBenchmarking on Q00→Q01: "),
    ("get_latest_task_result", {"task_name": "CheckNothing", "qid": "5"}, "no task named CheckNothing ran on 16Qa"),
    ("list_available_parameters", {"qid": "1"}, "on 16Qa Q01"),
]


@pytest.mark.parametrize(("name", "args", "line"), TOOL_LINES)
def test_tool_sentences_name_targets_as_the_tables_do(repo, name, args, line):
    kit = Toolkit(repo, store=DataStore())
    kit.begin_request()
    out = kit.execute(name, {"chip_id": CHIP, **args})
    said = out.summary if out.ok else out.model_text
    assert line in said, said
