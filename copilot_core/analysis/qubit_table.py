"""The Qubits table: every qubit of a chip with its latest key parameters in display units,
a band per scored metric and when it was last calibrated (from ``qubit.data``)."""

from __future__ import annotations

from datetime import datetime

import pandas as pd

from copilot_core.domain.metrics import CATALOGUE, Metric, missing_since, missing_text
from copilot_core.domain.topology import parse_qubit_ref, qubit_label

KEY_METRICS: tuple[str, ...] = ("qubit_frequency", "anharmonicity", "t1", "t2_echo", "t2_star",
                                "average_readout_fidelity", "x90_gate_fidelity", "x180_gate_fidelity")


def value_column(m: Metric) -> str:
    """Column header of a metric's value, e.g. ``T1 [μs]``."""
    return f"{m.title} [{m.unit}]" if m.unit else m.title


def band_column(m: Metric) -> str:
    return f"{m.title} band"


def qubit_table(chip: dict, qubit_params: dict[str, dict], metrics: tuple[str, ...] = KEY_METRICS) -> pd.DataFrame:
    """One row per qubit (qid order, every qubit of the chip even without data)."""
    size = int(chip.get("size") or 0)
    entries = [CATALOGUE[n] for n in metrics if n in CATALOGUE]
    records = []
    for q in range(size):
        params = qubit_params.get(str(q)) or {}
        row: dict = {"qid": str(q), "qubit": qubit_label(q, size)}
        stamps: list[datetime] = []
        bands = []
        for m in entries:
            entry = params.get(m.name)
            value = m.to_display(entry.get("value")) if isinstance(entry, dict) else None
            row[value_column(m)] = value
            band = m.score(value)
            bands.append(band)
            if m.good is not None or m.bad is not None:
                row[band_column(m)] = band
            if isinstance(entry, dict) and isinstance(entry.get("calibrated_at"), datetime):
                stamps.append(entry["calibrated_at"])
        failed = [f"{m.title} {missing_text(at)}" for m in entries
                  if (at := missing_since(params.get(m.name))) is not None]
        row["no valid value"] = "; ".join(failed) or None
        row["bad metrics"] = sum(b == "bad" for b in bands)
        row["last calibrated"] = max(stamps) if stamps else None
        records.append(row)
    frame = pd.DataFrame.from_records(records)
    empty = [m for m in entries if value_column(m) in frame and frame[value_column(m)].isna().all()]
    frame = frame.drop(columns=[c for m in empty for c in (value_column(m), band_column(m)) if c in frame])
    # values first (what people scan), then the bands that score them
    values = [value_column(m) for m in entries if value_column(m) in frame]
    band_columns = [band_column(m) for m in entries if band_column(m) in frame]
    frame = frame[["qid", "qubit", "bad metrics", *values, *band_columns, "no valid value", "last calibrated"]]
    if "last calibrated" in frame:
        frame["last calibrated"] = pd.to_datetime(frame["last calibrated"])
    return frame


def filter_table(frame: pd.DataFrame, *, text: str = "", only_bad: bool = False) -> pd.DataFrame:
    """Rows for the qubit ``text`` names ("Q5", "5") first, then every qubit whose label contains it
    ("Q05" also finds Q050-Q059); optionally only qubits with at least one bad metric."""
    out = frame
    text = text.strip()
    if text:
        try:
            exact = out["qid"] == parse_qubit_ref(text)
        except ValueError:
            exact = pd.Series(False, index=out.index)
        partial = out["qubit"].str.lower().str.contains(text.lower(), regex=False)
        out = pd.concat([out[exact], out[partial & ~exact]])
    if only_bad:
        out = out[out["bad metrics"] > 0]
    return out.reset_index(drop=True)


def sort_table(frame: pd.DataFrame, column: str | None, *, descending: bool = False) -> pd.DataFrame:
    """Rows ordered by ``column`` (qubit order for None or an unknown column); qubits without a value (dead, failed,
    never measured) come last in both directions, ties keep qubit order."""
    if not column or column not in frame:
        return frame.reset_index(drop=True)
    return frame.sort_values(column, ascending=not descending, na_position="last", kind="stable").reset_index(drop=True)
