"""What each copilot tool costs the model: full-result JSON characters vs what the model is sent.

Seeds the demo into a temporary embedded database, runs every tool once on the 144-qubit chip
(the chip timeseries with 30 points per qubit) and prints, side by side from one run, the
characters of the full result (for the heatmap and the sandbox: including the chart JSON QDash
would have sent) against the characters of ``model_text``, and their ratio.

    .venv/bin/python bench/tokens.py
Target: stored tools at least 50x smaller.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from copilot_core.data.connection import open_database  # noqa: E402
from copilot_core.data.repository import CalibrationRepository  # noqa: E402
from copilot_core.demo.seed import chip_specs, seed_database  # noqa: E402
from copilot_core.sandbox import run_analysis  # noqa: E402
from copilot_core.settings import load_settings  # noqa: E402
from copilot_core.tools import STORED_TOOLS, DataStore, Toolkit  # noqa: E402
from copilot_core.tools.compact import to_model_json  # noqa: E402

TARGET_STORED_RATIO = 50.0
POINTS = 30


def calls(repo: CalibrationRepository, chip_id: str) -> list[tuple[str, dict]]:
    """One representative call per tool, with ids taken from the database."""
    qid = "5"
    version = next(iter(repo.parameter_versions(chip_id, "t1", qid, limit=1)), {})
    coupling = next(iter(repo.all_coupling_params(chip_id)), "0-1")
    base = {"chip_id": chip_id}
    return [
        ("get_qubit_params", {**base, "qid": qid}),
        ("get_latest_task_result", {**base, "task_name": "CheckT1", "qid": qid}),
        ("get_task_history", {**base, "task_name": "CheckT1", "qid": qid, "last_n": 10}),
        ("get_parameter_timeseries", {**base, "parameter_name": "t1", "qid": qid, "last_n": POINTS}),
        ("get_chip_summary", base),
        ("get_coupling_params", {**base, "coupling_id": coupling}),
        ("get_execution_history", {**base, "last_n": 10}),
        ("compare_qubits", {**base, "qids": ["0", "1", "2", "3", "4", "5"]}),
        ("get_chip_topology", base),
        ("search_task_results", {**base, "last_n": 20}),
        ("get_calibration_notes", {**base, "last_n": 3}),
        ("get_parameter_lineage", {**base, "parameter_name": "t1", "qid": qid}),
        ("get_provenance_lineage_graph", {**base, "entity_id": version.get("entity_id") or "t1:5:20260101-001:x"}),
        ("generate_chip_heatmap", {**base, "metric_name": "t1"}),
        ("get_chip_parameter_timeseries", {**base, "parameter_name": "t1", "last_n": POINTS}),
        ("list_available_parameters", base),
        ("execute_python_analysis", {"code": "df = data['t1']\nprint(df.groupby('qid')['value'].median().describe())"}),
    ]


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="bench-tokens-") as tmp:
        settings = load_settings(env={"DATA_DIR": tmp}, secrets_path=Path(tmp) / "none.toml")
        db = open_database(settings)
        t0 = time.perf_counter()
        seed_database(db, chip_specs((64, 144), days=POINTS))
        print(f"seeded demo (64 + 144 qubits, {POINTS} days) in {time.perf_counter() - t0:.1f} s")
        repo = CalibrationRepository(db)
        chip_id = next(c["chip_id"] for c in repo.list_chips() if int(c["size"]) == 144)
        kit = Toolkit(repo, store=DataStore(), sandbox=run_analysis)
        kit.begin_request()
        print(f"\n{'tool':32} {'full chars':>11} {'model chars':>12} {'ratio':>8} {'ms':>7}  ok")
        stored_ratios = []
        for name, args in calls(repo, chip_id):
            outcome = kit.execute(name, args)
            full = {"result": outcome.full, "charts": outcome.charts} if outcome.charts else outcome.full
            full_chars = len(to_model_json(full)) if outcome.ok or outcome.full is not None else 0
            model_chars = len(outcome.model_text)
            ratio = full_chars / model_chars if full_chars else float("nan")
            if name in STORED_TOOLS and outcome.ok:
                stored_ratios.append((name, ratio))
            flag = "yes" if outcome.ok else f"no: {outcome.error}"
            print(f"{name:32} {full_chars:>11,} {model_chars:>12,} {ratio:>7.1f}x {outcome.elapsed_s * 1000:>7.1f}  {flag}")
        print()
        for name, ratio in stored_ratios:
            if name == "get_chip_parameter_timeseries":  # the target: 144 qubits x 30 points
                verdict = "meets" if ratio >= TARGET_STORED_RATIO else "MISSES"
                print(f"{name}: {ratio:.0f}x smaller ({verdict} the >= {TARGET_STORED_RATIO:.0f}x target)")
            else:  # one row per qubit against one statistics block per parameter: bounded near 20x
                print(f"{name}: {ratio:.0f}x smaller (informational; 144 rows vs per-parameter statistics)")
        db.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
