"""Latest merged parameters (``qubit.data`` / ``coupling.data``): one qubit, a few qubits, couplings, names.

Values go out in display units with their unit and threshold band, so the model compares like
with like against the thresholds in its prompt (QDash sent raw fractions and GHz here).
"""

from __future__ import annotations


from copilot_core.domain.metrics import (CATALOGUE, COUPLING_METRICS, QUBIT_METRICS, SCORED_COUPLING_METRICS,
                                         SCORED_QUBIT_METRICS, Kind, format_value, metric, missing_since,
                                         missing_text, unit_suffix)
from copilot_core.analysis.chip_metrics import chip_metric
from copilot_core.tools.aggregates import ranking
from copilot_core.tools.derived import gap_facts, gap_text
from copilot_core.tools.compact import display_parameters, from_database
from copilot_core.tools.spec import (FROM_QUESTION, ToolContext, ToolError, ToolResult, chip_id_arg,
                                     param_names_arg, qid_arg, qids_arg, tool)


def parameter_view(params: dict | None, kind: Kind = "qubit", names: list[str] | None = None) -> dict[str, dict]:
    """``{name: {value, unit, error?, band?, calibrated_at, execution_id}}`` in display units, full precision."""
    params = params or {}
    shown = display_parameters({n: params[n] for n in (names or params) if n in params}, kind)
    for name, item in shown.items():
        raw = params[name] if isinstance(params[name], dict) else {}
        band = metric(name, kind=kind).score(item["value"])
        if band:
            item["band"] = band
        if raw.get("calibrated_at") is not None:
            item["calibrated_at"] = raw["calibrated_at"]
        failed_at = missing_since(raw)
        if failed_at is not None:  # the latest result was NaN/NaN-as-0: missing, not the value before
            item["missing"] = missing_text(failed_at)
        if raw.get("execution_id"):
            item["execution_id"] = from_database(raw["execution_id"])
    return shown


def default_names(available: set[str], kind: Kind = "qubit", *, scored_only: bool = False) -> list[str]:
    """Catalogue metrics present in the data, in catalogue order (optionally only those with thresholds)."""
    if scored_only:
        order = SCORED_QUBIT_METRICS if kind == "qubit" else SCORED_COUPLING_METRICS
    else:
        order = QUBIT_METRICS if kind == "qubit" else COUPLING_METRICS
    return [n for n in order if n in available]


def values_row(params: dict | None, names: list[str], kind: Kind = "qubit") -> dict[str, object]:
    """``{name: display value}`` for the given names (None where missing)."""
    out: dict[str, object] = {}
    for name in names:
        param = (params or {}).get(name)
        param = param if isinstance(param, dict) else {}
        out[name] = metric(name, str(param.get("unit") or ""), kind).to_display(param.get("value"))
    return out


def units_of(params_by_id: dict[str, dict], names: list[str], kind: Kind = "qubit") -> dict[str, str]:
    units: dict[str, str] = {}
    for name in names:
        stored = next((str(p[name].get("unit") or "") for p in params_by_id.values()
                       if isinstance((p or {}).get(name), dict)), "")
        units[name] = metric(name, stored, kind).unit
    return units


def _values_answer(label: str, chip_id: str, view: dict[str, dict], asked: list[str] | None = None) -> str:
    """Every current value (or only the ones ``asked``) as one quotable sentence (display units, the dashboard's
    rounding, band if scored): a person who asks for one value reads that value, not the qubit's whole card."""
    order = list(asked) if asked else [n for n in QUBIT_METRICS if n in view] + sorted(n for n in view
                                                                                       if n not in QUBIT_METRICS)
    parts = []
    for name in order:
        item = view.get(name, {"missing": "not recorded"})
        if item.get("missing") or item.get("value") is None:
            parts.append(f"{name} {item.get('missing') or 'no valid value'}")
            continue
        band = f" ({item['band']})" if item.get("band") else ""
        parts.append(f"{name} {format_value(metric(name, str(item.get('unit') or '')), item['value'])}{band}")
    return f"{label} on {chip_id}: " + (", ".join(parts) if parts else "no parameters recorded") + "."


@tool("get_qubit_params",
      {"chip_id": chip_id_arg(), "qid": qid_arg(),
       "param_names": {**param_names_arg(8), FROM_QUESTION: True,
                       "description": "Only these parameters in the answer sentence (the ones the question names)."}},
      ("chip_id", "qid"), reduced=True)
def get_qubit_params(ctx: ToolContext, chip_id: str, qid: str, param_names: list[str] | None = None) -> ToolResult:
    ctx.check_qid(chip_id, qid)
    params = ctx.repo.qubit_params(chip_id, qid)
    if params is None:
        raise ToolError(f"{ctx.label(chip_id, qid)} not found on {chip_id}", "check the qid with get_chip_topology",
                        kind="data")
    view = parameter_view(params)
    label = ctx.label(chip_id, qid)
    data = {"answer": _values_answer(label, chip_id, view, param_names), "chip_id": chip_id, "qid": qid,
            "label": label, "parameters": view}
    return ToolResult(data, f"{ctx.label(chip_id, qid)} on {chip_id}: {len(view)} parameters")


def _ranking(rows: list[dict], names: list[str], units: dict[str, str]) -> str:
    """Per parameter, the qubits best first (by the metric's direction) as one quotable sentence."""
    parts = []
    for name in names:
        entry = metric(name, units[name])
        present = sorted((r for r in rows if r[name] is not None and r[name] == r[name]), key=lambda r: r[name],
                         reverse=entry.higher_is_better)
        missing = [r["label"] for r in rows if r[name] is None or r[name] != r[name]]
        ranked = ", ".join(f"{r['label']} {format_value(entry, r[name])}" for r in present)
        parts.append(f"{name}, best first: {ranked or 'no data'}" + (f" (no data: {', '.join(missing)})"
                                                                      if missing and present else ""))
    return "; ".join(parts) + "."


def _one_metric(rows: list[dict], name: str, unit: str) -> dict:
    """One metric of a few qubits: the winner first with both values, and the order the claim check holds."""
    entry = metric(name, unit)
    present = sorted((r for r in rows if r[name] is not None and r[name] == r[name]), key=lambda r: -r[name])
    if len(present) < 2:
        return {}
    shown = {r["label"]: format_value(entry, r[name]) for r in present}
    best = present if entry.higher_is_better else present[::-1]
    out: dict = {"ranking": ranking("qubit", name, [(r["label"], [shown[r["label"]]]) for r in present],
                                    entry.higher_is_better)}
    if len(rows) == 2:
        a, b = best
        word = "higher" if entry.higher_is_better else "lower"
        out["answer"] = (f"{a['label']} and {b['label']} have the same {entry.title}: {shown[a['label']]}."
                         if a[name] == b[name] else
                         f"{a['label']} is better for {entry.title}, with the {word} value: {a['label']} "
                         f"{shown[a['label']]} vs {b['label']} {shown[b['label']]}; "
                         f"{gap_text(entry, (a['label'], a[name]), (b['label'], b[name]))}.")
        out["derived"] = gap_facts(entry, a[name], b[name])
    return out


@tool("compare_qubits",
      {"chip_id": chip_id_arg(), "qids": qids_arg(32, min_items=2), "param_names": param_names_arg()},
      ("chip_id", "qids"))
def compare_qubits(ctx: ToolContext, chip_id: str, qids: list[str], param_names: list[str] | None = None) -> ToolResult:
    for q in qids:
        ctx.check_qid(chip_id, q)
    params = {q: ctx.repo.qubit_params(chip_id, q) or {} for q in qids}
    names = param_names or default_names(set().union(*(p.keys() for p in params.values())))
    rows = [{"qid": q, "label": ctx.label(chip_id, q), **values_row(params[q], names)} for q in qids]
    units = units_of(params, names)
    data = {"answer": _ranking(rows, names, units), "chip_id": chip_id, "parameters": names, "units": units,
            "qubits": rows}
    if len(names) == 1:
        data |= _one_metric(rows, names[0], units[names[0]])
    return ToolResult(data, f"compared {len(qids)} qubits on {chip_id} over {len(names)} parameters")


def _coupling_ids(ctx: ToolContext, chip_id: str, coupling_id: str | None, qubit_id: str | None,
                  coupling_ids: list[str] | None = None) -> list[str]:
    """The couplings asked: one, several side by side (each must exist on the chip), or every one of a qubit."""
    if coupling_ids:
        topo = ctx.topology(chip_id)
        for cid in coupling_ids:
            a, b = (int(p) for p in cid.split("-"))
            if max(a, b) >= ctx.size(chip_id) or topo.coupling_between(a, b) is None:
                raise ToolError(f"There is no coupling {ctx.label(chip_id, cid)} on {chip_id}: those two qubits are "
                                "not neighbours", "use get_chip_topology to list couplings", kind="data")
        return list(dict.fromkeys(coupling_ids))
    if coupling_id:
        return [coupling_id]
    if qubit_id is None:
        raise ToolError("give coupling_id or qubit_id",
                        "for a chip-wide view use generate_chip_heatmap with a coupling metric such as "
                        "zx90_gate_fidelity", kind="call")
    ctx.check_qid(chip_id, qubit_id)
    return [c.id for c in ctx.topology(chip_id).couplings_of(int(qubit_id))]


def _couplings_answer(owner: str, chip_id: str, rows: list[dict], names: list[str] | None) -> dict:
    """One metric of several couplings: them best first, as a sentence and the order the claim check holds; else
    each coupling's values (a coupling is answered about as a coupling, never as one of its qubits)."""
    if names and len(names) == 1 and len(rows) > 1:
        name = names[0]
        entry = metric(name, kind="coupling")
        valued = {str(r["label"]): r["parameters"][name]["value"] for r in rows
                  if isinstance(r["parameters"].get(name, {}).get("value"), (int, float))}
        order = sorted(valued, key=lambda k: -valued[k])  # highest first
        best = order if entry.higher_is_better else order[::-1]
        none = [str(r["label"]) for r in rows if str(r["label"]) not in valued]
        shown = {k: format_value(entry, valued[k]) for k in order}
        derived: dict = {}
        answer = f"{owner} on {chip_id} by {name}, best first: " + (
            ", ".join(f"{k} {shown[k]}" for k in best) if best else "no data") + (
            f" (no valid value: {', '.join(none)})" if none else "") + "."
        if len(best) == 2 and valued[best[0]] != valued[best[1]] and len(rows) == 2:  # two couplings side by side
            answer = (f"{best[0]} is better than {best[1]} for {entry.title} on {chip_id}: {best[0]} "
                      f"{shown[best[0]]} vs {best[1]} {shown[best[1]]}; "
                      f"{gap_text(entry, (best[0], valued[best[0]]), (best[1], valued[best[1]]))}.")
            derived = gap_facts(entry, valued[best[0]], valued[best[1]])
        elif best:
            answer += f" Best: {best[0]}; worst: {best[-1]}." if len(best) > 1 else ""
        return {"answer": answer, "ranking": ranking("coupling", name, [(k, [shown[k]]) for k in order],
                                                     entry.higher_is_better), **({"derived": derived} if derived else {})}
    parts = [_values_answer(f"Coupling {r['label']}", chip_id, r["parameters"]) for r in rows if r["stored_as"]]
    return {"answer": " ".join(parts)} if parts else {}


def _ends_answer(ctx: ToolContext, chip_id: str, row: dict, names: list[str]) -> tuple[list[dict], str, dict] | None:
    """A qubit metric asked of a coupling ("and which of its two qubits has the longer T2 echo"): both ends' latest
    values and which is the larger, so the coupling's answer holds the qubit part too; None when none is asked."""
    rows: list[dict] = []
    parts: list[str] = []
    ranked: dict = {}
    for name in dict.fromkeys(n for n in names if n in CATALOGUE and CATALOGUE[n].kind == "qubit"):
        entry, values = CATALOGUE[name], chip_metric(ctx.repo, chip_id, name, kind="qubit").values
        ends = [(q, values.get(q)) for q in (str(row["control"]), str(row["target"]))]
        rows += [{"qid": q, "metric": name, "value": v} for q, v in ends]
        shown = ", ".join(f"{ctx.label(chip_id, q)} {format_value(entry, v, missing='no valid value')}" for q, v in ends)
        valued = sorted(((v, q) for q, v in ends if v is not None), reverse=True)
        more, less = ("longer", "shorter") if entry.unit in ("μs", "ns") else ("higher", "lower")
        verdict = "" if len(valued) < 2 else f"; both have the same {entry.title}" if valued[0][0] == valued[1][0] \
            else (f"; {ctx.label(chip_id, valued[0][1])} has the {more} {entry.title} and "
                  f"{ctx.label(chip_id, valued[1][1])} the {less}")
        parts.append(f"Its qubits' {entry.title}: {shown}{verdict}.")
        if len(valued) == 2 and not ranked:  # the order check holds "the longer" to the two ends
            ranked = ranking("qubit", name, [(ctx.label(chip_id, q), [format_value(entry, v)]) for v, q in valued],
                             entry.higher_is_better)
    return (rows, " ".join(parts), ranked) if parts else None


def _limit_answer(row: dict, names: list[str], below: float | None, above: float | None) -> tuple[str, dict] | None:
    """The coupling's one metric held to the question's limit ("is its CR gate time under 300 ns"): which side of
    it the value is on, as a sentence and as ``held_to``, from which :mod:`~copilot_core.checking.verdicts` (the one
    module that decides a yes or no) leads the answer with its verdict; None without a limit or a value."""
    side, limit = ("below", below) if below is not None else ("above", above)
    if limit is None or len(names) != 1:
        return None
    entry, item = metric(names[0], kind="coupling"), row["parameters"].get(names[0]) or {}
    said = f"{limit:g}{unit_suffix(entry.unit)}"
    value = item.get("value")
    if not isinstance(value, (int, float)) or item.get("missing"):
        return f"Coupling {row['label']} has no valid {entry.title} to hold against {said}.", {}
    shown, other = format_value(entry, value), "above" if side == "below" else "below"
    met = value < limit if side == "below" else value > limit
    held = {"side": side, "threshold": limit, "met": met, "coupling_id": row["stored_as"] or row["coupling_id"],
            "metric": names[0]}
    if value == limit:
        return f"Coupling {row['label']}'s {entry.title}, {shown}, is at {said}, not {side} it.", held
    if met:
        return f"Coupling {row['label']}'s {entry.title}, {shown}, is {side} {said}.", held
    return f"Coupling {row['label']}'s {entry.title}, {shown}, is {other} {said}, not {side} it.", held


_COUPLING = {"type": "string", "pattern": r"^[0-9]{1,5}-[0-9]{1,5}$"}
_LIMIT = {"type": "number", FROM_QUESTION: True}


@tool("get_coupling_params",
      {"chip_id": chip_id_arg(),
       "coupling_id": _COUPLING | {"description": "Coupling 'control-target', e.g. '4-1'."},
       "coupling_ids": {"type": "array", "items": _COUPLING, "minItems": 2, "maxItems": 8, "uniqueItems": True,
                        "description": "Couplings side by side, e.g. ['0-1', '1-4']."},
       "qubit_id": qid_arg("All couplings of this qubit."),
       "param_names": param_names_arg(),
       "below": _LIMIT | {"description": "Say whether the one coupling's one metric is below this (display units)."},
       "above": _LIMIT | {"description": "Say whether it is above this (display units)."}}, ("chip_id",))
def get_coupling_params(ctx: ToolContext, chip_id: str, coupling_id: str | None = None,
                        qubit_id: str | None = None, param_names: list[str] | None = None,
                        coupling_ids: list[str] | None = None, below: float | None = None,
                        above: float | None = None) -> ToolResult:
    topo = ctx.topology(chip_id)
    rows = []
    for cid in _coupling_ids(ctx, chip_id, coupling_id, qubit_id, coupling_ids):
        a, b = cid.split("-")
        edge = topo.coupling_between(int(a), int(b))
        control, target = (str(edge.control), str(edge.target)) if edge else (a, b)
        stored_as, params = None, None
        for candidate in dict.fromkeys((f"{control}-{target}", cid, f"{target}-{control}")):
            found = ctx.repo.coupling_params(chip_id, candidate)  # both directions are stored; one holds data
            if found:
                stored_as, params = candidate, found
                break
        rows.append({"coupling_id": f"{control}-{target}", "control": control, "target": target,
                     "stored_as": stored_as, "parameters": parameter_view(params, "coupling", param_names)})
    if coupling_id and rows[0]["stored_as"] is None:
        raise ToolError(f"no data for coupling {ctx.label(chip_id, coupling_id)} on {chip_id}",
                        "use get_chip_topology to list couplings, or pass qubit_id", kind="data")
    data: dict = {"chip_id": chip_id, "couplings": rows}
    for row in rows:
        row["label"] = ctx.label(chip_id, str(row["coupling_id"]))
    owner = f"The couplings of {ctx.label(chip_id, qubit_id)}" if qubit_id and not coupling_id and not coupling_ids \
        else "The couplings compared" if coupling_ids else "Coupling"
    data |= _couplings_answer(owner, chip_id, rows, param_names)
    if coupling_id and (ends := _ends_answer(ctx, chip_id, rows[0], param_names or [])):
        data["qubits"], said, ranked = ends
        data["answer"] = f"{data.get('answer', '')} {said}".strip()
        data |= {"ranking": ranked} if ranked and "ranking" not in data else {}
    if coupling_id and (held := _limit_answer(rows[0], param_names or [], below, above)):
        data["answer"] = f"{data.get('answer', '')} {held[0]}".strip()
        data["held_to"] = held[1]
    with_data = sum(1 for r in rows if r["stored_as"])
    return ToolResult(data, f"{with_data} of {len(rows)} couplings with data on {chip_id}")


@tool("list_available_parameters",
      {"chip_id": chip_id_arg(), "qid": qid_arg()}, ("chip_id",))
def list_available_parameters(ctx: ToolContext, chip_id: str, qid: str | None = None) -> ToolResult:
    ctx.chip(chip_id)
    if qid is not None:
        ctx.check_qid(chip_id, qid)
    names = ctx.repo.output_parameter_names(chip_id, qid)
    data = {"chip_id": chip_id, "qid": qid, "parameters": names,
            "with_thresholds": [n for n in names if n in CATALOGUE and CATALOGUE[n].good is not None],
            "display_units": {n: CATALOGUE[n].unit for n in names if n in CATALOGUE}}
    return ToolResult(data, f"{len(names)} parameters on {chip_id}" + (f" {ctx.label(chip_id, qid)}" if qid else ""))

