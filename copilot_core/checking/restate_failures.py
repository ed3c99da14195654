"""The elements of a failure-ranking question the restate check (:mod:`~copilot_core.checking.restate`) holds:
the subject ranked (task, qubit, coupling, run or chip), the family of tasks it is narrowed to ("among the coupling
tasks"), and a rate against a count ("relative to how often it runs", "lowest success rate").  A call ranking
another subject, over another family, or by count where a rate is asked is a mismatch; :func:`failure_rebuilt`
re-makes it as the question reads it (the router's own plan, :func:`~copilot_core.routing.counts.failure_plan`).
"""

from __future__ import annotations

from copilot_core.checking.restate_elements import call_window, same_window, window_mismatch
from copilot_core.domain.task_families import FAMILY_WORDS
from copilot_core.language.question import Question
from copilot_core.routing.counts import (failure_family, failure_plan, failure_subject, rate_asked, window_args,
                                         window_days)

_RANKINGS = frozenset({"failure_ranking", "count_in_window", "get_run_failures"})


def _asked(asked: Question) -> bool:
    return asked.shape == "fails most" or asked.has("never fails")


def failure_mismatches(asked: Question, name: str, args: dict) -> list[str]:
    """What a failure ranking (or a count standing in for one) leaves out of a "fails most" question, in words."""
    if not _asked(asked) or name not in _RANKINGS or args.get("qids"):
        return []
    subject = failure_subject(asked)
    chip = args.get("chip_id")
    other_chip = [f"asks about {asked.chip_ids[0]}, not {chip}"] if len(asked.chip_ids) == 1 and \
        isinstance(chip, str) and chip.lower() != asked.chip_ids[0].lower() else []
    if name == "get_run_failures":  # one run's failed tasks: no ranking over the runs stored
        return [f"asks which {subject or 'task'} fails most over the stored runs, not one run's failed tasks"]
    if name == "count_in_window":  # the chips side by side: right only for "which chip", and by count
        if not args.get("chip_ids"):
            return [] if subject == "chip" else [f"asks which {subject or 'task'} fails most, not one count"]
        if subject != "chip":
            return [f"asks which {subject or 'task'} fails most, not a count per chip"]
        return ["asks for a failure rate (failed over finished results), not a count of failures"] \
            if rate_asked(asked) else []
    # the elements' own window check already holds a written window to this call: one note, not two
    out = other_chip + ([] if window_mismatch(asked, name, args) is not None else _window_mismatch(asked, args))
    by = str(args.get("by") or "task")
    if subject is not None and subject != by:
        out.append(f"asks which {subject} fails most, not which {by}")
    family, given = failure_family(asked), args.get("family")
    if family is not None and given != family:
        out.append(f"counts only the {FAMILY_WORDS[family]} tasks" +
                   (f", not the {FAMILY_WORDS.get(str(given), str(given))} ones" if given else ""))
    elif family is None and given:
        out.append(f"counts every task, not only the {FAMILY_WORDS.get(str(given), str(given))} ones")
    if rate_asked(asked) and args.get("rate") is not True:
        out.append("asks for a failure rate (failed over finished results), not a count of failures")
    elif not rate_asked(asked) and args.get("rate") is True:
        out.append("asks for a count of failures, not a failure rate")
    return out


def _window_mismatch(asked: Question, args: dict) -> list[str]:
    """A ranking over another window than the question's (none written: every stored run)."""
    wanted, given = window_args(asked, window_days(asked)), call_window(args)
    if same_window(wanted, given):
        return []
    def said(window: dict) -> str:
        return ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in window.items()) or "every stored run"
    return [f"ranks over {said(wanted)}, not {said(given)}"]


def failure_rebuilt(asked: Question, name: str, args: dict) -> tuple[str, dict] | None:
    """The ranking the question asks for, on the call's chip, when the call ranks another subject, family or
    measure; None when it is no failure ranking or the question cannot be planned."""
    if not failure_mismatches(asked, name, args) or asked.chips_compared:
        return None  # several chips at once: no one ranking restates it (the answer gets the note)
    chip = args.get("chip_id")
    plan = failure_plan(asked, chip if isinstance(chip, str) else "", window_days(asked))
    if plan is None or not isinstance(plan.args.get("chip_id"), str) or not plan.args["chip_id"]:
        return None
    return plan.name, dict(plan.args)
