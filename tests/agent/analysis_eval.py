"""The qubit-analysis eval: demo qubits chosen for one known condition each, the condition computed here from
the raw documents with pymongo (never by the report code), and the words an answer must use to name it.

The cases (the first 24, four per condition, then 12 ``FRESH`` ones on other qubits) are split into a
development half and a held-out half by a fixed hash of the case id (:func:`split`): prompts and facts are
tuned on ``dev`` only, the floor is asserted on ``held-out``.

Shared by the scripted tier (tests/agent/test_qubit_review.py) and the local-model tier
(tests/real_llm/test_qubit_review_local.py).
"""

from __future__ import annotations

import hashlib
import math
import re
import statistics
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from copilot_core.domain.metrics import SCORED_QUBIT_METRICS, metric

WINDOW_DAYS = 7
DROP = 0.2
BAD_ZX90 = 0.80  # written into one coupling of the lab copy (display 80%, far below the stated 85% "bad" line)


@dataclass(frozen=True)
class Case:
    chip_id: str
    qid: str
    condition: str  # bad | failed | drop | missing | coupling | healthy
    subject: str  # the metric title or task name the answer must name
    lab: bool = False  # on the lab copy (the edited coupling), not the shared demo

    @property
    def label(self) -> str:
        return f"Q{int(self.qid):02d}" if self.chip_id == "64Qv3" else f"Q{int(self.qid):03d}"

    @property
    def case_id(self) -> str:
        return f"{self.chip_id}-{self.label}-{self.condition}"

    def named(self, text: str) -> bool:
        """The text names this case's condition (the words a lab person would use)."""
        low = text.lower()
        has = self.subject.lower() in low
        words = {
            "bad": r"\bbad\b|below|too low|\blow\b|poor",
            "failed": r"fail",
            "drop": r"drop|fell|decreas|declin|degrad|below",
            "missing": r"no valid|no data|no [\w* ]{1,20} data|missing|lack|not measured|unavailable|no value",
            "coupling": r"\bbad\b|below|\blow\b|poor",
            "healthy": r"healthy|nothing stands out|no problem|nothing is wrong",
        }[self.condition]
        if self.condition == "healthy":
            return bool(re.search(words, low)) and not re.search(r"\bbad\b|fail", low)
        if self.condition == "coupling":
            has = "coupling" in low or "zx90" in low
        return has and bool(re.search(words, low))


def _display(name: str, raw: Any) -> float | None:
    if not isinstance(raw, (int, float)) or isinstance(raw, bool) or math.isnan(raw) or raw == 0:
        return None
    return float(raw) * metric(name).scale


def chip_end(db: Any, chip_id: str):
    doc = db["task_result_history"].find_one({"chip_id": chip_id}, sort=[("start_at", -1)])
    return doc["start_at"]


def bad_band(db: Any, chip_id: str, qid: str, name: str) -> bool:
    entry = metric(name)
    value = _display(name, ((db["qubit"].find_one({"chip_id": chip_id, "qid": qid}) or {}).get("data") or {})
                     .get(name, {}).get("value"))
    if value is None or entry.bad is None:
        return False
    return value < entry.bad if entry.higher_is_better else value > entry.bad


def failed_tasks(db: Any, chip_id: str, qid: str) -> list[str]:
    end = chip_end(db, chip_id)  # whole UTC days ending on the day of the chip's newest run
    since = datetime(end.year, end.month, end.day) + timedelta(days=1 - WINDOW_DAYS)
    return sorted({d["name"] for d in db["task_result_history"].find(
        {"chip_id": chip_id, "qid": qid, "status": "failed", "start_at": {"$gte": since}})})


def own_drop(db: Any, chip_id: str, qid: str, name: str) -> float | None:
    """Latest value against the median of the 7 days before it, from the completed task results."""
    points = []
    for d in db["task_result_history"].find({"chip_id": chip_id, "qid": qid, "status": "completed",
                                             f"output_parameters.{name}": {"$exists": True}}):
        if d.get("excluded"):
            continue
        value = _display(name, (d["output_parameters"][name] or {}).get("value"))
        if value is not None:
            points.append((d["start_at"], value))
    if len(points) < 3:
        return None
    points.sort()
    at, latest = points[-1]
    before = [v for t, v in points[:-1] if at - timedelta(days=7) <= t < at]
    if len(before) < 2:
        return None
    base = statistics.median(before)
    return (base - latest) / abs(base) if metric(name).higher_is_better else (latest - base) / abs(base)


def missing(db: Any, chip_id: str, qid: str, name: str) -> bool:
    data = (db["qubit"].find_one({"chip_id": chip_id, "qid": qid}) or {}).get("data") or {}
    return _display(name, (data.get(name) or {}).get("value")) is None


def failed_near(db: Any, chip_id: str, qid: str, days: int = WINDOW_DAYS + 2) -> list[str]:
    """Failed tasks on the qubit or on one of its couplings, with a margin past the window's edge."""
    since = chip_end(db, chip_id) - timedelta(days=days)
    return [d["name"] for d in db["task_result_history"].find({"chip_id": chip_id, "status": "failed",
                                                               "start_at": {"$gte": since}})
            if qid in str(d.get("qid")).split("-")]


def healthy(db: Any, chip_id: str, qid: str) -> bool:
    return (not any(bad_band(db, chip_id, qid, n) for n in SCORED_QUBIT_METRICS)
            and not failed_near(db, chip_id, qid)
            and not any((own_drop(db, chip_id, qid, n) or 0) > DROP for n in ("t1", "t2_echo", "t2_star"))
            and not any(missing(db, chip_id, qid, n) for n in ("t1", "t2_echo", "average_readout_fidelity")))


def bad_coupling(db: Any, chip_id: str, qid: str) -> list[str]:
    """Stored coupling ids of this qubit whose ZX90 fidelity is below the stated "bad" line."""
    out = []
    for d in db["coupling"].find({"chip_id": chip_id}):
        ends = str(d["qid"]).split("-")
        value = _display("zx90_gate_fidelity", ((d.get("data") or {}).get("zx90_gate_fidelity") or {}).get("value"))
        if qid in ends and value is not None and value < metric("zx90_gate_fidelity", kind="coupling").bad:
            out.append(d["qid"])
    return out


CASES = (
    Case("144Qv2", "57", "bad", "T1"),
    Case("64Qv3", "41", "bad", "T2 echo"),
    Case("64Qv3", "59", "bad", "T2 echo"),
    Case("144Qv2", "67", "bad", "T2 echo"),
    Case("64Qv3", "10", "failed", "CheckT1"),
    Case("144Qv2", "6", "failed", "CheckT1"),
    Case("64Qv3", "47", "failed", "CheckT2Echo"),
    Case("64Qv3", "9", "failed", "ReadoutClassification"),
    Case("64Qv3", "27", "drop", "T1"),
    Case("144Qv2", "22", "drop", "T1"),
    Case("64Qv3", "60", "drop", "T2 echo"),
    Case("144Qv2", "124", "drop", "T1"),
    Case("64Qv3", "3", "missing", "T1"),
    Case("144Qv2", "8", "missing", "T1"),
    Case("64Qv3", "7", "missing", "T1"),
    Case("144Qv2", "109", "missing", "T1"),
    Case("64Qv3", "6", "coupling", "ZX90", lab=True),
    Case("64Qv3", "31", "coupling", "ZX90", lab=True),
    Case("64Qv3", "45", "coupling", "ZX90", lab=True),
    Case("64Qv3", "54", "coupling", "ZX90", lab=True),
    Case("64Qv3", "6", "healthy", ""),
    Case("144Qv2", "29", "healthy", ""),
    Case("64Qv3", "2", "healthy", ""),
    Case("64Qv3", "5", "healthy", ""),
)
FRESH = (  # added after the held-out half above had been scored: new qubits, chosen from the raw documents
    Case("64Qv3", "49", "bad", "T2 echo"),
    Case("144Qv2", "69", "bad", "T2 echo"),
    Case("144Qv2", "77", "bad", "T2 echo"),
    Case("64Qv3", "17", "failed", "CheckT1"),
    Case("64Qv3", "52", "failed", "CheckT1"),
    Case("64Qv3", "21", "drop", "T1"),
    Case("64Qv3", "12", "drop", "T1"),
    Case("144Qv2", "33", "missing", "T1"),
    Case("64Qv3", "0", "coupling", "ZX90", lab=True),
    Case("64Qv3", "11", "coupling", "ZX90", lab=True),
    Case("64Qv3", "53", "healthy", ""),
    Case("64Qv3", "37", "healthy", ""),
)
CASES = CASES + FRESH
LAB_QUBITS = tuple(c.qid for c in CASES if c.lab)


def floor(cases: int) -> int:
    """The least number of cases that must be named: 5/6 of them rounded up (10 of 12, 10 of 11)."""
    return -(-5 * cases // 6)


def split(case: Case) -> str:
    """``dev`` or ``held-out``, fixed by the SHA-256 of the case id (never by how a model did on it)."""
    return "dev" if int(hashlib.sha256(case.case_id.encode()).hexdigest(), 16) % 2 == 0 else "held-out"


def part(name: str) -> tuple[Case, ...]:
    return tuple(c for c in CASES if split(c) == name)


METRIC_OF = {"T1": "t1", "T2 echo": "t2_echo"}


def holds(db: Any, case: Case) -> bool:
    """The case's condition, computed from the raw documents."""
    if case.condition == "bad":
        return bad_band(db, case.chip_id, case.qid, METRIC_OF[case.subject])
    if case.condition == "failed":
        return case.subject in failed_tasks(db, case.chip_id, case.qid)
    if case.condition == "drop":
        return (own_drop(db, case.chip_id, case.qid, METRIC_OF[case.subject]) or 0) > DROP
    if case.condition == "missing":
        return missing(db, case.chip_id, case.qid, METRIC_OF[case.subject])
    if case.condition == "coupling":
        return bool(bad_coupling(db, case.chip_id, case.qid))
    return healthy(db, case.chip_id, case.qid)


def make_lab_copy(db: Any, chip_id: str = "64Qv3", qids: tuple[str, ...] = LAB_QUBITS) -> list[str]:
    """Give the first stored coupling of each of ``qids`` (both stored directions) a bad ZX90 fidelity; returns
    the edited edges."""
    edited = []
    for qid in qids:
        doc = next(d for d in db["coupling"].find({"chip_id": chip_id}).sort([("qid", 1)])
                   if qid in str(d["qid"]).split("-"))
        a, b = doc["qid"].split("-")
        for cid in (f"{a}-{b}", f"{b}-{a}"):
            db["coupling"].update_one({"chip_id": chip_id, "qid": cid},
                                      {"$set": {"data.zx90_gate_fidelity.value": BAD_ZX90}})
        edited.append(doc["qid"])
    return edited


def lab_database(name: str, now: Any) -> Any:
    """A private 64Qv3 demo where one coupling of each coupling case's qubit has a bad ZX90 fidelity (the shared
    demo has none)."""
    from copilot_core.data.connection import open_memory_database
    from copilot_core.demo.seed import chip_specs, seed_database

    db = open_memory_database(name)
    seed_database(db, chip_specs((64,)), seed=7, now=now)
    make_lab_copy(db)
    return db
