"""Statistics said in the model's own words after a spread call (a wrong one, one of another role, the right one),
on the page's path (``Copilot.ask``) against the scripted OpenAI-compatible server; truths by pymongo."""

from __future__ import annotations

import statistics

import pytest

from tests.agent.page_turn import asked_on_small as _ask
from tests.dev_compound12 import latest
from tests.fakes.scripted_openai import call, text
from tests.public_eval import CHIP

NOT_CHECKED = "(not checked)"


def _spread_then(said: str):
    """A model that makes the spread call on T1, then answers ``said`` in its own words."""
    def reply(request):
        if request.has_tools and not request.tool_results:
            return call("metric_spread", {"chip_id": CHIP, "metric_name": "t1"})
        return text(said)
    return reply


@pytest.fixture(scope="module")
def t1s(demo_db) -> list[float]:
    return [v for v in latest(demo_db, CHIP, "t1", "qubit").values() if v is not None]


def _stat(values: list[float], which: str) -> float:
    return {"mean": statistics.fmean(values), "median": statistics.median(values), "std": statistics.stdev(values),
            "max": max(values), "min": min(values)}[which]


SAYS = {
    "std": "The standard deviation of T1 on {chip} is {v:.1f} μs.",
    "mean": "The mean T1 on {chip} is {v:.1f} μs.",
    "median": "The median T1 on {chip} is {v:.1f} μs.",
    "max": "The highest T1 on {chip} is {v:.1f} μs.",
}


@pytest.mark.parametrize(("said", "value", "kept"), [
    ("std", "std", True), ("mean", "mean", True), ("std", "wrong", False), ("mean", "wrong", False),
    ("median", "mean", False), ("std", "mean", False), ("mean", "median", False), ("max", "max", True),
    ("max", "mean", False)])
def test_a_statistic_in_the_models_words_is_kept_only_when_a_fact_of_its_role_backs_it(
        said, value, kept, t1s, repo, scripted_openai, tmp_path):
    v = _stat(t1s, "mean") * 1.37 if value == "wrong" else _stat(t1s, value)
    sentence = SAYS[said].format(chip=CHIP, v=v)
    lead = "" if said == "std" else SAYS["std"].format(chip=CHIP, v=_stat(t1s, "std")) + " "  # the spread asked
    scripted_openai.smart = _spread_then(lead + sentence)
    shown = _ask(repo, scripted_openai, tmp_path, f"how spread out is T1 on {CHIP}?", "on")
    if kept:
        assert sentence in shown and NOT_CHECKED not in shown, shown
    else:
        assert sentence not in shown or NOT_CHECKED in shown, shown


def test_a_share_of_zero_said_with_no_fact_is_marked(t1s, repo, scripted_openai, tmp_path):
    lead = SAYS["std"].format(chip=CHIP, v=_stat(t1s, "std"))
    scripted_openai.smart = _spread_then(f"{lead} The share of qubits with T1 below 20 μs on {CHIP} is 0.0 %.")
    shown = _ask(repo, scripted_openai, tmp_path, f"how spread out is T1 on {CHIP}?", "on")
    assert "is 0.0 %." not in shown or NOT_CHECKED in shown, shown


def _number_near(shown: str, value: float, places: int) -> bool:
    return f"{value:.{places}f}" in shown


@pytest.mark.parametrize(("asked", "chip", "qid", "metric", "places", "slip", "meant"), [
    ("what is the relaxtion time of Q6 on 64Qv3", "64Qv3", "6", "t1", 1, "relaxtion", "relaxation"),
    ("T2 echp of Q9 on 64Qv3?", "64Qv3", "9", "t2_echo", 1, "echp", "echo"),
    ("qubit 12 anharmonicty on 144Qv2", "144Qv2", "12", "anharmonicity", 1, "anharmonicty", "anharmonicity"),  # GHz

])
def test_a_slipped_metric_is_answered_with_its_value_and_says_how_it_was_read(
        asked, chip, qid, metric, places, slip, meant, demo_db, repo, scripted_openai, tmp_path):
    from tests.fakes.scripted_models import quoter
    value = latest(demo_db, chip, metric, "qubit")[qid]
    assert value is not None
    value *= 1000.0 if metric == "anharmonicity" else 1.0  # stored in GHz, shown in MHz
    scripted_openai.smart = quoter
    shown = _ask(repo, scripted_openai, tmp_path, asked, "on")
    assert _number_near(shown, value, places), (value, shown)
    assert f"'{slip}' as {meant}" in shown, shown


@pytest.mark.parametrize(("asked", "right"), [
    ("how many CHECKT1 failures on 64Qv3 in the last 7 days", "how many CheckT1 failures on 64Qv3 in the last 7 days"),
    ("which qubit fails CHECK_T2_ECHO most on 64Qv3", "which qubit fails CheckT2Echo most on 64Qv3"),
])
def test_a_task_in_another_case_is_answered_as_the_task_spelled_right(asked, right, repo, scripted_openai, tmp_path):
    from tests.fakes.scripted_models import quoter
    scripted_openai.smart = quoter
    shown = _ask(repo, scripted_openai, tmp_path, asked, "on")
    expected = _ask(repo, scripted_openai, tmp_path, right, "on")
    assert "no task named" not in shown and shown.strip(), shown
    assert shown == expected, (shown, expected)
