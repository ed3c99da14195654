"""Qubits page with the lab's figures: warm rerun time on the 144-qubit demo chip, figures on and off side by side.

Seeds the default demo (64 and 144 qubits) into a temp DATA_DIR with its fit figures, then alternates warm
reruns of the Qubits page (Q5 selected: health report plus the latest figure of each task) with the figure
directory present and pointed at an empty one (figures off: the page says so), in one process, so both see the
same machine load.  Target: warm rerun with figures <= 0.5 s.

    python bench/figures.py [--data-dir DIR] [--runs N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.pages import quiet_streamlit, timed_run  # noqa: E402

TARGET_WARM_S = 0.5


def seed(data_dir: Path) -> tuple[float, int]:
    from copilot_core.data.connection import open_database
    from copilot_core.demo.seed import chip_specs, is_empty, seed_database
    from copilot_core.figures import FigureRoot
    from copilot_core.settings import Settings

    db = open_database(Settings(data_dir=data_dir))
    try:
        if not is_empty(db):
            return 0.0, 0
        report = seed_database(db, chip_specs(), seed=7, figures=FigureRoot(data_dir / "calib_data"))
        return report.figure_seconds, report.figures
    finally:
        db.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", type=Path)
    parser.add_argument("--runs", type=int, default=8)
    args = parser.parse_args()
    data_dir = args.data_dir or Path(tempfile.mkdtemp(prefix="bench-figures-"))
    figure_s, written = seed(data_dir)
    if written:
        print(f"seeded demo with {written} fit figures (figure writing {figure_s:.2f} s)")
    os.environ["DATA_DIR"] = str(data_dir)
    os.environ.pop("MONGODB_URI", None)
    quiet_streamlit()
    from streamlit.testing.v1 import AppTest

    from copilot_core.settings import reload_settings

    chip_id = "144Qv2"
    at = AppTest.from_file(str(ROOT / "pages" / "qubits.py"), default_timeout=600)
    at.session_state["chip_id"] = chip_id
    at.session_state[f"qubits_selected_{chip_id}"] = "5"
    off_dir = data_dir / "no-figures"
    settings = {"on": str(data_dir / "calib_data"), "off": str(off_dir)}
    for mode in ("on", "off"):  # first runs: caches and the figure files read once
        os.environ["CALIB_DATA_DIR"] = settings[mode]
        reload_settings()
        timed_run(at)
    charts = len([e for e in at.get("plotly_chart")])
    times: dict[str, list[float]] = {"on": [], "off": []}
    cpu: dict[str, list[float]] = {"on": [], "off": []}
    for _ in range(args.runs):
        for mode in ("on", "off"):
            os.environ["CALIB_DATA_DIR"] = settings[mode]
            reload_settings()
            wall, used = timed_run(at)
            times[mode].append(wall)
            cpu[mode].append(used)
    os.environ["CALIB_DATA_DIR"] = settings["on"]
    reload_settings()
    timed_run(at)
    shown = len([e for e in at.get("plotly_chart")])
    load = os.getloadavg()[0]
    print(f"Qubits page, {chip_id} (144 qubits), Q5 selected, {args.runs} warm reruns each, load average {load:.1f}")
    print(f"{'figures':<8} {'median wall s':>14} {'max wall s':>11} {'median cpu s':>13}")
    for mode in ("on", "off"):
        print(f"{mode:<8} {statistics.median(times[mode]):>14.3f} {max(times[mode]):>11.3f} "
              f"{statistics.median(cpu[mode]):>13.3f}")
    ratio = statistics.median(times["on"]) / statistics.median(times["off"])
    print(f"charts drawn with figures on: {shown} (off: {charts}); on/off ratio {ratio:.2f}; "
          f"target warm with figures <= {TARGET_WARM_S} s: "
          f"{'met' if statistics.median(times['on']) <= TARGET_WARM_S else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
