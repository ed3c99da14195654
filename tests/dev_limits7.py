"""Dev questions for four failure classes, in wordings of my own: a limit written as a verb of beating or falling
short ("beats 60 μs", "doesn't reach 90%", "no better than 99%", "50 μs or more"), a window of N recent days written
as "the nine most recent days" / "the last fortnight" / "the previous six days", a count of one kind of task result
(excluded, usable, completed), and a physical quantity the data does not hold ("depolarizing rate", "leakage").

Each question carries the call the router must make (for ``tests/agent/test_router_limits7.py``).  Every truth is a
pymongo read written here over the raw demo documents (the window: whole UTC days ending with the day of the chip's
newest run, as docs/shapes-window-percentage.md defines it), never a call of the code under test; the limits are
written out by hand.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, timedelta

from tests.eval_score import Expect, Truth
from tests.public_eval import CHIP, Question, latest_values

Call = tuple[str, dict]
Test = Callable[[float], bool]
PCT_TOL = 0.051
NOT_HELD = r"(?i)holds no {}"


def _count(db, tests: dict[str, Test], kind: str = "qubit") -> int:
    """Qubits (couplings) whose latest usable values pass every test (fidelities in %: ``latest_values``)."""
    vals = {name: {q: v for q, v in latest_values(db, CHIP, name, kind).items() if v is not None} for name in tests}
    ids = set.intersection(*(set(v) for v in vals.values()))
    return sum(1 for q in ids if all(test(vals[n][q]) for n, test in tests.items()))


def _limits(db) -> list[tuple[Question, Call]]:
    t1, t2, ro, x90, zx = "t1", "t2_echo", "average_readout_fidelity", "x90_gate_fidelity", "zx90_gate_fidelity"
    rows: list[tuple[str, str, dict[str, Test], str, dict]] = [
        ("How many qubits have a T1 that beats 60 μs?", t1, {t1: lambda v: v > 60}, "qubit", {"above": 60.0}),
        ("Count the qubits whose readout fidelity clears 95%.", ro, {ro: lambda v: v > 95}, "qubit",
         {"above": 95.0}),
        ("How many qubits' T2 echo tops 80 us?", t2, {t2: lambda v: v > 80}, "qubit", {"above": 80.0}),
        ("How many qubits fall short of 99.5% X90 gate fidelity?", x90, {x90: lambda v: v < 99.5}, "qubit",
         {"below": 99.5}),
        ("How many qubits have a readout fidelity that doesn't reach 90%?", ro, {ro: lambda v: v < 90}, "qubit",
         {"below": 90.0}),
        ("how many qubits have an X90 gate fidelity no better than 99%", x90, {x90: lambda v: v <= 99}, "qubit",
         {"below": 99.0, "including": ["below"]}),
        ("Number of qubits whose T1 does not exceed 40 μs?", t1, {t1: lambda v: v <= 40}, "qubit",
         {"below": 40.0, "including": ["below"]}),
        ("How many couplings have a ZX90 gate fidelity that fails to reach 95%?", zx, {zx: lambda v: v < 95},
         "coupling", {"below": 95.0}),
        ("How many qubits have a T2 echo of 50 us or more?", t2, {t2: lambda v: v >= 50}, "qubit",
         {"above": 50.0, "including": ["above"]}),
        ("how many qubits have T1 shy of 30 us", t1, {t1: lambda v: v < 30}, "qubit", {"below": 30.0}),
        ("How many qubits have an X90 gate fidelity that beats 0.995?", x90, {x90: lambda v: v > 99.5}, "qubit",
         {"above": 99.5}),
        ("How many qubits have a readout fidelity under 93 percent?", ro, {ro: lambda v: v < 93}, "qubit",
         {"below": 93.0}),
    ]
    out = []
    for i, (text, name, tests, kind, sides) in enumerate(rows, 1):
        q = Question(f"l7-limit-{i}", "limits7 limit", text, Truth(((_count(db, tests, kind), 0),)))
        out.append((q, ("filter_metric", {"metric_name": name, **sides})))
    both = ("How many qubits have readout fidelity of at least 93% and a T1 that surpasses 45 μs?")
    out.append((Question("l7-limit-13", "limits7 limit", both,
                         Truth(((_count(db, {ro: lambda v: v >= 93, t1: lambda v: v > 45}), 0),))),
                ("filter_metrics", {"conditions": [{"metric_name": ro, "above": 93.0, "including": ["above"]},
                                                   {"metric_name": t1, "above": 45.0}]})))
    return out


def _newest(db) -> date:
    return next(db["execution_history"].find({"chip_id": CHIP}).sort([("start_at", -1)]).limit(1))["start_at"].date()


def _window(db, days: int | None) -> dict:
    """Whole UTC days ending with the newest run's day: ``[00:00 of the first, 00:00 after the newest)``."""
    if days is None:
        return {}
    last = _newest(db)
    first = last - timedelta(days=days - 1)
    return {"start_at": {"$gte": datetime(first.year, first.month, first.day),
                         "$lt": datetime(last.year, last.month, last.day) + timedelta(days=1)}}


def _tasks(db, days: int | None, **where) -> int:
    return db["task_result_history"].count_documents({"chip_id": CHIP, **_window(db, days), **where})


def _runs(db, days: int) -> int:
    return db["execution_history"].count_documents({"chip_id": CHIP, "status": {"$ne": "scheduled"},
                                                    **_window(db, days)})


def _t1_measurements(db, days: int) -> int:
    docs = db["task_result_history"].find({"chip_id": CHIP, "status": "completed", "excluded": {"$ne": True},
                                           "output_parameters.t1": {"$exists": True}, **_window(db, days)})
    out = 0
    for doc in docs:
        value = (doc["output_parameters"]["t1"] or {}).get("value")
        out += isinstance(value, (int, float)) and value == value and value not in (0, float("inf"))
    return out


def _windows(db) -> list[tuple[Question, Call]]:
    failed = {"status": "failed"}
    rows = [
        ("How many task results failed over the nine most recent days?", _tasks(db, 9, **failed),
         {"what": "failed tasks", "days": 9}),
        ("How many calibration runs were there in the past 11 days?", _runs(db, 11), {"what": "runs", "days": 11}),
        ("how many failed task results in the last fortnight", _tasks(db, 14, **failed),
         {"what": "failed tasks", "days": 14}),
        ("Count the calibration runs over the previous six days.", _runs(db, 6), {"what": "runs", "days": 6}),
        ("How many task results failed across the most recent 4 days?", _tasks(db, 4, **failed),
         {"what": "failed tasks", "days": 4}),
        ("How many T1 measurements were taken in the 4 most recent days?", _t1_measurements(db, 4),
         {"what": "measurements", "metric_name": "t1", "days": 4}),
        ("How many runs happened during the last two weeks?", _runs(db, 14), {"what": "runs", "days": 14}),
    ]
    return [(Question(f"l7-window-{i}", "limits7 window", text, Truth(((n, 0),))), ("count_in_window", args))
            for i, (text, n, args) in enumerate(rows, 1)]


def _kinds(db) -> list[tuple[Question, Call]]:
    excluded, usable = {"excluded": True}, {"status": "completed", "excluded": {"$ne": True}}
    finished7 = _tasks(db, 7, status={"$in": ["completed", "failed"]})
    rows = [
        ("How many task results were excluded in the last 7 days?", _tasks(db, 7, **excluded),
         {"what": "excluded tasks", "days": 7}),
        ("How many excluded task results does the chip have?", _tasks(db, None, **excluded),
         {"what": "excluded tasks"}),
        ("How many usable task results were there over the past 10 days?", _tasks(db, 10, **usable),
         {"what": "usable tasks", "days": 10}),
        ("How many completed task results in the last 5 days?", _tasks(db, 5, status="completed"),
         {"what": "completed tasks", "days": 5}),
        ("How many CheckT1 results were marked excluded over the past fortnight?",
         _tasks(db, 14, name="CheckT1", **excluded), {"what": "excluded tasks", "days": 14, "task_name": "CheckT1"}),
        ("How many task results were not excluded in the previous 7 days?", _tasks(db, 7, **usable),
         {"what": "usable tasks", "days": 7}),
    ]
    out = [(Question(f"l7-kind-{i}", "limits7 kind", text, Truth(((n, 0),))), ("count_in_window", args))
           for i, (text, n, args) in enumerate(rows, 1)]
    share = _tasks(db, 7, **excluded)
    out.append((Question("l7-kind-7", "limits7 kind", "What share of task results were thrown out as excluded in the "
                         "last 7 days?", Truth(((share, 0), Expect(100.0 * share / finished7, PCT_TOL, unit="%")))),
                ("count_in_window", {"what": "excluded tasks", "days": 7})))
    return out


def _absent() -> list[tuple[Question, Call]]:
    rows = [("What is the depolarizing rate of Q05?", "depolarizing rate"),
            ("Which qubit has the highest leakage rate?", "leakage rate"),
            ("What's the crosstalk between Q04 and Q05?", "crosstalk"),
            ("What is the thermal population of qubit 3?", "thermal population"),
            ("What is the median pure dephasing rate across the chip?", "pure dephasing rate"),
            ("Give me the dispersive shift of Q12.", "dispersive shift"),
            ("how much does Q07 leak out of the computational subspace? leakage per gate please", "leakage rate")]
    return [(Question(f"l7-absent-{i}", "limits7 absent", text,
                      Truth(patterns=(NOT_HELD.format(title),), no_values=True)),
             ("check_target", {"metric_name": "_".join(title.split())}))
            for i, (text, title) in enumerate(rows, 1)]


def cases(db) -> list[tuple[Question, Call]]:
    """Every dev question with the call its class needs (tool, the arguments the question settles)."""
    return _limits(db) + _windows(db) + _kinds(db) + _absent()


def build(db) -> list[Question]:
    return [q for q, _ in cases(db)]
