"""The questions of ``tests/dev_compound12.py`` on the page's path (``Copilot.ask``, a small model's name, 64Qv3 in
view) against the scripted OpenAI-compatible server, through the real openai SDK: what the person reads.

The answer must list exactly the subjects a pymongo read finds (every one when 40 or fewer, else 40 of them), state
their count (leading with it when the question asks how many), a share question's percentage of those with a value,
and every limit applied; no note.  Router on, a quoting and a silent model; router off, a model that answers in its
own words with no call (a list, or a share, "not checked"), and a model whose call summarises every subject, drops
the limits, keeps the first condition only, or counts the other side of each limit (re-made).
"""

from __future__ import annotations

import pytest

from tests.agent.page_turn import asked_on_small as _ask
from tests.agent.test_compound11_turns import _wrong as _wrong11
from tests.dev_compound12 import CASES, Case, judged, truth
from tests.fakes.scripted_models import caller_then_quoter, quoter, silent
from tests.fakes.scripted_openai import text
from tests.test_router_compound12 import WRONGS, _wanted

BY_ID = {c.id: c for c in CASES}


def _wrong(case: Case, said: str, found: set[str], with_value: int) -> list[str]:
    """Why ``said`` is not what the person must read for ``case`` (empty: it is)."""
    out = _wrong11(case, said, found)  # type: ignore[arg-type]
    share = f"{100.0 * len(found) / with_value:.1f}%"
    if case.share and share not in said:
        out.append(f"does not state the share {share}")
    return out


@pytest.fixture(scope="module")
def truths(demo_db) -> dict[str, tuple[set[str], int]]:
    return {c.id: (truth(demo_db, c), judged(demo_db, c)) for c in CASES}


@pytest.mark.parametrize("model", ["quoter", "silent"])
def test_the_router_answers_every_question_whole(model, truths, repo, scripted_openai, tmp_path):
    scripted_openai.smart = {"silent": silent, "quoter": quoter}[model]
    wrong = []
    for case in CASES:
        said = _ask(repo, scripted_openai, tmp_path, case.text, "on")
        if why := _wrong(case, said, *truths[case.id]):
            wrong.append(f"{case.id}: {why}: {said[:300]}")
    assert not wrong, "\n".join(wrong)


def _own_list(case: Case) -> str:
    kind = "Couplings" if case.kind == "coupling" else "Qubits"
    return f"{kind} meeting those conditions: Q16, Q17, Q20 and Q21 (not checked)."


def _own_share(case: Case) -> str:
    kind = "couplings" if case.kind == "coupling" else "qubits"
    return f"No {kind} meet that limit, so the share is 0%." if case.kind == "coupling" else \
        f"About 37% of the {kind} meet that limit."


@pytest.mark.parametrize("cid", [c.id for c in CASES])
def test_a_model_answering_in_its_own_words_gets_the_filter_made(cid, truths, repo, scripted_openai, tmp_path):
    """Router off, a model that writes a list (or a share) of its own with no call."""
    case = BY_ID[cid]
    scripted_openai.smart = lambda request: text(_own_share(case) if case.share else _own_list(case))
    said = _ask(repo, scripted_openai, tmp_path, case.text, "off")
    assert not (why := _wrong(case, said, *truths[cid])), f"{why}: {said}"


WRONG_CALLS = [(c.id, w) for c in CASES for w in WRONGS if w(_wanted(c)[1]) is not None
               and (c.share or c.id.endswith(("-words-range", "-hyphen", "-assign-fid", "-cz-words", "-other-words",
                                               "-hundreds", "-point", "-ground-words", "-other-count")))]


@pytest.mark.parametrize(("cid", "wrong"), WRONG_CALLS, ids=[f"{c}-{w.__name__.strip('_')}" for c, w in WRONG_CALLS])
def test_a_models_call_short_of_the_question_is_re_made(cid, wrong, truths, repo, scripted_openai, tmp_path):
    case = BY_ID[cid]
    call = wrong(_wanted(case)[1])
    assert call is not None
    scripted_openai.smart = caller_then_quoter(*call)
    said = _ask(repo, scripted_openai, tmp_path, case.text, "off")
    assert not (why := _wrong(case, said, *truths[cid])), f"{why}: {said}"


def test_a_share_of_qubits_for_a_couplings_question_is_marked(repo, scripted_openai, tmp_path):
    """"fidelity" of couplings fits two metrics: a qubit fidelity's share cannot be re-made, so it is marked."""
    scripted_openai.smart = caller_then_quoter("filter_metric", {"chip_id": "64Qv3", "metric_name":
                                                                 "x90_gate_fidelity", "above": 96})
    said = _ask(repo, scripted_openai, tmp_path, "What share of couplings are above 96% fidelity?", "off")
    assert "Note:" in said and "asks about couplings, not qubits" in said, said
