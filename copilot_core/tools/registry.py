"""The copilot tools (seed 000's 17 in its order, then later ones): the one list the toolkit, CLI and tests read."""

from __future__ import annotations

from copilot_core.tools import analysis, chip, compare, heatmap, provenance, qubits, tasks, timeseries
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
    compare.compare_calibrations,
)
TOOLS_BY_NAME: dict[str, ToolSpec] = {spec.name: spec for spec in TOOLS}
STORED_TOOLS = tuple(spec.name for spec in TOOLS if spec.stored_key is not None)
