"""Dev questions of the twenty-second stop's classes, in wordings of my own, over both demo chips:

1. a share, a count or a spread over a run of qubits written "between Qa and Qb" (or with "till", "only"): over the
   qubits of the run, never a comparison of the run's two ends;
2. a limit named as a value and compared to later ("setting the bar at forty microseconds ... clear it", "cutoff of
   30 us ... fall below it", "our spec is T1 = 25 us ... don't meet it", "99% as the threshold ... misses the bar");
3. which subject fails most, asked by an idiom ("the chief culprit ... with its tally", "kept failing hardest",
   "the main offender");
4. the ask inside a to-do list of other chores ("To do today:", "- order helium"): the chore's words are no window,
   no task, no subject.

Each question carries the router call it needs, written by hand; truths are pymongo reads over the raw demo
documents: a qubit's value is its newest completed, non-excluded result holding the metric (``latest_values``), a
share is over the run's qubits with a value, and a failure is a ``task_result_history`` row with status ``failed``.
"""

from __future__ import annotations

from collections import Counter

from tests.dev_windows16 import Case, coupling, single
from tests.eval_score import Truth
from tests.public_eval import CHIP, OTHER, Question, latest_values

Call = tuple[str, dict]
# (metric, side) -> whether a qubit's value passes a limit: "clear"/"make" are the metric's better side.
_PASSES = {"above": lambda v, lim: v > lim, "below": lambda v, lim: v < lim,
           "at least": lambda v, lim: v >= lim}


def in_run(db, chip: str, metric: str, low: int, high: int) -> list[float]:
    """The run's qubits' values (those with one)."""
    held = latest_values(db, chip, metric)
    return [v for q, v in held.items() if v is not None and low <= int(q) <= high]


def on_chip(db, chip: str, metric: str) -> list[float]:
    return [v for v in latest_values(db, chip, metric).values() if v is not None]


def passing(values: list[float], side: str, limit: float) -> int:
    return sum(1 for v in values if _PASSES[side](v, limit))


def _share(qid: str, text: str, call: Call, values: list[float], side: str, limit: float) -> Case:
    n = passing(values, side, limit)
    return Question(qid, "percentage", text, Truth(((round(100 * n / len(values), 1), 0.05),))), call, \
        {"count": n, "with_data": len(values)}


def _count(qid: str, text: str, call: Call, values: list[float], side: str, limit: float) -> Case:
    n = passing(values, side, limit)
    return Question(qid, "count", text, Truth(((n, 0),))), call, {"count": n, "with_data": len(values)}


def failed(db, chip: str) -> list[dict]:
    return list(db["task_result_history"].find({"chip_id": chip, "status": "failed"}))


def _ranked(qid: str, text: str, call: Call, docs: list[dict], key: str) -> Case:
    top = Counter(d[key] for d in docs).most_common(1)[0][1]
    return Question(qid, "fails most", text, Truth(((top, 0),))), call, {"top": top, "total": len(docs)}


def set_cases(db) -> list[Case]:
    c, o = CHIP, OTHER
    return [
        _share("a22-set-1", "Between Q32 and Q63 on 64Qv3, what percentage of qubits have T1 above 40 us?",
               ("filter_metric", {"chip_id": c, "metric_name": "t1", "above": 40.0, "qubits": list(range(32, 64))}),
               in_run(db, c, "t1", 32, 63), "above", 40.0),
        _count("a22-set-2", "On 144Qv2, between Q100 and Q143, how many qubits have T2 echo over 30 us?",
               ("filter_metric", {"chip_id": o, "metric_name": "t2_echo", "above": 30.0,
                                  "qubits": list(range(100, 144))}),
               in_run(db, o, "t2_echo", 100, 143), "above", 30.0),
        _share("a22-set-3", "for Q8 till Q23 only on 64Qv3: readout fidelity > 95% for what share?",
               ("filter_metric", {"chip_id": c, "metric_name": "average_readout_fidelity", "above": 95.0,
                                  "qubits": list(range(8, 24))}),
               in_run(db, c, "average_readout_fidelity", 8, 23), "above", 95.0),
        _share("a22-set-4", "qubits 40 to 63 on 64Qv3 only, T1 beyond 50 us, in percent?",
               ("filter_metric", {"chip_id": c, "metric_name": "t1", "above": 50.0, "qubits": list(range(40, 64))}),
               in_run(db, c, "t1", 40, 63), "above", 50.0),
    ]


def named_cases(db) -> list[Case]:
    c, o = CHIP, OTHER
    return [
        _share("a22-bar-1", "Setting the bar at forty microseconds for T1 on 64Qv3, what fraction of qubits clear it?",
               ("filter_metric", {"chip_id": c, "metric_name": "t1", "above": 40.0}), on_chip(db, c, "t1"),
               "above", 40.0),
        _count("a22-bar-2", "On 144Qv2, with a 95% bar on readout fidelity, how many qubits make the cut?",
               ("filter_metric", {"chip_id": o, "metric_name": "average_readout_fidelity", "above": 95.0,
                                  "including": ["above"]}),
               on_chip(db, o, "average_readout_fidelity"), "at least", 95.0),
        _count("a22-bar-3", "Cutoff of 30 us for T2 echo on 64Qv3: how many qubits fall below it?",
               ("filter_metric", {"chip_id": c, "metric_name": "t2_echo", "below": 30.0}),
               on_chip(db, c, "t2_echo"), "below", 30.0),
        _count("a22-bar-4", "Our spec on 144Qv2 is T1 = 25 us. How many qubits don't meet it?",
               ("filter_metric", {"chip_id": o, "metric_name": "t1", "below": 25.0}), on_chip(db, o, "t1"),
               "below", 25.0),
        _share("a22-bar-5", "Treat 99% as the threshold for x90 gate fidelity on 64Qv3; what share misses the bar?",
               ("filter_metric", {"chip_id": c, "metric_name": "x90_gate_fidelity", "below": 99.0}),
               on_chip(db, c, "x90_gate_fidelity"), "below", 99.0),
    ]


def failure_cases(db) -> list[Case]:
    c, o = CHIP, OTHER
    return [
        _ranked("a22-fail-1", "Which task is the chief culprit for failures on 64Qv3, with its tally?",
                ("failure_ranking", {"chip_id": c, "by": "task"}), failed(db, c), "name"),
        _ranked("a22-fail-2", "On 144Qv2 which qubit kept failing hardest?",
                ("failure_ranking", {"chip_id": o, "by": "qubit"}), single(failed(db, o)), "qid"),
        _ranked("a22-fail-3", "name the main offender among the coupling tasks of 64Qv3, and how often it failed",
                ("failure_ranking", {"chip_id": c, "by": "task", "family": "coupling"}), coupling(failed(db, c)),
                "name"),
        _ranked("a22-fail-4", "Which two-qubit task on 144Qv2 is the worst offender for failures?",
                ("failure_ranking", {"chip_id": o, "by": "task", "family": "coupling"}), coupling(failed(db, o)),
                "name"),
    ]


# (id, wording, call): the ask inside a list of chores.
CHORES: tuple[tuple[str, str, Call], ...] = (
    ("a22-chore-1", "To do today:\n- restart the AWG\n- which 3 qubits on 64Qv3 have the highest T2 echo?\n"
     "- order helium", ("rank_metric", {"chip_id": CHIP, "metric_name": "t2_echo", "order": "highest", "n": 3})),
    ("a22-chore-2", "Chores for the shift:\n1. refill the dewar\n2. how many qubits on 144Qv2 have T1 above 40 us?\n"
     "3. email the facility manager", ("filter_metric", {"chip_id": OTHER, "metric_name": "t1", "above": 40.0})),
    ("a22-chore-3", "TODO today: which qubit on 64Qv3 has the lowest T1?",
     ("rank_metric", {"chip_id": CHIP, "metric_name": "t1", "order": "lowest", "n": 1})),
    ("a22-chore-4", "- ping facilities about the chiller\n- what's the median T1 on 144Qv2?\n"
     "- book the meeting room for today", ("get_chip_summary", {"chip_id": OTHER, "param_names": ["t1"]})),
    ("a22-chore-5", "Reminders:\n* calibrate the TWPA pump\n* which task on 64Qv3 failed most since last Monday?\n"
     "* lunch at noon", ("failure_ranking", {"chip_id": CHIP, "by": "task", "since_weekday": "monday"})),
)


def planned(db) -> list[Case]:
    return set_cases(db) + named_cases(db) + failure_cases(db)
