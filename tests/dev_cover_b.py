"""Dev questions in the wordings lab users type, for six shapes the router must call before the model speaks:
cross-chip, window count (dates written several ways, one-ended ranges, "last month"), fails most, qubit pair (and
a coupling's value), missing thing, and the latest run.

Each question carries the call its shape needs (tool and the arguments the question settles), for the router scan
``tests/agent/test_router_cover_b.py``.  Every truth is a pymongo query written here on the raw demo documents,
never a call of the code under test.  Dates are written from the data (its newest run's day).
"""

from __future__ import annotations

import statistics
from collections import Counter
from datetime import date, datetime, timedelta

from tests.eval_score import Truth
from tests.public_eval import CHIP, OTHER, Question, latest_values, size, tol

NO_SUCH = r"(?i)\bno such\b|does not exist|\bno chip\b|not neighbours|not found"
Call = tuple[str, dict]


def _newest(db, chip: str) -> date:
    return next(db["execution_history"].find({"chip_id": chip}).sort([("start_at", -1)]).limit(1))["start_at"].date()


def _between(first: date | None, last: date | None) -> dict:
    span: dict = {}
    if first is not None:
        span["$gte"] = datetime(first.year, first.month, first.day)
    if last is not None:
        span["$lt"] = datetime(last.year, last.month, last.day) + timedelta(days=1)
    return {"start_at": span} if span else {}


def _runs(db, chip: str, first: date | None, last: date | None) -> int:
    return db["execution_history"].count_documents({"chip_id": chip, "status": {"$ne": "scheduled"},
                                                    **_between(first, last)})


def _failed(db, chip: str, first: date | None = None, last: date | None = None) -> list[dict]:
    return list(db["task_result_history"].find({"chip_id": chip, "status": "failed", **_between(first, last)}))


def _stat(db, chip: str, name: str, how=statistics.median) -> float:
    return how(v for v in latest_values(db, chip, name).values() if v is not None)


def _cross(db) -> list[tuple[Question, Call]]:
    rows = [("t1", "median", "which device has the better median T1, 64Q or 144Q?"),
            ("t2_echo", "median", "median t2 echo, compare 64Q against the 144-qubit one"),
            ("x90_gate_fidelity", "median", "Going by the median, is X90 gate fidelity better on 64Q or on 144Q?"),
            ("t1", "mean", "How does the 144-qubit chip stack up against the 64-qubit chip for mean T1?"),
            ("t2_echo", "mean", "Does 144Qv2 or 64Qv3 have longer T2 echo times on average?"),
            ("average_readout_fidelity", "median", "which chip's readout fidelity is higher overall, median-wise")]
    out = []
    for i, (name, stat, text) in enumerate(rows):
        how = statistics.mean if stat == "mean" else statistics.median
        a, b = _stat(db, CHIP, name, how), _stat(db, OTHER, name, how)
        win, lose = (CHIP, OTHER) if a > b else (OTHER, CHIP)
        out.append((Question(f"cb-cross-{i + 1}", "cross-chip", text,
                             Truth(((a, tol(name)), (b, tol(name))), winner=win, loser=lose)),
                    ("compare_chips", {"metric_name": name, "statistic": stat})))
    return out


def _window(db) -> list[tuple[Question, Call]]:
    end = _newest(db, CHIP)
    month = end.replace(day=1) if end.day >= 10 else (end.replace(day=1) - timedelta(days=1)).replace(day=1)
    d3, d10, wk = month.replace(day=3), month.replace(day=10), month.replace(day=7)
    cut = end - timedelta(days=8)
    after = end - timedelta(days=5)
    rows = [
        ("how many tasks failed over the past month", len(_failed(db, CHIP, end - timedelta(days=29), end)),
         {"what": "failed tasks", "days": 30}),
        (f"How many calibration runs were there in the first week of {month:%B}?", _runs(db, CHIP, month, wk),
         {"what": "runs", "from_date": month.isoformat(), "to_date": wk.isoformat()}),
        (f"number of failed tasks between the 3rd and the 10th of {month:%b}", len(_failed(db, CHIP, d3, d10)),
         {"what": "failed tasks", "from_date": d3.isoformat(), "to_date": d10.isoformat()}),
        (f"How many runs were done before {cut.day} {cut:%b}?", _runs(db, CHIP, None, cut - timedelta(days=1)),
         {"what": "runs", "to_date": (cut - timedelta(days=1)).isoformat()}),
        (f"how many failed tasks on 64Q after {after:%b} {after.day}?", len(_failed(db, CHIP, after + timedelta(days=1))),
         {"what": "failed tasks", "from_date": (after + timedelta(days=1)).isoformat()}),
        (f"Since {cut.day}/{cut.month}/{cut.year}, how many executions has the 144-qubit chip had?",
         _runs(db, OTHER, cut, None), {"chip_id": OTHER, "what": "runs", "from_date": cut.isoformat()}),
        ("failed task count for the past 2 weeks", len(_failed(db, CHIP, end - timedelta(days=13), end)),
         {"what": "failed tasks", "days": 14}),
    ]
    return [(Question(f"cb-window-{i + 1}", "window count", text, Truth(((n, 0),))),
             ("count_in_window", {"chip_id": CHIP, **args})) for i, (text, n, args) in enumerate(rows)]


def _top(failed: list[dict], key: str) -> tuple[str, int]:
    counts = Counter(d[key] for d in failed).most_common()
    return counts[0]


def _fails(db) -> list[tuple[Question, Call]]:
    end = _newest(db, CHIP)
    week = _failed(db, CHIP, end - timedelta(days=6), end)
    rows = [
        ("what's the least reliable task on 64Q", _failed(db, CHIP), "name", CHIP, "task", {}),
        ("Which task most often errors out?", _failed(db, CHIP), "name", CHIP, "task", {}),
        ("which qubit logged the most failures in the past 7 days", week, "qid", CHIP, "qubit", {"days": 7}),
        ("What calibration task fails most frequently, 144-qubit device?", _failed(db, OTHER), "name", OTHER,
         "task", {}),
        ("which coupling fails most often", [d for d in _failed(db, CHIP) if d["task_type"] == "coupling"], "qid",
         CHIP, "coupling", {}),
        ("most unreliable qubit?", _failed(db, CHIP), "qid", CHIP, "qubit", {}),
    ]
    out = []
    for i, (text, failed, key, chip, by, extra) in enumerate(rows):
        top, n = _top(failed, key)
        name = rf"Q0*{int(top)}(?!\d)" if by == "qubit" else \
            r"Q0*{}→Q0*{}(?!\d)".format(*(int(q) for q in top.split("-"))) if by == "coupling" else top
        out.append((Question(f"cb-fails-{i + 1}", "fails most", text, Truth(((n, 0),), patterns=(name,))),
                    ("failure_ranking", {"chip_id": chip, "by": by, **extra})))
    return out


def _pair(db) -> list[tuple[Question, Call]]:
    n64 = size(db, CHIP)
    out = []
    for i, (name, a, b, text) in enumerate([
            ("t1", "2", "9", "q2 vs q9 t1?"),
            ("t2_echo", "10", "11", "Is Q10's T2 echo longer than Q11's?"),
            ("x90_gate_fidelity", "12", "13", "compare qubits 12 and 13 on X90 fidelity"),
            ("qubit_frequency", "22", "23", "Q22 or Q23, whose qubit frequency is higher?")]):
        values = latest_values(db, CHIP, name)
        va, vb = values[a], values[b]
        assert va is not None and vb is not None and va != vb, (name, a, b)
        win, lose = (a, b) if va > vb else (b, a)
        out.append((Question(f"cb-pair-{i + 1}", "qubit pair", text,
                             Truth(((va, tol(name)), (vb, tol(name))), winner=rf"Q0*{win}(?!\d)",
                                   loser=rf"Q0*{lose}(?!\d)")),
                    ("compare_qubits", {"chip_id": CHIP, "qids": sorted((a, b), key=int), "param_names": [name]})))
    assert n64 > 13
    for j, (name, pair, text) in enumerate([("zx90_gate_fidelity", "0-1", "ZX90 gate fidelity of coupling Q00-Q01?"),
                                            ("bell_state_fidelity", "0-1",
                                             "what's the bell state fidelity between qubits 0 and 1")]):
        value = latest_values(db, CHIP, name, "coupling")[pair]
        assert value is not None
        out.append((Question(f"cb-pair-{5 + j}", "qubit pair", text, Truth(((value, tol(name)),))),
                    ("get_coupling_params", {"chip_id": CHIP, "coupling_id": pair, "param_names": [name]})))
    return out


def _missing(db) -> list[tuple[Question, Call | None]]:
    """A qubit past the chip's size, a chip not installed: the call that says so (``check_target``); a task no run
    ever had: no call that counts it as if it were there."""
    n64, n144 = size(db, CHIP), size(db, OTHER)
    assert not db["chip"].find_one({"chip_id": "32Qv1"}) and not db["task_result_history"].find_one(
        {"name": "CheckWobble"})
    rows: list[tuple[str, Call | None]] = [
        (f"T1 of Q{n64 + 16} on 64Q?", ("check_target", {"chip_id": CHIP, "qid": str(n64 + 16)})),
        (f"Show the T1 of qubit {n64}, 64-qubit device", ("check_target", {"chip_id": CHIP, "qid": str(n64)})),
        (f"readout fidelity of qubit {n144 + 6} on 144Q", ("check_target", {"chip_id": OTHER, "qid": str(n144 + 6)})),
        ("what's the median T2 echo for the 256-qubit chip", ("check_target", {})),
        ("median T1 of chip 32Qv1, please", ("check_target", {"chip_id": "32Qv1"})),
        ("How often does the task CheckWobble fail?", None),
    ]
    return [(Question(f"cb-missing-{i + 1}", "missing thing", text, Truth(patterns=(NO_SUCH,), no_values=True)), call)
            for i, (text, call) in enumerate(rows)]


def _latest_run(db) -> list[tuple[Question, Call]]:
    out = []
    for i, (chip, text, tool) in enumerate([
            (CHIP, "did anything fail in the latest calibration run?", "get_run_failures"),
            (OTHER, "which tasks failed in the last run on 144Q", "get_run_failures"),
            (CHIP, "How many tasks failed in the newest execution?", "get_run_failures"),
            (CHIP, "latest run: any failed tasks?", "get_run_failures"),
            (CHIP, "What was the status of the most recent run?", "get_execution_history"),
            (OTHER, "when did the 144-qubit chip last get a calibration run", "get_execution_history")]):
        run = next(db["execution_history"].find({"chip_id": chip}).sort([("start_at", -1)]).limit(1))
        failed = db["task_result_history"].count_documents({"chip_id": chip, "execution_id": run["execution_id"],
                                                            "status": "failed"})
        truth = Truth(((failed, 0),)) if tool == "get_run_failures" else \
            Truth(patterns=(run["start_at"].strftime("%Y-%m-%d") if i == 5 else rf"(?i){run['status']}",))
        out.append((Question(f"cb-latest-{i + 1}", "latest run", text, truth),
                    (tool, {"chip_id": chip, **({"last_n": 1} if tool == "get_execution_history" else {})})))
    return out


def cases(db) -> list[tuple[Question, Call | None]]:
    """Each question with the router call its shape needs (None: no call may be made on a thing not there)."""
    return [*_cross(db), *_window(db), *_fails(db), *_pair(db), *_missing(db), *_latest_run(db)]


def build(db) -> list[Question]:
    return [q for q, _ in cases(db)]
