"""Chip-wide views: the summary of every qubit's current parameters (stored) and the topology.

QDash's get_chip_summary returned raw fractions and GHz next to thresholds in % and MHz; here
every value is in display units and the statistics come from ``analysis.stats.describe``, the
same definition of "median" the dashboard uses.
"""

from __future__ import annotations


import pandas as pd

from copilot_core.analysis.stats import describe
from copilot_core.domain.metrics import BANDS, format_value, metric, missing_since, missing_text
from copilot_core.tools.compact import compact_number
from copilot_core.tools.qubits import default_names, units_of, values_row
from copilot_core.tools.spec import ToolContext, ToolError, ToolResult, chip_id_arg, param_names_arg, qid_arg, tool

SUMMARY_KEY = "chip_summary"


def _statistics(frame: pd.DataFrame, names: list[str], units: dict[str, str], size: int) -> dict[str, dict]:
    """Per metric: the unit, the unrounded statistics (the sentence prints them by the display rule) and bands."""
    out: dict[str, dict] = {}
    for name in names:
        values = frame[name].tolist()
        stats: dict[str, object] = {"unit": units[name], **{k: v for k, v in
                                                         describe(values, total=size).items() if k != "total"}}
        entry = metric(name, units[name])
        scored = [entry.score(v) for v in values if v is not None and v == v]
        if any(scored):
            stats["bands"] = {band: scored.count(band) for band in BANDS}
        out[name] = stats
    return out


def _answer(chip_id: str, size: int, with_data: int, stats: dict[str, dict]) -> str:
    """The statistics as one quotable sentence (display units, the dashboard's rounding)."""
    parts = []
    for name, st in stats.items():
        if st.get("median") is None:
            parts.append(f"{name}: no data")
            continue
        entry = metric(name, st["unit"])
        parts.append(f"{name} median {format_value(entry, st['median'])} (mean {format_value(entry, st['mean'])}, "
                     f"{st['count']} qubits)")
    return f"{chip_id}, {with_data} of {size} qubits with data: " + "; ".join(parts) + "."


@tool("get_chip_summary",
      {"chip_id": chip_id_arg(), "param_names": param_names_arg()}, ("chip_id",),
      stored_key=lambda args: SUMMARY_KEY, reduced=True)
def get_chip_summary(ctx: ToolContext, chip_id: str, param_names: list[str] | None = None) -> ToolResult:
    size = ctx.size(chip_id)
    params = ctx.repo.all_qubit_params(chip_id)
    available = set().union(*(p.keys() for p in params.values())) if params else set()
    names = param_names or default_names(available, scored_only=True)
    if not names:
        raise ToolError(f"no qubit parameters on {chip_id}", "list names with list_available_parameters", kind="data")
    # polluted ids ("000", "0-1") once appeared in QDash's qubit collection: only canonical qids count
    qids = sorted({q for q in params if q.isdigit() and str(int(q)) == q} | {str(q) for q in range(size)}, key=int)
    records = [{"qid": q, "label": ctx.label(chip_id, q), **values_row(params.get(q), names)} for q in qids]
    frame = pd.DataFrame.from_records(records, columns=["qid", "label", *names])
    for name in names:
        frame[name] = pd.to_numeric(frame[name], errors="coerce")
    units = units_of(params, names)
    with_data = int(frame[names].notna().any(axis=1).sum())
    failed = {name: {ctx.label(chip_id, q): missing_text(at) for q in qids
                     if (at := missing_since((params.get(q) or {}).get(name))) is not None} for name in names}
    statistics = _statistics(frame, names, units, size)
    compacted = {name: {k: compact_number(v) for k, v in st.items()} for name, st in statistics.items()}
    data = {"answer": _answer(chip_id, size, with_data, statistics), "chip_id": chip_id, "num_qubits": size,
            "qubits_with_data": with_data, "statistics": compacted,
            "no_valid_latest": {n: f for n, f in failed.items() if f} or None,
            "other_parameters": sorted(available - set(names)) if not param_names else [],
            "qubits": frame.to_dict("records")}
    return ToolResult(data, f"summary of {chip_id}: {with_data}/{size} qubits with data, {len(names)} parameters",
                      frame=frame)


@tool("get_chip_topology",
      {"chip_id": chip_id_arg(), "qid": qid_arg()}, ("chip_id",))
def get_chip_topology(ctx: ToolContext, chip_id: str, qid: str | None = None) -> ToolResult:
    topo = ctx.topology(chip_id)
    base = {"chip_id": chip_id, "topology_id": topo.id, "grid_size": topo.grid_size, "num_qubits": topo.num_qubits,
            "direction_convention": "checkerboard_cr: couplings are [control, target]; the control sits on an "
                                    "even row+col cell"}
    if qid is not None:
        q = int(ctx.check_qid(chip_id, qid))
        data = {**base, "qid": qid, "label": ctx.label(chip_id, qid), "position": list(topo.positions[q]),
                "mux": topo.mux_of(q), "neighbours": [str(n) for n in topo.neighbours(q)],
                "couplings": [[c.control, c.target] for c in topo.couplings_of(q)]}
        neighbours = [str(n) for n in topo.neighbours(q)]
        return ToolResult({**data, "neighbours": neighbours},
                          f"{ctx.label(chip_id, qid)} on {chip_id}: {len(neighbours)} neighbours")
    data = {**base, "qubit_positions": {str(q): list(rc) for q, rc in topo.positions.items()},
            "couplings": [[c.control, c.target] for c in topo.couplings]}
    return ToolResult(data, f"topology of {chip_id}: {topo.num_qubits} qubits, {len(topo.couplings)} couplings")
