"""Dashboard page benchmark: server-side run time of the heatmap and qubits pages (Streamlit AppTest).

For the 64-, 144- and 1024-qubit demo chips (embedded engine, SQLite store in a temp dir), each page is
run cold (``st.cache_data`` cleared: every read goes to the database) and warm (the same session reruns,
as after a click), and the warm/cold ratio is printed.  The Qubits page runs with a qubit selected, so
its health report is included.  The very first render after the process starts is printed on its own:
it includes the data layer's one-time warm-up of the store (paid once per server process).  Wall and CPU
seconds are both shown: on a shared machine wall time includes waiting for a core.  Targets: warm rerun
<= 0.5 s on 144 qubits; the 1024-qubit chip renders in <= 3 s.

    python bench/pages.py [--data-dir DIR] [--warm-runs N]
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PAGES = ("pages/heatmap.py", "pages/qubits.py")
SIZES = (64, 144, 1024)
TARGET_WARM_144_S = 0.5
TARGET_1024_S = 3.0


def quiet_streamlit() -> None:
    """AppTest outside a server logs "missing ScriptRunContext" on every run; the table is what matters."""
    import streamlit.testing.v1  # noqa: F401  (creates streamlit's loggers, each with its own level)

    for name, logger in list(logging.root.manager.loggerDict.items()):
        if name.startswith("streamlit") and isinstance(logger, logging.Logger):
            logger.setLevel(logging.ERROR)


def seed(data_dir: Path) -> float:
    """Seed the demo chips plus the 1024-qubit stress chip unless the store already holds chips."""
    from copilot_core.data.connection import open_database
    from copilot_core.demo.seed import chip_specs, is_empty, seed_database
    from copilot_core.settings import Settings

    db = open_database(Settings(data_dir=data_dir))
    try:
        if not is_empty(db):
            return 0.0
        start = time.perf_counter()
        seed_database(db, chip_specs(stress=True), seed=7)
        return time.perf_counter() - start
    finally:
        db.close()


def timed_run(at) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    at.run()
    if at.exception:
        raise RuntimeError(f"page raised: {[e.value for e in at.exception]}")
    if at.error:
        raise RuntimeError(f"page showed an error: {[e.value for e in at.error]}")
    return time.perf_counter() - wall, time.process_time() - cpu


def page_app(page: str, chip_id: str):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / page), default_timeout=600)
    at.session_state["chip_id"] = chip_id
    at.session_state[f"qubits_selected_{chip_id}"] = "5"  # the Qubits page shows Q5's health report
    return at


def measure(page: str, chip_id: str, warm_runs: int) -> dict:
    import streamlit as st

    st.cache_data.clear()  # the cached repository (one per process, as in the server) stays
    at = page_app(page, chip_id)
    cold_wall, cold_cpu = timed_run(at)
    warm = [timed_run(at) for _ in range(warm_runs)]
    warm_wall = statistics.median(w for w, _ in warm)
    warm_cpu = statistics.median(c for _, c in warm)
    return {"cold": cold_wall, "cold_cpu": cold_cpu, "warm": warm_wall, "warm_cpu": warm_cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, help="reuse (or seed) this DATA_DIR instead of a temp dir")
    parser.add_argument("--warm-runs", type=int, default=3)
    args = parser.parse_args()
    quiet_streamlit()
    data_dir = args.data_dir or Path(tempfile.mkdtemp(prefix="bench-pages-"))
    for key in ("MONGODB_URI", "QDASH_PROJECT_ID", "MONGO_DB_NAME"):
        os.environ.pop(key, None)
    os.environ["DATA_DIR"] = str(data_dir)
    os.environ["CALIBRATION_COPILOT_SECRETS"] = str(data_dir / "no-secrets.toml")
    seeded = seed(data_dir)
    print(f"data: {data_dir} ({'seeded in %.1f s' % seeded if seeded else 'already seeded'})")

    from copilot_core.data.connection import open_database
    from copilot_core.data.repository import CalibrationRepository
    from copilot_core.settings import load_settings

    chips = {c["size"]: c["chip_id"] for c in CalibrationRepository(open_database(load_settings())).list_chips()}
    first = min(chips)
    wall, cpu = timed_run(page_app(PAGES[0], chips[first]))
    print(f"first render after process start ({PAGES[0]}, {chips[first]}): {wall:.2f} s wall, {cpu:.2f} s cpu "
          "(includes the data layer's one-time store warm-up)")
    print(f"{'page':<18}{'chip':>9}{'qubits':>7}{'cold s':>9}{'(cpu)':>8}{'warm s':>9}{'(cpu)':>8}{'warm/cold':>11}")
    results = {}
    for size in SIZES:
        if size not in chips:
            print(f"no {size}-qubit chip in {data_dir}; skipped")
            continue
        for page in PAGES:
            r = measure(page, chips[size], args.warm_runs)
            results[(page, size)] = r
            print(f"{page:<18}{chips[size]:>9}{size:>7}{r['cold']:>9.2f}{r['cold_cpu']:>8.2f}{r['warm']:>9.3f}"
                  f"{r['warm_cpu']:>8.3f}{r['warm'] / r['cold']:>11.3f}")
    print()
    for page in PAGES:
        if (page, 144) in results:
            warm = results[(page, 144)]["warm"]
            print(f"target warm rerun <= {TARGET_WARM_144_S} s on 144 qubits, {page}: {warm:.3f} s "
                  f"({warm / TARGET_WARM_144_S:.2f} of target) {'OK' if warm <= TARGET_WARM_144_S else 'MISSED'}")
        if (page, 1024) in results:
            cold = results[(page, 1024)]["cold"]
            print(f"target 1024-qubit render <= {TARGET_1024_S} s, {page}: cold {cold:.2f} s "
                  f"({cold / TARGET_1024_S:.2f} of target) {'OK' if cold <= TARGET_1024_S else 'MISSED'}")


if __name__ == "__main__":
    main()
