"""The statistic and the quantity asked, through the page's path (``Copilot.ask``, the real openai SDK against the
scripted server): what the person reads states the figure hand-computed in ``tests/dev_statistic17.py``
(hand-written pymongo reads) for the quantity asked (a gate's time, not its fidelity), the statistic asked (a
spread, a mean, a minimum, never a median in its place), every one of the N a superlative of time asks for, and a
value in the unit asked."""

from __future__ import annotations

import re
import statistics

import pytest

from tests import dev_statistic17 as dev
from tests.agent.page_turn import SMALL, asked_on_small, page_turn, shown
from tests.dev_compound12 import latest
from tests.fakes.scripted_models import quoter
from tests.fakes.scripted_openai import text

REPLACED = "was replaced by one computed from the tool results"


def _written(value: float) -> list[str]:
    """The ways the answer may write ``value``: to 0-8 places with two significant digits at least, or in
    scientific notation."""
    out = [f"{value:.{p}f}" for p in range(0, 9) if len(f"{value:.{p}f}".replace(".", "").lstrip("-0")) >= 2]
    return out + [f"{value:.{p}e}".replace("e-0", "e-") for p in range(2, 5)]


def states(value: float, said: str) -> bool:
    return any(re.search(rf"(?<![\d.]){re.escape(w)}(?!\d)", said) for w in _written(value))


@pytest.mark.parametrize("asked", dev.QUESTIONS, ids=lambda a: a.id)
def test_the_routed_turn_states_the_figure_asked(asked, demo_db, repo, scripted_openai, tmp_path):
    scripted_openai.smart = quoter
    said = shown(page_turn(repo, scripted_openai, tmp_path, asked.text, SMALL))
    wanted = dev.truth(demo_db, asked)
    assert all(states(v, said) for v in wanted), (wanted, said)
    assert REPLACED not in said and "does not state" not in said, said
    if asked.metric == dev.ZXT:
        assert "fidelity" not in said.lower(), said
    if asked.what in ("spread", "chips"):
        assert "median" not in said.lower() and dev.STAT_NAMED[str(asked.stat)].lower() in said.lower(), said
    if asked.what == "none":
        assert "fidelity" not in said.lower() and re.search(r"\d+(\.\d+)?\s?%", said) is None, said


def _writes(words: str):
    def reply(request):
        return text(words)
    return reply


def _by_id(qid: str) -> dev.Asked:
    return next(a for a in dev.QUESTIONS if a.id == qid)


def _median(db, chip: str, metric: str) -> float:
    return statistics.median(dev.values(db, chip, metric).values())


@pytest.mark.parametrize("qid", ["d6", "d7", "d11", "f5"])
def test_a_models_median_for_a_spread_is_never_shown_as_the_answer(qid, demo_db, repo, scripted_openai, tmp_path):
    asked = _by_id(qid)
    median = _median(demo_db, asked.chip, asked.metric)
    scripted_openai.smart = _writes(f"The median {asked.metric} on {asked.chip} is {median:.1f}.")
    said = asked_on_small(repo, scripted_openai, tmp_path, asked.text, "on")
    assert all(states(v, said) for v in dev.truth(demo_db, asked)), said
    assert not said.startswith("The median"), said


@pytest.mark.parametrize("qid", ["d12", "d13", "f7"])
def test_a_models_medians_for_a_chip_spread_are_never_shown_bare(qid, demo_db, repo, scripted_openai, tmp_path):
    asked = _by_id(qid)
    a, b = (_median(demo_db, chip, asked.metric) for chip in asked.chips)
    scripted_openai.smart = _writes(f"The median {asked.metric} is {a:.1f} on {asked.chips[0]} and {b:.1f} on "
                                    f"{asked.chips[1]}.")
    said = asked_on_small(repo, scripted_openai, tmp_path, asked.text, "on")
    assert all(states(v, said) for v in dev.truth(demo_db, asked)), said
    assert not said.startswith("The median") or "Note" in said, said


@pytest.mark.parametrize("qid", ["d18", "d20", "f2", "f8"])
def test_one_value_for_a_superlative_of_n_is_replaced_by_the_n(qid, demo_db, repo, scripted_openai, tmp_path):
    asked = _by_id(qid)
    first = dev.truth(demo_db, asked)[0]
    scripted_openai.smart = _writes(f"The answer is {first:.1f}.")
    said = asked_on_small(repo, scripted_openai, tmp_path, asked.text, "on")
    assert all(states(v, said) for v in dev.truth(demo_db, asked)), said


@pytest.mark.parametrize("qid", ["d1", "d2", "d3", "f1"])
def test_a_fidelity_for_a_gate_time_is_never_shown_bare(qid, demo_db, repo, scripted_openai, tmp_path):
    asked = _by_id(qid)
    fidelity = latest(demo_db, asked.chip, "zx90_gate_fidelity", "coupling")[str(asked.subject)]
    scripted_openai.smart = _writes(f"The ZX90 gate fidelity of {asked.subject} is {fidelity:.2f}%.")
    said = asked_on_small(repo, scripted_openai, tmp_path, asked.text, "on")
    assert states(dev.truth(demo_db, asked)[0], said), said


@pytest.mark.parametrize("qid", ["d23", "d24", "f6"])
def test_a_models_value_in_the_unit_asked_is_kept_when_right(qid, demo_db, repo, scripted_openai, tmp_path):
    asked = _by_id(qid)
    value = dev.truth(demo_db, asked)[0]
    unit = "s" if asked.factor == 1e-6 else "ms"
    right = f"Q{asked.subject}'s {asked.metric} on {asked.chip} is {value:.7f} {unit}."
    scripted_openai.smart = _writes(right)
    said = asked_on_small(repo, scripted_openai, tmp_path, asked.text, "on")
    assert said.startswith(right) and REPLACED not in said and "Note" not in said, said
