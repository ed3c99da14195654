"""Recount helpers for the sealed sets' truth tests: state documents, whole-chip rows, Python dates, in display units."""

from __future__ import annotations

import math
import re
from datetime import date, datetime


def shown(name: str, raw: float) -> float:
    return raw * (100.0 if "fidelity" in name else 1000.0 if name == "anharmonicity" else 1.0)


def state(db, chip: str, kind: str = "qubit") -> dict[str, dict[str, float]]:
    """Each state document's merged data, display units, a stored 0 dropped, couplings keyed ``low-high``."""
    out = {}
    for d in db[kind].find({"chip_id": chip}):
        if not d.get("data"):
            continue
        key = "-".join(sorted(d["qid"].split("-"), key=int))
        out[key] = {k: shown(k, p["value"]) for k, p in d["data"].items() if p.get("value")}
    return out


def column(db, chip: str, name: str, kind: str = "qubit") -> dict[str, float]:
    return {q: data[name] for q, data in state(db, chip, kind).items() if name in data}


def rows(db, chip: str) -> list[dict]:
    return list(db["task_result_history"].find({"chip_id": chip}))


def last_day(db, chip: str) -> date:
    return max(e["start_at"].date() for e in db["execution_history"].find({"chip_id": chip}))


def within(row, first: date, last: date) -> bool:
    return first <= row["start_at"].date() <= last


def is_value(value: float, expect) -> bool:
    return any(math.isclose(value, v, rel_tol=1e-9, abs_tol=1e-9) for v in (expect.value, *expect.alternatives))


def named(pattern: str, label: str) -> bool:
    return re.search(pattern, label) is not None


def midnight_of(day: date) -> datetime:
    return datetime(day.year, day.month, day.day)
