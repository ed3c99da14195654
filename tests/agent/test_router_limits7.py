"""The router's call for the four classes of ``tests/dev_limits7.py`` (a limit written as a verb, a window of N
recent days, a count of one kind of task result, a quantity the data does not hold), planned in the page's order
(``absent_plan`` -> ``lookup_plan`` -> ``plan_prefetch``), held to the question's limits (``settle_limits``) and with
no mismatch left (``checking.restate.mismatches``).  The expected calls are written by hand in the dev file."""

from __future__ import annotations

import pytest

from copilot_core.agent.lookups import lookup_plan
from copilot_core.agent.plan import absent_plan
from copilot_core.checking.restate import mismatches
from copilot_core.language.question import parse
from copilot_core.routing.limits import settle_limits
from copilot_core.routing.prefetch import plan_prefetch
from tests import dev_limits7
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)


def _plan(text: str, repo):
    return absent_plan(text, CHIP, repo, CHIPS) or lookup_plan(text, CHIP) or \
        plan_prefetch(text, chip_id=CHIP, chips=CHIPS)


@pytest.fixture(scope="module")
def cases(demo_db):
    return dev_limits7.cases(demo_db)


def _wrong(text: str, call, repo) -> str | None:
    tool, want = call
    plan = _plan(text, repo)
    if plan is None:
        return "no call"
    asked = parse(text, CHIPS)
    settled = settle_limits(plan.name, dict(plan.args), asked)
    if settled.refusal is not None:
        return f"refused: {settled.refusal}"
    args = dict(settled.args)
    if plan.name != tool or any(args.get(k) != v for k, v in want.items() if k != "conditions"):
        return f"{plan.name}({args}) != {tool}({want})"
    if "conditions" in want and sorted(map(str, args.get("conditions", []))) != sorted(map(str, want["conditions"])):
        return f"conditions {args.get('conditions')} != {want['conditions']}"
    if tool == "count_in_window" and "days" not in want and any(k in args for k in ("days", "day", "from_date")):
        return f"a window nobody asked for: {args}"
    found = mismatches(asked, plan.name, args)
    return f"{plan.name}({args}) mismatches {[m.missed for m in found]}" if found else None


@pytest.mark.parametrize("kind", ["limit", "window", "kind", "absent"])
def test_the_router_makes_each_classes_call(cases, repo, kind):
    asked = [(q, call) for q, call in cases if q.shape == f"limits7 {kind}"]
    assert len(asked) >= 6
    wrong = [f"{q.id}: {q.text!r} -> {why}" for q, call in asked if (why := _wrong(q.text, call, repo)) is not None]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize(("text", "side", "value", "inclusive"), [
    ("qubits with T1 above 40 us", "above", 40.0, False),
    ("qubits whose T1 beats 40 us", "above", 40.0, False),
    ("qubits whose T1 clears 40 us", "above", 40.0, False),
    ("qubits whose T1 tops 40 us", "above", 40.0, False),
    ("qubits whose T1 surpasses 40 us", "above", 40.0, False),
    ("qubits whose T1 is in excess of 40 us", "above", 40.0, False),
    ("qubits whose T1 reaches 40 us", "above", 40.0, True),
    ("qubits whose T1 is at least 40 us", "above", 40.0, True),
    ("qubits whose T1 is not below 40 us", "above", 40.0, True),
    ("qubits whose T1 is no worse than 40 us", "above", 40.0, True),
    ("qubits with a T1 of 40 us or longer", "above", 40.0, True),
    ("qubits whose T1 is better than 40 us", "above", 40.0, False),
    ("qubits whose T1 falls short of 40 us", "below", 40.0, False),
    ("qubits whose T1 doesn't reach 40 us", "below", 40.0, False),
    ("qubits whose T1 does not reach 40 us", "below", 40.0, False),
    ("qubits whose T1 fails to clear 40 us", "below", 40.0, True),
    ("qubits whose T1 never exceeds 40 us", "below", 40.0, True),
    ("qubits whose T1 is under 40 us", "below", 40.0, False),
    ("qubits whose T1 is no better than 40 us", "below", 40.0, True),
    ("qubits whose T1 is at most 40 us", "below", 40.0, True),
    ("qubits with T1 of 40 us or less", "below", 40.0, True),
    ("qubits whose T1 is worse than 40 us", "below", 40.0, False),
    ("couplings whose ZX90 gate time beats 300 ns", "below", 300.0, False),  # a shorter gate time is better
    ("couplings whose ZX90 gate time is no better than 300 ns", "above", 300.0, True),
])
def test_every_comparison_reads_to_its_side(text, side, value, inclusive):
    (limit,) = parse(text).limits
    assert (limit.side, limit.value, limit.inclusive) == (side, value, inclusive), limit


@pytest.mark.parametrize(("text", "days"), [
    ("failed tasks in the eight most recent days", 8), ("runs over the past 12 days", 12),
    ("runs in the last fortnight", 14), ("runs in the previous five days", 5),
    ("runs across the most recent 2 days", 2), ("runs in the 5 last days", 5), ("runs in the past two weeks", 14),
    ("runs during the three previous days", 3), ("runs in the last day", 1),
])
def test_n_recent_days_is_an_n_day_window(text, days):
    assert round(parse(text).window_days or 0) == days


@pytest.mark.parametrize("text", [
    "What is the T1 of Q05?", "T2 echo of Q05", "What is the static ZZ of coupling 4-5?",
    "ZZ crosstalk of coupling 4-5", "What is the ZX90 gate time of coupling 4-5?", "Ramsey T2 of Q3",
    "readout fidelity of Q05", "How many qubits have T1 above 50 us?",
])
def test_words_of_held_metrics_are_no_quantity_the_data_lacks(text, repo):
    asked = parse(text, CHIPS)
    plan = _plan(text, repo)
    assert not asked.not_held and any(asked.metrics), asked
    assert plan is None or plan.name != "check_target", plan


@pytest.mark.parametrize(("text", "name", "args", "missed"), [
    ("How many task results failed over the nine most recent days?", "count_in_window",
     {"chip_id": CHIP, "what": "failed tasks", "days": 1}, "asks for the last 9 days, not the last 1 days"),
    ("How many runs in the last fortnight?", "count_in_window", {"chip_id": CHIP, "what": "runs", "day": "today"},
     "asks for the last 14 days, not one day"),
    ("How many task results were excluded in the last 7 days?", "count_in_window",
     {"chip_id": CHIP, "what": "task results", "days": 7},
     "counts excluded task results, not every finished task result"),
    ("How many usable task results in the last 7 days?", "count_in_window",
     {"chip_id": CHIP, "what": "excluded tasks", "days": 7},
     "counts usable task results (completed, not excluded), not excluded task results"),
    ("Which qubit has the highest leakage rate?", "rank_metric",
     {"chip_id": CHIP, "metric_name": "x90_gate_fidelity", "order": "lowest", "n": 1},
     "asks for leakage rate, which the data does not hold (the nearest metrics it holds: X90 gate fidelity, "
     "Average gate fidelity), not X90 gate fidelity"),
    ("How many qubits have a readout fidelity that doesn't reach 90%?", "filter_metric",
     {"chip_id": CHIP, "metric_name": "average_readout_fidelity", "above": 90.0},
     "sets Readout fidelity below 90%, not Readout fidelity above 90%"),
])
def test_the_restate_check_names_what_the_call_left_out(text, name, args, missed):
    found = [m.missed for m in mismatches(parse(text, CHIPS), name, args)]
    assert missed in found, found
