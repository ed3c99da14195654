"""Questions over a run of qubits or with qubits left out, through the page's path (``Copilot.ask``, the real openai
SDK against the scripted server): what the person reads states the number over that set (hand-computed in
``tests/dev_ranges15.py`` from hand-written pymongo reads), names the set, and never says a coupling is missing."""

from __future__ import annotations

import re

import pytest

from tests import dev_ranges15 as dev
from tests.agent.page_turn import SMALL, asked_on_small, page_turn, shown
from tests.fakes.scripted_models import caller_then_quoter, quoter

_NO_COUPLING = re.compile(r"no such coupling|not neighbours|does not exist", re.I)


def _label(q: int, chip: str) -> str:
    return f"Q{q:03d}" if chip.startswith("144") else f"Q{q:02d}"


def stated(value: float | list[int], said: str, asked: dev.Asked) -> bool:
    """``said`` states the hand-computed figure: a number to the places shown, or the top / bottom qubits in order."""
    if isinstance(value, list):
        listed = said.split(": ", 1)[-1]  # after "the highest 3:", past the set's own name
        places = [listed.find(_label(q, asked.chip)) for q in value]
        return -1 not in places and places == sorted(places)
    if asked.what in ("count", "both"):
        return re.search(rf"\b{int(value)} of \d+ qubits", said) is not None
    if asked.what == "pearson":
        return f"r = {value:.2f}" in said or f"r = {value:.3f}" in said
    return any(f"{value:.{p}f}" in said for p in (1, 2, 3))


def names_the_set(said: str, asked: dev.Asked) -> bool:
    ok = True
    if asked.qubits is not None:
        ok = f"{_label(asked.qubits[0], asked.chip)} to {_label(asked.qubits[-1], asked.chip)}" in said
    if asked.left_out:
        ok = ok and "leaving out " + _label(asked.left_out[0], asked.chip) in said
    return ok


@pytest.mark.parametrize("asked", dev.QUESTIONS, ids=lambda a: a.id)
def test_the_routed_turn_answers_over_the_set_asked(asked, demo_db, repo, scripted_openai, tmp_path):
    scripted_openai.smart = quoter
    said = shown(page_turn(repo, scripted_openai, tmp_path, asked.text, SMALL))
    value = dev.truth(demo_db, asked)
    assert stated(value, said, asked), (value, said)
    assert names_the_set(said, asked), said
    assert not _NO_COUPLING.search(said), said
    assert "was replaced" not in said, said  # the tool's own right list is never marked as the model's wrong one
    assert "not restricted" not in said, said


@pytest.mark.parametrize("asked", [a for a in dev.QUESTIONS if a.tool != "filter_metrics"][::3], ids=lambda a: a.id)
def test_a_models_call_over_the_whole_chip_is_held_to_the_set(asked, demo_db, repo, scripted_openai, tmp_path):
    """The router off: the model calls the tool with no set at all; the turn runs it over the set the question
    writes."""
    plan_args: dict = {"chip_id": asked.chip}
    if asked.tool == "correlate_metrics":
        plan_args |= {"metric_a": asked.metric, "metric_b": asked.second[0] if asked.second else ""}
    else:
        plan_args["metric_name"] = asked.metric
    if asked.tool == "rank_metric":
        plan_args |= {"order": "highest" if asked.what == "top" else "lowest", "n": asked.n}
    if asked.tool == "metric_spread":
        plan_args["lead"] = asked.what
    if asked.tool == "filter_metric":
        plan_args["above"] = asked.above
    scripted_openai.smart = caller_then_quoter(asked.tool, plan_args)
    said = asked_on_small(repo, scripted_openai, tmp_path, asked.text, "off")
    assert stated(dev.truth(demo_db, asked), said, asked), said
    assert names_the_set(said, asked), said
    assert not _NO_COUPLING.search(said), said


@pytest.mark.parametrize(("text", "named"), [("Compare the T1 spread of Q0 to Q15 on both chips", "Q00 to Q15"),
                                             ("What is the average T1 except Q5?", "leaving out Q05")])
def test_a_figure_the_set_cannot_reach_is_said_to_be_over_the_whole_chip(text, named, repo, scripted_openai,
                                                                         tmp_path):
    """Calls that take no set of qubits (two chips, a chip summary): the answer says its figures are
    over the whole chip, naming the set as the chip's tables label its qubits, and never that a coupling is
    missing."""
    scripted_openai.smart = quoter
    said = shown(page_turn(repo, scripted_openai, tmp_path, text, SMALL))
    assert "not restricted to that set" in said, said
    assert f"({named})" in said, said
    assert not _NO_COUPLING.search(said), said
