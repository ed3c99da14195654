"""Chip health per metric: median and how many qubits (or couplings) fall in each threshold band.

Computed from the latest merged parameters (``qubit.data``/``coupling.data``) so the Overview,
the Qubits table and the health report agree on what "the current value" is.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from copilot_core.analysis.chip_metrics import ChipMetric, metric_from_params
from copilot_core.data.rows import ChipRow, Params
from copilot_core.domain.metrics import BANDS, SCORED_COUPLING_METRICS, SCORED_QUBIT_METRICS, Band, format_value


@dataclass(frozen=True)
class MetricHealth:
    """One row of the chip health table."""

    chip_metric: ChipMetric
    counts: dict[Band, int]  # qubits (or couplings) per band; missing ones are not counted

    @property
    def missing(self) -> int:
        return self.chip_metric.stats["total"] - self.chip_metric.stats["count"]


def band_counts(cm: ChipMetric) -> dict[Band, int]:
    counts: dict[Band, int] = {b: 0 for b in BANDS}
    for band in cm.bands.values():
        if band is not None:
            counts[band] += 1
    return counts


def chip_health(chip: ChipRow | dict, qubit_params: dict[str, Params], coupling_params: dict[str, Params] | None = None,
                *, qubit_metrics: tuple[str, ...] = SCORED_QUBIT_METRICS,
                coupling_metrics: tuple[str, ...] = SCORED_COUPLING_METRICS) -> list[MetricHealth]:
    """Health of every scored metric that has at least one value on the chip, qubit metrics first."""
    out: list[MetricHealth] = []
    sources = [(qubit_params, qubit_metrics, "qubit")]
    if coupling_params is not None:
        sources.append((coupling_params, coupling_metrics, "coupling"))
    for params, names, kind in sources:
        for name in names:
            cm = metric_from_params(chip, params, name, kind=kind)  # type: ignore[arg-type]
            if cm.stats["count"]:
                out.append(MetricHealth(cm, band_counts(cm)))
    return out


def health_frame(rows: list[MetricHealth]) -> pd.DataFrame:
    """Display table: metric, unit, coverage, median (display units) and the band counts."""
    records: list[dict] = []
    for row in rows:
        cm = row.chip_metric
        records.append({
            "metric": cm.metric.title,
            "kind": cm.kind,
            "unit": cm.metric.unit,
            "coverage": f"{cm.stats['count']}/{cm.stats['total']}",
            "median": cm.stats["median"],
            "median_text": format_value(cm.metric, cm.stats["median"]),
            **{band: row.counts[band] for band in BANDS},
            "missing": row.missing,
            "NaN latest": len(cm.missing_since),  # of the missing: latest result failed (NaN / NaN-as-0)
        })
    return pd.DataFrame.from_records(
        records, columns=["metric", "kind", "unit", "coverage", "median", "median_text", *BANDS, "missing",
                          "NaN latest"])
