"""The elements of a failure-ranking question the restate check (:mod:`~copilot_core.checking.restate`) holds:
the subject ranked (task, qubit, coupling, run or chip), the family of tasks it is narrowed to ("among the coupling
tasks"), and a rate against a count ("relative to how often it runs", "lowest success rate").  A call ranking
another subject, over another family, or by count where a rate is asked is a mismatch; :func:`failure_rebuilt`
re-makes it as the question reads it (the router's own plan, :func:`~copilot_core.routing.counts.failure_plan`).
"""

from __future__ import annotations

from copilot_core.checking.restate_elements import call_window, same_window, window_mismatch
from copilot_core.checking.restate_sides import ONE_CHIP
from copilot_core.domain.task_families import FAMILY_WORDS
from copilot_core.language.question import Question
from copilot_core.routing.planned import PlannedCall
from copilot_core.routing.prefetch import plan_prefetch
from copilot_core.routing.counts import (distinct_plan, failure_family, failure_plan, failure_subject, rate_asked,
                                         run_asked, window_args, window_days)

_RANKINGS = frozenset({"failure_ranking", "count_in_window", "get_run_failures"})
# calls that list results, runs or notes: no count over a window ("how many failed in the last 3 days")
LISTINGS = frozenset({"get_run_failures", "search_task_results", "get_calibration_notes", "get_execution_history"})


def _count_call(asked: Question, chip: object) -> PlannedCall | None:
    """The router's count (or distinct-failures ranking) for a count over a window, on ``chip``; else None."""
    if asked.shape != "window count" or not isinstance(chip, str) or not chip:
        return None
    plan = plan_prefetch(asked.text, chip_id=chip, chips=asked.installed)
    return plan if plan is not None and plan.name in ("count_in_window", "failure_ranking") else None


def restates_count(asked: Question, name: str, args: dict) -> bool:
    """The call counts what a count over a window asks, over its window and chip (the router's count, restated)."""
    return _count_call(asked, args.get("chip_id")) is not None and not failure_mismatches(asked, name, args)


def _asked(asked: Question) -> bool:
    return asked.shape == "fails most" or asked.has("never fails") or _distinct(asked) is not None


def _distinct(asked: Question) -> str | None:
    """"How many different qubits failed": the subject whose distinct failing ones are counted, else None."""
    plan = distinct_plan(asked, "", window_days(asked))
    return str(plan.args["by"]) if plan is not None else None


def failure_mismatches(asked: Question, name: str, args: dict) -> list[str]:
    """What a failure ranking (or a count standing in for one) leaves out of a "fails most" question, in words; a
    listing (one run's failures, a search) standing in for a count over a window."""
    if name in LISTINGS and (plan := _count_call(asked, args.get("chip_id"))) is not None:
        return [f"asks for a count over a window ({plan.reason}), not a listing of {name.replace('_', ' ')}"]
    if (counted := _count_call(asked, args.get("chip_id"))) is not None and counted.name == "failure_ranking" and \
            not _distinct(asked) and name in _RANKINGS and not args.get("qids") and not args.get("chip_ids"):
        return _kind_mismatch(asked, name, args, str(counted.args["by"])) + _chip_mismatch(counted, args)
    if counted is not None and counted.name == "count_in_window" and not _asked(asked) and name in _RANKINGS:
        return _count_mismatch(counted, name, args)
    if not _asked(asked) or name not in _RANKINGS | LISTINGS | ONE_CHIP or args.get("qids"):
        return []
    distinct = _distinct(asked)
    subject = distinct or failure_subject(asked)
    if name not in _RANKINGS:  # a listing or one chip's statistics: no count per subject to rank by
        return [f"asks which {subject or 'task'} fails most, not a {name.replace('_', ' ')} call"]
    chip = args.get("chip_id")
    other_chip = [f"asks about {asked.chip_ids[0]}, not {chip}"] if len(asked.chip_ids) == 1 and \
        isinstance(chip, str) and chip.lower() != asked.chip_ids[0].lower() else []
    run = run_asked(asked)
    if name == "get_run_failures":  # one run's failed tasks: no ranking over the runs stored
        return [f"asks which {subject or 'task'} fails most " + (f"in {_run_said(run)}" if run else
                "over the stored runs") + ", not one run's failed tasks listed"]
    if name == "count_in_window":  # the chips side by side: right only for "which chip", and by count
        if distinct is not None:
            return [f"asks how many distinct {distinct}s had a failure, not a count of failed results"]
        if not args.get("chip_ids"):
            return [] if subject == "chip" else [f"asks which {subject or 'task'} fails most, not one count"]
        if subject != "chip":
            return [f"asks which {subject or 'task'} fails most, not a count per chip"]
        return ["asks for a failure rate (failed over finished results), not a count of failures"] \
            if rate_asked(asked) else []
    given_run = args.get("execution_id")
    if run is not None or given_run is not None:  # a run is its own window
        out = other_chip + ([] if given_run == run else [_runs_said(run, given_run)])
    else:  # the elements' own window check already holds a written window to this call: one note, not two
        out = other_chip + ([] if window_mismatch(asked, name, args) is not None else _window_mismatch(asked, args))
    by = str(args.get("by") or "task")
    if subject is not None and subject != by:
        out.append(f"asks which {subject} fails most, not which {by}")
    task = asked.task_name
    if task is not None and by != "task" and str(args.get("task_name") or "").lower() != task.lower():
        out.append(f"counts only the failures of {task}")
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


def _kind_mismatch(asked: Question, name: str, args: dict, kind: str) -> list[str]:
    """A count of one kind's failures ("coupler calibrations") over a window: a count over every subject, a ranking
    of another kind, or over another window than the question's, misses it."""
    given = str(args.get("by") or "task") if name == "failure_ranking" else None
    out = [] if given == kind else [f"counts only the {kind}s' failures, not every failed result"]
    return out + ([] if window_mismatch(asked, name, args) is not None else _window_mismatch(asked, args))


def _count_mismatch(counted: PlannedCall, name: str, args: dict) -> list[str]:
    """A count over a window ("how many runs since Tuesday", "failed tasks yesterday") made as a ranking, a count of
    another kind, over another window or on another chip than the router's count: each is another number."""
    if args.get("qids") or args.get("chip_ids"):
        return []  # several subjects or chips side by side: the sides check holds those
    want, given = counted.args, args
    what, said = str(want.get("what")), str(given.get("what") if name == "count_in_window" else name)
    out = [] if what == said or (what, said) == ("failed runs", "runs") else [f"counts {what}, not {said}"]
    wanted, window = call_window(want), call_window(given)
    if not same_window(wanted, window):
        out.append(f"counts over {_said(wanted)}, not {_said(window)}")
    return out + _chip_mismatch(counted, given)


def _chip_mismatch(counted: PlannedCall, given: dict) -> list[str]:
    """The count's chip (the one named, else the one in view) is not the call's."""
    want = str(counted.args.get("chip_id"))
    return [] if str(given.get("chip_id") or "").lower() == want.lower() else \
        [f"counts on {want}, not {given.get('chip_id')}"]


def _said(window: dict) -> str:
    return ", ".join(f"the last {v} runs" if k == "last_runs" else f"{k.replace('_', ' ')} {v}"
                     for k, v in window.items()) or "every stored run"


def _run_said(run: object) -> str:
    """A run as a note names it: by its place ("the latest run") or its id."""
    return "every stored run" if run is None else f"the {run} run" if run in ("latest", "previous") else f"run {run}"


def _runs_said(wanted: str | None, given: object) -> str:
    return f"ranks the failures of {_run_said(wanted)}, not {_run_said(given)}"


def _window_mismatch(asked: Question, args: dict) -> list[str]:
    """A ranking over another window than the question's (none written: every stored run)."""
    wanted, given = window_args(asked, window_days(asked)), call_window(args)
    if same_window(wanted, given):
        return []
    return [f"ranks over {_said(wanted)}, not {_said(given)}"]


def failure_rebuilt(asked: Question, name: str, args: dict) -> tuple[str, dict] | None:
    """The ranking the question asks for, on the call's chip, when the call ranks another subject, family or
    measure; None when it is no failure ranking or the question cannot be planned."""
    if not failure_mismatches(asked, name, args) or asked.chips_compared:
        return None  # several chips at once: no one ranking restates it (the answer gets the note)
    counted = _count_call(asked, args.get("chip_id"))
    if counted is not None and (name in LISTINGS or not _asked(asked)):
        return counted.name, dict(counted.args)
    chip = args.get("chip_id") if isinstance(args.get("chip_id"), str) else ""
    plan = distinct_plan(asked, str(chip), window_days(asked)) or failure_plan(asked, str(chip), window_days(asked))
    if plan is None or not isinstance(plan.args.get("chip_id"), str) or not plan.args["chip_id"]:
        return None
    return plan.name, dict(plan.args)
