"""Plotly JSON fit figures for the demo's newest task results, drawn from the values the demo stored.

Each figure is the measurement a lab would fit to get the stored number: a T1 / T2 echo decay, Ramsey
fringes, interleaved randomized benchmarking, resonator and qubit spectroscopy, readout histograms.  The
fit curve uses the stored value, the points add seeded noise around it, so a page shows the same T1 in its
table and in its figure.  Written as plain figure JSON (what ``plotly.io.write_json`` keeps) under the
figure root at the stored path's place, so the pages read them like QDash's own files.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Iterable
from statistics import NormalDist

import numpy as np

from copilot_core.figures.paths import FigureRefused, FigureRoot

POINTS = 41
Draw = Callable[[dict, np.random.Generator], list[dict]]


def _value(outputs: dict, name: str) -> float | None:
    model = outputs.get(name)
    value = model.get("value") if isinstance(model, dict) else None
    return float(value) if isinstance(value, (int, float)) and value and math.isfinite(value) else None


def _round(values: np.ndarray, digits: int = 5) -> list[float]:
    return [float(v) for v in np.round(values, digits)]


def _points(x: np.ndarray, y: np.ndarray, name: str = "data") -> dict:
    return {"type": "scatter", "mode": "markers", "name": name, "x": _round(x), "y": _round(y),
            "marker": {"size": 6, "color": "#1f77b4"}}


def _line(x: np.ndarray, y: np.ndarray, name: str, color: str = "#d62728", dash: str = "solid") -> dict:
    return {"type": "scatter", "mode": "lines", "name": name, "x": _round(x), "y": _round(y),
            "line": {"color": color, "dash": dash, "width": 2}}


def _decay(outputs: dict, rng: np.random.Generator, param: str, label: str) -> list[dict]:
    tau = _value(outputs, param)
    scale = tau or 40.0
    t = np.linspace(0, 5 * scale, POINTS)
    true = 0.95 * np.exp(-t / scale) + 0.02
    traces = [_points(t, true + rng.normal(0, 0.015, POINTS))]
    if tau is not None:
        traces.append(_line(t, true, f"fit: {label} = {tau:.4g} μs"))
    return traces


def _t1(outputs: dict, rng: np.random.Generator) -> list[dict]:
    return _decay(outputs, rng, "t1", "T1")


def _t2_echo(outputs: dict, rng: np.random.Generator) -> list[dict]:
    return _decay(outputs, rng, "t2_echo", "T2 echo")


def _ramsey(outputs: dict, rng: np.random.Generator) -> list[dict]:
    t2s = _value(outputs, "t2_star") or 20.0
    detune = _value(outputs, "ramsey_frequency") or 0.25  # MHz = cycles per μs
    t = np.linspace(0, 3 * t2s, 2 * POINTS)
    true = 0.5 + 0.45 * np.exp(-t / t2s) * np.cos(2 * np.pi * detune * t)
    traces = [_points(t, true + rng.normal(0, 0.02, t.size))]
    if _value(outputs, "t2_star") is not None:
        traces.append(_line(t, true, f"fit: T2* = {t2s:.4g} μs, detuning {detune:.3g} MHz"))
    return traces


def _rb(outputs: dict, rng: np.random.Generator) -> list[dict]:
    fidelity = _value(outputs, "x90_gate_fidelity")
    p_ref = 0.9985
    p_gate = 1 - 2 * (1 - (fidelity or 0.99))  # single qubit: F = 1 - (1 - p_int / p_ref) / 2
    m = np.unique(np.round(np.geomspace(1, 400, 16)))
    ref = 0.5 * p_ref ** m + 0.5
    inter = 0.5 * (p_ref * p_gate) ** m + 0.5
    traces = [_points(m, ref + rng.normal(0, 0.006, m.size), "reference"),
              {**_points(m, inter + rng.normal(0, 0.006, m.size), "interleaved X90"),
               "marker": {"size": 6, "color": "#ff7f0e"}},
              _line(m, ref, "fit: reference", "#1f77b4", "dot")]
    if fidelity is not None:
        traces.append(_line(m, inter, f"fit: X90 fidelity = {fidelity:.5f}", "#d62728"))
    return traces


def _resonator(outputs: dict, rng: np.random.Generator) -> list[dict]:
    f0 = _value(outputs, "readout_frequency") or 7.0
    f = np.linspace(f0 - 0.004, f0 + 0.004, 2 * POINTS)
    width = 0.0004
    true = 1 - 0.7 / (1 + ((f - f0) / width) ** 2)
    traces = [_points(f, true + rng.normal(0, 0.015, f.size))]
    if _value(outputs, "readout_frequency") is not None:
        traces.append(_line(f, true, f"fit: resonator at {f0:.6g} GHz"))
    return traces


def _qubit_spec(outputs: dict, rng: np.random.Generator) -> list[dict]:
    f01 = _value(outputs, "coarse_qubit_frequency") or 5.0
    anh = _value(outputs, "anharmonicity") or -0.28
    f02_half = f01 + anh / 2
    f = np.linspace(f01 + anh / 2 - 0.05, f01 + 0.05, 3 * POINTS)
    true = 0.8 / (1 + ((f - f01) / 0.004) ** 2) + 0.35 / (1 + ((f - f02_half) / 0.002) ** 2)
    traces = [_points(f, true + rng.normal(0, 0.02, f.size))]
    if _value(outputs, "coarse_qubit_frequency") is not None:
        traces.append(_line(f, true, f"fit: f01 = {f01:.6g} GHz, f02/2 = {f02_half:.6g} GHz"))
    return traces


def _readout(outputs: dict, rng: np.random.Generator) -> list[dict]:
    fidelity = _value(outputs, "average_readout_fidelity") or 0.9
    gap = -2 * NormalDist().inv_cdf(max(1 - min(fidelity, 0.9999), 1e-4))  # error = Φ(-gap/2) per state
    x = np.linspace(-gap / 2 - 3.5, gap / 2 + 3.5, 3 * POINTS)
    zero = np.exp(-0.5 * (x + gap / 2) ** 2)
    one = np.exp(-0.5 * (x - gap / 2) ** 2)
    return [_line(x, zero + rng.normal(0, 0.01, x.size), "|0⟩", "#1f77b4"),
            _line(x, one + rng.normal(0, 0.01, x.size), "|1⟩", "#ff7f0e"),
            _line(np.array([0.0, 0.0]), np.array([0.0, 1.05]), f"threshold (fidelity {fidelity:.4f})",
                  "#555555", "dash")]


# task name -> (drawing, x axis, y axis)
FIGURES: dict[str, tuple[Draw, str, str]] = {
    "CheckT1": (_t1, "delay (μs)", "P(|1⟩)"),
    "CheckT2Echo": (_t2_echo, "delay (μs)", "P(|1⟩)"),
    "CheckRamsey": (_ramsey, "delay (μs)", "P(|1⟩)"),
    "X90InterleavedRandomizedBenchmarking": (_rb, "Clifford sequence length", "survival probability"),
    "CheckResonatorSpectroscopy": (_resonator, "readout frequency (GHz)", "amplitude (a.u.)"),
    "CheckQubitSpectroscopy": (_qubit_spec, "drive frequency (GHz)", "amplitude (a.u.)"),
    "ReadoutClassification": (_readout, "projected IQ signal (a.u.)", "counts (normalised)"),
}


def fit_figure(row: dict) -> dict | None:
    """The figure JSON of a demo task result (None for a task without a demo figure)."""
    found = FIGURES.get(str(row.get("name")))
    if found is None:
        return None
    draw, x_title, y_title = found
    seed = int.from_bytes(hashlib.sha256(str(row.get("task_id")).encode()).digest()[:8], "big")
    traces = draw(row.get("output_parameters") or {}, np.random.default_rng(seed))
    title = f"{row.get('name')} · qubit {row.get('qid')} · {row.get('execution_id')}"
    return {"data": traces,
            "layout": {"title": {"text": title}, "xaxis": {"title": {"text": x_title}},
                       "yaxis": {"title": {"text": y_title}}, "height": 340,
                       "margin": {"l": 60, "r": 20, "t": 50, "b": 50},
                       "legend": {"orientation": "h", "y": -0.25}}}


def newest_rows(rows: Iterable[dict], executions: int = 2) -> list[dict]:
    """Completed qubit task rows of each chip's ``executions`` newest executions (the ones pages open)."""
    rows = [r for r in rows if r.get("task_type") == "qubit" and r.get("status") == "completed"
            and r.get("json_figure_path")]
    by_chip: dict[str, set[str]] = {}
    for r in rows:
        by_chip.setdefault(str(r.get("chip_id")), set()).add(str(r.get("execution_id")))
    keep = {(chip, e) for chip, ids in by_chip.items() for e in sorted(ids)[-executions:]}
    newest: dict[tuple[str, str, str], dict] = {}  # also the newest of a task that runs every few days
    for r in rows:
        key = (str(r.get("chip_id")), str(r.get("qid")), str(r.get("name")))
        if key not in newest or r["start_at"] > newest[key]["start_at"]:
            newest[key] = r
    picked = {id(r): r for r in rows if (str(r.get("chip_id")), str(r.get("execution_id"))) in keep}
    picked.update({id(r): r for r in newest.values()})
    return list(picked.values())


def write_demo_figures(rows: Iterable[dict], root: FigureRoot, executions: int = 2) -> int:
    """Write the figures of the newest ``executions`` per chip (and each task's newest result) under ``root``;
    returns how many files were written."""
    written = 0
    for row in newest_rows(rows, executions):
        figure = fit_figure(row)
        if figure is None:
            continue
        try:
            rel = root.relative(row["json_figure_path"][0])
        except FigureRefused:
            continue
        target = root.root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(figure, separators=(",", ":"), ensure_ascii=False), encoding="utf-8")
        written += 1
    return written
