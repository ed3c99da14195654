"""The shape of a tool: its JSON schema, the function behind it, and what it hands back.

Each tool family module declares its tools with :func:`tool`; the registry lists them. Tool
functions receive a :class:`ToolContext` plus validated keyword arguments, return a
:class:`ToolResult`, and signal a problem the model can fix by raising :class:`ToolError`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from copilot_core.domain.topology import Topology, qubit_label, topology_for
from copilot_core.tools.compact import clean_text


class ToolError(Exception):
    """A failure the model can act on: ``message`` says what went wrong, ``hint`` what to do instead."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


@dataclass
class ToolResult:
    """``data`` is the full result (display units, full precision); ``model`` overrides what the model
    sees (before compaction) when it must differ from ``data``, e.g. a heatmap's stats without its chart."""

    data: dict
    summary: str
    model: dict | None = None
    charts: list[dict] = field(default_factory=list)
    frame: pd.DataFrame | None = None
    error: str | None = None  # the tool ran but what it ran failed (sandbox code): shown with the data


@dataclass
class ToolContext:
    """What tools may use: the repository (read-only), the session's data store and the sandbox."""

    repo: Any
    store: Any
    sandbox: Callable | None = None
    _chips: dict[str, dict] = field(default_factory=dict)

    def chip(self, chip_id: str) -> dict:
        """The chip document, or a ToolError listing the chips that exist."""
        if chip_id not in self._chips:
            found = self.repo.get_chip(chip_id)
            if found is None:
                known = ", ".join(clean_text(c["chip_id"], 64) for c in self.repo.list_chips()[:20]) or "none"
                raise ToolError(f"chip {chip_id!r} not found", f"available chips: {known}")
            self._chips[chip_id] = found
        return self._chips[chip_id]

    def size(self, chip_id: str) -> int:
        return int(self.chip(chip_id).get("size") or 0)

    def topology(self, chip_id: str) -> Topology:
        chip = self.chip(chip_id)
        try:
            return topology_for(int(chip.get("size") or 0), chip.get("topology_id"))
        except ValueError as exc:
            raise ToolError(f"chip {chip_id!r} has no known topology: {exc}") from None

    def check_qid(self, chip_id: str, qid: str) -> str:
        """``qid`` if the chip has that qubit, else a ToolError giving the valid range."""
        size = self.size(chip_id)
        if size and int(qid) >= size:
            raise ToolError(f"qubit {qid} does not exist on {chip_id}", f"{chip_id} has qubits 0..{size - 1}")
        return qid

    def label(self, chip_id: str, qid: str) -> str:
        return qubit_label(qid, self.size(chip_id) or 64)

    def reset(self) -> None:
        self._chips.clear()


ToolFn = Callable[..., ToolResult]


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    parameters: dict
    run: ToolFn
    stored_key: Callable[[dict], str] | None = None  # stored tools: the data-store key for these args

    def schema(self) -> dict:
        """The neutral schema E1's providers translate for the Responses / Chat Completions APIs."""
        return {"name": self.name, "description": self.description, "parameters": self.parameters}


def tool(name: str, description: str, properties: dict[str, dict], required: tuple[str, ...] = (),
         stored_key: Callable[[dict], str] | None = None) -> Callable[[ToolFn], ToolSpec]:
    """Declare a tool: the decorated function becomes its ``ToolSpec``."""
    schema = {"type": "object", "properties": properties, "required": list(required), "additionalProperties": False}

    def wrap(fn: ToolFn) -> ToolSpec:
        return ToolSpec(name, description, schema, fn, stored_key)

    return wrap


# ------------------------------------------------------------------------------- schema fragments

def chip_id_arg() -> dict:
    return {"type": "string", "pattern": r"^[A-Za-z0-9][A-Za-z0-9_\-]{0,63}$",
            "description": "Chip id, e.g. '64Qv3' (the chip in context)."}


def qid_arg(description: str = "Qubit id as a plain number string, e.g. '5' ('Q05' is accepted).") -> dict:
    return {"type": "string", "pattern": r"^[0-9]{1,5}$", "description": description}


def target_arg() -> dict:
    return {"type": "string", "pattern": r"^[0-9]{1,5}(-[0-9]{1,5})?$",
            "description": "Qubit id ('5') or coupling id ('4-1', control-target)."}


def qids_arg(max_items: int, min_items: int = 1) -> dict:
    return {"type": "array", "items": qid_arg(), "minItems": min_items, "maxItems": max_items, "uniqueItems": True,
            "description": f"Qubit ids, e.g. ['0', '5'] (at most {max_items})."}


def name_arg(description: str) -> dict:
    return {"type": "string", "pattern": r"^[A-Za-z][A-Za-z0-9_]{0,79}$", "description": description}


def param_names_arg(max_items: int = 30) -> dict:
    return {"type": "array", "items": name_arg("parameter name"), "minItems": 1, "maxItems": max_items,
            "uniqueItems": True, "description": "snake_case parameter names, e.g. ['t1', 'x90_gate_fidelity']."}


def last_n_arg(default: int, maximum: int, what: str = "results") -> dict:
    return {"type": "integer", "minimum": 1, "maximum": maximum, "default": default,
            "description": f"How many {what} (1..{maximum}, default {default})."}


def execution_id_arg() -> dict:
    return {"type": "string", "pattern": r"^[0-9]{8}-[0-9]{3,6}$", "description": "Execution id, e.g. '20260720-003'."}
