"""Click-to-report and click-to-review seconds of the one-click qubit analysis on the local model, before and after.

Run: ``.venv/bin/python bench/qubit_analysis.py [--base REV] [--qubits 6]`` (the model fetched:
``scripts/local_llm.py fetch``; the demo seeded: ``make seed``).  Starts ``local_llm.py serve`` on a free port, then
runs the first analysis turn of each qubit through the turn service, as the Copilot page does after "Analyze with
copilot" (readiness probe off, the data layer warmed by the qubit's health report as the Qubits page warms it),
twice per qubit: with the code of ``--base`` (exported with ``git archive`` into a temporary folder; by default the
last revision before report-first, where "Analyze qubit X" ran the full agent loop with tools) and with this
tree.  *report*: seconds from the click until the qubit's report is on the page (before: the answer had no report,
so the first thing shown was the whole answer); *review*: seconds until the finished answer.  Prints one row per
qubit and run, then the medians side by side.  Compare the columns of one run, not runs on different days.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "bench"))

import local_llm  # noqa: E402
from one_tool_latency import local_model_server  # noqa: E402

# The eval's qubits (tests/agent/analysis_eval.py) on the shared demo, one per condition first: bad T1, failed task,
# drop against its own median, missing values, healthy, bad T2 echo; then more of each.
QUBITS = (("144Qv2", "57"), ("64Qv3", "10"), ("64Qv3", "27"), ("64Qv3", "3"), ("64Qv3", "6"), ("64Qv3", "41"),
          ("144Qv2", "6"), ("144Qv2", "22"), ("144Qv2", "8"), ("144Qv2", "29"), ("64Qv3", "60"), ("64Qv3", "47"))
BEFORE_REPORT_FIRST = "666d9d0~1"  # the last revision where "Analyze qubit X" was the full agent loop with tools

WORKER = r"""
import json, sys, time
from copilot_core.agent import provider_from_settings
from copilot_core.analysis.health import qubit_health
from copilot_core.chat import ChatState, analysis_request
from copilot_core.data.connection import open_database
from copilot_core.data.repository import CalibrationRepository
from copilot_core.session import Copilot
from copilot_core.settings import load_settings

class Clock:
    report_at = None
    def phase(self, text): pass
    def notice(self, text): pass
    def tool_call(self, name, args): pass
    def tool_result(self, outcome): pass
    def report(self, markdown): self.report_at = time.perf_counter()

settings = load_settings()
repo = CalibrationRepository(open_database(settings), project_id=settings.project_id)
provider = provider_from_settings(settings)
for chip, qid in json.loads(sys.argv[1]):
    qubit_health(repo, chip, qid)  # what the Qubits page computed before the click
    state = ChatState(username="bench", provider=provider, chip_id=chip, qid=qid, mode="analysis")
    clock = Clock()
    started = time.perf_counter()
    turn = Copilot.from_settings(settings, repo, memory=False, gate=False).ask(state, analysis_request(chip, qid),
                                                                               clock)
    done = time.perf_counter() - started
    result = turn.result
    review = getattr(result, "review", None)
    print(json.dumps({"chip": chip, "qid": qid, "review_s": done,
                      "report_s": (clock.report_at - started) if clock.report_at else None,
                      "rounds": len(result.rounds) if result else 0, "tools": len(result.tool_calls) if result else 0,
                      "status": review.status if review else ("error" if result and result.error else "answer"),
                      "first": (result.answer if result else "").strip().splitlines()[-1][:70]}), flush=True)
"""


def _export(base: str, into: Path) -> Path:
    archive = into / "base.tar"
    subprocess.run(["git", "-C", str(ROOT), "archive", "-o", str(archive), base], check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into / "tree", filter="data")
    return into / "tree"


def _run(tree: Path, env: dict[str, str], pairs: list[tuple[str, str]]) -> list[dict]:
    proc = subprocess.run([sys.executable, "-c", WORKER, json.dumps(pairs)], cwd=tree, capture_output=True, text=True,
                          env={**env, "PYTHONPATH": str(tree)}, timeout=3600)
    rows = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0:
        print(proc.stderr[-2000:], file=sys.stderr)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default=BEFORE_REPORT_FIRST,
                        help=f"the git revision to compare with (default: {BEFORE_REPORT_FIRST}, before report-first)")
    parser.add_argument("--qubits", type=int, default=6, help="how many of the eval's qubits (default 6)")
    args = parser.parse_args()
    pairs = list(QUBITS[:args.qubits])
    results: dict[str, list[dict]] = {}
    with local_model_server() as port:
        if port is None:
            return 1
        env = {**os.environ, **local_llm.parse_env("\n".join(local_llm.env_lines(port))), "COPILOT_MEMORY": "off",
               "COPILOT_READINESS": "off",  # both trees read this tree's store (the exported one has no .data)
               "DATA_DIR": str(Path(os.environ.get("DATA_DIR") or ROOT / ".data").resolve())}
        with tempfile.TemporaryDirectory() as tmp:
            results["before"] = _run(_export(args.base, Path(tmp)), env, pairs)
        results["after"] = _run(ROOT, env, pairs)
    print(f"{'run':<7} {'qubit':<11} {'report s':>8} {'review s':>8} {'rounds':>6} {'tools':>5}  status | last line")
    for run, rows in results.items():
        for r in rows:
            report = "-" if r["report_s"] is None else f"{r['report_s']:.2f}"
            print(f"{run:<7} {r['chip'] + ' ' + r['qid']:<11} {report:>8} {r['review_s']:>8.1f} {r['rounds']:>6} "
                  f"{r['tools']:>5}  {r['status']} | {r['first']}")
    med = {run: (statistics.median([r["report_s"] if r["report_s"] is not None else r["review_s"] for r in rows]),
                 statistics.median([r["review_s"] for r in rows])) for run, rows in results.items() if rows}
    if "before" in med and "after" in med:
        (b_rep, b_rev), (a_rep, a_rev) = med["before"], med["after"]
        print(f"median over {len(pairs)} qubits   before   after")
        print(f"click-to-report s    {b_rep:8.2f} {a_rep:7.2f}   (before: no report; the whole answer)")
        print(f"click-to-review s    {b_rev:8.1f} {a_rev:7.1f}   ({b_rev / a_rev:.1f}x faster)")
        worst = max(r["review_s"] for r in results["after"])
        print(f"after: click-to-review max {worst:.1f} s (the first qubit runs on a freshly started model)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
