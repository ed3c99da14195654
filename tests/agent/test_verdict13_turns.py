"""The questions of ``tests/dev_verdict13.py`` on the page's path (``Copilot.ask``, a small model's name, 64Qv3 in
view) against the scripted OpenAI-compatible server: what the person reads must open with the yes or no the data
gives, the value (one subject) and the limit in the metric's unit; over a chip, how many pass or fail.

Router on, a silent and a quoting model (the tools' own sentences); then models that say the wrong yes or no, or
give the value with no verdict: the answer is led by the right one and the wrong sentence is gone.
"""

from __future__ import annotations

import pytest

from tests.agent.page_turn import asked_on_small as _ask
from tests.dev_verdict13 import CASES, Case, Truth, shown, truth
from tests.fakes.scripted_models import quoter, silent
from tests.fakes.scripted_openai import text

BY_ID = {c.id: c for c in CASES}


def wrong(case: Case, said: str, t: Truth) -> list[str]:
    """Why ``said`` is not what the person must read for ``case`` (empty: it is)."""
    out = []
    if t.word is None:
        if "holds no" not in said:
            out.append("does not say the data holds no value")
        if "Yes" in said or "No:" in said or "No," in said:
            out.append("gives a verdict with no value")
        return out
    if not said.startswith(f"{t.word}:"):
        out.append(f"does not open with {t.word}")
    other = "No" if t.word == "Yes" else "Yes"
    if f"{other}:" in said or f"{other}," in said:
        out.append(f"still says {other}")
    if case.limit not in said:
        out.append(f"does not state the limit {case.limit}")
    if case.quantifier == "one" and (value := shown(case, next(iter(t.values.values())))) not in said:
        out.append(f"does not state the value {value}")
    if not case.subjects and case.quantifier == "all" and t.word == "No" and f"{t.failing} are not" not in said:
        out.append(f"does not say {t.failing} are not")
    if not case.subjects and case.quantifier == "any" and t.word == "Yes" and f"{t.passing} of the" not in said:
        out.append(f"does not say {t.passing} pass")
    return out


@pytest.fixture(scope="module")
def truths(demo_db) -> dict[str, Truth]:
    return {c.id: truth(demo_db, c) for c in CASES}


def test_every_case_has_a_truth_of_its_kind(truths):
    """The set holds yeses, noes and a value the data lacks (else a test of the words could pass on one side)."""
    words = [t.word for t in truths.values()]
    assert words.count("Yes") >= 8 and words.count("No") >= 8 and words.count(None) >= 2, words


@pytest.mark.parametrize("model", ["quoter", "silent"])
def test_the_router_answers_every_verdict(model, truths, repo, scripted_openai, tmp_path):
    scripted_openai.smart = {"silent": silent, "quoter": quoter}[model]
    bad = []
    for case in CASES:
        said = _ask(repo, scripted_openai, tmp_path, case.text, "on")
        if why := wrong(case, said, truths[case.id]):
            bad.append(f"{case.id}: {why}: {said[:300]}")
    assert not bad, "\n".join(bad)


ONE = [c.id for c in CASES if c.quantifier == "one"]


@pytest.mark.parametrize("router", ["on", "off"])
@pytest.mark.parametrize("cid", ONE)
def test_a_model_saying_the_wrong_yes_or_no_is_corrected(cid, router, truths, repo, scripted_openai, tmp_path):
    """Router on: the model reads the router's result and says the other word; off: it says it with no call."""
    case, t = BY_ID[cid], truths[cid]
    other = "No" if t.word == "Yes" else "Yes"  # no value to judge: a "Yes" must go too
    scripted_openai.smart = lambda request: text(f"{other}, it is {'not ' if other == 'No' else ''}past the limit "
                                                 f"of {case.limit}.")
    said = _ask(repo, scripted_openai, tmp_path, case.text, router)
    assert not (why := wrong(case, said, t)), f"{why}: {said}"


@pytest.mark.parametrize("cid", ONE)
def test_a_model_giving_only_the_value_gets_the_verdict(cid, truths, repo, scripted_openai, tmp_path):
    case, t = BY_ID[cid], truths[cid]
    value = next(iter(t.values.values()), None)
    written = f"The value is {shown(case, value)}." if value is not None else "Here is what I found."
    scripted_openai.smart = lambda request: text(written)
    said = _ask(repo, scripted_openai, tmp_path, case.text, "on")
    assert not (why := wrong(case, said, t)), f"{why}: {said}"
