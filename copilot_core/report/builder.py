"""Build the daily chip report of one run: health, changes since the previous run, drift, failures, notes.

Deterministic: the same database gives byte-identical HTML (fixed figure ids, no wall-clock time).
Every database string (task messages, calibration notes) is hostile and reaches the page only through
Jinja2's autoescaping; figures are built here from catalogue titles and numbers.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

import pandas as pd
import plotly.io as pio
from jinja2 import Environment, FileSystemLoader, select_autoescape

from copilot_core.data.rows import ChipRow
from copilot_core.analysis.compare import Comparison, compare
from copilot_core.analysis.compare_points import CompareError, resolve_point
from copilot_core.analysis.compare_tables import (
    band_crossings,
    lost_measurements,
    metric_summary,
    point_health,
    ranked_changes,
    shown_changes,
    shown_summary,
)
from copilot_core.analysis.drift import DRIFT_METRICS, DriftFlag, drops, unusable_latest
from copilot_core.charts.compare import change_figure, signed_change
from copilot_core.data.repository import CalibrationRepository
from copilot_core.data.runs import RunReader
from copilot_core.domain.display import NOT_MEASURED, format_fraction
from copilot_core.domain.metrics import BANDS, format_value, metric
from copilot_core.domain.topology import qubit_label, target_label
from copilot_core.errors import CopilotError
from copilot_core.figures import FigureRoot
from copilot_core.render_safety import UnsafeFigure, plotly_input, validate_figure
from copilot_core.report.figures import flag_figures

TEMPLATE_DIR = Path(__file__).resolve().parent
FIGURE_METRICS = ("t1", "t2_echo", "x90_gate_fidelity", "average_readout_fidelity", "zx90_gate_fidelity")
RANKED_ROWS = 20
NOTE_CHARS = 4000
DRIFT_THRESHOLD = 0.2


class ReportError(CopilotError, ValueError):
    """The report cannot be built for these arguments (message is safe to show)."""


@dataclass
class ChipReport:
    """The HTML and the numbers behind it (what a summary may quote)."""

    html: str
    comparison: Comparison
    context: dict = field(default_factory=dict)  # the template's context (rendered by ``render``)

    def with_summary(self, paragraph: str) -> ChipReport:
        """The same report with a summary paragraph on top (escaped like every other text)."""
        context = self.context | {"summary_paragraph": paragraph}
        return ChipReport(render(context), self.comparison, context)


def fmt(value: object, spec: str = ".5g") -> str:
    """A cell the builder did not already print by the display rule (counts); never "None" or "nan"."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return NOT_MEASURED
    if isinstance(value, (int, float)):
        return format(value, spec)
    return str(value)


def band_text(band: object) -> str:
    """A band cell: the band's name, or "not measured" when the run has no usable value (never "nan")."""
    if band is None or band == "" or (isinstance(band, float) and math.isnan(band)):
        return "not measured"
    return str(band)


def _environment() -> Environment:
    env = Environment(loader=FileSystemLoader(TEMPLATE_DIR), autoescape=select_autoescape(("html", "j2")),
                      trim_blocks=True, lstrip_blocks=True)
    env.filters["fmt"] = fmt
    env.filters["band"] = band_text
    return env


def _plotly_js() -> str:
    from plotly.offline import get_plotlyjs

    return get_plotlyjs().replace("</script", "<\\/script")


def _figures(comp: Comparison, summary: pd.DataFrame) -> list[str]:
    if comp.topology is None:
        return []
    summary = summary.set_index("metric")
    out = []
    for i, name in enumerate(n for n in FIGURE_METRICS if n in summary.index and summary.loc[n, "compared"]):
        fig = change_figure(comp, name, comp.topology)
        fig.update_layout(clickmode="none")
        try:  # titles and hover text hold database strings: drawn only as render safety rebuilds them
            drawn = validate_figure(json.loads(fig.to_json()))
        except UnsafeFigure:
            continue
        out.append(pio.to_html(plotly_input(drawn), validate=False, full_html=False, include_plotlyjs=False,
                               div_id=f"change-{i}-{name}", config={"displaylogo": False, "displayModeBar": False}))
    return out


def _drift(repo: CalibrationRepository, comp: Comparison, until: datetime) -> list[DriftFlag]:
    """Drops as on the Overview, as of the reported run: values after it are left out."""
    flags: list[DriftFlag] = []
    since = comp.after.start - timedelta(days=9)
    for name in DRIFT_METRICS:
        rows = [r for r in repo.chip_parameter_timeseries(comp.chip_id, name, since=since)
                if isinstance(at := r["calibrated_at"], datetime) and at <= until]
        flags += drops(rows, name, threshold=DRIFT_THRESHOLD,
                       unusable_latest=unusable_latest(repo, comp.chip_id, name, until))
    return sorted(flags, key=lambda f: -(f.drop or 0))


def _note_text(note: object) -> str:
    text = json.dumps(note, ensure_ascii=False, indent=2, default=str, sort_keys=True)
    return text if len(text) <= NOTE_CHARS else text[:NOTE_CHARS] + "\n…"


def build_report(repo: CalibrationRepository, chip: dict, comp: Comparison, run: dict,
                 figures: FigureRoot | None = None) -> ChipReport:
    """Render the report for an existing comparison (``run`` is the later point's execution row); with
    ``figures``, the lab's fit figures of the flagged qubits are embedded."""
    size = comp.size
    end = run.get("end_at")
    until = end if isinstance(end, datetime) else comp.after.start + timedelta(days=1)
    summary = metric_summary(comp)
    health = point_health(comp)
    drift = _drift(repo, comp, until)
    notes = repo.calibration_notes(comp.chip_id, execution_id=run["execution_id"], limit=20)

    def display(name: str, value: object) -> str:
        return format_value(metric(name), value if isinstance(value, (int, float)) else None)

    context = {
        "chip": chip, "comp": comp, "run": run, "bands": BANDS,
        "health": [h | {"median": display(h["metric"], h["median"])} for h in health.to_dict("records")],
        "summary": shown_summary(summary).to_dict("records"),
        "ranked": shown_changes(ranked_changes(comp, RANKED_ROWS)).to_dict("records"),
        "crossings": shown_changes(band_crossings(comp)).to_dict("records"),
        "lost": shown_changes(lost_measurements(comp)).to_dict("records"),
        "drift": [{"metric": metric(f.metric or "").title, "qubit": qubit_label(f.qid, size),
                   "latest": display(f.metric or "", f.latest), "baseline": display(f.metric or "", f.baseline),
                   "drop": format_fraction(f.drop)} for f in drift],
        "failed": [{"task": r["name"], "target": target_label(str(r["qid"]), size), "message": r["message"][:300],
                    "at": r["start_at"]} for r in comp.failed_after],
        "notes": [{"task_id": n.get("task_id"), "version": n.get("version"), "timestamp": n.get("timestamp"),
                   "text": _note_text(n.get("note"))} for n in notes],
        "figures": _figures(comp, summary), "plotly_js": _plotly_js(), "signed": signed_change, "metric": metric,
        "size": size, "summary_paragraph": None,
        "flag_figures": flag_figures(repo, comp.chip_id, size, drift, until, figures) if figures else [],
    }
    return ChipReport(html=render(context), comparison=comp, context=context)


def render(context: dict) -> str:
    return _environment().get_template("template.html.j2").render(**context)


def _report_runs(reader: RunReader, chip_id: str, day: str | None) -> tuple[dict, dict]:
    executions = reader.executions_between(chip_id)
    done = [e for e in executions if e.get("status") == "completed" and isinstance(e.get("start_at"), datetime)]
    done = done or [e for e in executions if isinstance(e.get("start_at"), datetime)]
    if not done:
        raise ReportError(f"{chip_id} has no executions to report on")
    if day is None:
        index = 0
    else:
        try:
            wanted = resolve_point(day, executions).start.date()
        except CompareError as exc:
            raise ReportError(str(exc)) from None
        index = next((i for i, e in enumerate(done) if e["start_at"].date() == wanted), -1)
        if index < 0:
            raise ReportError(f"no completed execution of {chip_id} on {wanted.isoformat()}")
    if index + 1 >= len(done):
        raise ReportError(f"{done[index]['execution_id']} is the first run of {chip_id}: there is no previous run "
                          "to compare with")
    return done[index + 1], done[index]


def chip_report(repo: CalibrationRepository, chip: ChipRow | dict, day: str | None = None,
                figures: FigureRoot | None = None) -> ChipReport:
    """The report of the chip's newest completed run on ``day`` (YYYY-MM-DD or -Nd; default: its last run),
    compared with the completed run before it."""
    reader = RunReader(repo)
    previous, run = _report_runs(reader, str(chip["chip_id"]), day)
    try:
        comp = compare(reader, dict(chip), previous["execution_id"], run["execution_id"])
    except CompareError as exc:
        raise ReportError(str(exc)) from None
    return build_report(repo, dict(chip), comp, run, figures)
