"""The rows the repository returns, as TypedDicts: what pages, tools and analyses may rely on.

Fields the repository computes have their computed type (``value`` of a metric read is a usable float or None);
fields copied from a stored document keep ``object``: QDash (or another client) wrote them, so a reader checks
them (``isinstance``, ``stored_number``) before it trusts them.
"""

from __future__ import annotations

from datetime import datetime
from typing import TypedDict


class Param(TypedDict):
    """One parameter of ``qubit.data``/``coupling.data`` (QDash's ParameterModel), value as stored."""

    value: object
    unit: str
    error: object
    calibrated_at: object
    execution_id: object
    task_id: object


Params = dict[str, Param]  # parameter name -> Param


class ChipLayout(TypedDict):
    """What a chip's qubits are: its size and topology (the prompt's context and the tools' checks need no more)."""

    chip_id: str
    size: int
    topology_id: object


class ChipRow(TypedDict):
    chip_id: str
    size: int
    topology_id: object
    installed_at: object
    active: bool
    qubits_total: int
    qubits_with_data: int
    last_execution_at: object
    last_execution_status: object


class TaskRow(TypedDict):
    """One task result (``task_result_history``), newest first in every list."""

    task_id: object
    name: object
    task_type: object
    qid: object
    chip_id: object
    execution_id: object
    status: object
    message: object
    output_parameters: Params
    output_parameter_names: object
    start_at: object
    end_at: object
    elapsed_time: object
    excluded: bool
    tags: list[object]
    user_note: object
    ai_review_note: object
    figure_path: object
    json_figure_path: object


class MetricValue(TypedDict):
    """One qubit's (or coupling's) value of a metric read: ``value`` None when missing or unusable."""

    value: float | None
    stddev: float | None
    count: int
    unit: str
    at: object
    execution_id: object
    task_id: object
    missing_since: object


class SeriesPoint(TypedDict):
    """One usable value of a parameter's history (one qubit)."""

    value: float | None
    unit: str
    error: object
    calibrated_at: object
    execution_id: object
    task_id: object


class ChipSeriesRow(TypedDict):
    """One usable value of a parameter's history on a chip (many qubits)."""

    qid: str
    calibrated_at: object
    value: float | None
    unit: str
    execution_id: object
    task_id: object


class ExecutionRow(TypedDict):
    execution_id: object
    name: object
    status: object
    tags: list[object]
    chip_id: object
    start_at: object
    end_at: object
    elapsed_time: object
    note: object


class NoteRow(TypedDict):
    """A calibration note; ``note`` is the stored dict verbatim (untrusted text)."""

    chip_id: object
    execution_id: object
    task_id: object
    note: object
    version: object
    timestamp: object


class LineageGraph(TypedDict):
    root: str
    nodes: list[dict]
    edges: list[dict]
    truncated: bool


__all__ = ["ChipRow", "ChipSeriesRow", "ExecutionRow", "LineageGraph", "MetricValue", "NoteRow", "Param", "Params",
           "SeriesPoint", "TaskRow", "datetime"]
