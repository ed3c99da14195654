"""A limit joined with a status: "T1 above 50 μs and no valid T2 echo", "which qubits with readout fidelity over 95%
are missing their T2*?".

A metric the question names with no limit of its own, in a question that asks for what is missing, is the status "no
valid value" of that metric: ``filter_metrics`` takes it as a condition with neither ``below`` nor ``above``, joined
with the question's limits (a limit is never shared with it: "no T2 echo" is not "T2 echo above 50 μs").  The router
plans the call, and the restate check holds a model's call to it and re-makes one that leaves the status out.
"""

from __future__ import annotations

from copilot_core.domain.metrics import CATALOGUE
from copilot_core.language.question import Question
from copilot_core.routing.planned import PlannedCall

MAX_CONDITIONS = 4  # filter_metrics' own limit


def missing_asked(asked: Question) -> list[str]:
    """The clear metrics whose status "no valid value" the question joins with its limits; empty when it asks for
    no such thing (no missing word, no limit, or an unclear metric)."""
    named = asked.without("subject words").metrics
    if not asked.has("missing") or not asked.limits or None in named or any(t.metric is None for t in asked.limits):
        return []
    limited = {t.metric for t in asked.limits}
    return [m for m in dict.fromkeys(n for n in named if n is not None) if m not in limited]


def status_plan(asked: Question, chip_id: str) -> PlannedCall | None:
    """``filter_metrics`` of the question's limits and the status of each metric it asks to be missing, with its
    join; None when it asks for no status, or the conditions mix qubits and couplings or are too many."""
    missing = missing_asked(asked)
    if not missing or asked.extreme_word or asked.has("trend") or asked.relates:
        return None
    conditions: list[dict] = [{"metric_name": t.metric, t.side: t.value} for t in asked.limits]
    conditions += [{"metric_name": m} for m in missing]
    kinds = {CATALOGUE[str(c["metric_name"])].kind for c in conditions}
    if len(conditions) > MAX_CONDITIONS or len(kinds) != 1:
        return None
    said = f" {asked.join} ".join([f"{t.metric} {t.side} {t.value:g}" for t in asked.limits] +
                                  [f"no valid {m}" for m in missing])
    return PlannedCall("filter_metrics", {"chip_id": chip_id, "join": asked.join, "conditions": conditions}, said)
