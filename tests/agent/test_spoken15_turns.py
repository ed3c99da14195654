"""The fifteenth stop's spoken and form-like class through the page's path (``Copilot.ask``, the real openai SDK
against the scripted server over HTTP): a dictated or form-like question asking a top N, a spread, a cross-chip
statistic, a share, a compound filter or a correlation is answered with that figure, never the chip's medians; a
model that calls the chip summary anyway gets the figure asked or a visible note.  Truths: the hand-written pymongo
reads of ``tests/dev_spoken15.py``."""

from __future__ import annotations

import re

import pytest

from tests import dev_spoken15 as dev
from tests.dev_ranks14 import found_at
from tests.agent.page_turn import SMALL, asked_on_small, page_turn, shown
from copilot_core.answer.blocks import AskBlock
from tests.fakes.scripted_models import ASKED, asker, caller_then_quoter, quoter

_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def _near(said: str, value: float, tolerance: float) -> bool:
    return any(abs(float(n) - value) <= tolerance for n in _NUMBER.findall(said))


def _in_order(said: str, chip: str, subjects: list[str]) -> bool:
    at = [found_at(said, chip, s) for s in subjects]
    return -1 not in at and at == sorted(at)


def holds_truth(db, case: dev.Spoken, said: str) -> bool:
    """What the person reads holds the figure the question asks, computed by hand."""
    if case.tool == "rank_metric":
        return _in_order(said, case.chip, [s for s, _ in dev.ranked_truth(db, case)])
    if case.tool == "metric_spread":
        return _near(said, dev.spread_truth(db, case), 0.06)
    if case.tool == "compare_chips":
        return all(_near(said, v, 0.06) for v in dev.across_truth(db, case).values())
    if case.tool == "filter_metric":
        return _near(said, dev.share_truth(db, case), 0.6)
    if case.tool == "filter_metrics":
        passing = sorted(dev.passing(db, case), key=int)  # a long list is cut: its count and its first ones
        return bool(passing) and said.startswith(f"{len(passing)} of") and \
            all(found_at(said, case.chip, q) >= 0 for q in passing[:10])
    return _near(said, dev.correlation(db, case), 0.006)


@pytest.mark.parametrize("case", dev.QUESTIONS, ids=lambda c: c.id)
def test_the_routed_turn_answers_the_figure_asked(case, demo_db, repo, scripted_openai, tmp_path):
    scripted_openai.smart = quoter
    said = shown(page_turn(repo, scripted_openai, tmp_path, case.text, SMALL))
    assert holds_truth(demo_db, case, said), said


SUMMARISED = [c for c in dev.QUESTIONS if c.id in ("top-four-t-one", "zed-x-ninety", "bullets-top-five-other",
                                                   "spread-t-one", "mean-x-ninety", "trace-then-median",
                                                   "percent-other", "log-then-shortest")]


@pytest.mark.parametrize("case", SUMMARISED, ids=lambda c: c.id)
def test_a_chip_summary_called_for_a_specific_question_is_re_made(case, demo_db, repo, scripted_openai,
                                                                           tmp_path):
    """A model that calls the chip summary (router off: it chooses alone) for a top N, a spread, a cross-chip
    statistic or a share: the turn re-makes the call the question asks, and the person reads that figure."""
    scripted_openai.smart = caller_then_quoter("get_chip_summary", {"chip_id": case.chip})
    said = asked_on_small(repo, scripted_openai, tmp_path, case.text, "off")
    assert holds_truth(demo_db, case, said), said


NO_METRIC = ["which four qubits are the best", "- chip: 64Qv3\n- want: spread", "top three on this chip please"]


@pytest.mark.parametrize("text", NO_METRIC)
def test_a_shape_read_without_its_metric_is_asked_back(text, repo, scripted_openai, tmp_path):
    """Which metric is not for the turn to guess: the model's question back is what the person reads."""
    scripted_openai.smart = asker
    turn = page_turn(repo, scripted_openai, tmp_path, text, SMALL)
    assert turn.answer is not None
    [ask] = [b for b in turn.answer.blocks if isinstance(b, AskBlock)]
    assert list(ask.options) == ASKED["options"], turn.answer.text


@pytest.mark.parametrize("text", NO_METRIC)
def test_a_summary_for_a_shape_without_its_metric_says_so(text, repo, scripted_openai, tmp_path):
    """A model that answers with the chip summary instead: the person reads that no metric was named."""
    scripted_openai.smart = caller_then_quoter("get_chip_summary", {"chip_id": dev.CHIP})
    said = asked_on_small(repo, scripted_openai, tmp_path, text, "on")
    assert "metric" in said.lower() and "summary" in said.lower(), said
