"""Dev questions of the twenty-first stop's classes, in wordings of my own, over both demo chips:

1. a window of the chip's newest runs ("its last 4 runs", "the five most recent calibration runs", "6 latest
   executions"): the task results those runs hold, whatever their days; a count of results is no count of runs;
2. a limit "deeper than" / "more negative than" a negative value is below it, "shallower" / "less negative" above;
3. a correlation asked as how closely one metric follows another, or by its coefficient alone ("what's r");
4. "which 3 qubits failed most": the qubits are ranked, three of them; a state's readout said as a verb ("reads out
   the one state with fidelity above 90%"); a spread asked in a coarser unit ("T1 std in ms");
5. a range of days that writes its month once ("Nov 27-30", "27–30 Nov", "Nov 26 to 29", "November 26th through
   the 29th"): both ends, inclusive (whole UTC days, written from a stretch of the newest days inside one month);
6. a person's own words for an end ("the T1 champion", "the laggard on T2 echo") and for setting chips against each
   other ("across both chips, which has more ...");
7. a question that corrects itself ("T1 above 40 us, sorry I mean T2 echo above 40 us", "Q5, no wait, Q6"): read as
   corrected.

Each question carries the router call it needs, written by hand.  Truths are pymongo reads over the raw demo
documents: a chip's N newest runs are its N newest ``execution_history`` documents by ``start_at`` (then by
execution id), and their results the ``task_result_history`` rows carrying those execution ids.  Rows whose id holds
``-att-`` were written after the fix, to attack it.
"""

from __future__ import annotations

from datetime import date, timedelta

from tests.dev_windows16 import Case, Span, counted, end, per_chip, ranked, results, single
from tests.public_eval import CHIP, OTHER

Call = tuple[str, dict]


def newest(db, chip: str, n: int) -> list[str]:
    """The execution ids of the chip's ``n`` newest runs."""
    runs = db["execution_history"].find({"chip_id": chip}, {"execution_id": 1}).sort(
        [("start_at", -1), ("execution_id", -1)]).limit(n)
    return [r["execution_id"] for r in runs]


def in_runs(db, chip: str, n: int, status: object = "failed", **more: object) -> list[dict]:
    return list(db["task_result_history"].find({"chip_id": chip, "execution_id": {"$in": newest(db, chip, n)},
                                                "status": status, **more}))


def runs_holding_failures(db, chip: str, n: int) -> int:
    return len({d["execution_id"] for d in in_runs(db, chip, n)})


def in_one_month(db, chip: str, days: int) -> Span:
    """The newest ``days`` whole days of the chip's data that lie in one calendar month."""
    last = end(db, (chip,))
    while (last - timedelta(days=days - 1)).month != last.month:
        last -= timedelta(days=1)
    return last - timedelta(days=days - 1), last


def _mon(d: date) -> str:
    return f"{d:%b} {d.day}"


def date_cases(db) -> list[Case]:
    c, o = CHIP, OTHER
    (a, b), (p, q) = in_one_month(db, c, 4), in_one_month(db, o, 3)
    c_dates = {"from_date": f"{a:%m-%d}", "to_date": f"{b:%m-%d}"}
    o_dates = {"from_date": f"{p:%m-%d}", "to_date": f"{q:%m-%d}"}
    return [
        counted("r21-dates-1", f"How many tasks failed on 64Qv3 {_mon(a)}-{b.day}?",
                ("count_in_window", {"chip_id": c, **c_dates, "what": "failed tasks"}),
                len(results(db, c, (a, b), "failed"))),
        counted("r21-dates-2", f"How many tasks failed on 64Qv3 {a.day}–{b.day} {b:%b}?",
                ("count_in_window", {"chip_id": c, **c_dates, "what": "failed tasks"}),
                len(results(db, c, (a, b), "failed"))),
        counted("r21-dates-3", f"how many failed tasks on 144Qv2 {_mon(p)} to {q.day}",
                ("count_in_window", {"chip_id": o, **o_dates, "what": "failed tasks"}),
                len(results(db, o, (p, q), "failed"))),
        ranked("r21-dates-4", f"which task failed most on 64Qv3 from {a:%B} {a.day}th through the {b.day}th?",
               ("failure_ranking", {"chip_id": c, "by": "task", **c_dates}), results(db, c, (a, b), "failed"), "name"),
    ]


def run_cases(db) -> list[Case]:
    c, o = CHIP, OTHER
    return [
        counted("r21-runs-1", "How many failed task results did 64Qv3 log over its last 4 runs?",
                ("count_in_window", {"chip_id": c, "last_runs": 4, "what": "failed tasks"}), len(in_runs(db, c, 4))),
        ranked("r21-runs-2", "which qubit failed most on 144Qv2 in the last 3 runs?",
               ("failure_ranking", {"chip_id": o, "by": "qubit", "last_runs": 3}), single(in_runs(db, o, 3)), "qid"),
        ranked("r21-runs-3", "which task fails most across the five most recent calibration runs of 64Qv3?",
               ("failure_ranking", {"chip_id": c, "by": "task", "last_runs": 5}), in_runs(db, c, 5), "name"),
        counted("r21-runs-4", "how many failures did CheckT1 have in 64Qv3's 6 latest executions",
                ("count_in_window", {"chip_id": c, "last_runs": 6, "task_name": "CheckT1", "what": "failed tasks"}),
                len(in_runs(db, c, 6, name="CheckT1"))),
        per_chip("r21-runs-5", "Did 64Qv3 or 144Qv2 have more failed tasks in their last 3 runs?",
                 ("count_in_window", {"chip_id": c, "what": "failed tasks", "chip_ids": [c, o], "last_runs": 3}),
                 {c: len(in_runs(db, c, 3)), o: len(in_runs(db, o, 3))}),
        counted("r21-runs-6", "how many of the last 6 runs on 144Qv2 had at least one failed task?",
                ("count_in_window", {"chip_id": o, "last_runs": 6, "what": "runs with failures"}),
                runs_holding_failures(db, o, 6)),
        counted("r21-runs-7", "how many failed results did Q12 on 64Qv3 have over the last 8 runs?",
                ("count_in_window", {"chip_id": c, "last_runs": 8, "qid": "12", "what": "failed tasks"}),
                len(in_runs(db, c, 8, qid="12"))),
        ranked("r21-top-1", "which 3 qubits on 64Qv3 failed most in the last 10 runs?",
               ("failure_ranking", {"chip_id": c, "by": "qubit", "last_runs": 10, "n": 3}),
               single(in_runs(db, c, 10)), "qid"),
    ]


# (id, wording, call): questions whose call alone is the class (the filter and correlation tools are tested on their
# own figures elsewhere).
ROUTED: tuple[tuple[str, str, Call], ...] = (
    ("r21-deep-1", "On 64Qv3 which qubits have anharmonicity deeper than -310 MHz?",
     ("filter_metric", {"chip_id": CHIP, "metric_name": "anharmonicity", "below": -310.0})),
    ("r21-deep-2", "which qubits on 144Qv2 have an anharmonicty more negative than -320 MHz",
     ("filter_metric", {"chip_id": OTHER, "metric_name": "anharmonicity", "below": -320.0})),
    ("r21-deep-3", "which qubits on 64Qv3 have anharmonicity shallower than -300 MHz?",
     ("filter_metric", {"chip_id": CHIP, "metric_name": "anharmonicity", "above": -300.0})),
    ("r21-deep-4", "qubits on 64Qv3 with T1 above 50 us and anharmonicity less negative than -320 MHz",
     ("filter_metrics", {"chip_id": CHIP, "join": "and", "conditions": [
         {"metric_name": "t1", "above": 50.0}, {"metric_name": "anharmonicity", "above": -320.0}]})),
    ("r21-follow-1", "how closely does T1 follow T2 echo on 64Qv3, what's r?",
     ("correlate_metrics", {"chip_id": CHIP, "metric_a": "t1", "metric_b": "t2_echo", "method": "pearson"})),
    ("r21-follow-2", "On 64Qv3, does qubit frequency follow anharmonicity? give r",
     ("correlate_metrics", {"chip_id": CHIP, "metric_a": "qubit_frequency", "metric_b": "anharmonicity",
                            "method": "pearson"})),
    ("r21-follow-3", "64Qv3: T1 vs T2 echo, what's the r?",
     ("correlate_metrics", {"chip_id": CHIP, "metric_a": "t1", "metric_b": "t2_echo", "method": "pearson"})),
    ("r21-follow-4", "how closely does qubit frequency follow T1 on one-forty-four Q v two? r please",
     ("correlate_metrics", {"chip_id": OTHER, "metric_a": "qubit_frequency", "metric_b": "t1", "method": "pearson"})),
    ("r21-follow-5", "tell me how closely T2 echo follows T1 on 144Qv2",
     ("correlate_metrics", {"chip_id": OTHER, "metric_a": "t2_echo", "metric_b": "t1", "method": "pearson"})),
    ("r21-state-1", "which of Q16-Q23 on 64Qv3 read out the one state with fidelity above 90% and have T1 above 25 us",
     ("filter_metrics", {"chip_id": CHIP, "join": "and", "conditions": [
         {"metric_name": "readout_fidelity_1", "above": 90.0}, {"metric_name": "t1", "above": 25.0}],
         "qubits": list(range(16, 24))})),
    ("r21-state-2", "on 144Qv2, which of Q40 to Q47 reads out the zero state with a fidelity over 95% and have T2 echo "
     "above 20 us?", ("filter_metrics", {"chip_id": OTHER, "join": "and", "conditions": [
         {"metric_name": "readout_fidelity_0", "above": 95.0}, {"metric_name": "t2_echo", "above": 20.0}],
         "qubits": list(range(40, 48))})),
    ("r21-state-3", "which of Q8-Q15 on 64Qv3 read the |1> state with a fidelity under 92% and have T1 above 30 us",
     ("filter_metrics", {"chip_id": CHIP, "join": "and", "conditions": [
         {"metric_name": "readout_fidelity_1", "below": 92.0}, {"metric_name": "t1", "above": 30.0}],
         "qubits": list(range(8, 16))})),
    ("r21-ms-1", "T1 std on 64Qv3 in ms", ("metric_spread", {"chip_id": CHIP, "metric_name": "t1", "lead": "std",
                                                            "unit": "ms"})),
    ("r21-ms-2", "what is the range of T1 on 144Qv2, in milliseconds?",
     ("metric_spread", {"chip_id": OTHER, "metric_name": "t1", "lead": "range", "unit": "ms"})),
    ("r21-fix-1", "which qubits on 64Qv3 have T1 above 40 us, sorry I mean T2 echo above 40 us?",
     ("filter_metric", {"chip_id": CHIP, "metric_name": "t2_echo", "above": 40.0})),
    ("r21-fix-2", "median T1 on 64Qv3 - scratch that, 144Qv2", ("get_chip_summary", {"chip_id": OTHER,
                                                                                     "param_names": ["t1"]})),
    ("r21-fix-3", "what's the T1 of Q5, no wait, Q6, on 64Qv3?",
     ("get_qubit_params", {"chip_id": CHIP, "qid": "6", "param_names": ["t1"]})),
    ("r21-fix-4", "T1 of Q5 on 64Qv3 (correction: T2 echo)",
     ("get_qubit_params", {"chip_id": CHIP, "qid": "5", "param_names": ["t2_echo"]})),
    ("r21-end-1", "On 64Qv3, which qubit is the T1 champion?",
     ("rank_metric", {"chip_id": CHIP, "metric_name": "t1", "order": "highest", "n": 1})),
    ("r21-end-2", "who is the laggard on T2 echo on 144Qv2?",
     ("rank_metric", {"chip_id": OTHER, "metric_name": "t2_echo", "order": "lowest", "n": 1})),
    ("r21-which-1", "Across both chips, which has more qubits with readout fidelity under 90%?",
     ("compare_chips", {"metric_name": "average_readout_fidelity", "below": 90.0})),
    ("r21-top-2", "which three qubits on 64Qv3 failed most?",
     ("failure_ranking", {"chip_id": CHIP, "by": "qubit", "n": 3})),
    ("r21-top-3", "which 2 couplings on 64Qv3 failed most often?",
     ("failure_ranking", {"chip_id": CHIP, "by": "coupling", "n": 2})),
)
