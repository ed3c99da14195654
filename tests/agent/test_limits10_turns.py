"""The questions of ``tests/dev_limits10.py`` on the page's path (``Copilot.ask``, a small model's name, 64Qv3 in
view) against the scripted OpenAI-compatible server through the real openai SDK: what the person reads.

A filter's answer lists exactly the subjects a pymongo read finds (all when 40 or fewer), states their count and
every condition with the limit in the metric's own unit; a limit no named metric can hold is said in a note and
never filtered on.  Router on with a quoting and a silent model; router off with a model whose own call drops a
condition or puts the unfit limit on the metric written next to it.
"""

from __future__ import annotations

import re

import pytest

from tests import dev_limits10
from tests.agent.page_turn import asked_on_small as _ask
from tests.dev_limits10 import CASES, UNFIT, Case
from tests.eval_score import Truth, passed
from tests.fakes.scripted_models import caller_then_quoter, quoter, silent
from tests.test_router_limits10 import _drop_first, _drop_last, _wanted

LISTED = 40
_PAIR = re.compile(r"\bQ0*(\d+)\s*→\s*Q0*(\d+)")
_QUBIT = re.compile(r"\bQ0*(\d+)\b")
CANNOT = "cannot"
BY_ID = {c.id: c for c in CASES + UNFIT}


def _listed(said: str, kind: str) -> set[str]:
    if kind == "coupling":
        return {"-".join(sorted((a, b), key=int)) for a, b in _PAIR.findall(said)}
    return set(_QUBIT.findall(_PAIR.sub(" ", said)))


def _wrong(case: Case, said: str, truth: set[str]) -> list[str]:
    """Why ``said`` is not what the person must read for ``case`` (empty: it is)."""
    out = []
    listed = _listed(said, case.kind)
    if listed - truth:
        out.append(f"lists subjects that do not meet the conditions: {sorted(listed - truth)[:8]}")
    if len(truth) <= LISTED and listed != truth or len(truth) > LISTED and len(listed) < LISTED:
        out.append(f"leaves out {sorted(truth - listed)[:8]}")
    if not passed(Truth(((len(truth), 0),)), said):
        out.append(f"does not state the count {len(truth)}")
    assert case.call is not None
    conditions = case.call[1].get("conditions") or [case.call[1]]
    for condition in conditions:
        metric = condition["metric_name"]
        if metric not in said or any(f"{condition[s]:g}" not in said for s in ("below", "above") if s in condition):
            out.append(f"does not state the condition on {metric}")
    if isinstance(case, dev_limits10.Unfit):
        if CANNOT not in said or case.said not in said:
            out.append(f"does not say {case.said} cannot be a limit of {case.metric}")
    elif "Note:" in said or CANNOT in said:
        out.append("carries a note")
    return out


@pytest.fixture(scope="module")
def truths(demo_db) -> dict[str, set[str]]:
    return {c.id: dev_limits10.truth(demo_db, c) for c in CASES + UNFIT if c.tests}


FILTERED = [c for c in CASES + UNFIT if c.call is not None]


@pytest.mark.parametrize("model", ["quoter", "silent"])
def test_the_router_answers_every_question_with_every_condition_on_its_metric(model, truths, repo,
                                                                              scripted_openai, tmp_path):
    scripted_openai.smart = {"silent": silent, "quoter": quoter}[model]
    wrong = []
    for case in FILTERED:
        said = _ask(repo, scripted_openai, tmp_path, case.text, "on")
        if why := _wrong(case, said, truths[case.id]):
            wrong.append(f"{case.id}: {why}: {said[:300]}")
    assert not wrong, "\n".join(wrong)


NO_CALL = [c for c in UNFIT if c.call is None]


@pytest.mark.parametrize("model", ["quoter", "silent"])
@pytest.mark.parametrize("case", NO_CALL, ids=[c.id for c in NO_CALL])
def test_a_limit_no_metric_can_hold_alone_is_said_with_no_subjects_listed(case, model, repo, scripted_openai,
                                                                          tmp_path):
    scripted_openai.smart = {"silent": silent, "quoter": quoter}[model]
    said = _ask(repo, scripted_openai, tmp_path, case.text, "on")
    assert CANNOT in said and case.said in said and case.metric in said, said
    assert not _listed(said, case.kind), said


DROPS = [(cid, drop) for cid in ("la-mhz-sep", "la-moved-after", "la-ms-ns", "la-us-gate", "la-other-claimed",
                                 "lb-both", "lb-aswell-shared", "lb-other-both", "lb-word-but-also", "lb-commas",
                                 "lx-shared-fraction", "lx-other-shared-ns")
         for drop in (_drop_first, _drop_last)]


@pytest.mark.parametrize(("cid", "drop"), DROPS, ids=[f"{c}-{d.__name__.strip('_')}" for c, d in DROPS])
def test_a_models_filter_missing_a_condition_is_re_made(cid, drop, truths, repo, scripted_openai, tmp_path):
    """Router off: only the model's own call, which leaves a condition out."""
    case = BY_ID[cid]
    wanted = _wanted(case)
    assert wanted is not None
    name, args = drop(wanted[1])
    scripted_openai.smart = caller_then_quoter(name, args)
    said = _ask(repo, scripted_openai, tmp_path, case.text, "off")
    assert not (why := _wrong(case, said, truths[cid])), f"{why}: {said}"


WRONG_METRIC = [c for c in UNFIT if c.call is not None and c.metric != "qubit_frequency"]


@pytest.mark.parametrize("case", WRONG_METRIC, ids=[c.id for c in WRONG_METRIC])
def test_a_models_filter_putting_the_limit_on_a_metric_that_cannot_hold_it_is_not_answered(case, truths, repo,
                                                                                          scripted_openai, tmp_path):
    """Router off: the model filters the metric written next to the unfit limit on it, as a number of its unit."""
    value = float(case.said.split()[0].rstrip("%"))
    scripted_openai.smart = caller_then_quoter("filter_metric", {"chip_id": case.chip, "metric_name": case.metric,
                                                                 "above": value})
    said = _ask(repo, scripted_openai, tmp_path, case.text, "off")
    assert CANNOT in said and case.said in said, said
    assert f"{case.metric} above {value:g}" not in said, said
