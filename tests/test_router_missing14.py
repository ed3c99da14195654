"""The parse and the router on the dev questions of ``tests/dev_missing14.py``: every named subject the data lacks is
resolved as missing (and the routed call says so), and a yes/no against a band word is a verdict at the band's limit,
written here by hand."""

from __future__ import annotations

import pytest

from copilot_core.agent.plan import absent_plan, missing_subjects
from copilot_core.language.question import parse
from tests import dev_missing14 as dev
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)


@pytest.mark.parametrize("asked", dev.QUESTIONS, ids=lambda a: a.text[:40])
def test_every_missing_subject_is_resolved_missing(asked, repo):
    missing, _, _ = missing_subjects(asked.text, CHIP, repo, CHIPS)
    keys = {m.subject for m in missing}
    wanted = {asked.subject, "-".join(asked.subject.split("-")[::-1])}
    assert keys & wanted, (asked.text, missing)


@pytest.mark.parametrize("asked", dev.QUESTIONS, ids=lambda a: a.text[:40])
def test_the_router_settles_a_missing_subject_with_the_check(asked, repo):
    plan = absent_plan(asked.text, CHIP, repo, CHIPS)
    assert plan is not None and plan.name == "check_target" and plan.settles, asked.text


@pytest.mark.parametrize("text", ["What is the ZX90 fidelity of coupling 1-4?", "T1 of Q05 on 64Qv3",
                                  "Is coupling 11-14 excellent on ZX90 gate fidelity?", "What is the T1 of Q70 on 144Qv2?"])
def test_subjects_the_data_holds_are_not_missing(text, repo):
    missing, _, holds = missing_subjects(text, CHIP, repo, CHIPS)
    assert missing == () and holds


@pytest.mark.parametrize("asked", dev.BAND_QUESTIONS, ids=lambda a: a.text[:40])
def test_a_band_word_yes_no_is_a_verdict_at_the_bands_limit(asked):
    v = parse(asked.text, CHIPS).verdict
    assert v is not None, asked.text
    subject = "-".join(map(str, asked.subject))
    assert v.metric == asked.metric and abs(v.limit - dev.band_limit(asked.metric, asked.band)) < 1e-9
    assert v.side == ("below" if asked.band == "bad" else "above") and v.inclusive == (asked.band != "bad")
    assert {"-".join(sorted(s.split("-"), key=int)) for s in v.subjects} == {subject}


@pytest.mark.parametrize("text", ["Which couplings have excellent ZX90 fidelity?", "Is Q5 good or bad for T1?",
                                  "Is Q5's T1 better than Q6's?", "How many qubits have poor T1?",
                                  "Is Q5 good?"])
def test_no_band_verdict_where_no_one_band_of_one_metric_is_asked(text):
    v = parse(text, CHIPS).verdict
    assert v is None or v.band is None, (text, v)


@pytest.mark.parametrize("text, pair", [("How fast is the CR gate on the 3/9 coupler?", "3-9"),
                                        ("what's the gate time of the 12/13 link", "12-13")])
def test_a_pair_before_its_coupling_word_is_a_coupling(text, pair):
    assert parse(text, CHIPS).couplings == (pair,)
