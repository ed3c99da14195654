"""What render safety costs per answer: ``safe_markdown`` on 20 KB answers, side by side with plain
rendering of the same text (markdown-it's markdown → HTML, the work any renderer does): first sight (cache
cleared before every run) and on a Streamlit rerun (the same text again: a cache hit), and chart validation
of a 144-qubit heatmap, first sight vs a rerun (the digest is remembered).

    .venv/bin/python bench/render_safety.py
Target: render safety under 5 ms per 20 KB answer.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from markdown_it_pyrs import MarkdownIt

from copilot_core.render_safety.figures import _VERDICTS, validate_figure
from copilot_core.render_safety.markdown import _rebuilt, safe_markdown

TARGET_MS = 5.0
SIZE = 20_480
REPEATS = 40
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


def timings_ms(fn: Callable[[], object]) -> tuple[float, float]:
    """(wall p50, CPU p50).  On a shared machine the wall time also counts waiting for a core; the CPU time
    (this process's own) is what the work costs."""
    fn()
    wall, cpu = [], []
    for _ in range(REPEATS):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        cpu.append((time.process_time() - start_cpu) * 1000)
        wall.append((time.perf_counter() - start) * 1000)
    return statistics.median(wall), statistics.median(cpu)


def p50_ms(fn: Callable[[], object]) -> float:
    return timings_ms(fn)[0]


def heatmap_figure() -> object:
    import plotly.express as px

    rng = random.Random(3)
    z = [[rng.random() * 100 for _ in range(12)] for _ in range(12)]
    return px.imshow(z, text_auto=".0f", title="T1 (us)")


def main() -> None:
    plain = MarkdownIt("commonmark").enable_many(["table", "strikethrough"])
    print(f"ms per answer, p50 of {REPEATS}: CPU time (wall time, which adds any wait for a core); 'first' clears "
          "the cache before every run, 'rerun' does not")
    print(f"{'answer (20 KB)':<16} {'plain render':>15} {'safety, first':>16} {'safety/plain':>13} {'vs 5 ms':>8} "
          f"{'safety, rerun':>14}")
    for name, text in answers().items():
        base_wall, base = timings_ms(lambda t=text: plain.render(t))
        safe_wall, safe = timings_ms(lambda t=text: (_rebuilt.cache_clear(), safe_markdown(t)))
        rerun = p50_ms(lambda t=text: safe_markdown(t))
        print(f"{name:<16} {base:>5.2f} ({base_wall:>6.2f}) {safe:>5.2f} ({safe_wall:>7.2f}) {safe / base:>12.1f}x "
              f"{safe / TARGET_MS:>7.2f}x {rerun:>14.4f}")
    import json

    import plotly.io as pio

    fig = json.loads(pio.to_json(heatmap_figure()))
    fig = {"data": fig["data"], "layout": fig["layout"]}

    def first_sight() -> None:
        _VERDICTS.clear()
        validate_figure(fig)

    first, rerun = p50_ms(first_sight), p50_ms(lambda: validate_figure(fig))
    print(f"\nchart validation (12x12 px heatmap): first sight {first:.2f} ms, rerun {rerun:.2f} ms "
          f"({first / rerun:.1f}x)")


if __name__ == "__main__":
    main()
