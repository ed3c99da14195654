"""Dev questions that set two subjects side by side on one metric: two couplings named by their qubits (with any
joining words or marks, either direction), two qubits, and two qubits' means over a window of days.

Each question carries the router call it needs (tool and every argument), for ``tests/test_router_pairs9.py``.
Every truth is a pymongo read written here over the raw demo documents: a coupling's value is ``data.<metric>.value``
of the ``coupling`` document that holds it (the demo stores both directions, one with data); a qubit's is
``data.<metric>.value`` of its ``qubit`` document; a window mean is the mean of the usable values of completed,
non-excluded ``task_result_history`` results whose ``start_at`` is on the last N days ending on the chip's newest
run's day.  Fractions are shown in % (x100), times and frequencies as stored.  The winner is the better value by the
metric's direction, written here by hand (a gate time: the shorter).
"""

from __future__ import annotations

import statistics
from datetime import datetime, timedelta

from tests.dev_fails8 import last_day
from tests.eval_score import Expect, Truth
from tests.public_eval import CHIP, OTHER, Question

Call = tuple[str, dict]
LOWER_BETTER = frozenset({"zx90_gate_time"})  # by hand: every other metric here is better higher
SCALE = {"t1": 1.0, "t2_echo": 1.0, "zx90_gate_time": 1.0}
TOL = {"t1": 0.051, "t2_echo": 0.051, "zx90_gate_time": 0.051}


def shown(name: str, raw: float) -> float:
    return raw * SCALE.get(name, 100.0)


def tol(name: str) -> float:
    return TOL.get(name, 0.0051)


def _usable(raw: object) -> bool:
    return isinstance(raw, (int, float)) and raw == raw and raw != 0


def coupling_value(db, chip: str, a: int, b: int, name: str) -> float | None:
    """The value the coupling of ``a`` and ``b`` holds, whichever direction stores it."""
    for qid in (f"{a}-{b}", f"{b}-{a}"):
        doc = db["coupling"].find_one({"chip_id": chip, "qid": qid}) or {}
        raw = ((doc.get("data") or {}).get(name) or {}).get("value")
        if _usable(raw):
            return shown(name, raw)
    return None


def qubit_value(db, chip: str, q: int, name: str) -> float | None:
    doc = db["qubit"].find_one({"chip_id": chip, "qid": str(q)}) or {}
    raw = ((doc.get("data") or {}).get(name) or {}).get("value")
    return shown(name, raw) if _usable(raw) else None


def window_mean(db, chip: str, q: int, name: str, days: int) -> float | None:
    end = last_day(db, chip)
    first = end - timedelta(days=days - 1)
    values = [shown(name, d["output_parameters"][name]["value"]) for d in db["task_result_history"].find(
        {"chip_id": chip, "qid": str(q), "status": "completed", "excluded": {"$ne": True},
         f"output_parameters.{name}": {"$exists": True},
         "start_at": {"$gte": datetime(first.year, first.month, first.day)}})
        if _usable(d["output_parameters"][name]["value"])]
    return statistics.mean(values) if values else None


def neighbours(db, chip: str, q: int, name: str) -> list[int]:
    """The qubits whose coupling with ``q`` holds a value of ``name``, in number order."""
    out = set()
    for doc in db["coupling"].find({"chip_id": chip}):
        ends = [int(n) for n in doc["qid"].split("-")]
        if q in ends and _usable(((doc.get("data") or {}).get(name) or {}).get("value")):
            out.add(ends[1] if ends[0] == q else ends[0])
    return sorted(out)


def coupling_label(a: int, b: int) -> str:
    """A coupling's label pattern, either direction ("Q07-Q05", "Q5→Q7")."""
    return "|".join(rf"Q0*{x}\s*(?:→|->|-|–)\s*Q0*{y}(?!\d)" for x, y in ((a, b), (b, a)))


def qubit_label(q: int) -> str:
    return rf"Q0*{q}(?!\d)"


def _better(name: str, va: float, vb: float) -> bool:
    return va < vb if name in LOWER_BETTER else va > vb


# (metric, template): {x} is the shared qubit, {y} and {z} the other ends, as the question writes them.
COUPLING_WORDINGS: tuple[tuple[str, str], ...] = (
    ("bell_state_fidelity", "Which is better for Bell state fidelity: the {x}–{y} link versus the {x}–{z} link?"),
    ("zx90_gate_fidelity", "Compare the coupler between qubits {x} and {y} and the one between {x} and {z} on ZX90 "
                           "fidelity."),
    ("zx90_gate_fidelity", "Q{x}-Q{y} or Q{x}-Q{z}: which has the higher ZX90 gate fidelity?"),
    ("bell_state_fidelity", "Is the {x}—{y} coupling better than {x}—{z} for Bell state fidelity?"),
    ("zx90_gate_time", "Which coupling has the shorter ZX90 gate time, Q{x}–Q{y} or Q{x}–Q{z}?"),
    ("bell_state_fidelity", "Does coupling {x}/{y} or {x}/{z} have the better Bell state fidelity?"),
    ("bell_state_fidelity", "Which pair has the better Bell fidelity, ({x},{y}) or ({x},{z})?"),
    ("zx90_gate_fidelity", "Between Q{x}Q{y} and Q{x}Q{z}, which has better ZX90 fidelity?"),
    ("bell_state_fidelity", "{x} to {y} or {x} to {z}: which coupling is better on Bell state fidelity?"),
    ("zx90_gate_fidelity", "Is the coupling of qubits {x} and {y} better than that of qubits {x} and {z} for ZX90 "
                           "fidelity?"),
    ("zx90_gate_time", "Which link is quicker in ZX90 gate time, the one from Q{x} to Q{y} or the one from Q{x} to "
                       "Q{z}?"),
    ("bell_state_fidelity", "Bell state fidelity: qubit {x} & qubit {y} versus qubit {x} & qubit {z}"),
    ("zx90_gate_fidelity", "which coupling wins on zx90 fidelity, {y}-{x} or {z}-{x}?"),
    ("zx90_gate_time", "gate time of Q{y}-Q{x} vs Q{z}-Q{x}, which is better?"),
    ("bell_state_fidelity", "Of the couplers ({x}, {y}) and ({x}, {z}), whose Bell state fidelity is worse?"),
    ("zx90_gate_fidelity", "ZX90 fidelity — edge {x}–{y} against edge {x}–{z}?"),
    # written after the fix, to attack it
    ("bell_state_fidelity", "Which coupling is stronger on Bell fidelity: the one linking qubit {x} with qubit {y}, "
                            "or the one linking qubit {x} with qubit {z}?"),
    ("zx90_gate_fidelity", "cross-resonance fidelity of pair {x} & {y} vs pair {x} & {z}"),  # no CZ gate held
    ("bell_state_fidelity", "bell state fidelity {x}:{y} vs {x}:{z}"),
    ("zx90_gate_time", "Between (Q{x}, Q{y}) and (Q{x}, Q{z}), which coupler has the better ZX90 gate time?"),
    ("zx90_gate_fidelity", "Which is worse for ZX90 fidelity, qubits {x} and {y} or qubits {x} and {z}?"),
    ("zx90_gate_fidelity", "Q{x}Q{y} or Q{x}Q{z}: whose two-qubit gate fidelity is higher?"),
)


def _coupling_question(db, qid: str, chip: str, x: int, y: int, z: int, name: str, text: str) -> tuple[Question, Call]:
    va, vb = coupling_value(db, chip, x, y, name), coupling_value(db, chip, x, z, name)
    assert va is not None and vb is not None and va != vb, (chip, x, y, z, name)
    win, lose = ((x, y), (x, z)) if _better(name, va, vb) else ((x, z), (x, y))
    written = text.format(x=x, y=y, z=z)
    reversed_ = "{y}-{x}" in text or "{y}-Q{x}" in text or "Q{y}-Q{x}" in text
    ids = [f"{y}-{x}", f"{z}-{x}"] if reversed_ else [f"{x}-{y}", f"{x}-{z}"]
    truth = Truth((Expect(va, tol(name), near=(coupling_label(x, y),)), Expect(vb, tol(name), near=(coupling_label(x, z),))),
                  winner=coupling_label(*win), loser=coupling_label(*lose))
    args = {"chip_id": chip, "coupling_ids": ids, "param_names": [name]}
    return Question(qid, "qubit pair", written + (f" On {chip}." if chip != CHIP else ""), truth), \
        ("get_coupling_params", args)


def _starts(chip: str, i: int) -> list[int]:
    first = (7, 11, 18, 22)[i % 4] if chip == CHIP else (30, 45, 60, 75)[i % 4]
    return list(range(first, first + 20))


def _two_apart(db, chip: str, x: int, name: str) -> tuple[int, int, int] | None:
    """``x`` and two of its neighbours whose couplings with it hold different values of ``name``."""
    near = neighbours(db, chip, x, name)
    values = {n: coupling_value(db, chip, x, n, name) for n in near}
    return next(((x, a, b) for a in near for b in near if a < b and values[a] != values[b]), None)


def _couplings(db) -> list[tuple[Question, Call]]:
    out = []
    for i, (name, text) in enumerate(COUPLING_WORDINGS):
        chip = CHIP if i % 4 != 3 else OTHER
        x, y, z = next(_two_apart(db, chip, x, name) for x in _starts(chip, i) if _two_apart(db, chip, x, name))
        out.append(_coupling_question(db, f"p9-coupling-{i + 1}", chip, x, y, z, name, text))
    return out


QUBIT_WORDINGS: tuple[tuple[str, str], ...] = (
    ("average_readout_fidelity", "Which has better readout fidelity, Q{a} or Q{b}?"),
    ("x90_gate_fidelity", "Is Q{a} or Q{b} better on X90 fidelity?"),
    ("t1", "Which qubit has the longer T1: qubit {a} or qubit {b}?"),
    ("t2_echo", "Between Q{a} and Q{b}, whose T2 echo is worse?"),
    ("average_readout_fidelity", "Q{a} vs Q{b}: which reads out better?"),
    ("x90_gate_fidelity", "How does Q{a}'s X90 gate fidelity compare with Q{b}'s?"),
    ("t1", "Is Q{a}'s relaxation time shorter than Q{b}'s?"),
    ("t2_echo", "Compare qubits {a} and {b} on T2 echo."),
    # written after the fix, to attack it
    ("t1", "Q{a} and Q{b} — who has the better T1?"),
    ("average_readout_fidelity", "Of Q{a} and Q{b}, which one reads out worse?"),
)


def _qubits(db) -> list[tuple[Question, Call]]:
    out = []
    for i, (name, text) in enumerate(QUBIT_WORDINGS):
        a, b = next((a, 20 + 2 * i) for a in range(3 + i, 20) if None not in (
            qubit_value(db, CHIP, a, name), qubit_value(db, CHIP, 20 + 2 * i, name)) and
            qubit_value(db, CHIP, a, name) != qubit_value(db, CHIP, 20 + 2 * i, name))
        va, vb = qubit_value(db, CHIP, a, name), qubit_value(db, CHIP, b, name)
        assert va is not None and vb is not None
        win, lose = (a, b) if _better(name, va, vb) else (b, a)
        truth = Truth((Expect(va, tol(name), near=(qubit_label(a),)), Expect(vb, tol(name), near=(qubit_label(b),))),
                      winner=qubit_label(win), loser=qubit_label(lose))
        args = {"chip_id": CHIP, "qids": [str(a), str(b)], "param_names": [name]}
        out.append((Question(f"p9-qubit-{i + 1}", "qubit pair", text.format(a=a, b=b), truth),
                    ("compare_qubits", args)))
    return out


MEAN_WORDINGS: tuple[tuple[str, int, str], ...] = (
    ("t1", 7, "On average over the last week, which has the higher T1, Q{a} or Q{b}?"),
    ("t2_echo", 5, "Over the past 5 days, was Q{a}'s average T2 echo higher than Q{b}'s?"),
    ("x90_gate_fidelity", 7, "Mean X90 gate fidelity over the last 7 days for Q{a} vs Q{b}"),
    ("average_readout_fidelity", 10, "Which qubit had the better average readout fidelity over the last 10 days, "
                                     "Q{a} or Q{b}?"),
    ("t1", 3, "Averaged over the last 3 days, is qubit {a} or qubit {b} better for T1?"),
    ("t2_echo", 14, "Compare the mean T2 echo of Q{a} and Q{b} over the past two weeks."),
    # written after the fix, to attack it
    ("t1", 3, "What's the difference in T1 between Q{a} and Q{b} over the last 3 days on average?"),
    ("x90_gate_fidelity", 10, "Compare X90 gate fidelity of qubit {a} and qubit {b} for the last 10 days, averaged."),
    ("average_readout_fidelity", 7, "Typical readout fidelity over the past week: Q{a} or Q{b}, which is higher?"),
)


def _means(db) -> list[tuple[Question, Call]]:
    out = []
    for i, (name, days, text) in enumerate(MEAN_WORDINGS):
        a, va = next((a, v) for a in range(5 + i, 30) if (v := window_mean(db, CHIP, a, name, days)) is not None)
        b, vb = next((b, v) for b in range(30 + i, 64) if (v := window_mean(db, CHIP, b, name, days)) is not None
                     and v != va)
        assert va is not None
        win, lose = (a, b) if _better(name, va, vb) else (b, a)
        truth = Truth((Expect(va, tol(name), near=(qubit_label(a),)), Expect(vb, tol(name), near=(qubit_label(b),))),
                      winner=qubit_label(win), loser=qubit_label(lose))
        args = {"parameter_name": name, "chip_id": CHIP, "qids": [str(a), str(b)], "days": days}
        out.append((Question(f"p9-mean-{i + 1}", "qubit pair", text.format(a=a, b=b), truth),
                    ("get_chip_parameter_timeseries", args)))
    return out


def planned(db) -> list[tuple[Question, Call]]:
    """Every dev question with the call the router makes for it."""
    return _couplings(db) + _qubits(db) + _means(db)
