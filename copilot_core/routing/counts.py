"""The router's counting calls: how many in a window (dates written out, "since Monday", the last N days), and
counts side by side (two chips, two qubits' failures or calibrations)."""

from __future__ import annotations

from copilot_core.domain.metrics import CATALOGUE
from copilot_core.domain.task_families import Family
from copilot_core.language.phrases import Phrases
from copilot_core.language.question import WORDS, Question
from copilot_core.routing.planned import PlannedCall


def window_days(asked: Question) -> int | None:
    """Whole days of the question's window ("last 3 days", "past two weeks", "the last 48 hours": 2, rounded up;
    "recently": the default), else None ("this month" is a date: since the 1st)."""
    return asked.window.whole_days if asked.window is not None else None


def days_args(asked: Question, days: int | None, *, one_day: bool = True) -> dict:
    """"yesterday": that one day (a history, which takes whole days only: the last two, shown with their dates);
    else the last N days; else nothing (every stored run)."""
    if asked.window is not None and asked.window.yesterday:
        return {"day": "yesterday"} if one_day else {"days": 2}
    return {"days": days} if days is not None else {}


def window_args(asked: Question, days: int | None) -> dict:
    """Dates written out ("between 1 and 15 November", "on Tuesday"): those whole days, both ends included;
    "since Monday", "this week": from a weekday on; the chip's newest N runs; else :func:`_days_args`."""
    if asked.dates is not None:
        first, last = asked.dates
        return {key: day for key, day in (("from_date", first), ("to_date", last)) if day is not None}
    if asked.since_weekday is not None:
        return {"since_weekday": asked.since_weekday}
    if asked.last_runs is not None:  # "over its last 5 runs": those runs' results, whatever their days
        return {"last_runs": asked.last_runs}
    return days_args(asked, days)


def narrowed(asked: Question) -> dict:
    """The one qubit and the task a count is narrowed to."""
    out: dict = {"qid": asked.qubits[0]} if len(asked.qubits) == 1 else {}
    return out | ({"task_name": asked.task_name} if asked.task_name is not None else {})


def runs_asked(asked: Question) -> bool:
    """It counts runs (executions), not task results: "runs", "executions" and no task word or task named, or
    runs (batches, jobs) that held a failure (the question's counted unit)."""
    unit = asked.counted.unit if asked.counted is not None else None
    return unit in ("failed runs", "runs with failures") or \
        asked.has("execution") and not asked.has("tasks") and asked.task_name is None and not _only_window_runs(asked)


def _only_window_runs(asked: Question) -> bool:
    """Its one run word is its window's ("failed results over the last 8 runs"): the results are counted."""
    rule = WORDS["execution"]
    return asked.last_runs is not None and isinstance(rule, Phrases) and len(rule.find(asked.text)) <= 1


def failed_counted(asked: Question) -> str | None:
    """What a count of failures counts: "runs with failures" (executions holding at least one failed result: "how
    many runs had a failed task"), "failed runs" (executions whose status is failed: "how many runs failed") or
    "failed tasks" (task results); None when it counts no failures."""
    if asked.counted is not None and asked.counted.unit == "runs with failures":
        return "runs with failures"
    if not (asked.has("fail") or asked.shape == "fails most"):
        return None
    return "failed runs" if runs_asked(asked) else "failed tasks"


# A kind of task result a count counts, by the words that ask for it (first row held wins: "not excluded" is usable).
_KINDS = (("usable words", "usable tasks"), ("excluded words", "excluded tasks"), ("completed words", "completed tasks"))


def kind_counted(asked: Question) -> str | None:
    """What a count of task results counts: failed runs or failed tasks (:func:`failed_counted`), else excluded,
    usable (completed, not excluded) or completed task results when the question says so; None when it says no
    kind (runs, measurements or every finished task result)."""
    failed = failed_counted(asked)
    if failed is not None or runs_asked(asked):
        return failed
    return next((kind for row, kind in _KINDS if asked.has(row)), None)


KINDS = frozenset(kind for _, kind in _KINDS)


def counted_kind(asked: Question) -> str | None:
    """What a count counts, :func:`kind_counted`'s kinds and calibration notes ("how many notes this week")."""
    return "notes" if asked.has("notes") and not asked.has("fail") else kind_counted(asked)


def count_plan(asked: Question, chip_id: str, days: int | None, clear: list[str], one: str | None) \
        -> PlannedCall | None:
    """How many failed task results or runs, results of a task, usable measurements or runs in the window."""
    chip = asked.chip_ids[0] if len(asked.chip_ids) == 1 else chip_id
    args: dict = {"chip_id": chip, **window_args(asked, days), **narrowed(asked),
                  **({"per_day": True} if asked.has("per day") else {})}
    if asked.has("notes") and not asked.has("fail"):  # calibration notes: one a run, per chip
        return PlannedCall("count_in_window", {"chip_id": chip, **window_args(asked, days), "what": "notes"},
                           "calibration notes in a window")
    if (runs := failed_counted(asked)) in ("failed runs", "runs with failures"):
        return PlannedCall("count_in_window", {**args, **share_total(asked), "what": runs}, f"{runs} in a window")
    if asked.has("fail") and asked.task_name is None and (kind := failed_kind(asked)) is not None:  # the ranking's total
        return PlannedCall("failure_ranking", {"chip_id": chip, "by": kind, **window_args(asked, days),
                                               **narrowed(asked)}, f"failed {kind} results in a window")
    if asked.has("fail"):
        return PlannedCall("count_in_window", {**args, **_family(asked), "what": "failed tasks"},
                           "failed tasks in a window")
    if not clear and asked.has("execution"):
        return PlannedCall("count_in_window", {**args, "what": "runs"}, "runs in a window")
    kind = kind_counted(asked)
    if kind is not None and not (kind == "usable tasks" and one is not None):  # a metric's usable: measurements
        task = {"task_name": CATALOGUE[one].task} if one is not None and CATALOGUE[one].task and \
            asked.task_name is None else {}
        return PlannedCall("count_in_window", {**args, **task, **_family(asked), "what": kind}, f"{kind} in a window")
    if asked.task_name is not None:
        return PlannedCall("count_in_window", {**args, "what": "task results"}, "a task's results in a window")
    if one is not None and CATALOGUE[one].kind == "qubit":
        return PlannedCall("count_in_window", {**args, "what": "measurements", "metric_name": one,
                                               **past_limits(asked, one)}, f"{one} measurements in a window")
    if not clear and asked.has("tasks"):
        return PlannedCall("count_in_window", {**args, **_family(asked), "what": "task results"},
                           "task results in a window")
    return None


def tasks_named(asked: Question) -> bool:
    """A failure question whose task words name a task or a family of tasks ("Ramsey results", "readout tasks"):
    those words name what is counted, not a metric asked about."""
    return asked.has("fail") and (asked.task_name is not None or failure_family(asked) is not None)


def share_total(asked: Question) -> dict:
    """What a share of failed task results is taken over beyond its window, as arguments: the family of tasks named,
    and the qubits listed ("on qubits 4, 5 and 6": one set, its results pooled); a run of qubits ("Q10 through Q19")
    is :func:`~copilot_core.routing.limits.over_qubit_set`'s."""
    listed = {"qubits": sorted(int(q) for q in asked.qubits)} if len(asked.qubits) >= 2 and not asked.span else {}
    return _family(asked) | listed


def _family(asked: Question) -> dict:
    """The family of tasks a count of task results is narrowed to (:func:`failure_family`), as an argument; none
    named, none."""
    family = failure_family(asked)
    return {"family": family} if family is not None else {}


def past_limits(asked: Question, metric: str) -> dict:
    """The question's limits of ``metric`` (or of no metric named) as ``below``/``above`` in its display unit: a
    count of measurements past them; a limit in a unit the metric cannot have, none."""
    entry = CATALOGUE[metric]
    out = {}
    for t in asked.limits:
        value = entry.in_display(t.value, t.unit) if t.metric in (metric, None) else None
        if value is not None:
            out[t.side] = value
    return out


_DISTINCT = {"qubits": "qubit", "couplings": "coupling", "pairs": "coupling", "tasks": "task", "runs": "run",
             "executions": "run"}


def distinct_plan(asked: Question, chip_id: str, days: int | None) -> PlannedCall | None:
    """"How many different qubits failed this week?": the failures per qubit (coupling, task, run), whose answer
    says how many distinct ones had a failure; a count of failed results is :func:`count_plan`'s."""
    said = asked.said("distinct count")
    if said is None or not asked.has("fail") or asked.qubits or len(asked.chips_compared) >= 2 or asked.limits or \
            any(asked.metrics):  # "how many couplings fail to reach 95%": a limit of a metric, no task failure
        return None
    chip = asked.chip_ids[0] if len(asked.chip_ids) == 1 else chip_id
    within = {"task_name": asked.task_name} if asked.task_name is not None else {}
    return PlannedCall("failure_ranking", {"chip_id": chip, "by": _DISTINCT[said.split()[-1]],
                                           **window_args(asked, days), **within}, "how many distinct ones failed")


def failures_compared(asked: Question, chip_id: str, days: int | None) -> PlannedCall | None:
    """"Did Q5 or Q9 fail more tasks this week?": the failure counts of the qubits named, side by side (counts,
    never a metric's values)."""
    if not asked.has("fail") or not 2 <= len(asked.qubits) <= 8 or asked.couplings or asked.has("why failed") or \
            not (asked.shape == "fails most" or asked.has("count words") or asked.has("pair words")):
        return None
    chip = asked.chip_ids[0] if len(asked.chip_ids) == 1 else chip_id
    args = {"chip_id": chip, "by": "qubit", "qids": sorted(asked.qubits, key=int), **window_args(asked, days),
            **({"task_name": asked.task_name} if asked.task_name is not None else {})}
    return PlannedCall("failure_ranking", args, "failure counts of the qubits named")


def counts_side_by_side(asked: Question, chip_id: str, days: int | None, one: str | None) -> PlannedCall | None:
    """Two chips named, or each chip asked for ("per chip"), with failures, runs or a count over a window; two
    qubits named with how often they were calibrated: one count per chip (one window for all) or per qubit named,
    side by side.  Failed runs when it counts runs that failed, else failed task results."""
    failed = failed_counted(asked)
    every = asked.has("by chip") or asked.has("pooled chips") and failed is not None  # "fleet-wide failures": each
    chips = list(asked.chips_compared) or (list(asked.installed) if every else [])
    kind = counted_kind(asked) if one is None else None  # excluded, usable or completed results, or notes
    runs = (asked.has("execution") or asked.has("calibrated")) and one is None
    if len({c.lower() for c in chips}) >= 2 and not asked.qubits and \
            (failed or kind or runs or asked.has("count words")):
        what = failed or kind or ("runs" if runs else
                                  "measurements" if one is not None and asked.has("count words") else None)
        if what is None or what == "measurements" and (CATALOGUE[one or ""].kind != "qubit" or asked.limits):
            return None  # "how many qubits on each chip have T1 below 30 μs" counts qubits: compare_chips' share
        distinct = what == "failed tasks" and (said := asked.said("distinct count")) is not None and \
            said.split()[-1] == "qubits"  # distinct qubits: each counted once
        args: dict = {"chip_id": chips[0], "what": what, "chip_ids": chips[:4], **window_args(asked, days),
                      **({"distinct_qubits": True} if distinct else {}),
                      **({"metric_name": one} if what == "measurements" else {}),
                      **({"task_name": asked.task_name} if asked.task_name is not None else {})}
        return PlannedCall("count_in_window", args, f"{what} on each chip")
    counted = asked.has("count words") or asked.has("pair words")
    if 2 <= len(asked.qubits) <= 8 and not asked.couplings and not asked.has("fail") and counted and \
            asked.has("calibrated") and not asked.metrics:
        chip = asked.chip_ids[0] if len(asked.chip_ids) == 1 else chip_id
        return PlannedCall("count_in_window", {"chip_id": chip, "what": "runs", "qids": sorted(asked.qubits, key=int),
                                               **window_args(asked, days)}, "calibration runs of each qubit named")
    return None


_FAMILY_ROWS: tuple[tuple[str, Family], ...] = (("readout tasks", "readout"), ("coupling tasks", "coupling"),
                                                ("qubit tasks", "qubit"))
_SUBJECT_ROWS = (("by chip", "chip"), ("by coupling", "coupling"), ("by qubit", "qubit"), ("by run", "run"))


def failure_family(asked: Question) -> Family | None:
    """The one family of tasks a failure question is narrowed to ("among the coupling tasks", "readout
    calibrations only"); None when it names none, or two."""
    named = [family for row, family in _FAMILY_ROWS if asked.has(row)]
    return named[0] if len(named) == 1 else None


def failure_subject(asked: Question) -> str | None:
    """What a failure question ranks, as the question writes it: ``chip``, ``coupling``, ``qubit``, ``run``, else
    ``task`` when it names a family of tasks or a task word; None when it names no subject ("what fails most?").
    A family's words are no subject ("which coupling task": tasks, of the coupling family)."""
    rest = asked.without("rate words") if asked.has("rate words") else asked  # "how often it runs": no run
    for row, _ in _FAMILY_ROWS:
        rest = rest.without(row) if rest.has(row) else rest
    for row in ("previous run", "latest run", "day run"):  # "in the latest run": the run ranked within, no subject
        rest = rest.without(row) if rest.has(row) else rest
    written = sorted((_first_at(rest, row), subject) for row, subject in _SUBJECT_ROWS if rest.has(row))
    if written:
        return written[0][1]  # the subject written first ranks: a run named before a qubit task ranks runs
    return "task" if failure_family(asked) is not None or asked.has("tasks") else None


def _first_at(asked: Question, row: str) -> int:
    """Where the first words of ``row`` are in the question (a row of phrases; else its start)."""
    rule = WORDS[row]
    found = rule.find(asked.text) if isinstance(rule, Phrases) else []
    return found[0][0] if found else 0


def failed_kind(asked: Question) -> str | None:
    """``coupling`` or ``qubit`` when a count of failures is of one kind of subject ("how many coupler calibrations
    failed"): QDash's coupling results are those whose id joins two qubits; None when it names no such kind."""
    if asked.qubits or asked.couplings:
        return None  # one subject's own failures: the count narrowed to it
    asked = asked.without("sized chip") if asked.has("sized chip") else asked  # "the 64-qubit chip": a chip
    coupling = asked.has("coupling kind")
    qubit = (asked.without("coupling kind") if coupling else asked).has("qubit kind")
    return None if coupling == qubit else "coupling" if coupling else "qubit"  # both named: every subject


def run_asked(asked: Question) -> str | None:
    """The one run a failure ranking is narrowed to: the execution id written ("in 20261111-003"), ``latest`` for
    "in the latest run", ``previous`` for "the run before that"; None when it names none, or ranks the runs."""
    if failure_subject(asked) == "run":
        return None
    return asked.execution_id or ("previous" if asked.has("previous run") else
                                  "latest" if asked.has("latest run") else None)


def rate_asked(asked: Question) -> bool:
    """A failure rate (each one's failed results over its finished ones) is asked, not a count: "relative to how
    often it runs", "lowest success rate", "highest percentage of failed results"; and "never fails" (every
    subject's results counted, so those with none failed are known).  Each one's failures over all failures (its slice
    of them) is the count ranking's share, not a rate."""
    return asked.has("rate words") and not asked.has("share of failures") or asked.has("never fails")


def _ranks_n(asked: Question, subject: str) -> bool:
    """N counts what is ranked: "which two qubits fail together" names one coupling, not the top 2."""
    if asked.extreme_n is None or asked.extreme_n < 2:
        return False
    return subject != "coupling" or not asked.found.get("extreme n", "").lower().endswith(("qubit", "qubits"))


def failure_plan(asked: Question, chip_id: str, days: int | None) -> PlannedCall | None:
    """The ranking a "fails most" (or "never fails") question asks for: its subject, its family of tasks, count or
    rate, its window and chip; "which chip fails most": the failed task results of each installed chip side by
    side."""
    if asked.shape != "fails most" and not asked.has("never fails"):
        return None
    subject = failure_subject(asked) or "task"
    if subject == "chip":
        chips = list(asked.installed if len(asked.installed) >= 2 else dict.fromkeys(asked.chip_ids))
        if len(chips) < 2:
            return None
        what = failed_counted(asked) or "failed tasks"
        return PlannedCall("count_in_window", {"chip_id": chips[0], "what": what, "chip_ids": chips[:4],
                                               **window_args(asked, days)}, f"{what} on each chip")
    chip = asked.chip_ids[0] if len(asked.chip_ids) == 1 else chip_id
    ranked_within = narrowed(asked)
    if subject in ("qubit", "coupling"):
        ranked_within.pop("qid", None)  # the qubits (couplings) are what is ranked
    elif subject == "task" and asked.task_name is not None:
        ranked_within.pop("task_name", None)  # the tasks are what is ranked, the one named among them
    family, run = failure_family(asked), run_asked(asked)
    extra = ({"family": family} if family else {}) | ({"rate": True} if rate_asked(asked) else {}) | \
        ({"active_only": True} if subject == "qubit" and asked.has("active only") else {}) | \
        ({"n": asked.extreme_n} if _ranks_n(asked, subject) else {})  # "top 3 tasks"
    within = {"execution_id": run} if run is not None else window_args(asked, days)  # a run: its own window
    return PlannedCall("failure_ranking", {"chip_id": chip, "by": subject, **within, **ranked_within, **extra},
                       f"which {subject} fails most" + (" by rate" if extra.get("rate") else ""))
