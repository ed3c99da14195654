"""Dev questions for the tenth stop's failure class: "which task/qubit/coupling/run fails most" answered by a call of
another kind (a listing, a chip summary, a ranking of another subject) or by none; "how many coupler (qubit)
calibrations failed" over a window, which a count over every subject misses; and counts of results kept out of use,
in every wording of QDash's ``excluded`` flag ("left out", "not used", "dropped", "flagged out", "omitted").

Each question carries the router call it needs, written by hand.  Every truth is a pymongo read written here over the
raw ``task_result_history`` documents: a failure is a document with status "failed" on the chip, a coupling's one whose
``qid`` holds a "-", a qubit's one whose ``qid`` does not; an excluded result is one with ``excluded: true`` (any
status); windows are whole days ending on the day of the chip's newest ``execution_history`` start (``days=N``: that
day and the N-1 before it; "this week": from Monday of that day's week).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from tests.dev_fails8 import last_day
from tests.dev_fails9 import Call, _q, _rank, failures
from tests.eval_score import Truth
from tests.public_eval import CHIP, OTHER, Question


def _start(first: date | None) -> dict:
    return {} if first is None else {"start_at": {"$gte": datetime(first.year, first.month, first.day)}}


def failed_of_kind(db, chip: str, kind: str, first: date | None = None) -> int:
    """Failed results of couplings (``qid`` with "-") or of qubits on ``chip`` from ``first`` on."""
    docs = db["task_result_history"].find({"chip_id": chip, "status": "failed", **_start(first)})
    return sum(1 for d in docs if ("-" in str(d["qid"])) == (kind == "coupling"))


def excluded(db, chip: str, first: date | None = None) -> int:
    """Task results a person marked excluded on ``chip`` from ``first`` on (any status)."""
    return db["task_result_history"].count_documents({"chip_id": chip, "excluded": True, **_start(first)})


def _first(db, chip: str, days: int | None = None, week: bool = False) -> date | None:
    end = last_day(db, chip)
    return end - timedelta(days=end.weekday()) if week else None if days is None else end - timedelta(days=days - 1)


def _window(days: int | None, week: bool) -> dict:
    return {"since_weekday": "monday"} if week else {} if days is None else {"days": days}


def _kind(db, qid: str, text: str, chip: str, kind: str, days: int | None = None, week: bool = False
          ) -> tuple[Question, Call]:
    n = failed_of_kind(db, chip, kind, _first(db, chip, days, week))
    call = ("failure_ranking", {"chip_id": chip, "by": kind, **_window(days, week)})
    return Question(qid, "window count", text, Truth(((n, 0),))), call


def _excl(db, qid: str, text: str, chip: str, days: int | None = None, week: bool = False) -> tuple[Question, Call]:
    n = excluded(db, chip, _first(db, chip, days, week))
    call = ("count_in_window", {"chip_id": chip, "what": "excluded tasks", **_window(days, week)})
    return Question(qid, "window count", text, Truth(((n, 0),))), call


def _most(db) -> list[tuple[Question, Call]]:
    """Rankings a small model answers from another kind of call (the turn tests script those calls)."""
    end = last_day(db, OTHER)
    return [
        _q("f10-most-1", "Which task has failed the most times?", failures(db, CHIP, "task"), _rank(CHIP, "task")),
        _q("f10-most-2", "Which qubit failed most often on 144Qv2?", failures(db, OTHER, "qubit"),
           _rank(OTHER, "qubit")),
        _q("f10-most-3", "Which coupling had the most failures?", failures(db, CHIP, "coupling"),
           _rank(CHIP, "coupling")),
        _q("f10-most-4", "Which run had the most failed tasks on 144Qv2?", failures(db, OTHER, "run"),
           _rank(OTHER, "run")),
        _q("f10-most-5", "Which coupler failed most in the last 7 days on 144Qv2?",
           failures(db, OTHER, "coupling", end - timedelta(days=6)), _rank(OTHER, "coupling", days=7)),
        _q("f10-most-6", "Which task failed most often this week?",
           failures(db, CHIP, "task", _first(db, CHIP, week=True)), _rank(CHIP, "task", since_weekday="monday")),
    ]


def _kinds(db) -> list[tuple[Question, Call]]:
    return [
        _kind(db, "f10-kind-1", "How many coupling calibrations failed in the last 5 days?", CHIP, "coupling", 5),
        _kind(db, "f10-kind-2", "How many coupler tasks failed since Monday?", CHIP, "coupling", week=True),
        _kind(db, "f10-kind-3", "How many coupling failures were there in the last 7 days on 144Qv2?", OTHER,
              "coupling", 7),
        _kind(db, "f10-kind-4", "How many qubit calibrations failed in the last 3 days?", CHIP, "qubit", 3),
        _kind(db, "f10-kind-5", "How many two-qubit calibrations failed this week on 144Qv2?", OTHER, "coupling",
              week=True),
        _kind(db, "f10-kind-6", "How many single-qubit calibrations failed in the last 4 days on 144Qv2?", OTHER,
              "qubit", 4),
        _kind(db, "f10-kind-7", "How many CZ tasks failed in the last 10 days?", CHIP, "coupling", 10),
    ]


def _excluded(db) -> list[tuple[Question, Call]]:
    return [
        _excl(db, "f10-excl-1", "How many task results were left out in the last 7 days?", CHIP, 7),
        _excl(db, "f10-excl-2", "How many results were excluded from the fit this week?", CHIP, week=True),
        _excl(db, "f10-excl-3", "How many task results are marked excluded on 144Qv2?", OTHER),
        _excl(db, "f10-excl-4", "How many results were not used in the last 10 days?", CHIP, 10),
        _excl(db, "f10-excl-5", "How many task results were dropped since Monday?", CHIP, week=True),
        _excl(db, "f10-excl-6", "How many results were flagged out?", CHIP),
        _excl(db, "f10-excl-7", "How many results were omitted on 144Qv2 in the last 3 days?", OTHER, 3),
        _excl(db, "f10-excl-8", "How many calibration results got ignored this week?", CHIP, week=True),
        _excl(db, "f10-excl-9", "How many unused task results are there on 144Qv2?", OTHER),
        _excl(db, "f10-excl-10", "How many results are not counted in the last 4 days?", CHIP, 4),
        _excl(db, "f10-excl-11", "How many fits were excluded?", CHIP),
    ]


def _attacks(db) -> list[tuple[Question, Call]]:
    """Written after the fix, to attack it: other kind words, windows, chips and excluded wordings."""
    return [
        _kind(db, "f10-att-1", "How many edge calibrations failed in the last 6 days on 144Qv2?", OTHER, "coupling",
              6),
        _kind(db, "f10-att-2", "How many failures on qubit pairs in the last 2 days?", CHIP, "coupling", 2),
        _kind(db, "f10-att-3", "How many 1Q tasks failed this week?", CHIP, "qubit", week=True),
        _kind(db, "f10-att-4", "How many ZX90 calibrations failed in the last 8 days on 144Qv2?", OTHER, "coupling",
              8),
        _excl(db, "f10-att-5", "How many results were disregarded in the last 9 days on 144Qv2?", OTHER, 9),
        _excl(db, "f10-att-6", "How many task results were filtered out since Monday on 144Qv2?", OTHER, week=True),
        _excl(db, "f10-att-7", "How many calibration results were taken out in the last 6 days?", CHIP, 6),
        _excl(db, "f10-att-8", "How many task results on 144Qv2 were never used?", OTHER),
        _excl(db, "f10-att-9", "How many results were ruled out in the last 5 days?", CHIP, 5),
    ]


def planned(db) -> list[tuple[Question, Call]]:
    """Every dev question with the router call it needs."""
    return [*_most(db), *_kinds(db), *_excluded(db), *_attacks(db)]


def build(db) -> list[Question]:
    return [q for q, _ in planned(db)]
