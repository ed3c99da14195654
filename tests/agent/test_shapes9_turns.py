"""The dev questions of ``tests/dev_shapes9.py`` through the page's path (``Copilot.ask``, the real openai SDK against
the scripted server over HTTP, a small model with the router on): what the person reads lists the N subjects asked
with their values, states the spread asked in the unit asked, the count and share of every condition, and the
chip-wide Pearson r of two coupling metrics.  A model that answers with the single lowest, a threshold's count, one
condition's count or "no couplings" is re-made or replaced.  Expected values are the hand-written pymongo reads of
``tests/dev_shapes9.py``."""

from __future__ import annotations

import re

import pytest

from tests.agent.page_turn import SMALL, asked_on_small, page_turn, shown
from tests.dev_shapes9 import FILTERED, RANKED, RELATED, SPREADS, label
from tests.fakes.scripted_models import caller_then_quoter
from tests.fakes.scripted_openai import text

_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def _states(said: str, value: float, tol: float) -> bool:
    return any(abs(float(n) - value) <= tol for n in _NUMBER.findall(said.replace(",", "")))


def _writes(answer: str):
    return lambda request: text(answer)


def _lists_ranking(said: str, case, db) -> bool:
    truth = case.truth(db)
    tol = 0.0051 if "fidelity" in case.metric else 0.051
    return all(label(case.chip, s) in said and _states(said, v, tol) for s, v in truth)


@pytest.mark.parametrize("case", RANKED, ids=[c.id for c in RANKED])
def test_a_model_naming_only_the_lowest_gets_the_n_asked(case, demo_db, repo, scripted_openai, tmp_path):
    first, value = case.truth(demo_db)[0]
    scripted_openai.smart = _writes(f"The {case.order} is {label(case.chip, first)} with {value:.2f}.")
    said = shown(page_turn(repo, scripted_openai, tmp_path, case.text, SMALL))
    assert _lists_ranking(said, case, demo_db), said


@pytest.mark.parametrize("case", RANKED[:4], ids=[c.id for c in RANKED[:4]])
def test_a_ranking_of_one_called_by_the_model_is_re_made(case, demo_db, repo, scripted_openai, tmp_path):
    scripted_openai.smart = caller_then_quoter("rank_metric", {**case.call[1], "n": 1})
    said = asked_on_small(repo, scripted_openai, tmp_path, case.text, "off")
    assert _lists_ranking(said, case, demo_db), said


def _spread_tol(case) -> float:
    if case.unit == "kHz":
        return 1.0
    if case.unit == "μs":
        return 0.00006
    if case.unit == "ns":
        return 0.51
    return 0.0051 if "fidelity" in case.metric else 0.051


@pytest.mark.parametrize("case", SPREADS, ids=[c.id for c in SPREADS])
def test_the_spread_asked_is_stated_in_the_unit_asked(case, demo_db, repo, scripted_openai, tmp_path):
    scripted_openai.smart = _writes("There is no data for that.")
    said = shown(page_turn(repo, scripted_openai, tmp_path, case.text, SMALL))
    assert _states(said, case.truth(demo_db), _spread_tol(case)), said
    assert "There is no data for that." not in said, said
    if case.unit:
        assert f" {case.unit}" in said, said


@pytest.mark.parametrize("case", SPREADS[:3], ids=[c.id for c in SPREADS[:3]])
def test_a_threshold_filter_for_a_spread_is_re_made(case, demo_db, repo, scripted_openai, tmp_path):
    scripted_openai.smart = caller_then_quoter("filter_metric", {"chip_id": case.chip, "metric_name": case.metric,
                                                                 "above": 50.0})
    said = asked_on_small(repo, scripted_openai, tmp_path, case.text, "off")
    assert _states(said, case.truth(demo_db), _spread_tol(case)), said


def _counts(said: str, case, db) -> bool:
    n, of = len(case.truth(db)), case.with_values(db)
    return f"{n} of {of}" in said and _states(said, round(100 * n / of, 1), 0.051)


@pytest.mark.parametrize("case", FILTERED, ids=[c.id for c in FILTERED])
def test_every_condition_reaches_the_count_and_share(case, demo_db, repo, scripted_openai, tmp_path):
    noun = "couplings" if case.kind == "coupling" else "qubits"
    scripted_openai.smart = _writes(f"There are no {noun} on the chip with that data.")
    said = shown(page_turn(repo, scripted_openai, tmp_path, case.text, SMALL))
    assert _counts(said, case, demo_db) and f"There are no {noun}" not in said, said


@pytest.mark.parametrize("case", [c for c in FILTERED if len(c.conditions) == 2][:5],
                         ids=[c.id for c in FILTERED if len(c.conditions) == 2][:5])
def test_a_filter_call_that_drops_or_mangles_a_condition_is_re_made(case, demo_db, repo, scripted_openai, tmp_path):
    for args in ({"chip_id": case.chip, **case.conditions[0]},
                 {"chip_id": case.chip, "conditions": "both limits", "join": "and"}):
        name = "filter_metric" if "metric_name" in args else "filter_metrics"
        scripted_openai.smart = caller_then_quoter(name, args)
        said = asked_on_small(repo, scripted_openai, tmp_path, case.text, "off")
        assert _counts(said, case, demo_db) and "could not be computed" not in said, said


@pytest.mark.parametrize("case", RELATED, ids=[c.id for c in RELATED])
def test_two_coupling_metrics_get_the_chip_wide_pearson_r(case, demo_db, repo, scripted_openai, tmp_path):
    r, n = case.truth(demo_db)
    scripted_openai.smart = _writes("Q04-Q01 has a value of 0.02, so they are unrelated.")
    said = shown(page_turn(repo, scripted_openai, tmp_path, case.text, SMALL))
    assert f"r = {r:.2f}" in said and f"{n} couplings" in said and "does not hold" not in said, said
