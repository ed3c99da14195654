"""The dev questions of ``tests/dev_topn11.py`` through the page's path (``Copilot.ask``, the real openai SDK against
the scripted server over HTTP, a small model): what the person reads lists the N subjects asked with their values
from the asked end, and states the spread asked (both ends of a range).  A model that answers with the single lowest
(in its own words, or from a ranking of one it called) or with one value of a spread is re-made from the router's
call, never kept.  Expected values are the hand-written pymongo reads of ``tests/dev_topn11.py``."""

from __future__ import annotations

import re

import pytest

from tests.agent.page_turn import SMALL, asked_on_small, page_turn, shown
from tests.dev_shapes9 import label
from tests.dev_topn11 import RANKED, RANKED_AFTER, RANKED_BEFORE, SPREADS, SPREADS_AFTER, SPREADS_BEFORE
from tests.fakes.scripted_models import caller_then_quoter
from tests.fakes.scripted_openai import call, text

_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def _states(said: str, value: float, tol: float) -> bool:
    return any(abs(float(n) - value) <= tol for n in _NUMBER.findall(said.replace(",", "")))


def _tol(case) -> float:
    if getattr(case, "unit", None) == "MHz":
        return 0.051
    return 0.0051 if "fidelity" in case.metric else 0.051


def _lists_ranking(said: str, case, db) -> bool:
    """Every one of the N values of the asked end, and every subject past the N-th value named (a tie at the N-th
    may be any of the tied subjects)."""
    truth = case.truth(db)
    edge = truth[-1][1]
    unit = _UNITS.get(case.metric, "%")  # each value with its unit
    return all(_states(said, v, _tol(case)) and (v == edge or label(case.chip, s) in said) for s, v in truth) and \
        said.count(unit) >= case.n


_UNITS = {"t1": " μs", "t2_echo": " μs", "zx90_gate_time": " ns", "qubit_frequency": " GHz"}


def _single(case, db) -> str:
    first, value = case.truth(db)[0]
    return f"The {case.order} {case.metric} is {label(case.chip, first)} with {value:.2f}."


def _writes(answer: str):
    return lambda request: text(answer)


def _caller_then_writer(name: str, args: dict, answer: str):
    """Calls as asked, then writes its own answer (not the tool's sentence)."""
    def reply(request):
        if request.has_tools and not request.tool_results:
            return call(name, args)
        return text(answer)
    return reply


@pytest.mark.parametrize("case", RANKED, ids=[c.id for c in RANKED])
def test_a_model_naming_only_the_lowest_gets_the_n_asked(case, demo_db, repo, scripted_openai, tmp_path):
    scripted_openai.smart = _writes(_single(case, demo_db))
    said = shown(page_turn(repo, scripted_openai, tmp_path, case.text, SMALL))
    assert _lists_ranking(said, case, demo_db), said


@pytest.mark.parametrize("case", [*RANKED_BEFORE[:3], *RANKED_AFTER[:5]],
                         ids=[c.id for c in [*RANKED_BEFORE[:3], *RANKED_AFTER[:5]]])
def test_a_ranking_of_one_called_by_the_model_is_re_made(case, demo_db, repo, scripted_openai, tmp_path):
    scripted_openai.smart = caller_then_quoter("rank_metric", {**case.call[1], "n": 1})
    said = asked_on_small(repo, scripted_openai, tmp_path, case.text, "off")
    assert _lists_ranking(said, case, demo_db), said


@pytest.mark.parametrize("case", [*RANKED_BEFORE[3:7], *RANKED_AFTER[5:]],
                         ids=[c.id for c in [*RANKED_BEFORE[3:7], *RANKED_AFTER[5:]]])
def test_the_right_call_with_a_one_item_answer_is_replaced(case, demo_db, repo, scripted_openai, tmp_path):
    single = _single(case, demo_db)
    scripted_openai.smart = _caller_then_writer("rank_metric", case.call[1], single)
    said = asked_on_small(repo, scripted_openai, tmp_path, case.text, "off")
    assert _lists_ranking(said, case, demo_db) and single not in said, said


def _states_spread(said: str, case, db) -> bool:
    if not _states(said, case.truth(db), _tol(case)):
        return False
    low, high = case.ends(db)  # a range is stated with both its ends
    return case.stat != "range" or (_states(said, low, _tol(case)) and _states(said, high, _tol(case)))


@pytest.mark.parametrize("case", SPREADS, ids=[c.id for c in SPREADS])
def test_a_one_value_answer_to_a_spread_is_re_made(case, demo_db, repo, scripted_openai, tmp_path):
    _, high = case.ends(demo_db)
    unit = case.unit or _UNITS.get(case.metric, "%").strip()
    own = f"The highest {case.metric} on {case.chip} is {high:.2f} {unit}."
    scripted_openai.smart = _writes(own)
    said = shown(page_turn(repo, scripted_openai, tmp_path, case.text, SMALL))
    assert _states_spread(said, case, demo_db) and own not in said, said
    if case.unit:
        assert f" {case.unit}" in said, said


@pytest.mark.parametrize("case", [*SPREADS_BEFORE[:3], *SPREADS_AFTER[:3]],
                         ids=[c.id for c in [*SPREADS_BEFORE[:3], *SPREADS_AFTER[:3]]])
def test_a_ranking_of_one_called_for_a_spread_is_re_made(case, demo_db, repo, scripted_openai, tmp_path):
    scripted_openai.smart = caller_then_quoter("rank_metric", {"chip_id": case.chip, "metric_name": case.metric,
                                                               "order": "highest", "n": 1})
    said = asked_on_small(repo, scripted_openai, tmp_path, case.text, "off")
    assert _states_spread(said, case, demo_db), said
