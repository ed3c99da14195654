"""The shape of a tool: its JSON schema, the function behind it, and what it hands back.

Each tool family module declares its tools with :func:`tool`; the registry lists them; what the model
reads about a tool is ``descriptions/<name>.md`` (prose next to prose, so its token cost is reviewed in one
place, ``bench/prompt_budget.py``). Tool functions receive a :class:`ToolContext` plus validated keyword arguments, return a
:class:`ToolResult`, and signal a problem the model can fix by raising :class:`ToolError`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol

import pandas as pd

from copilot_core.analysis.overview import INACTIVE_MARK
from copilot_core.domain.topology import Topology, target_label, topology_for
from copilot_core.domain.windows import DATE_PATTERN, DAYS, LAST_RUNS_MOST, WEEKDAYS
from copilot_core.errors import CopilotError
from copilot_core.tools.compact import inline_from_database

if TYPE_CHECKING:
    from copilot_core.data.rows import ChipLayout
    from copilot_core.data.repository import CalibrationRepository
    from copilot_core.figures import FigureRoot
    from copilot_core.tools.store import DataStore


ErrorKind = Literal["data", "call"]
"""What a failed call tells the person: ``data``, a fact of the data (no such qubit, chip not found, a metric never
measured there), shown as the data's answer; ``call``, a call that did not fit (bad arguments, a tool that is off),
which says nothing about the data and is never shown as its answer."""


class ToolError(CopilotError):
    """A failure the model can act on: ``message`` says what went wrong, ``hint`` what to do instead, ``kind``
    whether it is a fact of the data or a call that did not fit (:data:`ErrorKind`; every raise names one)."""

    def __init__(self, message: str, hint: str = "", *, kind: ErrorKind) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.kind = kind


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


class SandboxRun(Protocol):
    """What a sandbox job returns (``copilot_core.sandbox.SandboxResult``)."""

    @property
    def output(self) -> str: ...
    @property
    def charts(self) -> list[dict]: ...
    @property
    def error(self) -> str | None: ...
    @property
    def layers(self) -> list[str]: ...
    @property
    def elapsed_s(self) -> float: ...


class Sandbox(Protocol):
    """``copilot_core.sandbox.run_analysis``: model-written code on named DataFrames."""

    def __call__(self, code: str, data: dict[str, object], /) -> SandboxRun: ...


class MemoryReader(Protocol):
    """The part of ``copilot_core.memory.CopilotMemory`` a tool may read."""

    def recall(self, chip_id: str, *, kind: str | None = None) -> dict: ...


Requirement = Literal["memory", "figures"]


@dataclass
class ToolContext:
    """What tools may use: the repository (read-only), the session's data store, the sandbox and memory."""

    repo: CalibrationRepository
    store: DataStore
    sandbox: Sandbox | None = None
    memory: MemoryReader | None = None
    figures: FigureRoot | None = None  # the lab's figure directory (read-only)
    _chips: dict[str, ChipLayout] = field(default_factory=dict)

    def chip(self, chip_id: str) -> ChipLayout:
        """The chip's layout (id, size, topology), or a ToolError listing the chips that exist."""
        if chip_id not in self._chips:
            found = self.repo.chip_layout(chip_id)
            if found is None:
                known = ", ".join(inline_from_database(c["chip_id"], 64) + ("" if c.get("active", True) else INACTIVE_MARK)
                                  for c in self.repo.list_chips()[:20]) or "none"
                raise ToolError(f"chip {chip_id!r} not found", f"available chips: {known}", kind="data")
            self._chips[chip_id] = found
        return self._chips[chip_id]

    def size(self, chip_id: str) -> int:
        return int(self.chip(chip_id).get("size") or 0)

    def topology(self, chip_id: str) -> Topology:
        chip = self.chip(chip_id)
        try:
            topology_id = chip["topology_id"]
            return topology_for(int(chip["size"] or 0), None if topology_id is None else str(topology_id))
        except ValueError as exc:
            raise ToolError(f"chip {chip_id!r} has no known topology: {exc}", kind="data") from None

    def check_qid(self, chip_id: str, qid: str) -> str:
        """``qid`` if the chip has that qubit, else a ToolError giving the valid range."""
        size = self.size(chip_id)
        if size and int(qid) >= size:
            raise ToolError(f"{target_label(qid, size)} does not exist on {chip_id}",
                            f"{chip_id} has qubits {target_label('0', size)}..{target_label(str(size - 1), size)}",
                            kind="data")
        return qid

    def label(self, chip_id: str, qid: str) -> str:
        """``Q069`` / ``Q115→Q118``: the target as every table and sentence names it."""
        return target_label(qid, self.size(chip_id) or 64)

    def reset(self) -> None:
        self._chips.clear()


ToolFn = Callable[..., ToolResult]
DESCRIPTION_DIR = Path(__file__).resolve().parent / "descriptions"
# What the model is sent of a parameter schema (see ``model_schema``): every round resends it, and on a CPU-served
# model the JSON structure costs more than the words.  Validation keywords (patterns, bounds) stay in args.py,
# which answers a violation with an error and a hint; a property's words stay in the full schema (the tool's
# one-line description and the system prompt's tool guide say what the model needs, once); "string", the type
# of every id and name, is the unsent default, so only other types are sent.
_MODEL_KEYS = frozenset({"type", "properties", "required"})
_PROPERTY_KEYS = frozenset({"type", "enum", "items"})
# Marks an argument the toolkit fills from the session when the model leaves it out (the chip in view): it is
# validated like any other but not sent, since it would cost every tool a property and a required entry.
SESSION = "x-session"
# Marks an enum whose values the model is not sent (a filter whose values it knows, e.g. a run's status): a
# wrong value still fails validation, and the error lists the valid ones.
VALUES_ON_ERROR = "x-values-on-error"
# Marks an argument the router fills from the question's words (a window written as dates): validated like any other,
# not sent, so the tool set stays within its token budget; the model answers such questions from the router's call.
FROM_QUESTION = "x-from-question"


@lru_cache(maxsize=None)
def tool_description(name: str) -> str:
    """``descriptions/<name>.md``, stripped; a missing file is a packaging error, raised at first use."""
    return (DESCRIPTION_DIR / f"{name}.md").read_text(encoding="utf-8").strip()


def _model_property(prop: dict) -> dict:
    out = {k: v for k, v in prop.items() if k in _PROPERTY_KEYS
           and not (k == "type" and v == "string") and not (k == "enum" and VALUES_ON_ERROR in prop)}
    if isinstance(out.get("items"), dict):
        out["items"] = _model_property(out["items"])
    return out


def model_schema(schema: dict) -> dict:
    """What the model is sent of a tool's parameter schema: property names, types other than string, enums and
    required keys, without the session-filled arguments and without an empty ``required``."""
    sent = {name: prop for name, prop in schema.get("properties", {}).items()
            if SESSION not in prop and FROM_QUESTION not in prop}
    out: dict = {k: v for k, v in schema.items() if k in _MODEL_KEYS and k not in ("properties", "required")}
    out["properties"] = {name: _model_property(prop) for name, prop in sent.items()}
    required = [name for name in schema.get("required", []) if name in sent]
    if required:
        out["required"] = required
    return out


# What a server that turns each tool's schema into a decoding grammar (llama.cpp with ``--jinja``) is sent instead:
# every keyword its schema-to-grammar converter enforces, so the call a small model writes is one validation accepts
# (right names, no extra keys, ids matching their pattern, enums and bounds kept).  Words and defaults stay out.
_GRAMMAR_KEYS = frozenset({"type", "enum", "pattern", "minimum", "maximum", "minItems", "maxItems", "minLength",
                           "maxLength"})


def _constrained_property(prop: dict) -> dict:
    if prop.get("type") == "object" and isinstance(prop.get("properties"), dict):
        return constrained_schema(prop)
    out = {k: v for k, v in prop.items() if k in _GRAMMAR_KEYS}
    if isinstance(prop.get("items"), dict):
        out["items"] = _constrained_property(prop["items"])
    return out


def constrained_schema(schema: dict) -> dict:
    """A tool's full parameter schema as a grammar-constrained server needs it: closed objects, typed and patterned
    properties; the session-filled arguments (the chip) stay allowed but optional, as in ``model_schema``."""
    properties = schema.get("properties", {})
    out: dict = {"type": "object", "properties": {name: _constrained_property(prop) for name, prop in properties.items()},
                 "additionalProperties": False}
    required = [name for name in schema.get("required", []) if name in properties and SESSION not in properties[name]]
    if required:
        out["required"] = required
    return out


def session_arguments(schema: dict) -> list[str]:
    """The arguments of a tool schema the toolkit fills from the session (``SESSION``)."""
    return [name for name, prop in schema.get("properties", {}).items() if SESSION in prop]


@dataclass(frozen=True)
class Limit:
    """At most ``calls`` calls per user request; past that the model gets ``hint`` instead of a result."""

    calls: int
    hint: str


@dataclass(frozen=True)
class ToolSpec:
    """A tool and its policy: every module that treats tools differently reads it from here."""

    name: str
    parameters: dict  # the full schema arguments are validated against (args.py)
    run: ToolFn
    stored_key: Callable[[dict], str] | None = None  # stored tools: the data-store key for these args
    cacheable: bool = True  # another spelling of an earlier call may be answered from the turn's ledger (cache.py)
    limit: Limit | None = None  # per-request call limit
    reduced: bool = False  # offered to models the readiness check gives only the reduced tool set
    runs_code: bool = False  # runs model-written code (show-work lists it as an analysis; memory keeps the code)
    requires: Requirement | None = None  # offered only when the session has this service

    @property
    def stored(self) -> bool:
        return self.stored_key is not None

    @property
    def description(self) -> str:
        return tool_description(self.name)

    def schema(self) -> dict:
        """The neutral schema the providers translate for the Responses / Chat Completions APIs."""
        return {"name": self.name, "description": self.description, "parameters": model_schema(self.parameters)}


def tool(name: str, properties: dict[str, dict], required: tuple[str, ...] = (),
         stored_key: Callable[[dict], str] | None = None, *, cacheable: bool = True, limit: Limit | None = None,
         reduced: bool = False, runs_code: bool = False,
         requires: Requirement | None = None) -> Callable[[ToolFn], ToolSpec]:
    """Declare a tool: the decorated function becomes its ``ToolSpec``; its description is ``descriptions/<name>.md``."""
    schema = {"type": "object", "properties": properties, "required": list(required), "additionalProperties": False}

    def wrap(fn: ToolFn) -> ToolSpec:
        return ToolSpec(name, schema, fn, stored_key, cacheable=cacheable, limit=limit, reduced=reduced,
                        runs_code=runs_code, requires=requires)

    return wrap


# ------------------------------------------------------------------------------- schema fragments
# Shared by every tool, so each is worded once (the full schema's words; the model reads the tool guide).

CHIP_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_\-]{0,63}$"


def chip_id_arg() -> dict:
    """The chip: required by validation, filled by the toolkit with the session's chip when the model omits it."""
    return {"type": "string", "pattern": CHIP_PATTERN,
            "description": "Chip id, e.g. '64Qv3'; default: the chip in view.", SESSION: True}


def chip_ids_arg(max_items: int, description: str) -> dict:
    """Several chips side by side (at least two)."""
    return {"type": "array", "items": {"type": "string", "pattern": CHIP_PATTERN}, "minItems": 2,
            "maxItems": max_items, "uniqueItems": True, "description": description}


def days_arg() -> dict:
    """``days`` of a tool that reads a window: whole UTC days ending on the chip's newest run's day
    (:func:`~copilot_core.domain.windows.day_window`)."""
    return {"type": "integer", "minimum": 1, "maximum": 365,
            "description": "The last N whole UTC days, counting the newest run's day (\"last 14 days\" is "
                           "days=14): a window, not a count."}


def day_arg() -> dict:
    """``day``: one whole UTC day instead of ``days`` ("yesterday" is the day before the newest run's day)."""
    return {"type": "string", "enum": list(DAYS),
            "description": "Instead of days: one UTC day, 'today' (the newest run's day) or the day before."}


def last_runs_arg() -> dict:
    """``last_runs``: a window of the chip's N newest runs instead of days ("over its last 5 runs"); the router
    fills it from the question (:func:`~copilot_core.tools.aggregates.newest_runs`)."""
    return {"type": "integer", "minimum": 1, "maximum": LAST_RUNS_MOST, FROM_QUESTION: True,
            "description": "Instead of days: the chip's N newest runs."}


def date_arg(end: str) -> dict:
    """``from_date``/``to_date``: one end of a window written as dates, whole UTC days, both ends included
    (:func:`~copilot_core.domain.windows.dates_window`); the router fills it from the question."""
    return {"type": "string", "pattern": DATE_PATTERN, FROM_QUESTION: True,
            "description": f"Instead of days: the {end} day, 'YYYY-MM-DD', 'MM-DD' or a weekday (the latest such day "
                           "on or before the newest run's day), included."}


def including_arg() -> dict:
    """``including``: the sides whose limit itself counts ("at least 60": a value of 60 meets it); the router
    fills it from the question's words (:func:`~copilot_core.routing.limits.settle_limits`)."""
    return {"type": "array", "items": {"type": "string", "enum": ["below", "above"]}, "maxItems": 2,
            "uniqueItems": True, FROM_QUESTION: True,
            "description": "The sides whose limit counts itself ('at least', 'no more than')."}


def qubit_set_arg(what: str) -> dict:
    """``qubits`` / ``leaving_out``: the set of qubits a statistic is over ("Q10 through Q19", "except Q5"); the
    router fills both from the question's words (:func:`~copilot_core.routing.limits.settle_limits`)."""
    return {"type": "array", "items": {"type": "integer", "minimum": 0}, "maxItems": 1024, "uniqueItems": True,
            FROM_QUESTION: True, "description": what}


QUBIT_SET_ARGS = {"qubits": qubit_set_arg("Only these qubits (a coupling: both ends)."),
                  "leaving_out": qubit_set_arg("Leave these qubits out.")}


def weekday_arg() -> dict:
    """``since_weekday``: a window from a weekday on; a pattern, not an enum, so the compact schema stays short."""
    return {"type": "string", "pattern": "^(" + "|".join(WEEKDAYS) + ")$",
            "description": "Instead of days: from this weekday on ('since Monday'; 'this week': monday), "
                           "lower case."}


def qid_arg(description: str | None = None) -> dict:
    """A qubit id; with ``description``, one whose meaning is particular to the tool (then described there)."""
    if description is None:
        return {"type": "string", "pattern": r"^[0-9]{1,5}$", "description": "Qubit id, e.g. '5'."}
    return {"type": "string", "pattern": r"^[0-9]{1,5}$", "description": description}


def target_arg() -> dict:
    return {"type": "string", "pattern": r"^[0-9]{1,5}(-[0-9]{1,5})?$", "description": "Qubit '5' or coupling '4-1'."}


def qids_arg(max_items: int, min_items: int = 1) -> dict:
    return {"type": "array", "items": qid_arg(), "minItems": min_items, "maxItems": max_items, "uniqueItems": True,
            "description": f"Qubit ids, e.g. ['0', '5'] ({min_items}..{max_items})."}


def name_arg(description: str) -> dict:
    return {"type": "string", "pattern": r"^[A-Za-z][A-Za-z0-9_]{0,79}$", "description": description}


def parameter_name_arg() -> dict:
    return name_arg("Parameter name, e.g. 't1'.")


def task_name_arg() -> dict:
    return name_arg("Task name, e.g. 'CheckT1'.")


def param_names_arg(max_items: int = 30) -> dict:
    return {"type": "array", "items": name_arg("parameter name"), "minItems": 1, "maxItems": max_items,
            "uniqueItems": True, "description": "Parameter names, e.g. ['t1']."}


def last_n_arg(default: int, maximum: int) -> dict:
    return {"type": "integer", "minimum": 1, "maximum": maximum, "default": default,
            "description": f"Default {default}, max {maximum}."}


def execution_id_arg() -> dict:
    return {"type": "string", "pattern": r"^[0-9]{8}-[0-9]{3,6}$", "description": "Execution id, e.g. '20260720-003'."}
