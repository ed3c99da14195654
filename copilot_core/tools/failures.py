"""Which task, qubit, coupling or run fails most: by failure count, or by failure rate (failed results over finished
ones, each subject's own), over every task or one family of tasks (single-qubit, coupling, readout:
:mod:`~copilot_core.domain.task_families`); or how often the qubits named failed, side by side.

The sentence names its subject first, says the window and the family it counted, and (for a rate) which subjects
never failed; its ``ranking`` is what the order check (:mod:`~copilot_core.checking.order`) and the asked-subject
check hold the answer against.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Literal

from copilot_core.domain.display import format_fraction, format_share
from copilot_core.domain.task_families import FAMILIES, FAMILY_WORDS, Family
from copilot_core.domain.windows import WEEKDAYS, Day, dates_text, read_end
from copilot_core.tools.aggregates import (LISTED, SHOWN, _one_window, _scope_fields, _window, newest_runs, ranking,
                                           task_named)
from copilot_core.tools.compact import inline_from_database
from copilot_core.tools.spec import (FROM_QUESTION, ToolContext, ToolError, ToolResult, chip_id_arg, date_arg,
                                     day_arg, days_arg, last_runs_arg, name_arg, qid_arg, qids_arg, tool,
                                     weekday_arg)

_GROUPED: dict[str, Literal["name", "qid", "execution_id"]] = {"task": "name", "qubit": "qid", "coupling": "qid",
                                                               "run": "execution_id"}
By = Literal["task", "qubit", "coupling", "run"]
NEVER_SHOWN = 8  # subjects that never failed, named in a rate's sentence


def _qubits_compared(ctx: ToolContext, chip_id: str, qids: list[str], counts: dict[str, int], scope: str,
                     fields: dict) -> ToolResult:
    """Two or more qubits' failed-task counts side by side (a qubit with no failure counts 0): counts compared
    as counts, never as a metric's values."""
    named = {q: counts.get(q, 0) for q in qids}
    order = sorted(qids, key=lambda q: -named[q])  # most first
    label = {q: ctx.label(chip_id, q) for q in qids}
    task = fields.get("task_name")
    what = f"failed {task} task results" if task else "failed task results"
    listed = ", ".join(f"{label[q]} {named[q]}" for q in order)
    if len(set(named.values())) == 1:
        answer = f"{' and '.join(label[q] for q in qids)} had the same number of {what} on {chip_id} {scope}: " \
                 f"{named[qids[0]]} each."
    elif len(qids) == 2:
        a, b = order
        answer = (f"{label[a]} had more {what} than {label[b]} on {chip_id} {scope}: {named[a]} vs {named[b]}, "
                  "each task run on a qubit counted once.")
    else:
        answer = f"{label[order[0]]} had the most {what} on {chip_id} {scope}; counts: {listed}."
    data = {"answer": answer, "chip_id": chip_id, "by": "qubit",
            "failures": [{"qid": q, "label": label[q], "count_failed": named[q]} for q in order],
            "ranking": ranking("qubit", "failures", [(label[q], [str(named[q])]) for q in order],
                               higher_is_better=False)} | fields
    return ToolResult(data, f"failed tasks of {len(qids)} qubits on {chip_id}: {listed}")


def _run_named(ctx: ToolContext, chip_id: str, execution_id: str) -> tuple[str, str]:
    """``(chip, run)`` a ranking is narrowed to: the chip's newest run for "latest", the one before it for
    "previous"; a run id given is read on the
    chip that holds it (an id names one run of one chip, whichever chip is in view); one no chip holds is a clear
    error, not an empty ranking."""
    if execution_id in ("latest", "previous"):
        back = 1 if execution_id == "previous" else 0
        newest = ctx.repo.executions(chip_id, limit=back + 1)
        if len(newest) <= back:
            raise ToolError(f"no {execution_id} execution on {chip_id}", "check the chip id", kind="data")
        return chip_id, str(newest[back].get("execution_id"))
    for chip in dict.fromkeys([chip_id, *ctx.repo.chip_ids()]):
        if ctx.repo.count_task_results(chip, execution_id):
            return chip, execution_id
    raise ToolError(f"no task results for execution {execution_id} on {chip_id}",
                    "list runs with get_execution_history", kind="data")


_PLURAL = {"qubit": "qubits", "coupling": "couplings", "task": "tasks", "run": "runs"}


def _next_end(tied: int) -> int:
    """Where the "next" names of a sentence end: up to :data:`SHOWN` names in all, and two after a long tie."""
    return SHOWN if tied < SHOWN else tied + 2


def _top_end(counts: Sequence[int | Fraction], n: int, tied: int) -> int:
    """Where the names of a top ``n`` end: the ``n`` asked (a tie for first can be longer), and every one tied with
    the last of them, so a cut never splits equal counts."""
    end = min(max(n, tied), len(counts))
    while 0 < end < len(counts) and counts[end] == counts[end - 1]:
        end += 1
    return end


def _qid_key(qid: str) -> tuple[int, str]:
    return (int(qid), qid) if qid.isdigit() else (1 << 30, qid)


def _of_subject(counts: dict[str, int], by: str) -> dict[str, int]:
    """Only the subject asked: a coupling's results are stored under its "4-5" id, a qubit's under "5"."""
    if by == "coupling":
        return {k: n for k, n in counts.items() if "-" in k}
    return {k: n for k, n in counts.items() if "-" not in k} if by == "qubit" else counts


@tool("failure_ranking",
      {"chip_id": chip_id_arg(),
       "by": {"type": "string", "enum": ["task", "qubit", "coupling", "run"], "default": "task",
              "description": "Group failures by task, qubit, coupling or run."},
       "days": days_arg(),
       "day": day_arg(),
       "since_weekday": weekday_arg(),
       "from_date": date_arg("first"),
       "to_date": date_arg("last"),
       "last_runs": last_runs_arg(),
       "qid": qid_arg("Only this qubit's failures."),
       "qids": qids_arg(8, min_items=2) | {"description": "Compare these qubits' failure counts."},
       "task_name": name_arg("Only this task's failures."),
       "family": {"type": "string", "enum": list(FAMILIES), FROM_QUESTION: True,
                  "description": "Only tasks of this family: single-qubit, coupling (two-qubit) or readout."},
       "rate": {"type": "boolean", FROM_QUESTION: True,
                "description": "Rank by failure rate: each one's failed results over its finished ones."},
       "active_only": {"type": "boolean", FROM_QUESTION: True,
                       "description": "Leave out the qubits the chip marks inactive."},
       "execution_id": {"type": "string", "pattern": r"^([0-9]{8}-[0-9]{3,6}|latest|previous)$",
                        FROM_QUESTION: True,
                        "description": "Only this run's failures (latest/previous: the chip's newest/second-newest)."},
       "n": {"type": "integer", "minimum": 1, "maximum": 20, FROM_QUESTION: True,
             "description": "How many to name, most failures first ('top 3 tasks')."}},
      ("chip_id",))
def failure_ranking(ctx: ToolContext, chip_id: str, by: By = "task",
                    days: int | None = None, day: Day | None = None, since_weekday: str | None = None,
                    qid: str | None = None, task_name: str | None = None, qids: list[str] | None = None,
                    from_date: str | None = None, to_date: str | None = None, family: Family | None = None,
                    rate: bool = False, execution_id: str | None = None, active_only: bool = False,
                    n: int | None = None, last_runs: int | None = None) -> ToolResult:
    _one_window(last_runs, days, day, since_weekday, from_date, to_date, execution_id)
    ctx.chip(chip_id)
    chip_id, run = _run_named(ctx, chip_id, execution_id) if execution_id is not None else (chip_id, None)
    for q in ([qid] if qid is not None else []) + (qids or []):
        ctx.check_qid(chip_id, q)
    since_weekday = since_weekday.strip().lower() if isinstance(since_weekday, str) else since_weekday
    if since_weekday is not None and since_weekday not in WEEKDAYS:
        raise ToolError(f"unknown weekday {since_weekday!r}", "e.g. {\"since_weekday\": \"monday\"}", kind="call")
    task_name = task_named(ctx, chip_id, task_name)
    windowed = days is not None or since_weekday is not None or day is not None or bool(from_date or to_date)
    last = ctx.repo.last_execution_at(chip_id) if windowed else None
    since, until = _window(last, days, since_weekday, day, from_date, to_date) if last is not None else (None, None)
    newest = newest_runs(ctx, chip_id, last_runs) if last_runs is not None else None
    read = {"by": "qid" if qids else _GROUPED[by], "since": since, "until": read_end(until, last),
            "qid": None if qids else qid, "task_name": task_name, "family": family, "execution_id": run,
            "runs": list(newest.ids) if newest is not None else None}
    counts = ctx.repo.failure_counts(chip_id, **read)  # type: ignore[arg-type]
    if not qids:
        counts = _of_subject(counts, by)
    left_out = sorted(ctx.repo.inactive_qubits(chip_id), key=_qid_key) if active_only and by == "qubit" else []
    counts = {k: n for k, n in counts.items() if k not in left_out}
    task = str(inline_from_database(task_name, 80)) if task_name else None
    narrowed = "".join([f" of {task}" if task else "", f" of {ctx.label(chip_id, qid)}"
                        if qid is not None and not qids else "",
                        f" of the {FAMILY_WORDS[family]} tasks" if family else ""])
    scope = (f"in run {run}" if run is not None else newest.said if newest is not None else dates_text(since, until, last)
             if since is not None and until is not None else "over every stored run") \
        + (f", counting only the failures{narrowed}" if narrowed else "") \
        + (f", leaving out the qubits marked inactive ({', '.join(ctx.label(chip_id, q) for q in left_out)})"
           if left_out else ", every qubit active" if active_only and by == "qubit" else "")
    fields = _scope_fields(since, until, None if qids else qid, task) | ({"family": family} if family else {}) | \
        ({"execution_id": run} if run is not None else {}) | \
        ({"runs": list(newest.ids)} if newest is not None else {}) | \
        ({"inactive_left_out": [ctx.label(chip_id, q) for q in left_out]} if active_only and by == "qubit" else {})
    if qids:
        return _qubits_compared(ctx, chip_id, list(dict.fromkeys(qids)), counts, scope, fields)
    finished = {k: n for k, n in _of_subject(ctx.repo.failure_counts(chip_id, **read, finished=True), by).items()  # type: ignore[arg-type]
                if k not in left_out} if rate else {}
    if not counts:
        answer = f"No task failed on {chip_id} {scope}."
        return ToolResult({"answer": answer, "chip_id": chip_id, "by": by, "total": 0, "failures": [], **fields},
                          f"no failures on {chip_id}")

    def name(key: str) -> str:
        return ctx.label(chip_id, key) if by in ("qubit", "coupling") else str(inline_from_database(key, 80))

    if rate:
        return _by_rate(ctx, chip_id, by, counts, finished, name, scope, fields, n)
    total = sum(counts.values())
    items = [(name(k), n) for k, n in counts.items()]  # most first
    top = [(k, n) for k, n in items if n == items[0][1]]
    started = ctx.repo.run_starts(chip_id) if by == "run" else {}

    def dated(key: str) -> str:
        return f"{key} (started {started[key]:%Y-%m-%d})" if key in started else key

    named = [dated(k) for k, _ in top]
    lead = named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"
    share = f"{items[0][1]} of {total} failed tasks{' each' if len(top) > 1 else ''} " \
            f"({format_fraction(items[0][1] / total)})"
    if len(top) > 1:  # a tie is said as one: every name, the one count
        answer = f"{'Runs ' if by == 'run' else ''}{lead} are tied first in failures on {chip_id}: {share} {scope}"
    elif by == "run":
        answer = f"Run {lead} ranks first in failures on {chip_id}: {share} {scope}"
    else:
        answer = f"{lead} {'failed' if by == 'task' else 'had failures'} most often on {chip_id}: {share} {scope}"
    end = _next_end(len(top)) if n is None else _top_end([c for _, c in items], n, len(top))
    if len(items) > len(top):
        answer += "; next: " + ", ".join(f"{dated(k)} {c} ({format_fraction(c / total)})"
                                         for k, c in items[len(top):end])
    answer += f"; {len(items)} {_PLURAL[by]} had at least one failure."
    if n is not None:  # the N asked, each with its count, out of every failure counted; fewer when fewer failed
        listed_n = ", ".join(f"{dated(k)} {c} ({format_fraction(c / total)})" for k, c in items[:end])
        lead = f"Only {len(items)} {_PLURAL[by]} had a failure" if len(items) < n else \
            f"Top {n} {_PLURAL[by]} by failed task results" + (" (with those tied at the last place)" if end > n else "")
        answer = f"{lead} on {chip_id} {scope}: {listed_n}, of {total} failed tasks in all; {len(items)} " \
                 f"{_PLURAL[by]} had at least one failure."
    listed = items[:LISTED]
    data = {"answer": answer, "chip_id": chip_id, "by": by, "total": total, "share_of": "failed tasks",
            "failed_subjects": len(items),
            "failures": [{"name": k, "count_failed": n, "share_pct": 100 * n / total}
                         | ({"start_at": f"{started[k]:%Y-%m-%d}"} if k in started else {}) for k, n in listed],
            "ranking": ranking(by, "failures", [(k, [str(n), format_fraction(n / total)]) for k, n in listed],
                               higher_is_better=False, complete=len(items) <= LISTED)}
    return ToolResult(data | fields, f"{items[0][0]} fails most on {chip_id}: {items[0][1]} of {total}")


def _by_rate(ctx: ToolContext, chip_id: str, by: str, counts: dict[str, int], finished: dict[str, int],
             name: Callable[[str], str], scope: str, fields: dict, n: int | None = None) -> ToolResult:
    """The ranking by failure rate: each subject's failed results over its finished ones (completed or failed),
    highest first (more failures first among equal rates); the subjects with finished results and no failure are
    named as never failing.  ``n``: the top N asked, every one tied with the last of them included."""
    keys = sorted(counts, key=lambda k: (-counts[k] / max(finished.get(k, 0), counts[k]), -counts[k], k))
    rows = [(name(k), counts[k], max(finished.get(k, 0), counts[k])) for k in keys]
    share = {n: format_share(f, t) for n, f, t in rows}
    top = [r for r in rows if r[1] * rows[0][2] == rows[0][1] * r[2]]
    whose = "its" if len(top) == 1 else "each one's"
    verb = "failed" if by == "task" else "had failures"
    answer = (f"{' and '.join(n for n, _, _ in top)} {verb} most often relative to {whose} finished results on "
              f"{chip_id}: {rows[0][1]} of {rows[0][2]} failed ({share[rows[0][0]]}) {scope}")
    if len(rows) > len(top):
        answer += "; next: " + ", ".join(f"{n} {f} of {t} ({share[n]})"
                                         for n, f, t in rows[len(top):_next_end(len(top))])
    never = [name(k) for k in finished if k not in counts]
    if never:
        answer += (f"; never failed: {', '.join(never)}" if len(never) <= NEVER_SHOWN
                   else f"; {len(never)} of {len(finished)} {by}s never failed")
    elif finished:
        answer += f"; every {by} with results failed at least once"
    answer += "."
    end = len(rows) if n is None else _top_end([Fraction(f, t) for _, f, t in rows], n, len(top))
    if n is not None:
        lead = f"Only {len(rows)} {_PLURAL[by]} had a failure" if len(rows) < n else \
            f"Top {n} {_PLURAL[by]} by failure rate" + (" (with those tied at the last place)" if end > n else "")
        answer = f"{lead} on {chip_id} {scope}: " + ", ".join(f"{nm} {f} of {t} failed ({share[nm]})"
                                                                for nm, f, t in rows[:end]) + "."
    listed = rows[:max(LISTED, end if n is not None else 0)]
    data = {"answer": answer, "chip_id": chip_id, "by": by, "rate": True, "share_of": "finished results",
            "failures": [{"name": n, "count_failed": f, "finished": t, "failed_pct": 100 * f / t} for n, f, t in listed],
            "never_failed": never[:LISTED],
            "ranking": ranking(by, "failure rate", [(n, [share[n], f"{f} of {t}"]) for n, f, t in listed],
                               higher_is_better=False, complete=len(rows) <= LISTED)}
    return ToolResult(data | fields, f"{rows[0][0]} has the highest failure rate on {chip_id}: {share[rows[0][0]]}")
