"""What render safety costs, side by side with the previous implementation in one run.

- Answers: ``safe_markdown`` on three 20 KB answers (prose, dense markup, hostile markup) against the previous
  rewrite (no second look) and against plain markdown-it rendering; first sight (cache cleared every run), CPU
  and wall time, the two measured in turn in one loop.
- Charts: ``validate_figure`` on the app's typical charts (a 144-qubit dashboard-style heatmap, the analysis
  jobs' px/go charts) against the previous check (bad-word scan + ``go.Figure``), first sight and rerun.
- Hostile charts: the slowest of the hostile corpus and of charts built to sit just under every cap, with the
  peak memory the check allocates for it (target: < 1 s and < 100 MB).

    .venv/bin/python bench/render_safety.py
"""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import previous_figure_check as previous_charts  # noqa: E402
import previous_markdown  # noqa: E402
from markdown_it_pyrs import MarkdownIt  # noqa: E402

from copilot_core.render_safety import figures, gfm_html  # noqa: E402
from copilot_core.render_safety.figure_limits import UnsafeFigure  # noqa: E402
from copilot_core.render_safety.figures import validate_figure  # noqa: E402
from copilot_core.render_safety.frozen import plotly_input  # noqa: E402
from copilot_core.render_safety.markdown import _rebuilt, safe_markdown  # noqa: E402

SIZE = 20_480
REPEATS = 30
WORDS = ["the", "qubit", "median", "chip", "drifted", "relaxation", "coherence", "readout", "fidelity", "gate",
         "calibration", "was", "below", "its", "own", "seven-day", "value", "and", "coupling", "on", "edge"]


def _prose(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def answers() -> dict[str, str]:
    """Three 20 KB answers: mostly prose, dense markup (tables, lists, code), and hostile markup."""
    rng = random.Random(7)
    prose, dense, hostile = [], [], []
    while sum(map(len, prose)) < SIZE:
        prose.append(_prose(rng, 70) + f" **Q{rng.randrange(64):02d}** at `{rng.randrange(100)} us`.")
    while sum(map(len, dense)) < SIZE:
        dense.append("| qubit | T1 us | T2 us |\n|---|---:|---:|\n" + "\n".join(
            f"| Q{i:02d} | {rng.random() * 100:.1f} | {rng.random() * 80:.1f} |" for i in range(6)))
        dense.append("\n".join(f"- Q{i:02d}: *{_prose(rng, 6)}* [trend](/timeseries)" for i in range(4)))
        dense.append("```python\nprint(data['t1'].value.median())\n```")
    while sum(map(len, hostile)) < SIZE:
        hostile.append(f"{_prose(rng, 20)} ![x](https://exfil.example/{rng.random()}) <img src=//e.x/a> "
                       f"[doc][r] <https://a.example/b> www.c.example &#33;[y](https://d.example)\n\n"
                       f"[r]: https://exfil.example/ref")
    return {name: "\n\n".join(parts)[:SIZE] for name, parts in
            (("prose", prose), ("dense markup", dense), ("hostile markup", hostile))}


def cpu_ms(fn: Callable[[], object], repeats: int = REPEATS) -> float:
    """p50 CPU time of this process (on a shared machine wall time also counts waiting for a core)."""
    fn()
    times = []
    for _ in range(repeats):
        start = time.process_time()
        fn()
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times)


def side_by_side_ms(old: Callable[[], object], new: Callable[[], object], repeats: int = REPEATS
                    ) -> tuple[float, float, float, float]:
    """p50 CPU and wall ms of ``old`` and ``new``, called in turn in one loop (a load spike hits both)."""
    old(), new()
    times: list[list[float]] = [[], [], [], []]
    for _ in range(repeats):
        for i, fn in ((0, old), (2, new)):
            cpu, wall = time.process_time(), time.perf_counter()
            fn()
            times[i].append((time.process_time() - cpu) * 1000)
            times[i + 1].append((time.perf_counter() - wall) * 1000)
    old_cpu, old_wall, new_cpu, new_wall = map(statistics.median, times)
    return old_cpu, old_wall, new_cpu, new_wall


def typical_charts() -> dict[str, dict]:
    """The dashboard's heatmap shape (144 qubits, grey underlay, value layer, click targets) and the charts
    the analysis jobs typically return (the sandbox warm-up jobs)."""
    import numpy as np
    import plotly.express as px
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    from copilot_core.sandbox.figures import figure_to_dict
    from copilot_core.sandbox.warmup import WARMUP_SNIPPETS, synthetic_timeseries

    rng = random.Random(3)
    z = [[rng.random() * 100 for _ in range(12)] for _ in range(12)]
    text = [[f"Q{r * 12 + c:03d}<br>{z[r][c]:.1f}" for c in range(12)] for r in range(12)]
    heat = go.Figure()
    heat.add_trace(go.Heatmap(z=[[0] * 12] * 12, colorscale=[[0, "#eeeeee"], [1, "#eeeeee"]], showscale=False,
                              hoverinfo="skip"))
    heat.add_trace(go.Heatmap(z=z, text=text, texttemplate="%{text}", colorscale="Viridis",
                              hovertemplate="%{text}<extra></extra>"))
    heat.add_trace(go.Scatter(x=[c for r in range(12) for c in range(12)], y=[r for r in range(12) for c in range(12)],
                              mode="markers", marker={"opacity": 0}, hoverinfo="skip"))
    heat.update_layout(title="T1 [us] on 144Qv2 (latest)", height=726, margin={"l": 10, "r": 10, "t": 40, "b": 10})
    charts = {"dashboard heatmap 144q": json.loads(heat.to_json())}
    scope: dict = {"px": px, "go": go, "np": np, "make_subplots": make_subplots, "json": json,
                   "statistics": statistics, "pd": __import__("pandas"), "data": synthetic_timeseries()}
    exec(WARMUP_SNIPPETS[1], scope)  # noqa: S102  (the project's own warm-up code)
    names = ["px.line 144 series", "px.scatter", "px.histogram", "px.box", "px.bar", "px.imshow", "px.ecdf",
             "px.violin"]
    charts |= {n: json.loads(json.dumps(figure_to_dict(f))) for n, f in zip(names, scope["result"]["chart"])}
    return charts


def _deep(depth: int) -> list:
    node: list = []
    for _ in range(depth):
        node = [node]
    return node


def hostile_charts() -> dict[str, dict]:
    """The hostile corpus plus charts built to sit just under each cap (the most work a chart can ask for)."""
    from tests.render_safety.hostile_charts import CHARTS

    big = {c.name: c.chart for c in CHARTS}
    n = figures.MAX_NODES - 1_000
    big["strings just under the node cap"] = {"data": [{"type": "bar", "x": [f"<b>{i % 100}" for i in range(n)],
                                                        "y": [1] * 10}], "layout": {}}
    big["text just under 5 MB"] = {"data": [{"type": "bar", "x": ["<b>" + "a < b " * 800 + "</b>"] * 1000,
                                             "y": [1]}], "layout": {}}
    big["200 traces x 40 attributes"] = {"data": [{"type": "scatter", "y": list(range(500)), "name": f"t{i}",
                                                   "marker": {"color": "red", "size": 3, "line": {"width": 1}},
                                                   "hovertemplate": "%{y}<extra></extra>", "mode": "lines+markers",
                                                   "line": {"dash": "dot", "width": 2, "color": "#123"}}
                                                  for i in range(200)], "layout": {}}
    big["100 frames"] = {"data": [{"type": "bar", "y": [1, 2]}], "layout": {},
                         "frames": [{"name": str(i), "data": [{"y": list(range(3000))}]} for i in range(100)]}
    big["500 annotations, 500 shapes"] = {"data": [], "layout": {
        "annotations": [{"text": f"<b>Q{i}</b>", "x": i, "y": i} for i in range(500)],
        "shapes": [{"type": "line", "x0": 0, "x1": i, "y0": 0, "y1": 1} for i in range(500)]}}
    big["nested 24 deep"] = {"data": [{"type": "scatter", "meta": _deep(20)}], "layout": {}}
    return big


def _validate(check: Callable[[object], dict], chart: dict) -> str:
    try:
        check(chart)
    except (UnsafeFigure, previous_charts.UnsafeFigure):
        return "refused"
    return "drawn"


def main() -> None:
    plain = MarkdownIt("commonmark").enable_many(["table", "strikethrough"])
    print(f"ms CPU per call, p50 of {REPEATS}; first sight clears the caches before every call; "
          f"load average {os.getloadavg()[0]:.1f}\n")
    # "both parses": the parsers alone, markdown-it on the answer and cmark-gfm on what is shown, the least any
    # rewrite with a second look can cost (the previous code parsed once).
    print(f"{'answer (20 KB)':<18} {'plain render':>12} {'both parses':>12} {'previous':>9} {'now':>9} "
          f"{'now/previous':>13} {'wall prev':>10} {'wall now':>9} {'wall now/prev':>14}")
    for name, text in answers().items():
        shown = safe_markdown(text)
        base = cpu_ms(lambda t=text: plain.render(t))
        both = cpu_ms(lambda t=text, s=shown: (plain.render(t), gfm_html.render(s)))
        old, old_wall, new, new_wall = side_by_side_ms(
            lambda t=text: (previous_markdown._rebuilt.cache_clear(), previous_markdown.safe_markdown(t)),
            lambda t=text: (_rebuilt.cache_clear(), safe_markdown(t)))
        print(f"{name:<18} {base:>12.2f} {both:>12.2f} {old:>9.2f} {new:>9.2f} {new / old:>12.2f}x "
              f"{old_wall:>10.2f} {new_wall:>9.2f} {new_wall / old_wall:>13.2f}x")
    unchanged = sum(safe_markdown(t) == t for t in answers().values())
    print(f"answers the rewrite hands back unchanged (whose second parse could reuse the first): {unchanged} of 3")

    print(f"\n{'typical chart':<24} {'previous':>9} {'now':>9} {'now/prev':>9} {'prev rerun':>11} {'now rerun':>10}")
    ratios, rerun_ratios = [], []
    for name, chart in typical_charts().items():
        validate_figure(chart)  # accepted: the comparison is about charts the app really draws

        def old_first(c: dict = chart) -> None:
            previous_charts._VERDICTS.clear()
            previous_charts._VALIDATED_TEMPLATES.clear()
            previous_charts.validate_figure(c)

        def new_first(c: dict = chart) -> None:
            figures.forget()
            validate_figure(c)

        old, new = cpu_ms(old_first), cpu_ms(new_first)
        # A rerun checks what the chat holds: before, the plain dict the check returned (hashed again); now,
        # the read-only figure the check returned (handed back as it is), plus the per-trace copies plotly needs.
        old_kept, new_kept = previous_charts.validate_figure(chart), validate_figure(chart)
        old_rerun = cpu_ms(lambda c=old_kept: previous_charts.validate_figure(c))
        new_rerun = cpu_ms(lambda c=new_kept: plotly_input(validate_figure(c)))
        rerun_ratios.append(new_rerun / old_rerun)
        ratios.append(new / old)
        print(f"{name:<24} {old:>9.2f} {new:>9.2f} {new / old:>8.2f}x {old_rerun:>11.3f} {new_rerun:>10.3f}")
    print(f"{'geometric mean':<24} {'':>9} {'':>9} {statistics.geometric_mean(ratios):>8.2f}x "
          f"{'rerun now/prev':>11} {statistics.geometric_mean(rerun_ratios):>9.2f}x")

    worst: list[tuple[float, float, str, str]] = []
    for name, chart in hostile_charts().items():
        figures.forget()
        start = time.process_time()
        verdict = _validate(validate_figure, chart)
        took = time.process_time() - start
        figures.forget()
        tracemalloc.start()
        _validate(validate_figure, chart)
        peak = tracemalloc.get_traced_memory()[1] / 1e6
        tracemalloc.stop()
        worst.append((took, peak, name, verdict))
    worst.sort(reverse=True)
    print(f"\nhostile charts ({len(worst)}), slowest five: CPU s, peak MB allocated by the check (targets < 1 s, "
          "< 100 MB)")
    for took, peak, name, verdict in worst[:5]:
        print(f"  {name:<40} {took:>6.3f} s {peak:>7.1f} MB  {verdict}")
    most = max(worst, key=lambda w: w[1])
    print(f"  most memory: {most[1]:.1f} MB ({most[2]})")
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
