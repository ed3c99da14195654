"""Sandbox overhead: a fresh interpreter per job vs the warm worker, forking per job or handing the job to a spare.

Jobs run on a 144-qubit x 30-point T1 time series (the copilot's data-store shape).  The fresh path
starts ``python -I``, imports pandas/numpy/plotly/RestrictedPython, runs the job under the same policy
and prints JSON; the warm paths are ``run_analysis`` end to end (pickle to the worker, fork or spare,
OS hardening, job, JSON reply, app-side figure validation): "fork" forks and hardens a job process
when the request arrives, "spare" hands it to the process the worker forked and hardened ahead of
time.  Each is measured back to back (the next job as soon as the reply is in) and spaced like a chat
(2-5 s of idle time between jobs), all in one run; fresh runs are interleaved with the warm ones.

Fair share (``--fair-share``, alone): a new session's first job while two (``--loops N``: N) other sessions each
loop, its wait for a slot and its whole time, with the slots the app had before (one per core), with the
reserve, and with the reserve plus borrowing (preemption: the longest runner is paused), in turn.

    .venv/bin/python bench/sandbox.py [--runs 20] [--fresh-runs 5] [--spaced-runs 8] [--gap 2 5]
    .venv/bin/python bench/sandbox.py --fair-share [--rounds 3] [--loops 2]
"""

from __future__ import annotations

import argparse
import os
import pickle
import random
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from copilot_core.sandbox import host, run_analysis, shutdown, warm_up  # noqa: E402
from copilot_core.sandbox.fairshare import FairShare  # noqa: E402
from copilot_core.sandbox.host import configured_spares, use_spare  # noqa: E402
from copilot_core.sandbox.job import compile_and_run  # noqa: E402
from copilot_core.sandbox.proxies import build_namespaces  # noqa: E402
from copilot_core.sandbox.worker_handle import clean_environment  # noqa: E402
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


SPACED_JOBS = ("groupby", "px.line (daily median)")
TARGET_JOB, TARGET_P50_MS, TARGET_RATIO = "px.line (daily median)", 60, 10
MODES = (("fork", False), ("spare", True))


def _cell(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:6.0f} {pct(values, .95) * 1000:5.0f}"


def _table(title: str, rows: dict[str, dict[str, list[float]]]) -> None:
    print(f"\n{title}")
    print(f"{'job':24} {'fresh p50  p95':>15} | {'fork p50  p95':>14} {'vs fresh':>8} | "
          f"{'spare p50  p95':>15} {'vs fresh':>8}")
    for name, cols in rows.items():
        fresh = statistics.median(cols["fresh"])
        line = f"{name:24} {_cell(cols['fresh']):>15} |"
        for mode, _ in MODES:
            line += f" {_cell(cols[mode]):>14} {fresh / statistics.median(cols[mode]):7.1f}x |"
        print(line.rstrip(" |"))


LOOP_TIMEOUT_S = 6.0


def _new_session_while_others_loop(data: dict, round_no: int, count: int) -> tuple[float, float, str | None]:
    """(wait s, elapsed s, error) of a new session's first job while ``count`` other sessions each run a loop."""
    loops = [threading.Thread(target=run_analysis, args=("while True:\n    pass", data),
                              kwargs={"timeout_s": LOOP_TIMEOUT_S, "session": f"loop-{round_no}-{i}", "wait_s": 2.0})
             for i in range(count)]
    for thread in loops:
        thread.start()
    end = time.monotonic() + 30
    running = min(count, host._share.slots)  # the loops that got a slot (the rest wait, or borrow one)
    while host.worker_status()["running"] < running and time.monotonic() < end:  # the worker's own count of jobs
        time.sleep(0.02)
    result = run_analysis("print(int(data['t1']['value'].count()))", data, session=f"new-{round_no}", wait_s=5.0)
    for thread in loops:
        thread.join()
    return result.waited_s, result.elapsed_s, result.error


def fair_share(rounds: int, count: int) -> int:
    data = synthetic_timeseries(144, 30)
    warm_up()
    shares = {"cores only": FairShare(host.MAX_CONCURRENT, preempt=False),
              f"cores + {host.RESERVE_SLOTS} reserve": FairShare(host.MAX_CONCURRENT, host.RESERVE_SLOTS, preempt=False),
              "reserve + borrowing (now)": FairShare(host.MAX_CONCURRENT, host.RESERVE_SLOTS)}
    rows: dict[str, list[tuple[float, float, str | None]]] = {name: [] for name in shares}
    for round_no in range(rounds):
        for name, share in shares.items():  # in turn, so load hits both alike
            host._share = share
            rows[name].append(_new_session_while_others_loop(data, round_no, count))
    print(f"a new session's first job while {count} other sessions loop ({rounds} rounds, {os.cpu_count()} cores, "
          f"loops stopped at {LOOP_TIMEOUT_S:g} s); load average {os.getloadavg()[0]:.1f}")
    for name, results in rows.items():
        waits = [w for w, _, _ in results]
        took = [e for _, e, _ in results]
        busy = sum(1 for _, _, err in results if err and err.startswith("Sandbox busy"))
        print(f"  {name:<28} wait p50 {statistics.median(waits):5.2f} s, max {max(waits):5.2f} s; whole job p50 "
              f"{statistics.median(took):5.2f} s; 'Sandbox busy' {busy} of {rounds}")
    shutdown()
    return 0


def main() -> int:
    if "--fair-share" in sys.argv:
        rounds = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 3
        loops = int(sys.argv[sys.argv.index("--loops") + 1]) if "--loops" in sys.argv else 2
        return fair_share(rounds, loops)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="back-to-back warm runs per job and mode")
    parser.add_argument("--fresh-runs", type=int, default=5, help="fresh-interpreter runs per job")
    parser.add_argument("--spaced-runs", type=int, default=8, help="spaced warm runs per job and mode")
    parser.add_argument("--gap", type=float, nargs=2, default=(2.0, 5.0), metavar=("MIN", "MAX"),
                        help="idle seconds between spaced jobs (uniform)")
    args = parser.parse_args()
    data = synthetic_timeseries(144, 30)
    gaps = random.Random(0)
    print(f"data: t1 {len(data['t1'])} rows ({data['t1']['qid'].nunique()} qubits x "
          f"{data['t1']['calibrated_at'].nunique()} points); load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores")
    namespaces = build_namespaces()
    back: dict[str, dict[str, list[float]]] = {name: {"fresh": [], "inproc": []} for name in JOBS}
    spaced: dict[str, dict[str, list[float]]] = {name: {} for name in SPACED_JOBS}
    for mode, spare in MODES:
        use_spare(spare)
        started = time.perf_counter()
        status = warm_up()
        print(f"{mode}: worker start (imports + warm-up jobs + probe) {(time.perf_counter() - started) * 1000:.0f} ms; "
              f"spares: {configured_spares() if spare else 0}; layers: {', '.join(status['layers'])}")
        for name, code in JOBS.items():
            warm_job(code, data)  # first job after start-up pays page-ins; not part of the steady state
            times = back[name][mode] = []
            for i in range(args.runs):
                if mode == "fork" and i < args.fresh_runs:  # interleaved, so load hits both alike
                    back[name]["fresh"].append(fresh_job(code, data))
                    back[name]["inproc"].append(inprocess_job(code, data, namespaces))
                times.append(warm_job(code, data))
        for name in SPACED_JOBS:
            times = spaced[name][mode] = []
            for _ in range(args.spaced_runs):
                time.sleep(gaps.uniform(*args.gap))  # a person reading the answer before the next question
                times.append(warm_job(JOBS[name], data))
        shutdown()
    for name in SPACED_JOBS:
        spaced[name]["fresh"] = back[name]["fresh"]
    _table(f"(a) back to back: {args.runs} warm runs per job and mode, {args.fresh_runs} fresh; ms", back)
    _table(f"(b) spaced like a chat ({args.gap[0]:g}-{args.gap[1]:g} s idle before each job): "
           f"{args.spaced_runs} warm runs per job and mode; fresh as in (a); ms", spaced)
    print("\nin-process reference (same policy-compiled job, no isolation, p50): "
          + ", ".join(f"{name} {statistics.median(back[name]['inproc']) * 1000:.0f} ms" for name in JOBS))
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    print(f"targets: warm figure job ({TARGET_JOB}) <= {TARGET_P50_MS} ms p50 and >= {TARGET_RATIO}x faster than "
          "a fresh interpreter, spaced and back to back:")
    fresh = statistics.median(back[TARGET_JOB]["fresh"])
    for label, rows in (("back to back", back), ("spaced", spaced)):
        p50 = statistics.median(rows[TARGET_JOB]["spare"])
        ratio = fresh / p50
        verdict = "met" if p50 * 1000 <= TARGET_P50_MS and ratio >= TARGET_RATIO else "MISSED"
        print(f"  spare, {label:12} {p50 * 1000:5.0f} ms p50, {ratio:5.1f}x fresh ({fresh * 1000:.0f} ms): {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
