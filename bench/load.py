"""How many lab staff one server holds: N people browsing at once against one real server.

Starts ``server.py`` (real ``streamlit run``) on the embedded demo with its fit figures and the scripted
OpenAI-compatible model (tests/fakes: answers at once, so the copilot's own cost is measured, not a model's).
One Chromium process serves every person, each in their own browser context.  A person arrives (within one
think time of the others) by opening a bookmark, the Qubits page of the 144-qubit chip with Q017 picked, in a
fresh context ("open", reported apart: a once-a-day cost).  Once everyone is in, each browses as lab staff do,
from the sidebar in the same session: Chip heatmap, Timeseries, Qubits (Q017's health report and fit
figures), What changed, then one Copilot question (a heatmap tool call and an answer), ``--cycles`` times
(one person alone: ``--alone-cycles`` times, so that the baseline's p95 rests on a sample of the same order as
the crowd's and is not simply its slowest view), with a think time before every view (uniform in 0.5-1.5x
``--think`` seconds, seeded).  A view is timed from
the click until the new page's script has finished and its first chart or table is visible (the copilot
view: until the answer's chart is drawn).  The same loop runs for one person alone, then for N at once, in
the same run against the same server.

The page itself reports when a view is drawn: before each click (or the question's Enter key) the bench arms
a MutationObserver in the page that notes ``performance.now()`` at the first animation frame at which every
element the view waits for exists and has a box (Playwright's "visible"); nothing polls the page while it
draws.  (Playwright's own waits poll with a back-off: ``locator.wait_for`` looks after 0, 20, 70, 170, 270 ms
and then every 500 ms, so a page drawn at 0.3 s was seen at ~0.77 s, and every poll runs selectors and a
layout in the renderers the bench is measuring.)  Each view has two times, side by side: *in the page*, from
the click's event to that frame, what a person at the screen waits; and *end to end*, from the bench's click
call until the page's report reached the bench, which adds the Playwright driver's messages and, on the
copilot, typing the question.

It prints p50/p95 per phase and per page kind, the p95 ratio (target: 8 users with p95 <= 3x one user
alone), the server's RSS, the machine's load average during each phase, and where the CPU went while
browsing: the server (its script runs, counted per run in the script thread, and the rest: websocket,
protobuf, static files), the Chromium processes (they run on the same cores as the server here, which a
lab's browsers do not), this process (Playwright client and the scripted model) and everything else on the
machine.  ``--profile`` adds cProfile of every script run (``server.pstats`` in the data directory; summary
printed; it slows the script runs about 2x).

    python -m bench.load [--users 1,8] [--cycles 2] [--alone-cycles 8] [--think 4] [--profile] [--data-dir DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.first_view import server_env, server_pid  # noqa: E402
from tests.e2e.conftest import CHROMIUM, start_streamlit  # noqa: E402
from tests.fakes.scripted_openai import ScriptedOpenAI, SmartRequest, answer, call  # noqa: E402

CHIP = "144Qv2"
BOOKMARK = f"qubits?chip={CHIP}&qubit=17"
TITLES = {"heatmap": "Chip heatmap", "timeseries": "Timeseries", "qubits": "Qubits", "compare": "What changed",
          "copilot": "Copilot"}
KINDS = tuple(TITLES)
TIMEOUT_MS = 300_000
TARGET_RATIO = 3.0
PROFILE_SITE = Path(__file__).resolve().parent / "profile_site"


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
    """The server's resident memory and the machine's 1-minute load average, sampled every 0.5 s (peaks kept
    until :meth:`reset`)."""

    def __init__(self, pid: int | None) -> None:
        super().__init__(daemon=True)
        self.pid, self.stopped = pid, threading.Event()
        self.peak_mb, self.peak_load = 0.0, 0.0

    def rss_mb(self) -> float:
        try:
            for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        except OSError:
            pass
        return float("nan")

    def reset(self) -> None:
        self.peak_mb, self.peak_load = self.rss_mb(), os.getloadavg()[0]

    def run(self) -> None:
        while not self.stopped.wait(0.5):
            self.peak_mb = max(self.peak_mb, self.rss_mb())
            self.peak_load = max(self.peak_load, os.getloadavg()[0])


def _tree_cpu(root: psutil.Process) -> float:
    """CPU seconds of a process, its live descendants and the children they have reaped."""
    total = 0.0
    for proc in [root, *root.children(recursive=True)]:
        try:
            t = proc.cpu_times()
        except psutil.Error:
            continue
        total += t.user + t.system + t.children_user + t.children_system
    return total


def _machine_busy() -> float:
    """CPU seconds every core of the machine spent on anything but idle and iowait since boot."""
    fields = [float(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    return (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


@dataclass
class CpuMeter:
    """CPU seconds by owner: the server (all, and its script runs), Chromium, this process, the machine."""

    server_pid: int
    counters: Path
    browser_pid: int | None = None

    def script_cpu(self) -> float:
        try:
            return float(json.loads(self.counters.read_text())["script_cpu_s"])
        except (OSError, ValueError, KeyError):
            return float("nan")

    def read(self) -> dict[str, float]:
        me = psutil.Process()
        t = me.cpu_times()
        browser = _tree_cpu(psutil.Process(self.browser_pid)) if self.browser_pid else 0.0
        driver = sum(_own_cpu(p) for p in me.children() if "playwright" in " ".join(p.cmdline()))
        return {"server": _own_cpu(psutil.Process(self.server_pid)), "script runs": self.script_cpu(),
                "chromium": browser, "bench": t.user + t.system + driver, "machine": _machine_busy()}


def _own_cpu(proc: psutil.Process) -> float:
    try:
        t = proc.cpu_times()
    except psutil.Error:
        return 0.0
    return t.user + t.system


EVENTS_JS = """
window.__benchEvents = {click: 0, enter: 0};
addEventListener("click", () => { window.__benchEvents.click = performance.now(); }, true);
addEventListener("keydown", (e) => { if (e.key === "Enter") window.__benchEvents.enter = performance.now(); }, true);
"""

# Arms a watcher for one view's end: ``window.__benchDrawn`` resolves with ``performance.now()`` at the first
# animation frame at which every element the view waits for exists and has a box (Playwright's "visible").
# The DOM conditions are checked on each batch of mutations; boxes only in a frame, so the page pays no extra
# layout.  Kinds: "page" (title, script finished, first chart or table), "ready" (title, script finished, chat
# box), "answer" (a chart in chat message number ``nth``).
WATCH_JS = """([kind, title, nth]) => {
  const q = (sel) => document.querySelector(sel);
  const byId = (id) => `[data-testid="${id}"]`;
  const needed = () => {
    if (kind === "answer") {
      const message = document.querySelectorAll(byId("stChatMessage"))[nth];
      const chart = message && message.querySelector(byId("stPlotlyChart"));
      return chart ? [chart] : null;
    }
    const app = q(byId("stApp"));
    if (!app || app.getAttribute("data-test-script-state") !== "notRunning") return null;
    const h1 = [...document.querySelectorAll("h1")].find((h) => h.textContent.includes(title));
    const last = kind === "ready" ? q(byId("stChatInputTextArea"))
                                  : q(`${byId("stPlotlyChart")}, ${byId("stDataFrame")}`);
    return h1 && last ? [h1, last] : null;
  };
  const shown = (el) => {
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== "hidden";
  };
  window.__benchDrawn = new Promise((resolve) => {
    let queued = false;
    const observer = new MutationObserver(() => { if (needed()) queue(); });
    const frame = () => {
      queued = false;
      const els = needed();
      if (els && els.every(shown)) { observer.disconnect(); resolve(performance.now()); }
      else if (els) queue();
    };
    const queue = () => { if (!queued) { queued = true; requestAnimationFrame(frame); } };
    observer.observe(document.documentElement, {subtree: true, childList: true, characterData: true,
                                                attributes: true});
  });
}"""


@dataclass
class Phase:
    users: int
    cycles: int
    views: list[tuple[str, float]] = field(default_factory=list)  # end to end, as the bench saw them
    frames: list[tuple[str, float]] = field(default_factory=list)  # in the page
    wall: float = 0.0
    cpu: dict[str, float] = field(default_factory=dict)
    load: tuple[float, float] = (0.0, 0.0)  # 1-min load average: at the start, peak during
    peak_mb: float = 0.0

    def times(self, kind: str | None = None, in_page: bool = False) -> list[float]:
        """Seconds of the views of one kind, or of every page view (the bookmark's first open left out),
        end to end or, with ``in_page``, as timed in the page."""
        return [t for k, t in (self.frames if in_page else self.views) if k == kind or (kind is None and k in KINDS)]


async def _shown(locator) -> None:
    """``locator`` is visible.  Waited for with ``wait_for``, not ``expect(...).to_be_visible()``: each poll of an
    expect that finds nothing yet makes Playwright build an accessibility snapshot of the whole page for its
    failure message, 0.1-0.3 s of the renderer's CPU on these pages, which a person's browser never spends."""
    await locator.wait_for(state="visible", timeout=TIMEOUT_MS)


async def _drawn(page, title: str) -> None:
    """The page titled ``title`` has run to the end and shows its first chart or table."""
    from playwright.async_api import expect

    await _shown(page.locator("h1", has_text=title).first)  # the new page's run
    await expect(page.get_by_test_id("stApp")).to_have_attribute("data-test-script-state", "notRunning",
                                                                  timeout=TIMEOUT_MS)
    await _shown(page.get_by_test_id("stPlotlyChart").or_(page.get_by_test_id("stDataFrame")).first)


async def _arm(page, kind: str, title: str = "", nth: int = 0) -> None:
    await page.evaluate(WATCH_JS, [kind, title, nth])


async def _in_page(page, since: str) -> float:
    """Seconds from the page's last ``since`` event (click or Enter) to the armed watcher's frame."""
    got = await asyncio.wait_for(page.evaluate(f"async () => (await window.__benchDrawn) "
                                               f"- window.__benchEvents.{since}"), TIMEOUT_MS / 1000)
    return float(got) / 1000


async def _ask(page) -> float:
    """One question in the Copilot's chat (its chat box ready); done when its answer's chart is drawn.  Returns
    the seconds in the page from the question's Enter to that chart."""
    asked = await page.get_by_test_id("stChatMessage").count()
    box = page.get_by_test_id("stChatInputTextArea")
    await box.fill(f"Show the T1 heatmap of {CHIP}")
    await _arm(page, "answer", nth=asked + 1)
    await box.press("Enter")
    return await _in_page(page, "enter")


async def _view(page, kind: str) -> float:
    """Open a page from the sidebar, as staff move around the dashboard (one session, no reload).  Returns the
    seconds in the page from the click to the drawn page (the copilot: to the chat box ready, plus from the
    question's Enter to the answer's chart).  The end is reported by the page's own watcher: Playwright does not
    poll the page while it draws."""
    title = TITLES[kind]
    link = page.get_by_test_id("stSidebarNavLink").filter(has=page.get_by_text(title, exact=True))
    await _arm(page, "ready" if kind == "copilot" else "page", title)
    await link.click()
    drawn = await _in_page(page, "click")
    return drawn + await _ask(page) if kind == "copilot" else drawn


async def open_app(browser, url: str, delay: float, phase: Phase | None):
    """A member of staff opens a bookmark in a fresh browser context: the Qubits page of the chip with a qubit
    picked (chip and qubit then stay chosen on every page).  In the page, the open is timed from the document's
    start to when Playwright saw it drawn."""
    await asyncio.sleep(delay)  # people do not all arrive at the same instant
    context = await browser.new_context(viewport={"width": 1440, "height": 900})
    await context.add_init_script(EVENTS_JS)
    page = await context.new_page()
    start = time.perf_counter()
    await page.goto(f"{url}/{BOOKMARK}")
    await _drawn(page, TITLES["qubits"])
    if phase is not None:
        phase.views.append(("open", time.perf_counter() - start))
        phase.frames.append(("open", float(await page.evaluate("performance.now()")) / 1000))
    return context, page


async def browse(page, cycles: int, think: float, rng: random.Random, phase: Phase | None) -> None:
    """``cycles`` rounds of the four pages and one question from the sidebar, thinking before each view."""
    for _ in range(cycles):
        for kind in KINDS:
            if phase is not None:
                await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
            start = time.perf_counter()
            in_page = await _view(page, kind)
            if phase is not None:
                phase.views.append((kind, time.perf_counter() - start))
                phase.frames.append((kind, in_page))


async def run_phases(url: str, user_counts: list[int], cycles: int, alone_cycles: int, think: float, meter: CpuMeter,
                     sampler: RssSampler) -> list[Phase]:
    """Per phase: everyone opens the app (timed as 'open'), then all browse at once (the measured part)."""
    from playwright.async_api import async_playwright

    phases = []
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=["--disable-gpu", "--no-sandbox"])
        meter.browser_pid = next((p.pid for p in psutil.Process().children(recursive=True)
                                  if "chrom" in p.name() and "chrom" not in psutil.Process(p.ppid()).name()), None)
        try:
            context, page = await open_app(browser, url, 0.0, None)  # warm the caches and the browser, untimed
            await browse(page, 1, think, random.Random(0), None)
            await context.close()
            for users in user_counts:
                phase = Phase(users, alone_cycles if users == 1 else cycles)
                rngs = [random.Random(users * 100 + i) for i in range(users)]
                opened = await asyncio.gather(*(open_app(browser, url, rng.uniform(0, think), phase)
                                                for rng in rngs))
                sampler.reset()
                phase.load = (os.getloadavg()[0], 0.0)
                before, start = meter.read(), time.perf_counter()
                await asyncio.gather(*(browse(page, phase.cycles, think, rng, phase)
                                       for (_, page), rng in zip(opened, rngs, strict=True)))
                phase.wall = time.perf_counter() - start
                after = meter.read()
                phase.cpu = {k: after[k] - before[k] for k in after}
                phase.load, phase.peak_mb = (phase.load[0], sampler.peak_load), sampler.peak_mb
                phases.append(phase)
                for context, _ in opened:
                    await context.close()
        finally:
            await browser.close()
    return phases


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def report(phases: list[Phase], think: float, idle_mb: float) -> float:
    """Print the tables; return the p95 ratio of the largest phase to one user."""
    rounds = ", ".join(f"{ph.cycles} for {ph.users} user(s)" for ph in phases)
    print(f"each person: opens {BOOKMARK} in a fresh browser context ('open', arrivals spread over one think "
          f"time); once all are in, rounds of ({', '.join(KINDS)}) from the sidebar in the same session ({rounds}) "
          f"(the measured part), think time {0.5 * think:g}-{1.5 * think:g} s "
          f"(mean {think:g} s) between views; one Chromium process, one context per person; "
          f"{os.cpu_count()} cores shared by the server, Chromium and whatever else runs")
    print("page views (sidebar navigation), end to end:")
    print(f"{'users':>5} {'views':>5} {'p50 s':>6} {'p95 s':>6} {'max s':>6} {'wall s':>6} {'load start/peak':>15} "
          f"{'RSS MB':>6}")
    for ph in phases:
        t = ph.times()
        print(f"{ph.users:>5} {len(t):>5} {pct(t, .5):>6.2f} {pct(t, .95):>6.2f} {max(t):>6.2f} {ph.wall:>6.1f} "
              f"{ph.load[0]:>7.1f} / {ph.load[1]:<5.1f} {ph.peak_mb:>6.0f}")
    print("per page kind, p50 / p95 s:")
    for ph in phases:
        cells = ", ".join(f"{k} {statistics.median(ph.times(k)):.2f} / {pct(ph.times(k), .95):.2f}"
                          for k in ("open", *KINDS) if ph.times(k))
        print(f"  {ph.users} user(s): {cells}")
    print("CPU seconds while browsing (share of the machine's busy time):")
    for ph in phases:
        c = ph.cpu
        other = c["machine"] - c["server"] - c["chromium"] - c["bench"]
        parts = [("server", c["server"]), ("  script runs", c["script runs"]),
                 ("  websocket/protobuf/files", c["server"] - c["script runs"]), ("chromium", c["chromium"]),
                 ("bench+playwright+model", c["bench"]), ("rest of the machine", other)]
        cells = ", ".join(f"{name.strip()} {s:.1f} ({s / c['machine']:.0%})" for name, s in parts)
        views = len(ph.times())
        print(f"  {ph.users} user(s), {ph.wall:.0f} s wall, machine busy {c['machine']:.0f} s "
              f"({c['machine'] / ph.wall:.2f} cores): {cells}; per view: server {c['server'] / views:.2f} s, "
              f"chromium {c['chromium'] / views:.2f} s")
    print("timed in the page (click or Enter event to the first frame drawn), p50 / p95 s:")
    for ph in phases:
        t = ph.times(in_page=True)
        cells = ", ".join(f"{k} {statistics.median(ph.times(k, True)):.2f} / {pct(ph.times(k, True), .95):.2f}"
                          for k in KINDS if ph.times(k, True))
        print(f"  {ph.users} user(s): all {pct(t, .5):.2f} / {pct(t, .95):.2f} (max {max(t):.2f}); {cells}")
    longer = sum(f > v + 0.01 for ph in phases for (k, v), (_, f) in zip(ph.views, ph.frames, strict=True)
                 if k in KINDS)
    print(f"  (check: views timed longer in the page than end to end: {longer}, expected 0)")
    one, many = phases[0], phases[-1]
    ratio = pct(many.times(), .95) / pct(one.times(), .95)
    in_page = pct(many.times(in_page=True), .95) / pct(one.times(in_page=True), .95)
    opens = [t for ph in (one, many) for t in ph.times("open")]
    if opens:
        print(f"first open of the app in a fresh browser context (not in the ratio): alone {one.times('open')[0]:.2f} s,"
              f" with {many.users} users p50 {statistics.median(many.times('open')):.2f} s")
    for name, r in (("end to end", ratio), ("in the page", in_page)):
        print(f"p95 with {many.users} users / p95 alone, {name}: {r:.2f} (target <= {TARGET_RATIO:g}: "
              f"{'met' if r <= TARGET_RATIO else 'MISSED'})")
    print(f"server RSS idle {idle_mb:.0f} MB, peak {max(p.peak_mb for p in phases):.0f} MB")
    return ratio


def print_profile(path: Path, top: int = 25) -> None:
    """Cumulative time of the script runs by what they did (cProfile; profiler overhead included)."""
    import pstats

    stats = pstats.Stats(str(path))
    raw = stats.stats  # type: ignore[attr-defined]
    total = sum(tt for (_f, _l, name), (_cc, _nc, tt, _ct, _c) in raw.items())
    print(f"script runs under cProfile: {total:.1f} s of own time; top functions by cumulative time:")
    stats.sort_stats("cumulative").print_stats(top)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--users", default="1,8", help="comma-separated phases; the first is the baseline")
    parser.add_argument("--cycles", type=int, default=2, help="rounds of the four pages + one question per person")
    parser.add_argument("--alone-cycles", type=int, default=8,
                        help="rounds for a phase of one user (its p95 is the baseline: 8 rounds = 40 views)")
    parser.add_argument("--think", type=float, default=4.0, help="mean think time between views, seconds")
    parser.add_argument("--profile", action="store_true", help="cProfile every script run in the server")
    parser.add_argument("--data-dir", type=Path)
    args = parser.parse_args()
    user_counts = [int(u) for u in args.users.split(",")]
    data_dir = args.data_dir or Path(tempfile.mkdtemp(prefix="bench-load-"))
    seed(data_dir)
    counters = data_dir / "server_cpu.json"
    counters.unlink(missing_ok=True)
    env = server_env(data_dir) | {"USERNAME": "load", "TRACE_DIR": str(data_dir / "traces"),
                                  "LOAD_BENCH_DIR": str(data_dir), "LOAD_BENCH_CPROFILE": "1" if args.profile else "0"}
    env["PYTHONPATH"] = os.pathsep.join((str(PROFILE_SITE), env["PYTHONPATH"]))
    with ScriptedOpenAI(smart=smart) as model, \
            start_streamlit(env | {"OPENAI_BASE_URL": model.base_url, "COPILOT_MODEL": "scripted-model"},
                            ROOT / "server.py") as url:
        pid = server_pid(url)
        if pid is None:
            raise SystemExit("cannot find the server process in /proc")
        sampler = RssSampler(pid)
        idle_mb = sampler.rss_mb()
        sampler.start()
        phases = asyncio.run(run_phases(url, user_counts, args.cycles, args.alone_cycles, args.think,
                                       CpuMeter(pid, counters), sampler))
        sampler.stopped.set()
    report(phases, args.think, idle_mb)
    if args.profile and (data_dir / "server.pstats").exists():
        print_profile(data_dir / "server.pstats")
    return 0


if __name__ == "__main__":
    sys.exit(main())
