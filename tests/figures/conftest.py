"""A QDash-shaped figure directory: both path layouts, PNG and Plotly JSON files, task_result_history rows that
point at them (plus a missing file and hostile paths), and a file outside the root a symlink leads to."""

from __future__ import annotations

import io
import os
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

import plotly.graph_objects as go
import pytest
from PIL import Image

from copilot_core.data.connection import open_memory_database
from copilot_core.data.repository import CalibrationRepository

CHIP = "16Qa"
PREFIX = "/app/calib_data"
OLD_DIR = "alice/20250606/001/fig"  # per user (older installs)
NEW_DIR = "projects/proj-1/chips/16Qa/executions/20250607-001/fig"  # per project (newer installs)
START = datetime(2025, 6, 7, 9, 0, 0)


@dataclass(frozen=True)
class QDashFigures:
    root: Path
    outside: Path
    repo: CalibrationRepository
    t1_y: list[float]  # the y values written into the per-user JSON figure
    ramsey_y: list[float]  # ... and into the per-project one
    png: bytes  # the per-project PNG's bytes


def _png(width: int, height: int) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (width, height), (30, 120, 200)).save(buf, format="PNG")
    return buf.getvalue()


def _row(n: int, name: str, qid: str, exec_id: str, outputs: dict, png: list[str], js: list[str],
         status: str = "completed") -> dict:
    start = START + timedelta(minutes=n)
    params = {p: {"parameter_name": p, "value": v, "unit": u, "error": e, "calibrated_at": start,
                  "execution_id": exec_id, "task_id": f"t{n}"} for p, (v, u, e) in outputs.items()}
    return {"project_id": "proj-1", "username": "alice", "task_id": f"t{n}", "name": name, "task_type": "qubit",
            "qid": qid, "chip_id": CHIP, "execution_id": exec_id, "tags": [], "status": status, "message": "",
            "output_parameters": params, "output_parameter_names": list(params), "figure_path": png,
            "json_figure_path": js, "start_at": start, "end_at": start + timedelta(seconds=40),
            "elapsed_time": 40.0, "excluded": False}


@pytest.fixture
def qdash_figures(tmp_path) -> QDashFigures:
    root = tmp_path / "calib_data"
    (root / OLD_DIR).mkdir(parents=True)
    (root / NEW_DIR).mkdir(parents=True)
    t1_y = [1.0, 0.61, 0.37, 0.22]
    go.Figure(go.Scatter(x=[0, 20, 40, 60], y=t1_y, name="T1 fit")).write_json(root / OLD_DIR / "t1_q0.json")
    (root / OLD_DIR / "t1_q0.png").write_bytes(_png(8, 6))
    ramsey_y = [0.9, 0.1, 0.8, 0.2]
    go.Figure(go.Scatter(x=[0, 1, 2, 3], y=ramsey_y)).write_json(root / NEW_DIR / "ramsey_q1.json")
    png = _png(12, 9)
    (root / NEW_DIR / "rb_q1.png").write_bytes(png)  # a PNG only (no JSON stored)
    outside = tmp_path / "outside"
    outside.mkdir()
    go.Figure(go.Scatter(x=[0], y=[918273645])).write_json(outside / "secret.json")
    os.symlink(outside / "secret.json", root / NEW_DIR / "link.json")
    os.symlink(outside, root / "projects" / "escape")

    rows = [
        _row(1, "CheckT1", "0", "20250606-001", {"t1": (45.31, "μs", 0.92)},
             [f"{PREFIX}/{OLD_DIR}/t1_q0.png"], [f"{PREFIX}/{OLD_DIR}/t1_q0.json"]),
        _row(2, "CheckRamsey", "1", "20250607-001", {"t2_star": (12.5, "μs", 0.4)},
             [f"{PREFIX}/{NEW_DIR}/ramsey_q1.png"], [f"{PREFIX}/{NEW_DIR}/ramsey_q1.json"]),
        _row(3, "X90InterleavedRandomizedBenchmarking", "1", "20250607-001",
             {"x90_gate_fidelity": (0.99912, "a.u.", 0.0001)}, [f"{PREFIX}/{NEW_DIR}/rb_q1.png"], []),
        _row(4, "CheckT2Echo", "1", "20250607-001", {"t2_echo": (30.0, "μs", 1.0)},
             [f"{PREFIX}/{NEW_DIR}/gone.png"], [f"{PREFIX}/{NEW_DIR}/gone.json"]),
        _row(5, "CheckT1", "2", "20250607-001", {"t1": (50.0, "μs", 1.0)}, [], [f"{PREFIX}/{NEW_DIR}/link.json"]),
        _row(6, "CheckT1", "3", "20250607-001", {"t1": (51.0, "μs", 1.0)}, [],
             [f"{PREFIX}/{NEW_DIR}/../../../../../../../../outside/secret.json"]),
        _row(7, "CheckT1", "4", "20250607-001", {"t1": (52.0, "μs", 1.0)}, [], [str(outside / "secret.json")]),
    ]
    db = open_memory_database(f"figures-{tmp_path.name}")
    db["task_result_history"].insert_many(rows)
    db["chip"].insert_one({"project_id": "proj-1", "username": "alice", "chip_id": CHIP, "size": 16,
                           "topology_id": "square-lattice-mux-16", "installed_at": START - timedelta(days=30)})
    return QDashFigures(root=root, outside=outside, repo=CalibrationRepository(db), t1_y=t1_y, ramsey_y=ramsey_y,
                        png=png)
