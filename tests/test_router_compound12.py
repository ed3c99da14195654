"""The router's plan for every question of ``tests/dev_compound12.py`` (values written in words, comparison words
such as "beyond" or "lies below", abbreviated metrics beside a percent limit, "qbs", shares over one side of a
limit): the page's order (``absent_plan`` -> ``lookup_plan`` -> ``plan_prefetch``), held to the question's limits,
must be the hand-written call.  Then the restate check: a model's call that summarises every subject, drops a
condition, or counts the other side of a share's limit (or another kind of subject), is re-made as that call."""

from __future__ import annotations

import pytest

from copilot_core.agent.lookups import lookup_plan
from copilot_core.agent.plan import absent_plan
from copilot_core.checking.restate import corrected, mismatches
from copilot_core.language.question import parse
from copilot_core.routing.limits import settle_limits
from copilot_core.routing.prefetch import plan_prefetch
from tests.dev_compound12 import AFTER, CASES, Case, truth
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)


def _wanted(case: Case) -> tuple[str, dict]:
    return case.call[0], {"chip_id": case.chip, **case.call[1]}


def _planned(case: Case, repo) -> tuple[str, dict] | None:
    plan = absent_plan(case.text, CHIP, repo, CHIPS) or lookup_plan(case.text, CHIP) or \
        plan_prefetch(case.text, chip_id=CHIP, chips=CHIPS)
    if plan is None:
        return None
    return plan.name, dict(settle_limits(plan.name, dict(plan.args), parse(case.text, CHIPS)).args)


def test_there_are_enough_varied_dev_questions(demo_db):
    assert len(CASES) >= 30 and len(AFTER) >= 10
    assert {c.chip for c in CASES} == {CHIP, OTHER} and sum(c.count for c in CASES) >= 4
    assert sum(c.share for c in CASES) >= 6 and sum(c.kind == "coupling" for c in CASES) >= 4
    empty = [c.id for c in CASES if not truth(demo_db, c)]
    assert not empty, f"every question has subjects to list: {empty}"


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_the_router_makes_the_whole_filter(case, repo):
    assert _planned(case, repo) == _wanted(case)
    assert not mismatches(parse(case.text, CHIPS), *_wanted(case))


def _summary(args: dict) -> tuple[str, dict]:
    """A summary of every subject on the chip (no condition at all)."""
    return "get_chip_summary", {"chip_id": args["chip_id"]}


def _bare(args: dict) -> tuple[str, dict]:
    """The filter's metrics with none of their limits."""
    held = args.get("conditions") or [args]
    metrics = list(dict.fromkeys(c["metric_name"] for c in held))
    if len(metrics) == 1:
        return "metric_spread", {"chip_id": args["chip_id"], "metric_name": metrics[0]}
    return "filter_metrics", {"chip_id": args["chip_id"], "join": "and",
                              "conditions": [{"metric_name": m} for m in metrics]}


def _first_only(args: dict) -> tuple[str, dict] | None:
    """The first condition alone."""
    if "conditions" not in args:
        return None
    first = {k: v for k, v in args["conditions"][0].items() if k != "including"}
    return "filter_metric", {"chip_id": args["chip_id"], **first}


def _other_side(args: dict) -> tuple[str, dict]:
    """Every limit on the other side (a share's complement: 0 .. the limit)."""
    def flip(c: dict) -> dict:
        side = "above" if "above" in c else "below"
        other = "below" if side == "above" else "above"
        return {"metric_name": c["metric_name"], other: c[side], **({"above": 0} if other == "below" else {})}
    if "conditions" in args:
        return "filter_metrics", {**args, "conditions": [flip(c) for c in args["conditions"]]}
    return "filter_metric", {"chip_id": args["chip_id"], **flip(args)}


WRONGS = (_summary, _bare, _first_only, _other_side)
WRONG = [(c, w) for c in CASES for w in WRONGS if w(_wanted(c)[1]) is not None]


@pytest.mark.parametrize(("case", "wrong"), WRONG, ids=[f"{c.id}-{w.__name__.strip('_')}" for c, w in WRONG])
def test_a_call_short_of_the_question_is_re_made(case, wrong):
    name, args = wrong(_wanted(case)[1])
    asked = parse(case.text, CHIPS)
    assert mismatches(asked, name, args), (name, args)
    made, made_args, why = corrected(name, args, asked)
    assert (made, made_args) == _wanted(case)
    assert why is not None and why.startswith("the call was re-made as the question reads it")


@pytest.mark.parametrize(("text", "values"), [
    ("T1 between forty and sixty microseconds", [40.0, 60.0]), ("T1 above forty-five us", [45.0]),
    ("readout fidelity above ninety five percent", [95.0]), ("gate time below three hundred ns", [300.0]),
    ("gate time below two hundred and eighty nanoseconds", [280.0]), ("X90 fid above ninety-nine point five %", [99.5]),
    ("T1 above five microseconds", [5.0]),
])
def test_a_value_written_in_words_is_its_number(text, values):
    assert [t.value for t in parse(text).limits] == values


@pytest.mark.parametrize("text", [
    "which one has the best T1", "show the two most recent T1 values of Q5", "is one qubit worse than the others",
])
def test_a_count_word_is_no_value(text):
    assert not parse(text).limits


@pytest.mark.parametrize(("text", "given", "wanted"), [
    ("What share of couplings are above 96% fidelity?", {"metric_name": "zx90_gate_fidelity", "below": 96},
     {"metric_name": "zx90_gate_fidelity", "above": 96.0}),
    ("what fraction of the pairs sit below ninety-four percent bell fidelity",
     {"metric_name": "bell_state_fidelity", "above": 0, "below": 100},
     {"metric_name": "bell_state_fidelity", "below": 94.0}),
    ("What share of qubits lie above ninety-nine point five percent x90 fidelity?",
     {"metric_name": "x90_gate_fidelity", "below": 99.5}, {"metric_name": "x90_gate_fidelity", "above": 99.5}),
])
def test_a_share_of_the_other_side_is_re_made(text, given, wanted):
    asked = parse(text, CHIPS)
    made, args, why = corrected("filter_metric", {"chip_id": CHIP, **given}, asked)
    assert (made, args) == ("filter_metric", {"chip_id": CHIP, **wanted}) and why, (made, args, why)


@pytest.mark.parametrize(("text", "given"), [
    ("What share of couplings are above 96% fidelity?", {"metric_name": "x90_gate_fidelity", "above": 96}),
    ("what percentage of pairs have fidelity beyond ninety-five percent", {"metric_name": "t1", "above": 95}),
    ("What share of couplings are above 96% fidelity?", {}),
])
def test_a_share_of_another_kind_of_subject_is_never_kept_unmarked(text, given):
    """Two coupling fidelities fit "fidelity": no one call restates it, so the call stays and is marked."""
    name = "filter_metric" if given else "get_chip_summary"
    asked = parse(text, CHIPS)
    assert mismatches(asked, name, {"chip_id": CHIP, **given})
