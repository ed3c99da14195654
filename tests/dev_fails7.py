"""Dev questions that ask which subject fails most, in lab users' registers: the subject ranked (task, qubit,
coupling, run, chip), a family of tasks ("among the coupling tasks", "readout calibrations only"), a failure rate
against a count, a window (last N days, since a date, this week), a named chip, ties, "never fails", and two
wordings no one call answers (a chip's failure rate, the top task over both chips), which must carry a note.

Each question carries the router call it needs (tool and every argument), for ``tests/agent/test_router_fails7.py``.
Every truth is a pymongo read written here over the raw demo documents (status "failed" on ``task_result_history``;
a run is an ``execution_history`` document); the families are written out by hand from the demo's task list
(``task_type`` "qubit"/"coupling"; the readout tasks by name), never read from the code under test.
"""

from __future__ import annotations

from collections import Counter
from datetime import date, datetime, timedelta

from tests.eval_score import Truth
from tests.public_eval import CHIP, OTHER, Question

Call = tuple[str, dict]
READOUT = frozenset({"CheckResonatorSpectroscopy", "ReadoutClassification"})  # the demo's readout tasks, by hand
NOTE = r"Note: this"


def newest(db, chip: str) -> date:
    return next(db["execution_history"].find({"chip_id": chip}).sort([("start_at", -1)]).limit(1))["start_at"].date()


def _span(first: date | None, last: date | None) -> dict:
    if first is None:
        return {}
    end = datetime(last.year, last.month, last.day) + timedelta(days=1) if last else None
    return {"start_at": {"$gte": datetime(first.year, first.month, first.day), **({"$lt": end} if end else {})}}


def _family(doc: dict, family: str | None) -> bool:
    if family == "readout":
        return doc["name"] in READOUT
    return family is None or doc["task_type"] == family


def _key(doc: dict, by: str) -> str | None:
    if by == "task":
        return doc["name"]
    if by == "run":
        return doc["execution_id"]
    coupling = "-" in doc["qid"]
    return doc["qid"] if (by == "coupling") == coupling else None


def tally(db, chip: str, by: str, family: str | None = None, first: date | None = None, last: date | None = None,
          finished: bool = False) -> Counter:
    """Failed (or finished: completed or failed) task results per subject."""
    status = {"$in": ["completed", "failed"]} if finished else "failed"
    docs = db["task_result_history"].find({"chip_id": chip, "status": status, **_span(first, last)})
    return Counter(k for d in docs if _family(d, family) and (k := _key(d, by)) is not None)


def label(key: str) -> str:
    """A regex of the subject as an answer writes it: a task or run as stored, "Q05", "Q23→Q26"."""
    if "-" in key and all(p.isdigit() and len(p) <= 3 for p in key.split("-")):
        a, b = key.split("-")
        return rf"Q0*{int(a)}\s*(?:→|->|-)\s*Q0*{int(b)}(?!\d)"
    return rf"Q0*{int(key)}(?!\d)" if key.isdigit() else key


def tops(counts: Counter) -> tuple[list[str], int]:
    best = max(counts.values())
    return sorted(k for k, n in counts.items() if n == best), best


def rate_tops(failed: Counter, done: Counter) -> tuple[list[str], int]:
    best = max(failed[k] / done[k] for k in failed)
    named = sorted(k for k in failed if failed[k] / done[k] == best)
    return named, failed[named[0]]


def _count(qid: str, text: str, counts: Counter, call: Call) -> tuple[Question, Call]:
    names, n = tops(counts)
    return Question(qid, "fails most", text, Truth(((n, 0),), patterns=tuple(label(k) for k in names))), call


def _rate(qid: str, text: str, failed: Counter, done: Counter, call: Call) -> tuple[Question, Call]:
    names, n = rate_tops(failed, done)
    return Question(qid, "fails most", text, Truth(((n, 0),), patterns=tuple(label(k) for k in names))), call


def _ranking(chip: str, by: str, **extra: object) -> Call:
    return "failure_ranking", {"chip_id": chip, "by": by, **extra}


def _subjects(db) -> list[tuple[Question, Call]]:
    return [
        _count("f7-sub-1", "Which coupling fails most?", tally(db, CHIP, "coupling"), _ranking(CHIP, "coupling")),
        _count("f7-sub-2", "which coupling has the most failed calibrations", tally(db, CHIP, "coupling"),
               _ranking(CHIP, "coupling")),
        _count("f7-sub-3", "Least reliable coupling on the 64-qubit chip?", tally(db, CHIP, "coupling"),
               _ranking(CHIP, "coupling")),
        _count("f7-sub-4", "Which pair of qubits fails most often?", tally(db, CHIP, "coupling"),
               _ranking(CHIP, "coupling")),
        _count("f7-sub-5", "which edge of the chip breaks most often", tally(db, CHIP, "coupling"),
               _ranking(CHIP, "coupling")),
        _count("f7-sub-6", "On 144Qv2, which two-qubit coupling is most problematic?", tally(db, OTHER, "coupling"),
               _ranking(OTHER, "coupling")),
        _count("f7-sub-7", "Which qubit's calibrations fail the most?", tally(db, CHIP, "qubit"),
               _ranking(CHIP, "qubit")),
        _count("f7-sub-8", "Which qubit racks up the most failures?", tally(db, CHIP, "qubit"),
               _ranking(CHIP, "qubit")),
        _count("f7-sub-9", "Which run had the most failed tasks?", tally(db, CHIP, "run"), _ranking(CHIP, "run")),
    ]


def _chips(db) -> list[tuple[Question, Call]]:
    a, b = (db["task_result_history"].count_documents({"chip_id": c, "status": "failed"}) for c in (CHIP, OTHER))
    win, lose = (CHIP, OTHER) if a > b else (OTHER, CHIP)
    both = {"chip_id": CHIP, "what": "failed tasks", "chip_ids": [CHIP, OTHER]}
    return [(Question("f7-chip-1", "fails most", "Which chip fails most?",
                      Truth(((a, 0), (b, 0)), winner=win, loser=lose)), ("count_in_window", both)),
            (Question("f7-chip-2", "fails most", "Which of the two chips has more failed tasks?",
                      Truth(((a, 0), (b, 0)), winner=win, loser=lose)), ("count_in_window", both))]


def _families(db) -> list[tuple[Question, Call]]:
    end = newest(db, OTHER)
    fortnight = end - timedelta(days=13)
    return [
        _count("f7-fam-1", "Among the coupling tasks, which one fails most?", tally(db, CHIP, "task", "coupling"),
               _ranking(CHIP, "task", family="coupling")),
        _count("f7-fam-2", "Of the two-qubit calibrations, which fails most often?",
               tally(db, CHIP, "task", "coupling"), _ranking(CHIP, "task", family="coupling")),
        _count("f7-fam-3", "only readout tasks: which one has the most failures?", tally(db, CHIP, "task", "readout"),
               _ranking(CHIP, "task", family="readout")),
        _count("f7-fam-4", "Single-qubit tasks only - which fails the most?", tally(db, CHIP, "task", "qubit"),
               _ranking(CHIP, "task", family="qubit")),
        _count("f7-fam-5", "which 2Q gate calibration errors most often on 144Qv2",
               tally(db, OTHER, "task", "coupling"), _ranking(OTHER, "task", family="coupling")),
        _count("f7-fam-6", "Which qubit fails most in readout calibrations?", tally(db, CHIP, "qubit", "readout"),
               _ranking(CHIP, "qubit", family="readout")),
        _count("f7-fam-7", "Which readout calibration failed most over the past two weeks on the 144-qubit chip?",
               tally(db, OTHER, "task", "readout", fortnight, end), _ranking(OTHER, "task", days=14, family="readout")),
    ]


def _rates(db) -> list[tuple[Question, Call]]:
    return [
        _rate("f7-rate-1", "Which task fails most often relative to how often it runs?", tally(db, CHIP, "task"),
              tally(db, CHIP, "task", finished=True), _ranking(CHIP, "task", rate=True)),
        _rate("f7-rate-2", "What task has the lowest success rate on 144Qv2?", tally(db, OTHER, "task"),
              tally(db, OTHER, "task", finished=True), _ranking(OTHER, "task", rate=True)),
        _rate("f7-rate-3", "Which coupling task has the highest failure rate?", tally(db, CHIP, "task", "coupling"),
              tally(db, CHIP, "task", "coupling", finished=True), _ranking(CHIP, "task", family="coupling", rate=True)),
        _rate("f7-rate-4", "Which qubit has the highest percentage of failed results?", tally(db, CHIP, "qubit"),
              tally(db, CHIP, "qubit", finished=True), _ranking(CHIP, "qubit", rate=True)),
        _rate("f7-rate-5", "Relative to how often it runs, which coupling task breaks most?",
              tally(db, CHIP, "task", "coupling"), tally(db, CHIP, "task", "coupling", finished=True),
              _ranking(CHIP, "task", family="coupling", rate=True)),
    ]


def _windows(db) -> list[tuple[Question, Call]]:
    end = newest(db, CHIP)
    since = end - timedelta(days=8)
    monday = end - timedelta(days=end.weekday())
    return [
        _count("f7-win-1", "Which task failed most in the last 5 days?",
               tally(db, CHIP, "task", None, end - timedelta(days=4), end), _ranking(CHIP, "task", days=5)),
        _count("f7-win-2", f"Since {since:%B} {since.day}, which coupling failed most?",
               tally(db, CHIP, "coupling", None, since, end), _ranking(CHIP, "coupling", from_date=f"{since:%m-%d}")),
        _count("f7-win-3", "What calibration task fails most on 144Qv2?", tally(db, OTHER, "task"),
               _ranking(OTHER, "task")),
        _count("f7-win-4", "Which task has the most errors?", tally(db, CHIP, "task"), _ranking(CHIP, "task")),
        _count("f7-win-5", "Which task failed the most this week?", tally(db, CHIP, "task", None, monday, end),
               _ranking(CHIP, "task", since_weekday="monday")),
    ]


def _never(db) -> list[tuple[Question, Call]]:
    done, failed = tally(db, CHIP, "coupling", finished=True), tally(db, CHIP, "coupling")
    never = [k for k in done if k not in failed]
    tasks_done, tasks_failed = tally(db, OTHER, "task", finished=True), tally(db, OTHER, "task")
    assert len(never) > 8 and all(tasks_failed[k] for k in tasks_done)  # too many couplings to name; no task
    return [
        (Question("f7-never-1", "never fails", "Are there couplings that never had a failure?",
                  Truth(((len(never), 0), (len(done), 0)))), _ranking(CHIP, "coupling", rate=True)),
        (Question("f7-never-2", "never fails", "Which tasks never fail on 144Qv2?",
                  Truth(patterns=(r"every task with results failed at least once",))),
         _ranking(OTHER, "task", rate=True)),
    ]


def _noted(db) -> list[tuple[Question, Call]]:
    both = {"chip_id": CHIP, "what": "failed tasks", "chip_ids": [CHIP, OTHER]}
    return [(Question("f7-note-1", "fails most", "Which chip has the highest failure rate?",
                      Truth(patterns=(NOTE, r"failure rate"))), ("count_in_window", both)),
            (Question("f7-note-2", "fails most", "Which task fails most on both chips?",
                      Truth(patterns=(NOTE, r"which task fails most"))), ("count_in_window", both))]


def planned(db) -> list[tuple[Question, Call]]:
    """Every dev question with the router call it needs."""
    return [*_subjects(db), *_chips(db), *_families(db), *_rates(db), *_windows(db), *_never(db), *_noted(db)]


def build(db) -> list[Question]:
    return [q for q, _ in planned(db)]
