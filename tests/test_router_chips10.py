"""The router's call for every question of ``tests/dev_chips10.py``: a figure asked of every installed chip gets one
call covering every chip (``compare_chips`` with the statistic or limit asked, ``count_in_window`` over both chips),
and a chip described in words is read as the installed chip meant (from the chip documents' size and installed
date), or asked about when the description picks no one chip.  Each call's own sentence is held to the hand-written
pymongo truth; a model's call on one chip for a question of every chip is re-made (``checking.restate``)."""

from __future__ import annotations

from datetime import datetime

import pytest

from copilot_core.checking.restate import corrected
from copilot_core.data.repository import CalibrationRepository
from copilot_core.language.chip_words import chips_described
from copilot_core.language.question import parse
from copilot_core.routing.chip_meant import ChipFacts, chips_meant_by, facts_of
from copilot_core.routing.prefetch import plan_prefetch
from copilot_core.tools import DataStore, Toolkit
from copilot_core.tools.toolkit import answer_line
from tests import dev_chips10
from tests.eval_score import problems
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)


@pytest.fixture(scope="module")
def cases(demo_db):
    return dev_chips10.cases(demo_db)


def _meant(repo: CalibrationRepository, text: str) -> str:
    """The chip a described-chip question is answered on: the one its words describe, else the one it names."""
    found = chips_meant_by(text, facts_of(repo.list_chips()), CHIP)
    return found.chips[0] if len(found.chips) == 1 else parse(text, CHIPS).chip or CHIP


def _fits(args: dict, want: dict) -> bool:
    return all(sorted(args.get(k) or []) == sorted(v) if isinstance(v, list) else args.get(k) == v
               for k, v in want.items())


def test_there_are_enough_dev_questions_of_both_classes_on_both_chips(cases, demo_db):
    kinds = [q.shape for q, _ in cases]
    assert len(cases) >= 30 and kinds.count("per chip") >= 20 and kinds.count("described chip") >= 8
    assert len(dev_chips10.after(demo_db)) >= 8
    assert {call[1]["chip_id"] for q, call in cases if q.shape == "described chip"} == set(CHIPS)
    assert len(dev_chips10.FIRST) >= 6  # "which chip ..." asked, of both ends
    assert {dev_chips10.FIRST[q.id] == q.truth.winner for q, _ in cases if q.id in dev_chips10.FIRST} == {True, False}


def test_the_router_makes_one_call_over_every_chip_for_each_per_chip_question(cases):
    wrong = []
    for q, (tool, want) in cases:
        if q.shape != "per chip":
            continue
        plan = plan_prefetch(q.text, chip_id=CHIP, chips=CHIPS)
        if plan is None or plan.name != tool or not _fits(dict(plan.args), want) or \
                plan.name == "count_in_window" and sorted(plan.args.get("chip_ids") or []) != sorted(CHIPS):
            wrong.append(f"{q.id}: {q.text!r} -> {plan and (plan.name, plan.args)} != {tool}({want})")
    assert not wrong, "\n".join(wrong)


def test_a_described_chip_is_the_installed_chip_meant_and_the_router_calls_on_it(cases, repo):
    wrong = []
    for q, (tool, want) in cases:
        if q.shape != "described chip":
            continue
        chip = _meant(repo, q.text)
        plan = plan_prefetch(q.text, chip_id=chip, chips=CHIPS)
        if chip != want["chip_id"] or plan is None or plan.name != tool or not _fits(dict(plan.args), want):
            wrong.append(f"{q.id}: {q.text!r} -> {chip}, {plan and (plan.name, plan.args)} != {tool}({want})")
    assert not wrong, "\n".join(wrong)


def test_each_calls_sentence_gives_the_pymongo_truth(cases, repo):
    kit = Toolkit(repo, store=DataStore())
    wrong = []
    for q, _ in cases:
        chip = _meant(repo, q.text) if q.shape == "described chip" else CHIP
        plan = plan_prefetch(q.text, chip_id=chip, chips=CHIPS)
        assert plan is not None, q.text
        said = answer_line(kit.execute(plan.name, dict(plan.args))) or ""
        if bad := problems(q.truth, said):
            wrong.append(f"{q.id}: {bad} in {said!r}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("text, name, args, tool, wanted", [
    ("What's the max T1 on each device?", "get_chip_summary", {"chip_id": CHIP, "param_names": ["t1"]},
     "compare_chips", {"metric_name": "t1", "statistic": "max"}),
    ("standard deviation of T1 chip by chip", "metric_spread", {"chip_id": CHIP, "metric_name": "t1"},
     "compare_chips", {"metric_name": "t1", "statistic": "std"}),
    ("Per chip, how many qubits have T1 above 100 us?", "filter_metric",
     {"chip_id": CHIP, "metric_name": "t1", "above": 100.0}, "compare_chips", {"metric_name": "t1", "above": 100.0}),
    ("What fraction of qubits on each of our chips has readout fidelity above 95%?", "get_chip_summary",
     {"chip_id": CHIP, "param_names": ["average_readout_fidelity"]}, "compare_chips",
     {"metric_name": "average_readout_fidelity", "above": 95.0}),
    ("mean T2 echo for both chips", "compare_chips", {"metric_name": "t2_echo", "statistic": "median"},
     "compare_chips", {"metric_name": "t2_echo", "statistic": "mean"}),
    ("How many runs failed on each chip since November 17?", "count_in_window",
     {"chip_id": CHIP, "what": "failed runs", "from_date": "2026-11-17"}, "count_in_window",
     {"what": "failed runs", "chip_ids": [CHIP, OTHER]}),
    ("median T1 on 144Qv2", "get_chip_summary", {"chip_id": CHIP, "param_names": ["t1"]},
     "get_chip_summary", {"chip_id": OTHER, "param_names": ["t1"]}),
    ("What is the T1 spread on 144Qv2?", "metric_spread", {"chip_id": CHIP, "metric_name": "t1"},
     "metric_spread", {"chip_id": OTHER, "metric_name": "t1"}),
])
def test_a_call_on_one_chip_is_re_made_over_the_chips_asked(text, name, args, tool, wanted):
    got, made, why = corrected(name, args, parse(text, CHIPS))
    assert got == tool and _fits(made, wanted) and why, (got, made, why)


def _facts(*rows: tuple[str, int | None, float | None]) -> list[ChipFacts]:
    return [ChipFacts(c, size, when) for c, size, when in rows]


@pytest.mark.parametrize("text, facts, in_view, chips, unclear", [
    ("median T1 on the bigger chip", _facts(("A", 64, 1.0), ("B", 144, 2.0)), "A", ("B",), False),
    ("median T1 on the bigger chip", _facts(("A", 64, 1.0), ("B", 64, 2.0)), "A", (), True),  # one size: ask
    ("the smallest processor's mean T1", _facts(("A", 64, 1.0), ("B", 144, 2.0), ("C", 16, 3.0)), "A", ("C",), False),
    ("T1 on the other chip", _facts(("A", 64, 1.0), ("B", 144, 2.0), ("C", 16, 3.0)), "A", (), True),  # which other?
    ("T1 on the other chip", _facts(("A", 64, 1.0), ("B", 144, 2.0)), None, (), True),  # none in view: ask
    ("T1 on the other chip", _facts(("A", 64, 1.0), ("B", 144, 2.0)), "B", ("A",), False),
    ("median T1 of the newer chip", _facts(("A", 64, 5.0), ("B", 144, 2.0)), "B", ("A",), False),
    ("median T1 of the older chip", _facts(("A", 64, None), ("B", 144, 2.0)), "B", (), True),  # no date: ask
    ("median T1 of the newest chip", _facts(("A", 64, datetime(2026, 1, 2)), ("B", 144, datetime(2026, 3, 1))),
     "A", ("B",), False),
    ("is T1 higher on the bigger chip or the smaller one?", _facts(("A", 64, 1.0), ("B", 144, 2.0)), "A",
     ("B", "A"), False),
    ("compare A with the other chip", _facts(("A", 64, 1.0), ("B", 144, 2.0)), "B", ("A", "B"), False),
    ("which qubit has a smaller T1 than Q3?", _facts(("A", 64, 1.0), ("B", 144, 2.0)), "A", (), False),  # no chip
])
def test_a_description_means_the_one_chip_it_picks_else_it_is_asked(text, facts, in_view, chips, unclear):
    found = chips_meant_by(text, facts, in_view)
    assert (found.chips, found.unclear) == (chips, unclear), found
    assert not unclear or set(found.options) == {f.chip_id for f in facts}


@pytest.mark.parametrize("text", ["a smaller T1 than last week", "the larger T1 values", "is the other qubit worse",
                                  "the newest T1 value on this chip"])
def test_words_of_size_or_age_about_no_chip_describe_none(text):
    assert chips_described(text) == []
