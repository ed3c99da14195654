"""How many lab staff one server holds: N concurrent Chromium sessions against one real server.

Starts ``server.py`` (real ``streamlit run``) on the embedded demo with its fit figures and the scripted
OpenAI-compatible model (tests/fakes: answers at once, so the copilot's own cost is measured, not a model's).
Each simulated person opens, in their own browser context, the Chip heatmap, Timeseries, Qubits (a qubit
selected: health report and fit figures) and What changed pages by URL, then asks the Copilot one question
(a heatmap tool call and an answer).  A view is timed from navigation until the page's script has finished
and its first chart or table is visible.  First one person alone, then N at once, in the same run; it prints
p50/p95 per phase, the p95 ratio (target: 8 users with p95 <= 3x one user alone) and the server's peak RSS.
Wall times on a shared machine include waiting for a core: the load average is printed with the result.

    python bench/load.py [--users 8] [--cycles 1] [--data-dir DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.first_view import server_env, server_pid  # noqa: E402
from tests.e2e.conftest import CHROMIUM, start_streamlit  # noqa: E402
from tests.fakes.scripted_openai import ScriptedOpenAI, SmartRequest, answer, call  # noqa: E402

CHIP = "144Qv2"
PAGES = (f"heatmap?chip={CHIP}&metric=t1", f"timeseries?chip={CHIP}&parameter=t1",
         f"qubits?chip={CHIP}&qubit=17", f"compare?chip={CHIP}")
TIMEOUT_MS = 300_000
TARGET_RATIO = 3.0


def smart(req: SmartRequest):
    """The scripted model: passes the readiness probe, draws the T1 heatmap, answers with its median."""
    if req.tool_names == ["report_number"]:
        return call("report_number", {"value": 42})
    if not req.has_tools:
        return answer("The probe worked.")
    if not req.tool_results:
        return call("generate_chip_heatmap", {"chip_id": CHIP, "metric_name": "t1"})
    stats = json.loads(req.tool_results[-1].output)["stats"]
    return answer(f"Median T1 on {CHIP} is {stats['median']} μs.", "good")


def seed(data_dir: Path) -> None:
    from copilot_core.data.connection import open_database
    from copilot_core.demo.seed import chip_specs, is_empty, seed_database
    from copilot_core.figures import FigureRoot
    from copilot_core.settings import Settings

    db = open_database(Settings(data_dir=data_dir))
    try:
        if is_empty(db):
            seed_database(db, chip_specs(), seed=7, figures=FigureRoot(data_dir / "calib_data"))
    finally:
        db.close()


class RssSampler(threading.Thread):
    """The server's resident memory, sampled every 0.5 s (peak kept)."""

    def __init__(self, pid: int | None) -> None:
        super().__init__(daemon=True)
        self.pid, self.peak_mb, self.stopped = pid, 0.0, threading.Event()

    def rss_mb(self) -> float:
        try:
            for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        except OSError:
            pass
        return float("nan")

    def run(self) -> None:
        while not self.stopped.wait(0.5):
            self.peak_mb = max(self.peak_mb, self.rss_mb())


async def _drawn(page) -> None:
    from playwright.async_api import expect

    await expect(page.get_by_test_id("stApp")).to_have_attribute("data-test-script-state", "notRunning",
                                                                  timeout=TIMEOUT_MS)
    content = page.get_by_test_id("stPlotlyChart").or_(page.get_by_test_id("stDataFrame")).first
    await expect(content).to_be_visible(timeout=TIMEOUT_MS)


async def person(browser, url: str, cycles: int, views: list[tuple[str, float]]) -> None:
    from playwright.async_api import expect

    context = await browser.new_context(viewport={"width": 1440, "height": 900})
    page = await context.new_page()
    try:
        for _ in range(cycles):
            for path in PAGES:
                start = time.perf_counter()
                await page.goto(f"{url}/{path}")
                await _drawn(page)
                views.append((path.split("?")[0], time.perf_counter() - start))
            start = time.perf_counter()
            await page.goto(f"{url}/copilot")
            box = page.get_by_test_id("stChatInputTextArea")
            await expect(box).to_be_visible(timeout=TIMEOUT_MS)
            await box.fill(f"Show the T1 heatmap of {CHIP}")
            await box.press("Enter")
            answer_msg = page.get_by_test_id("stChatMessage").nth(1)
            await expect(answer_msg.get_by_test_id("stPlotlyChart")).to_be_visible(timeout=TIMEOUT_MS)
            views.append(("copilot", time.perf_counter() - start))
    finally:
        await context.close()


async def phase(url: str, users: int, cycles: int) -> tuple[list[tuple[str, float]], float]:
    from playwright.async_api import async_playwright

    views: list[tuple[str, float]] = []
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=["--disable-gpu", "--no-sandbox"])
        try:
            await person(browser, url, 1, [])  # warm the server's caches and the browser once, untimed
            start = time.perf_counter()
            await asyncio.gather(*(person(browser, url, cycles, views) for _ in range(users)))
            return views, time.perf_counter() - start
        finally:
            await browser.close()


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--users", type=int, default=8)
    parser.add_argument("--cycles", type=int, default=1, help="rounds of the four pages + one question per person")
    parser.add_argument("--data-dir", type=Path)
    args = parser.parse_args()
    data_dir = args.data_dir or Path(tempfile.mkdtemp(prefix="bench-load-"))
    seed(data_dir)
    env = server_env(data_dir) | {"USERNAME": "load", "TRACE_DIR": str(data_dir / "traces")}
    with ScriptedOpenAI(smart=smart) as model, \
            start_streamlit(env | {"OPENAI_BASE_URL": model.base_url, "COPILOT_MODEL": "scripted-model"},
                            ROOT / "server.py") as url:
        sampler = RssSampler(server_pid(url))
        idle_mb = sampler.rss_mb()
        sampler.start()
        results = {}
        for users in (1, args.users):
            views, wall = asyncio.run(phase(url, users, args.cycles))
            results[users] = (views, wall)
        sampler.stopped.set()
    load = os.getloadavg()
    print(f"load average during the run (1/5/15 min): {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} on "
          f"{os.cpu_count()} cores")
    print(f"{'users':>5} {'views':>6} {'p50 s':>7} {'p95 s':>7} {'max s':>7} {'wall s':>7}   per page p50 s")
    for users, (views, wall) in results.items():
        times = [t for _, t in views]
        per_page = {name: statistics.median([t for n, t in views if n == name]) for name in dict(views)}
        pages = ", ".join(f"{n} {t:.2f}" for n, t in per_page.items())
        print(f"{users:>5} {len(times):>6} {pct(times, 0.5):>7.2f} {pct(times, 0.95):>7.2f} {max(times):>7.2f} "
              f"{wall:>7.1f}   {pages}")
    one = [t for _, t in results[1][0]]
    many = [t for _, t in results[args.users][0]]
    ratio = pct(many, 0.95) / pct(one, 0.95)
    print(f"p95 with {args.users} users / p95 alone: {ratio:.2f} (target <= {TARGET_RATIO:.0f}: "
          f"{'met' if ratio <= TARGET_RATIO else 'MISSED'}); server RSS idle {idle_mb:.0f} MB, "
          f"peak {sampler.peak_mb:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
