"""The router makes the call of each shape's question in the registers a lab user types
(``tests/dev_cover_a.py``): right tool, the metrics asked, N and order of a top N, the statistic of a spread, every
condition of a compound filter; and the call, held to the question's limits (``settle_limits``), restates it
(``checking.restate.mismatches`` empty).  The expected calls are written here by hand from each question."""

from __future__ import annotations

import pytest

from copilot_core.checking.restate import mismatches
from copilot_core.language.question import parse
from copilot_core.routing.limits import settle_limits
from copilot_core.routing.prefetch import plan_prefetch
from tests import dev_cover_a
from tests.public_eval import CHIP

T1, T2, RO, X90 = "t1", "t2_echo", "average_readout_fidelity", "x90_gate_fidelity"
ZX, BELL, FREQ = "zx90_gate_fidelity", "bell_state_fidelity", "qubit_frequency"

# id: (tool, metrics in order, what else the call must carry)
EXPECTED: dict[str, tuple[str, tuple[str, ...], dict]] = {
    "cac-1": ("filter_metrics", (T1, T2), {}), "cac-2": ("filter_metrics", (T2, T1), {}),
    "cac-3": ("filter_metrics", (T1, RO), {}), "cac-4": ("filter_metrics", (T1, T2), {}),
    "cac-5": ("filter_metrics", (X90, RO), {}), "cac-6": ("filter_metrics", (T1, T2, RO), {}),
    "cac-7": ("filter_metrics", (T1, RO), {}), "cac-8": ("filter_metrics", (T2, T1), {}),
    "cas-1": ("filter_metric", (T1,), {}), "cas-2": ("filter_metric", (RO,), {}),
    "cas-3": ("filter_metric", (T2,), {}), "cas-4": ("filter_metric", (T1,), {}),
    "cas-5": ("filter_metric", (X90,), {}), "cas-6": ("filter_metric", (T2,), {}),
    "cas-7": ("filter_metric", (T1,), {}), "cas-8": ("filter_metric", (ZX,), {}),
    "cas-9": ("filter_metric", (RO,), {}),
    "can-1": ("rank_metric", (T1,), {"n": 5, "order": "lowest"}),
    "can-2": ("rank_metric", (RO,), {"n": 3, "order": "lowest"}),
    "can-3": ("rank_metric", (T2,), {"n": 10, "order": "highest"}),
    "can-4": ("rank_metric", (X90,), {"n": 4, "order": "highest"}),
    "can-5": ("rank_metric", (BELL,), {"n": 6, "order": "highest"}),
    "can-6": ("rank_metric", (T1,), {"n": 3, "order": "lowest"}),
    "can-7": ("rank_metric", (T2,), {"n": 5, "order": "lowest"}),
    "can-8": ("rank_metric", (ZX,), {"n": 2, "order": "highest"}),
    "can-9": ("rank_metric", (RO,), {"n": 7, "order": "highest"}),
    "caw-1": ("metric_spread", (T1,), {"lead": "std"}), "caw-2": ("metric_spread", (T1,), {"lead": "std"}),
    "caw-3": ("metric_spread", (T2,), {"lead": "std"}), "caw-4": ("metric_spread", (RO,), {"lead": "std"}),
    "caw-5": ("metric_spread", (T1,), {"lead": "iqr"}), "caw-6": ("metric_spread", (X90,), {"lead": "range"}),
    "caw-7": ("metric_spread", (T2,), {"lead": "cv"}), "caw-8": ("metric_spread", (T1,), {"lead": "range"}),
    "caw-9": ("metric_spread", (RO,), {"lead": "std"}),
    "car-1": ("correlate_metrics", (T1, T2), {}), "car-2": ("correlate_metrics", (RO, T1), {}),
    "car-3": ("correlate_metrics", (X90, RO), {}), "car-4": ("correlate_metrics", (T2, X90), {}),
    "car-5": ("correlate_metrics", (T1, FREQ), {}), "car-6": ("correlate_metrics", (T2, RO), {}),
    "car-7": ("correlate_metrics", (ZX, BELL), {}), "car-8": ("correlate_metrics", (T1, RO), {}),
    "car-9": ("correlate_metrics", (T1, T2), {}),
}


def _metrics(name: str, args: dict) -> tuple[str, ...]:
    if name == "filter_metrics":
        return tuple(c["metric_name"] for c in args["conditions"])
    if name == "correlate_metrics":
        return args["metric_a"], args["metric_b"]
    return (args["metric_name"],)


def _wrong(text: str, want: tuple[str, tuple[str, ...], dict]) -> str | None:
    plan = plan_prefetch(text, chip_id=CHIP)
    if plan is None:
        return "no call"
    asked = parse(text)
    settled = settle_limits(plan.name, dict(plan.args), asked)
    if settled.refusal is not None:
        return f"refused: {settled.refusal}"
    args = dict(settled.args)
    tool, metrics, extra = want
    got = (plan.name, _metrics(plan.name, args) if plan.name == tool else ())
    if got[0] != tool or sorted(got[1]) != sorted(metrics):
        return f"{plan.name}({args})"
    if any(args.get(k) != v for k, v in extra.items()):
        return f"{plan.name}({args}): wanted {extra}"
    if tool == "filter_metrics" and plan.name == tool and args.get("join") != "and":
        return f"join {args.get('join')}"
    found = mismatches(asked, plan.name, args)
    return f"{plan.name}({args}) mismatches {[m.missed for m in found]}" if found else None


def test_every_cover_question_is_a_dev_question_with_an_expected_call(demo_db):
    assert {q.id for q in dev_cover_a.build(demo_db)} == set(EXPECTED)


@pytest.mark.parametrize("shape", ["compound", "share", "top n", "spread", "correlation"])
def test_the_router_makes_each_shapes_call(demo_db, shape):
    asked = [q for q in dev_cover_a.build(demo_db) if q.shape == f"cover {shape}"]
    assert len(asked) >= 8
    wrong = [f"{q.id}: {q.text} -> {why}" for q in asked if (why := _wrong(q.text, EXPECTED[q.id])) is not None]
    assert not wrong, "\n".join(wrong)
