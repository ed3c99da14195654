"""Plausible transmon calibration values (raw QDash units) for a demo chip, day by day.

Numbers follow what labs see: frequencies structured by MUX in a checkerboard (to avoid CR
collisions), lognormal T1 with slow drift and TLS dips, T2 echo <= 2*T1, T2* < T2 echo,
fidelities as fractions.  A few qubits get a clear drop in the last day or two so drift flags
and the copilot have something real to find.  Everything comes from one seeded ``Generator``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from copilot_core.domain.topology import Topology


@dataclass
class ChipPhysics:
    """Per-day values: ``qubit[param]`` has shape (days, size); ``coupling[param]`` (days, n_couplings)."""

    qubit: dict[str, np.ndarray]
    coupling: dict[str, np.ndarray]
    dead: set[int]
    drops: dict[str, list[int]] = field(default_factory=dict)  # metric -> qubits that dropped recently


def _clip(a: np.ndarray, lo: float, hi: float) -> np.ndarray:
    return np.clip(a, lo, hi)


def simulate(rng: np.random.Generator, topology: Topology, days: int) -> ChipPhysics:
    """Draw every value of a chip for ``days`` daily executions (last row = newest)."""
    n = topology.num_qubits
    q = np.arange(n)
    rows = np.array([topology.positions[i][0] for i in range(n)])
    cols = np.array([topology.positions[i][1] for i in range(n)])
    t = np.arange(days)[:, None]

    # Frequencies: MUX-level offset + checkerboard high/low + small per-qubit spread.
    mux = q // 4
    mux_offset = rng.normal(0.0, 0.08, size=mux.max() + 1)[mux]
    checker = np.where((rows + cols) % 2 == 0, 0.18, -0.18)
    f0 = _clip(5.0 + checker + mux_offset + rng.normal(0, 0.03, n), 4.55, 5.45)
    anh0 = _clip(rng.normal(-0.28, 0.025, n), -0.345, -0.205)
    ro0 = _clip(6.9 + 0.06 * (q % 4) + rng.normal(0, 0.05, size=mux.max() + 1)[mux], 6.7, 7.4)

    qubit_frequency = f0 + rng.normal(0, 2e-4, (days, n)).cumsum(axis=0) * 0.5
    coarse = qubit_frequency + rng.normal(0, 1.5e-3, (days, n))
    anharmonicity = anh0 + rng.normal(0, 1.5e-3, (days, n))
    readout_frequency = ro0 + rng.normal(0, 3e-4, (days, n))
    ramsey = np.abs(rng.normal(0.25, 0.1, (days, n))) + 0.02

    # Coherence: lognormal T1 baseline, slow sinusoidal drift, day noise and TLS dips.
    t1_base = _clip(np.exp(rng.normal(np.log(65.0), 0.4, n)), 22.0, 145.0)
    period = rng.uniform(8, 25, n)
    phase = rng.uniform(0, 2 * np.pi, n)
    drift = 1 + 0.12 * np.sin(2 * np.pi * t / period + phase)
    noise = np.exp(rng.normal(0, 0.08, (days, n)))
    tls = np.where(rng.random((days, n)) < 0.03, rng.uniform(0.35, 0.65, (days, n)), 1.0)
    t1 = _clip(t1_base * drift * noise * tls, 8.0, 160.0)
    t2_ratio = rng.uniform(0.8, 1.7, n)
    t2_echo = np.minimum(t1 * t2_ratio * np.exp(rng.normal(0, 0.07, (days, n))), 1.96 * t1)
    t2_star = t2_echo * _clip(rng.uniform(0.3, 0.7, n) * np.exp(rng.normal(0, 0.08, (days, n))), 0.15, 0.95)

    ro_fid0 = rng.uniform(0.88, 0.985, n)
    ro_fid = _clip(ro_fid0 + rng.normal(0, 0.004, (days, n)), 0.851, 0.989)
    ro_split = _clip(rng.uniform(0.005, 0.03, n) + rng.normal(0, 0.002, (days, n)), 0.001, 0.04)
    infid0 = np.exp(rng.uniform(np.log(6e-4), np.log(7e-3), n))
    x90_infid = _clip(infid0 * np.exp(rng.normal(0, 0.12, (days, n))) * (60.0 / np.maximum(t1, 30.0)) ** 0.3,
                      5.2e-4, 9.8e-3)

    # Recent drops (healthy qubits only): clearly below their own 7-day median in the last day or two.
    dead = set(rng.choice(n, size=max(2, n // 48), replace=False).tolist())
    healthy = [i for i in range(n) if i not in dead]
    picks = rng.choice(healthy, size=3, replace=False).tolist()
    best_gate = min((i for i in healthy if i not in picks), key=lambda i: infid0[i])
    drops = {"t1": picks[:2], "t2_echo": [picks[2]], "x90_gate_fidelity": [best_gate]}
    if days >= 4:
        base = slice(max(0, days - 9), days - 2)
        for i in drops["t1"]:
            t1[-2:, i] = np.median(t1[base, i]) * np.array([0.5, 0.42])
            t2_echo[-2:, i] = np.minimum(t2_echo[-2:, i], 1.5 * t1[-2:, i])
            t2_star[-2:, i] = np.minimum(t2_star[-2:, i], 0.6 * t2_echo[-2:, i])
        for i in drops["t2_echo"]:
            t2_echo[-1, i] = np.median(t2_echo[base, i]) * 0.45
            t2_star[-1, i] = min(t2_star[-1, i], 0.6 * t2_echo[-1, i])
        for i in drops["x90_gate_fidelity"]:
            x90_infid[-1, i] = min(max(np.median(x90_infid[base, i]) * 6, 6e-3), 9.8e-3)
    else:
        drops = {}

    qubit = {
        "qubit_frequency": qubit_frequency, "coarse_qubit_frequency": coarse, "anharmonicity": anharmonicity,
        "readout_frequency": readout_frequency, "ramsey_frequency": ramsey, "t1": t1, "t2_echo": t2_echo,
        "t2_star": t2_star, "average_readout_fidelity": ro_fid,
        "readout_fidelity_0": _clip(ro_fid + ro_split, 0.86, 0.998), "readout_fidelity_1": ro_fid - ro_split,
        "x90_gate_fidelity": 1 - x90_infid, "x90_depolarizing_rate": 2 * x90_infid,
    }

    m = len(topology.couplings)
    zx_infid0 = np.exp(rng.uniform(np.log(0.006), np.log(0.08), m))
    zx_infid = _clip(zx_infid0 * np.exp(rng.normal(0, 0.15, (days, m))), 0.004, 0.11)
    bell = _clip(1 - 1.6 * zx_infid - rng.uniform(0.005, 0.03, m) + rng.normal(0, 0.004, (days, m)), 0.82, 0.985)
    coupling = {
        "zx90_gate_fidelity": 1 - zx_infid,
        "zx90_depolarizing_rate": 4 / 3 * zx_infid,
        "bell_state_fidelity": bell,
        "zx90_gate_time": np.round(rng.uniform(160, 320, m))[None, :].repeat(days, axis=0),
        "cr_amplitude": _clip(rng.normal(0.45, 0.12, m), 0.1, 0.95)[None, :] + rng.normal(0, 0.005, (days, m)),
    }
    return ChipPhysics(qubit=qubit, coupling=coupling, dead=dead, drops=drops)
