"""Dev questions that state a narrower scope (a time window, one task, one qubit): the answer must be the count or
ranking in that scope, not the chip's all-time one.

Truths are pymongo queries written here on the raw demo documents (``task_result_history``, ``execution_history``);
windows are whole UTC days ending with the day of the chip's newest run (``tests.dev_shapes_b._days``).
"""

from __future__ import annotations

from collections import Counter

from tests.dev_shapes_b import _days
from tests.eval_score import Truth
from tests.public_eval import CHIP, Question


def failures(db, days: int | None = None, weekday: int | None = None, **narrow: str) -> list[dict]:
    """Failed task results on the dev chip in the window, narrowed by ``qid`` / ``name``."""
    return list(db["task_result_history"].find({"chip_id": CHIP, "status": "failed", **narrow,
                                                **_days(db, CHIP, days, weekday)}))


def runs_holding(db, days: int | None = None, weekday: int | None = None, **narrow: str) -> int:
    """Started runs in the window that hold a task result narrowed by ``qid`` / ``name``."""
    held = {d["execution_id"] for d in db["task_result_history"].find({"chip_id": CHIP, **narrow})}
    return db["execution_history"].count_documents({"chip_id": CHIP, "status": {"$ne": "scheduled"},
                                                    "execution_id": {"$in": sorted(held)},
                                                    **_days(db, CHIP, days, weekday)})


def busiest_qubit(db) -> str:
    """The qubit with the most failures over the last week (a qubit the narrowed ranking has something to say of)."""
    return Counter(d["qid"] for d in failures(db, 7)).most_common(1)[0][0]


def _fails_most(db) -> list[Question]:
    q = busiest_qubit(db)
    rows = [("Over the previous 10 days, name the task with the highest failure tally.", 10, None, {}),
            ("Which task has failed the most since Tuesday?", None, 1, {}),
            (f"Which task fails most on qubit {int(q)} in the last week?", 7, None, {"qid": q}),
            ("Which task broke most often during the last 3 days?", 3, None, {})]
    out = []
    for i, (text, days, weekday, narrow) in enumerate(rows):
        failed = failures(db, days, weekday, **narrow)
        counts = Counter(d["name"] for d in failed).most_common()
        top = "|".join(name for name, n in counts if n == counts[0][1])
        out.append(Question(f"sc-fails-{i + 1}", "fails most", text,
                            Truth(((counts[0][1], 0), (len(failed), 0)), patterns=(f"(?:{top})",))))
    return out


def _task_failures(db) -> list[Question]:
    rows = [("What number of CheckRamsey failures happened during the previous 5 days?", "CheckRamsey", 5, None),
            ("Count the CheckT1 failures in the past week.", "CheckT1", 7, None),
            ("Since Monday, how often has CheckQubitSpectroscopy failed?", "CheckQubitSpectroscopy", None, 0)]
    return [Question(f"sc-task-{i + 1}", "window count", text, Truth(((len(failures(db, days, weekday, name=task)), 0),)))
            for i, (text, task, days, weekday) in enumerate(rows)]


def _qubit_runs(db) -> list[Question]:
    rows = [("How many runs touched Q05 in the last 6 days?", "5", 6, None),
            ("How many executions included qubit 12 over the previous 14 days?", "12", 14, None),
            ("Since Wednesday, how many calibration runs had a result for Q30?", "30", None, 2)]
    out = [Question(f"sc-runs-{i + 1}", "window count", text, Truth(((runs_holding(db, days, weekday, qid=q), 0),)))
           for i, (text, q, days, weekday) in enumerate(rows)]
    task = "CheckResonatorSpectroscopy"
    return out + [Question("sc-runs-4", "window count", f"How many calibration runs included {task} during the "
                           "last fortnight?", Truth(((runs_holding(db, 14, name=task), 0),)))]


def _qubit_counts(db) -> list[Question]:
    rows = [("How many failed tasks did Q07 have in the last 9 days?", "7", 9, None),
            ("Count the failures on Q03 over the past fortnight.", "3", 14, None),
            ("How many tasks failed on qubit 29 since Thursday?", "29", None, 3)]
    return [Question(f"sc-qubit-{i + 1}", "window count", text,
                     Truth(((len(failures(db, days, weekday, qid=q)), 0),)))
            for i, (text, q, days, weekday) in enumerate(rows)]


def build(db) -> list[Question]:
    """The scope dev questions with their truths."""
    return _fails_most(db) + _task_failures(db) + _qubit_runs(db) + _qubit_counts(db)
