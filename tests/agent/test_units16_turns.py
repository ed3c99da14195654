"""Limits in any notation and answers in the unit asked, through the page's path (``Copilot.ask``, the real openai
SDK against the scripted server): what the person reads states the figure hand-computed in ``tests/dev_units16.py``
(hand-written pymongo reads), a value asked in another unit is written in that unit, a model's figure in the unit
asked is kept when right and marked when wrong, and a limit of another quantity is said to be one."""

from __future__ import annotations

import re

import pytest

from tests import dev_units16 as dev
from tests.agent.page_turn import SMALL, asked_on_small, page_turn, shown
from tests.fakes.scripted_models import quoter
from tests.fakes.scripted_openai import text

REPLACED = "was replaced by one computed from the tool results"
NOTE = "Note: this"


def stated(value: float, said: str, asked: dev.Asked) -> bool:
    """``said`` states the hand-computed figure: a count as "N of M", a share or a statistic to the places shown
    (in the unit asked, with that unit after it)."""
    if asked.what in ("count", "both"):
        return re.search(rf"\b{int(value)} of \d+ qubits", said) is not None
    unit = re.escape("%" if asked.what == "share" else asked.unit)
    for places in range(0, 6):
        if len(f"{value:.{places}f}".replace(".", "").strip("-0")) < 3:
            continue  # "1" is no statement of 0.9541: three significant digits at least
        written = re.escape(f"{value:.{places}f}")
        if re.search(rf"(?<![\d.]){written}(?![\d])" + (rf"\s?{unit}" if unit else r"(?![\d.]*\s?%)"), said):
            return True
    return False


@pytest.mark.parametrize("asked", dev.QUESTIONS, ids=lambda a: a.id)
def test_the_routed_turn_states_the_figure_in_the_unit_asked(asked, demo_db, repo, scripted_openai, tmp_path):
    scripted_openai.smart = quoter
    said = shown(page_turn(repo, scripted_openai, tmp_path, asked.text, SMALL))
    value = dev.truth(demo_db, asked)
    assert stated(value, said, asked), (value, said)
    assert REPLACED not in said and NOTE not in said, said


@pytest.mark.parametrize("text_", dev.UNFIT)
def test_a_limit_of_another_quantity_is_said_to_be_one(text_, repo, scripted_openai, tmp_path):
    scripted_openai.smart = quoter
    said = shown(page_turn(repo, scripted_openai, tmp_path, text_, SMALL))
    assert re.search(r"\d+ of \d+ qubits", said) is None and "so it cannot be a limit of" in said, said


def _writes(words: str):
    def reply(request):
        return text(words)
    return reply


_MEDIAN_MHZ = next(a for a in dev.QUESTIONS if a.id == "u1")
_FRACTION = next(a for a in dev.QUESTIONS if a.id == "u4")


@pytest.mark.parametrize("asked, written", [(_MEDIAN_MHZ, "The median qubit frequency is {:.1f} MHz."),
                                            (_FRACTION, "Q12's readout fidelity is {:.4f} as a fraction.")],
                         ids=["mhz", "fraction"])
def test_a_models_figure_in_the_unit_asked_is_kept_when_right(asked, written, demo_db, repo, scripted_openai,
                                                             tmp_path):
    right = written.format(dev.truth(demo_db, asked))
    scripted_openai.smart = _writes(right)
    said = asked_on_small(repo, scripted_openai, tmp_path, asked.text, "on")
    assert said.startswith(right) and REPLACED not in said and NOTE not in said, said


@pytest.mark.parametrize("asked, written, off", [(_MEDIAN_MHZ, "The median qubit frequency is {:.1f} MHz.", 37.0),
                                                 (_FRACTION, "Q12's readout fidelity is {:.4f} as a fraction.", 0.031)],
                         ids=["mhz", "fraction"])
def test_a_models_wrong_figure_in_the_unit_asked_is_never_shown_bare(asked, written, off, demo_db, repo,
                                                                    scripted_openai, tmp_path):
    wrong = written.format(dev.truth(demo_db, asked) + off)
    scripted_openai.smart = _writes(wrong)
    said = asked_on_small(repo, scripted_openai, tmp_path, asked.text, "on")
    assert not said.startswith(wrong) or REPLACED in said or NOTE in said, said
    assert stated(dev.truth(demo_db, asked), said, asked), said
    assert "Not answered" not in said, said  # a value asked as a fraction is no share asked
