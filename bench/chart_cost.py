"""What the chart cost budgets cost the app, and what they save the browser, side by side in one run.

- Typical charts (the dashboard heatmap and the analysis jobs' px charts): validation CPU/wall before (the rebuild
  without the cost estimate, ``previous_chart_rebuild``) and now, called in turn in one loop; target within 1.2x.
- The same charts' first draw in headless Chromium, before and now (the checked JSON is compared: when it is the
  same, so is the draw), drawn in turn; the 144-series px.line (WebGL before, SVG lines now) is printed on its own
  line with every round (target < 2 s).
- Hostile charts: each one's validation time and the longest another thread of the app waited for the interpreter
  meanwhile (a ticker thread wakes every millisecond; target < 100 ms), before and now for the URL-like text that
  made the previous check quadratic.
- The worst accepted chart of the costly corpus drawn in Chromium (target < 2 s), and a few refused ones drawn as
  the previous check let them through (each stopped at the limit).

    .venv/bin/python bench/chart_cost.py [--no-draw]
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import previous_chart_rebuild as previous  # noqa: E402
from render_safety import side_by_side_ms, typical_charts  # noqa: E402

from copilot_core.render_safety import figures  # noqa: E402
from copilot_core.render_safety.figure_limits import UnsafeFigure  # noqa: E402
from copilot_core.render_safety.figures import validate_figure  # noqa: E402
from tests.render_safety.costly_charts import ACCEPTED, GL_BASELINE, REFUSED  # noqa: E402

REPEATS = 20
DRAW_REPEATS = 3
DRAW_LIMIT_S = 10.0


def _previous_first(chart: dict) -> object:
    previous.forget()
    try:
        return previous.validate_figure(chart)
    except previous.UnsafeFigure as exc:
        return str(exc)


def _now_first(chart: dict) -> object:
    figures.forget()
    try:
        return validate_figure(chart)
    except UnsafeFigure as exc:
        return str(exc)


RAW_LINE = "px.line 144 raw (job side)"


def raw_line_chart() -> dict:
    """The warm-up job's px.line of 144 qubits as plotly.py writes it (WebGL: plotly express switches above 1,000
    rows), i.e. what the job-side check receives; ``typical_charts`` holds it after that check."""
    import pandas as pd
    import plotly.express as px

    from copilot_core.sandbox.warmup import synthetic_timeseries

    df = synthetic_timeseries()["t1"].copy()
    df["t"] = pd.to_datetime(df["calibrated_at"])
    return json.loads(px.line(df, x="t", y="value", color="qid", title="T1").to_json())


def _types(fig: object) -> str:
    return "/".join(sorted({t.get("type", "scatter") for t in fig["data"]})) if isinstance(fig, dict) else "refused"


def old_fig_types(charts: dict[str, dict]) -> str:
    return _types(_previous_first(charts[RAW_LINE]))


def new_fig_types(charts: dict[str, dict]) -> str:
    return _types(_now_first(charts[RAW_LINE]))


def longest_stall_ms(fn: Callable[[], object]) -> tuple[float, float]:
    """(wall ms of ``fn``, the longest gap in ms between a 1 ms ticker thread's wake-ups while it ran)."""
    gaps: list[float] = []
    running = threading.Event()
    running.set()

    def tick() -> None:
        last = time.perf_counter()
        while running.is_set():
            time.sleep(0.001)
            now = time.perf_counter()
            gaps.append(now - last)
            last = now

    ticker = threading.Thread(target=tick, daemon=True)
    ticker.start()
    time.sleep(0.01)
    started = time.perf_counter()
    fn()
    took = time.perf_counter() - started
    running.clear()
    ticker.join()
    return took * 1000, max(gaps, default=0.0) * 1000


def quadratic_cases(n: int) -> dict[str, dict]:
    """URL-like text the previous check scanned once per position (the red team's 2.3-2.5 s)."""
    return {
        f"meta 'a'*{n:,} + ':'": {"data": [], "layout": {"meta": "a" * n + ":"}},
        f"meta 'a.'*{n // 2:,} + ':'": {"data": [], "layout": {"meta": "a." * (n // 2) + ":"}},
        f"hovertext x4 'a'*{n:,}+':'": {"data": [{"type": "scatter", "y": list(range(4)),
                                                   "hovertext": ["a" * n + ":"] * 4}]},
    }


def main() -> None:
    print(f"load average {os.getloadavg()[0]:.1f}; CPU/wall ms p50 of {REPEATS}, first sight (caches cleared)\n")
    print(f"{'typical chart':<26} {'prev cpu':>9} {'now cpu':>9} {'now/prev':>9} {'prev wall':>10} {'now wall':>9} "
          f"{'now/prev':>9}  same JSON")
    ratios, wall_ratios, same = [], [], {}
    charts = typical_charts() | {RAW_LINE: raw_line_chart()}
    for name, chart in charts.items():
        old_cpu, old_wall, new_cpu, new_wall = side_by_side_ms(lambda c=chart: _previous_first(c),
                                                               lambda c=chart: _now_first(c), REPEATS)
        same[name] = json.dumps(_previous_first(chart), sort_keys=True) == json.dumps(_now_first(chart), sort_keys=True)
        ratios.append(new_cpu / old_cpu)
        wall_ratios.append(new_wall / old_wall)
        print(f"{name:<26} {old_cpu:>9.2f} {new_cpu:>9.2f} {new_cpu / old_cpu:>8.2f}x {old_wall:>10.2f} "
              f"{new_wall:>9.2f} {new_wall / old_wall:>8.2f}x  {same[name]}")
    print(f"{'geometric mean':<26} {'':>9} {'':>9} {statistics.geometric_mean(ratios):>8.2f}x {'':>10} {'':>9} "
          f"{statistics.geometric_mean(wall_ratios):>8.2f}x")

    print("\nURL-like text (accepted both times): validation wall ms and the longest stall of another thread")
    print(f"{'chart':<34} {'prev ms':>9} {'prev stall':>11} {'now ms':>9} {'now stall':>10}")
    for name, chart in quadratic_cases(6_000).items():
        old_ms, old_stall = longest_stall_ms(lambda c=chart: _previous_first(c))
        new_ms, new_stall = longest_stall_ms(lambda c=chart: _now_first(c))
        print(f"{name:<34} {old_ms:>9.1f} {old_stall:>11.1f} {new_ms:>9.1f} {new_stall:>10.1f}")
    for name, chart in quadratic_cases(19_999).items():  # the new per-string cap; the previous check: ~10 s
        new_ms, new_stall = longest_stall_ms(lambda c=chart: _now_first(c))
        print(f"{name:<34} {'-':>9} {'-':>11} {new_ms:>9.1f} {new_stall:>10.1f}")

    worst = []
    for case in REFUSED + ACCEPTED:
        took, stall = longest_stall_ms(lambda c=case.chart: _now_first(c))
        worst.append((stall, took, case.name))
    worst.sort(reverse=True)
    print(f"\ncostly corpus ({len(worst)} charts) validated now, longest stalls of another thread (target < 100 ms):")
    for stall, took, name in worst[:5]:
        print(f"  {name:<34} stall {stall:>6.1f} ms   check {took:>7.1f} ms")

    if "--no-draw" in sys.argv:
        return
    try:
        from tests.render_safety.draw_timer import draw_timer
    except ImportError as exc:  # no Playwright: the draws are skipped, the figures above stand
        print(f"\nno Chromium draws ({exc})")
        return
    with draw_timer(DRAW_LIMIT_S) as timer:
        gl_setup = min(timer.seconds(GL_BASELINE) for _ in range(2))
        print(f"\nfirst draw in headless Chromium, median of {DRAW_REPEATS} (WebGL set-up alone: {gl_setup:.2f} s)")
        print(f"{'typical chart':<26} {'prev s':>8} {'now s':>8} {'now/prev':>9}")
        draw_ratios, rounds = [], {}
        for name, chart in charts.items():
            old_fig, new_fig = _previous_first(chart), _now_first(chart)
            olds, news = [], []
            for _ in range(DRAW_REPEATS):
                olds.append(timer.seconds(dict(old_fig)))  # type: ignore[arg-type]
                news.append(timer.seconds(dict(new_fig)))  # type: ignore[arg-type]
            old_s, new_s = statistics.median(olds), statistics.median(news)
            rounds[name] = (olds, news)
            draw_ratios.append(new_s / old_s)
            print(f"{name:<26} {old_s:>8.3f} {new_s:>8.3f} {new_s / old_s:>8.2f}x")
        print(f"{'geometric mean':<26} {'':>8} {'':>8} {statistics.geometric_mean(draw_ratios):>8.2f}x")
        olds, news = rounds[RAW_LINE]
        print(f"\n{RAW_LINE}, rounds in turn: before {' '.join(f'{s:.2f}' for s in olds)} s "
              f"({old_fig_types(charts)}), now {' '.join(f'{s:.2f}' for s in news)} s ({new_fig_types(charts)}); "
              f"target < 2 s, load average {os.getloadavg()[0]:.1f}")
        drawn = []
        for case in ACCEPTED:
            seconds = timer.seconds(dict(validate_figure(case.chart)))
            gl = any(t.get("type") == "scattergl" for t in case.chart["data"])
            drawn.append((seconds - gl_setup if gl else seconds, case.name + (" (over WebGL set-up)" if gl else "")))
        drawn.sort(reverse=True)
        print(f"\naccepted costly charts ({len(drawn)}), slowest three draws (target < 2 s):")
        for seconds, name in drawn[:3]:
            print(f"  {name:<48} {seconds:>6.2f} s")
        print(f"\nrefused charts drawn as the previous check let them through (stopped at {DRAW_LIMIT_S:g} s):")
        for name in ("svg-scatter-190k", "violin-tiny-bandwidth", "pie-150k-legend-entries", "bars-20k"):
            case = next(c for c in REFUSED if c.name == name)
            print(f"  {name:<34} {timer.seconds(case.chart):>6.2f} s")
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
