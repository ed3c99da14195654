"""The questions of ``tests/dev_errors15.py`` (an error held to a number) on the page's path (``Copilot.ask``, a
small model's name, 64Qv3 in view) against the scripted OpenAI-compatible server, through the real openai SDK.

What the person reads: exactly the subjects whose error (a pymongo read, judged in the error's terms) meets the
limit, their count, and the limit in their own words with the fidelity's beside it; a yes/no led by the data's
answer.  A model that states a count of its own after the filter: a wrong one (0, or one off) is corrected or
marked, never kept silently; the right one is kept with no mark.  A value said as an error is held to the fidelity's
complement.
"""

from __future__ import annotations

import re

import pytest

from tests.agent.page_turn import asked_on_small as _ask
from tests.agent.test_compound11_turns import _wrong
from tests.dev_compound12 import latest, truth
from tests.dev_errors15 import AFTER, AFTER_ASKED, BEFORE, CASES, VERDICTS, err
from tests.fakes.scripted_models import quoter, silent
from tests.fakes.scripted_openai import call, text
from tests.public_eval import CHIP

BY_ID = {c.id: c for c in CASES}


@pytest.fixture(scope="module")
def truths(demo_db) -> dict[str, set[str]]:
    return {c.id: truth(demo_db, c) for c in CASES}


def _says_both(said: str, text: str) -> bool:
    """The answer names the error limit as written and the fidelity it was read as."""
    return "fidelity" in said and bool(re.search(r"error|infidelity|misassignment|one minus", said, re.I)) and \
        "Read on the fidelity" in said


@pytest.mark.parametrize("model", ["quoter", "silent"])
def test_every_error_filter_lists_the_subjects_whose_error_meets_the_limit(model, truths, repo, scripted_openai,
                                                                          tmp_path):
    scripted_openai.smart = {"silent": silent, "quoter": quoter}[model]
    wrong = []
    for case in (BEFORE + AFTER)[::2] if model == "silent" else BEFORE + AFTER:
        said = _ask(repo, scripted_openai, tmp_path, case.text, "on")
        why = _wrong(case, said, truths[case.id])  # type: ignore[arg-type]
        if not _says_both(said, case.text):
            why.append("does not say the error limit with its fidelity")
        if why:
            wrong.append(f"{case.id}: {why}: {said[:400]}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("asked", VERDICTS + AFTER_ASKED[1:], ids=lambda a: a.id)
def test_a_yes_no_on_an_error_is_led_by_the_datas_answer(asked, demo_db, repo, scripted_openai, tmp_path):
    value = latest(demo_db, asked.chip, asked.metric, "qubit")[str(asked.qid)]
    assert value is not None
    expected = "Yes" if asked.test(value) else "No"
    scripted_openai.smart = quoter
    said = _ask(repo, scripted_openai, tmp_path, asked.text, "on")
    assert said.lstrip("*").startswith(expected), (expected, err(value), said)


_ASKED = BY_ID["e15-ro-pct-t1"]


def _counter(stated: str):
    """A model that makes the whole filter call, then answers with a count of its own words and no list."""
    def reply(request):
        if request.has_tools and not request.tool_results:
            return call(_ASKED.call[0], {"chip_id": CHIP, **_ASKED.call[1]})
        return text(f"{stated} qubits have a readout error below 4% and a T1 above 40 us.")
    return reply


@pytest.mark.parametrize("off", [None, 0, 1, -1], ids=["zero", "right", "one-more", "one-fewer"])
def test_a_count_in_the_models_words_is_held_to_the_filters_count(off, truths, repo, scripted_openai, tmp_path):
    right = len(truths[_ASKED.id])
    stated = 0 if off is None else right + off
    scripted_openai.smart = _counter(str(stated))
    said = _ask(repo, scripted_openai, tmp_path, _ASKED.text, "off")
    marked = "not checked" in said or "Corrected" in said or "does not support" in said or "Note" in said
    if stated == right:
        assert f"{right} qubits" in said and not marked, said
    else:
        assert marked or f"{stated} qubits have" not in said, said
        assert str(right) in said, said


def test_a_count_said_of_a_filter_nobody_ran_is_marked(repo, scripted_openai, tmp_path):
    """No filter call at all: the model's count has no fact in the ledger to hold it."""
    scripted_openai.smart = lambda request: text("7 qubits have a readout error below 4% and a T1 above 40 us.")
    said = _ask(repo, scripted_openai, tmp_path, _ASKED.text, "off")
    assert "7 qubits have" not in said or "not checked" in said, said


def _error_writer(written: str):
    def reply(request):
        if request.has_tools and not request.tool_results:
            return call("get_qubit_params", {"chip_id": CHIP, "qid": "5"})
        return text(f"Q05's readout error is {written} %.")
    return reply


@pytest.mark.parametrize("right", [True, False], ids=["complement", "fidelity-called-error"])
def test_a_value_said_as_an_error_is_the_fidelitys_complement(right, demo_db, repo, scripted_openai, tmp_path):
    fidelity = latest(demo_db, CHIP, "average_readout_fidelity", "qubit")["5"]
    assert fidelity is not None
    written = f"{err(fidelity):.2f}" if right else f"{fidelity:.2f}"
    scripted_openai.smart = _error_writer(written)
    said = _ask(repo, scripted_openai, tmp_path, "What is Q05's readout error?", "off")
    kept = f"readout error is {written} %" in said and "Note" not in said and "not checked" not in said
    assert kept == right, said
