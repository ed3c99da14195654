"""Which tools a question needs, decided from its words and the chat's context, without asking the model.

A small model on a CPU pays for every tool schema in every round (prompt processing dominates) and chooses
worse among many tools.  :func:`route` picks the few tools a question needs by plain keyword rules;
:func:`offered_tools` puts them first, followed by ``more_tools``: a tiny tool the model calls when the
routed set is not enough, after which every tool is offered (:func:`all_tools`).  The full list keeps the
routed tools and ``more_tools`` in front in the same order, so a prompt cache still covers the system
prompt and the routed schemas; what the switch costs once is the rest of the schemas plus the turns so far
(the tools come before the conversation in the prompt).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from copilot_core.domain.vocabulary import CHIP_STAT_WORDS, LIMIT_WORDS, MAP_WORDS, MISSING_WORDS, TREND_WORDS
from copilot_core.tools.compact import to_model_json
from copilot_core.tools.registry import TOOLS

MORE_TOOLS = "more_tools"
MORE_TOOLS_SCHEMA: dict = {
    "name": MORE_TOOLS,
    "description": "Call when none of the tools offered fits the question: every tool is offered from the next turn.",
    "parameters": {"type": "object", "properties": {}, "required": [], "additionalProperties": False},
}

QUBIT = ("get_qubit_params", "get_task_history", "get_latest_task_result")
CHIP_METRIC = ("generate_chip_heatmap", "get_chip_summary")
DEFAULT = ("get_chip_summary", "list_available_parameters")

# (pattern, tools); every rule whose pattern occurs in the lower-cased question adds its tools.
RULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (rf"\b({CHIP_STAT_WORDS})\b", CHIP_METRIC),
    (rf"\b({MAP_WORDS})\b", ("generate_chip_heatmap",)),
    (rf"\b({TREND_WORDS})\b", ("get_parameter_timeseries", "get_chip_parameter_timeseries")),
    (r"\b(why|provenance|lineage|derived|came from|comes from|depends? on|origin)\b",
     ("get_parameter_lineage", "get_provenance_lineage_graph")),
    (r"(what changed|what has changed|\bchanged\b|since yesterday|\bdiff(erence)?s?\b|\bregress\w*"
     r"|compared? (to|with) (the )?(previous|last|yesterday)|\bvs\.? (the )?(previous|last)\b"
     r"|\b(last|latest|most recent) two (runs|executions|calibrations)\b|\btwo (most recent|latest|last) (runs|executions)\b"
     r"|\b(since|from) the (previous|prior|preceding) (run|execution|calibration)\b)",
     ("compare_calibrations",)),
    (r"\b(analy[sz]\w*|correlat\w*|regression|fit\w*|comput\w*|calculat\w*|percentile|std|standard deviation"
     r"|statistic\w*|histogram|scatter|plot|python)\b", ("execute_python_analysis",)),
    (r"\b(compare|versus|vs\.?)\b", ("compare_qubits",)),
    (r"\b(coupling|couplings|cz|zx90|two[- ]qubit|pair|bell)\b|\b\d{1,3}-\d{1,3}\b", ("get_coupling_params",)),
    (r"\b(execution|executions|runs?|when was|last calibrat\w*|calibration runs?)\b", ("get_execution_history",)),
    (r"\b(fail\w*|search|errors?|which tasks?)\b", ("search_task_results",)),
    (r"\b(notes?|comments?)\b", ("get_calibration_notes",)),
    (r"\b(topology|neighbou?rs?|connected|adjacent|connectivity)\b", ("get_chip_topology",)),
    (r"\b(parameters|metrics|what can i ask|which params)\b", ("list_available_parameters",)),
    (r"\b(remember|last time|previously|earlier|you said|memory)\b", ("recall_memory",)),
    (r"\b(tasks?|experiments?|latest result|raw result|fit result|figure)\b", ("get_latest_task_result",)),
    (r"\b(figures?|fits?|decay curves?|fringes|rb curves?|spectr\w*)\b", ("get_task_figure",)),
    (r"\b(lowest|highest|worst|best|smallest|largest|minimum|maximum|top \d+|bottom \d+)\b", ("rank_metric",)),
    (rf"\b({LIMIT_WORDS}) ?-?\d|[<>] ?\d",
     ("filter_metric",)),
    (rf"\b({MISSING_WORDS})\b", ("missing_metric",)),
    (r"\bfail\w*", ("get_run_failures",)),
)
_QUBIT_REF = re.compile(r"\bq ?\d{1,3}\b|\bqubits? ?#?\d{1,3}(?:\s*(?:,|and|&|or)\s*#?\d{1,3}\b)*")
_COMPILED = tuple((re.compile(pattern), tools) for pattern, tools in RULES)


@dataclass(frozen=True)
class Route:
    """The routed tool names (registry order) and the rules that chose them (for show-work and tests)."""

    names: tuple[str, ...]
    reasons: tuple[str, ...]


def _qubits_named(text: str) -> int:
    """How many distinct qubits the question names ("Q5", "qubit 5", "qubits 3 and 7")."""
    return len({int(n) for m in _QUBIT_REF.finditer(text) for n in re.findall(r"\d{1,3}", m.group(0))})


def route(question: str, *, qid: str | None = None, mode: str = "chat",
          available: Sequence[str] | None = None) -> Route:
    """The tools this question needs, among ``available`` (default: every registered tool)."""
    text = question.lower()
    chosen: list[str] = []
    reasons: list[str] = []

    def add(tools: Sequence[str], why: str) -> None:
        chosen.extend(tools)
        reasons.append(why)

    named = _qubits_named(text)
    if named or qid is not None or mode == "analysis":
        add(QUBIT, "one qubit" if named <= 1 else "qubits")
    if named > 1:
        add(("compare_qubits",), "several qubits")
    for pattern, tools in _COMPILED:
        match = pattern.search(text)
        if match:
            add(tools, match.group(0).strip())
    if mode == "analysis":
        add(("get_parameter_lineage", "execute_python_analysis"), "analysis mode")
    if not chosen:
        add(DEFAULT, "no rule matched")
    allowed = set(available) if available is not None else {spec.name for spec in TOOLS}
    picked = set(chosen)
    names = tuple(spec.name for spec in TOOLS if spec.name in picked and spec.name in allowed)
    if not names:  # none of the routed tools may be used: routing would leave only the escape tool
        return Route(tuple(spec.name for spec in TOOLS if spec.name in allowed), ("no routed tool available",))
    return Route(names, tuple(reasons))


def offered_tools(schemas: Sequence[dict], chosen: Route) -> list[dict]:
    """The routed schemas (in the toolkit's order), then ``more_tools``."""
    names = set(chosen.names)
    return [s for s in schemas if s["name"] in names] + [MORE_TOOLS_SCHEMA]


def all_tools(schemas: Sequence[dict], chosen: Route) -> list[dict]:
    """Every schema, the offered ones first and unchanged, so the cached prefix extends into the tool list."""
    names = set(chosen.names)
    return offered_tools(schemas, chosen) + [s for s in schemas if s["name"] not in names]


def more_tools_reply(schemas: Sequence[dict], chosen: Route) -> str:
    """What the model reads after calling ``more_tools``."""
    names = set(chosen.names)
    added = [s["name"] for s in schemas if s["name"] not in names]
    return to_model_json({"ok": True, "note": "every tool is offered from your next turn", "added_tools": added})
