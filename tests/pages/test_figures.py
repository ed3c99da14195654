"""The lab's figures on the pages (AppTest): the Qubits health report, the heatmap drill-down, the comparison."""

from __future__ import annotations

import io
import math
from pathlib import Path

import pytest
from PIL import Image

from copilot_core.demo.figures import write_demo_figures
from copilot_core.domain.metrics import CATALOGUE
from copilot_core.figures import FigureRoot
from tests.pages.conftest import click_cell, dataframe, figures, texts

CALIB = "/app/calib_data/"
QID = "17"
LABEL = "Q017"  # how every table of the 144-qubit demo chip names it


def _on_disk(calib: Path, stored: str) -> Path:
    return calib / stored.removeprefix(CALIB)


@pytest.fixture(scope="module")
def chip_calib(tmp_path_factory, seeded_data_dir):
    """A figure directory for the 144-qubit demo chip's two newest runs, written outside the shared data
    directory; Q017's newest T2 echo result is a PNG only and its newest Ramsey figure is missing."""
    from copilot_core.data.connection import open_database
    from copilot_core.settings import Settings

    calib = tmp_path_factory.mktemp("calib")
    db = open_database(Settings(data_dir=seeded_data_dir))
    try:
        rows = list(db["task_result_history"].find({"chip_id": "144Qv2", "task_type": "qubit"}, {"_id": 0}))
    finally:
        db.close()
    assert write_demo_figures(rows, FigureRoot(calib)) > 1000
    newest = {}
    for r in sorted((r for r in rows if r["qid"] == QID and r["status"] == "completed"), key=lambda r: r["start_at"]):
        newest[r["name"]] = r
    echo, ramsey = newest["CheckT2Echo"], newest["CheckRamsey"]
    _on_disk(calib, echo["json_figure_path"][0]).unlink()
    buf = io.BytesIO()
    Image.new("RGB", (20, 10), (200, 30, 30)).save(buf, format="PNG")
    _on_disk(calib, echo["figure_path"][0]).write_bytes(buf.getvalue())
    _on_disk(calib, ramsey["json_figure_path"][0]).unlink()
    return calib, newest


@pytest.fixture
def with_figures(app_env, chip_calib, monkeypatch):
    monkeypatch.setenv("CALIB_DATA_DIR", str(chip_calib[0]))
    return chip_calib


def _t1_fit(spec: dict) -> dict:
    return next(t for t in spec["data"] if t.get("mode") == "lines")


def _check_t1_curve(spec: dict, t1: float) -> None:
    fit = _t1_fit(spec)
    assert fit["name"] == f"fit: T1 = {t1:.4g} μs"
    assert list(fit["y"]) == pytest.approx([0.95 * math.exp(-x / t1) + 0.02 for x in fit["x"]], abs=1e-5)


def _newest_per_task_with_figure(db, chip_id: str) -> list[dict]:
    """Q017's newest result of each task that stored a figure, newest first (pymongo on the raw documents)."""
    seen: dict[str, dict] = {}
    for row in db["task_result_history"].find({"chip_id": chip_id, "qid": QID}).sort("start_at", -1).limit(120):
        if (row.get("json_figure_path") or row.get("figure_path")) and row["name"] not in seen:
            seen[row["name"]] = row
    return list(seen.values())


def _fit_figures(at) -> dict[str, dict]:
    return {k: v for k, v in figures(at).items() if k.startswith("qubit_figure_")}


def test_qubits_report_draws_one_fit_at_a_time_and_every_task_has_its_tab(open_page, with_figures, demo_chip,
                                                                            app_repo):
    calib, newest = with_figures
    chip_id = demo_chip["chip_id"]
    latest = _newest_per_task_with_figure(app_repo.db, chip_id)
    at = open_page("pages/qubits.py")
    at.session_state[f"qubits_selected_{chip_id}"] = QID
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert [t.label for t in at.tabs] == [r["name"] for r in latest]  # every task's figure is one click away
    # opened first: a failed task's, else the fit of a metric the report shows as bad or degrading, else the newest
    report = dataframe(at, "metric", "band", "trend")
    flagged_titles = set(report[(report["band"] == "bad") | report["trend"].str.startswith("degrading")]["metric"])
    flagged = {m.name for m in CATALOGUE.values() if m.title in flagged_titles}
    expected = next((r for r in latest if r["status"] == "failed"), None) or \
        next((r for r in latest if flagged & set(r.get("output_parameters") or {})), latest[0])
    assert list(_fit_figures(at)) == [f"qubit_figure_{expected['name']}"]  # one chart sent, not one per task

    tab_key = f"qubit_figure_tab_{chip_id}_{QID}"
    at.session_state[tab_key] = "CheckT1"
    at.run()
    shown = _fit_figures(at)
    assert list(shown) == ["qubit_figure_CheckT1"]
    t1 = newest["CheckT1"]["output_parameters"]["t1"]["value"]
    _check_t1_curve(shown["qubit_figure_CheckT1"], t1)
    assert f"CheckT1 · qubit {QID} · {newest['CheckT1']['execution_id']}" in \
        shown["qubit_figure_CheckT1"]["layout"]["title"]["text"]
    page = texts(at)
    when = newest["CheckT1"]["end_at"].strftime("%Y-%m-%d %H:%M")
    # the caption names the qubit as the tables do and gives T1 at the pages' 0.1 μs
    assert any(t.startswith(f"CheckT1 on {LABEL} (completed, {when} UTC") and f"t1 = {t1:.1f} ± " in t for t in page)

    for task in ("X90InterleavedRandomizedBenchmarking", "CheckQubitSpectroscopy"):
        at.session_state[tab_key] = task
        at.run()
        assert list(_fit_figures(at)) == [f"qubit_figure_{task}"]

    at.session_state[tab_key] = "CheckRamsey"
    at.run()
    assert not _fit_figures(at)
    ramsey_path = newest["CheckRamsey"]["json_figure_path"][0]
    assert f"No figure: figure file not found: {ramsey_path}" in texts(at)

    at.session_state[tab_key] = "CheckT2Echo"
    at.run()
    assert not _fit_figures(at)
    images = at.get("image")
    assert len(images) == 1  # the T2 echo PNG, served by the app itself from the file's bytes
    url = images[0].value[0]
    assert "/media/" in url and "://" not in url and url.endswith(".png")
    assert any(t.startswith(f"CheckT2Echo on {LABEL} (completed") for t in texts(at))


def test_figures_off_when_the_directory_is_missing(open_page, app_env, monkeypatch, tmp_path, demo_chip):
    monkeypatch.setenv("CALIB_DATA_DIR", str(tmp_path / "not-mounted"))
    at = open_page("pages/qubits.py")
    at.session_state[f"qubits_selected_{demo_chip['chip_id']}"] = QID
    at.run()
    assert not at.exception
    assert not [k for k in figures(at) if k.startswith("qubit_figure")]
    assert any("does not exist (set CALIB_DATA_DIR" in t for t in texts(at)), [t for t in texts(at) if "igure" in t]


def test_heatmap_drilldown_shows_the_fit_of_the_metric(open_page, with_figures):
    _, newest = with_figures
    at = open_page("pages/heatmap.py")
    click_cell(at, QID)
    _check_t1_curve(figures(at)["drill_figure"], newest["CheckT1"]["output_parameters"]["t1"]["value"])


def test_compare_shows_the_fits_before_and_after_the_largest_qubit_change(open_page, with_figures, app_repo,
                                                                          demo_chip):
    at = open_page("pages/compare.py")
    ranked = dataframe(at, "title", "label", "change_pct")
    first = ranked.iloc[0]
    assert f"{first['title']} · {first['label']}" in at.selectbox(key="compare_figure_pick").format_func(0)
    runs = list(app_repo.db["execution_history"].find({"chip_id": demo_chip["chip_id"], "status": "completed"},
                                                      {"_id": 0, "execution_id": 1}).sort("start_at", -1).limit(2))
    shown = figures(at)
    assert shown["compare_figure_before"]["layout"]["title"]["text"].endswith(runs[1]["execution_id"])
    assert shown["compare_figure_after"]["layout"]["title"]["text"].endswith(runs[0]["execution_id"])
    assert f"qubit {first['qid']} ·" in shown["compare_figure_after"]["layout"]["title"]["text"]


def _newest_run_failed(db, chip_id: str) -> tuple[str, dict, dict]:
    """A qubit, its task whose newest run failed (no figure) and that task's newest completed run with a figure,
    read with pymongo."""
    rows = sorted(db["task_result_history"].find({"chip_id": chip_id, "task_type": "qubit"}, {"_id": 0}),
                  key=lambda r: r["start_at"], reverse=True)
    by_target: dict[tuple[str, str], list[dict]] = {}
    for r in rows:
        by_target.setdefault((r["qid"], r["name"]), []).append(r)
    for (qid, _), runs in sorted(by_target.items(), key=lambda kv: int(kv[0][0])):
        if runs[0]["status"] == "failed" and not runs[0].get("json_figure_path"):
            shown = next((r for r in runs if r.get("json_figure_path")), None)
            if shown is not None and runs[0].get("message"):
                return qid, runs[0], shown
    raise AssertionError(f"no qubit of {chip_id} whose newest run of a task failed")


def test_a_fit_tab_whose_newest_run_failed_says_so_and_opens_first(open_page, with_figures, demo_chip, app_repo):
    chip_id = demo_chip["chip_id"]
    qid, failed, shown = _newest_run_failed(app_repo.db, chip_id)
    at = open_page("pages/qubits.py")
    at.session_state[f"qubits_selected_{chip_id}"] = qid
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    opened = list(_fit_figures(at))
    assert len(opened) == 1
    at.session_state[f"qubit_figure_tab_{chip_id}_{qid}"] = failed["name"]
    at.run()
    message = " ".join(failed["message"].split())
    note = (f"Newest run failed ({failed['start_at']:%Y-%m-%d %H:%M} UTC): {message}. The figure below is the last "
            f"stored fit, from {shown['start_at']:%Y-%m-%d %H:%M} UTC.")
    assert note in [str(w.value).replace("\\", "") for w in at.warning], [w.value for w in at.warning]
    assert list(_fit_figures(at)) == [f"qubit_figure_{failed['name']}"]
    # opened first: the report's tab order puts a task whose newest run failed before flagged or newest ones
    assert opened[0].removeprefix("qubit_figure_") in {failed["name"]} | _failed_newest_tasks(app_repo.db, chip_id, qid)


def _failed_newest_tasks(db, chip_id: str, qid: str) -> set[str]:
    rows = sorted(db["task_result_history"].find({"chip_id": chip_id, "qid": qid, "task_type": "qubit"}, {"_id": 0}),
                  key=lambda r: r["start_at"], reverse=True)
    newest: dict[str, dict] = {}
    for r in rows:
        newest.setdefault(r["name"], r)
    return {name for name, r in newest.items() if r["status"] == "failed"}
