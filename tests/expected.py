"""Expected values written independently of the code under test (no import from ``copilot_core``).

Display scales are QDash's stored units turned into what people read, typed here by hand; statistics come
straight from numpy, and the robust band's 1.4826 (the normal consistency constant of the MAD) is written
here too, so changing a scale or the constant in the product fails the tests that use these helpers.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np

# stored unit -> display unit: fidelities are stored as fractions (shown in %), anharmonicity and static ZZ
# in GHz (shown in MHz); times in μs / ns and frequencies in GHz are shown as stored
DISPLAY_SCALE = {
    "average_readout_fidelity": 100.0, "readout_fidelity_0": 100.0, "readout_fidelity_1": 100.0,
    "average_gate_fidelity": 100.0, "x90_gate_fidelity": 100.0, "x180_gate_fidelity": 100.0,
    "zx90_gate_fidelity": 100.0, "bell_state_fidelity": 100.0,
    "one_qubit_gate_coherence_limit": 100.0, "two_qubit_gate_coherence_limit": 100.0,
    "anharmonicity": 1000.0, "static_zz_interaction": 1000.0,
    "qubit_frequency": 1.0, "readout_frequency": 1.0, "t1": 1.0, "t1_average": 1.0, "t2_echo": 1.0,
    "t2_echo_average": 1.0, "t2_star": 1.0, "zx90_gate_time": 1.0,
    "maximum_rabi_frequency": 1.0, "hpi_amplitude": 1.0, "hpi_length": 1.0,
}
MAD_TO_SIGMA = 1.4826


def shown(name: str, raw: object) -> float | None:
    """The display value of a stored one; None for missing, non-numbers, NaN/inf and QDash's NaN-as-0."""
    if raw is None or isinstance(raw, bool) or not isinstance(raw, (int, float)):
        return None
    if not math.isfinite(raw) or raw == 0:
        return None
    return float(raw) * DISPLAY_SCALE.get(name, 1.0)


def usable(values: Iterable[float | None]) -> list[float]:
    return [float(v) for v in values if v is not None and math.isfinite(v)]


def stats(values: Iterable[float | None], total: int) -> dict:
    """count, total, coverage, median, mean, std (sample), min, max of the finite values, by numpy."""
    arr = np.asarray(usable(values), dtype=float)
    if arr.size == 0:
        return {"count": 0, "total": total, "coverage": 0.0, "median": None, "mean": None, "std": None,
                "min": None, "max": None}
    return {"count": int(arr.size), "total": total, "coverage": arr.size / total if total else 0.0,
            "median": float(np.median(arr)), "mean": float(np.mean(arr)),
            "std": float(np.std(arr, ddof=1)) if arr.size > 1 else 0.0, "min": float(arr.min()),
            "max": float(arr.max())}


def robust_band(values: Iterable[float | None], k: float = 3.0) -> tuple[float, float] | None:
    """median ± k·1.4826·MAD of the finite values; None with fewer than 3."""
    arr = np.asarray(usable(values), dtype=float)
    if arr.size < 3:
        return None
    med = float(np.median(arr))
    mad = float(np.median(np.abs(arr - med)))
    return med - k * MAD_TO_SIGMA * mad, med + k * MAD_TO_SIGMA * mad
