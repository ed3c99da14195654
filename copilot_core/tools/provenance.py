"""Provenance: how a parameter's value changed (versions) and what produced it (the lineage graph).

These drive root-cause questions ("why did T1 of Q05 drop?"): versions give the entity ids,
the graph walks back through the tasks and inputs that produced a version.
"""

from __future__ import annotations

import re

from copilot_core.domain.metrics import format_value, metric
from copilot_core.tools.compact import from_database, inline_from_database
from copilot_core.tools.spec import ToolContext, ToolResult, chip_id_arg, last_n_arg, parameter_name_arg, qid_arg, tool

_ENTITY_ID = r"^[A-Za-z][A-Za-z0-9_]{0,79}:[0-9\-]{1,13}:[0-9]{8}-[0-9]{3,6}:[A-Za-z0-9_\-]{1,64}$"


def _validity(item: dict) -> str | None:
    """Why a version must not be quoted as a calibrated value, or None when it is valid."""
    if item.get("usable", True):
        return None
    if item.get("task_excluded"):
        return "its task result was excluded"
    status = item.get("task_status")
    if status and status != "completed":
        return f"its task {inline_from_database(status, 20)}"
    return "its value is NaN (stored as 0)"


def _display_fields(item: dict) -> dict[str, object]:
    """A version or graph node with its value and error in display units and without repeated ids."""
    node_id = item.get("id")
    out: dict[str, object] = {}
    for key, value in item.items():
        repeats_id = key != "id" and node_id is not None and (
            value == node_id or (key == "task_id" and isinstance(value, str) and value in str(node_id)))
        if key.startswith("_") or repeats_id:  # graph nodes repeat their id as entity_id/activity_id/task_id
            continue
        if key in ("usable", "task_status", "task_excluded"):
            continue
        out[key] = from_database(value)
    invalid = _validity(item)
    if invalid:
        out["not_valid"] = invalid
    name = item.get("parameter_name")
    if name and "value" in item:
        entry = metric(str(name), str(item.get("unit") or ""))
        out["value"] = entry.to_display(item.get("value"))
        out["unit"] = entry.unit
        if isinstance(item.get("error"), (int, float)) and not isinstance(item.get("error"), bool):
            out["error"] = item["error"] * entry.scale
    return out


def _lineage_answer(label: str, chip_id: str, name: str, versions: list[dict]) -> str:
    """Where the current value came from, in one quotable sentence (ids and task names matching their patterns
    only: both are database text)."""
    current = next((v for v in versions if v.get("current")), versions[0] if versions else None)
    if current is None:
        return f"No recorded versions of {name} for {label} on {chip_id}."
    task = str(current.get("task_name") or "")
    execution = str(current.get("execution_id") or "")
    source = " by " + task if re.fullmatch(r"[A-Za-z][A-Za-z0-9_]{0,79}", task) else ""
    source += f" in execution {execution}" if re.fullmatch(r"[0-9]{8}-[0-9]{3,6}", execution) else ""
    value = current.get("value")
    shown = format_value(metric(name), value) if isinstance(value, (int, float)) else "no valid value"
    return (f"The current {name} of {label} on {chip_id} is {shown}, produced{source or ' by an unrecorded task'}"
            f" (version {current.get('version')}; {len(versions)} versions listed).")


@tool("get_parameter_lineage",
      {"parameter_name": parameter_name_arg(), "qid": qid_arg(), "chip_id": chip_id_arg(),
       "last_n": last_n_arg(10, 50)}, ("parameter_name", "qid", "chip_id"))
def get_parameter_lineage(ctx: ToolContext, parameter_name: str, qid: str, chip_id: str, last_n: int = 10) -> ToolResult:
    ctx.check_qid(chip_id, qid)
    versions = []
    for row in ctx.repo.parameter_versions(chip_id, parameter_name, qid, limit=last_n):
        view = _display_fields({k: row.get(k) for k in ("version", "parameter_name", "value", "unit", "error",
                                                        "valid_from", "valid_until", "task_name", "execution_id",
                                                        "entity_id", "usable", "task_status", "task_excluded")})
        view["current"] = row.get("valid_until") is None
        view.pop("parameter_name", None)
        view.pop("valid_until", None)
        versions.append(view)
    data = {"answer": _lineage_answer(ctx.label(chip_id, qid), chip_id, parameter_name, versions),
            "chip_id": chip_id, "qid": qid, "parameter_name": parameter_name, "count": len(versions),
            "versions": versions}
    if any("not_valid" in v for v in versions):
        data["note"] = "versions with not_valid came from a failed or excluded task (or NaN): never quote them as values"
    return ToolResult(data, f"{parameter_name} of {ctx.label(chip_id, qid)}: {len(versions)} versions")


@tool("get_provenance_lineage_graph",
      {"entity_id": {"type": "string", "pattern": _ENTITY_ID,
                     "description": "From get_parameter_lineage."},
       "chip_id": chip_id_arg(),
       "max_depth": {"type": "integer", "minimum": 1, "maximum": 20, "default": 5,
                     "description": "Default 5, max 20."}},
      ("entity_id", "chip_id"))
def get_provenance_lineage_graph(ctx: ToolContext, entity_id: str, chip_id: str, max_depth: int = 5) -> ToolResult:
    ctx.chip(chip_id)
    graph = ctx.repo.lineage_graph(chip_id, entity_id, max_depth=max_depth)
    nodes = [_display_fields(n) for n in graph.get("nodes", [])]
    edges = [{k: from_database(v) for k, v in e.items()} for e in graph.get("edges", [])]
    data = {"chip_id": chip_id, "root": entity_id, "max_depth": max_depth, "node_count": len(nodes),
            "edge_count": len(edges), "nodes": nodes, "edges": edges}
    if not nodes:
        data["note"] = "no provenance recorded for this entity"
    return ToolResult(data, f"lineage of {entity_id}: {len(nodes)} nodes, {len(edges)} edges")
