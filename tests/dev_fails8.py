"""Dev questions that ask which qubit, coupling or run fails most (or never fails), and a chip's failure rate, in
registers the seventh set did not use: "worst qubit for failures", "keeps failing", "top 5 qubits by failures",
"failures per qubit", "which calibration run went worst", "which of our runs", a pair named either way round, both
chips, with and without a window ("this week", "last 10 days", "since <date>"), by count and by rate, per family.

Each question carries the router call it needs (tool and every argument), for ``tests/test_router_fails8.py``.
Every truth is a pymongo read written here over the raw demo documents: a failure is a ``task_result_history``
document with status "failed", a finished one "completed" or "failed"; a qubit's results are those whose ``qid``
has no "-", a coupling's those with one ("36-22": the demo stores one direction of each pair); a run is an
``execution_id``.  Windows are whole days ending on the chip's newest ``execution_history`` start ("last 10 days":
that day and the 9 before; "this week": from that week's Monday; "since <date>": from that day).
Ties: every subject tied at the top count (or rate) must be named, each with the count.
"""

from __future__ import annotations

from collections import Counter
from datetime import date, datetime, timedelta

from tests.dev_fails7 import label
from tests.eval_score import Truth
from tests.public_eval import CHIP, OTHER, Question

Call = tuple[str, dict]
READOUT = frozenset({"CheckResonatorSpectroscopy", "ReadoutClassification"})  # the demo's readout tasks, by hand


def last_day(db, chip: str) -> date:
    newest = db["execution_history"].find({"chip_id": chip}).sort([("start_at", -1)]).limit(1)
    return next(newest)["start_at"].date()


def _since(first: date | None) -> dict:
    return {} if first is None else {"start_at": {"$gte": datetime(first.year, first.month, first.day)}}


def failed_by(db, chip: str, by: str, first: date | None = None, family: str | None = None,
              statuses: tuple[str, ...] = ("failed",)) -> Counter:
    """Results of ``statuses`` per qubit, coupling or run, from ``first`` on (every stored day when None)."""
    query = {"chip_id": chip, "status": {"$in": list(statuses)}, **_since(first)}
    if family == "readout":
        query["name"] = {"$in": sorted(READOUT)}
    elif family is not None:
        query["task_type"] = family
    out: Counter = Counter()
    for doc in db["task_result_history"].find(query, {"qid": 1, "execution_id": 1}):
        if by == "run":
            out[doc["execution_id"]] += 1
        elif ("-" in doc["qid"]) == (by == "coupling"):
            out[doc["qid"]] += 1
    return out


def finished_by(db, chip: str, by: str, first: date | None = None) -> Counter:
    return failed_by(db, chip, by, first, statuses=("completed", "failed"))


def top(counts: Counter) -> tuple[list[str], int]:
    """Every subject tied at the highest count, and the count."""
    best = max(counts.values())
    return sorted(k for k, n in counts.items() if n == best), best


def top_rate(failed: Counter, finished: Counter) -> tuple[list[str], int]:
    """Every subject tied at the highest failed-over-finished share, and its failed count (ties at one rate with
    more failures first, as the sentence orders them: the first one's count)."""
    best = max(failed[k] / finished[k] for k in failed)
    named = sorted((k for k in failed if failed[k] / finished[k] == best), key=lambda k: -failed[k])
    return named, failed[named[0]]


def _q(qid: str, text: str, counts: Counter, call: Call) -> tuple[Question, Call]:
    names, n = top(counts)
    return Question(qid, "fails most", text, Truth(((n, 0),), patterns=tuple(label(k) for k in names))), call


def _r(qid: str, text: str, failed: Counter, finished: Counter, call: Call) -> tuple[Question, Call]:
    names, n = top_rate(failed, finished)
    return Question(qid, "fails most", text, Truth(((n, 0),), patterns=tuple(label(k) for k in names))), call


def _rank(chip: str, by: str, **extra: object) -> Call:
    return "failure_ranking", {"chip_id": chip, "by": by, **extra}


def _subjects(db) -> list[tuple[Question, Call]]:
    return [
        _q("f8-sub-1", "which qubit fails most", failed_by(db, CHIP, "qubit"), _rank(CHIP, "qubit")),
        _q("f8-sub-2", "Which qubit has had the most failed calibrations on 144Qv2?", failed_by(db, OTHER, "qubit"),
           _rank(OTHER, "qubit")),
        _q("f8-sub-3", "What's the worst qubit for failures?", failed_by(db, CHIP, "qubit"), _rank(CHIP, "qubit")),
        _q("f8-sub-4", "Which qubit keeps failing?", failed_by(db, CHIP, "qubit"), _rank(CHIP, "qubit")),
        _q("f8-sub-5", "Which qubit fails calibration most often on the 144-qubit chip?",
           failed_by(db, OTHER, "qubit"), _rank(OTHER, "qubit")),
        _q("f8-sub-6", "Top 5 qubits by failures on 144Qv2", failed_by(db, OTHER, "qubit"),
           _rank(OTHER, "qubit", n=5)),
        _q("f8-sub-7", "How many failures per qubit?", failed_by(db, CHIP, "qubit"), _rank(CHIP, "qubit")),
        _q("f8-sub-8", "most unreliable coupling", failed_by(db, CHIP, "coupling"), _rank(CHIP, "coupling")),
        _q("f8-sub-9", "Which coupling fails the most on 144Qv2?", failed_by(db, OTHER, "coupling"),
           _rank(OTHER, "coupling")),
        _q("f8-sub-10", "Which qubit pair has the most failed calibrations?", failed_by(db, CHIP, "coupling"),
           _rank(CHIP, "coupling")),
        _q("f8-sub-11", "Which run had the most failures?", failed_by(db, CHIP, "run"), _rank(CHIP, "run")),
        _q("f8-sub-12", "Which calibration run went worst?", failed_by(db, CHIP, "run"), _rank(CHIP, "run")),
        _q("f8-sub-13", "Which of our runs on 144Qv2 had the most failed tasks?", failed_by(db, OTHER, "run"),
           _rank(OTHER, "run")),
        _q("f8-sub-14", "In which execution did the most tasks fail?", failed_by(db, CHIP, "run"), _rank(CHIP, "run")),
    ]


def _windows(db) -> list[tuple[Question, Call]]:
    end, other_end = last_day(db, CHIP), last_day(db, OTHER)
    monday, other_monday = end - timedelta(days=end.weekday()), other_end - timedelta(days=other_end.weekday())
    since = end - timedelta(days=12)
    other_since = other_end - timedelta(days=8)
    return [
        _q("f8-win-1", "worst qubit for failures this week", failed_by(db, CHIP, "qubit", monday),
           _rank(CHIP, "qubit", since_weekday="monday")),
        _q("f8-win-2", "Which qubit failed the most in the last 10 days on 144Qv2?",
           failed_by(db, OTHER, "qubit", other_end - timedelta(days=9)), _rank(OTHER, "qubit", days=10)),
        _q("f8-win-3", f"Since {since:%B} {since.day}, which coupling had the most failures?",
           failed_by(db, CHIP, "coupling", since), _rank(CHIP, "coupling", from_date=f"{since:%m-%d}")),
        _q("f8-win-4", "which run had the most failed tasks in the last 10 days",
           failed_by(db, CHIP, "run", end - timedelta(days=9)), _rank(CHIP, "run", days=10)),
        _q("f8-win-5", "Most unreliable coupling on 144Qv2 this week?", failed_by(db, OTHER, "coupling", other_monday),
           _rank(OTHER, "coupling", since_weekday="monday")),
        _q("f8-win-6", f"which qubit failed the most calibrations since {other_since:%Y-%m-%d} on 144Qv2",
           failed_by(db, OTHER, "qubit", other_since), _rank(OTHER, "qubit", from_date=f"{other_since:%Y-%m-%d}")),
    ]


def _rates(db) -> list[tuple[Question, Call]]:
    ten = last_day(db, OTHER) - timedelta(days=9)
    return [
        _r("f8-rate-1", "Which qubit has the highest failure rate?", failed_by(db, CHIP, "qubit"),
           finished_by(db, CHIP, "qubit"), _rank(CHIP, "qubit", rate=True)),
        _r("f8-rate-2", "which coupling has the highest failure rate in the last 10 days on 144Qv2",
           failed_by(db, OTHER, "coupling", ten), finished_by(db, OTHER, "coupling", ten),
           _rank(OTHER, "coupling", days=10, rate=True)),
        _r("f8-rate-3", "Which calibration run had the highest failure rate?", failed_by(db, CHIP, "run"),
           finished_by(db, CHIP, "run"), _rank(CHIP, "run", rate=True)),
    ]


def _families(db) -> list[tuple[Question, Call]]:
    return [
        _q("f8-fam-1", "Which qubit had the most failed readout calibrations?",
           failed_by(db, CHIP, "qubit", family="readout"), _rank(CHIP, "qubit", family="readout")),
        _q("f8-fam-2", "Among the coupling tasks, which qubit pair fails most on 144Qv2?",
           failed_by(db, OTHER, "coupling", family="coupling"), _rank(OTHER, "coupling", family="coupling")),
    ]


def _never(db, qid: str, text: str, chip: str, by: str) -> tuple[Question, Call]:
    finished, failed = finished_by(db, chip, by), failed_by(db, chip, by)
    never = sorted(k for k in finished if not failed[k])
    truth = Truth(patterns=tuple(label(k) for k in never)) if len(never) <= 8 else \
        Truth(((len(never), 0), (len(finished), 0)))
    return Question(qid, "never fails", text, truth), _rank(chip, by, rate=True)


def _chip_rate(db, qid: str, text: str, chip: str, first: date | None, window: dict) -> tuple[Question, Call]:
    query = {"chip_id": chip, **_since(first)}
    n = db["task_result_history"].count_documents({**query, "status": "failed"})
    total = db["task_result_history"].count_documents({**query, "status": {"$in": ["completed", "failed"]}})
    truth = Truth(((n, 0), (total, 0), (round(100 * n / total, 1), 0.051)))
    return Question(qid, "percentage", text, truth), ("count_in_window", {"chip_id": chip, "what": "failed tasks",
                                                                         **window})


def _never_and_rates(db) -> list[tuple[Question, Call]]:
    end, other_end = last_day(db, CHIP), last_day(db, OTHER)
    return [
        _never(db, "f8-never-1", "Which qubits never failed?", CHIP, "qubit"),
        _never(db, "f8-never-2", "which qubits have never had a failed calibration on 144Qv2", OTHER, "qubit"),
        _never(db, "f8-never-3", "Which couplings on 144Qv2 haven't failed?", OTHER, "coupling"),
        _chip_rate(db, "f8-chip-1", "What is the failure rate of the chip?", CHIP, None, {}),
        _chip_rate(db, "f8-chip-2", "What's the failure rate on 144Qv2 this week?", OTHER,
                   other_end - timedelta(days=other_end.weekday()), {"since_weekday": "monday"}),
        _chip_rate(db, "f8-chip-3", "failure rate on 64Qv3 in the last 10 days", CHIP, end - timedelta(days=9),
                   {"days": 10}),
    ]


def planned(db) -> list[tuple[Question, Call]]:
    """Every dev question with the router call it needs."""
    return [*_subjects(db), *_windows(db), *_rates(db), *_families(db), *_never_and_rates(db)]


def build(db) -> list[Question]:
    return [q for q, _ in planned(db)]
