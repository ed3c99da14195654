"""How many of the forty ``tests/dev_fill10.py`` questions the router routes right: parse only, and parse plus the
constrained model fill (``--base-url`` of a running local model server).

``python bench/fill_route.py [--base-url http://127.0.0.1:P]`` seeds the demo database in memory (seed 7), plans
each question as the page's turn does (a name the data lacks, a lookup, else the router), and compares the plan
with the call written by hand: the tool, and every argument the question settles (a list of conditions, qubits or
two correlated metrics in any order).  With ``--base-url`` it asks the model to fill each question the parse
leaves unrouted and prints the seconds of each fill call.  Figures: ``docs/benchmarks-fill.md``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _norm(value: object) -> object:
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return round(float(value), 6)
    if isinstance(value, dict):
        return tuple(sorted((k, _norm(v)) for k, v in value.items() if k not in ("including",)))
    if isinstance(value, (list, tuple)):
        return tuple(sorted((_norm(v) for v in value), key=repr))
    return value


def right(name: str | None, args: dict, want: tuple[str, dict]) -> bool:
    """The plan is the call written by hand: the tool, each argument written there (order-free lists)."""
    tool, wanted = want
    if name != tool:
        return False
    if tool == "correlate_metrics":
        pair = {wanted["metric_a"], wanted["metric_b"]}
        return args.get("chip_id") == wanted["chip_id"] and {args.get("metric_a"), args.get("metric_b")} == pair
    return all(_norm(args.get(k)) == _norm(v) for k, v in wanted.items())


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", default="", help="a running OpenAI-compatible server: also measure the fill")
    parser.add_argument("--after", action="store_true", help="the seventeen written after the build, not the forty")
    parser.add_argument("--shape-last", action="store_true", help="a variant: the schema asks the shape last")
    parser.add_argument("--prompt", default="", help="a variant: this system prompt instead of the product's")
    parser.add_argument("--show", action="store_true", help="print the model's raw fill of each unrouted question")
    args = parser.parse_args(argv)

    from copilot_core.agent.lookups import lookup_plan
    from copilot_core.agent.plan import absent_plan
    from copilot_core.data.connection import open_memory_database
    from copilot_core.data.repository import CalibrationRepository
    from copilot_core.demo.seed import chip_specs, demo_clock, seed_database
    from copilot_core.routing.prefetch import plan_prefetch
    from tests import dev_fill10
    from tests.public_eval import CHIP, OTHER

    chips = (CHIP, OTHER)
    db = open_memory_database(f"fill-{os.getpid()}")
    seed_database(db, chip_specs(), seed=7, now=demo_clock())
    repo = CalibrationRepository(db)
    filler = None
    if args.base_url:
        from copilot_core.llm.fill import model_filler
        from copilot_core.llm.provider import ProviderConfig
        url = args.base_url.rstrip("/")
        filler = model_filler(ProviderConfig(api_key="local", base_url=url if url.endswith("/v1") else url + "/v1",
                                             model="qwen2.5-coder-1.5b-instruct", api_style="chat_completions",
                                             timeout_s=300.0, max_retries=0, fill_unrouted=True))
        call = filler
        raws: list[str | None] = []

        if args.prompt:
            import copilot_core.llm.fill as fill_module
            fill_module.SYSTEM = args.prompt

        def recorded(text: str, schema: dict) -> str | None:
            if args.shape_last:
                props = dict(schema["properties"])
                props["shape"] = props.pop("shape")
                schema = {**schema, "properties": props, "required": list(props)}
            raws.append(call(text, schema) if call is not None else None)
            return raws[-1]
        filler = recorded
    base = fill = 0
    broke: list[str] = []
    seconds: list[float] = []
    asked = dev_fill10.after(db) if args.after else dev_fill10.planned(db)
    for q, want in asked:
        plan = absent_plan(q.text, CHIP, repo, chips) or lookup_plan(q.text, CHIP) or \
            plan_prefetch(q.text, chip_id=CHIP, chips=chips)
        ok = plan is not None and right(plan.name, dict(plan.args), want)
        base += ok
        line = f"{'ok ' if ok else 'MISS'} {q.id:12s} {q.shape:16s} {plan and (plan.name, dict(plan.args))}"
        if filler is not None:
            started = time.perf_counter()
            filled = plan_prefetch(q.text, chip_id=CHIP, chips=chips, filler=filler) if plan is None else plan
            if plan is None:
                seconds.append(time.perf_counter() - started)
            if plan is None and args.show:
                print("   raw fill:", raws[-1] if raws else None)
            ok2 = filled is not None and right(filled.name, dict(filled.args), want)
            fill += ok2
            if ok and not ok2:
                broke.append(q.id)
            line += f" | fill: {'ok ' if ok2 else 'MISS'} {filled and (filled.name, dict(filled.args))}"
        print(line, flush=True)
    print(f"\nparse only: {base}/{len(asked)} routed right")
    if filler is not None:
        mean = sum(seconds) / len(seconds) if seconds else 0.0
        print(f"parse + fill: {fill}/{len(asked)} routed right; right turned wrong: {broke or 'none'}; "
              f"{len(seconds)} fill calls, {mean:.1f} s mean, {max(seconds, default=0):.1f} s max")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
