"""Dev questions for five shapes: cross-chip, missing thing, window count, fails most, qubit pair.

Every truth is a pymongo query written here on the raw demo documents (``task_result_history``, ``execution_history``,
``chip``), never a call of the code under test.  Windows end at the chip's newest run's start, the data's "now".
"""

from __future__ import annotations

import statistics
from collections import Counter
from datetime import datetime, timedelta

from tests.eval_score import Truth
from tests.public_eval import CHIP, OTHER, Question, latest_values, scale, size, tol

NO_SUCH = r"(?i)\bno such\b|does not exist|\bno chip\b|not neighbours"


def _median(db, chip: str, name: str, how=statistics.median) -> float:
    return how(v for v in latest_values(db, chip, name).values() if v is not None)


def _end(db, chip: str):
    return next(db["execution_history"].find({"chip_id": chip}).sort([("start_at", -1)]).limit(1))["start_at"]


def _days(db, chip: str, days: int | None = None, weekday: int | None = None) -> dict:
    """``start_at`` within whole UTC days ending with the day of the chip's newest run: the last ``days`` dates,
    or from the latest ``weekday`` (0 = Monday) on or before that day; ``{}`` for every stored run."""
    last = _end(db, chip)
    end = datetime(last.year, last.month, last.day) + timedelta(days=1)
    if weekday is not None:
        start = end - timedelta(days=(last.weekday() - weekday) % 7 + 1)
    elif days is not None:
        start = end - timedelta(days=days)
    else:
        return {}
    return {"start_at": {"$gte": start, "$lt": end}}


def _failed_since(db, chip: str, days: int | None, weekday: int | None = None) -> list[dict]:
    return list(db["task_result_history"].find({"chip_id": chip, "status": "failed", **_days(db, chip, days, weekday)}))


def _runs_since(db, chip: str, days: int | None, weekday: int | None = None) -> int:
    return db["execution_history"].count_documents({"chip_id": chip, "status": {"$ne": "scheduled"},
                                                    **_days(db, chip, days, weekday)})


def _task_results(db, chip: str, task: str, qid: str | None, days: int | None, weekday: int | None = None,
                  status: tuple[str, ...] = ("completed", "failed")) -> int:
    query = {"chip_id": chip, "name": task, "status": {"$in": list(status)}, **_days(db, chip, days, weekday)}
    if qid is not None:
        query["qid"] = qid
    return db["task_result_history"].count_documents(query)


def _measurements(db, chip: str, qid: str, name: str, days: int) -> int:
    docs = db["task_result_history"].find({"chip_id": chip, "qid": qid, "status": "completed",
                                           "excluded": {"$ne": True}, f"output_parameters.{name}": {"$exists": True},
                                           **_days(db, chip, days)})
    return sum(1 for d in docs if d["output_parameters"][name]["value"] not in (0, None)
               and d["output_parameters"][name]["value"] == d["output_parameters"][name]["value"])


def _label(qid: str, chip_size: int) -> str:
    return rf"Q0*{int(qid)}(?!\d)"


def _cross_chip(db) -> list[Question]:
    out = []
    for i, (name, how, text) in enumerate([
            ("t2_echo", statistics.median, "Between {a} and {b}, whose median T2 echo is larger?"),
            ("t1", statistics.median, "Which chip has the better median T1, {b} or {a}?"),
            ("average_readout_fidelity", statistics.median, "Compare the average readout fidelity of the chips."),
            ("x90_gate_fidelity", statistics.median, "On which chip is the median X90 gate fidelity higher?"),
            ("t2_echo", statistics.mean, "Put the chips side by side on mean T2 echo: which one leads?")]):
        a, b = _median(db, CHIP, name, how), _median(db, OTHER, name, how)
        win, lose = (CHIP, OTHER) if a > b else (OTHER, CHIP)
        out.append(Question(f"sb-cross-{i + 1}", "cross-chip", text.format(a=CHIP, b=OTHER),
                            Truth(((a, tol(name)), (b, tol(name))), winner=win, loser=lose)))
    return out


def _missing(db) -> list[Question]:
    n64, n144 = size(db, CHIP), size(db, OTHER)
    rows = [
        ("What is the T1 of qubit {q} on {chip}?", CHIP, n64 + 136, rf"Q0*{n64 - 1}\b"),
        ("Show me Q{q}'s readout fidelity.", CHIP, n64 + 7, rf"Q0*{n64 - 1}\b"),
        ("How healthy is qubit {q} of {chip}?", OTHER, n144 + 56, rf"Q0*{n144 - 1}\b"),
        ("What is the median T1 on chip 99Qv9?", CHIP, None, r"64Qv3"),
        ("ZX90 fidelity of the coupling between Q00 and Q63?", CHIP, None, r"(?i)not neighbours"),
    ]
    latest = latest_values(db, CHIP, "average_readout_fidelity")
    dead = next(str(q) for q in range(n64) if latest.get(str(q)) is None)
    rows.append(("What's Q{q}'s readout fidelity right now?", CHIP, int(dead),
                 r"(?i)no readout fidelity measured|no average readout fidelity measured"))
    out = []
    for i, (text, chip, q, pattern) in enumerate(rows):
        patterns = (NO_SUCH, pattern) if i < 5 else (pattern,)  # the last: a qubit that is there, with no value
        out.append(Question(f"sb-missing-{i + 1}", "missing thing", text.format(q=q, chip=chip),
                            Truth(patterns=patterns, no_values=True)))
    return out


def _window_count(db) -> list[Question]:
    """Whole UTC days ending with the day of the newest run; "this week" and "since <day>" start on that weekday."""
    q = "5"
    return [
        Question("sb-window-1", "window count", "How many tasks failed in the past 4 days?",
                 Truth(((len(_failed_since(db, CHIP, 4)), 0),))),
        Question("sb-window-2", "window count", f"Count the failed tasks on {OTHER} over the last two weeks.",
                 Truth(((len(_failed_since(db, OTHER, 14)), 0),))),
        Question("sb-window-3", "window count", "How many calibration runs were there this week?",
                 Truth(((_runs_since(db, CHIP, None, weekday=0), 0),))),
        Question("sb-window-4", "window count", "Number of T1 measurements of Q05 in the last 10 days?",
                 Truth(((_measurements(db, CHIP, q, "t1", 10), 0),))),
        Question("sb-window-5", "window count", "how many runs happened in the past 5 days",
                 Truth(((_runs_since(db, CHIP, 5), 0),))),
        Question("sb-window-6", "window count", "Over the past fortnight, how often did CheckRamsey fail?",
                 Truth(((_task_results(db, CHIP, "CheckRamsey", None, 14, status=("failed",)), 0),))),
        Question("sb-window-7", "window count", "Since Wednesday, what's the number of executions on 144Qv2?",
                 Truth(((_runs_since(db, OTHER, None, weekday=2), 0),))),
        Question("sb-window-8", "window count", "Tally the CheckT1 results for Q05 since Monday.",
                 Truth(((_task_results(db, CHIP, "CheckT1", q, None, weekday=0), 0),))),
        Question("sb-window-9", "window count",
                 f"Give me the total number of failed tasks during the last 3 days on {OTHER}.",
                 Truth(((len(_failed_since(db, OTHER, 3)), 0),))),
    ]


def _fails_most(db) -> list[Question]:
    out = []
    for i, (chip, days, by, text) in enumerate([
            (CHIP, None, "name", "Which calibration task breaks most often?"),
            (OTHER, None, "name", "On {chip}, what task has the most failures?"),
            (CHIP, 7, "name", "Which task failed the most in the last 7 days?"),
            (CHIP, None, "qid", "Which qubit fails most?"),
            (OTHER, None, "qid", "which qubit had the most failures on {chip}")]):
        failed = [d for d in _failed_since(db, chip, days) if by == "name" or "-" not in d["qid"]]  # qubits only
        top, n = Counter(d[by] for d in failed).most_common(1)[0]
        name = _label(top, size(db, chip)) if by == "qid" else top
        out.append(Question(f"sb-fails-{i + 1}", "fails most", text.format(chip=chip),
                            Truth(((n, 0), (len(failed), 0)), patterns=(name,))))
    return out


def _qubit_pair(db) -> list[Question]:
    out = []
    n64 = size(db, CHIP)
    for i, (name, a, b, text) in enumerate([
            ("t1", "6", "14", "For T1, is Q06 or Q14 the better qubit?"),
            ("average_readout_fidelity", "30", "31", "Compare Q30 and Q31 on readout fidelity."),
            ("t2_echo", "20", "21", "Which has the longer T2 echo, Q20 or Q21?"),
            ("x90_gate_fidelity", "40", "9", "Q40 vs Q09: whose X90 gate fidelity is higher?")]):
        values = latest_values(db, CHIP, name)
        va, vb = values[a], values[b]
        assert va is not None and vb is not None and va != vb, (name, a, b)
        win, lose = (a, b) if va > vb else (b, a)
        out.append(Question(f"sb-pair-{i + 1}", "qubit pair", text,
                            Truth(((va, tol(name)), (vb, tol(name))), winner=_label(win, n64),
                                  loser=_label(lose, n64))))
    return out


def build(db) -> list[Question]:
    """The dev questions of the five shapes, with their truths."""
    assert scale("t1") == 1.0
    return _cross_chip(db) + _missing(db) + _window_count(db) + _fails_most(db) + _qubit_pair(db)
