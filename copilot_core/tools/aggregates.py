"""Counts a chip summary does not give: counts over a window of days (a metric across chips is
:mod:`~copilot_core.tools.across_chips`; which task, qubit, coupling or run fails most is
:mod:`~copilot_core.tools.failures`).

Each tool returns the exact answer as one sentence that names its subject first, and a ``ranking`` (names in
order of their value, each with the values written for it) that the claim check
(:mod:`~copilot_core.checking.order`) holds a comparison in the answer against: a winner named wrong, or two values
put on the wrong sides, is caught even when every number is one the tool returned.
A count over days counts whole UTC days ending with the day of the chip's newest run (the data's "now"): "the last
7 days" are 7 dates, that day included, so a daily run is counted 7 times, not 8.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from copilot_core.domain.display import format_share
from copilot_core.domain.topology import runs_named
from copilot_core.domain.metrics import CATALOGUE
from copilot_core.domain.task_names import name_parts, nearest_tasks, task_meant
from copilot_core.tools.compact import inline_from_database
from copilot_core.domain.windows import WEEKDAYS, Day, dates_text, dates_window, day_window, read_end
from copilot_core.errors import InvalidRequest
from copilot_core.data.validation import is_execution_id
from copilot_core.data.window_counts import Narrowed
from copilot_core.domain.task_families import FAMILIES, FAMILY_WORDS, Family
from copilot_core.tools.spec import (FROM_QUESTION, QUBIT_SET_ARGS, ToolContext, ToolError, ToolResult, chip_id_arg,
                                     chip_ids_arg, date_arg, day_arg, days_arg, last_runs_arg, name_arg, qid_arg,
                                     qids_arg, tool, weekday_arg)

SHOWN = 5  # names written out in a "fails most" sentence
LISTED = 20  # names in the result (the model's table and the order check)


def ranking(kind: str, metric: str, ordered: list[tuple[str, list[str]]], higher_is_better: bool,
            complete: bool = True) -> dict:
    """What the order check reads: ``names`` highest value first, each name's values as written in the answer;
    ``complete``: every compared name is listed (else the low end is not known)."""
    return {"kind": kind, "metric": metric, "names": [n for n, _ in ordered],
            "written": {n: w for n, w in ordered}, "higher_is_better": higher_is_better, "complete": complete}


What = Literal["failed tasks", "task results", "runs", "failed runs", "runs with failures", "measurements",
               "excluded tasks", "usable tasks", "completed tasks", "notes"]
# A kind of task result counted with its share of all finished ones, and what the kind is, in the answer's words.
KINDS = {"excluded tasks": "were marked excluded (set aside by a person; QDash's excluded flag)",
         "usable tasks": "were usable (completed and not excluded)", "completed tasks": "completed"}


def _window(last: datetime, days: int | None, weekday: str | None, day: Day | None, from_date: str | None,
            to_date: str | None) -> tuple[datetime, datetime] | tuple[None, None]:
    """The window a count reads: written dates (both ends included), else :func:`day_window`'s, else every stored
    run; a day no calendar has is a call that did not fit."""
    if from_date or to_date:
        try:
            return dates_window(last, from_date, to_date)
        except InvalidRequest as exc:
            raise ToolError(f"cannot read the window: {exc}", "write days as 'YYYY-MM-DD'", kind="call") from None
    if days is not None or weekday is not None or day is not None:
        return day_window(last, days, weekday, day)
    return None, None


@dataclass(frozen=True)
class NewestRuns:
    """A window of a chip's N newest runs: their execution ids (newest first), how many were asked, their dates."""

    ids: tuple[str, ...]
    asked: int
    dated: str  # ", started 2026-11-28 to 2026-12-01 UTC", or "" when no start is stored

    @property
    def ends(self) -> str:
        return f"{self.ids[-1]} to {self.ids[0]}{self.dated}" if len(self.ids) > 1 else f"{self.ids[0]}{self.dated}"

    @property
    def said(self) -> str:
        if len(self.ids) < self.asked:
            return f"in all {len(self.ids)} of its runs (fewer than the {self.asked} asked; {self.ends})"
        return f"in its last {self.asked} runs ({self.ends})" if self.asked > 1 else f"in its last run ({self.ends})"


def newest_runs(ctx: ToolContext, chip_id: str, n: int) -> NewestRuns:
    """The chip's ``n`` newest runs by start (fewer when it holds fewer, said so); none is a clear error."""
    rows = [r for r in ctx.repo.executions(chip_id, limit=n) if is_execution_id(r.get("execution_id"))]
    if not rows:
        raise ToolError(f"{chip_id} has no runs", "pick a chip with calibration runs", kind="data")
    starts = sorted(at for r in rows if isinstance(at := r.get("start_at"), datetime))
    dated = f", started {starts[0]:%Y-%m-%d} to {starts[-1]:%Y-%m-%d} UTC" if starts else ""
    return NewestRuns(tuple(str(r["execution_id"]) for r in rows), n, dated)


def _one_window(last_runs: int | None, *windows: object) -> None:
    """A window of runs is the only window a call gives, or it does not fit."""
    if last_runs is not None and any(w is not None and w != "" for w in windows):
        raise ToolError("last_runs and a window of days are not both taken", "give last_runs or a window of days",
                        kind="call")


def _scope_fields(since: datetime | None, until: datetime | None, qid: str | None, task: str | None) -> dict:
    """What a window tool's data says it covers: the dates, the qubit, the task (only those given)."""
    out: dict[str, object] = {}
    if since is not None and until is not None:
        out |= {"from": f"{since:%Y-%m-%d}", "to": f"{until - timedelta(days=1):%Y-%m-%d}",
                "days": (until - since).days}
    return out | {key: value for key, value in (("qid", qid), ("task_name", task)) if value is not None}


def task_named(ctx: ToolContext, chip_id: str, task_name: str | None) -> str | None:
    """The chip's own task name a task written loosely means ("T1Check", "Ramsey": CheckRamsey), read against the
    names its results hold; a name that means none of them is a task that never ran there, said so, never counted
    as 0 of a task that is."""
    if task_name is None:
        return None
    names = ctx.repo.task_names(chip_id)
    if task_name in names:
        return task_name
    meant = task_meant(name_parts(task_name), names)
    if meant is None:
        near = nearest_tasks(task_name, names)
        nearest = f"; the nearest it holds: {', '.join(near)}" if near else ""
        raise ToolError(f"no task named {task_name} ran on {chip_id}{nearest}",
                        f"the tasks {chip_id}'s results hold: {', '.join(names[:12])}", kind="data")
    return meant


@tool("count_in_window",
      {"chip_id": chip_id_arg(),
       "what": {"type": "string", "enum": ["failed tasks", "task results", "runs", "failed runs", "runs with failures",
                                           "measurements", "excluded tasks", "usable tasks", "completed tasks",
                                           "notes"],
                "description": "Finished task results (or one kind), runs, failed runs, usable measurements, or notes."},
       "days": days_arg(),
       "since_weekday": weekday_arg(),
       "day": day_arg(),
       "from_date": date_arg("first"),
       "to_date": date_arg("last"),
       "last_runs": last_runs_arg(),
       "qid": qid_arg("Only this qubit's (or coupling's) own task results."),
       "task_name": name_arg("Only results of this task, e.g. 'CheckT1'."),
       "metric_name": name_arg("For measurements: the metric, e.g. 't1'."),
       "chip_ids": chip_ids_arg(4, "Count on each chip, side by side."),
       "qids": qids_arg(8, min_items=2) | {"description": "Count for each qubit, side by side."},
       **QUBIT_SET_ARGS,
       "family": {"type": "string", "enum": list(FAMILIES), FROM_QUESTION: True,
                  "description": "Only task results of this family: single-qubit, coupling or readout."},
       "below": {"type": "number", FROM_QUESTION: True, "description": "Measurements below this (display units)."},
       "above": {"type": "number", FROM_QUESTION: True, "description": "Measurements above this (display units)."},
       "distinct_qubits": {"type": "boolean", FROM_QUESTION: True,
                           "description": "Count the qubits such results fall on, each once, not the results."},
       "per_day": {"type": "boolean", FROM_QUESTION: True,
                   "description": "Also the count of each UTC day of the window (the last 7 days when none)."}},
      ("chip_id", "what"))
def count_in_window(ctx: ToolContext, chip_id: str, what: What, days: int | None = None,
                    since_weekday: str | None = None, qid: str | None = None, task_name: str | None = None,
                    metric_name: str | None = None, day: Day | None = None, from_date: str | None = None,
                    to_date: str | None = None, chip_ids: list[str] | None = None,
                    qids: list[str] | None = None, qubits: list[int] | None = None,
                    leaving_out: list[int] | None = None, family: Family | None = None, below: float | None = None,
                    above: float | None = None, distinct_qubits: bool = False, per_day: bool = False,
                    last_runs: int | None = None) -> ToolResult:
    _one_window(last_runs, days, since_weekday, day, from_date, to_date, per_day or None)
    chips = list(dict.fromkeys(chip_ids or [chip_id]))
    within = _narrowed(what, metric_name, qubits, leaving_out, family, below, above, distinct_qubits)
    for chip in chips:
        ctx.chip(chip)
    for q in ([qid] if qid is not None else []) + (qids or []):
        ctx.check_qid(chip_id, q)
    if what == "notes" and (qid is not None or task_name is not None or qids):
        raise ToolError("calibration notes are counted per chip (one a run)", "leave out qid and task_name",
                        kind="call")
    if what == "measurements" and metric_name not in CATALOGUE:
        raise ToolError("counting measurements needs a known metric_name", "e.g. {\"metric_name\": \"t1\"}", kind="call")
    since_weekday = since_weekday.strip().lower() if isinstance(since_weekday, str) else since_weekday
    if since_weekday is not None and since_weekday not in WEEKDAYS:
        raise ToolError(f"unknown weekday {since_weekday!r}", "e.g. {\"since_weekday\": \"monday\"}", kind="call")
    task_name = task_named(ctx, chip_id, task_name)
    lasts = [at for chip in chips if (at := ctx.repo.last_execution_at(chip)) is not None]
    if len(lasts) < len(chips):
        raise ToolError(f"{chip_id if len(chips) == 1 else 'a chip named'} has no runs",
                        "pick a chip with calibration runs", kind="data")
    last = max(lasts)  # several chips: one window for all, ending on the day of the newest run of any of them
    since, until = _window(last, days, since_weekday, day, from_date, to_date)
    if per_day and since is None:
        since, until = day_window(last, PER_DAY_DEFAULT, None, None)
    newest = {chip: newest_runs(ctx, chip, last_runs) for chip in chips} if last_runs is not None else {}
    if len(chips) > 1 or qids:
        return counts_compared(ctx, chips, what, since, until, last, [qid] if qid is not None else list(
            dict.fromkeys(qids or [])), task_name, metric_name, within, newest)
    runs_in = list(newest[chip_id].ids) if newest else None
    task = str(inline_from_database(task_name, 80)) if task_name else None
    named = " ".join(filter(None, [task, FAMILY_WORDS.get(family or "")]))

    def count(kind: What) -> int:
        return ctx.repo.count_in_window(chip_id, kind, since=since, until=read_end(until, last), qid=qid,
                                        task_name=task_name, parameter=metric_name if kind == "measurements" else None,
                                        within=within, runs=runs_in)

    n = count(what)
    span = newest[chip_id].said if newest else dates_text(since, until, last) \
        if since is not None and until is not None else "over every stored run"
    owner = f" of {ctx.label(chip_id, qid)}" if qid is not None else _set_said(within, ctx.size(chip_id))
    if within is not None and within.distinct_qubits:
        answer = (f"On {chip_id}, {n} distinct qubits{owner} had at least one "
                  f"{'failed ' if what == 'failed tasks' else ''}{named + ' ' if named else ''}task result "
                  f"{span}, each qubit counted once (qubits, not task results).")
        return ToolResult({"chip_id": chip_id, "what": what, "count": n, "counted": "qubits", "answer": answer}
                          | _scope_fields(since, until, qid, task), f"{n} qubits on {chip_id} {span}")
    of_task = f"{named} " if named else ""
    data: dict = {"chip_id": chip_id, "what": what, "count": n}
    if what == "failed tasks" or what in KINDS:
        total = count("task results")
        kind = KINDS.get(what, "failed")
        answer = (f"On {chip_id}, {n} {of_task}task results{owner} {kind} {span}: {n} of {total} finished "
                  f"{of_task}task results ({format_share(n, total)}), each task run on a qubit or coupling counted once.")
        data |= {"total": total, "percent": 100 * n / total if total else 0.0, "share_of": "task results"} | \
            ({"share_within": f"{of_task}{owner.strip()}".strip()} if of_task or owner else {})
    elif what == "task results":
        failed = count("failed tasks")
        answer = (f"On {chip_id}, {n} {of_task}task results{owner} finished (completed or failed) {span}, each "
                  f"task run on a qubit or coupling counted once; {failed} of them failed "
                  f"({format_share(failed, n)}).")
        data |= {"count_failed": failed, "percent": 100 * failed / n if n else 0.0, "share_of": "task results"} | \
            ({"share_within": f"{of_task}{owner.strip()}".strip()} if of_task or owner else {})
    elif what in ("runs", "failed runs", "runs with failures"):
        held = " and ".join(([f"a {named} result"] if named else []) + ([f"a result of {ctx.label(chip_id, qid)}"]
                                                                          if qid is not None else []) +
                            ([f"a result{owner}"] if owner else []))
        holding = f" holding {held}" if held else ""

        def runs(kind: What) -> int:
            return n if kind == what else ctx.repo.count_in_window(chip_id, kind, since=since, qid=qid,
                                                                   until=read_end(until, last), task_name=task_name,
                                                                   within=within, runs=runs_in)

        total, failed, hit = runs("runs"), runs("failed runs"), runs("runs with failures")
        with_failure = f"{hit} of {total} runs had at least one failed task result ({format_share(hit, total)})"
        answer = (f"On {chip_id}, {total} calibration runs (executions){holding} started {span}, whatever their "
                  f"outcome; {failed} of {total} runs failed ({format_share(failed, total)}); {with_failure}.") \
            if what == "runs" else \
            (f"On {chip_id}, {failed} calibration runs (executions){holding} failed {span}: {failed} of {total} "
             f"runs that started ({format_share(failed, total)}), by the run's own status; {with_failure}.") \
            if what == "failed runs" else \
            (f"On {chip_id}, {hit} of {total} calibration runs (executions){holding} that started {span} had at least "
             f"one failed task result ({format_share(hit, total)}), counting runs, not failed results; {failed} of "
             f"{total} ended with the status failed.")
        data |= {"count_failed": failed, "percent": 100 * (hit if what == "runs with failures" else failed) / total
                 if total else 0.0, "share_of": "runs", "runs_with_failures": hit} | (
            {"total": total} if what != "runs" else {})
    elif what == "notes":
        answer = f"On {chip_id}, {n} calibration notes were written {span}, each note counted by its time."
    else:
        title = CATALOGUE[str(metric_name)].title
        past = _limits_said(str(metric_name), below, above)
        answer = (f"On {chip_id}, {n} {title} results{owner} with a usable value{past} were measured {span} "
                  f"(completed, not excluded).")
    if per_day and since is not None and until is not None:
        days_counted = _per_day(since, until, last, lambda start, end: ctx.repo.count_in_window(
            chip_id, what, since=start, until=end, qid=qid, task_name=task_name,
            parameter=metric_name if what == "measurements" else None, within=within))
        answer += _per_day_said(days_counted)
        data["per_day"] = [{"day": d, "count": k} for d, k in days_counted]
    data["answer"] = answer
    data |= _scope_fields(since, until, qid, task) | ({"runs": runs_in} if runs_in is not None else {})
    return ToolResult(data, f"{n} {what}{owner} on {chip_id} {span}")


PER_DAY_DEFAULT = 7  # days a per-day count covers when the question gives no window
PER_DAY_MOST = 31  # a longer window is counted as a whole only


def _per_day(since: datetime, until: datetime, last: datetime,
             count: Callable[[datetime, datetime | None], int]) -> list[tuple[str, int]]:
    """Each UTC day of ``[since, until)`` with its count (the last day read as the window's end is: a run that
    crosses midnight counted whole); empty for a window longer than ``PER_DAY_MOST`` days."""
    n = (until - since).days
    if n > PER_DAY_MOST:
        return []
    starts = [since + timedelta(days=i) for i in range(n)]
    return [(f"{start:%Y-%m-%d}", count(start, read_end(start + timedelta(days=1), last))) for start in starts]


def _per_day_said(days_counted: list[tuple[str, int]]) -> str:
    if not days_counted:
        return f" Per day: only for a window of at most {PER_DAY_MOST} days."
    return " Per day (UTC): " + ", ".join(f"{day} {k}" for day, k in days_counted) + "."


def _narrowed(what: What, metric_name: str | None, qubits: list[int] | None, leaving_out: list[int] | None,
              family: Family | None, below: float | None, above: float | None, distinct: bool) -> Narrowed | None:
    """The narrowing a count's FROM_QUESTION arguments ask for, the limits in the metric's stored units; None for
    none; a limit of no measurement, or distinct qubits of runs or notes, is a call that does not fit."""
    if (below is not None or above is not None) and (what != "measurements" or metric_name not in CATALOGUE):
        raise ToolError("a limit is limited to counting measurements of one metric",
                        "give what='measurements' and metric_name", kind="call")
    if distinct and what not in KINDS and what not in ("failed tasks", "task results"):
        raise ToolError("distinct qubits are counted per chip over task results", "give what='failed tasks'", kind="call")
    scale = CATALOGUE[metric_name].scale if metric_name in CATALOGUE else 1.0
    out = Narrowed(frozenset(str(q) for q in qubits) if qubits else None, frozenset(str(q) for q in leaving_out or ()),
                   family, None if below is None else below / scale, None if above is None else above / scale,
                   distinct)
    return None if out == Narrowed() else out


def _set_said(within: Narrowed | None, size: int) -> str:
    """" on Q10 to Q19", " leaving out Q05": the set of qubits a count is over, as the answer says it."""
    if within is None or within.qubits is None and not within.leaving_out:
        return ""
    on = f" on {runs_named(sorted(int(q) for q in within.qubits), size)}" if within.qubits is not None else ""
    return on + (f" leaving out {runs_named(sorted(int(q) for q in within.leaving_out), size)}"
                 if within.leaving_out else "")


def _limits_said(metric_name: str, below: float | None, above: float | None) -> str:
    entry = CATALOGUE[metric_name]
    return "".join(f" {side} {value:g} {entry.unit}".rstrip() for side, value in (("below", below), ("above", above))
                   if value is not None)


_COUNTED = {"failed tasks": "failed task results", "task results": "finished task results", "runs": "calibration runs",
            "excluded tasks": "excluded task results", "usable tasks": "usable task results",
            "completed tasks": "completed task results",
            "failed runs": "failed calibration runs (executions)", "notes": "calibration notes",
            "runs with failures": "calibration runs (executions) with at least one failed task result"}
_OF: dict[str, What] = {"failed tasks": "task results", "failed runs": "runs", "runs with failures": "runs"}  # whole


def counts_compared(ctx: ToolContext, chips: list[str], what: What, since: datetime | None, until: datetime | None,
                    last: datetime, qids: list[str], task_name: str | None, metric_name: str | None,
                    within: Narrowed | None = None, newest: dict[str, NewestRuns] | None = None) -> ToolResult:
    """One count per chip (one window for all of them, or each chip's own newest runs) or per qubit, side by side:
    the winner named first, a tie said as a tie, and a ``ranking`` the order check holds the answer's winner and
    counts against."""
    newest = newest or {}
    per_qubit = len(qids) > 1
    keys = qids if per_qubit else chips
    chip_of = {k: (chips[0] if per_qubit else k) for k in keys}
    label = {k: ctx.label(chips[0], k) if per_qubit else k for k in keys}
    counted = {k: ctx.repo.count_in_window(chip_of[k], what, since=since, until=read_end(until, last),
                                           qid=k if per_qubit else (qids[0] if qids else None), task_name=task_name,
                                           parameter=metric_name if what == "measurements" else None,
                                           within=within, runs=_ids(newest, chip_of[k])) for k in keys}
    order = sorted(keys, key=lambda k: -counted[k])  # most first
    task = f"{inline_from_database(task_name, 80)} " if task_name else ""
    distinct = within is not None and within.distinct_qubits
    noun = f"{CATALOGUE[str(metric_name)].title} measurements" if what == "measurements" else \
        f"distinct qubits with at least one {task}{_COUNTED[what][:-1]}" if distinct else f"{task}{_COUNTED[what]}"
    span = _runs_said(newest) if newest else dates_text(since, until, last) \
        if since is not None and until is not None else "over every stored run"
    where = f" on {chips[0]}" if per_qubit else ""
    whole = {k: ctx.repo.count_in_window(chip_of[k], _OF[what], since=since, until=read_end(until, last),
                                         qid=k if per_qubit else (qids[0] if qids else None), task_name=task_name,
                                         within=within, runs=_ids(newest, chip_of[k])) for k in keys} \
        if what in _OF and not distinct else {}
    shown = {k: f"{counted[k]} of {whole[k]} ({format_share(counted[k], whole[k])})" if k in whole else
             str(counted[k]) for k in keys}  # a failure count with its share of its own chip's (qubit's) whole
    listed = ", ".join(f"{label[k]} {shown[k]}" for k in order)
    top = [k for k in order if counted[k] == counted[order[0]]]
    if len(top) == len(keys):
        answer = f"{' and '.join(label[k] for k in keys)} had the same number of {noun}{where} {span}: " \
                 f"{counted[keys[0]]} each" + (f" ({listed})." if whole else ".")
    elif len(keys) == 2:
        a, b = order
        answer = f"{label[a]} had more {noun} than {label[b]}{where} {span}: {shown[a]} vs {shown[b]}."
    else:
        answer = f"{' and '.join(label[k] for k in top)} had the most {noun}{where} {span}; counts: {listed}."
    if not per_qubit and what != "measurements":  # the chips' counts added up, for "across both chips"
        answer = answer[:-1] + f"; {sum(counted.values())} in all" + (  # the noun, so the total reads as a count
            f" of {sum(whole.values())} {_OF[what]} ({format_share(sum(counted.values()), sum(whole.values()))})"
            if whole else f" ({noun})") + "."
    field = "count_failed" if what in _OF and not distinct else "count"
    kind = "qubit" if per_qubit else "chip"
    data = {"answer": answer, "what": what, "chip_id" if per_qubit else "chip_ids": chips[0] if per_qubit else chips,
            "counts": [{("qid" if per_qubit else "chip_id"): k, "label": label[k], field: counted[k]}
                       | ({"total": whole[k]} if k in whole else {}) for k in order],
            "ranking": ranking(kind, noun, [(label[k], [str(counted[k])] + ([format_share(counted[k], whole[k])]
                                                                            if k in whole else [])) for k in order],
                               higher_is_better=what not in _OF)}
    data |= _scope_fields(since, until, None, task_name) | ({"counted": "qubits"} if distinct else {}) | \
        ({"runs": {chip: list(r.ids) for chip, r in newest.items()}} if newest else {})
    return ToolResult(data, f"{noun}{where} {span}: {listed}")


def _ids(newest: dict[str, NewestRuns], chip: str) -> list[str] | None:
    return list(newest[chip].ids) if chip in newest else None


def _runs_said(newest: dict[str, NewestRuns]) -> str:
    """Each chip's own newest runs, as a side-by-side count's window."""
    if len(newest) == 1:
        return next(iter(newest.values())).said
    asked = next(iter(newest.values())).asked
    return f"in each chip's own last {asked} runs ({'; '.join(f'{chip}: {r.ends}' for chip, r in newest.items())})"
