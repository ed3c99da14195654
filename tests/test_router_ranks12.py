"""The router makes the call each ranking, coupling and unit dev question of ``tests/dev_ranks12.py`` needs, every
argument written here by hand; a chip summary called for one coupling is re-made as that coupling's call."""

from __future__ import annotations

import pytest

from copilot_core.checking.restate import corrected
from copilot_core.language.question import parse
from copilot_core.routing.prefetch import plan_prefetch
from tests import dev_ranks12 as dev
from tests.public_eval import CHIP, OTHER


def test_there_are_at_least_30_dev_questions_some_written_after_the_fix():
    cases = dev.RANKED + dev.COUPLED + dev.IN_UNIT + dev.ABSENT
    assert len(cases) >= 30 and sum(c.after for c in cases) >= 10


@pytest.mark.parametrize("case", dev.RANKED, ids=[c.id for c in dev.RANKED])
def test_an_own_words_ranking_is_ranked_at_its_end(case):
    plan = plan_prefetch(case.text, chip_id=CHIP, chips=(CHIP, OTHER))
    assert plan is not None and (plan.name, plan.args) == (
        "rank_metric", {"chip_id": CHIP, "metric_name": case.metric, "order": case.end, "n": case.n})


@pytest.mark.parametrize("case", dev.COUPLED, ids=[c.id for c in dev.COUPLED])
def test_one_coupling_is_read_as_that_coupling_with_its_ends_metric(case):
    plan = plan_prefetch(case.text, chip_id=CHIP, chips=(CHIP, OTHER))
    names = [case.metric] + ([case.qubit_metric] if case.qubit_metric else [])
    assert plan is not None and plan.name == "get_coupling_params", plan
    assert plan.args == {"chip_id": CHIP, "coupling_id": f"{case.pair[0]}-{case.pair[1]}", "param_names": names}


@pytest.mark.parametrize("text, unit", [
    ("State that difference in megahertz.", "MHz"), ("mean T1 in nanoseconds", "ns"), ("in kilohertz", "kHz"),
    ("the T1 expressed in milliseconds", "ms"), ("median frequency in GHz", "GHz"), ("T1 in microseconds", "μs")])
def test_a_unit_spelled_out_is_the_unit_asked(text, unit):
    assert parse(text, (CHIP, OTHER)).unit_asked == unit


@pytest.mark.parametrize("text", ["Which 5 qubits relax fastest? Answer in nanoseconds.",
                                  "the 40-41 link's gate time", "Is T1 linked to T2 echo?"])
def test_the_words_of_a_ranking_or_a_link_keep_their_other_readings(text):
    asked = parse(text, (CHIP, OTHER))
    assert asked.relates == ("linked" in text)


@pytest.mark.parametrize("case", [c for c in dev.COUPLED if c.qubit_metric], ids=lambda c: c.id)
def test_a_chip_summary_for_one_coupling_is_re_made_as_its_call(case):
    name, args, why = corrected("get_chip_summary", {"chip_id": CHIP}, parse(case.text, (CHIP, OTHER)))
    assert why is not None and name == "get_coupling_params" and args["coupling_id"] == "-".join(map(str, case.pair))
