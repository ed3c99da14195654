"""Demo data: physics ranges, real-data blemishes, internal consistency, determinism and the CLI."""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
import uuid
from collections import defaultdict
from datetime import datetime

import numpy as np
import pytest

from copilot_core.data.connection import open_database
from copilot_core.data.repository import CalibrationRepository
from copilot_core.demo.__main__ import main as demo_main
from copilot_core.demo.documents import INJECTION
from copilot_core.demo.seed import chip_specs, generate
from copilot_core.domain.topology import topology_for
from copilot_core.settings import Settings
from tests.cli import run_main
from tests.conftest import ROOT

FIXED_NOW = datetime(2026, 7, 20, 12, 0, 0)


def _good(db, chip_id, name):
    """Completed, non-excluded rows of one task, straight from the collection."""
    return list(db["task_result_history"].find(
        {"chip_id": chip_id, "name": name, "status": "completed", "excluded": {"$ne": True}},
        {"_id": 0, "qid": 1, "execution_id": 1, "output_parameters": 1, "start_at": 1}))


def _values(rows, param):
    return [r["output_parameters"][param]["value"] for r in rows
            if param in r["output_parameters"] and r["output_parameters"][param]["value"] != 0]


@pytest.mark.parametrize("chip_index", [0, 1])
def test_physics_ranges(demo_db, demo_chip_ids, chip_index):
    chip = demo_chip_ids[chip_index]
    freq = _values(_good(demo_db, chip, "CheckRamsey"), "qubit_frequency")
    assert freq and 4.5 <= min(freq) and max(freq) <= 5.5
    anh = _values(_good(demo_db, chip, "CheckQubitSpectroscopy"), "anharmonicity")
    assert anh and -0.35 <= min(anh) and max(anh) <= -0.20
    t1 = _values(_good(demo_db, chip, "CheckT1"), "t1")
    p5, p95 = np.percentile(t1, [5, 95])
    assert 20 <= p5 and p95 <= 150 and min(t1) > 0  # TLS dips may go below 20 now and then
    ro = _values(_good(demo_db, chip, "ReadoutClassification"), "average_readout_fidelity")
    assert 0.85 <= min(ro) and max(ro) <= 0.99
    x90 = _values(_good(demo_db, chip, "X90InterleavedRandomizedBenchmarking"), "x90_gate_fidelity")
    assert 0.990 <= min(x90) and max(x90) <= 0.9995
    zx = _values(_good(demo_db, chip, "ZX90InterleavedRandomizedBenchmarking"), "zx90_gate_fidelity")
    bell = _values(_good(demo_db, chip, "CheckBellStateTomography"), "bell_state_fidelity")
    assert zx and bell and 0.8 < min(zx) and max(zx) < 1 and 0.8 < min(bell) and max(bell) < 1


def test_coherence_relations_per_execution(demo_db, demo_chip_ids):
    chip = demo_chip_ids[1]
    t1 = {(r["qid"], r["execution_id"]): r["output_parameters"]["t1"]["value"] for r in _good(demo_db, chip, "CheckT1")}
    t2 = {(r["qid"], r["execution_id"]): r["output_parameters"]["t2_echo"]["value"]
          for r in _good(demo_db, chip, "CheckT2Echo")}
    t2s = {(r["qid"], r["execution_id"]): r["output_parameters"]["t2_star"]["value"]
           for r in _good(demo_db, chip, "CheckRamsey")}
    both = [k for k in t1.keys() & t2.keys() if t1[k] and t2[k] and t1[k] < 160 and t2[k] < 320]
    assert len(both) > 1000
    assert all(t2[k] <= 2 * t1[k] for k in both)
    star = [k for k in t2s.keys() & t2.keys() if t2s[k] and t2[k] and t2[k] < 320]
    assert star and all(t2s[k] < t2[k] for k in star)


def test_frequencies_structured_by_mux(demo_db, demo_chip_ids, repo):
    chip = demo_chip_ids[1]
    latest = repo.metric_values(chip, "qubit_frequency")
    topo = topology_for(144)
    even = [v["value"] for q, v in latest.items() if sum(topo.positions[int(q)]) % 2 == 0]
    odd = [v["value"] for q, v in latest.items() if sum(topo.positions[int(q)]) % 2 == 1]
    assert statistics.median(even) - statistics.median(odd) > 0.2  # checkerboard detuning against CR collisions


def test_blemishes_present(demo_db, demo_chip_ids, repo):
    for chip in demo_chip_ids:
        history = demo_db["task_result_history"]
        assert history.count_documents({"chip_id": chip, "status": "failed"}) > 0
        assert history.count_documents({"chip_id": chip, "excluded": True}) > 0
        nan_rows = [d for d in history.find({"chip_id": chip, "status": "completed", "excluded": False},
                                            {"_id": 0, "output_parameters": 1})
                    if any(m["value"] == 0 for m in d["output_parameters"].values())]
        assert nan_rows
        dead = [q for q, data in repo.all_qubit_params(chip).items() if not data]
        assert 2 <= len(dead) < 10
        assert repo.metric_values(chip, "t1").keys().isdisjoint(dead)
        assert demo_db["execution_history"].count_documents({"chip_id": chip, "status": "failed"}) > 0
    notes = [n for chip in demo_chip_ids for n in repo.calibration_notes(chip, limit=100)]
    assert any(INJECTION in str(n["note"]) for n in notes)
    assert "OPENAI_API_KEY" in INJECTION


def test_ids_follow_qdash_formats(demo_db, demo_chip_ids):
    rows = demo_db["task_result_history"].find({"chip_id": demo_chip_ids[0]}, {"_id": 0, "task_id": 1,
                                                                                "execution_id": 1}).limit(500)
    for row in rows:
        assert uuid.UUID(row["task_id"]).version == 4
        assert re.fullmatch(r"\d{8}-\d{3}", row["execution_id"])
    exec_ids = [e["execution_id"] for e in demo_db["execution_history"].find({}, {"_id": 0, "execution_id": 1})]
    assert len(exec_ids) == len(set(exec_ids))  # unique per project, as QDash's index demands


@pytest.mark.parametrize("chip_index", [0, 1])
def test_qubit_data_equals_latest_history_value(demo_db, demo_chip_ids, chip_index):
    chip = demo_chip_ids[chip_index]
    newest: dict[tuple[str, str], tuple] = {}
    for doc in demo_db["task_result_history"].find({"chip_id": chip, "status": "completed", "excluded": {"$ne": True}},
                                                   {"_id": 0, "qid": 1, "start_at": 1, "output_parameters": 1}):
        for p, m in doc["output_parameters"].items():
            if m["value"] != 0 and ((doc["qid"], p) not in newest or newest[(doc["qid"], p)][0] < doc["start_at"]):
                newest[(doc["qid"], p)] = (doc["start_at"], m["value"], m["task_id"])
    stored = {}
    for collection in ("qubit", "coupling"):
        for doc in demo_db[collection].find({"chip_id": chip}, {"_id": 0, "qid": 1, "data": 1}):
            for p, m in doc["data"].items():
                stored[(doc["qid"], p)] = (m["value"], m["task_id"])
    assert stored == {k: (v[1], v[2]) for k, v in newest.items()}


def test_both_coupling_directions_with_data_under_control_target(demo_db, demo_chip_ids):
    chip, size = demo_chip_ids[0], 64
    docs = {d["qid"]: d["data"] for d in demo_db["coupling"].find({"chip_id": chip}, {"_id": 0, "qid": 1, "data": 1})}
    topo = topology_for(size)
    assert len(topo.couplings) == 112 and len(docs) == 2 * 112
    for cp in topo.couplings:
        assert f"{cp.target}-{cp.control}" in docs and docs[f"{cp.target}-{cp.control}"] == {}
    with_data = [cp for cp in topo.couplings if docs[cp.id]]
    assert len(with_data) > 90 and all("zx90_gate_fidelity" in docs[cp.id] for cp in with_data)


def test_parameter_versions_match_history(demo_db, demo_chip_ids, repo):
    chip = demo_chip_ids[0]
    versions = list(demo_db["parameter_versions"].find({"chip_id": chip}, {"_id": 0}).limit(300))
    assert versions
    for ver in versions[:100]:
        task = demo_db["task_result_history"].find_one({"task_id": ver["task_id"]}, {"_id": 0, "output_parameters": 1,
                                                                                     "qid": 1})
        assert task["output_parameters"][ver["parameter_name"]]["value"] == ver["value"] and task["qid"] == ver["qid"]
    # the current version of each (param, qid) is the value in qubit.data
    current = list(demo_db["parameter_versions"].find({"chip_id": chip, "parameter_name": "t1", "valid_until": None},
                                                      {"_id": 0}))
    assert len(current) == len(repo.metric_values(chip, "t1"))
    for ver in current[:20]:
        assert repo.qubit_params(chip, ver["qid"])["t1"]["value"] == ver["value"]
    graph = repo.lineage_graph(chip, current[0]["entity_id"], max_depth=3)
    assert {"wasGeneratedBy", "wasDerivedFrom", "used"} <= {e["relation"] for e in graph["edges"]}


def test_recent_drops_to_find(repo, demo_chip_ids):
    """Some qubits fell clearly below their own 7-day median in the last day or two (for drift flags)."""
    for chip in demo_chip_ids:
        for metric, fraction in (("t1", 0.6), ("t2_echo", 0.6)):
            series = defaultdict(list)
            for row in repo.chip_parameter_timeseries(chip, metric, last_n=9):
                series[row["qid"]].append(row["value"])
            dropped = [q for q, vals in series.items()
                       if len(vals) == 9 and min(vals[-2:]) < fraction * statistics.median(vals[:-2])]
            assert dropped, (chip, metric)
        x90 = defaultdict(list)
        for row in repo.chip_parameter_timeseries(chip, "x90_gate_fidelity", last_n=8):
            x90[row["qid"]].append(1 - row["value"])
        assert any(len(v) == 8 and v[-1] > 3 * statistics.median(v[:-1]) for v in x90.values())


def test_same_seed_same_documents_and_other_seed_differs():
    specs = chip_specs((16,), days=4)
    first = generate(specs, seed=11, now=FIXED_NOW)
    assert first == generate(specs, seed=11, now=FIXED_NOW)
    other = generate(specs, seed=12, now=FIXED_NOW)
    assert first["task_result_history"] != other["task_result_history"]
    newest = max(d["start_at"] for d in first["task_result_history"])
    assert newest < FIXED_NOW and (FIXED_NOW - newest).total_seconds() < 3 * 3600  # ends "now"


def test_stress_chip_option():
    specs = chip_specs((64,), days=30, stress=True)
    assert [(s.size, s.days) for s in specs] == [(64, 30), (1024, 7)]
    docs = generate([chip_specs((1024,), days=1)[0]], seed=3, now=FIXED_NOW)
    assert len([d for d in docs["qubit"]]) == 1024
    assert len(docs["coupling"]) == 2 * len(topology_for(1024).couplings)


def test_cli_seeds_then_skips_when_not_empty(tmp_path):
    cmd = [sys.executable, "-m", "copilot_core.demo", "--data-dir", str(tmp_path), "--chips", "16", "--days", "3"]
    first = subprocess.run(cmd + ["--if-empty"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    assert "seeded chips 16Qv1" in first.stdout
    args = cmd[3:]  # the same command through main(argv) in this process
    second = run_main(dict(os.environ), *args, "--if-empty", main=demo_main)
    assert second.returncode == 0 and "nothing seeded" in second.stdout
    db = open_database(Settings(data_dir=tmp_path))
    chips = CalibrationRepository(db).list_chips()
    db.close()
    assert [(c["chip_id"], c["size"]) for c in chips] == [("16Qv1", 16)] and chips[0]["qubits_with_data"] > 10
    bad = run_main(dict(os.environ), *args[:-4], "--chips", "63", main=demo_main)
    assert bad.returncode == 2 and "chip sizes" in bad.stderr and "Traceback" not in bad.stderr


def test_cli_never_writes_into_a_configured_mongodb(tmp_path):
    env = {**os.environ, "MONGODB_URI": "mongodb://u:pw-x1@127.0.0.1:1/qdash",
           "CALIBRATION_COPILOT_SECRETS": str(tmp_path / "none.toml")}
    cmd = [sys.executable, "-m", "copilot_core.demo"]
    make_run = run_main(env, "--if-empty", main=demo_main)
    assert make_run.returncode == 0 and "no demo data written" in make_run.stdout and "pw-x1" not in make_run.stdout
    explicit = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert explicit.returncode == 2 and "refusing" in explicit.stderr and "pw-x1" not in explicit.stderr


@pytest.mark.parametrize("hour, minute", [(0, 20), (1, 30), (11, 59), (12, 0), (23, 55)])
def test_a_demo_seeded_at_any_hour_keeps_each_run_inside_its_day(hour, minute):
    """Every task result, run and note starts on the UTC day its execution id names, and the newest run is the one
    of the latest noon at or before the hour seeded (so "since Monday" counts the same at 00:20 as at 23:55)."""
    from copilot_core.demo.seed import demo_clock

    seeded = datetime(2026, 11, 30, hour, minute)
    docs = generate(chip_specs((16,), days=5), now=demo_clock(seeded))
    dated = docs["task_result_history"] + docs["execution_history"]
    assert len(dated) > 100
    days = {(d["execution_id"][:8], d["start_at"].strftime("%Y%m%d")) for d in dated}
    assert all(named == started for named, started in days), sorted(d for d in days if d[0] != d[1])
    newest = max(d["execution_id"][:8] for d in docs["execution_history"])
    assert newest == ("20261130" if hour >= 12 else "20261129")
    assert max(d["end_at"] for d in docs["execution_history"]) <= demo_clock(seeded) <= seeded
