"""The parse and the router on the dev questions of ``tests/dev_units16.py``: a limit written in any notation and
any unit of its metric's quantity reaches the tool in the metric's shown unit, on the side its words put it; the
unit the answer is asked in is read once into the question; a limit of another quantity is never used."""

from __future__ import annotations

import pytest

from copilot_core.language.numbers import signed_value
from copilot_core.language.question import parse
from copilot_core.routing.limits import settle_limits
from copilot_core.routing.prefetch import plan_prefetch
from tests import dev_units16 as dev
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)
_LIMITED = [a for a in dev.QUESTIONS if a.limit is not None]


def test_there_are_enough_dev_questions_on_both_chips():
    assert len([a for a in dev.QUESTIONS if not a.fresh]) >= 20 and len([a for a in dev.QUESTIONS if a.fresh]) >= 6
    assert {a.chip for a in dev.QUESTIONS} == {CHIP, OTHER}


def _conditions(args: dict) -> list[dict]:
    return args["conditions"] if "conditions" in args else [args]


def _held(condition: dict, side: str, value: float, counted: bool) -> bool:
    return condition.get(side) == pytest.approx(value) and (side in (condition.get("including") or [])) == counted


@pytest.mark.parametrize("asked", _LIMITED, ids=lambda a: a.id)
def test_the_routed_call_holds_the_limit_in_the_metrics_unit(asked):
    plan = plan_prefetch(asked.text, chip_id=CHIP, chips=CHIPS)
    assert plan is not None and plan.name == asked.tool, plan
    args = settle_limits(plan.name, dict(plan.args), parse(asked.text, CHIPS)).args
    assert args["chip_id"] == asked.chip
    conditions = {c["metric_name"]: c for c in _conditions(args)}
    assert asked.limit is not None and _held(conditions[asked.metric], *asked.limit), args
    if asked.second is not None:
        metric, *limit = asked.second
        assert _held(conditions[metric], *limit), args
    assert plan.args.get("qids") is None and parse(asked.text, CHIPS).couplings == ()  # "10-5" is no coupling


@pytest.mark.parametrize("asked", [a for a in dev.QUESTIONS if a.factor != 1.0 or a.unit], ids=lambda a: a.id)
def test_the_unit_asked_is_read_once(asked):
    assert parse(asked.text, CHIPS).unit_asked == (asked.unit or "fraction")
    plan = plan_prefetch(asked.text, chip_id=CHIP, chips=CHIPS)
    assert plan is not None and plan.name == asked.tool, plan


@pytest.mark.parametrize("asked", _LIMITED, ids=lambda a: a.id)
def test_a_limit_asks_no_unit(asked):
    assert parse(asked.text, CHIPS).unit_asked is None


@pytest.mark.parametrize("written, value", [("3.5e-5", 3.5e-5), ("3.5E-5", 3.5e-5), ("3.5×10^-5", 3.5e-5),
                                            ("3.5 x 10-5", 3.5e-5), ("35e-6", 3.5e-5), ("0.000035", 3.5e-5),
                                            ("4·10⁻⁵", 4e-5), ("2*10**-8", 2e-8), ("1,200", 1200.0), ("−2", -2.0)])
def test_a_number_reads_in_every_notation(written, value):
    assert signed_value(written) == pytest.approx(value)


@pytest.mark.parametrize("text", dev.UNFIT)
def test_a_limit_of_another_quantity_is_never_used(text):
    q = parse(text, CHIPS)
    assert q.limits == () and len(q.unfit) == 1, (q.limits, q.unfit)


@pytest.mark.parametrize("text, side, value", [
    ("T1 beyond 2e-5 s", "above", 20.0), ("T1 shy of 0.00006 s", "below", 60.0),
    ("T2 echo short of 7e-5 seconds", "below", 70.0), ("T1 upwards of 5.5e-5 s", "above", 55.0),
    ("readout fidelity of 92% or better", "above", 92.0), ("T1 of 80 us or worse", "below", 80.0),
    ("T1 <= 4e-5 s", "below", 40.0), ("T1 in excess of 25 us", "above", 25.0),
    ("qubit frequency above 4900 MHz", "above", 4.9), ("qubit frequency below 5.2e6 kHz", "below", 5.2)])
def test_side_words_and_units_reach_the_tool(text, side, value):
    asked = f"How many qubits have {text}?"
    plan = plan_prefetch(asked, chip_id=CHIP, chips=CHIPS)
    assert plan is not None and plan.name == "filter_metric", plan
    args = settle_limits(plan.name, dict(plan.args), parse(asked, CHIPS)).args
    assert args.get(side) == pytest.approx(value), args


@pytest.mark.parametrize("text, couplings", [("ZX90 fidelity of 10-5 and 10-11", ("10-5", "10-11")),
                                             ("What is the ZX 10-11 fidelity?", ("10-11",))])
def test_couplings_still_read_as_couplings(text, couplings):
    assert parse(text, CHIPS).couplings == couplings


@pytest.mark.parametrize("text", ["How did T1 change over the past 7 days?", "T1 of Q3 in the past 3 runs",
                                  "What is the T1 of qubit(s) 4?", "How did T1 change in the past 24h?",
                                  "T1 trend over the past 48 hrs", "T1 over the past 1 wk", "T1 above 50 min"])
def test_a_window_or_a_plural_is_no_limit_nor_unit(text):
    q = parse(text, CHIPS)
    assert q.limits == () and q.unit_asked is None, (q.limits, q.unit_asked)


@pytest.mark.parametrize("text, shape", [("Q12's readout fidelity as a fraction", "lookup"),
                                         ("What fraction of qubits have T1 above 50 us?", "percentage"),
                                         ("What share of qubits have T1 above 50 us, as a fraction?", "percentage"),
                                         ("What % of qubits have T1 > 50us", "percentage")])
def test_a_form_asked_is_no_share_asked(text, shape):
    assert parse(text, CHIPS).shape == shape


@pytest.mark.parametrize("asked", [a for a in _LIMITED if "past" in a.text], ids=lambda a: a.id)
def test_a_limit_past_a_number_is_no_count_asked(asked):
    assert parse(asked.text, CHIPS).n is None
