"""A claim check that raises ends in the deterministic answer from the tools, labelled so; never in an error, and
never in the model's unchecked text.  The real loop and SDK over HTTP to the scripted server; the tool-layer double
returns a result the checker cannot walk (nested deeper than the interpreter's recursion limit)."""

from __future__ import annotations

import json
import sys

from tests.agent.conftest import DoubleToolkit

from copilot_core.agent import AgentRequest, run_copilot
from copilot_core.answer.blocks import ChartBlock
from copilot_core.tools import ToolOutcome
from tests.fakes.scripted_openai import answer, call

TOOL_ANSWER = "Q05 has T1 42.5 μs (fair)."
MODEL_TEXT = "Q05 has T1 99.9 μs, excellent."  # wrong, and it must not reach the person unchecked


def unwalkable(depth: int) -> dict:
    node: dict = {"t1": 42.5}
    for _ in range(depth):
        node = {"inner": node}
    return node


class DeepToolkit(DoubleToolkit):
    """get_qubit_params answers with its sentence, and its full result holds a structure too deep to walk."""

    def execute(self, name: str, raw_args: str | dict) -> ToolOutcome:
        args = json.loads(raw_args) if isinstance(raw_args, str) else raw_args
        body = {"answer": TOOL_ANSWER, "qid": "5"}
        return ToolOutcome(name, args, True, json.dumps(body), "qubit 5: t1 42.5 μs",
                           full={**body, "raw": unwalkable(sys.getrecursionlimit() + 100)})


def test_a_claim_check_that_raises_shows_the_tools_answer_and_says_so(scripted_openai, style):
    scripted_openai.push(call("get_qubit_params", {"chip_id": "64Qv3", "qid": "5"}),
                         answer(MODEL_TEXT, "good", charts=[{"data": [{"type": "bar", "x": [1], "y": [99.9]}]}]))
    result = run_copilot(AgentRequest("How is qubit 5?", chip_id="64Qv3"), provider=scripted_openai.provider(style),
                         toolkit=DeepToolkit(), repo=None)
    assert result.error is None
    assert result.claims == "replaced"
    assert result.answer.startswith(TOOL_ANSWER)
    assert "could not be checked against the data" in result.answer and "RecursionError" in result.answer
    assert "99.9" not in result.answer
    assert not [b for b in result.blocks if isinstance(b, ChartBlock)]  # the model's chart is not shown either
    assert result.unverified_numbers == ["42.5"]  # the grounding check could not read the sources either: it backs nothing


def test_a_question_with_a_typographic_minus_gets_its_answer_checked(scripted_openai, style, toolkit):
    # found by fuzzing: the question's "−2" made the check raise (float() does not read U+2212)
    scripted_openai.push(call("get_qubit_params", {"chip_id": "64Qv3", "qid": "5"}),
                         answer("Qubit 5 has T1 = 42.5 μs."))
    result = run_copilot(AgentRequest("Is qubit 5's T1 below −2 μs or above?", chip_id="64Qv3"),
                         provider=scripted_openai.provider(style), toolkit=toolkit, repo=None)
    assert result.error is None and result.claims == "kept"
    assert result.answer.startswith("Qubit 5 has T1 = 42.5 μs.\n\n")  # kept as written, unmarked
    assert "-2 μs" in result.answer and "a value t1 never takes" in result.answer  # the minus read: no T1 is negative
