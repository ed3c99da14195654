"""Figures from a QDash-shaped calib_data directory: both layouts, PNG and JSON, refused paths, missing files."""

from __future__ import annotations

import io
from datetime import datetime
from pathlib import Path

import plotly.io as pio
import pytest
from PIL import Image

from copilot_core.figures import FigureMissing, FigureRefused, FigureRoot, figure_root, task_figure
from copilot_core.figures.load import fit_values
from copilot_core.settings import PROJECT_ROOT, Settings
from tests.figures.conftest import CHIP, NEW_DIR, OLD_DIR, PREFIX


def _figure(qdash_figures, qid: str, name: str):
    root = FigureRoot(qdash_figures.root, PREFIX)
    rows = qdash_figures.repo.task_results(CHIP, qid=qid, task_name=name, limit=1)
    assert rows, f"fixture row {name} on {qid} not read back"
    return task_figure(root, rows[0], 16)  # the fixture chip's 16 qubits: labels Q00..Q15


def test_per_user_layout_json_is_drawn_with_the_stored_values(qdash_figures):
    shown = _figure(qdash_figures, "0", "CheckT1")
    assert shown.problem is None and shown.png is None
    assert list(shown.plotly["data"][0]["y"]) == qdash_figures.t1_y
    # the same figure as plotly itself reads the file QDash wrote
    expected = pio.read_json(qdash_figures.root / OLD_DIR / "t1_q0.json")
    assert list(shown.plotly["data"][0]["x"]) == list(expected.data[0].x)
    assert shown.fit == ("t1 = 45.3 ± 0.9 μs",)  # stored 45.31 ± 0.92 μs, at the pages' 0.1 μs
    assert shown.describe() == ("CheckT1 on Q00 (completed, 2025-06-07 09:01 UTC, execution 20250606-001): "
                                "t1 = 45.3 ± 0.9 μs")


@pytest.mark.parametrize(("qid", "size", "label"), [
    ("0", 16, "Q00"), ("69", 144, "Q069"), ("5", 64, "Q05"), ("115-118", 144, "Q115→Q118"), ("0-1", 16, "Q00→Q01"),
])
def test_a_caption_names_the_target_as_every_table_does(qdash_figures, qid, size, label):
    """Qubit and coupling labels in a figure caption are the tables' (``Q069``, ``Q115→Q118``), never the stored id."""
    row = {"name": "CheckCZ" if "-" in qid else "CheckT1", "qid": qid, "status": "completed",
           "execution_id": "20250607-001", "end_at": datetime(2025, 6, 7, 9, 1)}
    shown = task_figure(FigureRoot(qdash_figures.root, PREFIX), row, size)
    assert shown.label == label
    assert shown.describe() == (f"{row['name']} on {label} (completed, 2025-06-07 09:01 UTC, execution 20250607-001): "
                                "no fit values stored")


def test_fit_values_are_in_the_units_and_precision_the_tables_use():
    """A fidelity stored as a fraction in "a.u." reads in %, an anharmonicity stored in GHz reads in MHz, a
    QDash NaN-as-0 is left out, and a parameter the catalogue does not know keeps its stored unit."""
    stored = {"x90_gate_fidelity": {"value": 0.99873, "error": 0.00021, "unit": "a.u."},
              "anharmonicity": {"value": -0.2134, "error": 0.0012, "unit": "GHz"},
              "t1": {"value": 0, "error": 0.1, "unit": "μs"},
              "flux_offset": {"value": 1.23456, "unit": "V"}}
    assert fit_values(stored) == ("anharmonicity = -213.4 ± 1.2 MHz", "flux_offset = 1.2346 V",
                                  "x90_gate_fidelity = 99.87 ± 0.02%")


def test_per_project_layout_json_and_a_png_only_result(qdash_figures):
    ramsey = _figure(qdash_figures, "1", "CheckRamsey")
    assert list(ramsey.plotly["data"][0]["y"]) == qdash_figures.ramsey_y
    rb = _figure(qdash_figures, "1", "X90InterleavedRandomizedBenchmarking")
    assert rb.plotly is None and rb.png == qdash_figures.png
    assert Image.open(io.BytesIO(rb.png)).size == (12, 9)


def test_a_missing_file_says_so(qdash_figures):
    gone = _figure(qdash_figures, "1", "CheckT2Echo")
    assert not gone.shown
    assert gone.problem == f"figure file not found: {PREFIX}/{NEW_DIR}/gone.json"
    assert gone.notes == (f"figure file not found: {PREFIX}/{NEW_DIR}/gone.png",)


@pytest.mark.parametrize("qid, fragment", [("2", "leads outside the figure directory"),
                                           ("3", "climbs out of the figure directory"),
                                           ("4", "is outside the figure directory")])
def test_paths_out_of_the_root_are_refused_and_never_read(qdash_figures, qid, fragment):
    refused = _figure(qdash_figures, qid, "CheckT1")
    assert not refused.shown and fragment in refused.problem
    assert "918273645" not in repr(refused)  # the secret figure's value never arrives


@pytest.mark.parametrize("stored, fragment", [
    (f"{PREFIX}/projects/escape/secret.json", "leads outside"),  # a symlinked directory
    ("/etc/passwd", "outside the figure directory"),
    (f"{PREFIX}/{OLD_DIR}/t1_q0.py", "not a .png or .json"),
    (f"{PREFIX}/{OLD_DIR}/t1_q0.json\n", "not a plain file path"),
    (f"{PREFIX}/{OLD_DIR}/..\\..\\x.json", "climbs out"),
    ("C:/calib/x.json", "outside the figure directory"),
    ("~/x.json", "outside the figure directory"),
    (f"{PREFIX}", "climbs out"),
    (None, "no figure path stored"),
    (["a.json"], "no figure path stored"),
])
def test_resolve_refuses(qdash_figures, stored, fragment):
    with pytest.raises(FigureRefused, match=fragment.replace(".", r"\.")):
        FigureRoot(qdash_figures.root, PREFIX).resolve(stored)


def test_relative_paths_stay_under_the_root_and_a_missing_root_is_named(qdash_figures, tmp_path):
    root = FigureRoot(qdash_figures.root, PREFIX)
    assert root.resolve(f"{OLD_DIR}/t1_q0.json") == qdash_figures.root / OLD_DIR / "t1_q0.json"
    with pytest.raises(FigureMissing, match="does not exist .set CALIB_DATA_DIR"):
        FigureRoot(tmp_path / "nowhere", PREFIX).resolve(f"{PREFIX}/{OLD_DIR}/t1_q0.json")


def test_a_different_stored_prefix(qdash_figures):
    root = FigureRoot(qdash_figures.root, "/srv/qdash/calib_data/")
    assert root.resolve(f"/srv/qdash/calib_data/{NEW_DIR}/ramsey_q1.json").name == "ramsey_q1.json"
    with pytest.raises(FigureRefused):
        root.resolve(f"{PREFIX}/{NEW_DIR}/ramsey_q1.json")  # the default prefix is now "elsewhere"


def test_settings(tmp_path):
    default = figure_root(Settings(data_dir=tmp_path))
    assert default == FigureRoot(tmp_path / "calib_data", "/app/calib_data")
    set_ = figure_root(Settings(data_dir=tmp_path, extra={"CALIB_DATA_DIR": "lab/calib", "CALIB_DATA_PREFIX": "/x"}))
    assert set_ == FigureRoot(PROJECT_ROOT / "lab" / "calib", "/x")
    assert figure_root(Settings(extra={"CALIB_DATA_DIR": "/srv/c"})).root == Path("/srv/c")


def test_a_hostile_json_figure_is_refused_by_the_chart_check(qdash_figures):
    bad = qdash_figures.root / NEW_DIR / "bad.json"
    bad.write_text('{"data": [{"type": "scatter", "x": [1], "y": [1]}], "layout": {"images": '
                   '[{"source": "https://evil.example/pixel.png"}]}}', encoding="utf-8")
    row = {"name": "CheckT1", "qid": "5", "status": "completed", "json_figure_path": [f"{PREFIX}/{NEW_DIR}/bad.json"]}
    shown = task_figure(FigureRoot(qdash_figures.root, PREFIX), row, 16)
    assert not shown.shown and shown.problem.startswith("the chart check refused the figure")
    fake = qdash_figures.root / NEW_DIR / "fake.png"
    fake.write_bytes(b"<svg onload=alert(1)>")
    row = {"name": "CheckT1", "qid": "5", "status": "completed", "figure_path": [f"{PREFIX}/{NEW_DIR}/fake.png"]}
    assert task_figure(FigureRoot(qdash_figures.root, PREFIX), row, 16).problem == "the file is not a PNG image"
