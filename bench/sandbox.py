"""Sandbox overhead: a fresh interpreter per job vs a fork from the warm worker, measured side by side.

Jobs run on a 144-qubit x 30-point T1 time series (the copilot's data-store shape).  The fresh path
starts ``python -I``, imports pandas/numpy/plotly/RestrictedPython, runs the job under the same policy
and prints JSON; the warm path is ``run_analysis`` end to end (pickle to the worker, fork, OS hardening,
job, JSON reply, app-side figure validation).  Runs are interleaved so machine load hits both alike.

    .venv/bin/python bench/sandbox.py [--runs 20] [--fresh-runs 5]
"""

from __future__ import annotations

import argparse
import os
import pickle
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from copilot_core.sandbox import run_analysis, shutdown, warm_up  # noqa: E402
from copilot_core.sandbox.host import clean_environment  # noqa: E402
from copilot_core.sandbox.job import compile_and_run  # noqa: E402
from copilot_core.sandbox.proxies import build_namespaces  # noqa: E402
from copilot_core.sandbox.warmup import synthetic_timeseries  # noqa: E402

JOBS = {
    "trivial": "result = {'output': 'ok'}",
    "groupby": "g = data['t1'].groupby('qid')['value'].agg(['mean', 'std', 'min', 'max'])\n"
               "result = {'output': g.describe().to_string()}",
    "px.line (daily median)": "df = data['t1'].copy()\ndf['t'] = pd.to_datetime(df['calibrated_at'])\n"
                              "m = df.groupby('t', as_index=False)['value'].median()\n"
                              "result = {'output': 'ok', 'chart': px.line(m, x='t', y='value')}",
    "px.line (144 traces)": "df = data['t1'].copy()\ndf['t'] = pd.to_datetime(df['calibrated_at'])\n"
                            "result = {'output': 'ok', 'chart': px.line(df, x='t', y='value', color='qid')}",
}

FRESH = """
import json, pickle, sys
sys.path.insert(0, {root!r})
from copilot_core.sandbox.proxies import build_namespaces
from copilot_core.sandbox.job import compile_and_run
request = pickle.loads(sys.stdin.buffer.read())
reply = compile_and_run(request["code"], build_namespaces(), request["data"])
sys.stdout.write(json.dumps(reply))
"""


def fresh_job(code: str, data: dict) -> float:
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-I", "-c", FRESH.format(root=str(ROOT))],
                          input=pickle.dumps({"code": code, "data": data}), capture_output=True,
                          env=clean_environment(), check=True)
    if b'"error": null' not in proc.stdout:
        raise RuntimeError(proc.stdout[-500:] + proc.stderr[-500:])
    return time.perf_counter() - started


def warm_job(code: str, data: dict) -> float:
    started = time.perf_counter()
    result = run_analysis(code, data, timeout_s=30)
    if result.error:
        raise RuntimeError(result.error)
    return time.perf_counter() - started


def inprocess_job(code: str, data: dict, namespaces: dict) -> float:
    """Reference floor: the same policy-compiled job in this process, no isolation (our own snippets only)."""
    started = time.perf_counter()
    if compile_and_run(code, namespaces, data)["error"]:
        raise RuntimeError(code)
    return time.perf_counter() - started


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="warm runs per job")
    parser.add_argument("--fresh-runs", type=int, default=5, help="fresh-interpreter runs per job")
    args = parser.parse_args()
    data = synthetic_timeseries(144, 30)
    started = time.perf_counter()
    status = warm_up()
    print(f"worker start (imports + warm-up jobs + probe): {(time.perf_counter() - started) * 1000:.0f} ms; "
          f"layers: {', '.join(status['layers'])}")
    print(f"data: t1 {len(data['t1'])} rows ({data['t1']['qid'].nunique()} qubits x "
          f"{data['t1']['calibrated_at'].nunique()} points); load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores\n")
    namespaces = build_namespaces()
    print(f"{'job':24} {'warm p50':>9} {'warm p95':>9} {'fresh p50':>10} {'fresh p95':>10} {'fresh/warm':>11} "
          f"{'in-proc p50':>12}")
    for name, code in JOBS.items():
        warm, fresh, inproc = [], [], []
        warm_job(code, data)  # first fork after start-up pays page-ins; not part of the steady state
        inprocess_job(code, data, namespaces)
        for i in range(max(args.runs, args.fresh_runs)):
            if i < args.fresh_runs:
                fresh.append(fresh_job(code, data))
            if i < args.runs:
                warm.append(warm_job(code, data))
                inproc.append(inprocess_job(code, data, namespaces))
        w50, f50 = statistics.median(warm), statistics.median(fresh)
        print(f"{name:24} {w50 * 1000:7.0f}ms {pct(warm, .95) * 1000:7.0f}ms {f50 * 1000:8.0f}ms "
              f"{pct(fresh, .95) * 1000:8.0f}ms {f50 / w50:10.1f}x {statistics.median(inproc) * 1000:10.0f}ms")
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    print("\ntargets: warm figure job <= 60 ms p50 and >= 10x faster than a fresh interpreter")
    shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
