"""The router makes the call of each correlation and share question of ``tests/dev_corrpct7.py``: the two metrics, the
chip and the coefficient asked (Pearson, Spearman, both) of a correlation; the metric, side, limit and chip of a share,
and the count (what, window, task) of a failed share; and the call, held to the question's limits (``settle_limits``),
restates it (``checking.restate.mismatches`` empty).  The expected calls are written here by hand from each question."""

from __future__ import annotations

import pytest

from copilot_core.checking.restate import corrected, mismatches
from copilot_core.language.question import parse
from copilot_core.routing.limits import settle_limits
from copilot_core.routing.prefetch import plan_prefetch
from tests import dev_corrpct7
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)
T1, T2, RO, X90, FREQ, ANH = "t1", "t2_echo", "average_readout_fidelity", "x90_gate_fidelity", "qubit_frequency", \
    "anharmonicity"
ZX, BELL = "zx90_gate_fidelity", "bell_state_fidelity"


def _r(a: str, b: str, chip: str = CHIP, method: str = "pearson") -> tuple[str, dict]:
    return "correlate_metrics", {"chip_id": chip, "metric_a": a, "metric_b": b, "method": method}


def _f(metric: str, chip: str = CHIP, **limits) -> tuple[str, dict]:
    return "filter_metric", {"chip_id": chip, "metric_name": metric, **limits}


def _c(what: str, **window) -> tuple[str, dict]:
    return "count_in_window", {"chip_id": CHIP, "what": what, **window}


EXPECTED: dict[str, tuple[str, dict]] = {
    "cpr-1": _r(T1, FREQ), "cpr-2": _r(ANH, RO), "cpr-3": _r(T2, T1, OTHER), "cpr-4": _r(X90, T1),
    "cpr-5": _r(T1, T2, method="spearman"), "cpr-6": _r(RO, T1, method="spearman"),
    "cpr-7": _r(T1, FREQ, method="both"), "cpr-8": _r(FREQ, T1), "cpr-9": _r(ANH, RO, OTHER), "cpr-10": _r(ZX, BELL),
    "cpr-11": _r(ZX, BELL), "cpr-12": _r(T1, T2), "cpr-13": _r(T1, RO), "cpr-14": _r(T2, FREQ),
    "cpr-15": _r(T1, FREQ), "cpr-16": _r(T2, X90), "cpr-17": _r(RO, T1), "cpr-18": _r(T2, RO, OTHER),
    "cpr-19": _r(T1, T2), "cpr-20": _r(X90, RO, method="spearman"), "cpr-21": _r(ZX, BELL), "cpr-22": _r(T1, FREQ),
    "cpr-23": _r(T2, T1, OTHER),
    "cpp-1": _f(T1, above=50.0), "cpp-2": _f(ZX, below=99.0), "cpp-3": _f(RO, above=95.0, including=["above"]),
    "cpp-4": _f(T1, below=30.0), "cpp-5": _f(T2, above=40.0), "cpp-6": _f(X90, above=99.5, including=["above"]),
    "cpp-7": _f(BELL, below=90.0), "cpp-8": _f(T1, OTHER, above=60.0), "cpp-9": _f(T1, below=20.0),
    "cpp-10": _f(RO, below=90.0), "cpp-11": _f(T2, below=30), "cpp-12": _f(T1, above=30.0, below=60.0),
    "cpp-13": _f(ZX, above=98.0), "cpp-14": _f(X90, above=99.0), "cpp-15": _f(RO, above=92.0),
    "cpp-16": _f(T2, above=60.0), "cpp-17": _f(BELL, above=95.0),
    "cpp-18": ("filter_metrics", {"chip_id": CHIP, "join": "and", "conditions": [
        {"metric_name": T1, "above": 40.0}, {"metric_name": T2, "above": 30.0}]}),
    "cpp-19": _c("runs", days=1), "cpp-20": _c("failed tasks", days=7), "cpp-21": _c("runs", day="yesterday"),
    "cpp-22": _c("failed tasks", days=10, task_name="CheckRamsey"), "cpp-23": _c("excluded tasks"),
    "cpp-24": _c("excluded tasks", days=7),
}


def _wrong(text: str, want: tuple[str, dict]) -> str | None:
    plan = plan_prefetch(text, chip_id=CHIP, chips=CHIPS)
    if plan is None:
        return "no call"
    asked = parse(text, CHIPS)
    settled = settle_limits(plan.name, dict(plan.args), asked)
    if settled.refusal is not None:
        return f"refused: {settled.refusal}"
    got = (plan.name, dict(settled.args))
    if got != want:
        return f"{got}"
    found = mismatches(asked, *got)
    return f"{got} mismatches {[m.missed for m in found]}" if found else None


def test_every_question_is_a_dev_question_with_an_expected_call(demo_db):
    questions = dev_corrpct7.build(demo_db)
    assert {q.id for q in questions} == set(EXPECTED)
    assert sum(q.shape.endswith("correlation") for q in questions) >= 20
    assert sum(q.shape.endswith("percentage") for q in questions) >= 20


@pytest.mark.parametrize("shape", ["correlation", "percentage"])
def test_the_router_makes_each_questions_call(demo_db, shape):
    asked = [q for q in dev_corrpct7.build(demo_db) if q.shape == f"corrpct7 {shape}"]
    wrong = [f"{q.id}: {q.text} -> {why}" for q in asked if (why := _wrong(q.text, EXPECTED[q.id])) is not None]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize(("qid", "given", "method"), [
    ("cpr-5", "pearson", "spearman"), ("cpr-6", "pearson", "spearman"), ("cpr-7", "spearman", "both"),
    ("cpr-20", "pearson", "spearman"),
])
def test_a_call_with_another_coefficient_than_the_one_named_is_re_made(qid, given, method):
    text = dev_corrpct7.CORRELATIONS[qid][0]
    name, args = EXPECTED[qid]
    fixed = corrected(name, {**args, "method": given}, parse(text, CHIPS))
    assert fixed[:2] == (name, {**args, "method": method}), fixed


@pytest.mark.parametrize("qid", ["cpr-1", "cpr-2", "cpr-8", "cpr-14", "cpr-16", "cpr-17", "cpr-22"])
def test_a_relation_asked_in_any_wording_is_re_made_from_another_tool(qid):
    """A relation asked without the word "correlation" ("related", "depends on", "predict", "go down when"): a call
    of another checked tool is re-made as the correlation of the two metrics."""
    text = dev_corrpct7.CORRELATIONS[qid][0]
    name, args = EXPECTED[qid]
    fixed = corrected("filter_metric", {"chip_id": args["chip_id"], "metric_name": args["metric_a"], "above": 1},
                      parse(text, CHIPS))
    assert fixed[:2] == (name, args), fixed
