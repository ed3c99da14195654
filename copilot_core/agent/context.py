"""Data context for the system prompt: chip, target qubit, neighbours, couplings, experiment and history.

Values go in display units with their unit (through the same compaction the tools use), so the model
compares like with like against the thresholds.  Database strings (task messages, notes) are quoted
as untrusted data.  A failing read costs one line of context, never the request.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, ParamSpec, TypeVar

from copilot_core.domain.metrics import CATALOGUE, RESTATED
from copilot_core.domain.topology import parse_qubit_ref, qubit_label, target_label, topology_for
from copilot_core.tools.compact import (compact_output_parameters, compact_timestamp, inline_from_database,
                                        untrusted_data)

if TYPE_CHECKING:
    from copilot_core.data.rows import ChipLayout, TaskRow
    from copilot_core.data.repository import CalibrationRepository

log = logging.getLogger(__name__)
HISTORY_RUNS = 5
NEIGHBOUR_PARAMS = ("qubit_frequency", "anharmonicity", "t1", "t2_echo", "x90_gate_fidelity",
                    "average_readout_fidelity")
COUPLING_PARAMS = ("zx90_gate_fidelity", "bell_state_fidelity", "zx90_gate_time")


def _params_line(params: dict | None, names: tuple[str, ...] | None = None, kind: str = "qubit") -> str:
    shown = compact_output_parameters({k: v for k, v in (params or {}).items() if names is None or k in names}, kind)
    parts = [f"{name}={item['value']} {item['unit']}".rstrip() for name, item in sorted(shown.items())
             if item.get("value") is not None]
    return ", ".join(parts) if parts else "no data"


P = ParamSpec("P")
R = TypeVar("R")


def _safe(label: str, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R | None:
    try:
        return fn(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001  (context is best effort; the tools can still fetch it)
        log.warning("context %s unavailable: %s", label, exc)
        return None


def resolve_target(repo: CalibrationRepository | None, chip_id: str | None,
                   qid: str | None) -> tuple[str | None, str | None, ChipLayout | None]:
    """(chip_id, normalised qid, the chip's layout): the most recently installed chip when none is given."""
    if repo is None:
        return chip_id, qid, None
    chip_id = chip_id or _safe("default chip", repo.default_chip_id)
    chip = _safe("chip", repo.chip_layout, chip_id) if chip_id else None
    if qid is not None:
        try:
            qid = parse_qubit_ref(qid)
        except ValueError:
            qid = None
    return chip_id, qid, chip


def chip_section(chip_id: str | None, chip: ChipLayout | None) -> list[str]:
    if not chip_id:
        return ["## Context", "No chip is selected and the database has none; ask the user which chip they mean."]
    lines = ["## Context", f"- chip_id: {inline_from_database(chip_id)}"]
    if chip:
        lines.append(f"- size: {inline_from_database(chip.get('size'))} qubits, topology "
                     f"{inline_from_database(chip.get('topology_id') or 'square-lattice-mux')}")
    else:
        lines.append("- (this chip was not found in the database)")
    return lines


def _size(chip: ChipLayout | None) -> int:
    """The chip's qubit count for labels (0 when unknown: two-digit labels)."""
    try:
        return int(chip.get("size") or 0) if chip else 0
    except (TypeError, ValueError):
        return 0


def qubit_sections(repo: CalibrationRepository, chip_id: str, qid: str, chip: ChipLayout | None, *, neighbours: bool,
                   values: bool = True) -> list[str]:
    """Target qubit (with its current params unless ``values`` is False), and optionally topology neighbours'
    params and the qubit's couplings.  Without neighbours (chat mode) only catalogued metrics are listed; the
    rest is one ``get_qubit_params`` call away."""
    label = qubit_label(qid, _size(chip))
    lines = [f"- target qubit: {label}"]
    if values:
        names = None if neighbours else tuple(n for n in CATALOGUE if n not in RESTATED)
        lines.append(f"- {label} current parameters: "
                     f"{_params_line(_safe('qubit params', repo.qubit_params, chip_id, qid), names)}")
    if not neighbours or not chip or not chip.get("size"):
        return lines
    topology_id = chip["topology_id"]
    topology = _safe("topology", topology_for, int(chip["size"]), None if topology_id is None else str(topology_id))
    if topology is None or int(qid) >= topology.num_qubits:
        return lines
    size = _size(chip)
    lines.append(f"\n## Topology neighbours of {label}")
    for n in topology.neighbours(int(qid)):
        params = _safe("neighbour params", repo.qubit_params, chip_id, str(n))
        lines.append(f"- {qubit_label(n, size)}: {_params_line(params, NEIGHBOUR_PARAMS)}")
    lines.append(f"\n## Couplings of {label} (control→target)")
    for coupling in topology.couplings_of(int(qid)):
        params = _safe("coupling params", repo.coupling_params, chip_id, coupling.id)
        lines.append(f"- {target_label(coupling.id, size)}: {_params_line(params, COUPLING_PARAMS, 'coupling')}")
    return lines


def _run_line(run: TaskRow) -> str:
    when = compact_timestamp(run.get("start_at") or run.get("end_at"))
    outputs = _params_line(run.get("output_parameters"))
    flag = " (excluded)" if run.get("excluded") else ""
    return (f"- {inline_from_database(when)} {inline_from_database(run.get('status', '?'))}{flag}, execution "
            f"{inline_from_database(run.get('execution_id', '?'))}: {outputs}")


def experiment_sections(repo: CalibrationRepository, chip_id: str, qid: str, task_name: str | None,
                        chip: ChipLayout | None = None) -> list[str]:
    """Analysis mode: the reviewed task's latest result and its previous runs."""
    if not task_name:
        return []
    shown_task = inline_from_database(task_name, 80)
    runs = _safe("task history", repo.task_results, chip_id, task_name=task_name, qid=qid,
                 limit=HISTORY_RUNS + 1) or []
    if not runs:
        return [f"\n## Experiment: {shown_task}", "No result of this task was found for this qubit."]
    latest, history = runs[0], runs[1:]
    lines = [f"\n## Experiment: {shown_task} (latest result)", _run_line(latest)]
    run_params = latest.get("run_parameters")
    if run_params:
        lines.append("- run parameters: " + json.dumps(untrusted_data(run_params, 120), ensure_ascii=False,
                                                       default=str)[:600])
    message = latest.get("message")
    if message:
        lines.append("- task message: " + inline_from_database(message, 300))
    lines.append(f"\n## Recent history of {shown_task} on {qubit_label(qid, _size(chip))} (newest first)")
    lines += [_run_line(run) for run in history] or ["- no earlier runs"]
    return lines
