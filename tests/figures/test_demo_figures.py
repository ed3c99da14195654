"""The demo writes fit figures for its newest results on a fresh data directory, from the stored values."""

from __future__ import annotations

import json
import os
import math
import re
import subprocess
import sys

import numpy as np
import pytest

from copilot_core.data.connection import open_database
from copilot_core.data.repository import CalibrationRepository
from copilot_core.demo.figures import FIGURES
from copilot_core.figures import figure_root, task_figure
from copilot_core.report import chip_report
from copilot_core.settings import Settings
from tests.cli import run_main
from tests.conftest import ROOT


@pytest.fixture(scope="module")
def fresh_demo(tmp_path_factory):
    data_dir = tmp_path_factory.mktemp("fresh") / ".data"
    cmd = [sys.executable, "-m", "copilot_core.demo", "--if-empty", "--data-dir", str(data_dir), "--chips", "16",
           "--days", "9"]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "fit figures in" in done.stdout
    settings = Settings(data_dir=data_dir)
    db = open_database(settings)
    yield settings, db
    db.close()


def test_every_qubit_task_of_the_newest_execution_has_its_figure(fresh_demo):
    settings, db = fresh_demo
    root = figure_root(settings)
    newest = db["execution_history"].find_one({"chip_id": "16Qv1", "status": "completed"}, sort=[("start_at", -1)])
    rows = list(db["task_result_history"].find({"execution_id": newest["execution_id"], "task_type": "qubit",
                                                "status": "completed"}))
    assert {r["name"] for r in rows} >= {"CheckT1", "CheckT2Echo", "CheckRamsey"}
    for row in rows:
        stored = row["json_figure_path"][0]
        assert stored.startswith(f"/app/calib_data/projects/demo-project/chips/16Qv1/executions/"
                                 f"{row['execution_id']}/fig/")
        if row["name"] in FIGURES:
            assert (settings.data_dir / "calib_data" / stored.removeprefix("/app/calib_data/")).is_file(), stored
            assert task_figure(root, row, 16).plotly is not None


def test_the_t1_fit_curve_is_the_stored_t1(fresh_demo):
    settings, db = fresh_demo
    repo = CalibrationRepository(db)
    for qid in ("0", "5", "11"):
        row = repo.latest_task_result("16Qv1", "CheckT1", qid)
        if row is None:
            continue
        t1 = row["output_parameters"]["t1"]["value"]
        shown = task_figure(figure_root(settings), row, 16)
        fit = next(t for t in shown.plotly["data"] if t["mode"] == "lines")
        assert f"T1 = {t1:.4g} μs" in fit["name"]
        x = np.asarray(fit["x"], dtype=float)
        assert x[-1] == pytest.approx(5 * t1, rel=1e-4)
        expected = [0.95 * math.exp(-v / t1) + 0.02 for v in x]  # a single exponential with the stored T1
        assert list(fit["y"]) == pytest.approx(expected, abs=1e-5)


def test_the_daily_report_embeds_the_fits_of_flagged_qubits(fresh_demo):
    settings, db = fresh_demo
    repo = CalibrationRepository(db)
    chip = repo.get_chip("16Qv1")
    plain = chip_report(repo, chip)
    report = chip_report(repo, chip, figures=figure_root(settings))
    flags = report.context["drift"]
    t1_flags = [f for f in flags if f["metric"] == "T1"]
    assert t1_flags, "the demo's T1 drops should be flagged"
    assert "Fit figures of the flagged qubits" in report.html and "Fit figures" not in plain.html
    newest = db["execution_history"].find_one({"chip_id": "16Qv1", "status": "completed"}, sort=[("start_at", -1)])
    for flag in t1_flags:
        qid = str(int(flag["qubit"].lstrip("Q")))
        stored = db["task_result_history"].find_one(
            {"chip_id": "16Qv1", "qid": qid, "name": "CheckT1", "status": "completed", "excluded": {"$ne": True},
             "start_at": {"$lte": newest["end_at"]}}, sort=[("start_at", -1)])
        t1 = stored["output_parameters"]["t1"]["value"]
        assert json.dumps(f"fit: T1 = {t1:.4g} μs")[1:-1] in report.html  # as plotly writes it into the div
    assert report.html.count('id="flag-figure-') == len(flags[:12])
    urls = re.compile("https?://")  # the inlined plotly.js names some; the figures add none (self-contained)
    assert len(urls.findall(report.html)) == len(urls.findall(plain.html))


def test_the_cli_tool_shows_the_fit_line_on_the_demo(fresh_demo, tmp_path):
    settings, db = fresh_demo
    row = CalibrationRepository(db).latest_task_result("16Qv1", "CheckT1", "3")
    env = {k: v for k, v in os.environ.items() if k not in ("MONGODB_URI", "CALIB_DATA_DIR")}
    env |= {"DATA_DIR": str(settings.data_dir), "CALIBRATION_COPILOT_SECRETS": str(tmp_path / "none.toml")}
    done = run_main(env, "tool", "get_task_figure", "--args", '{"chip_id": "16Qv1", "qid": "3", "parameter_name": "t1"}')
    assert done.returncode == 0, done.stderr
    t1 = row["output_parameters"]["t1"]
    shown = json.loads(done.stdout)["answer"]
    assert shown.startswith(f"CheckT1 fit of Q03 (completed, {row['end_at']:%Y-%m-%d %H:%M} UTC, execution "
                            f"{row['execution_id']}): t1 = {t1['value']:.1f} ± {t1['error']:.1f} μs")
