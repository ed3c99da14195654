"""Families of calibration tasks, read from a task result's own fields: what "the coupling tasks", "single-qubit
calibrations" or "the readout tasks" of a question mean in the data.

QDash stores each result's ``task_type`` (``qubit``, ``coupling``, ``global``, ``system``, ``mux``); the coupling
family is ``task_type == "coupling"`` and the qubit family ``task_type == "qubit"`` (a result with no type counts
by its id: ``"4-5"`` is a coupling's).  Readout is no task type: the readout family is the qubit tasks that
measure the readout resonator or the readout itself, named so in QDash's task list (CheckResonatorSpectroscopy,
CheckReflectionCoefficient, CheckDispersiveShift, CheckReadoutFrequency, ReadoutClassification ...).
"""

from __future__ import annotations

from typing import Literal

Family = Literal["qubit", "coupling", "readout"]
FAMILIES: tuple[Family, ...] = ("qubit", "coupling", "readout")
# The words of a task's name that make it a readout task (QDash's task names, CamelCase parts).
READOUT_NAME_PARTS = ("Readout", "Resonator", "Reflection", "Dispersive")
FAMILY_WORDS: dict[str, str] = {"qubit": "single-qubit", "coupling": "coupling (two-qubit)", "readout": "readout"}


def task_type_of(task_type: object, qid: object) -> str:
    """A result's task type: its stored one, else ``coupling`` for a ``"4-5"`` id and ``qubit`` for another."""
    if isinstance(task_type, str) and task_type:
        return task_type
    return "coupling" if isinstance(qid, str) and "-" in qid else "qubit"


def in_family(family: Family, name: object, task_type: object, qid: object) -> bool:
    """Whether a task result (its ``name``, ``task_type`` and ``qid``) is of ``family``."""
    kind = task_type_of(task_type, qid)
    if family == "readout":
        return kind == "qubit" and isinstance(name, str) and any(part in name for part in READOUT_NAME_PARTS)
    return kind == family
