"""``python -m copilot_core import DIR``: a QDash export in relaxed and canonical Extended JSON becomes the
embedded store; a broken file is named and leaves the store exactly as it was.  Runs the CLI's ``main(argv)``
(``tests/cli.py``)."""

from __future__ import annotations

import copy
import json
import math
import os
import subprocess
from pathlib import Path

import pytest
from bson import json_util

from copilot_core.data.connection import open_database
from copilot_core.settings import Settings
from tests.cli import run_main
from tests.data.conftest import CHIP, DOCS, P1


def _env(data_dir: Path, tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("MONGODB_URI", "MONGO_DB_NAME", "QDASH_PROJECT_ID")}
    return env | {"DATA_DIR": str(data_dir), "CALIBRATION_COPILOT_SECRETS": str(tmp_path / "none.toml")}


def _run(args: list[str], data_dir: Path, tmp_path: Path) -> subprocess.CompletedProcess:
    return run_main(_env(data_dir, tmp_path), *args)


def _docs_with_nan() -> dict[str, list[dict]]:
    docs = copy.deepcopy(DOCS)
    docs["task_result_history"][0]["output_parameters"]["t1"]["value"] = float("nan")
    return docs


def _export(directory: Path, docs: dict[str, list[dict]], style: str) -> Path:
    directory.mkdir()
    for name, items in docs.items():
        if style == "relaxed":  # mongoexport --jsonArray
            text = json_util.dumps(items, json_options=json_util.RELAXED_JSON_OPTIONS)
        else:  # canonical, one document per line (mongoexport's default layout)
            text = "\n".join(json_util.dumps(d, json_options=json_util.CANONICAL_JSON_OPTIONS) for d in items)
        (directory / f"{name}.json").write_text(text, encoding="utf-8")
    (directory / "README.txt").write_text("not a collection", encoding="utf-8")
    return directory


def _store_counts(data_dir: Path) -> dict[str, int]:
    db = open_database(Settings(data_dir=data_dir))
    try:
        return {name: db[name].count_documents({}) for name in [*DOCS, "copilot_chat_session"]}
    finally:
        db.close()


@pytest.mark.parametrize("style", ["relaxed", "canonical"])
def test_import_export_then_reject_a_broken_one(tmp_path, style):
    data_dir = tmp_path / "data"
    docs = _docs_with_nan()
    db = open_database(Settings(data_dir=data_dir))  # an existing store with a saved chat
    db["copilot_chat_session"].insert_one({"session_id": "keep-me", "username": "alice"})
    db["chip"].insert_one({"chip_id": "demo-chip", "size": 64})
    db.close()

    done = _run(["import", str(_export(tmp_path / "export", docs, style))], data_dir, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "README.txt" in done.stdout  # ignored, and said so
    for name, items in docs.items():
        assert any(line.split()[:2] == [name, f"{len(items):,}"] for line in done.stdout.splitlines()), name
    expected = {name: len(items) for name, items in docs.items()} | {"copilot_chat_session": 1}
    assert _store_counts(data_dir) == expected  # demo chip replaced, saved chat kept

    db = open_database(Settings(data_dir=data_dir))
    try:
        first = DOCS["task_result_history"][0]
        stored = db["task_result_history"].find_one({"task_id": first["task_id"]}, {"_id": 0})
        assert stored["start_at"] == first["start_at"] and stored["start_at"].tzinfo is None  # naive UTC kept
        assert math.isnan(stored["output_parameters"]["t1"]["value"])
    finally:
        db.close()
    shown = _run(["tool", "get_qubit_params", "--args", f'{{"chip_id": "{CHIP}", "qid": "1"}}'], data_dir, tmp_path)
    assert shown.returncode == 0, shown.stderr
    stored_t1 = next(q for q in DOCS["qubit"] if q["project_id"] == P1 and q["chip_id"] == CHIP
                     and q["qid"] == "1")["data"]["t1"]["value"]
    assert json.loads(shown.stdout)["parameters"]["t1"]["value"] == pytest.approx(stored_t1)

    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "chip.json").write_text(json_util.dumps([{"chip_id": "other", "size": 16}]), encoding="utf-8")
    (broken / "task_result_history.json").write_text('[{"task_id": "a", "start_at": {"$date": ', encoding="utf-8")
    failed = _run(["import", str(broken)], data_dir, tmp_path)
    assert failed.returncode == 1
    assert "task_result_history.json" in failed.stderr and "Traceback" not in failed.stderr
    assert _store_counts(data_dir) == expected  # nothing half-loaded


def test_import_rejects_a_folder_without_collections(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.json").write_text("[]", encoding="utf-8")
    failed = _run(["import", str(empty)], tmp_path / "data", tmp_path)
    assert failed.returncode == 1 and "no QDash collection files" in failed.stderr


def test_tool_help_lists_every_tool(tmp_path):
    from copilot_core.tools.registry import TOOLS

    shown = _run(["tool", "--help"], tmp_path / "data", tmp_path)
    assert shown.returncode == 0
    listed = {line.split()[0] for line in shown.stdout.split("tools:", 1)[1].splitlines() if line.strip()}
    assert listed == {spec.name for spec in TOOLS}
