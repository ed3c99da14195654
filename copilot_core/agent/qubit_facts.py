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


def _metric_fact(m: MetricCheck) -> str:
    entry = metric(m.name)
    shown = m.missing if m.value is None and m.missing else format_value(entry, m.value)
    parts = [f"{m.title}: {shown}", f"band {m.band or 'unscored'}"]
    if m.calibrated_at is not None and hasattr(m.calibrated_at, "strftime"):
        parts.append(f"measured {m.calibrated_at:%Y-%m-%d}")
    parts.append(f"trend {m.trend.text(m.unit)}")
    if m.own_median is not None and m.own_drop is not None:
        parts.append(f"{m.own_drop * 100:.0f}% below its own median {format_value(entry, m.own_median)}")
    if m.neighbour_median is not None and m.vs_neighbours is not None:
        parts.append(f"neighbours' median {format_value(entry, m.neighbour_median)} ({m.vs_neighbours * 100:+.0f}%)")
    if entry.task:
        parts.append(f"re-run task {entry.task}")
    return "- " + "; ".join(parts)


def rerun_tasks(report: HealthReport) -> list[str]:
    """Tasks worth re-running: those that failed, then those measuring a bad, dropped, missing or degrading
    metric (identifier names only)."""
    tasks = [f.task for f in report.failures if _TASK.fullmatch(f.task)]
    for m in report.metrics:
        if m.band == "bad" or m.own_drop or m.missing or m.trend.direction == "degrading":
            tasks += [t for t in (metric(m.name).task,) if t]
    return list(dict.fromkeys(tasks))


def report_facts(report: HealthReport) -> str:
    """The report as fact lines for the review prompt: this qubit only, no chip summaries."""
    lines = [f"Qubit {report.label} on chip {report.chip_id}; verdict {report.verdict or 'no scored data'}; "
             f"window {_at(report)}.",
             "Neighbours: " + (", ".join(report.neighbour_labels) or "none") + ".", "", "Findings:"]
    lines += [f"- {f}" for f in report.findings] or ["- Nothing stands out."]
    lines += ["", "Suggested re-runs: " + (", ".join(rerun_tasks(report)) or "nothing") + "."]
    lines += ["", "Metrics:"] + [_metric_fact(m) for m in report.metrics]
    if report.couplings:
        lines += ["", "Couplings:"]
        for c in report.couplings:
            cells = []
            for name, (value, band) in c.values.items():
                entry = metric(name, kind="coupling")
                cells.append(f"{entry.title} {format_value(entry, value)}" + (f" ({band})" if band else ""))
            lines.append(f"- {c.label} ({c.role}): " + ", ".join(cells))
    if report.failures:
        lines += ["", "Failed tasks (newest first):"]
        for f in report.failures[:MAX_FAILURES]:
            when = f"{f.at:%Y-%m-%d %H:%M}" if f.at else "unknown time"
            message = clean_text(f.message, MESSAGE_CHARS).replace("\n", " ")
            lines.append(f"- {clean_text(f.task, 60)} on {f.label} at {when}; re-run task {clean_text(f.task, 60)}"
                         + (f"; message: {message}" if message else ""))
    return "\n".join(lines)
