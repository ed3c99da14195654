"""What reading several forms from one grammar costs: the answer's number reader and date reader on this tree and
another, side by side in one run (each tree in its own interpreter, the same text, the same repeats).

    .venv/bin/python bench/grammar_speed.py --root /tmp/base     # /tmp/base: e.g. `git archive <ref> | tar -x`
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

TEXT = ("Q17's T1 was 45.3 μs on 2026-11-20 10:20 and 41.2 μs on Nov 21, 2026; the median is 43 μs (1,234 "
        "samples, 2σ). 1. Q5: 20.5 μs\n2. Q6: 19 μs at 10:20\n") * 5


def _measure(repeats: int) -> dict[str, float]:
    from copilot_core.checking.dated_values import date_mentions
    from copilot_core.language.numbers import number_spans

    out = {}
    for name, fn in (("number_spans", number_spans), ("date_mentions", date_mentions)):
        start = time.perf_counter()
        for _ in range(repeats):
            fn(TEXT)
        out[name] = (time.perf_counter() - start) / repeats * 1e3
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", type=Path, required=True, help="the other tree")
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("--one", action="store_true", help="(internal) measure this interpreter's tree")
    args = parser.parse_args()
    if args.one:
        print(json.dumps(_measure(args.repeats)))
        return
    here = Path(__file__).resolve().parents[1]
    times = {}
    for label, root in (("other", args.root.resolve()), ("this", here)):
        done = subprocess.run([sys.executable, str(here / "bench" / "grammar_speed.py"), "--root", str(root), "--one",
                               "--repeats", str(args.repeats)], cwd=root, check=True, capture_output=True, text=True,
                              env={**os.environ, "PYTHONPATH": str(root)})
        times[label] = json.loads(done.stdout)
    print(f"ms per {len(TEXT)}-character answer   other    this   this/other")
    for name in times["this"]:
        other, this = times["other"][name], times["this"][name]
        print(f"{name:<32} {other:7.2f} {this:7.2f}   {this / other:5.1f}x")


if __name__ == "__main__":
    main()
