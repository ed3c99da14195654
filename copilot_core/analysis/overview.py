"""Tables of the Overview page: chips, recent executions, drift flags (display-ready frames)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeVar

import pandas as pd

from copilot_core.analysis.drift import DriftFlag
from copilot_core.domain.metrics import format_value, metric
from copilot_core.domain.topology import qubit_label


INACTIVE_MARK = " (inactive)"
ChipT = TypeVar("ChipT", bound=Mapping[str, object])


def default_chip(chips: Sequence[ChipT]) -> ChipT | None:
    """The chip a page opens on: the first listed (most recently installed) active one.  A chip QDash marks
    inactive is never opened by default; None when every chip is inactive."""
    return next((c for c in chips if c.get("active", True)), None)


def chip_name(chip: Mapping[str, object]) -> str:
    """The chip id, marked when QDash says the chip is inactive."""
    return f"{chip.get('chip_id')}{'' if chip.get('active', True) else INACTIVE_MARK}"


def chip_label(chip: Mapping[str, object]) -> str:
    """How a chip is offered in a picker: id, size and the inactive mark."""
    return f"{chip.get('chip_id')} ({chip.get('size')} qubits){'' if chip.get('active', True) else INACTIVE_MARK}"


def chips_frame(chips: list[dict]) -> pd.DataFrame:
    """Chip (marked when inactive), size, qubits with data, coverage and the last execution."""
    records = []
    for c in chips:
        size = int(c.get("size") or 0)
        with_data = int(c.get("qubits_with_data") or 0)
        records.append({"chip": chip_name(c), "qubits": size, "with data": with_data,
                        "coverage": with_data / size if size else 0.0,
                        "last execution": c.get("last_execution_at"), "status": c.get("last_execution_status")})
    return pd.DataFrame.from_records(
        records, columns=["chip", "qubits", "with data", "coverage", "last execution", "status"])


def executions_frame(executions: list[dict]) -> pd.DataFrame:
    records = [{"execution": e.get("execution_id"), "name": e.get("name"), "status": e.get("status"),
                "started": e.get("start_at"), "ended": e.get("end_at"),
                "minutes": (e["elapsed_time"] / 60) if isinstance(e.get("elapsed_time"), (int, float)) else None,
                "tags": ", ".join(str(t) for t in e.get("tags") or [])} for e in executions]
    return pd.DataFrame.from_records(records, columns=["execution", "name", "status", "started", "ended", "minutes",
                                                       "tags"])


def flags_frame(flags: list[DriftFlag], size: int) -> pd.DataFrame:
    """Drift flags as a table, one row each: what to look at and by how much it fell."""
    records = []
    for f in flags:
        entry = metric(f.metric) if f.metric else None
        where = qubit_label(f.qid, size)
        if "-" in f.target:
            control, target = f.target.split("-", 1)
            where = f"{qubit_label(control, size)}→{qubit_label(target, size)}"
        records.append({"qid": f.qid, "where": where,
                        "flag": "drop" if f.reason == "drop" else "failing task",
                        "what": entry.title if entry else f.task,
                        "latest": format_value(entry, f.latest) if entry else "",
                        "7-day median": format_value(entry, f.baseline) if entry else "",
                        "drop": f.drop, "at": f.at, "message": f.message})
    return pd.DataFrame.from_records(
        records, columns=["qid", "where", "flag", "what", "latest", "7-day median", "drop", "at", "message"])
