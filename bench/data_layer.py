"""Data-layer benchmark on the embedded engine (litemongo SQLite store in a temp dir).

Prints: demo seeding time; a fresh process's first query (cold start); latest-per-qubit for one
metric on the 144-qubit chip, cold and warm; a 30-day timeseries of all its qubits; process RSS;
and each figure's ratio to its target (heatmap reads <= 0.2 s warm, cold start <= 5 s, RSS <= 1 GB).
Wall and CPU seconds are both shown: on a shared machine wall time includes waiting for a core.

    python bench/data_layer.py [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TARGETS = {"heatmap_warm_s": 0.2, "cold_start_s": 5.0, "rss_mb": 1024.0}

# Runs in a new process so "cold" really is cold: imports, opening the store, index builds.
CHILD = r"""
import json, resource, sys, time
from datetime import timedelta
t_proc = time.perf_counter(); c_proc = time.process_time()
sys.path.insert(0, sys.argv[2])
from copilot_core.data.connection import open_database
from copilot_core.data.repository import CalibrationRepository
from copilot_core.demo.seed import utc_now
from copilot_core.settings import Settings
from pathlib import Path

def timed(fn):
    w, c = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - w, time.process_time() - c

out = {}
def cold_start():
    repo = CalibrationRepository(open_database(Settings(data_dir=Path(sys.argv[1]))))
    return repo, repo.list_chips()
(repo, chips), out["first_query_wall"], out["first_query_cpu"] = timed(cold_start)
out["cold_start_wall"] = time.perf_counter() - t_proc
out["cold_start_cpu"] = time.process_time() - c_proc
chip = next(c["chip_id"] for c in chips if c["size"] == 144)
vals, out["heatmap_cold_wall"], out["heatmap_cold_cpu"] = timed(lambda: repo.metric_values(chip, "t1"))
out["heatmap_qubits"] = len(vals)
warm = [timed(lambda: repo.metric_values(chip, "t1"))[1:] for _ in range(7)]
out["heatmap_warm_wall"] = sorted(w for w, _ in warm)[3]
out["heatmap_warm_cpu"] = sorted(c for _, c in warm)[3]
warm = [timed(lambda: repo.metric_values(chip, "zx90_gate_fidelity", kind="coupling"))[1:] for _ in range(5)]
out["coupling_warm_wall"] = sorted(w for w, _ in warm)[2]
out["coupling_warm_cpu"] = sorted(c for _, c in warm)[2]
warm = [timed(lambda: repo.metric_values(chip, "t1", mode="average", within_hours=24 * 7))[1:] for _ in range(5)]
out["average_7d_warm_wall"] = sorted(w for w, _ in warm)[2]
out["average_7d_warm_cpu"] = sorted(c for _, c in warm)[2]
since = utc_now() - timedelta(days=30)
rows, out["timeseries_cold_wall"], _ = timed(lambda: repo.chip_parameter_timeseries(chip, "t1", since=since))
runs = [timed(lambda: repo.chip_parameter_timeseries(chip, "t1", since=since))[1:] for _ in range(5)]
out["timeseries_warm_wall"] = sorted(w for w, _ in runs)[2]
out["timeseries_warm_cpu"] = sorted(c for _, c in runs)[2]
out["timeseries_rows"] = len(rows)
runs = [timed(lambda: repo.task_results(chip, limit=10))[1:] for _ in range(5)]
out["task_results_warm_wall"] = sorted(w for w, _ in runs)[2]
out["task_results_warm_cpu"] = sorted(c for _, c in runs)[2]
out["rss_mb"] = int(open("/proc/self/status").read().split("VmRSS:")[1].split()[0]) / 1024
out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
"""


def seed(data_dir: Path) -> tuple[float, float, str]:
    from copilot_core.data.connection import open_database
    from copilot_core.demo.seed import chip_specs, seed_database
    from copilot_core.settings import Settings

    wall, cpu = time.perf_counter(), time.process_time()
    db = open_database(Settings(data_dir=data_dir))
    report = seed_database(db, chip_specs())
    db.close()
    return time.perf_counter() - wall, time.process_time() - cpu, report.summary()


def ratio(value: float, target: float) -> str:
    return f"{value / target:5.2f}x of target ({'OK' if value <= target else 'OVER'})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, help="seed into this directory and keep it")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-data-") as tmp:
        data_dir = args.keep or Path(tmp)
        print(f"load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        seed_wall, seed_cpu, summary = seed(data_dir)
        print(summary)
        child = subprocess.run([sys.executable, "-c", CHILD, str(data_dir), str(ROOT)], capture_output=True,
                               text=True, timeout=900)
        if child.returncode:
            print(child.stderr, file=sys.stderr)
            return 1
        r = json.loads(child.stdout)
        disk = sum(f.stat().st_size for f in data_dir.rglob("*") if f.is_file()) / 1e6
    rows = [
        ("demo seeding (64Q + 144Q, 30 days)", seed_wall, seed_cpu, ""),
        ("cold start: new process to first query", r["cold_start_wall"], r["cold_start_cpu"],
         ratio(r["cold_start_wall"], TARGETS["cold_start_s"])),
        ("  of which open + list_chips", r["first_query_wall"], r["first_query_cpu"], ""),
        (f"latest t1 per qubit, 144Q, cold ({r['heatmap_qubits']} qubits)", r["heatmap_cold_wall"],
         r["heatmap_cold_cpu"], ""),
        ("latest t1 per qubit, 144Q, warm (median of 7)", r["heatmap_warm_wall"], r["heatmap_warm_cpu"],
         ratio(r["heatmap_warm_wall"], TARGETS["heatmap_warm_s"])),
        ("latest zx90 per coupling, 144Q, warm", r["coupling_warm_wall"], r["coupling_warm_cpu"],
         ratio(r["coupling_warm_wall"], TARGETS["heatmap_warm_s"])),
        ("7-day average t1 per qubit, 144Q, warm", r["average_7d_warm_wall"], r["average_7d_warm_cpu"],
         ratio(r["average_7d_warm_wall"], TARGETS["heatmap_warm_s"])),
        (f"30-day t1 timeseries, all qubits, cold ({r['timeseries_rows']} rows)", r["timeseries_cold_wall"], None, ""),
        ("30-day t1 timeseries, all qubits, warm", r["timeseries_warm_wall"], r["timeseries_warm_cpu"], ""),
        ("newest 10 task results of the chip, warm", r["task_results_warm_wall"], r["task_results_warm_cpu"], ""),
    ]
    print(f"\n{'measurement':58} {'wall s':>8} {'cpu s':>8}  vs target")
    for label, wall, cpu, note in rows:
        print(f"{label:58} {wall:8.3f} {'' if cpu is None else f'{cpu:8.3f}':>8}  {note}")
    print(f"{'process RSS after the reads (MB)':58} {r['rss_mb']:8.0f} {'':8}  {ratio(r['rss_mb'], TARGETS['rss_mb'])}")
    print(f"{'peak RSS (MB)':58} {r['peak_rss_mb']:8.0f}")
    print(f"{'database on disk (MB)':58} {disk:8.0f}")
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
