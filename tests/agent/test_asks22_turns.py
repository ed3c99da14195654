"""The twenty-second stop's classes through the page's path (``Copilot.ask``, the real openai SDK against the
scripted server over HTTP): a model that takes a named limit ("the bar at forty microseconds ... clear it") on the
wrong side has its call re-made on the side the question writes; a model that reads a run of qubits as the run's two
ends is never shown silently.  Expected figures are the pymongo reads of ``tests/dev_asks22.py``."""

from __future__ import annotations

from tests import dev_asks22
from tests.agent.page_turn import SMALL, page_turn, shown
from tests.eval_score import problems
from tests.fakes.scripted_models import caller_then_quoter
from tests.public_eval import CHIP

OFF = {"COPILOT_TOOL_ROUTER": "off"}


def test_a_named_limit_taken_on_the_wrong_side_is_re_made(demo_db, repo, scripted_openai, tmp_path):
    question, _, _ = next(c for c in dev_asks22.named_cases(demo_db) if c[0].id == "a22-bar-1")
    scripted_openai.smart = caller_then_quoter("filter_metric", {"chip_id": CHIP, "metric_name": "t1", "below": 40})
    said = shown(page_turn(repo, scripted_openai, tmp_path, question.text, SMALL, OFF))
    assert not problems(question.truth, said), said
    assert "below 40" not in said, said


def test_a_run_read_as_its_two_ends_is_not_shown_silently(demo_db, repo, scripted_openai, tmp_path):
    question, _, _ = next(c for c in dev_asks22.set_cases(demo_db) if c[0].id == "a22-set-1")
    scripted_openai.smart = caller_then_quoter("compare_qubits", {"chip_id": CHIP, "qids": ["32", "63"],
                                                                  "param_names": ["t1"]})
    said = shown(page_turn(repo, scripted_openai, tmp_path, question.text, SMALL, OFF))
    assert not problems(question.truth, said) or "read only the qubits it names" in said, said
