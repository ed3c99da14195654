"""A qubit's deterministic health report as the analysis answer's first block and as the model's facts.

The block is what the Qubits page shows (verdict, findings, metric table, couplings, failed tasks); the facts
are the same report as short lines a small model can quote, with the task that re-measures each metric.
Database text (task messages) is marked as such and markdown-escaped in the block.
"""

from __future__ import annotations

import re

from copilot_core.analysis.health import HealthReport, MetricCheck
from copilot_core.domain.metrics import format_value, metric
from copilot_core.render_safety import escape
from copilot_core.tools.compact import clean_text

MAX_FAILURES = 8
_TASK = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,63}")
MESSAGE_CHARS = 120


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


_PRIORITY = ("failed", " is bad", "no valid value", "No ", "dropped", "Coupling")
MAX_FINDINGS = 6
MAX_FACT_FAILURES = 3


def _rank(finding: str) -> int:
    """Failures, bad bands, missing values, drops and bad couplings first; trends and neighbour gaps after."""
    return next((i for i, word in enumerate(_PRIORITY) if word in finding), len(_PRIORITY))


def _problem(m: MetricCheck) -> bool:
    return m.band == "bad" or bool(m.own_drop) or bool(m.missing)


def _metric_fact(m: MetricCheck) -> str:
    entry = metric(m.name)
    shown = m.missing if m.value is None and m.missing else format_value(entry, m.value)
    parts = [f"{m.title} {shown} ({m.band or 'unscored'})"]
    if m.calibrated_at is not None and hasattr(m.calibrated_at, "strftime"):
        parts.append(f"measured {m.calibrated_at:%Y-%m-%d}")
    if m.own_median is not None and m.own_drop is not None:
        parts.append(f"own 7-day median {format_value(entry, m.own_median)}")
    if m.trend.direction == "degrading":
        parts.append(f"degrading {(m.trend.change or 0.0) * 100:+.1f}%")
    return "- " + ", ".join(parts)


def rerun_tasks(report: HealthReport) -> list[str]:
    """Tasks worth re-running: those that failed, then those measuring a bad, dropped, missing or degrading
    metric (identifier names only)."""
    tasks = [f.task for f in report.failures if _TASK.fullmatch(f.task)]
    for m in report.metrics:
        if _problem(m) or m.trend.direction == "degrading":
            tasks += [t for t in (metric(m.name).task,) if t]
    return list(dict.fromkeys(tasks))


def report_facts(report: HealthReport) -> str:
    """The report as a short fact sheet for the review prompt: this qubit only, no chip summaries; the most
    serious findings first (a small model reads the top of its prompt best, and every token costs seconds)."""
    findings = sorted(report.findings, key=_rank)[:MAX_FINDINGS]
    lines = [f"Qubit {report.label} on chip {report.chip_id}; verdict {report.verdict or 'no scored data'}; "
             f"window {_at(report)}.", "", "Findings:"]
    lines += [f"- {f}" for f in findings] or ["- Nothing stands out."]
    lines += ["", "Suggested re-runs: " + (", ".join(rerun_tasks(report)) or "nothing") + "."]
    problems = [m for m in report.metrics if _problem(m)]
    if problems:
        lines += ["", "Problem metrics:"] + [_metric_fact(m) for m in problems]
    others = [m for m in report.metrics if not _problem(m) and m.value is not None]
    if others:
        lines += ["", "Other metrics: " + ", ".join(f"{m.title} {format_value(metric(m.name), m.value)} "
                                                     f"({m.band or 'unscored'})" for m in others) + "."]
    bad = [c for c in report.couplings if any(band == "bad" for _, band in c.values.values())]
    if report.couplings:
        lines.append(f"Couplings: {len(report.couplings)}, " + (
            "bad: " + ", ".join(c.label for c in bad) if bad else "none bad") + ".")
    if report.failures:
        lines += ["", "Failed tasks (newest first):"]
        for f in report.failures[:MAX_FACT_FAILURES]:
            when = f"{f.at:%Y-%m-%d %H:%M}" if f.at else "unknown time"
            message = clean_text(f.message, 80).replace("\n", " ")
            lines.append(f"- {clean_text(f.task, 60)} on {f.label} at {when}"
                         + (f"; message: {message}" if message else ""))
    return "\n".join(lines)
