"""Limits written with the value at the limit counted in words ("greater or equal to 45 μs", "at or above 95%",
"equal to or less than"), and limits with "the" before the number ("above the 40 μs mark", "clear the 0.99 bar"):
read as the limit the words say, side and inclusiveness by hand, and the router's filter holds it.  Numbers that
follow "the" and are a count or a window ("more than the 5 failures", "over the last 3 days") are no limit."""

from __future__ import annotations

import pytest

from copilot_core.language.question import parse
from copilot_core.routing.limits import settle_limits
from copilot_core.routing.prefetch import plan_prefetch
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)

# question -> (side, value, inclusive) of its one limit, written by hand
READ = {
    f"Which qubits on {CHIP} have T1 above the 40 us mark?": ("above", 40.0, False),
    f"On {CHIP}, which qubits sit under the 25 μs line for T2 echo?": ("below", 25.0, False),
    f"How many {CHIP} qubits have T1 greater or equal to 45 us?": ("above", 45.0, True),
    f"qubits on {CHIP} with T1 greater than or equal to 52.5 us": ("above", 52.5, True),
    f"{CHIP}: readout fidelity at or above 95%, which qubits?": ("above", 95.0, True),
    f"{CHIP} qubits whose T1 is less than or equal to 30 us": ("below", 30.0, True),
    f"list {CHIP} qubits with T2 echo lower or equal to 20 us": ("below", 20.0, True),
    f"Which {CHIP} qubits have T1 at or below 28 us?": ("below", 28.0, True),
    f"Which qubits on {CHIP} have a T1 equal to or greater than 60 us?": ("above", 60.0, True),
    f"{CHIP} qubits with readout fidelity equal to or less than 90 %": ("below", 90.0, True),
    f"On {CHIP} which qubits are beyond the 70 us threshold for T1?": ("above", 70.0, False),
    f"Which {CHIP} qubits fall below the 35 µs bar in T1?": ("below", 35.0, False),
    f"which couplings on {CHIP} are shorter or equal to 250 ns in ZX90 gate time": ("below", 250.0, True),
}
NO_LIMIT = (
    f"How many qubits on {CHIP} have more than the 5 failures listed?",
    f"Which qubits on {CHIP} failed over the last 3 days?",
    f"Is Q05 on {CHIP} above the others in T1?",
    "Is the 75—73 coupling better than 75—74 for Bell state fidelity? On 144Qv2.",  # a pair's first qubit
    f"Does the 22/19 link beat the 33/19 link on Bell state fidelity on {CHIP}?",
)


@pytest.mark.parametrize("text", list(READ))
def test_the_limit_is_read_with_its_side_and_whether_the_value_counts(text):
    side, value, inclusive = READ[text]
    limits = parse(text, CHIPS).limits
    assert [(lim.side, lim.value, lim.inclusive) for lim in limits] == [(side, value, inclusive)]


@pytest.mark.parametrize("text", NO_LIMIT)
def test_a_count_or_a_window_after_the_is_no_limit(text):
    assert parse(text, CHIPS).limits == ()


ROUTED = {
    f"Which qubits on {CHIP} have T1 above the 40 us mark?": {"metric_name": "t1", "above": 40.0},
    f"How many {CHIP} qubits have T1 greater or equal to 45 us?": {
        "metric_name": "t1", "above": 45.0, "including": ["above"]},
    f"{CHIP}: readout fidelity at or above 95%, which qubits?": {
        "metric_name": "average_readout_fidelity", "above": 95.0, "including": ["above"]},
    f"{CHIP} qubits whose T1 is less than or equal to 30 us": {"metric_name": "t1", "below": 30.0,
                                                              "including": ["below"]},
}


@pytest.mark.parametrize("text", list(ROUTED))
def test_the_routers_filter_holds_the_limit(text):
    plan = plan_prefetch(text, chip_id=CHIP, chips=CHIPS)
    assert plan is not None
    settled = settle_limits(plan.name, dict(plan.args), parse(text, CHIPS))
    assert settled.refusal is None
    assert plan.name == "filter_metric" and dict(settled.args) == {"chip_id": CHIP, **ROUTED[text]}
