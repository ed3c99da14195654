"""The questions of ``tests/dev_compound8.py`` (two or more conditions) on the page's path (``Copilot.ask``, a small
model's name, clarification on, memory off, 64Qv3 in view) against the scripted OpenAI-compatible server, through the
real openai SDK: what the person reads.

The answer must list exactly the subjects a pymongo read finds (every one when 40 or fewer, else 40 of them and the
rest counted), state their count, and state every condition applied with its join.  Router on, a quoting and a
silent model; router off, a model whose own filter drops, turns or re-joins a condition (re-made as the question
reads it), and a model that writes no call at all (the turn looks it up).  None of them may carry a note.
"""

from __future__ import annotations

import re

import pytest

from tests import dev_compound8
from tests.agent.page_turn import asked_on_small as _ask
from tests.dev_compound8 import CASES, Case
from tests.eval_score import Truth, passed
from tests.fakes.scripted_models import caller_then_quoter, quoter, silent
from tests.fakes.scripted_openai import text
from tests.test_router_compound8 import _drop_one, _rejoined, _turned, _wanted

NOTE = "Note:"
LISTED = 40  # ids the filter's sentence writes out
_PAIR = re.compile(r"\bQ0*(\d+)\s*→\s*Q0*(\d+)")
_QUBIT = re.compile(r"\bQ0*(\d+)\b")
BY_ID = {c.id: c for c in CASES}


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
    for condition in case.call[1]["conditions"]:
        metric = condition["metric_name"]
        limits = [f"{condition[s]:g}" for s in ("below", "above") if s in condition]
        if metric not in said or any(limit not in said for limit in limits) or \
                not limits and f"no valid {metric}" not in said:
            out.append(f"does not state the condition on {metric}")
    if case.join == "or" and " or " not in said or case.join == "and" and " and " not in said:
        out.append(f"does not state the join {case.join!r}")
    if NOTE in said:
        out.append("carries a note")
    return out


@pytest.fixture(scope="module")
def truths(demo_db) -> dict[str, set[str]]:
    return {c.id: dev_compound8.truth(demo_db, c) for c in CASES}


@pytest.mark.parametrize("model", ["quoter", "silent"])
def test_the_router_answers_every_compound_question_with_every_condition(model, truths, repo, scripted_openai,
                                                                         tmp_path):
    scripted_openai.smart = {"silent": silent, "quoter": quoter}[model]
    wrong = []
    for case in CASES:
        said = _ask(repo, scripted_openai, tmp_path, case.text, "on")
        if why := _wrong(case, said, truths[case.id]):
            wrong.append(f"{case.id}: {why}: {said[:300]}")
    assert not wrong, "\n".join(wrong)


WRONG_CALLS = [(cid, wrong) for cid in ("c8-and-1", "c8-butnot-1", "c8-excl-1", "c8-either-1", "c8-three-1",
                                        "c8-cz-1", "c8-status-1", "c8-ormore-1", "c8-other-but", "c8-other-butnot",
                                        "c8-other-status", "c8-other-cz")
               for wrong in (_drop_one, _turned, _rejoined)]


@pytest.mark.parametrize(("cid", "wrong"), WRONG_CALLS, ids=[f"{c}-{w.__name__.strip('_')}" for c, w in WRONG_CALLS])
def test_a_models_filter_missing_a_condition_is_re_made(cid, wrong, truths, repo, scripted_openai, tmp_path):
    """Router off: only the model's own call, which drops, turns or re-joins a condition."""
    case = BY_ID[cid]
    name, args = wrong(_wanted(case)[1])
    scripted_openai.smart = caller_then_quoter(name, args)
    said = _ask(repo, scripted_openai, tmp_path, case.text, "off")
    assert not (why := _wrong(case, said, truths[cid])), f"{why}: {said}"


NO_CALL = ("c8-and-1", "c8-butnot-1", "c8-either-1", "c8-three-1", "c8-cz-1", "c8-status-1", "c8-other-excl",
           "c8-other-among")


@pytest.mark.parametrize("cid", NO_CALL)
def test_a_model_that_writes_no_call_gets_the_compound_filter_looked_up(cid, truths, repo, scripted_openai,
                                                                         tmp_path):
    """Router off, a model that answers from thin air (one condition's qubits, no call): the turn makes the call."""
    case = BY_ID[cid]
    scripted_openai.smart = lambda request: text("Q05 and Q07 meet the first condition.")
    said = _ask(repo, scripted_openai, tmp_path, case.text, "off")
    truth = truths[cid]
    assert not (why := _wrong(case, said, truth)), f"{why}: {said}"
