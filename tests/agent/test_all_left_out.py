"""An answer whose every sentence the check leaves out is not shown as a page of marks: the person reads the
router's answer (the call made for this question), else the sentence of a tool the model called, with a note."""

from __future__ import annotations

from dataclasses import replace

from copilot_core.answer.blocks import TextBlock
from copilot_core.checking.marks import LEFT_OUT
from copilot_core.checking.verify import ALL_LEFT_OUT, checked_blocks
from copilot_core.tools import DataStore, Toolkit
from copilot_core.tools.toolkit import answer_line

CHIP = "64Qv3"
QUESTION = "What share of the qubits on 64Qv3 have T1 below 45 μs?"
INVENTED = "The typical T1 there is 12.34 μs. Most sit near 17.77 μs."  # numbers no tool result holds, in no role


def _filter(repo, origin: str):
    kit = Toolkit(repo, store=DataStore())
    kit.begin_request(CHIP)
    out = kit.execute("filter_metric", {"chip_id": CHIP, "metric_name": "t1", "below": 45})
    assert out.ok
    return replace(out, origin=origin)


def test_every_sentence_left_out_gives_the_routers_answer(repo):
    out = _filter(repo, "router")
    blocks, _, action = checked_blocks([TextBlock(INVENTED)], QUESTION, [out])
    texts = [b.text for b in blocks if isinstance(b, TextBlock)]
    assert action == "replaced"
    assert texts == [answer_line(out), f"_{ALL_LEFT_OUT}_"]
    assert "17.77" not in " ".join(texts) and LEFT_OUT not in " ".join(texts)


def test_a_sentence_that_stands_keeps_the_answer_with_its_mark(repo):
    out = _filter(repo, "router")
    line = answer_line(out)
    assert line is not None
    blocks, _, _ = checked_blocks([TextBlock(f"{line} Most sit near 17.77 μs.")], QUESTION, [out])
    shown = " ".join(b.text for b in blocks if isinstance(b, TextBlock))
    assert line in shown and "17.77" not in shown and ALL_LEFT_OUT not in shown


def test_without_the_routers_call_the_models_own_calls_sentence_stands_in(repo):
    out = _filter(repo, "model")
    blocks, _, action = checked_blocks([TextBlock(INVENTED)], QUESTION, [out])
    texts = [b.text for b in blocks if isinstance(b, TextBlock)]
    assert action == "replaced" and texts == [answer_line(out), f"_{ALL_LEFT_OUT}_"], texts
