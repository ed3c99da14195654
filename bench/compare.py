"""What-changed benchmark: the comparison page's cold and warm runs (Streamlit AppTest) and the daily report.

For the 64-, 144- and 1024-qubit demo chips (embedded engine, SQLite store in a temp dir, the stress chip
included), the compare page runs cold (``st.cache_data`` cleared) and warm (the same session reruns, as after
a click); the warm/cold ratio is printed side by side.  The report of each chip's last run is generated
directly (no cache) with the store already warm.  Targets: warm rerun <= 0.5 s on 144 qubits and <= 2 s on
1024; report <= 3 s on 144 qubits.

    python bench/compare.py [--data-dir DIR] [--warm-runs N]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
_spec = importlib.util.spec_from_file_location("bench_pages", ROOT / "bench" / "pages.py")
bench_pages = importlib.util.module_from_spec(_spec)  # type: ignore[arg-type]
_spec.loader.exec_module(bench_pages)  # type: ignore[union-attr]

PAGE = "pages/compare.py"
SIZES = (64, 144, 1024)
TARGETS_WARM_S = {144: 0.5, 1024: 2.0}
TARGET_REPORT_144_S = 3.0


def page_run(chip_id: str, warm_runs: int) -> dict:
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    st.cache_data.clear()
    at = AppTest.from_file(str(ROOT / PAGE), default_timeout=900)
    at.session_state["chip_id"] = chip_id
    cold, cold_cpu = bench_pages.timed_run(at)
    warm = [bench_pages.timed_run(at) for _ in range(warm_runs)]
    return {"cold": cold, "cold_cpu": cold_cpu, "warm": statistics.median(w for w, _ in warm),
            "warm_cpu": statistics.median(c for _, c in warm)}


def report_run(repo, chip: dict) -> tuple[float, int]:
    from copilot_core.report import chip_report

    start = time.perf_counter()
    report = chip_report(repo, chip)
    return time.perf_counter() - start, len(report.html)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, help="reuse (or seed) this DATA_DIR instead of a temp dir")
    parser.add_argument("--warm-runs", type=int, default=3)
    args = parser.parse_args()
    bench_pages.quiet_streamlit()
    data_dir = args.data_dir or Path(tempfile.mkdtemp(prefix="bench-compare-"))
    for key in ("MONGODB_URI", "QDASH_PROJECT_ID", "MONGO_DB_NAME"):
        os.environ.pop(key, None)
    os.environ["DATA_DIR"] = str(data_dir)
    os.environ["CALIBRATION_COPILOT_SECRETS"] = str(data_dir / "no-secrets.toml")
    seeded = bench_pages.seed(data_dir)
    print(f"data: {data_dir} ({f'seeded in {seeded:.1f} s' if seeded else 'already seeded'})")

    from copilot_core.data.connection import open_database
    from copilot_core.data.repository import CalibrationRepository
    from copilot_core.settings import load_settings

    repo = CalibrationRepository(open_database(load_settings()))
    chips = {c["size"]: c for c in repo.list_chips()}
    start = time.perf_counter()
    repo.warm_up()
    print(f"store warm-up (one-off per process): {time.perf_counter() - start:.2f} s")
    print(f"{'chip':>9}{'qubits':>7}{'page cold s':>13}{'(cpu)':>8}{'warm s':>9}{'(cpu)':>8}{'warm/cold':>11}"
          f"{'report s':>10}{'report MB':>11}")
    results: dict[int, dict] = {}
    for size in SIZES:
        if size not in chips:
            print(f"no {size}-qubit chip in {data_dir}; skipped")
            continue
        chip = chips[size]
        r = page_run(chip["chip_id"], args.warm_runs)
        r["report"], r["bytes"] = report_run(repo, chip)
        results[size] = r
        print(f"{chip['chip_id']:>9}{size:>7}{r['cold']:>13.2f}{r['cold_cpu']:>8.2f}{r['warm']:>9.3f}"
              f"{r['warm_cpu']:>8.3f}{r['warm'] / r['cold']:>11.3f}{r['report']:>10.2f}{r['bytes'] / 1e6:>11.2f}")
    print()
    for size, target in TARGETS_WARM_S.items():
        if size in results:
            warm = results[size]["warm"]
            print(f"target compare page warm rerun <= {target} s on {size} qubits: {warm:.3f} s "
                  f"({warm / target:.2f} of target) {'OK' if warm <= target else 'MISSED'}")
    if 144 in results:
        took = results[144]["report"]
        print(f"target report <= {TARGET_REPORT_144_S} s on 144 qubits: {took:.2f} s "
              f"({took / TARGET_REPORT_144_S:.2f} of target) {'OK' if took <= TARGET_REPORT_144_S else 'MISSED'}")


if __name__ == "__main__":
    main()
