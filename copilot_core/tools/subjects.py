"""Whether what a question names exists: a chip, a qubit, a coupling, and a qubit's value of one metric.

A question about qubit 200 of a 64-qubit chip, a chip that is not installed or two qubits that are not neighbours
has one right answer, "there is no such ...", with what does exist; a small model asked it instead states a value.
:func:`absent` decides it from the chip rows before any model round (the turn's plan); ``check_target`` states it
as a sentence with no measured value in it.  A qubit that exists but has no usable value of a metric gets why.
"""

from __future__ import annotations

from copilot_core.analysis.chip_metrics import chip_metric
from copilot_core.domain.metrics import CATALOGUE, format_value
from copilot_core.domain.topology import qubit_label, topology_for
from copilot_core.domain.vocabulary import not_held_named
from copilot_core.tools.compact import inline_from_database
from copilot_core.tools.spec import ToolContext, ToolResult, chip_id_arg, name_arg, qid_arg, tool

SHOWN_NEIGHBOURS = 8


def _range(chip_id: str, size: int) -> str:
    return f"{chip_id} has qubits {qubit_label(0, size)}–{qubit_label(size - 1, size)}"


def absence(chips: list[str], chip_id: str, size: int, topology_id: str | None, qid: str | None,
            coupling_id: str | None) -> str | None:
    """The sentence saying what is not there (None when everything named exists).  ``chips``: the installed ones."""
    if chip_id not in chips:
        return (f"There is no chip {inline_from_database(chip_id, 64)} in the database; the chips are "
                f"{', '.join(inline_from_database(c, 64) for c in chips) or 'none'}.")
    if not size:
        return None
    for q in ([qid] if qid is not None else []) + (coupling_id.split("-") if coupling_id else []):
        if int(q) >= size:
            return f"There is no such qubit: qubit {int(q)} does not exist on {chip_id} ({_range(chip_id, size)})."
    if coupling_id:
        a, b = (int(p) for p in coupling_id.split("-"))
        topology = topology_for(size, topology_id)
        if topology.coupling_between(a, b) is None:
            near = [c.target if c.control == a else c.control for c in topology.couplings_of(a)]
            listed = ", ".join(qubit_label(n, size) for n in sorted(near)[:SHOWN_NEIGHBOURS]) or "none"
            return (f"There is no such coupling: {qubit_label(a, size)} and {qubit_label(b, size)} are not neighbours "
                    f"on {chip_id}, so they have no coupling ({qubit_label(a, size)} couples to {listed}).")
    return None


def _held_elsewhere(ctx: ToolContext, chips: list[str], chip_id: str, qid: str | None,
                    coupling_id: str | None) -> list[str]:
    """The other installed chips that hold the qubit or coupling a chip lacks: a question that names no chip is read
    on the chip in view, and "no such qubit" alone would hide the chip the person meant."""
    held = []
    for other in chips:
        row = ctx.repo.get_chip(other) if other != chip_id else None
        size = int(row.get("size") or 0) if row else 0
        topology = row.get("topology_id") if row else None
        if size and absence(chips, other, size, None if topology is None else str(topology), qid, coupling_id) is None:
            held.append(other)
    return held


@tool("check_target",
      {"chip_id": chip_id_arg(), "qid": qid_arg("A qubit the question names."),
       "coupling_id": {"type": "string", "pattern": r"^[0-9]{1,5}-[0-9]{1,5}$", "description": "A coupling, '4-5'."},
       "metric_name": name_arg("A metric the question asks for, e.g. 't1'.")},
      ("chip_id",))
def check_target(ctx: ToolContext, chip_id: str, qid: str | None = None, coupling_id: str | None = None,
                 metric_name: str | None = None) -> ToolResult:
    chips = ctx.repo.chip_ids()
    row = ctx.repo.get_chip(chip_id) if chip_id in chips else None
    size = int(row.get("size") or 0) if row else 0
    topology_id = row.get("topology_id") if row else None
    missing = absence(chips, chip_id, size, None if topology_id is None else str(topology_id), qid, coupling_id)
    data: dict = {"chip_id": chip_id, "exists": missing is None}
    if missing is not None:
        if row is not None and (held := _held_elsewhere(ctx, chips, chip_id, qid, coupling_id)):
            missing += f" {', '.join(held)} {'has' if len(held) == 1 else 'have'} it: name the chip to ask there."
            data["held_on"] = held
        data["answer"] = missing
        return ToolResult(data, missing)
    entry = CATALOGUE.get(metric_name or "")
    if metric_name and entry is None:
        data |= {"held": False, "answer": _not_held(metric_name, chip_id)}
        return ToolResult(data, data["answer"])
    if qid is None or entry is None or entry.kind != "qubit":
        data["answer"] = f"{ctx.label(chip_id, qid) if qid is not None else chip_id} exists on {chip_id}."
        return ToolResult(data, data["answer"])
    cm = chip_metric(ctx.repo, chip_id, entry.name, kind="qubit")
    label = ctx.label(chip_id, qid)
    value = cm.values.get(qid)
    if value is None:
        why = cm.missing_reason(qid) or "no completed, non-excluded result holds a usable value (failed, excluded, " \
                                        "or stored as 0)"
        data["answer"] = f"{label} on {chip_id} has no {entry.title} measured: {why}."
        data["has_value"] = False
    else:
        data["answer"] = f"{label} on {chip_id} has {entry.title} {format_value(entry, value)}."
        data |= {"qid": qid, "metric": entry.name, "value": value, "has_value": True}
    return ToolResult(data, data["answer"])


def _not_held(name: str, chip_id: str) -> str:
    """What the data holds instead of a quantity no metric of the catalogue is (from the catalogue, no value)."""
    found = not_held_named(name)
    title = found[0] if found else inline_from_database(name.replace("_", " "), 80)
    near = " and ".join(CATALOGUE[m].title for m in found[1]) if found else ""
    nearest = f" The nearest metrics it holds are {near}; ask for one of those by name if it helps." if near else \
        " list_available_parameters lists what it holds."
    return (f"The data holds no {title}: no calibration task on {chip_id} measures it, and the metric catalogue has "
            f"no such quantity, so there is no value of it to give.{nearest}")
