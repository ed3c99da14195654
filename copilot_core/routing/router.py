"""Which tools a question needs, decided from its words and the chat's context, without asking the model.

A small model on a CPU pays for every tool schema in every round (prompt processing dominates) and chooses
worse among many tools.  :func:`route` picks the few tools a question needs from the rows of the question word
table it holds (:mod:`~copilot_core.language.question`);
:func:`offered_tools` puts them first, followed by ``more_tools``: a tiny tool the model calls when the
routed set is not enough, after which every tool is offered (:func:`all_tools`).  The full list keeps the
routed tools and ``more_tools`` in front in the same order, so a prompt cache still covers the system
prompt and the routed schemas; what the switch costs once is the rest of the schemas plus the turns so far
(the tools come before the conversation in the prompt).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from copilot_core.language.question import parse
from copilot_core.routing.conditions import missing_asked
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

# (row of the question word table, tools); every row the question holds adds its tools.
RULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("chip stat", CHIP_METRIC),
    ("map", ("generate_chip_heatmap",)),
    ("trend", ("get_parameter_timeseries", "get_chip_parameter_timeseries")),
    ("why", ("get_parameter_lineage", "get_provenance_lineage_graph")),
    ("changed", ("compare_calibrations",)),
    ("analysis", ("execute_python_analysis",)),
    ("compare", ("compare_qubits",)),
    ("coupling words", ("get_coupling_params",)),
    ("dash pair", ("get_coupling_params",)),
    ("execution", ("get_execution_history",)),
    ("search", ("search_task_results",)),
    ("notes", ("get_calibration_notes",)),
    ("topology", ("get_chip_topology",)),
    ("parameters", ("list_available_parameters",)),
    ("memory", ("recall_memory",)),
    ("tasks", ("get_latest_task_result",)),
    ("figure", ("get_task_figure",)),
    ("rank", ("rank_metric",)),
    ("threshold", ("filter_metric",)),
    ("missing", ("missing_metric",)),
    ("fail", ("get_run_failures",)),
    ("two limits", ("filter_metrics",)),
    ("spread words", ("metric_spread",)),
    ("correlation words", ("correlate_metrics",)),
    ("which chip", ("compare_chips",)),
    ("fails most", ("failure_ranking",)),
)
# Question shapes (``Question.shape``) and the tools that answer them.
SHAPE_RULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("window count", ("count_in_window",)),
    ("percentage", ("filter_metric", "filter_metrics", "count_in_window")),
)


@dataclass(frozen=True)
class Route:
    """The routed tool names (registry order) and the rules that chose them (for show-work and tests)."""

    names: tuple[str, ...]
    reasons: tuple[str, ...]


def route(question: str, *, qid: str | None = None, mode: str = "chat",
          available: Sequence[str] | None = None) -> Route:
    """The tools this question needs, among ``available`` (default: every registered tool)."""
    asked = parse(question)
    chosen: list[str] = []
    reasons: list[str] = []

    def add(tools: Sequence[str], why: str) -> None:
        chosen.extend(tools)
        reasons.append(why)

    named = len(asked.ends)  # a coupling written with its qubits ("Q4-Q5") names them too
    if named or qid is not None or mode == "analysis":
        add(QUBIT, "one qubit" if named <= 1 else "qubits")
    if named > 1:
        add(("compare_qubits",), "several qubits")
    for row, tools in RULES:
        said = asked.said(row)
        if said is not None and not (row == "dash pair" and asked.ranges and not asked.couplings):  # "60-80"
            add(tools, said.strip().lower())
    if asked.ranges:  # "between 60 and 80 μs", "outside 60-80 μs" (of one metric, or with another's limit)
        add(("filter_metric", "filter_metrics") if len({t.metric for t in asked.limits}) > 1 else ("filter_metric",),
            "range")
    if len({t.metric for t in asked.limits} | {q.metric for q in asked.qualities} | set(missing_asked(asked))) > 1:
        add(("filter_metrics",), "conditions")  # "T1 above 50 μs but no valid T2 echo", "short T1 and T2 above 30"
    for shape, tools in SHAPE_RULES:
        if asked.shape == shape:
            add(tools, shape)
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
