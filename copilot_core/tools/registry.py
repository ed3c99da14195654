"""Every copilot tool, in the order the model sees them: the one list the toolkit, readiness, cache, memory,
show-work, the CLI and the tests read.  Adding a tool: declare it in its family module, add one line here."""

from __future__ import annotations

from copilot_core.tools import (across_chips, aggregates, analysis, chip, compare, distribution, failures, figures,
                                heatmap, memory, provenance, qubits, ranking, subjects, tasks, timeseries)
from copilot_core.tools.spec import ToolSpec

TOOLS: tuple[ToolSpec, ...] = (
    qubits.get_qubit_params,
    tasks.get_latest_task_result,
    tasks.get_task_history,
    timeseries.get_parameter_timeseries,
    analysis.execute_python_analysis,
    chip.get_chip_summary,
    qubits.get_coupling_params,
    tasks.get_execution_history,
    qubits.compare_qubits,
    chip.get_chip_topology,
    tasks.search_task_results,
    tasks.get_calibration_notes,
    provenance.get_parameter_lineage,
    provenance.get_provenance_lineage_graph,
    heatmap.generate_chip_heatmap,
    timeseries.get_chip_parameter_timeseries,
    qubits.list_available_parameters,
    memory.recall_memory,
    compare.compare_calibrations,
    figures.get_task_figure,
    ranking.rank_metric,
    ranking.filter_metric,
    ranking.missing_metric,
    tasks.get_run_failures,
    ranking.filter_metrics,
    distribution.metric_spread,
    distribution.correlate_metrics,
    across_chips.compare_chips,
    aggregates.count_in_window,
    failures.failure_ranking,
    subjects.check_target,
)
TOOLS_BY_NAME: dict[str, ToolSpec] = {spec.name: spec for spec in TOOLS}
STORED_TOOLS = tuple(spec.name for spec in TOOLS if spec.stored)
REDUCED_TOOLS = frozenset(spec.name for spec in TOOLS if spec.reduced)


def runs_code(name: str) -> bool:
    """True for a tool that runs model-written code (its ``code`` argument is what ran)."""
    spec = TOOLS_BY_NAME.get(name)
    return spec is not None and spec.runs_code


def cacheable(name: str) -> bool:
    spec = TOOLS_BY_NAME.get(name)
    return spec is not None and spec.cacheable
