"""Counts, shares and comparisons in the model's own words, replayed through ``Copilot.ask`` (the page's path:
clarification on, the chip in view) with a scripted model over real HTTP.

Before: a count no tool gave passed unmarked when its digits were a qubit's name, a date or a value somewhere in the
results ("12 out of 64 qubits": "out of" made no count, and 12 is in "Q12"), or when another number of its sentence
was verified ("12 of the 62 qubits": 62 vouched for the sentence); "CheckT1 failed 2 times" was held to no task;
"13/700 tasks" was "corrected" to "13/13"; "worse on 27 of 60 and better on 33" swapped the two counts unmarked;
"144Qv2 has a median of 59.9 μs" gave one chip's median to the other; and "Q05 and Q07 are flagged", written with
no tool call, was shown as fact.  Each wrong answer below must not reach the person unmarked; each right one (other
words, other forms of the same count, rounding) is kept as written with no mark.

Expected values are pymongo reads of the demo documents, computed here by hand, never the tools' output.
"""

from __future__ import annotations

import statistics
from collections import Counter
from datetime import timedelta

import pytest

from copilot_core.chat import ChatState
from copilot_core.checking.marks import LEFT_OUT, NOT_CHECKED
from copilot_core.session import Copilot
from copilot_core.settings import load_settings
from copilot_core.skills import SkillLibrary
from tests.agent.page_turn import SMALL, page_turn
from tests.fakes.scripted_openai import SmartRequest, text
from tests.public_eval import CHIP, latest_values, two_runs

REPLACED = "was replaced by one computed from the tool results"
CORRECTED = "Corrected from the data"
NOTES = (NOT_CHECKED, LEFT_OUT, REPLACED, CORRECTED, "could not be checked", "I could not look this up")
OTHER_CHIP = "144Qv2"
BELOW_Q = "How many qubits have T1 below 50 us?"
RUN_Q = "How many tasks failed in the latest run?"
RAMSEY_Q = "How many failures did CheckRamsey have in the last 7 days?"
CHIPS_Q = f"Which chip has the higher median T1, {CHIP} or {OTHER_CHIP}?"
RUNS_Q = "How did the median T1 change between the last two runs?"


def _ask(repo, server, tmp_path, question: str, answer: str) -> tuple[str, str, list[str]]:
    """What the person reads, the claim check's action, and the tools called."""
    def model(request: SmartRequest):
        return text(answer)
    server.smart = model
    turn = page_turn(repo, server, tmp_path, question, SMALL)
    assert turn.answer is not None and turn.result is not None
    return turn.answer.text, turn.result.claims, [o.name for o in turn.result.tool_calls]


def _shown_unmarked(sentence: str, shown: str) -> bool:
    """``sentence`` reaches the person as written, with no mark after it and no note anywhere."""
    at = shown.find(sentence)
    return at >= 0 and not shown[at + len(sentence):].lstrip().startswith(NOT_CHECKED) and \
        not any(note in shown for note in NOTES)


@pytest.fixture(scope="module")
def t(demo_db) -> dict:
    """Every figure the answers below are written from, by hand from the demo documents."""
    t1 = latest_values(demo_db, CHIP, "t1")
    measured = [v for v in t1.values() if v is not None]
    below = sum(1 for v in measured if v < 50)
    size = int(demo_db["chip"].find_one({"chip_id": CHIP})["size"])
    docs = list(demo_db["task_result_history"].find({"chip_id": CHIP}))
    newest = max(docs, key=lambda d: d["start_at"])
    run = [d for d in docs if d["execution_id"] == newest["execution_id"]]
    by_task = Counter(d["name"] for d in run if d["status"] == "failed")
    last_day = newest["start_at"].date()
    window = [d for d in docs if d["name"] == "CheckRamsey" and d["status"] in ("completed", "failed")
              and last_day - timedelta(days=6) <= d["start_at"].date() <= last_day]
    other = [v for v in latest_values(demo_db, OTHER_CHIP, "t1").values() if v is not None]
    before, after = two_runs(demo_db, CHIP, "t1")
    both = [q for q in before if q in after]
    out = {"below": below, "measured": len(measured), "size": size, "failed": sum(by_task.values()),
           "in_run": len(run), "by_task": dict(by_task),
           "ramsey_failed": sum(1 for d in window if d["status"] == "failed"), "ramsey_all": len(window),
           "median": statistics.median(measured), "other_median": statistics.median(other),
           "better": sum(1 for q in both if after[q] > before[q]), "worse": sum(1 for q in both if after[q] < before[q]),
           "compared": len(both)}
    # the answers below are written for these shapes of the data: their wrong numbers are no fact of the turn
    assert 12 < below < 30 and below != 12 and out["failed"] > 3 and out["other_median"] > out["median"] + 1
    assert out["better"] != out["worse"] and out["ramsey_failed"] not in (7, 12, 23)
    assert len({n for n in by_task.values()}) > 1 and min(by_task.values()) != max(by_task.values())
    return out


def _task(t: dict, which: str) -> tuple[str, int]:
    """The task with the most (``"max"``) or fewest failures in the newest run, and its count."""
    pick = max if which == "max" else min
    name = pick(sorted(t["by_task"]), key=lambda k: t["by_task"][k])
    return name, t["by_task"][name]


def _other_count(t: dict, name: str) -> int:
    """Another task's count that is not ``name``'s own."""
    return next(n for k, n in t["by_task"].items() if k != name and n != t["by_task"][name])


# Wrong: a count no tool gave, in every wording of a count and a share.
WRONG = [
    (BELOW_Q, "12 out of {size} qubits have T1 below 50 μs."),
    (BELOW_Q, "12 of the {measured} qubits have T1 below 50 μs."),
    (BELOW_Q, "12/{size} qubits have T1 below 50 μs."),
    (BELOW_Q, "There are 12 qubits with T1 below 50 μs."),
    (BELOW_Q, "{below} out of 70 qubits have T1 below 50 μs."),  # the count right, the denominator made up
    (BELOW_Q, "{below} of the 144 qubits are below 50 μs."),
    (BELOW_Q, "{below}/70 qubits are below 50 μs."),
    (BELOW_Q, "{below} qubits are below 50 μs, and 5 of them are below 30 μs."),  # a limit no tool counted
    (RUN_Q, "{failed} tasks failed out of 700."),
    (RUN_Q, "{failed}/700 tasks failed."),
    (RUN_Q, "{failed} failures in 700 tasks."),
    (RUN_Q, "There were 29 failures in the run."),
    (RUN_Q, "The run had {failed} failures, with 20 failures on {top}."),
    (RUN_Q, "{failed} of {in_run} tasks failed; {low} failed {other} times."),  # another task's count
    (RUN_Q, "{top} failed {failed} times in the latest run."),  # the run's count given to one task
    (RUN_Q, "{failed} failures in {in_run} tasks, about 20 per run."),
    (RAMSEY_Q, "CheckRamsey failed 7 times in the last 7 days."),  # the question's own number as the count
    (RAMSEY_Q, "CheckRamsey had 23 failures out of {ramsey_all} runs."),
    (RAMSEY_Q, "CheckRamsey failed in 12 of {ramsey_all} runs."),
    (RAMSEY_Q, "CheckRamsey failed {ramsey_failed} times out of 500 runs."),
]


@pytest.mark.parametrize("question, template", WRONG)
def test_a_count_no_tool_gave_is_never_shown_unmarked(question, template, t, repo, scripted_openai, tmp_path):
    top, _ = _task(t, "max")
    low, _ = _task(t, "min")
    wrong = template.format(**t, top=top, low=low, other=_other_count(t, low))
    shown, _, _ = _ask(repo, scripted_openai, tmp_path, question, wrong)
    assert not _shown_unmarked(wrong, shown), shown


# Right: the tools' counts in the model's own words and forms.
RIGHT = [
    (BELOW_Q, "{below} out of {measured} qubits have T1 below 50 μs."),
    (BELOW_Q, "{below} of the {size} qubits are below 50 μs."),
    (BELOW_Q, "{below}/{size} qubits have T1 below 50 μs."),
    (BELOW_Q, "There are {below} qubits with T1 below 50 μs."),
    (RUN_Q, "{failed} of {in_run} tasks failed."),
    (RUN_Q, "{failed}/{in_run} tasks failed."),
    (RUN_Q, "{failed} failures in {in_run} tasks."),
    (RUN_Q, "{top} failed {top_n} times, {failed} tasks in total."),
    (RUN_Q, "{failed} tasks failed; {low} failed {low_n} times."),
    (RAMSEY_Q, "CheckRamsey failed {ramsey_failed} times in the last 7 days."),
    (RAMSEY_Q, "CheckRamsey failed in {ramsey_failed} of {ramsey_all} runs."),
    (RAMSEY_Q, "CheckRamsey had {ramsey_failed} failures out of {ramsey_all} runs."),
]


@pytest.mark.parametrize("question, template", RIGHT)
def test_the_tools_count_in_own_words_is_kept_unmarked(question, template, t, repo, scripted_openai, tmp_path):
    (top, top_n), (low, low_n) = _task(t, "max"), _task(t, "min")
    right = template.format(**t, top=top, top_n=top_n, low=low, low_n=low_n)
    shown, claims, _ = _ask(repo, scripted_openai, tmp_path, question, right)
    assert shown.strip() == right and claims == "kept", shown


def test_a_task_given_another_tasks_count_is_corrected_to_its_own(t, repo, scripted_openai, tmp_path):
    low, low_n = _task(t, "min")
    other = _other_count(t, low)
    shown, claims, _ = _ask(repo, scripted_openai, tmp_path, RUN_Q, f"{low} failed {other} times.")
    assert claims == "corrected" and f"{low} failed {low_n} times." in shown, shown


# A comparison garbled: a sum of two medians, one side's value given to the other, the sides swapped.
COMPARE_WRONG = [
    (CHIPS_Q, "{other_chip} has a median T1 of {median:.1f} μs."),  # one chip's median given to the other
    (CHIPS_Q, "The two chips together have a median T1 of {sum:.1f} μs."),
    (CHIPS_Q, "{chip}'s median T1 is {median:.1f} μs and {other_chip}'s is {other_median:.1f} μs, {sum:.1f} μs "
              "combined."),
    (CHIPS_Q, "{chip} has a median T1 of {other_median:.1f} μs, higher than {other_chip}'s {median:.1f} μs."),
    (CHIPS_Q, "The overall median T1 across both chips is {other_median:.1f} μs."),
    (CHIPS_Q, "The average of both medians is {mean:.1f} μs, and {other_chip} is higher."),
    (CHIPS_Q, "{other_chip} is lower, by {diff:.1f} μs."),
    (RUNS_Q, "T1 got worse on {better} of {compared} qubits and better on {worse}."),  # the two counts swapped
    (RUNS_Q, "T1 improved on {worse} qubits."),
    (RUNS_Q, "T1 changed on {compared} qubits in total, {better} worse and {worse} better."),
]


@pytest.mark.parametrize("question, template", COMPARE_WRONG)
def test_a_garbled_comparison_is_never_shown_unmarked(question, template, t, repo, scripted_openai, tmp_path):
    wrong = template.format(**t, chip=CHIP, other_chip=OTHER_CHIP, sum=t["median"] + t["other_median"],
                            mean=(t["median"] + t["other_median"]) / 2, diff=t["other_median"] - t["median"])
    shown, _, _ = _ask(repo, scripted_openai, tmp_path, question, wrong)
    assert not _shown_unmarked(wrong, shown), shown


COMPARE_RIGHT = [
    (CHIPS_Q, "{other_chip} has the higher median T1, {other_median:.1f} μs against {median:.1f} μs on {chip}."),
    (CHIPS_Q, "{chip}'s median T1 is {median:.1f} μs, lower than {other_chip}'s {other_median:.1f} μs."),
    (RUNS_Q, "T1 got worse on {worse} of {compared} qubits and better on {better}."),
    (RUNS_Q, "Of the {compared} qubits compared, {better} improved and {worse} degraded."),
    (RUNS_Q, "T1 changed on {compared} qubits in total, {worse} worse and {better} better."),
]


@pytest.mark.parametrize("question, template", COMPARE_RIGHT)
def test_a_right_comparison_in_own_words_is_kept_unmarked(question, template, t, repo, scripted_openai, tmp_path):
    right = template.format(**t, chip=CHIP, other_chip=OTHER_CHIP)
    shown, claims, _ = _ask(repo, scripted_openai, tmp_path, question, right)
    assert claims == "kept" and "not checked" not in shown and "Note" not in shown, shown
    if shown.strip() != right:  # a right sentence naming the lower chip first: the chip asked for is put before it
        lead = f"{OTHER_CHIP} has the higher median T1: {t['other_median']:.1f} μs vs {t['median']:.1f} μs on {CHIP}."
        assert shown.strip() == f"{lead}\n\n{right}", shown  # the fixture holds other_median > median


# No tool call this turn, no factual answer: a terse question gets the router's call, and an answer written with no
# call is never shown as fact (after a follow-up and after a clarification too).
@pytest.mark.parametrize("question, tool", [
    ("count bad T1 qubits?", "filter_metric"), ("list flagged qubits", "get_chip_summary"),
    ("# of failed runs today", "get_run_failures"), ("list failed tasks", "get_run_failures"),
    ("count failed tasks?", "get_run_failures"), ("list failing qubits", "get_run_failures"),
    ("flagged qubits?", "get_chip_summary"),
])
def test_a_terse_list_or_count_question_gets_a_call(question, tool, repo, scripted_openai, tmp_path):
    _, _, called = _ask(repo, scripted_openai, tmp_path, question, "Q05 and Q07.")
    assert called[:1] == [tool], called


def _page(repo, server, tmp_path) -> tuple[Copilot, ChatState]:
    settings = load_settings({"DATA_DIR": str(tmp_path)})
    copilot = Copilot(repo, settings=settings, skills=SkillLibrary.load(), memory=None, gate=False)
    return copilot, ChatState(username="local", provider=server.provider("chat_completions", model=SMALL),
                              chip_id=CHIP)


INVENTED = ["Q05 and Q07 are flagged.", "CheckT1 failed 4 times.", "Q12 has the lowest T1 on the chip."]


@pytest.mark.parametrize("invented", INVENTED)
def test_an_answer_with_no_call_is_not_shown_as_fact_after_a_follow_up(invented, repo, scripted_openai, tmp_path):
    copilot, state = _page(repo, scripted_openai, tmp_path)
    scripted_openai.smart = lambda request: text("The median T1 is what the tool says.")
    copilot.ask(state, "What's the chip's median T1?", clarify=True)
    scripted_openai.smart = lambda request: text(invented)
    turn = copilot.ask(state, "And how does that compare with the others?", clarify=True)
    shown = turn.answer.text if turn.answer is not None else ""
    assert not _shown_unmarked(invented, shown), shown


@pytest.mark.parametrize("invented", INVENTED)
def test_an_answer_with_no_call_is_not_shown_as_fact_after_a_clarification(invented, repo, scripted_openai, tmp_path):
    from copilot_core.answer.blocks import AskBlock
    from copilot_core.routing.clarify import choice_message
    copilot, state = _page(repo, scripted_openai, tmp_path)
    scripted_openai.smart = lambda request: text(invented)
    first = copilot.ask(state, "What is T2 on the chip?", clarify=True)
    ask = next((b for b in (first.answer.blocks if first.answer else []) if isinstance(b, AskBlock)), None)
    assert ask is not None and ask.choice is not None
    chosen = choice_message("What is T2 on the chip?", ask.choice, ask.options, 0)
    assert chosen is not None
    turn = copilot.ask(state, chosen, clarify=True)
    shown = turn.answer.text if turn.answer is not None else ""
    assert not _shown_unmarked(invented, shown), shown


@pytest.mark.parametrize("invented", INVENTED)
def test_an_answer_with_no_call_is_never_shown_as_fact(invented, repo, scripted_openai, tmp_path):
    shown, _, _ = _ask(repo, scripted_openai, tmp_path, "How many failures did CheckT1 have?", invented)
    assert not _shown_unmarked(invented, shown), shown
