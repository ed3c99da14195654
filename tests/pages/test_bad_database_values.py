"""Bad database values never break a page: every field the pages read, fuzzed with wrong types and hostile
shapes, and the figure directory with a symlink loop and over-long names.

A small demo (one 64-qubit chip, three days) is seeded into its own DATA_DIR; then, for each kind of bad value,
the newest documents of every collection the pages read get it in every field but the chip id (so the pages
still find the chip and read the bad documents).  Each page is opened through the app as a person does
(Overview with its daily report, Chip heatmap, Timeseries, Qubits with its figures, What changed) and must come up:
no uncaught exception, its heading drawn, and any failure shown as a message in the page.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from pymongo.errors import DuplicateKeyError
from streamlit.testing.v1 import AppTest

from copilot_core.data.connection import open_database
from copilot_core.demo.seed import chip_specs, seed_database, utc_now
from copilot_core.settings import Settings
from tests.pages.conftest import APP, TIMEOUT

CHIP = "64Qv3"
LONG = "x" * 300
BAD_VALUES: dict[str, object] = {
    "none": None,
    "a dict": {"$ne": 1, "nested": [1, {"x": None}]},
    "a list": [1, "two", None],
    "a number": -1e308,
    "nan text": "NaN",
    "an over-long string": "Q" * 20_000 + "\n- ```\n![x](https://exfil.example/p.png)",
    "a non-QDash id": "../../etc/passwd; DROP",
    "a bool": True,
}
# The fields each collection's documents have that the pages read (the chip id is kept: the pages look it up).
COLLECTIONS = ("chip", "qubit", "coupling", "task_result_history", "execution_history")
UNIQUE_PARTS = {"qid", "execution_id", "task_id", "name", "username", "start_at", "status", "installed_at"}
NEWEST = 12  # documents per collection that get the bad value (the newest: the ones the pages show)
PAGES = {"pages/overview.py": "Overview", "pages/heatmap.py": "Chip heatmap", "pages/timeseries.py": "Timeseries",
         "pages/qubits.py": "Qubits", "pages/compare.py": "What changed"}


@pytest.fixture(scope="module")
def seeded(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("bad-values") / "seed"
    db = open_database(Settings(data_dir=folder))
    seed_database(db, chip_specs((64,), days=3), now=utc_now() - timedelta(hours=1))
    db.close()
    return folder


def _spoil(data_dir: Path, bad: object) -> None:
    """The newest documents of every collection get ``bad`` in every field but the chip id and ``_id``, and in
    every field of their nested parameter documents."""
    db = open_database(Settings(data_dir=data_dir))
    try:
        for name in COLLECTIONS:
            sort = "installed_at" if name == "chip" else "start_at" if name in ("task_result_history",
                                                                               "execution_history") else "qid"
            docs = list(db[name].find({"chip_id": CHIP}).sort([(sort, -1)]).limit(NEWEST))
            for doc in docs:
                changed = {}
                for field, value in doc.items():
                    if field in ("_id", "chip_id", "project_id") or (name == "chip" and field == "size"):
                        continue
                    if isinstance(value, dict) and field in ("data", "output_parameters"):
                        changed[field] = {k: ({f: bad for f in v} if isinstance(v, dict) else bad)
                                          for k, v in value.items()} | {LONG: bad}
                    else:
                        changed[field] = bad
                changed |= {"figure_path": [f"{LONG}.png", "loop/a.png"], "json_figure_path": [f"{LONG}.json"]}
                try:
                    db[name].update_one({"_id": doc["_id"]}, {"$set": changed})
                except DuplicateKeyError:  # a unique key takes the bad value once; the others keep theirs
                    db[name].update_one({"_id": doc["_id"]}, {"$set": {k: v for k, v in changed.items()
                                                                       if k not in UNIQUE_PARTS}})
    finally:
        db.close()


@pytest.fixture
def spoiled_env(seeded: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request) -> Iterator[Path]:
    import shutil

    data_dir = tmp_path / "data"
    shutil.copytree(seeded, data_dir)
    _spoil(data_dir, BAD_VALUES[request.param])
    figures = tmp_path / "calib"
    (figures / "loop").mkdir(parents=True)
    os.symlink(figures / "loop" / "b", figures / "loop" / "a.png")
    os.symlink(figures / "loop" / "a.png", figures / "loop" / "b")
    for key in ("MONGODB_URI", "MONGO_DB_NAME", "QDASH_PROJECT_ID"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("DATA_DIR", str(data_dir))
    monkeypatch.setenv("CALIB_DATA_DIR", str(figures))
    monkeypatch.setenv("CALIBRATION_COPILOT_SECRETS", str(tmp_path / "none.toml"))
    yield data_dir


def _headings(at: AppTest) -> list[str]:
    return [h.value for h in at.title] + [h.value for h in at.header] + [h.value for h in at.subheader]


@pytest.mark.parametrize("spoiled_env", list(BAD_VALUES), indirect=True)
def test_every_page_stays_up_on_bad_values(spoiled_env: Path) -> None:
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.session_state["chip_id"] = CHIP
    at.run()
    problems: dict[str, list[str]] = {}
    for page, heading in PAGES.items():
        at.switch_page(page).run()
        generic = [e.value for e in at.error if "Something went wrong" in e.value]  # a bug, not a message
        if at.exception or heading not in _headings(at) or generic:
            problems[page] = [e.value for e in at.exception] or generic or _headings(at)
    assert not problems, problems


@pytest.mark.parametrize("spoiled_env", list(BAD_VALUES), indirect=True)
def test_the_daily_report_and_the_figures_say_what_went_wrong(spoiled_env: Path) -> None:
    """The report is built in the download's callback, outside the page body: it must come back as a page."""
    from copilot_core.data.repository import CalibrationRepository
    from copilot_core.figures import FigureRoot, task_figure
    from copilot_core.report import ReportError, chip_report

    db = open_database(Settings(data_dir=spoiled_env))
    try:
        repo = CalibrationRepository(db)
        chip = repo.get_chip(CHIP)
        assert chip is not None
        try:
            html = chip_report(repo, chip, figures=FigureRoot(Path(os.environ["CALIB_DATA_DIR"]))).html
        except ReportError:
            html = "<p>no report</p>"  # a CopilotError: the button's page says why
        assert "<" in html
        spoiled = list(db["task_result_history"].find({"chip_id": CHIP, "figure_path": "loop/a.png"}, {"_id": 0}))
        assert spoiled
        for row in spoiled:  # an over-long file name, then a symlink loop: neither opens, both say why
            shown = task_figure(FigureRoot(Path(os.environ["CALIB_DATA_DIR"])), row, int(chip["size"]))
            assert shown.png is None and shown.plotly is None
            assert "name is too long" in shown.problem and any("symlink loop" in n for n in shown.notes)
    finally:
        db.close()
