"""Data-layer benchmark on the embedded engine (litemongo SQLite store in a temp dir).

Prints: demo seeding time; a fresh process's first query (cold start); latest-per-qubit for one
metric on the 144-qubit chip, cold and warm; a 30-day timeseries of all its qubits; process RSS;
and each figure's ratio to its target (heatmap reads <= 0.2 s warm, cold start <= 5 s, RSS <= 1 GB).
Wall and CPU seconds are both shown: on a shared machine wall time includes waiting for a core.

    python bench/data_layer.py [--keep DIR]
    python bench/data_layer.py --year [--year-qubits 144] [--year-days 365] [--big-qubits 1024] [--big-days 90]

``--year`` measures a lab's scale instead: a year of history for the 144-qubit chip and 90 days of the
1024-qubit chip (QDash's task mix from the demo generator), written as a QDash export (Extended JSON,
one file per collection) and loaded with ``python -m copilot_core import``'s loader; then, in a fresh
process per plan, the first and warm latest-T1 heatmap read, a 30-day chip timeseries and RSS, on the
embedded plan and on the MongoDB plan (server-side sort/limit/$group, executed here by litemongo:
no mongod can be installed offline).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
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


YEAR_CHILD = r"""
import json, resource, sys, time
from datetime import timedelta
sys.path.insert(0, sys.argv[2])
from pathlib import Path
from copilot_core.data.connection import open_database
from copilot_core.data.plans import EmbeddedPlan, MongoPlan
from copilot_core.data.repository import CalibrationRepository
from copilot_core.settings import Settings

def timed(fn):
    w = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - w

plan = MongoPlan() if sys.argv[3] == "mongodb" else EmbeddedPlan()
repo = CalibrationRepository(open_database(Settings(data_dir=Path(sys.argv[1]))), plan=plan)
out = {}
for chip in repo.list_chips():
    cid, r = chip["chip_id"], {}
    vals, r["heatmap_first"] = timed(lambda: repo.metric_values(cid, "t1"))
    r["qubits"] = len(vals)
    r["heatmap_warm"] = sorted(timed(lambda: repo.metric_values(cid, "t1"))[1] for _ in range(3))[1]
    since = chip["last_execution_at"] - timedelta(days=30)
    rows, r["timeseries_first"] = timed(lambda: repo.chip_parameter_timeseries(cid, "t1", since=since))
    r["timeseries_rows"] = len(rows)
    r["timeseries_warm"] = sorted(timed(lambda: repo.chip_parameter_timeseries(cid, "t1", since=since))[1]
                                  for _ in range(3))[1]
    out[cid] = r
out["rss_mb"] = int(open("/proc/self/status").read().split("VmRSS:")[1].split()[0]) / 1024
out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
"""

HISTORY_ONLY = ("task_result_history", "execution_history", "calibration_note")


def write_export(export: Path, specs: list[tuple[int, int]], chunk_days: int) -> dict[str, int]:
    """A QDash export of ``(qubits, days)`` chips, generated in ``chunk_days`` slices to bound memory:
    older slices contribute history only; the newest one also the chip/qubit/coupling/provenance documents."""
    from bson import json_util

    from copilot_core.demo.seed import CHIP_NAMES, INSTALLED_DAYS_AGO, ChipSpec, generate, utc_now

    now = utc_now()
    counts: dict[str, int] = {}
    export.mkdir(parents=True, exist_ok=True)
    files = {}
    try:
        for size, days in specs:
            chunks = [(k, min(chunk_days, days - k * chunk_days)) for k in range((days + chunk_days - 1) // chunk_days)]
            for k, span in reversed(chunks):  # oldest first, as an export would list them
                spec = ChipSpec(CHIP_NAMES.get(size, f"{size}Qv1"), size, max(INSTALLED_DAYS_AGO.get(size, 100), days),
                                span)
                docs = generate([spec], seed=1000 * size + k, now=now - timedelta(days=k * chunk_days))
                for name, items in docs.items():
                    if k and name not in HISTORY_ONLY:
                        continue
                    if name not in files:
                        files[name] = (export / f"{name}.json").open("w", encoding="utf-8")
                    for doc in items:
                        files[name].write(json_util.dumps(doc, json_options=json_util.RELAXED_JSON_OPTIONS) + "\n")
                    counts[name] = counts.get(name, 0) + len(items)
    finally:
        for handle in files.values():
            handle.close()
    return counts


def year_main(args: argparse.Namespace) -> int:
    from copilot_core.data.importer import import_export
    from copilot_core.settings import Settings

    specs = [(args.year_qubits, args.year_days)] + ([(args.big_qubits, args.big_days)] if args.big_days else [])
    with tempfile.TemporaryDirectory(prefix="bench-year-") as tmp:
        root = args.keep or Path(tmp)
        export, data_dir = root / "export", root / "data"
        print(f"load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        wall = time.perf_counter()
        if args.export:
            export = args.export
            counts = {f.stem: sum(1 for line in f.open(encoding="utf-8") if line.strip()) for f in export.iterdir()}
        else:
            counts = write_export(export, specs, args.chunk_days)
        gen_s = time.perf_counter() - wall
        total = sum(counts.values())
        print(f"export: {', '.join(f'{q}Q x {d} days' for q, d in specs)}: {total:,} documents "
              f"({counts.get('task_result_history', 0):,} task results), "
              f"{'counted' if args.export else 'generated'} in {gen_s:.0f} s, "
              f"{sum(f.stat().st_size for f in export.iterdir()) / 1e6:.0f} MB")
        wall = time.perf_counter()
        import_export(export, Settings(data_dir=data_dir))
        import_s = time.perf_counter() - wall
        import_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"import (python -m copilot_core import): {import_s:.1f} s = {total / import_s:,.0f} documents/s, "
              f"peak RSS of the importing process {import_rss:.0f} MB")
        results = {}
        for plan in ("embedded", "mongodb"):
            child = subprocess.run([sys.executable, "-c", YEAR_CHILD, str(data_dir), str(ROOT), plan],
                                   capture_output=True, text=True, timeout=7200)
            if child.returncode:
                print(child.stderr, file=sys.stderr)
                return 1
            results[plan] = json.loads(child.stdout)
        disk = sum(f.stat().st_size for f in data_dir.rglob("*") if f.is_file()) / 1e6
    print(f"\n{'chip':10} {'plan':9} {'heatmap 1st s':>13} {'warm s':>8} {'vs 0.2 s':>9} "
          f"{'30d series 1st s':>16} {'warm s':>8} {'rows':>7}")
    for plan, r in results.items():
        for cid, m in r.items():
            if not isinstance(m, dict):
                continue
            print(f"{cid:10} {plan:9} {m['heatmap_first']:13.2f} {m['heatmap_warm']:8.3f} "
                  f"{m['heatmap_warm'] / TARGETS['heatmap_warm_s']:8.2f}x {m['timeseries_first']:16.2f} "
                  f"{m['timeseries_warm']:8.3f} {m['timeseries_rows']:7d}")
        print(f"{'':10} {plan:9} RSS {r['rss_mb']:.0f} MB ({r['rss_mb'] / TARGETS['rss_mb']:.2f}x of 1 GB), "
              f"peak {r['peak_rss_mb']:.0f} MB")
    print(f"database on disk: {disk:.0f} MB; load average after: {os.getloadavg()[0]:.1f}")
    return 0


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
    parser.add_argument("--year", action="store_true", help="the lab-scale run (sizes below)")
    parser.add_argument("--year-qubits", type=int, default=144)
    parser.add_argument("--year-days", type=int, default=365)
    parser.add_argument("--big-qubits", type=int, default=1024)
    parser.add_argument("--big-days", type=int, default=90, help="0 skips the big chip")
    parser.add_argument("--chunk-days", type=int, default=30, help="days generated at a time (bounds memory)")
    parser.add_argument("--export", type=Path, help="reuse an export written by an earlier --year --keep run")
    args = parser.parse_args()
    if args.year:
        return year_main(args)
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
