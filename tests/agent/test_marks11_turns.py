"""Two qubits, two couplings or two chips compared through the page's path (``Copilot.ask``, the real openai SDK
against the scripted server over HTTP) when the model writes a WRONG answer in its own words (``tests/dev_marks11.py``):
the worse side called ahead with its own value only, one side's call, both values with the wrong side first, a
share called larger.  What the person reads states both sides' values and the right side first (re-made from the
router's call or the tools' own sentence), or carries a visible note; the wrong words are never shown unmarked.
Expected values are the hand-written pymongo reads of ``tests/dev_marks11.py``."""

from __future__ import annotations

import pytest

from tests import dev_marks11
from tests.agent.page_turn import asked_on_small
from tests.eval_score import problems
from tests.fakes.scripted_openai import call, text


def _then_writes(name: str, args: dict, body: str):
    """A model that makes one call, then writes ``body`` whatever the call returned."""
    return lambda request: call(name, args) if not request.tool_results else text(body)


@pytest.fixture(scope="module")
def cases(demo_db):
    return {c.id: c for c in dev_marks11.cases(demo_db)}


def _ids() -> list[str]:
    return ([f"m11-qubit-{i + 1}" for i in range(len(dev_marks11.QUBITS))]
            + [f"m11-coupling-{i + 1}" for i in range(len(dev_marks11.COUPLINGS))]
            + [f"m11-chip-{i + 1}" for i in range(4)] + [f"m11-share-{i + 1}" for i in range(3)]
            + [f"m11-history-{i + 1}" for i in range(3)])


def test_the_set_has_thirty_questions_or_more(cases):
    assert len(cases) >= 30 and sorted(cases) == sorted(_ids())


@pytest.mark.parametrize("router", ["off", "on"])
@pytest.mark.parametrize("qid", _ids())
def test_a_wrong_comparison_in_the_models_words_is_never_shown_unmarked(qid, router, cases, repo, scripted_openai,
                                                                         tmp_path):
    case = cases[qid]
    scripted_openai.smart = _then_writes(*case.call, case.body)
    said = asked_on_small(repo, scripted_openai, tmp_path, case.text, router)
    assert case.body not in said or "*(not checked)*" in said, said
    if case.truth is not None:
        assert not problems(case.truth, said), said
    if qid.startswith("m11-share"):  # the figure compared is named: a share, not the chip's size
        assert "has the larger share" in said, said
    else:  # no tool computes the statistic asked: the person reads that the figures are not it
        assert any(line.startswith("_") for line in said.split("\n\n")), said


def test_the_right_comparison_in_the_models_words_is_kept(cases, demo_db, repo, scripted_openai, tmp_path):
    """Both values stated and the right side first: the answer stands as written (no false replacement)."""
    case = cases["m11-qubit-6"]
    name, chip, start, _, _ = dev_marks11.QUBITS[5]
    g, vg, b, vb = dev_marks11._two(demo_db, chip, start, name)
    body = f"Q{g} is better: Q{g} has {vg:.1f} μs and Q{b} has {vb:.1f} μs."
    scripted_openai.smart = _then_writes(*case.call, body)
    said = asked_on_small(repo, scripted_openai, tmp_path, case.text, "off")
    assert said.startswith(body) and "replaced" not in said, said
