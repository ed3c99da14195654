"""The parse and the route of complete and incomplete dev questions (``tests/dev_runaway17.py``): a question that names
its chip and the metrics its shape needs has a call the turn makes and offers no ``ask_user``; a correlation's call
is ``correlate_metrics`` on the two metrics named; an incomplete question may still be asked back."""

from __future__ import annotations

import pytest

from copilot_core.agent.lookups import fallback_plan
from copilot_core.language.question import parse
from copilot_core.routing.clarify import clarify_first, may_ask
from copilot_core.tools.registry import TOOLS
from tests import dev_runaway17 as dev
from tests.public_eval import CHIP, OTHER

CHIPS = [CHIP, OTHER]
NAMES = [t.name for t in TOOLS]


def _planned(text: str, chip: str):
    return fallback_plan(text, chip_id=chip, qid=None, available=NAMES, chips=CHIPS)


@pytest.mark.parametrize("asked", dev.COMPLETE, ids=lambda a: a.text[:40])
def test_a_complete_question_has_its_call_and_is_never_asked_back(asked):
    question = parse(asked.text, CHIPS)
    planned = _planned(asked.text, asked.chip)
    assert planned is not None, asked.text
    assert not may_ask(question, chip_id=CHIP, chips=CHIPS, planned=True), asked.text
    assert clarify_first(asked.text, chips=CHIPS, chip_in_view=CHIP, history=[]) is None, asked.text
    if asked.pair is not None:
        assert planned.name == "correlate_metrics", (asked.text, planned)
        assert {planned.args["metric_a"], planned.args["metric_b"]} == set(asked.pair), planned.args
        assert planned.args["chip_id"] == asked.chip, planned.args


@pytest.mark.parametrize("asked", dev.INCOMPLETE, ids=lambda a: a.text[:40])
def test_an_incomplete_question_may_be_asked_back(asked):
    question = parse(asked.text, CHIPS)
    planned = _planned(asked.text, asked.chip) is not None
    assert may_ask(question, chip_id=CHIP, chips=CHIPS, planned=planned) or \
        clarify_first(asked.text, chips=CHIPS, chip_in_view=CHIP, history=[]) is not None, asked.text
