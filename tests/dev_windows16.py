"""Dev questions for the sixteenth stop's window classes: N days joined to today by any connective ("up to",
"ending", "to date", "until", "through", "including") are N days back from the newest run's day, never that day
alone; and what a window count counts: the task named, a family of tasks (coupling or single-qubit), a limit of a
metric, a set of qubits (a run of them, or some left out), distinct qubits with a failure (one chip, or each chip).

Each question carries the router call it needs (after the per-call settling a turn applies: the set of qubits),
written by hand, and its truth: a pymongo read written here over the raw ``task_result_history`` and
``execution_history`` documents of the demo.  A window is whole UTC days, both ends included, counted back from the
day of the chip's newest run (several chips: the newest day of any).  A coupling's result is one whose ``qid`` joins
two qubits ("3-4"); a set of qubits holds a coupling when it holds both ends.  T1 and T2 echo are stored in μs.
"""

from __future__ import annotations

from collections import Counter
from datetime import date, datetime, timedelta

from tests.dev_fails8 import last_day
from tests.eval_score import Truth
from tests.public_eval import CHIP, OTHER, Question

Call = tuple[str, dict]
Case = tuple[Question, Call, dict]  # the question, the call it needs, and what the call's result must hold
CHIPS = (CHIP, OTHER)
Span = tuple[date, date]


def end(db, chips: tuple[str, ...]) -> date:
    return max(last_day(db, c) for c in chips)


def back(db, chip: str, days: int) -> Span:
    """The last ``days`` whole days of ``chip``, its newest run's day included."""
    e = end(db, (chip,))
    return e - timedelta(days=days - 1), e


def _at(span: Span) -> dict:
    first, last = span
    return {"start_at": {"$gte": datetime(first.year, first.month, first.day),
                         "$lt": datetime(last.year, last.month, last.day) + timedelta(days=1)}}


def results(db, chip: str, span: Span, status: object, **more: object) -> list[dict]:
    return list(db["task_result_history"].find({"chip_id": chip, "status": status, **more} | _at(span)))


def _ends_in(qid: str, held: set[str] | None, out: set[str]) -> bool:
    ends = qid.split("-")
    return (held is None or all(e in held for e in ends)) and not any(e in out for e in ends)


def on_set(docs: list[dict], held: set[str] | None = None, out: frozenset[str] = frozenset()) -> list[dict]:
    return [d for d in docs if isinstance(d.get("qid"), str) and _ends_in(d["qid"], held, set(out))]


def coupling(docs: list[dict]) -> list[dict]:
    return [d for d in docs if "-" in str(d.get("qid"))]


def readout(docs: list[dict]) -> list[dict]:
    """Single-qubit results of a readout or resonator task (by the task's name)."""
    return [d for d in single(docs) if "Readout" in d["name"] or "Resonator" in d["name"]]


def single(docs: list[dict]) -> list[dict]:
    return [d for d in docs if d.get("qid") and "-" not in str(d["qid"])]


def runs(db, chip: str, span: Span) -> int:
    return db["execution_history"].count_documents({"chip_id": chip, "status": {"$ne": "scheduled"}} | _at(span))


def runs_with_failures(db, chip: str, span: Span) -> int:
    held = {d["execution_id"] for d in db["task_result_history"].find({"chip_id": chip, "status": "failed"})}
    started = db["execution_history"].find({"chip_id": chip, "status": {"$ne": "scheduled"}} | _at(span))
    return sum(1 for d in started if d["execution_id"] in held)


def below(db, chip: str, span: Span, name: str, limit: float, under: bool = True) -> int:
    docs = results(db, chip, span, "completed", excluded={"$ne": True})
    values = [(d.get("output_parameters") or {}).get(name, {}).get("value") for d in docs]
    return sum(1 for v in values if isinstance(v, (int, float)) and v == v and v != 0 and
               (v < limit if under else v > limit))


def top(docs: list[dict], key: str) -> int:
    return max(Counter(d[key] for d in docs).values())


def distinct_qubits(docs: list[dict]) -> int:
    return len({d["qid"] for d in single(docs)})


def _md(day: date) -> str:
    return f"{day:%m-%d}"


def counted(qid: str, text: str, call: Call, count: int, share_of: int | None = None) -> Case:
    """A count (and, with ``share_of``, its share) the call's result must hold as ``count``."""
    numbers = ((round(100 * count / share_of, 1), 0.05),) if share_of else ((count, 0),)
    return Question(qid, "window count", text, Truth(numbers)), call, \
        {"count": count} | ({"total": share_of} if share_of else {})


def ranked(qid: str, text: str, call: Call, docs: list[dict], key: str) -> Case:
    """A "fails most" ranking over ``docs`` (the failed results it ranks): its top count and its total."""
    return Question(qid, "fails most", text, Truth(((top(docs, key), 0),))), call, \
        {"top": top(docs, key), "total": len(docs)}


def failed_of(qid: str, text: str, call: Call, count: int) -> Case:
    """A count of one kind's failed results (coupling or single-qubit), the failure ranking's total."""
    return Question(qid, "window count", text, Truth(((count, 0),))), call, {"total": count}


def per_chip(qid: str, text: str, call: Call, counts: dict[str, int]) -> Case:
    return Question(qid, "window count", text, Truth(tuple((n, 0) for n in counts.values()))), call, \
        {"counts": counts}


def _windows(db) -> list[Case]:
    c, o = CHIP, OTHER
    return [
        ranked("w16-win-1", "Over the 5 days up to today, which qubit failed most on 64Qv3?",
               ("failure_ranking", {"chip_id": c, "by": "qubit", "days": 5}),
               single(results(db, c, back(db, c, 5), "failed")), "qid"),
        counted("w16-win-2", "How many task results failed on 144Qv2 in the 4 days ending today?",
                ("count_in_window", {"chip_id": o, "days": 4, "what": "failed tasks"}),
                len(results(db, o, back(db, o, 4), "failed"))),
        ranked("w16-win-3", "Which task had the most failures for the 6 days to date?",
               ("failure_ranking", {"chip_id": c, "by": "task", "days": 6}),
               results(db, c, back(db, c, 6), "failed"), "name"),
        counted("w16-win-4", "How many calibration runs were there on 144Qv2 in the 3 days until today?",
                ("count_in_window", {"chip_id": o, "days": 3, "what": "runs"}), runs(db, o, back(db, o, 3))),
        counted("w16-win-5", "Count the failed tasks across the last 5 days including today.",
                ("count_in_window", {"chip_id": c, "days": 5, "what": "failed tasks"}),
                len(results(db, c, back(db, c, 5), "failed"))),
        counted("w16-win-6", "For the 7 days through today, how many runs had a failed task on 64Qv3?",
                ("count_in_window", {"chip_id": c, "days": 7, "what": "runs with failures"}),
                runs_with_failures(db, c, back(db, c, 7))),
        counted("w16-win-7", "What share of task results failed over the 4 days up to and including today on 144Qv2?",
                ("count_in_window", {"chip_id": o, "what": "failed tasks", "days": 4}),
                len(results(db, o, back(db, o, 4), "failed")),
                len(results(db, o, back(db, o, 4), {"$in": ["completed", "failed"]}))),
    ]


def _narrowed(db) -> list[Case]:
    c, o = CHIP, OTHER
    first, last = end(db, (c,)) - timedelta(days=6), end(db, (c,)) - timedelta(days=3)
    tens = {str(q) for q in range(10, 20)}
    low = {str(q) for q in range(0, 8)}
    return [
        counted("w16-task-1", f"How many CheckT1 results failed between {first:%b} {first.day} and "
                f"{last:%b} {last.day}?",
                ("count_in_window", {"chip_id": c, "from_date": _md(first), "to_date": _md(last),
                                     "task_name": "CheckT1", "what": "failed tasks"}),
                len(results(db, c, (first, last), "failed", name="CheckT1"))),
        counted("w16-task-2", "How many checkramsey failures on 144Qv2 in the 6 days ending today?",
                ("count_in_window", {"chip_id": o, "days": 6, "task_name": "CheckRamsey", "what": "failed tasks"}),
                len(results(db, o, back(db, o, 6), "failed", name="CheckRamsey"))),
        ranked("w16-fam-1", "Among coupler calibrations, which one failed most often on 64Qv3?",
               ("failure_ranking", {"chip_id": c, "by": "task", "family": "coupling"}),
               coupling(list(db["task_result_history"].find({"chip_id": c, "status": "failed"}))), "name"),
        ranked("w16-fam-2", "Which two-qubit task fails most over the 5 days up to today?",
               ("failure_ranking", {"chip_id": c, "by": "task", "days": 5, "family": "coupling"}),
               coupling(results(db, c, back(db, c, 5), "failed")), "name"),
        failed_of("w16-fam-3", "How many coupling task results failed on 144Qv2 in the last 3 days?",
                  ("failure_ranking", {"chip_id": o, "by": "coupling", "days": 3}),
                  len(coupling(results(db, o, back(db, o, 3), "failed")))),
        failed_of("w16-fam-4", "How many single-qubit task results failed in the last 2 days?",
                  ("failure_ranking", {"chip_id": c, "by": "qubit", "days": 2}),
                  len(single(results(db, c, back(db, c, 2), "failed")))),
        counted("w16-fam-5", "How many readout task results failed over the 4 days through today?",
                ("count_in_window", {"chip_id": c, "what": "failed tasks", "days": 4, "family": "readout"}),
                len(readout(results(db, c, back(db, c, 4), "failed")))),
        counted("w16-lim-1", "How many T1 results below 40 μs were recorded in the last 3 days?",
                ("count_in_window", {"chip_id": c, "days": 3, "what": "measurements", "metric_name": "t1",
                                     "below": 40.0}), below(db, c, back(db, c, 3), "t1", 40.0)),
        counted("w16-lim-2", "How many T2 echo measurements above 60 μs in the 5 days up to today on 144Qv2?",
                ("count_in_window", {"chip_id": o, "days": 5, "what": "measurements", "metric_name": "t2_echo",
                                     "above": 60.0}), below(db, o, back(db, o, 5), "t2_echo", 60.0, under=False)),
        counted("w16-set-1", "How many failed task results on Q10-Q19 in the last 4 days?",
                ("count_in_window", {"chip_id": c, "days": 4, "what": "failed tasks",
                                     "qubits": list(range(10, 20))}),
                len(on_set(results(db, c, back(db, c, 4), "failed"), tens))),
        counted("w16-set-2", "What share of task results failed in the last 5 days, leaving out Q3?",
                ("count_in_window", {"chip_id": c, "what": "failed tasks", "days": 5, "leaving_out": [3]}),
                len(on_set(results(db, c, back(db, c, 5), "failed"), None, frozenset({"3"}))),
                len(on_set(results(db, c, back(db, c, 5), {"$in": ["completed", "failed"]}), None,
                           frozenset({"3"})))),
        counted("w16-set-3", "How many task results on Q0 through Q7 failed over the 3 days up to today on 144Qv2?",
                ("count_in_window", {"chip_id": o, "days": 3, "what": "failed tasks", "qubits": list(range(0, 8))}),
                len(on_set(results(db, o, back(db, o, 3), "failed"), low))),
    ]


def _distinct(db) -> list[Case]:
    c, o = CHIP, OTHER
    e = end(db, CHIPS)
    five, four = (e - timedelta(days=4), e), (e - timedelta(days=3), e)
    three = distinct_qubits(results(db, o, back(db, o, 3), "failed"))
    return [
        per_chip("w16-dist-1", "How many distinct qubits had a failure on each chip in the last 5 days?",
                 ("count_in_window", {"chip_id": c, "what": "failed tasks", "chip_ids": list(CHIPS), "days": 5,
                                      "distinct_qubits": True}),
                 {chip: distinct_qubits(results(db, chip, five, "failed")) for chip in CHIPS}),
        per_chip("w16-dist-2", "Per chip, how many different qubits failed over the 4 days ending today?",
                 ("count_in_window", {"chip_id": c, "what": "failed tasks", "chip_ids": list(CHIPS), "days": 4,
                                      "distinct_qubits": True}),
                 {chip: distinct_qubits(results(db, chip, four, "failed")) for chip in CHIPS}),
        (Question("w16-dist-3", "window count", "How many distinct qubits had at least one failure on 144Qv2 in "
                  "the last 3 days?", Truth(((three, 0),))),
         ("failure_ranking", {"chip_id": o, "by": "qubit", "days": 3}), {"failed_subjects": three}),
    ]


def _attacks(db) -> list[Case]:
    """Wordings written after the fix, to attack it."""
    c, o = CHIP, OTHER
    e = end(db, CHIPS)
    twenties = {str(q) for q in range(20, 30)}
    return [
        ranked("w16-att-1", "In the 3 days leading up to today, which qubit failed the most?",
               ("failure_ranking", {"chip_id": c, "by": "qubit", "days": 3}),
               single(results(db, c, back(db, c, 3), "failed")), "qid"),
        counted("w16-att-2", "How many tasks failed on 144Qv2 during the 6 days to now?",
                ("count_in_window", {"chip_id": o, "days": 6, "what": "failed tasks"}),
                len(results(db, o, back(db, o, 6), "failed"))),
        counted("w16-att-3", "How many CheckT2Echo results failed over the four days through today?",
                ("count_in_window", {"chip_id": c, "days": 4, "task_name": "CheckT2Echo", "what": "failed tasks"}),
                len(results(db, c, back(db, c, 4), "failed", name="CheckT2Echo"))),
        counted("w16-att-4", "How many ReadoutClassification failures on Q20 to Q29 in the last 5 days?",
                ("count_in_window", {"chip_id": c, "days": 5, "task_name": "ReadoutClassification",
                                     "what": "failed tasks", "qubits": list(range(20, 30))}),
                len(on_set(results(db, c, back(db, c, 5), "failed", name="ReadoutClassification"), twenties))),
        ranked("w16-att-5", "Which coupler calibration failed most over the week ending today?",
               ("failure_ranking", {"chip_id": c, "by": "task", "days": 7, "family": "coupling"}),
               coupling(results(db, c, back(db, c, 7), "failed")), "name"),
        per_chip("w16-att-6", "For each chip, how many separate qubits saw a failed task in the 3 days to date?",
                 ("count_in_window", {"chip_id": c, "what": "failed tasks", "chip_ids": list(CHIPS), "days": 3,
                                      "distinct_qubits": True}),
                 {chip: distinct_qubits(results(db, chip, (e - timedelta(days=2), e), "failed")) for chip in CHIPS}),
        counted("w16-att-7", "How many T1 values under 35 μs in the 4 days ending today on 144Qv2?",
                ("count_in_window", {"chip_id": o, "days": 4, "what": "measurements", "metric_name": "t1",
                                     "below": 35.0}), below(db, o, back(db, o, 4), "t1", 35.0)),
        counted("w16-att-8", "How many task results were recorded for Q0-Q7 in the 5 days ending today on 144Qv2?",
                ("count_in_window", {"chip_id": o, "days": 5, "what": "task results", "qubits": list(range(0, 8))}),
                len(on_set(results(db, o, back(db, o, 5), {"$in": ["completed", "failed"]}),
                           {str(q) for q in range(0, 8)}))),
    ]


def planned(db) -> list[Case]:
    """Every dev question with the call it needs and what that call's result must hold."""
    return [*_windows(db), *_narrowed(db), *_distinct(db), *_attacks(db)]


def build(db) -> list[Question]:
    return [q for q, _, _ in planned(db)]
