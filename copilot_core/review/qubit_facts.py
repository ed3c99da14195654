"""A qubit's deterministic health report as the analysis answer's first block and as the model's facts.

The block is what the Qubits page shows (verdict, findings, metric table, couplings, failed tasks); the facts
are the same report as short lines a small model can quote, with the task that re-measures each metric.
Database text (task messages) is markdown-escaped in the block and kept out of the facts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from copilot_core.analysis.health import TASK_NAME, HealthReport, MetricCheck, TaskFailure
from copilot_core.domain.display import format_fraction
from copilot_core.domain.metrics import SCORED_COUPLING_METRICS, format_value, metric
from copilot_core.render_safety import escape
from copilot_core.tools.compact import clean_text

MAX_FAILURES = 8
MESSAGE_CHARS = 120
ProblemKind = Literal["bad", "missing", "failed", "drop", "coupling"]


def summary_line(report: HealthReport) -> str:
    """One sentence the report stands behind: the verdict and its most serious finding."""
    verdict = report.verdict or "no scored data"
    first = report.findings[0] if report.findings else "nothing stands out."
    return f"{report.label} on {report.chip_id} is {verdict}: {first}"


def _at(report: HealthReport) -> str:
    return report.window or f"the last {report.window_days} days"


def report_block(report: HealthReport) -> str:
    """The report as Markdown: the page's report plus its failed tasks (messages escaped)."""
    lines = [report.to_markdown()]
    if report.failures:
        lines += ["", f"Failed tasks ({len(report.failures)}, newest first):"]
        for f in report.failures[:MAX_FAILURES]:
            when = f"{f.at:%Y-%m-%d %H:%M}" if f.at else "?"
            message = escape(clean_text(f.message, MESSAGE_CHARS).replace("\n", " ")) if f.message else ""
            lines.append(f"- {escape(f.task)} on {f.label} at {when}" + (f": {message}" if message else ""))
        if len(report.failures) > MAX_FAILURES:
            lines.append(f"- … and {len(report.failures) - MAX_FAILURES} more")
    return "\n".join(lines)


MAX_PROBLEMS = 4
MAX_NOTED = 2


def failure_reasons(report: HealthReport) -> list[str]:
    """Why each failed task failed, one line per task and target, newest first: the stored task message quoted
    (markdown-escaped database text, shortened), or that none was stored."""
    groups: dict[tuple[str, str], list[TaskFailure]] = {}
    for f in report.failures:
        groups.setdefault((f.task, f.label), []).append(f)
    lines = []
    for (task, label), runs in list(groups.items())[:MAX_FAILURES]:
        times = f" ({len(runs)} times)" if len(runs) > 1 else ""
        message = clean_text(runs[0].message, MESSAGE_CHARS).replace("\n", " ").strip() if runs[0].message else ""
        why = f"“{escape(message)}”" if message else "no message was stored"
        lines.append(f"{escape(task)} on {label}{times}: {why}")
    if len(groups) > MAX_FAILURES:
        lines.append(f"… and {len(groups) - MAX_FAILURES} more failed tasks (listed in the report above)")
    return lines


def _day(at: object) -> str | None:
    return f"{at:%Y-%m-%d}" if hasattr(at, "strftime") else None


def _problem(m: MetricCheck) -> bool:
    return m.band == "bad" or bool(m.own_drop) or bool(m.missing)


@dataclass(frozen=True)
class Problem:
    """One condition the report lists for the qubit: its own sentence (``line``) and what a review must say to
    name it: every one of ``subjects`` (metric titles, a task name), the ``kind``'s condition word, and the
    other end of the coupling (``partner``, a qid) when the problem is on one."""

    kind: ProblemKind
    subjects: tuple[str, ...]
    line: str
    partner: str | None = None


def _failure_problems(report: HealthReport) -> list[Problem]:
    """One per failed task and target, newest first: what failed, where, how often, when.  The task's message
    stays in the report block: a small model copies it instead of naming the task, and it is database text."""
    out = []
    groups: dict[tuple[str, str], list[TaskFailure]] = {}
    for f in report.failures:
        groups.setdefault((f.task if TASK_NAME.fullmatch(f.task) else "A task", f.label), []).append(f)
    for (task, label), runs in groups.items():
        times = f"{len(runs)} times, last" if len(runs) > 1 else "at"
        when = f" {times} {runs[0].at:%Y-%m-%d %H:%M}" if runs[0].at else ""
        ends = [e for e in runs[0].target.split("-") if e.isdigit() and int(e) != int(report.qid)]
        out.append(Problem("failed", (task,) if task != "A task" else (), f"{task} failed on {label}{when}.",
                           str(int(ends[0])) if runs[0].on_coupling and ends else None))
    return out


def _metric_lines(m: MetricCheck) -> list[str]:
    entry = metric(m.name)
    day = _day(m.calibrated_at)
    lines = []
    if m.missing:
        lines.append(f"{m.title} has {m.missing}: the latest measurement failed.")
    if m.band == "bad" and m.value is not None:
        lines.append(f"{m.title} {format_value(entry, m.value)} is bad" + (f", measured {day}." if day else "."))
    if m.own_drop and m.own_median is not None and m.value is not None:
        lines.append(f"{m.title} dropped {format_fraction(m.own_drop)} below its own 7-day median: "
                     f"{format_value(entry, m.value)}" + (f" on {day}" if day else "")
                     + f", median before {format_value(entry, m.own_median)}.")
    return lines


def _coupling_problems(report: HealthReport) -> list[Problem]:
    out = []
    for c in report.couplings:
        for name in SCORED_COUPLING_METRICS:
            title = metric(name, kind="coupling").title
            head = f"Coupling {c.label} has a bad {title} ("
            out += [Problem("coupling", (title,), f, c.partner) for f in report.findings if f.startswith(head)]
    return out


def problems(report: HealthReport) -> list[Problem]:
    """The qubit's conditions, most serious first: bad bands and missing values, failed tasks on the qubit,
    drops against its own median, then failures and bad values of its couplings."""
    failures = _failure_problems(report)
    own = [f for f in failures if f.partner is None]
    no_data = [f[3:-len(" data.")] for f in report.findings if f.startswith("No ") and f.endswith(" data.")]
    out = [Problem("missing" if " has no valid value" in line else "bad", (m.title,), line)
           for m in report.metrics if m.band == "bad" or m.missing for line in _metric_lines(m)
           if " is bad" in line or " has no valid value" in line]
    out += [Problem("missing", tuple(no_data), "No data for " + ", ".join(no_data) + ".")] if no_data else []
    out += own
    out += [Problem("drop", (m.title,), line) for m in report.metrics if m.own_drop for line in _metric_lines(m)
            if " dropped " in line]
    out += [f for f in failures if f.partner is not None]
    return out + _coupling_problems(report)


def problem_lines(report: HealthReport) -> list[str]:
    """The qubit's conditions as short plain sentences, most serious first (see :func:`problems`)."""
    return [p.line for p in problems(report)]


def rerun_tasks(report: HealthReport) -> list[str]:
    """Tasks worth re-running: those that failed, then those measuring a bad, dropped, missing or degrading
    metric (identifier names only)."""
    tasks = [f.task for f in report.failures if TASK_NAME.fullmatch(f.task)]
    for m in report.metrics:
        if _problem(m) or m.trend.direction == "degrading":
            tasks += [t for t in (metric(m.name).task,) if t]
    return list(dict.fromkeys(tasks))


def report_facts(report: HealthReport) -> str:
    """The report as a short fact sheet for the review prompt: this qubit only, no chip summaries; its problems
    first, each a plain sentence a small model can copy (a small model reads the top of its prompt best, and
    every token costs seconds on a CPU)."""
    problems = problem_lines(report)
    lines = [f"Qubit {report.label} on chip {report.chip_id}, {_at(report)}: verdict "
             f"{report.verdict or 'no scored data'}."]
    if problems:
        lines += ["Problems of " + report.label + ", most serious first:"]
        lines += [f"{i}. {line}" for i, line in enumerate(problems[:MAX_PROBLEMS], 1)]
    else:
        lines += [f"Problems of {report.label}: none. {report.label} is healthy: nothing stands out."]
    noted = [f for f in report.findings if "degrading" in f or "neighbours'" in f][:MAX_NOTED]
    if noted:
        lines += ["Less serious: " + " ".join(noted)]
    lines += ["Re-run: " + (", ".join(rerun_tasks(report)) or "nothing") + "."]
    return "\n".join(lines)
