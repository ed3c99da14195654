"""The router's call for every question of ``tests/dev_crosschip12.py``: two chips compared on each chip's best or
worst subject (its maximum or minimum by the metric's direction), the mean, or a count of failures over a window,
and metric names written in shorthand; each call's own sentence gives both chips' figures and the winner, held to
the hand-written pymongo truth.  A model's ``compare_chips`` with the median is re-made with the statistic asked."""

from __future__ import annotations

import pytest

from copilot_core.checking.restate import corrected
from copilot_core.language.question import parse
from copilot_core.routing.prefetch import plan_prefetch
from copilot_core.tools import DataStore, Toolkit
from copilot_core.tools.toolkit import answer_line
from tests import dev_crosschip12
from tests.eval_score import problems
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)


@pytest.fixture(scope="module")
def cases(demo_db):
    return dev_crosschip12.cases(demo_db)


def _fits(args: dict, want: dict) -> bool:
    return all(sorted(args.get(k) or []) == sorted(v) if isinstance(v, list) else args.get(k) == v
               for k, v in want.items())


def test_there_are_enough_dev_questions_before_and_after_the_fix(demo_db, cases):
    assert len(cases) >= 30 and len(dev_crosschip12.after(demo_db)) >= 10
    shapes = {q.id.split("-")[1] for q, _ in cases}
    assert shapes == {"end", "mean", "med", "fail", "short", "pair"}


def test_the_router_makes_the_call_each_question_needs(cases):
    wrong = []
    for q, (tool, want) in cases:
        plan = plan_prefetch(q.text, chip_id=CHIP, chips=CHIPS)
        if plan is None or plan.name != tool or not _fits(dict(plan.args), want):
            wrong.append(f"{q.id}: {q.text!r} -> {plan and (plan.name, dict(plan.args))} != {tool}({want})")
    assert not wrong, "\n".join(wrong)


def test_each_calls_sentence_gives_both_figures_and_the_winner(cases, repo):
    kit = Toolkit(repo, store=DataStore())
    wrong = []
    for q, _ in cases:
        plan = plan_prefetch(q.text, chip_id=CHIP, chips=CHIPS)
        assert plan is not None, q.text
        said = answer_line(kit.execute(plan.name, dict(plan.args))) or ""
        if bad := problems(q.truth, said):
            wrong.append(f"{q.id}: {bad} in {said!r}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("qid", ["end-1", "end-2", "end-7", "end-10", "end-14", "mean-1", "mean-3"])
def test_a_median_comparison_is_re_made_with_the_statistic_asked(qid, cases):
    q, (_, want) = next(c for c in cases if c[0].id == f"cc12-{qid}")
    got, made, why = corrected("compare_chips", {"metric_name": want["metric_name"], "statistic": "median",
                                                 "chip_ids": list(CHIPS)}, parse(q.text, CHIPS))
    assert got == "compare_chips" and made["statistic"] == want["statistic"] and why, (got, made, why)


@pytest.mark.parametrize("text", [
    "Which chip is best for T1?",  # the chips ranked on their median, no subject's end
    "Which chip has the higher T1, 64Qv3 or 144Qv2?",
])
def test_an_end_said_of_the_chips_keeps_the_median(text):
    plan = plan_prefetch(text, chip_id=CHIP, chips=CHIPS)
    assert plan is not None and plan.name == "compare_chips" and plan.args.get("statistic") == "median", plan
