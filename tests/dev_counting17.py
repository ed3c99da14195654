"""Dev questions for the seventeenth stop's counting class: what is counted and over what total.

A share of failed task results over the total the question names (one family of tasks, one task, a set of qubits,
a window), the run (execution id) that held the most failed task results, and the top N subjects by failures.  Each
question carries the router call it needs, written by hand.  Every truth is a pymongo read written here over the raw
``task_result_history`` documents of the demo (``demo_db``): a finished result is ``completed`` or ``failed``; the
readout family is the single-qubit results whose task name holds Readout, Resonator, Reflection or Dispersive, the
coupling family the results whose ``task_type`` is ``coupling``, the single-qubit family ``qubit``; a set of qubits
holds a qubit's own results and a coupling's whose two ends are both in it.  A window is whole UTC days counted back
from the day of the chip's newest run, that day included.  A share is a percentage to one decimal.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from datetime import date, datetime, timedelta

from tests.dev_fails8 import last_day
from tests.eval_score import Truth
from tests.public_eval import CHIP, OTHER, Question

Call = tuple[str, dict]
Doc = dict
Keep = Callable[[Doc], bool]
_READOUT = ("Readout", "Resonator", "Reflection", "Dispersive")


def _since(db, chip: str, days: int | None) -> dict:
    if days is None:
        return {}
    first = last_day(db, chip) - timedelta(days=days - 1)
    return {"start_at": {"$gte": datetime(first.year, first.month, first.day)}}


def _from(day: date) -> dict:
    return {"start_at": {"$gte": datetime(day.year, day.month, day.day)}}


def _docs(db, chip: str, window: dict, status: object) -> list[Doc]:
    return list(db["task_result_history"].find({"chip_id": chip, "status": status} | window,
                                               {"qid": 1, "name": 1, "task_type": 1, "execution_id": 1}))


def readout(doc: Doc) -> bool:
    return doc.get("task_type") == "qubit" and any(p in str(doc.get("name")) for p in _READOUT)


def coupling(doc: Doc) -> bool:
    return doc.get("task_type") == "coupling"


def single(doc: Doc) -> bool:
    return doc.get("task_type") == "qubit"


def named(task: str) -> Keep:
    return lambda doc: doc.get("name") == task


def on_set(qubits: set[str]) -> Keep:
    return lambda doc: all(end in qubits for end in str(doc.get("qid")).split("-"))


def share(db, chip: str, keep: Keep, window: dict) -> tuple[int, int, float]:
    """(failed, finished, percent) of the results ``keep`` keeps."""
    failed = sum(1 for d in _docs(db, chip, window, "failed") if keep(d))
    whole = sum(1 for d in _docs(db, chip, window, {"$in": ["completed", "failed"]}) if keep(d))
    return failed, whole, round(100 * failed / whole, 1) if whole else 0.0


def _share_q(qid: str, text: str, db, chip: str, keep: Keep, window: dict, args: dict) -> tuple[Question, Call]:
    failed, whole, pct = share(db, chip, keep, window)
    return Question(qid, "percentage", text, Truth(((pct, 0.05), (failed, 0), (whole, 0)))), \
        ("count_in_window", {"chip_id": chip, "what": "failed tasks", **args})


def failures_by(db, chip: str, key: str, window: dict, subject: Keep = lambda d: True) -> Counter[str]:
    return Counter(str(d[key]) for d in _docs(db, chip, window, "failed") if subject(d))


def _top_q(qid: str, text: str, db, chip: str, by: str, n: int | None, window: dict, args: dict,
           label: Callable[[str], str] = re.escape) -> tuple[Question, Call]:
    """The top ``n`` (one when None) subjects by failed results: every name placed above the n-th count (and the
    tied first ones when one is asked), with their counts."""
    key = {"task": "name", "run": "execution_id"}.get(by, "qid")
    keep: Keep = (lambda d: "-" in str(d.get("qid"))) if by == "coupling" else \
        (lambda d: "-" not in str(d.get("qid"))) if by == "qubit" else (lambda d: True)
    counts = failures_by(db, chip, key, window, keep).most_common()
    k = n or 1
    cut = counts[k - 1][1]
    above = [(name, c) for name, c in counts if c > cut]
    tied = [(name, c) for name, c in counts if c == cut]
    shown = above + tied if n is None or len(above) + len(tied) == k else above + [("", cut)]
    numbers = tuple((c, 0) for _, c in shown)
    args = {"chip_id": chip, "by": by, **args, **({"n": n} if n else {})}
    return Question(qid, "fails most", text, Truth(numbers, tuple(label(name) for name, _ in shown if name))), \
        ("failure_ranking", args)


def _qubit(name: str) -> str:
    return rf"Q0*{name}\b"


def _coupling(name: str) -> str:
    a, b = name.split("-")
    return rf"Q0*{a}\s*[-–→]\s*Q0*{b}\b"


def _families(db) -> list[tuple[Question, Call]]:
    c, o = CHIP, OTHER
    return [
        _share_q("c17-fam-1", "What share of readout task results failed on 64Qv3?", db, c, readout, {},
                 {"family": "readout"}),
        _share_q("c17-fam-2", "What percentage of coupling task results failed on 144Qv2 in the last 7 days?", db, o,
                 coupling, _since(db, o, 7), {"days": 7, "family": "coupling"}),
        _share_q("c17-fam-3", "Out of the readout calibrations over the last 10 days, what fraction failed?", db, c,
                 readout, _since(db, c, 10), {"days": 10, "family": "readout"}),
        _share_q("c17-fam-4", "On 144Qv2, what proportion of two-qubit tasks failed?", db, o, coupling, {},
                 {"family": "coupling"}),
        _share_q("c17-fam-5", "What fraction of single-qubit task results failed on 64Qv3 in the past 5 days?", db,
                 c, single, _since(db, c, 5), {"days": 5, "family": "qubit"}),
        _share_q("c17-task-1", "What share of Ramsey results failed on 144Qv2?", db, o, named("CheckRamsey"), {},
                 {"task_name": "CheckRamsey"}),
        _share_q("c17-task-2", "What percent of CheckT2Echo task results failed over the last 7 days?", db, c,
                 named("CheckT2Echo"), _since(db, c, 7), {"days": 7, "task_name": "CheckT2Echo"}),
    ]


def _sets(db) -> list[tuple[Question, Call]]:
    c, o = CHIP, OTHER
    return [
        _share_q("c17-set-1", "What share of task results on qubits 4, 5 and 6 failed?", db, c, on_set({"4", "5", "6"}),
                 {}, {"qubits": [4, 5, 6]}),
        _share_q("c17-set-2", "On 144Qv2, what percentage of the task results of Q10 through Q19 failed?", db, o,
                 on_set({str(q) for q in range(10, 20)}), {}, {"qubits": list(range(10, 20))}),
        _share_q("c17-set-3", "What fraction of readout task results on Q0 to Q15 failed?", db, c,
                 lambda d: readout(d) and on_set({str(q) for q in range(16)})(d), {},
                 {"family": "readout", "qubits": list(range(16))}),
    ]


def _runs(db) -> list[tuple[Question, Call]]:
    c, o = CHIP, OTHER
    since = last_day(db, o) - timedelta(days=8)
    return [
        _top_q("c17-run-1", "Which run had the most failed task results on 144Qv2?", db, o, "run", None, {}, {}),
        _top_q("c17-run-2", "Which calibration session saw the most failures on 64Qv3?", db, c, "run", None, {}, {}),
        _top_q("c17-run-3", "What execution id had the largest number of failed tasks in the last 10 days?", db, c,
               "run", None, _since(db, c, 10), {"days": 10}),
        _top_q("c17-run-4", f"On 144Qv2, which execution had the most task failures since {since:%Y-%m-%d}?", db, o,
               "run", None, _from(since), {"from_date": f"{since:%Y-%m-%d}"}),
    ]


def runs_holding(db, chip: str, keep: Keep, window: dict) -> int:
    """Runs that started in the window and hold a failed result ``keep`` keeps (whenever that result started)."""
    held = {d["execution_id"] for d in _docs(db, chip, {}, "failed") if keep(d)}
    started = db["execution_history"].find({"chip_id": chip, "status": {"$ne": "scheduled"}} | window,
                                           {"execution_id": 1})
    return sum(1 for d in started if d["execution_id"] in held)


def _held(qid: str, text: str, db, chip: str, keep: Keep, window: dict, args: dict) -> tuple[Question, Call]:
    return Question(qid, "window count", text, Truth(((runs_holding(db, chip, keep, window), 0),))), \
        ("count_in_window", {"chip_id": chip, **args, "what": "runs with failures"})


def _held_runs(db) -> list[tuple[Question, Call]]:
    c, o = CHIP, OTHER
    return [
        _held("c17-held-1", "How many runs had a failed coupling task in the last 7 days on 144Qv2?", db, o, coupling,
              _since(db, o, 7), {"days": 7, "family": "coupling"}),
        _held("c17-held-2", "How many executions had a failure on Q0 through Q3 in the last 10 days?", db, c,
              on_set({"0", "1", "2", "3"}), _since(db, c, 10), {"days": 10, "qubits": [0, 1, 2, 3]}),
    ]


def _tops(db) -> list[tuple[Question, Call]]:
    c, o = CHIP, OTHER
    return [
        _top_q("c17-top-1", "Top 3 tasks by failures on 144Qv2", db, o, "task", 3, {}, {}),
        _top_q("c17-top-2", "Which 3 qubits failed most often on 64Qv3?", db, c, "qubit", 3, {}, {}, _qubit),
        _top_q("c17-top-3", "Which 4 runs had the most failures on 64Qv3?", db, c, "run", 4, {}, {}),
        _top_q("c17-top-4", "What are the top 5 couplings by failure count on 144Qv2?", db, o, "coupling", 5, {}, {},
               _coupling),
        _top_q("c17-top-5", "Top two tasks by failures over the last 7 days on 64Qv3?", db, c, "task", 2,
               _since(db, c, 7), {"days": 7}),
    ]


def _attacks(db) -> list[tuple[Question, Call]]:
    """Wordings written after the fix, to attack it."""
    c, o = CHIP, OTHER
    return [
        _share_q("c17-att-1", "What portion of the resonator checks failed on 144Qv2?", db, o, readout, {},
                 {"family": "readout"}),
        _share_q("c17-att-2", "Percentage of failed two-qubit calibrations over the past 10 days on 64Qv3?", db, c,
                 coupling, _since(db, c, 10), {"days": 10, "family": "coupling"}),
        _top_q("c17-att-3", "Which execution racked up the most task failures on 144Qv2 in the last 5 days?", db, o,
               "run", None, _since(db, o, 5), {"days": 5}),
        _top_q("c17-att-4", "Give me the top 4 qubits by number of failures on 144Qv2", db, o, "qubit", 4, {}, {},
               _qubit),
        _share_q("c17-att-5", "What share of the results for qubits 2, 3, 4 and 5 were failures?", db, c,
                 on_set({"2", "3", "4", "5"}), {}, {"qubits": [2, 3, 4, 5]}),
        _top_q("c17-att-6", "Which calibration job had the highest number of failed results on 64Qv3?", db, c, "run",
               None, {}, {}),
        _held("c17-att-7", "How many executions contained a failed readout check over the past 3 days?", db, c,
              readout, _since(db, c, 3), {"days": 3, "family": "readout"}),
        _share_q("c17-att-8", "Out of all Ramsey tasks on 64Qv3, what percentage failed?", db, c,
                 named("CheckRamsey"), {}, {"task_name": "CheckRamsey"}),
    ]


def planned(db) -> list[tuple[Question, Call]]:
    """Every dev question with the router call it needs."""
    return [*_families(db), *_sets(db), *_runs(db), *_held_runs(db), *_tops(db), *_attacks(db)]


def build(db) -> list[Question]:
    return [q for q, _ in planned(db)]
