"""What the label sink and the database-text marking cost, side by side in one run.

- Labels: ``safe_label`` (escape + label-mode check) against the previous ``escape`` of one line, on 2 000
  distinct labels (first sight, caches cleared), and on a rerun (the same labels again).
- Marks: a tool result of every qubit's parameters (the demo's 144-qubit chip shape, 30 parameters each, a few
  database sentences) serialised for the model with ``mark_for_model`` against plain ``to_model_json``, with the
  text a large tool call reads recorded first.

    .venv/bin/python bench/sinks_and_marks.py
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from copilot_core.render_safety import escape, safe_label  # noqa: E402
from copilot_core.render_safety import markdown as _markdown  # noqa: E402
from copilot_core.render_safety.sinks import checked_label  # noqa: E402
from copilot_core.tools.compact import to_model_json  # noqa: E402
from copilot_core.tools.taint import DatabaseText, mark_for_model  # noqa: E402

REPEATS = 7


def _median(run: Callable[[], object]) -> float:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _clear() -> None:
    checked_label.cache_clear()
    _markdown._rebuilt.cache_clear()


def labels() -> None:
    rng = random.Random(5)
    texts = [f"Q{rng.randrange(1000):03d} {rng.choice(['T1', 'T2 echo', 'readout - 3 dB', '#2 > 40 µs'])} {i}"
             for i in range(2000)]

    def new_first() -> None:
        _clear()
        for t in texts:
            safe_label(t)

    def old_first() -> None:
        _clear()
        for t in texts:
            escape(" ".join(t.split()))

    new, old = _median(new_first), _median(old_first)
    print(f"labels, first sight: safe_label {new * 1e3:.1f} ms, previous escape {old * 1e3:.1f} ms "
          f"for {len(texts)} labels: ratio {new / old:.2f}")
    new_first()
    rerun = _median(lambda: [safe_label(t) for t in texts])
    print(f"labels, rerun (cached): {rerun * 1e3:.1f} ms, ratio to previous first sight {rerun / old:.2f}")


def marks() -> None:
    rng = random.Random(7)
    names = [f"param_{i}" for i in range(30)]
    payload = {"chip_id": "144Qv2", "answer": "Median T1 is 41.2 µs over 144 qubits.",
               "qubits": {str(q): {n: {"value": rng.random() * 100, "unit": "µs", "calibrated_at": "02-24 02:22",
                                       "execution_id": "20260224-001"} for n in names} for q in range(144)},
               "notes": [f"fit failed on run {i}: residual too large" for i in range(20)]}
    text = DatabaseText()
    text.record([{"message": f"fit failed on run {i}: residual too large", "note": "operator left a comment here"}
                 for i in range(2000)])
    plain = _median(lambda: to_model_json(payload))
    marked = _median(lambda: to_model_json(mark_for_model(payload, text)))
    print(f"tool result ({len(to_model_json(payload)) // 1000} KB): to_model_json {plain * 1e3:.1f} ms, "
          f"marked {marked * 1e3:.1f} ms: ratio {marked / plain:.2f}")


if __name__ == "__main__":
    labels()
    marks()
