"""The questions of ``tests/dev_compound14.py`` on the page's path (``Copilot.ask``, a small model's name, 64Qv3 in
view) against the scripted OpenAI-compatible server, through the real openai SDK: what the person reads.

Every compound question: the answer lists exactly the subjects a pymongo read finds (40 of them when more), states
their count (leading with it when asked how many) and every condition applied, with no note.  Router on (a quoting
and a silent model); router off, a model whose call drops a condition, puts the frequency limit on a metric of
another unit family, or passes a turned condition unturned (each re-made).  Every ``LOOSE`` question: the count of
the conditions bound to a metric, and a line that says which limit was not applied, on both models and on a model
that answers in its own words with no call; every ``UNCLEAR`` one: that line, whatever else is answered.
"""

from __future__ import annotations

import pytest

from tests.agent.page_turn import asked_on_small as _ask
from tests.agent.test_compound11_turns import _wrong
from tests.dev_compound12 import truth
from tests.dev_compound14 import CASES, LOOSE, UNCLEAR
from tests.fakes.scripted_models import caller_then_quoter, quoter, silent
from tests.fakes.scripted_openai import text
from tests.test_router_compound14 import WRONG, _wanted

BY_ID = {c.id: c for c in CASES}
LOOSE_BY_ID = {loose.id: loose for loose in LOOSE}


@pytest.fixture(scope="module")
def truths(demo_db) -> dict[str, set[str]]:
    return {c.id: truth(demo_db, c) for c in CASES + tuple(loose.as_case() for loose in LOOSE)}


@pytest.mark.parametrize("model", ["quoter", "silent"])
def test_the_router_answers_every_question_whole(model, truths, repo, scripted_openai, tmp_path):
    scripted_openai.smart = {"silent": silent, "quoter": quoter}[model]
    wrong = []
    for case in CASES:
        said = _ask(repo, scripted_openai, tmp_path, case.text, "on")
        if why := _wrong(case, said, truths[case.id]):  # type: ignore[arg-type]
            wrong.append(f"{case.id}: {why}: {said[:300]}")
    assert not wrong, "\n".join(wrong)


SOME_WRONG = [(c.id, w) for c, w in WRONG if c.id.endswith(("-fq-mhz", "-resonance", "-neither", "-drive",
                                                             "-three-mixed", "-neither-cz", "-count-three",
                                                             "-other-f01", "-unless-freq", "-excl-freq"))]


@pytest.mark.parametrize(("cid", "wrong"), SOME_WRONG, ids=[f"{c}-{w.__name__.strip('_')}" for c, w in SOME_WRONG])
def test_a_models_call_short_or_on_the_wrong_metric_is_re_made(cid, wrong, truths, repo, scripted_openai, tmp_path):
    case = BY_ID[cid]
    call = wrong(_wanted(case)[1])
    assert call is not None
    scripted_openai.smart = caller_then_quoter(*call)
    said = _ask(repo, scripted_openai, tmp_path, case.text, "off")
    assert not (why := _wrong(case, said, truths[cid])), f"{why}: {said}"  # type: ignore[arg-type]


def _says_unapplied(said: str, limit: str) -> bool:
    """A line of the answer names the limit that was not applied ("could not tell which metric 'above 5.1 GHz'",
    or the restate check's "a limit above 30μs of a metric it does not name clearly")."""
    plain = said.replace("μs", " us").replace("  ", " ")
    return any(limit in line.replace("μs", " us").replace("  ", " ") and ("could not tell which metric" in line or
               "does not name clearly" in line) for line in said.split("\n")) or \
        ("could not tell which metric" in plain and limit in plain)


@pytest.mark.parametrize("model", ["quoter", "silent", "own words"])
def test_a_limit_of_no_metric_read_is_said_and_the_rest_counted(model, truths, repo, scripted_openai, tmp_path):
    own = lambda request: text("Several qubits meet those conditions.")  # noqa: E731  (no call, no count)
    scripted_openai.smart = {"silent": silent, "quoter": quoter, "own words": own}[model]
    wrong = []
    for loose in LOOSE:
        said = _ask(repo, scripted_openai, tmp_path, loose.text, "on" if model != "own words" else "off")
        found = truths[loose.id]
        if not _says_unapplied(said, loose.said):
            wrong.append(f"{loose.id}: does not say '{loose.said}' was not applied: {said[-400:]}")
        if model != "own words" and f"{len(found)} of " not in said:
            wrong.append(f"{loose.id}: does not count the bound conditions ({len(found)}): {said[:200]}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("model", ["quoter", "silent"])
def test_a_limit_of_a_phrase_of_several_metrics_is_never_dropped_unsaid(model, repo, scripted_openai, tmp_path):
    scripted_openai.smart = {"silent": silent, "quoter": quoter}[model]
    wrong = []
    for question, limit in UNCLEAR:
        said = _ask(repo, scripted_openai, tmp_path, question, "on")
        if not _says_unapplied(said, limit.replace(" μs", " us")):
            wrong.append(f"{question}: does not say '{limit}' was not applied: {said[-400:]}")
    assert not wrong, "\n".join(wrong)
