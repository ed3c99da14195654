"""A claim the data cannot fix is never "fixed" with an empty value: with some claims fixable and some not, the
answer is replaced (a router answer exists) or each unsupported sentence is left out where it stands, with the
visible mark; no "None μs" is ever written.  The tool result and the answer are written by hand."""

from __future__ import annotations

import json

from copilot_core.answer.blocks import TextBlock
from copilot_core.checking.claims import check_claims, repair_answer
from copilot_core.checking.marks import LEFT_OUT
from copilot_core.checking.verify import checked_blocks
from copilot_core.tools.toolkit import ToolOutcome

# T1 on a chip: the lowest is Q05's 12.3 μs, the median 61.2 μs, the mean 63.0 μs.
RESULT = {"metric": "t1", "unit": "μs", "median": 61.2, "mean": 63.0, "lowest": [{"qid": "5", "value": 12.3}],
          "answer": "The lowest T1 is 12.3 μs (Q05); the median T1 is 61.2 μs."}
# One claim the data cannot fix (Q62 does not hold the lowest value: which qubit does is the claim), one it can
# (63.0 is the mean; the median is 61.2).
ANSWER = "Q62 has the lowest T1, 12.3 μs. The median T1 is 63.0 μs."


def _outcome(origin: str) -> ToolOutcome:
    return ToolOutcome("rank_metric", {"metric_name": "t1"}, True, json.dumps(RESULT), "lowest T1", full=RESULT,
                       origin=origin)


def test_a_mixed_repair_is_not_made_in_place():
    report = check_claims(ANSWER, [_outcome("model")], question="Which qubit has the lowest T1?")
    fixes = {c.written: c.correction for c in report.wrong}
    assert fixes == {"12.3": None, "63.0": "61.2"}  # by hand: the first has no one right value, the second has
    repair = repair_answer(ANSWER, report, fallback=None)
    assert repair.action != "corrected" and "None" not in repair.text


def test_without_a_router_answer_an_answer_left_out_whole_becomes_the_tools_sentence():
    """Every sentence is left out: the person reads the sentence of the tool the model called, not a page of marks."""
    blocks, _, action = checked_blocks([TextBlock(ANSWER)], "Which qubit has the lowest T1?", [_outcome("model")])
    shown = "\n".join(b.text for b in blocks if isinstance(b, TextBlock))
    assert "None" not in shown and "nan" not in shown
    assert LEFT_OUT not in shown and "Q62" not in shown and "12.3" in shown and action == "replaced"


def test_with_a_router_answer_the_answer_is_replaced_by_it():
    blocks, _, action = checked_blocks([TextBlock(ANSWER)], "Which qubit has the lowest T1?", [_outcome("router")])
    shown = "\n".join(b.text for b in blocks if isinstance(b, TextBlock))
    assert action == "replaced" and "None" not in shown and "Q62" not in shown and "12.3" in shown
