"""What one page view costs the browser, per page kind: the pages of ``bench/load.py`` seen by one person.

Starts ``server.py`` (real ``streamlit run``) on the demo store with its fit figures and the scripted model, as
``bench/load.py`` does, opens the Qubits bookmark (144Qv2, Q017) in one Chromium context and then browses from
the sidebar: Chip heatmap, Timeseries, Qubits, What changed, one Copilot question, ``--rounds`` times.  For each
view it measures, from the click until the page is drawn and Chromium has gone quiet (no more than 5% of a core
over 0.3 s, at most 10 s after the page was drawn, so late chart renders are counted):

- Chromium's CPU seconds (every Chromium process, from /proc: the renderer, the GPU and browser processes);
- the server's CPU seconds (the ``streamlit run`` process: script runs, a copilot turn, websocket);
- the renderer's own account (CDP ``Performance.getMetrics``): task, script, layout and style-recalc seconds;
- what the page holds once drawn: Plotly charts, DOM elements, and the bytes the websocket brought for the view.

``--baseline DIR`` measures DIR's ``server.py`` (another checkout, e.g. the main branch) in the same run,
alternating round by round with this checkout, each on its own freshly seeded demo store, so the two columns
meet the same machine load.  CPU seconds are less noisy than wall time on a shared machine.

``--pages copilot`` measures only the pages named (each still opened from another page of the loop).

    python -m bench.page_weight [--rounds 3] [--baseline DIR] [--pages heatmap,copilot]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import os
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.first_view import cpu_seconds, server_env, server_pid  # noqa: E402
from bench.load import BOOKMARK, EVENTS_JS, KINDS, _drawn, _tree_cpu, _view, smart  # noqa: E402
from tests.e2e.conftest import CHROMIUM, start_streamlit  # noqa: E402
from tests.fakes.scripted_openai import ScriptedOpenAI  # noqa: E402

METRICS = ("TaskDuration", "ScriptDuration", "LayoutDuration", "RecalcStyleDuration")
QUIET_CPU = 0.05  # of one core
QUIET_WINDOW_S = 0.3
SETTLE_LIMIT_S = 10.0

COUNTS_JS = """() => ({
  charts: document.querySelectorAll('[data-testid="stPlotlyChart"]').length,
  drawn: document.querySelectorAll('[data-testid="stPlotlyChart"] .js-plotly-plot .main-svg:first-of-type').length,
  points: [...document.querySelectorAll('.js-plotly-plot')]
      .map(p => (p.data || []).reduce((n, t) => n + ((t.x || t.z || t.values || []).length || 0), 0))
      .reduce((a, b) => a + b, 0),
  elements: document.getElementsByTagName('*').length,
})"""


@dataclass
class View:
    chromium_s: float
    by_type: dict[str, float]
    renderer: dict[str, float]
    charts: int
    drawn: int
    points: int
    elements: int
    ws_bytes: int
    wall_s: float
    server_s: float


@dataclass
class Entry:
    label: str
    root: Path
    data_dir: Path
    views: dict[str, list[View]] = field(default_factory=dict)


def seed_with(root: Path, data_dir: Path) -> None:
    """The demo store with fit figures, seeded by ``root``'s own code (its seed may differ from this tree's)."""
    code = "import sys; from pathlib import Path; from bench.load import seed; seed(Path(sys.argv[1]))"
    subprocess.run([sys.executable, "-c", code, str(data_dir)], cwd=root, check=True,
                   env=server_env(data_dir, root))


def _by_type(root: psutil.Process) -> dict[str, float]:
    """Chromium's CPU seconds by process type (renderer, gpu-process, utility, browser)."""
    spent: dict[str, float] = {}
    for proc in [root, *root.children(recursive=True)]:
        try:
            kind = next((a.split("=", 1)[1] for a in proc.cmdline() if a.startswith("--type=")), "browser")
            t = proc.cpu_times()
        except psutil.Error:
            continue
        spent[kind] = spent.get(kind, 0.0) + t.user + t.system
    return spent


async def _quiet(browser_pid: int, limit: float = SETTLE_LIMIT_S) -> None:
    """Wait (polling /proc, a measurement window, not a synchronisation) until Chromium idles."""
    proc = psutil.Process(browser_pid)
    deadline = time.perf_counter() + limit
    last = _tree_cpu(proc)
    while time.perf_counter() < deadline:
        await asyncio.sleep(QUIET_WINDOW_S)
        now = _tree_cpu(proc)
        if now - last <= QUIET_CPU * QUIET_WINDOW_S:
            return
        last = now


class Socket:
    """Bytes the page's websocket received (CDP Network events; binary frames arrive base64-encoded)."""

    def __init__(self) -> None:
        self.received = 0

    def on_frame(self, event: dict) -> None:
        response = event.get("response") or {}
        payload = str(response.get("payloadData") or "")
        self.received += len(base64.b64decode(payload)) if response.get("opcode") == 2 else len(payload.encode())


async def _metrics(cdp) -> dict[str, float]:
    got = await cdp.send("Performance.getMetrics")
    return {m["name"]: float(m["value"]) for m in got["metrics"] if m["name"] in METRICS}


async def measure(browser, browser_pid: int, url: str, rounds: int, pages: tuple[str, ...] = KINDS
                  ) -> dict[str, list[View]]:
    context = await browser.new_context(viewport={"width": 1440, "height": 900})
    await context.add_init_script(EVENTS_JS)
    page = await context.new_page()
    cdp = await context.new_cdp_session(page)
    await cdp.send("Performance.enable", {"timeDomain": "threadTicks"})
    await cdp.send("Network.enable")
    socket = Socket()
    cdp.on("Network.webSocketFrameReceived", socket.on_frame)
    await page.goto(f"{url}/{BOOKMARK}")
    await _drawn(page, "Qubits")
    await _quiet(browser_pid)
    views: dict[str, list[View]] = {k: [] for k in pages}
    proc = psutil.Process(browser_pid)
    server = server_pid(url)
    current = "qubits"
    try:
        for _ in range(rounds):
            for kind in pages:
                if kind == current:  # come from another page, as in the loop of bench/load.py (untimed)
                    current = next(k for k in ("timeseries", "compare") if k != kind)
                    await _view(page, current)
                    await _quiet(browser_pid)
                cpu, types, renderer, received = _tree_cpu(proc), _by_type(proc), await _metrics(cdp), socket.received
                served = cpu_seconds(server)
                start = time.perf_counter()
                await _view(page, kind)
                wall = time.perf_counter() - start
                current = kind
                await _quiet(browser_pid)
                after = await _metrics(cdp)
                counts = await page.evaluate(COUNTS_JS)
                after_types = _by_type(proc)
                views[kind].append(View(_tree_cpu(proc) - cpu,
                                        {k: after_types[k] - types.get(k, 0.0) for k in after_types},
                                        {k: after[k] - renderer.get(k, 0.0) for k in after},
                                        int(counts["charts"]), int(counts["drawn"]), int(counts["points"]),
                                        int(counts["elements"]), socket.received - received, wall,
                                        cpu_seconds(server) - served))
    finally:
        await context.close()
    return views


async def run(entries: list[Entry], rounds: int, pages: tuple[str, ...]) -> None:
    from playwright.async_api import async_playwright

    with ScriptedOpenAI(smart=smart) as model, ExitStack() as stack:
        urls = {}
        for entry in entries:
            env = server_env(entry.data_dir, entry.root) | {"USERNAME": "weight",
                                                            "OPENAI_BASE_URL": model.base_url,
                                                            "COPILOT_MODEL": "scripted-model"}
            urls[entry.label] = stack.enter_context(start_streamlit(env, entry.root / "server.py"))
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=CHROMIUM, args=["--disable-gpu", "--no-sandbox"])
            browser_pid = next(p.pid for p in psutil.Process().children(recursive=True)
                               if "chrom" in p.name() and "chrom" not in psutil.Process(p.ppid()).name())
            try:
                for entry in entries:  # warm each server's caches, untimed
                    await measure(browser, browser_pid, urls[entry.label], 1, pages)
                for r in range(rounds):
                    for entry in entries:
                        got = await measure(browser, browser_pid, urls[entry.label], 1, pages)
                        for kind, views in got.items():
                            entry.views.setdefault(kind, []).extend(views)
                        print(f"  round {r + 1} {entry.label}: chromium "
                              + ", ".join(f"{k} {v[0].chromium_s:.2f}" for k, v in got.items()) + " s; server "
                              + ", ".join(f"{k} {v[0].server_s:.2f}" for k, v in got.items())
                              + f" s; load {os.getloadavg()[0]:.1f}", flush=True)
            finally:
                await browser.close()


def med(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def report(entries: list[Entry], pages: tuple[str, ...]) -> None:
    print("per view, median over the rounds (renderer seconds from CDP thread ticks; ws = websocket bytes in):")
    header = (f"{'page':<11}{'entry':<10}{'chromium s':>11}{'= rend.':>8}{'+ gpu':>6}{'+ rest':>7}{'task s':>8}"
              f"{'script s':>9}{'layout s':>9}{'style s':>8}{'charts':>7}{'points':>8}{'elements':>9}{'ws kB':>8}"
              f"{'wall s':>7}{'server s':>9}{'both s':>7}")
    print(header)
    for kind in pages:
        for entry in entries:
            v = entry.views.get(kind, [])
            r = {m: med([x.renderer.get(m, 0.0) for x in v]) for m in METRICS}
            rend = med([x.by_type.get("renderer", 0.0) for x in v])
            gpu = med([x.by_type.get("gpu-process", 0.0) for x in v])
            total = med([x.chromium_s for x in v])
            print(f"{kind:<11}{entry.label:<10}{total:>11.2f}{rend:>8.2f}{gpu:>6.2f}{total - rend - gpu:>7.2f}"
                  f"{r['TaskDuration']:>8.2f}"
                  f"{r['ScriptDuration']:>9.2f}{r['LayoutDuration']:>9.2f}{r['RecalcStyleDuration']:>8.2f}"
                  f"{med([x.drawn for x in v]):>3.0f}/{med([x.charts for x in v]):<3.0f}"
                  f"{med([x.points for x in v]):>8.0f}{med([x.elements for x in v]):>9.0f}"
                  f"{med([x.ws_bytes for x in v]) / 1000:>8.0f}{med([x.wall_s for x in v]):>7.2f}"
                  f"{med([x.server_s for x in v]):>9.2f}{med([x.chromium_s + x.server_s for x in v]):>7.2f}")
    print("(charts: drawn/sent; both = Chromium + server CPU seconds of the view)")
    for name, spent in (("Chromium", lambda x: x.chromium_s), ("Chromium + server", lambda x: x.chromium_s + x.server_s)):
        totals = {e.label: sum(med([spent(x) for x in e.views.get(k, [])]) for k in pages) / len(pages)
                  for e in entries}
        print(f"{name} CPU per view, mean of the page kinds' medians: "
              + ", ".join(f"{label} {s:.2f} s" for label, s in totals.items())
              + (f"; this tree / baseline: {totals[entries[0].label] / totals[entries[1].label]:.2f}"
                 if len(entries) == 2 else ""))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", type=Path, help="also measure this checkout's server.py, alternating")
    parser.add_argument("--pages", default=",".join(KINDS), help=f"pages to measure, of {', '.join(KINDS)}")
    args = parser.parse_args()
    pages = tuple(k for k in KINDS if k in args.pages.split(","))
    if not pages:
        parser.error(f"--pages: name one or more of {', '.join(KINDS)}")
    entries = [Entry("this", ROOT, Path(tempfile.mkdtemp(prefix="bench-weight-")))]
    if args.baseline:
        base = args.baseline.resolve()
        if not (base / "server.py").is_file():
            parser.error(f"--baseline {base} has no server.py")
        entries.append(Entry("baseline", base, Path(tempfile.mkdtemp(prefix="bench-weight-base-"))))
    for entry in entries:
        seed_with(entry.root, entry.data_dir)
    print(f"{args.rounds} round(s) of {', '.join(pages)}; load average {os.getloadavg()[0]:.1f}", flush=True)
    asyncio.run(run(entries, args.rounds, pages))
    report(entries, pages)
    print(f"load average at the end {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
