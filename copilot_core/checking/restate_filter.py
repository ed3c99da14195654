"""A question that sets conditions ("which qubits have T1 between 40 and 60 μs and T2 echo above 30 μs", "what share
of couplings have a CZ fidelity above 96%") answered by a call that reads every subject: a chip summary, a metric's
spread, a correlation, a count of task results.  Their figures are right about every subject, so the
claim check passes them ("62 qubits with data ... median ..."), yet they answer no condition of the question.

Such a call is a mismatch held by the restate check (:mod:`~copilot_core.checking.restate`); :func:`filter_rebuilt`
re-makes it as the router's own filter call for the question (:func:`~copilot_core.routing.prefetch.plan_prefetch`,
its limits held by :func:`~copilot_core.routing.limits.settle_limits`).  When the router reads no filter although the
question writes a limit of no clear metric, the mismatch stays and the answer carries the restate note.
"""

from __future__ import annotations

from copilot_core.domain.metrics import CATALOGUE
from copilot_core.language.question import Question, Threshold
from copilot_core.routing.limits import SIDES, in_display_unit, settle_limits
from copilot_core.routing.prefetch import plan_prefetch

# Calls that read every subject of a chip (or one statistic of them all), never one condition's subjects.
SUMMARIES = frozenset({"get_chip_summary", "metric_spread", "correlate_metrics", "count_in_window"})


def _summary(name: str, args: dict) -> bool:
    """A summary call; a chip summary of the metrics named is the table an analysis filters next
    (``data['chip_summary']``), not an answer, so it stands (an answer read off it alone is held by the asked-role
    check: the count or share it does not state)."""
    return name in SUMMARIES and not (name == "get_chip_summary" and args.get("param_names"))
FILTER_CALLS = frozenset({"filter_metric", "filter_metrics", "missing_metric"})


def filter_rebuilt(asked: Question, name: str, args: dict) -> tuple[str, dict] | None:
    """The router's filter call for the question a summary call ``name(args)`` answers, else None."""
    chip = args.get("chip_id") if isinstance(args.get("chip_id"), str) else asked.chip
    if not _summary(name, args) or chip is None or not (asked.limits or asked.qualities):
        return None
    plan = plan_prefetch(asked.text, chip_id=chip, chips=asked.installed)
    if plan is None or plan.name not in FILTER_CALLS:
        return None
    return plan.name, dict(settle_limits(plan.name, dict(plan.args), asked).args)


def _subjects(metrics: list[str]) -> str:
    return "couplings" if any(CATALOGUE[m].kind == "coupling" for m in metrics if m in CATALOGUE) else "qubits"


def filter_missed(asked: Question, name: str, args: dict) -> str | None:
    """What a summary call leaves out of a question that sets conditions, in words; None when it is no summary, or
    the question sets no condition a filter reads."""
    if not _summary(name, args):
        return None
    if filter_rebuilt(asked, name, args) is not None:
        kind = _subjects([t.metric for t in asked.limits if t.metric is not None] or
                         [m for m in asked.metrics if m is not None])
        return f"asks only for the {kind} that meet its conditions, not a summary of every one"
    if asked.limits and any(t.metric is None for t in asked.limits) and asked.shape not in ("cross-chip",):
        return "sets a limit this call applies to no subject"
    return None


def _kind_asked(asked: Question) -> str | None:
    """The kind of subject a question counts: couplings when it says so ("couplings", "pairs", "CZ"), else qubits
    when it says so; None when it says neither."""
    return "coupling" if asked.has("coupling words") else "qubit" if asked.has("qubit kind") else None


def _open_limit(asked: Question, name: str) -> Threshold | None:
    """The one limit of a one-limit question whose metric the words leave open ("above 96% fidelity"), when the
    call is a one-metric filter; else None."""
    if name != "filter_metric" or len(asked.limits) != 1 or asked.limits[0].metric is not None:
        return None
    return asked.limits[0]


def open_missed(asked: Question, name: str, args: dict) -> list[str]:
    """What a one-metric filter leaves out of a question whose limit names no clear metric: the kind of subject
    asked (a qubit's fidelity for "share of couplings above 96% fidelity"), and the limit's side and value."""
    t, entry = _open_limit(asked, name), CATALOGUE.get(str(args.get("metric_name")))
    if t is None or entry is None:
        return []
    out, kind = [], _kind_asked(asked)
    if kind is not None and entry.kind != kind:
        out.append(f"asks about {kind}s, not {entry.kind}s")
    value = in_display_unit(t, entry)
    given = [(side, args[side]) for side in SIDES if isinstance(args.get(side), (int, float))]
    if value is not None and (len(given) != 1 or given[0][0] != t.side or abs(float(given[0][1]) - value) > 1e-9):
        said = " and ".join(f"{side} {float(v):g}" for side, v in given) or "no limit"
        out.append(f"sets {entry.title} {t.side} {value:g}, not {said}")
    return out


def open_rebuilt(asked: Question, name: str, args: dict) -> tuple[str, dict] | None:
    """The filter with the question's kind of subject, side and value, when one metric of that kind fits: the
    call's own, else the only one the question's words point at."""
    t = _open_limit(asked, name)
    if t is None or not open_missed(asked, name, args):
        return None
    entry = CATALOGUE.get(str(args.get("metric_name")))
    kind = _kind_asked(asked) or (entry.kind if entry is not None else None)
    fits = [m for m in sorted(asked.threshold_metrics) if CATALOGUE[m].kind == kind
            and in_display_unit(t, CATALOGUE[m]) is not None]
    metric = entry.name if entry is not None and entry.kind == kind else fits[0] if len(fits) == 1 else None
    value = in_display_unit(t, CATALOGUE[metric]) if metric is not None else None
    if metric is None or value is None:
        return None
    chip = {"chip_id": args["chip_id"]} if "chip_id" in args else {}
    return "filter_metric", {**chip, "metric_name": metric, t.side: value}
