"""Dev questions for "no wrong answer without a visible note": each question with one call, the one a turn could
rest its answer on, and the notes the person must read under that answer, written by hand (none when the call covers
every part of the question).  One or more questions per part of a question the coverage check
(:mod:`copilot_core.checking.coverage`) holds: N of a top N, each condition of a filter, a window (last N days, a
weekday, dates), a task, one qubit, the kind of subject (qubits or couplings), the statistic a shape asks for, and
the unit a value is asked in; each part both covered and missed.  Wordings are my own; those after ATTACK were
written after the check, to break it.

A note's figures come from the question as parsed and from the call's arguments, never from the data: "names 1"
is the one qubit a ranking of ``n=1`` returns, "in GHz" the unit a qubit frequency is stored in.
"""

from __future__ import annotations

from dataclasses import dataclass

from tests.public_eval import CHIP


@dataclass(frozen=True)
class Case:
    id: str
    text: str
    call: tuple[str, dict]  # chip_id added by the test
    notes: tuple[str, ...]  # the coverage notes, in the table's order


def _not(asks: str, gave: str) -> str:
    return f"_Not answered: the question asks for {asks}; {gave}._"


def _scope(what: str) -> str:
    return f"_Scope: the figures above are not limited to {what}, which the question asked about._"


SPREAD = "the spread (standard deviation, range, IQR or coefficient of variation)"
T1_50_T2E_40 = [{"metric_name": "t1", "below": 50}, {"metric_name": "t2_echo", "above": 40}]

CASES: tuple[Case, ...] = (
    # N of a top N
    Case("n-covered", "What are the 5 lowest T1 qubits?", ("rank_metric", {"metric_name": "t1", "order": "lowest",
                                                                          "n": 5}), ()),
    Case("n-one", "What are the 5 lowest T1 qubits?", ("rank_metric", {"metric_name": "t1", "order": "lowest",
                                                                      "n": 1}),
         (_not("the 5 lowest", "the answer names 1"),)),
    Case("n-summary", "Which three qubits have the worst T2 echo?", ("get_chip_summary", {}),
         (_not("the 3 worst", "no call ranked them"),)),
    Case("n-top-covered", "List the top 4 qubits by readout fidelity",
         ("rank_metric", {"metric_name": "average_readout_fidelity", "order": "highest", "n": 4}), ()),
    Case("n-filter", "Give me the ten highest T1 values", ("filter_metric", {"metric_name": "t1", "above": 50}),
         (_not("the 10 highest", "no call ranked them"),)),
    # each condition
    Case("cond-both", "How many qubits have T1 below 50 us and T2 echo above 40 us?",
         ("filter_metrics", {"conditions": T1_50_T2E_40}), ()),
    Case("cond-one", "How many qubits have T1 below 50 us and T2 echo above 40 us?",
         ("filter_metric", {"metric_name": "t1", "below": 50}),
         (_not("T2 echo above 40 μs", "the answer applies only T1 below 50 μs"),)),
    Case("cond-single", "Which qubits have T1 under 40 us?", ("filter_metric", {"metric_name": "t1", "below": 40}), ()),
    Case("cond-ranked", "Which qubits have T1 under 40 us?", ("rank_metric", {"metric_name": "t1", "n": 5}),
         (_not("T1 below 40 μs", "no call applied it"),)),
    Case("cond-other-limit", "What fraction of qubits have T2 echo above 50 us?",
         ("filter_metric", {"metric_name": "t2_echo", "above": 40}),
         (_not("T2 echo above 50 μs", "the answer applies only T2 echo above 40 μs"),)),
    # window
    Case("window-days", "How many tasks failed in the last 7 days?",
         ("count_in_window", {"what": "failed tasks", "days": 7}), ()),
    Case("window-every-run", "How many tasks failed in the last 7 days?", ("count_in_window", {"what": "failed tasks"}),
         (_scope("the last 7 days"),)),
    Case("window-other-days", "How many tasks failed in the last 7 days?",
         ("count_in_window", {"what": "failed tasks", "days": 30}), (_scope("the last 7 days"),)),
    Case("window-week", "How many runs failed this week?",
         ("count_in_window", {"what": "failed runs", "since_weekday": "monday"}), ()),
    Case("window-week-missed", "How many runs failed this week?", ("count_in_window", {"what": "failed runs"}),
         (_scope("this week"),)),
    Case("window-dates", "How many tasks failed since November 3?",
         ("count_in_window", {"what": "failed tasks", "from_date": "11-03"}), ()),
    Case("window-dates-missed", "How many tasks failed since November 3?",
         ("count_in_window", {"what": "failed tasks"}), (_scope("since 11\\-03"),)),
    # task and one qubit
    Case("task-covered", "How many CheckT1 results failed in the last 30 days?",
         ("count_in_window", {"what": "failed tasks", "task_name": "CheckT1", "days": 30}), ()),
    Case("task-missed", "How many CheckT1 results failed in the last 30 days?",
         ("count_in_window", {"what": "failed tasks", "days": 30}), (_scope("CheckT1"),)),
    Case("qubit-covered", "How many tasks failed on Q05 in the last 30 days?",
         ("count_in_window", {"what": "failed tasks", "qid": "5", "days": 30}), ()),
    Case("qubit-missed", "How many tasks failed on Q05 in the last 30 days?",
         ("count_in_window", {"what": "failed tasks", "days": 30}), (_scope("qubit 5"),)),
    # kind of subject
    Case("kind-covered", "Which coupling fails most?", ("failure_ranking", {"by": "coupling"}), ()),
    Case("kind-missed", "Which coupling fails most?", ("failure_ranking", {"by": "qubit"}),
         (_not("couplings", "the answer is about qubits"),)),
    # statistic
    Case("stat-spread", "How spread out is T1 across the chip?", ("metric_spread", {"metric_name": "t1"}), ()),
    Case("stat-filter", "How spread out is T1 across the chip?", ("filter_metric", {"metric_name": "t1", "below": 50}),
         (_not(SPREAD, "no call computed it"),)),
    Case("stat-share", "What fraction of qubits have T2 echo above 50 us?",
         ("filter_metric", {"metric_name": "t2_echo", "above": 50}), ()),
    Case("stat-count-missed", "How many qubits have T1 below 50 us and T2 echo above 40 us?",
         ("rank_metric", {"metric_name": "t1", "n": 5}),
         (_not("T1 below 50 μs", "no call applied it"), _not("T2 echo above 40 μs", "no call applied it"))),
    # (a ranking states how many qubits it read: that count is a count, so the statistic row is covered)
    # unit
    Case("unit-missed", "What is the median qubit frequency in MHz?", ("get_chip_summary", {}),
         (_not("the value in MHz", "the figures above are in GHz"),)),
    Case("unit-covered", "How spread out is the qubit frequency, in MHz?",
         ("metric_spread", {"metric_name": "qubit_frequency", "unit": "MHz"}), ()),
    # ATTACK: wordings written after the check
    Case("attack-n-words", "Name the five qubits with the shortest T1", ("rank_metric", {"metric_name": "t1", "n": 1}),
         (_not("the 5 shortest", "the answer names 1"),)),
    Case("attack-n-bottom", "Bottom 3 qubits for X90 gate fidelity?", ("get_chip_summary", {}),
         (_not("the bottom 3", "no call ranked them"),)),
    Case("attack-but", "Count the qubits whose X90 gate fidelity is above 99.5% but whose T1 is below 60 us",
         ("filter_metric", {"metric_name": "x90_gate_fidelity", "above": 99.5}),
         (_not("T1 below 60 μs", "the answer applies only X90 gate fidelity above 99.5%"),)),
    Case("attack-pair-words", "Which qubit pair fails the most?", ("failure_ranking", {"by": "task"}),
         (_not("couplings", "the answer is about tasks"),)),
    Case("attack-days-ranking", "Which qubit failed most over the past 10 days?",
         ("failure_ranking", {"by": "qubit", "days": 10}), ()),
    Case("attack-pair-coupling-metric", "Bell state fidelity between Q0 and Q1?",
         ("get_coupling_params", {"coupling_id": "0-1", "param_names": ["bell_state_fidelity"]}), ()),
    Case("attack-unit-lookup", "What is Q5 qubit frequency in MHz?", ("get_qubit_params", {"qid": "5"}),
         (_not("the value in MHz", "the figures above are in GHz"),)),
)


def with_chip(args: dict) -> dict:
    return {"chip_id": CHIP, **args}
