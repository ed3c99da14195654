"""Summary statistics used by pages, tools and prompts alike (one definition of "median")."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Literal, TypedDict

import numpy as np


class Stats(TypedDict):
    count: int
    total: int
    coverage: float  # fraction of ``total`` with a finite value
    median: float | None
    mean: float | None
    std: float | None
    min: float | None
    max: float | None


def finite(values: Iterable[float | None]) -> np.ndarray:
    """Finite floats only; None, NaN and inf are missing data."""
    out = [float(v) for v in values if v is not None and not isinstance(v, bool) and math.isfinite(float(v))]
    return np.asarray(out, dtype=float)


def describe(values: Iterable[float | None], total: int | None = None) -> Stats:
    """Count, coverage and moments; None (shown as "—") where nothing is known."""
    values = list(values)
    arr = finite(values)
    total = len(values) if total is None else total
    if arr.size == 0:
        return Stats(count=0, total=total, coverage=0.0, median=None, mean=None, std=None, min=None, max=None)
    return Stats(
        count=int(arr.size),
        total=total,
        coverage=float(arr.size / total) if total else 0.0,
        median=float(np.median(arr)),
        mean=float(arr.mean()),
        std=float(arr.std(ddof=1)) if arr.size > 1 else 0.0,
        min=float(arr.min()),
        max=float(arr.max()),
    )


def mad_bounds(values: Iterable[float | None], k: float = 3.0) -> tuple[float, float] | None:
    """Robust band ``median ± k·1.4826·MAD``; None with fewer than 3 values."""
    arr = finite(values)
    if arr.size < 3:
        return None
    med = float(np.median(arr))
    mad = float(np.median(np.abs(arr - med))) * 1.4826
    return med - k * mad, med + k * mad


ChipStatistic = Literal["median", "mean", "min", "max", "std", "pstd", "iqr", "range", "cv", "mad"]
SPREADS: tuple[ChipStatistic, ...] = ("std", "pstd", "iqr", "range", "cv", "mad")


def statistic_of(values: Iterable[float | None], statistic: ChipStatistic) -> float | None:
    """One statistic of the finite values, the spread tool's definitions (std: the sample's, n − 1; pstd: the
    population's, n; IQR of linear quartiles; CV = std / |mean| in %; MAD = median |value − median|, unscaled);
    None when there are too few values (a spread needs two)."""
    arr = finite(values)
    if arr.size == 0 or statistic in SPREADS and arr.size < 2:
        return None
    if statistic == "median":
        return float(np.median(arr))
    if statistic in ("mean", "min", "max"):
        return float(arr.mean() if statistic == "mean" else arr.min() if statistic == "min" else arr.max())
    if statistic == "pstd":
        return float(arr.std(ddof=0))
    if statistic == "mad":
        return float(np.median(np.abs(arr - np.median(arr))))
    std = float(arr.std(ddof=1))
    if statistic == "std":
        return std
    if statistic == "range":
        return float(arr.max() - arr.min())
    if statistic == "iqr":
        q1, q3 = np.percentile(arr, [25, 75])
        return float(q3 - q1)
    mean = float(arr.mean())
    return 100.0 * std / abs(mean) if mean else None
