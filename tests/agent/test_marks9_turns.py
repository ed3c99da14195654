"""What the person reads when the turn's calls do not cover the question that was parsed (a single extreme for
"the 5 lowest", a count over every run for "since November 3", a filter for a spread), through the page's path
(``Copilot.ask``, the real openai SDK against the scripted server over HTTP), for each kind of answer: the model's
own words, the tools' own sentences when the model writes nothing after its call (fallback), and a call the restate
check re-made.  Each uncovered part gets one visible note, worded by hand here; a covered or re-made one gets none,
and the answer states the figure a hand-written pymongo read gives."""

from __future__ import annotations

from datetime import datetime, timedelta

from copilot_core.checking.restate import mismatches
from copilot_core.language.question import parse
from tests import dev_compound8, dev_fails8
from tests.agent.page_turn import asked_on_small
from tests.fakes.scripted_models import caller_then_quoter
from tests.fakes.scripted_openai import SmartRequest, call, text
from tests.public_eval import CHIP

NOT_ANSWERED = "_Not answered:"
SPREAD = "spread (standard deviation, range, IQR or coefficient of variation)"


def caller_then_silent(name: str, args: dict):
    """Makes one call, then writes nothing: the turn shows the tools' own sentences."""
    def reply(request: SmartRequest):
        if request.has_tools and not request.tool_results:
            return call(name, {"chip_id": CHIP, **args})
        return text("")
    return reply


def _ask(repo, server, tmp_path, question: str, smart) -> str:
    server.smart = smart
    return asked_on_small(repo, server, tmp_path, question, "off")


def _five_lowest_listed(said: str, db) -> bool:
    """The 5 lowest T1 (hand-written pymongo read), each named with its value."""
    t1 = {q: v for q, v in dev_compound8.latest(db, CHIP, "t1", "qubit").items() if v is not None}
    return all(f"Q{int(q):02d} {t1[q]:.1f} μs" in said for q in sorted(t1, key=lambda q: t1[q])[:5])


def test_a_fallback_with_one_extreme_for_five_lowest_is_re_ranked(demo_db, repo, scripted_openai, tmp_path):
    # was a note under the single lowest; a top N of the wrong size is now re-made from the router's ranking
    said = _ask(repo, scripted_openai, tmp_path, "What are the 5 lowest T1 qubits?",
                caller_then_silent("get_chip_summary", {}))
    assert _five_lowest_listed(said, demo_db) and NOT_ANSWERED not in said, said


def test_the_models_own_answer_with_one_extreme_gets_one_note_not_two(demo_db, repo, scripted_openai, tmp_path):
    said = _ask(repo, scripted_openai, tmp_path, "What are the 5 lowest T1 qubits?",
                caller_then_quoter("get_chip_summary", {"chip_id": CHIP}))
    notes = [line for line in said.split("\n\n") if line.startswith("_")]
    assert _five_lowest_listed(said, demo_db) and len(notes) == 1, said


def test_a_fallback_counting_every_run_for_a_dated_window_says_so(repo, scripted_openai, tmp_path):
    said = _ask(repo, scripted_openai, tmp_path, "How many tasks failed since November 3?",
                caller_then_silent("get_chip_summary", {}))
    assert said.count("not limited to since 11\\-03, which the question asked about") == 1, said


def test_a_fallback_of_one_qubits_values_for_a_spread_says_so(repo, scripted_openai, tmp_path):
    said = _ask(repo, scripted_openai, tmp_path, "How spread out is T1 across the chip?",
                caller_then_silent("get_qubit_params", {"qid": "5"}))
    assert said.count(f"_Not answered: the question asks for the {SPREAD}; no call computed it._") == 1, said


def test_a_filter_for_a_spread_re_made_as_the_spread_gets_no_note(demo_db, repo, scripted_openai, tmp_path):
    values = [v for v in dev_compound8.latest(demo_db, CHIP, "t1", "qubit").values() if v is not None]
    said = _ask(repo, scripted_openai, tmp_path, "How spread out is T1 across the chip?",
                caller_then_quoter("filter_metric", {"chip_id": CHIP, "metric_name": "t1", "below": 50}))
    assert f"range {max(values) - min(values):.1f} μs" in said, said
    assert NOT_ANSWERED not in said and SPREAD not in said, said


def test_a_one_condition_call_re_made_with_both_conditions_gets_no_note(demo_db, repo, scripted_openai, tmp_path):
    t1 = dev_compound8.latest(demo_db, CHIP, "t1", "qubit")
    echo = dev_compound8.latest(demo_db, CHIP, "t2_echo", "qubit")
    both = [q for q, v in t1.items() if v is not None and v < 50 and echo.get(q) is not None and echo[q] > 40]
    said = _ask(repo, scripted_openai, tmp_path, "How many qubits have T1 below 50 us and T2 echo above 40 us?",
                caller_then_quoter("filter_metric", {"chip_id": CHIP, "metric_name": "t1", "below": 50}))
    assert f"{len(both)} of" in said and NOT_ANSWERED not in said, said


def test_a_count_over_every_run_re_made_over_seven_days_gets_no_note(demo_db, repo, scripted_openai, tmp_path):
    end = dev_fails8.last_day(demo_db, CHIP)
    first = end - timedelta(days=6)
    failed = demo_db["task_result_history"].count_documents(
        {"chip_id": CHIP, "status": "failed", "start_at": {"$gte": datetime(first.year, first.month, first.day)}})
    said = _ask(repo, scripted_openai, tmp_path, "How many tasks failed in the last 7 days?",
                caller_then_quoter("count_in_window", {"chip_id": CHIP, "what": "failed tasks"}))
    assert f"{failed} task results failed" in said, said
    assert NOT_ANSWERED not in said and "not limited to" not in said, said


def test_a_ranking_over_the_wrong_days_is_one_window_mismatch():
    found = mismatches(parse("Which qubit failed most in the last 10 days?"), "failure_ranking",
                       {"chip_id": CHIP, "by": "qubit", "days": 3})
    assert [m.missed for m in found] == ["asks for the last 10 days, not the last 3 days"]
