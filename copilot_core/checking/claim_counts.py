"""A count or a total in the model's own words, held to the counts the turn's tools returned.

A count ("12 out of 64 qubits", "failed 14 times", "3 errors", "13/750") or a total (the "64" of "out of 64", "in
750 tasks", a figure said "combined", "in total", "together" or "overall") states what a tool counted or summed.
Only a fact of that role may hold it: a count no tool gave is never "in a tool result's text" because the same
digits are a qubit's name, a date, a value or a limit somewhere in the results.  So a count or total that no count
or total fact holds is:

- ``wrong`` when the tools counted the same items (failed, missing, below/above the same limit) or gave totals: the
  answer is replaced by the tools' sentence, or the sentence left out;
- ``unchecked`` when no tool counted them (a limit of its own, a noun nobody counted): the sentence is marked.

A count said of a task ("CheckRamsey failed 2 times") is held to that task's own count when the tools counted per
task, never to the run's or another task's; one said of runs (executions) that the tools counted as task results,
and one said of task results the tools counted as runs, is wrong.  A figure said to be a total that is one side's
statistic of several (two chips' medians "combined") is wrong.
"""

from __future__ import annotations

from collections.abc import Sequence

from copilot_core.checking.claim_facts import Fact, Verdict, is_task
from copilot_core.checking.claim_reading import Reading, limits_after
from copilot_core.checking.matcher import states
from copilot_core.domain.metrics import metric
from copilot_core.language.answer_words import ANSWER_WORDS
from copilot_core.language.count_units import noun_counted
from copilot_core.language.question_words import task_words

_LEVELS = ("median", "mean", "min", "max", "latest", "value", "other")


def unmatched_count(reading: Reading, role: str, qualifier: str | None, facts: Sequence[Fact],
                    task: str | None = None) -> tuple[Verdict, str]:
    """The verdict on a count or total that no count or total fact of the turn holds (``task``: the task the count
    is said of)."""
    what = "total" if role == "total" else f"count of {qualifier} items" if qualifier else "count"
    if role == "total":
        counted = [f for f in facts if f.role in ("total", "count")]
    elif qualifier in ("below", "above"):
        limits = {float(n) for _, n in limits_after(reading.clause)} or {float(n) for _, n in limits_after(
            reading.sentence)}
        tool_limits = {f.value for f in facts if f.role == "threshold" and f.qualifier != "catalogue"}
        counted = [f for f in facts if f.role == "count" and f.qualifier in (qualifier, "matching")] \
            if limits & tool_limits else []
    elif qualifier is not None:
        counted = [f for f in facts if f.role == "count" and same_items(qualifier, f)]
    else:
        counted = [f for f in facts if f.role in ("count", "total") and f.qualifier is None]
    counted = of_subject(counted, task, facts) if role == "count" else counted
    if counted:
        return "wrong", f"{reading.written} is no {what} the tools give (they give {_listed(counted)})"
    return "unchecked", f"no tool gave the {what} {reading.written} is said to be"


def same_items(qualifier: str | None, fact: Fact) -> bool:
    """A count fact counts the items a claim's qualifier names: the same qualifier, a limit's "matching" items for
    below/above, or for a metric whose higher values are better the items that fell as the worse ones (rose: better;
    reversed for a metric whose lower values are better)."""
    if fact.qualifier == qualifier or (fact.qualifier == "matching" and qualifier in ("below", "above")):
        return True
    if qualifier not in ("fell", "rose") or fact.qualifier not in ("better", "worse") or fact.metric is None:
        return False
    return ((qualifier == "rose") == (fact.qualifier == "better")) == metric(fact.metric).higher_is_better


def task_named(reading: Reading, facts: Sequence[Fact]) -> str | None:
    """The task a count is said of, as the tools name it: the nearest task name before the number in its sentence,
    else the first after it in its clause; None when the clause names none or the tools counted no task by itself."""
    tasks = {f.subject.lower(): f.subject for f in facts if f.role == "count" and f.subject and is_task(f.subject)}
    if not tasks:
        return None
    clause_before, after = task_words(reading.before), task_words(reading.after)
    own_after = reading.after[:next((i for i, c in enumerate(reading.after) if c.isdigit()), len(reading.after))]
    if ANSWER_WORDS["aggregate"].search(own_after[:30]) is not None or (
            not clause_before and not after and ANSWER_WORDS["aggregate"].search(reading.clause) is not None):
        return None  # "…, 13 tasks in total": the whole run's, not the task named before
    before = clause_before or task_words(reading.sentence)
    named = before[-1][2] if before else after[0][2] if after else None
    return tasks.get(named.lower(), named) if named else None


def of_subject(counts: Sequence[Fact], task: str | None, facts: Sequence[Fact]) -> list[Fact]:
    """The counts a count said of ``task`` (None: of no task) may be: that task's own when the tools counted per
    task, and never a task's own count for one said of none."""
    if not any(f.role == "count" and is_task(f.subject) for f in facts):
        return list(counts)
    if task is None or not is_task(task):  # said of no task, or of a qubit: never one task's own count
        return [f for f in counts if not is_task(f.subject)]
    return [f for f in counts if f.subject is not None and f.subject.lower() == task.lower()]


def total_of_one_side(reading: Reading, pool: Sequence[Fact], facts: Sequence[Fact]) -> tuple[Verdict, str]:
    """A figure said "combined", "together", "overall" or "in total" that only a statistic holds: ``ok`` when the
    turn has that statistic once (the chip's median, said "overall"), ``wrong`` when it is one of several (two
    chips' or two runs' medians, one of them written as their sum or as both)."""
    levels = [f for f in pool if f.role in _LEVELS and f.subject is None]
    for fact in levels:
        others = {f.value for f in facts if f.role == fact.role and f.metric == fact.metric and f.subject is None
                  and f.tool == fact.tool and not states(f.value, 4, fact.value)}
        if not others:
            return "ok", "the one statistic of its kind the tools give"
    held = pool[0].describe() if pool else "no total"
    return "wrong", f"{reading.written} is {held} of one side, not a total of several"


def counted_as(reading: Reading, fitting: Sequence[Fact]) -> tuple[Verdict, str]:
    """A count the tools give, said of other items than they counted: the number of failed task results written
    as runs ("13 runs had a failed task" when 13 task results failed) is ``wrong``; else ``ok``."""
    said = noun_counted(reading.after)
    units = {f.counted for f in fitting}
    if said is None or None in units or said in units:
        return "ok", ""
    return "wrong", f"{reading.written} is a count of {units.pop()}, not of {said}"


def _listed(facts: Sequence[Fact]) -> str:
    values = sorted({f"{f.value:g}" for f in facts}, key=float)
    return ", ".join(values[:4])
