"""The questions of ``tests/dev_compound11.py`` on the page's path (``Copilot.ask``, a small model's name, 64Qv3 in
view) against the scripted OpenAI-compatible server, through the real openai SDK: what the person reads.

The answer must list exactly the subjects a pymongo read finds (every one when 40 or fewer, else 40 of them), state
their count (leading with it when the question asks how many), and state every limit applied.  Router on, a quoting
and a silent model; router off, a model that answers in its own words with no call (the turn looks it up) and a
model whose filter stops at the first condition or gives a lone limit to another metric (re-made).  No notes.
"""

from __future__ import annotations

import re

import pytest

from tests import dev_compound8
from tests.agent.page_turn import asked_on_small as _ask
from tests.dev_compound11 import CASES, Case
from tests.eval_score import Truth, passed
from tests.fakes.scripted_models import caller_then_quoter, quoter, silent
from tests.fakes.scripted_openai import text
from tests.test_router_compound11 import _drop_last, _shared_lone, _wanted

LISTED = 40
_PAIR = re.compile(r"\bQ0*(\d+)\s*→\s*Q0*(\d+)")
_QUBIT = re.compile(r"\bQ0*(\d+)\b")
_FIRST_NUMBER = re.compile(r"\b\d+\b")
BY_ID = {c.id: c for c in CASES}


def _listed(said: str, kind: str) -> set[str]:
    if kind == "coupling":
        return {"-".join(sorted((a, b), key=int)) for a, b in _PAIR.findall(said)}
    return set(_QUBIT.findall(_PAIR.sub(" ", said)))


def _conditions(case: Case) -> list[dict]:
    name, args = case.call
    return list(args["conditions"]) if name == "filter_metrics" else [args]


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
    lead = _FIRST_NUMBER.search(_QUBIT.sub(" ", said.split(".")[0]))
    if case.count and (lead is None or int(lead.group()) != len(truth)):
        out.append(f"does not lead with the count {len(truth)}")
    for condition in _conditions(case):
        metric = condition["metric_name"]
        if metric not in said or any(f"{condition[s]:g}" not in said for s in ("below", "above") if s in condition):
            out.append(f"does not state the condition on {metric}")
    if "Note:" in said:
        out.append("carries a note")
    return out


@pytest.fixture(scope="module")
def truths(demo_db) -> dict[str, set[str]]:
    return {c.id: dev_compound8.truth(demo_db, c) for c in CASES}


@pytest.mark.parametrize("model", ["quoter", "silent"])
def test_the_router_answers_every_compound_question_whole(model, truths, repo, scripted_openai, tmp_path):
    scripted_openai.smart = {"silent": silent, "quoter": quoter}[model]
    wrong = []
    for case in CASES:
        said = _ask(repo, scripted_openai, tmp_path, case.text, "on")
        if why := _wrong(case, said, truths[case.id]):
            wrong.append(f"{case.id}: {why}: {said[:300]}")
    assert not wrong, "\n".join(wrong)


NO_CALL = ("c11-shared-count", "c11-percent", "c11-yet", "c11-lone-1", "c11-from-to", "c11-megahertz", "c11-typo",
           "c11a-hahn", "c11a-from-pct", "c11a-lone-4", "c11a-x90-good", "c11a-relax-count", "c11a-cz-ns")


@pytest.mark.parametrize("cid", NO_CALL)
def test_a_model_answering_in_its_own_words_gets_the_filter_made(cid, truths, repo, scripted_openai, tmp_path):
    """Router off, a model that answers from thin air (one condition's qubits, no call, no count)."""
    scripted_openai.smart = lambda request: text("Q05 and Q07 meet the first condition.")
    said = _ask(repo, scripted_openai, tmp_path, BY_ID[cid].text, "off")
    assert not (why := _wrong(BY_ID[cid], said, truths[cid])), f"{why}: {said}"


WRONG_CALLS = [(cid, w) for cid in NO_CALL for w in (_drop_last, _shared_lone)
               if w(_wanted(BY_ID[cid])[1]) is not None]


@pytest.mark.parametrize(("cid", "wrong"), WRONG_CALLS, ids=[f"{c}-{w.__name__.strip('_')}" for c, w in WRONG_CALLS])
def test_a_models_filter_short_of_the_question_is_re_made(cid, wrong, truths, repo, scripted_openai, tmp_path):
    case = BY_ID[cid]
    call = wrong(_wanted(case)[1])
    assert call is not None
    scripted_openai.smart = caller_then_quoter(*call)
    said = _ask(repo, scripted_openai, tmp_path, case.text, "off")
    assert not (why := _wrong(case, said, truths[cid])), f"{why}: {said}"
